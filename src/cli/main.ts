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
import { CHECK_CATALOG, unknownCheckIds } from '../engine/checks';
import { catalog, catalogMarkdown, explainCheck, levelsLine, suggest } from './explain';
import type { ConformanceLevel, Credentials, Report, RunEvent } from '../engine';
import { TOOL } from '../engine/report/build';
import type { ExportFormat } from '../exporters';
import { lazyGrpc } from '../grpc/lazy';
import type { CliIo } from './io';
import { OAUTH_OPTIONS, OAUTH_USAGE, oauthFrom, type OAuthFlags } from './oauth';
import type * as RunDeps from './run-deps';
import { gate, isFailOn, type FailOn } from './gate';
import { fetchWithExtraHeaders, parseHeader, splitCliHeaders } from './headers';

// The runner, the exporters and the rest of what `run`, `run-many` and `merge` need, loaded on demand
// (loadRunDeps) so `checks`, `explain` and `--help` start fast.
let { runConformance, createNodeHost, createNodeInbox, loadReport, toBadge, levelLabel, compareWithBaseline, parseShard, parseFormats, writeReportFiles } =
  {} as typeof RunDeps;
async function loadRunDeps(): Promise<void> {
  ({ runConformance, createNodeHost, createNodeInbox, loadReport, toBadge, levelLabel, compareWithBaseline, parseShard, parseFormats, writeReportFiles } =
    await import('./run-deps'));
}

export const USAGE = `a2a-interop ${TOOL.version}: A2A conformance testing from the command line

Usage:
  a2a-interop run <agent-url> [options]
  a2a-interop checks [--format text|json|markdown]
  a2a-interop explain <check-id>
  a2a-interop run-many <file> [options]
  a2a-interop merge <dir>... [--out-dir DIR]
  a2a-interop mcp [--report-dir DIR]    MCP server on stdio, for AI assistants (see README); full reports go to DIR
  a2a-interop tap <agent-url> [--port N] [--record DIR] [--fail-on client|agent|any] [-- <command>]
                                        a recording, judging relay between your A2A client and the agent (tap --help)
  a2a-interop --help | --version

<agent-url> is the agent's base URL, a base URL with a path, or the card URL itself.

Options for run:
  --format json|markdown|junit|html|sarif   report format (default json); several, comma-separated, with --out-dir
  --out FILE                          write the report to FILE (default: stdout)
  --out-dir DIR                       write a2a-report.<ext> per format to DIR (e.g. a2a-report.sarif, a2a-report.junit.xml)
  --badge FILE                        also write a badge SVG of the level ("A2A | full", "A2A | not assessed: unreachable")
  --baseline FILE                     compare with a previous JSON report: the report gains a comparison section,
                                      and any regression, new failure or lower level exits 1
  --header "Name: value"              send this header on every request to the agent (repeatable; at most one
                                      credential header, e.g. Authorization or X-API-Key)
  --bearer TOKEN                      send Authorization: Bearer TOKEN (or set A2A_INTEROP_BEARER)
  --api-key KEY                       API key, sent where the card's apiKey scheme says (or A2A_INTEROP_API_KEY)
${OAUTH_USAGE}
  --peer URL                          a second agent for two-agent interop checks
  --jwks FILE                         public keys (a JWKS file) trusted to verify the card's signatures
  --webhook-url URL                   public address that forwards to our push webhook inbox (for an agent that
                                      cannot reach this machine's 127.0.0.1); addresses are URL/inbox/<token>
  --webhook-port N                    port of the inbox (default: ephemeral; fix it for --webhook-url forwarding)
  --task-timeout SECONDS              per-task timeout (default 60, as the conformance procedure says): a task or
                                      stream that reaches no terminal state within it fails (alias: --timeout)
  --binding jsonrpc|http+json|grpc    test this binding when the card declares several (gRPC: v1.0 interfaces)
  --protocol-version 1.0|0.3          test the card's interfaces of this version (e.g. a v1.0 card's 0.3 compat ones)
  --skill ID                          exercise only this skill (repeatable; default: every skill in the card)
  --only CHECK-ID                     run only this check (repeatable): results, but no agent level
  --min-level full|partial|minimal    level needed for exit code 0 (default minimal)
  --fail-on level|regression|never    what exits 1: level (default): below --min-level, not assessed, or with
                                      --baseline a regression; regression: only a regression against --baseline;
                                      never: reports only (exit 2 still means a usage error or our failure)
  --sarif-category NAME               code-scanning category of the SARIF (automationDetails.id; default: from the
                                      agent URL, a2a-interop/<host>/<path>)
  --quiet                             no progress on stderr

Options for run-many (<file>: URLs one per line with # comments, or a JSON list / registry export whose
headers reference environment variables, e.g. {"url": "...", "headers": {"Authorization": "Bearer \${TOKEN}"}}):
  --out-dir DIR                       where reports and the summary go (default a2a-fleet)
  --format LIST                       formats per agent besides json (comma-separated)
  --concurrency N                     agents at once (default 4)
  --shard I/N                         run only shard I of N (deterministic split; combine with merge)
  --baseline-dir DIR                  a previous run-many output: trend per agent, and exit 1 on a regression
  --deadline SECONDS                  overall time per agent before it is stopped (default 600)
  --task-timeout, --only, --min-level, --fail-on, --quiet   as for run (the per-task timeout also caps request and stream waits)

Options for merge: --out-dir DIR (default a2a-fleet), --quiet.

Exit codes: 0 level meets --min-level (run-many: every agent, no regression), 1 it does not (or a regression
against --baseline / --baseline-dir, or no level: --only, not assessed), 2 usage error or a failure of this tool,
130 interrupted by SIGINT (Ctrl-C), 143 by SIGTERM: the partial reports are written, marked incomplete, with no level.
Credentials are never written to the report.`;

