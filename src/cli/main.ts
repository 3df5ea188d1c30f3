/**
 * `a2a-interop`: the conformance suite headless, for CI pipelines.
 *
 *   a2a-interop run <agent-url> [options]     run the suite, write the report, exit 0/1/2
 *   a2a-interop checks [--format text|json|markdown]   list every check (id, category, levels per generation)
 *   a2a-interop explain <check-id>             what a check enforces, with the spec sentences per generation
 *   a2a-interop run-many <file> [options]     the suite over a list of agents (sharded across CI jobs with --shard)
 *   a2a-interop merge <dir>... --out-dir DIR  shard outputs of run-many merged into one summary
 *
 * Exit codes: 0 the conformance level meets --min-level; 1 it does not; 2 usage error or our tool failed.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHECK_CATALOG } from '../engine/checks';
import { catalog, catalogMarkdown, explainCheck, levelsLine, suggest } from './explain';
import type { ConformanceLevel, Credentials, Report, RunEvent } from '../engine';
import { TOOL } from '../engine/report/build';
import { failureTally, failureWords } from '../engine/report/level';
import { reportResults } from '../engine';
import type { ExportFormat } from '../exporters';
import { lazyGrpc } from '../grpc/lazy';
import type { CliIo } from './io';
import { OAUTH_OPTIONS } from './oauth';
import type * as RunDeps from './run-deps';
import { gate, type FailOn } from './gate';
import { fetchWithExtraHeaders } from './headers';
import {
  checkOnly,
  cleanCategoryOk,
  credentialsFrom,
  failOnOf,
  headersFrom,
  minLevelOf,
  readJwks,
  secondsOf,
  taskTimeoutOf,
  UsageError,
  webhookOf,
  type ParsedValues,
} from './flags';
import { USAGE } from './usage';

// The runner, the exporters and the rest of what `run`, `run-many` and `merge` need, loaded on demand
// (loadRunDeps) so `checks`, `explain` and `--help` start fast.
let { runConformance, createNodeHost, createNodeInbox, loadReport, toBadge, levelLabel, compareWithBaseline, parseShard, parseFormats, writeReportFiles } =
  {} as typeof RunDeps;
async function loadRunDeps(): Promise<void> {
  ({ runConformance, createNodeHost, createNodeInbox, loadReport, toBadge, levelLabel, compareWithBaseline, parseShard, parseFormats, writeReportFiles } =
    await import('./run-deps'));
}

// In a module of its own: tap.ts (loaded from here) names it too, and an import back into main.ts would be a cycle.
export type { CliIo } from './io';

const SYMBOL: Record<string, string> = { pass: 'PASS', fail: 'FAIL', advisory: 'ADVI', skip: 'SKIP', error: 'ERR ' };

/** Runs the CLI with `argv` (without node and script). Returns the exit code. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  // `tap` has its own options and a `-- <command>` tail: src/cli/tap.ts.
  if (argv[0] === 'tap') return (await import('./tap')).tapCommand(argv.slice(1), io);
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        format: { type: 'string', multiple: true },
        out: { type: 'string' },
        'out-dir': { type: 'string' },
        badge: { type: 'string' },
        baseline: { type: 'string' },
        'baseline-dir': { type: 'string' },
        concurrency: { type: 'string' },
        shard: { type: 'string' },
        deadline: { type: 'string' },
        header: { type: 'string', multiple: true },
        bearer: { type: 'string' },
        'api-key': { type: 'string' },
        ...OAUTH_OPTIONS,
        peer: { type: 'string' },
        jwks: { type: 'string' },
        'webhook-url': { type: 'string' },
        'webhook-port': { type: 'string' },
        timeout: { type: 'string' },
        'task-timeout': { type: 'string' },
        skill: { type: 'string', multiple: true },
        binding: { type: 'string' },
        'protocol-version': { type: 'string' },
        only: { type: 'string', multiple: true },
        'min-level': { type: 'string' },
        'fail-on': { type: 'string' },
        'sarif-category': { type: 'string' },
        'report-dir': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (e) {
    io.stderr(`${e instanceof Error ? e.message : String(e)}\n\n${USAGE}\n`);
    return 2;
  }
  const { values: v, positionals } = parsed;
  if (v.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  if (v.version) {
    io.stdout(`${TOOL.version}\n`);
    return 0;
  }
  const [command, target, ...extra] = positionals;
  if (command === 'checks') {
    const f = v.format?.at(-1) ?? 'text';
    if (f === 'json') io.stdout(`${JSON.stringify(catalog(), null, 2)}\n`);
    else if (f === 'markdown') io.stdout(catalogMarkdown());
    else if (f === 'text') {
      io.stdout(`${'id'.padEnd(30)} ${'category'.padEnd(15)} ${'legacy/v0.2/v0.3/v1.0'.padEnd(24)} title\n`);
      for (const c of CHECK_CATALOG) io.stdout(`${c.id.padEnd(30)} ${c.category.padEnd(15)} ${levelsLine(c).padEnd(24)} ${c.title}\n`);
    } else {
      io.stderr(`--format for checks is text, json or markdown, not ${JSON.stringify(f)}\n`);
      return 2;
    }
    return 0;
  }
  if (command === 'explain') {
    if (!target) {
      io.stderr('explain needs a check id, e.g. a2a-interop explain errors.task-not-found (list them with a2a-interop checks)\n');
      return 2;
    }
    const text = explainCheck(target);
    if (!text) {
      const near = suggest(target);
      io.stderr(`No check "${target}".${near.length ? ` Did you mean: ${near.join(', ')}?` : ''} List them with a2a-interop checks.\n`);
      return 2;
    }
    io.stdout(text);
    return 0;
  }
  if (command === 'mcp') return (await import('../mcp/server')).serveStdio({ quiet: !!v.quiet, reportDir: v['report-dir'] ?? io.env.A2A_INTEROP_REPORT_DIR });
  await loadRunDeps();
  if (command === 'run-many' || command === 'merge') {
    try {
      return await fleetCommand(command, positionals.slice(1), v, io);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      io.stderr(`${e.message}\n\nRun "a2a-interop --help" for usage.\n`);
      return 2;
    }
  }
  if (command !== 'run') {
    io.stderr(`${command ? `Unknown command "${command}".` : 'No command given.'}\n\n${USAGE}\n`);
    return 2;
  }
  try {
    if (!target) throw new UsageError('run needs the agent URL');
    if (extra.length) throw new UsageError(`Unexpected argument(s): ${extra.join(' ')}`);
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      throw new UsageError(`Not a URL: ${JSON.stringify(target)} (give an absolute http(s) URL)`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`Only http and https URLs are supported, got ${url.protocol}`);
    const formats = parseFormats(v.format, 'json');
    if (typeof formats === 'string') throw new UsageError(formats);
    if (formats.length > 1 && !v['out-dir']) throw new UsageError('Several formats need --out-dir DIR (one file per format)');
    if (v.out && v['out-dir']) throw new UsageError('Give --out FILE or --out-dir DIR, not both');
    const minLevel = minLevelOf(v['min-level']);
    const timeoutS = taskTimeoutOf(v);
    checkOnly(v.only);
    const baseline = v.baseline === undefined ? undefined : readBaseline(v.baseline, io);
    if (v.peer) {
      try {
        new URL(v.peer);
      } catch {
        throw new UsageError(`--peer is not a URL: ${JSON.stringify(v.peer)}`);
      }
    }
    const credentials = credentialsFrom(v, io.env);
    const failOn = failOnOf(v['fail-on'], baseline !== undefined);
    const sarifCategory = v['sarif-category'];
    if (sarifCategory !== undefined && !cleanCategoryOk(sarifCategory)) throw new UsageError('--sarif-category needs a name, e.g. a2a-interop/billing-agent');
    const jwks = v.jwks === undefined ? undefined : readJwks(v.jwks, io);
    const binding =
      v.binding === undefined
        ? undefined
        : ({ jsonrpc: 'JSONRPC', 'http+json': 'HTTP+JSON', rest: 'HTTP+JSON', grpc: 'GRPC' } as const)[v.binding.toLowerCase() as 'jsonrpc'];
    if (v.binding !== undefined && !binding) throw new UsageError('--binding must be jsonrpc, http+json or grpc');
    const webhook = webhookOf(v['webhook-url'], v['webhook-port']);
    const pv = v['protocol-version'];
    if (pv !== undefined && !/^\d+\.\d+$/.test(pv)) throw new UsageError('--protocol-version must be Major.Minor, e.g. 1.0 or 0.3');
    return await run(io, {
      prefer: binding || pv ? { binding, protocolVersion: pv } : undefined,
      url: url.toString(),
      formats,
      out: v.out,
      outDir: v['out-dir'],
      badge: v.badge,
      baseline,
      minLevel,
      failOn,
      sarifCategory,
      extraHeaders: headersFrom(v.header).extra,
      timeoutMs: Math.round(timeoutS * 1000),
      credentials,
      peer: v.peer,
      jwks,
      webhook,
      skills: v.skill,
      only: v.only,
      quiet: !!v.quiet,
    });
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`${e.message}\n\nRun "a2a-interop --help" for usage.\n`);
      return 2;
    }
    io.stderr(`a2a-interop failed (this is a bug in the tool, not a verdict on the agent): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 2;
  }
}

interface RunArgs {
  prefer?: { binding?: 'JSONRPC' | 'HTTP+JSON' | 'GRPC'; protocolVersion?: string };
  url: string;
  formats: ExportFormat[];
  out?: string;
  outDir?: string;
  badge?: string;
  baseline?: { path: string; report: Report };
  minLevel: ConformanceLevel;
  /** --fail-on: what exits 1 (src/cli/gate.ts). */
  failOn: FailOn;
  /** --sarif-category: the SARIF's code-scanning category. */
  sarifCategory?: string;
  /** --header values other than the credential: sent on every request to the agent's origin. */
  extraHeaders: Record<string, string>;
  timeoutMs: number;
  credentials: Credentials;
  peer?: string;
  /** Trusted card-signature keys (--jwks), parsed. */
  jwks?: unknown;
  /** The push webhook inbox's public URL (--webhook-url) and port (--webhook-port). */
  webhook: { publicUrl?: string; port?: number };
  skills?: string[];
  only?: string[];
  quiet: boolean;
}