const LEVELS: ConformanceLevel[] = ['full', 'partial', 'minimal', 'non-conformant'];

// In a module of its own: tap.ts (loaded from here) names it too, and an import back into main.ts would be a cycle.
export type { CliIo } from './io';

class UsageError extends Error {}

/** --header values: the credential among them and the extra headers (src/cli/headers.ts), or a usage error. */
function headersFrom(header: readonly string[] | undefined): Exclude<ReturnType<typeof splitCliHeaders>, string> {
  const parsed = (header ?? []).map((h) => {
    const p = parseHeader(h);
    if (typeof p === 'string') throw new UsageError(p);
    return p;
  });
  const split = splitCliHeaders(parsed);
  if (typeof split === 'string') throw new UsageError(split);
  return split;
}

function credentialsFrom(v: { header?: string[]; bearer?: string; 'api-key'?: string } & OAuthFlags, env: CliIo['env']): Credentials {
  const bearer = v.bearer ?? env.A2A_INTEROP_BEARER;
  const apiKey = v['api-key'] ?? env.A2A_INTEROP_API_KEY;
  const headers = headersFrom(v.header);
  const oauth = oauthFrom(v, env);
  if (typeof oauth === 'string') throw new UsageError(oauth);
  const kinds = [bearer && 'bearer', apiKey && 'api-key', headers.credentials.kind !== 'none' && 'header', oauth && 'oauth2'].filter(Boolean);
  if (kinds.length > 1) throw new UsageError(`Give one kind of credentials (got ${kinds.join(', ')})`);
  if (oauth) return oauth;
  if (bearer) return { kind: 'bearer', token: bearer };
  if (apiKey) return { kind: 'api-key', value: apiKey };
  return headers.credentials;
}

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
      `\nConformance level: ${levelLabel(report)}${report.provisional ? ' (provisional)' : ''} — ${s.passed} passed, ${s.failed} required failure(s), ${s.advisories} advisor${s.advisories === 1 ? 'y' : 'ies'}, ${s.skipped} skipped, ${s.errors} tool error(s)${s.notRun ? `, ${s.notRun} not run` : ''}\n${report.levelReason}\n${written.length ? `Written: ${written.join(', ')}\n` : ''}`,
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

/** --fail-on: level (default), regression (needs --baseline) or never. */
function failOnOf(s: string | undefined, haveBaseline: boolean, baseline = '--baseline FILE (a previous JSON report to compare with)'): FailOn {
  const f = s ?? 'level';
  if (!isFailOn(f)) throw new UsageError('--fail-on must be level, regression or never');
  if (f === 'regression' && !haveBaseline) throw new UsageError(`--fail-on regression needs ${baseline}`);
  return f;
}

const cleanCategoryOk = (s: string) => s.trim().replace(/\/+$/, '').length > 0;

/** --task-timeout (the procedure's per-task timeout; --timeout is its older name): seconds. */
function taskTimeoutOf(v: { timeout?: string; 'task-timeout'?: string }): number {
  if (v.timeout !== undefined && v['task-timeout'] !== undefined) throw new UsageError('Give --task-timeout or --timeout (its older name), not both');
  return v['task-timeout'] !== undefined ? secondsOf(v['task-timeout'], 60, '--task-timeout') : secondsOf(v.timeout, 60, '--timeout');
}

/** --only ids must name checks: an unknown id is a usage error with suggestions, never a run of nothing. */
function checkOnly(only: readonly string[] | undefined): void {
  const unknown = unknownCheckIds(only ?? []);
  if (!unknown.length) return;
  throw new UsageError(
    unknown
      .map((u) => `--only: no check "${u.id}".${u.suggestions.length ? ` Did you mean: ${u.suggestions.join(', ')}?` : ''}`)
      .concat('List them with a2a-interop checks.')
      .join('\n'),
  );
}

function minLevelOf(s: string | undefined): ConformanceLevel {
  const minLevel = (s ?? 'minimal') as ConformanceLevel;
  if (!LEVELS.includes(minLevel) || minLevel === 'non-conformant') throw new UsageError('--min-level must be full, partial or minimal');
  return minLevel;
}

function secondsOf(s: string | undefined, fallback: number, flag: string, max = 3600): number {
  const n = s === undefined ? fallback : Number(s);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`${flag} must be a number of seconds between 0 and ${max}`);
  return n;
}

/** The `--baseline` report: read, migrated and validated, or a usage error saying what is wrong. */
/** The --jwks file, parsed: a JSON Web Key Set (`{ "keys": [...] }`) of public keys. */
function readJwks(path: string, io: CliIo): unknown {
  let text: string;
  try {
    text = (io.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (e) {
    throw new UsageError(`--jwks: cannot read ${path} (${e instanceof Error ? e.message : String(e)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--jwks: ${path} is not JSON`);
  }
  const keys = typeof value === 'object' && value !== null && 'keys' in value ? value.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw new UsageError(`--jwks: ${path} is not a JWKS (a JSON object with a non-empty "keys" list)`);
  if (keys.some((k) => typeof k === 'object' && k !== null && 'd' in k))
    throw new UsageError(`--jwks: ${path} holds a private key ("d"); give the public keys only`);
  return value;
}

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

type ParsedValues = Parameters<typeof credentialsFrom>[0] & {
  format?: string[];
  'out-dir'?: string;
  'baseline-dir'?: string;
  concurrency?: string;
  shard?: string;
  deadline?: string;
  timeout?: string;
  'task-timeout'?: string;
  only?: string[];
  'min-level'?: string;
  'fail-on'?: string;
  quiet?: boolean;
};

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

/** --webhook-url (an absolute http(s) URL) and --webhook-port (1-65535). */
function webhookOf(url: string | undefined, port: string | undefined): { publicUrl?: string; port?: number } {
  const out: { publicUrl?: string; port?: number } = {};
  if (url !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`--webhook-url is not a URL: ${JSON.stringify(url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--webhook-url must be an http(s) URL');
    if (u.search || u.hash || u.username || u.password) throw new UsageError('--webhook-url takes no query, fragment or credentials');
    out.publicUrl = u.toString();
  }
  if (port !== undefined) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError('--webhook-port must be a port number from 1 to 65535');
    out.port = n;
  }
  return out;
}