async function run(io: CliIo, a: RunArgs): Promise<number> {
  const onEvent = (e: RunEvent) => {
    if (a.quiet) return;
    if (e.type === 'target-resolved') {
      const t = e.target;
      io.stderr(t.generation ? `${t.role}: ${t.cardUrl} (${t.generation}, ${t.binding ?? 'no binding'})\n` : `${t.role}: ${t.error ?? 'no card'}\n`);
    } else if (e.type === 'check-finished') {
      const r = e.result;
      // The security review is informational: its findings print as INFO, never as a failure or an advisory.
      const symbol = r.category === 'security' && r.status === 'advisory' ? 'INFO' : SYMBOL[r.status];
      io.stderr(`  ${symbol} ${r.id.padEnd(30)} ${r.status === 'pass' ? '' : r.message.split('\n')[0]!.slice(0, 160)}\n`);
    }
  };
  const controller = new AbortController();
  // Ctrl-C (SIGINT) and a CI timeout (SIGTERM) stop the run; its partial reports are still written (marked
  // incomplete, no level) and the exit code says which signal (128 + its number). A second signal kills at once.
  let interrupted: 'SIGINT' | 'SIGTERM' | undefined;
  const onSignal = (sig: 'SIGINT' | 'SIGTERM') => {
    interrupted ??= sig;
    if (!a.quiet) io.stderr(`\n${sig}: stopping the run; writing the partial report (no level)...\n`);
    controller.abort(new Error(`interrupted by ${sig}`));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let report: Report;
  const inbox = createNodeInbox({
    ...a.webhook,
    onListen: (local) => {
      if (!a.quiet && a.webhook.publicUrl) io.stderr(`push webhook inbox: ${local} (${a.webhook.publicUrl} must forward to it)\n`);
    },
  });
  try {
    report = await runConformance(
      createNodeHost({ fetch: fetchWithExtraHeaders(io.fetch ?? globalThis.fetch, a.extraHeaders, new URL(a.url).origin), inbox, grpc: lazyGrpc() }),
      {
        agentUrl: a.url,
        peerUrl: a.peer,
        jwks: a.jwks,
        credentials: a.credentials,
        timeoutMs: a.timeoutMs,
        skills: a.skills,
        only: a.only,
        signal: controller.signal,
        transport: 'direct',
        prefer: a.prefer,
      },
      onEvent,
    );
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    await inbox.close();
  }
  if (a.baseline) report = { ...report, comparison: compareWithBaseline(a.baseline.report, report) };
  const written: string[] = [];
  if (a.outDir) {
    const { files, warnings } = writeReportFiles(report, a.formats, join(a.outDir, 'a2a-report'), io.writeFile, { sarifCategory: a.sarifCategory });
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    written.push(...Object.values(files));
  } else {
    const { files, warnings } = writeReportFiles(
      report,
      a.formats,
      'stdout',
      (_p, body) => {
        if (a.out) io.writeFile(a.out, body);
        else io.stdout(body.endsWith('\n') ? body : `${body}\n`);
      },
      { sarifCategory: a.sarifCategory },
    );
    for (const w of warnings) io.stderr(`warning: ${w}\n`);
    if (a.out && files[a.formats[0]!]) written.push(a.out);
  }
  if (a.badge) {
    io.writeFile(a.badge, toBadge(report).body);
    written.push(a.badge);
  }
  const s = report.summary;
  if (!a.quiet) {
    io.stderr(
      `\nConformance level: ${levelLabel(report)}${report.provisional ? ' (provisional)' : ''} — ${failureWords(failureTally(reportResults(report)))}; ${s.passed} passed, ${s.advisories} advisor${s.advisories === 1 ? 'y' : 'ies'}, ${s.skipped} skipped, ${s.errors} tool error(s)${s.notRun ? `, ${s.notRun} not run` : ''}\n${report.levelReason}\n${written.length ? `Written: ${written.join(', ')}\n` : ''}`,
    );
    const c = report.comparison;
    if (c) {
      io.stderr(
        `\nCompared with ${a.baseline?.path}: ${c.verdict} · ${c.summary}\n${c.sameAgent ? '' : `warning: the baseline is a run of another agent (${c.baseline.agentUrl})\n`}`,
      );
      for (const r of c.regressions) io.stderr(`  ${r}\n`);
    }
  }
  if (interrupted) {
    io.stderr(`Interrupted by ${interrupted}: ${report.levelReason}\n`);
    return interrupted === 'SIGINT' ? 130 : 143;
  }
  // Exit code and, when it is not 0, one line on stderr saying why (even with --quiet): src/cli/gate.ts.
  const verdict = gate(report, { failOn: a.failOn, minLevel: a.minLevel, baselinePath: a.baseline?.path });
  if (verdict.reason) io.stderr(`${verdict.reason}\n`);
  return verdict.code;
}

/** The `--baseline` report: read, migrated and validated, or a usage error saying what is wrong. */
function readBaseline(path: string, io: CliIo): { path: string; report: Report } {
  let text: string;
  try {
    text = (io.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (e) {
    throw new UsageError(`--baseline: cannot read ${path} (${e instanceof Error ? e.message : String(e)})`);
  }
  const loaded = loadReport(text);
  if (!loaded.ok) throw new UsageError(`--baseline: ${path} is not a report this tool reads: ${loaded.error}`);
  return { path, report: loaded.report };
}

/** `run-many` and `merge` (loaded on demand: the other commands start faster without them). */
async function fleetCommand(command: 'run-many' | 'merge', args: string[], v: ParsedValues, io: CliIo): Promise<number> {
  const fleet = await import('./fleet');
  const outDir = v['out-dir'] ?? 'a2a-fleet';
  const quiet = !!v.quiet;
  if (command === 'merge') {
    if (!args.length) throw new UsageError('merge needs the output directories of run-many --shard, e.g. a2a-interop merge shard-1 shard-2 --out-dir fleet');
    return fleet.mergeShards(args, outDir, { ...io, quiet, failOn: failOnOf(v['fail-on'], true) });
  }
  const [file, ...extra] = args;
  if (!file) throw new UsageError('run-many needs a file: URLs one per line, or a JSON list / registry export');
  if (extra.length) throw new UsageError(`Unexpected argument(s): ${extra.join(' ')}`);
  if (v.header?.length || v.bearer || v['api-key'] || v['oauth-client-id'])
    throw new UsageError(
      'run-many takes credentials per agent from the file (headers referencing environment variables), not from --header/--bearer/--api-key/--oauth-client-id',
    );
  const formats = parseFormats(v.format, 'json');
  if (typeof formats === 'string') throw new UsageError(formats);
  const concurrency = v.concurrency === undefined ? 4 : Number(v.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 256) throw new UsageError('--concurrency must be a whole number from 1 to 256');
  const shard = v.shard === undefined ? undefined : parseShard(v.shard);
  checkOnly(v.only);
  if (v.shard !== undefined && !shard) throw new UsageError('--shard must be I/N with 1 <= I <= N, e.g. 2/3');
  return fleet.runMany(
    {
      file,
      outDir,
      concurrency,
      formats,
      minLevel: minLevelOf(v['min-level']),
      timeoutMs: Math.round(taskTimeoutOf(v) * 1000),
      deadlineMs: Math.round(secondsOf(v.deadline, 600, '--deadline', 86_400) * 1000),
      only: v.only,
      shard,
      baselineDir: v['baseline-dir'],
      failOn: failOnOf(v['fail-on'], v['baseline-dir'] !== undefined, '--baseline-dir DIR (a previous run-many output)'),
      quiet,
    },
    io,
  );
}

const isEntry = typeof process !== 'undefined' && process.argv[1] && /(?:^|[\\/])(?:main\.ts|bin\.mjs|a2a-interop)$/.test(process.argv[1]);
if (isEntry) {
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    // The reader went away (`a2a-interop checks | head`): stop quietly instead of printing a stack trace.
    if (e.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw e;
  });
  main(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    writeFile: (p, b) => {
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, b);
    },
    isTTY: process.stderr.isTTY,
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`${String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
