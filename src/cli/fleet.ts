/**
 * `a2a-interop run-many <file>` and `a2a-interop merge <dirs…>`: the suite over a list of agents, on one machine
 * or sharded across CI jobs (Playwright's `--shard` + `merge-reports` pattern).
 *
 *   out-dir/agents/<slug>.json (+ .sarif, .junit.xml, .md, .html)   one report per agent
 *   out-dir/summary.json | summary.md | summary.html                 the matrix: agents × categories, level, trend
 *
 * Isolation: each agent gets its own abort signal, budgets and an overall deadline (`--deadline`); a run that
 * does not end within the deadline plus a grace period is given up (its report is built from the events it
 * recorded), and anything thrown is caught, so one agent that hangs, floods or lies never stalls or crashes
 * the others. Runs share the process (concurrency is in-flight I/O; the suite itself is light on CPU).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { applyEvents, buildReport, initialRunState, meetsLevel, type ConformanceLevel, type Report, type RunEvent, type RunOptions } from '../engine';
import { compareWithBaseline } from '../engine/report/baseline';
import { runConformance } from '../engine/runner/run';
import { TOOL } from '../engine/report/build';
import { agentSlug } from '../exporters/common';
import { loadReport, type ExportFormat } from '../exporters';
import { lazyGrpc } from '../grpc/lazy';
import { createNodeHost } from '../hosts/node';
import { parseFleetFile, resolveCredentials, shardOf, type FleetAgent } from './fleet-input';
import {
  FLEET_SUMMARY_KIND,
  FLEET_SUMMARY_VERSION,
  emptyCategories,
  emptySummary,
  fleetHtml,
  fleetMarkdown,
  rowOf,
  sortRows,
  totalsLine,
  type FleetRow,
  type FleetSummary,
} from './fleet-summary';
import { writeReportFiles } from './outputs';
import { fleetGate, type FailOn } from './gate';

export interface FleetIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: Record<string, string | undefined>;
}

export interface RunManyOptions {
  file: string;
  outDir: string;
  concurrency: number;
  formats: ExportFormat[];
  minLevel: ConformanceLevel;
  timeoutMs: number;
  /** Overall time one agent may take; then its run is stopped (and given up after `GRACE_MS`). */
  deadlineMs: number;
  only?: string[];
  shard?: { index: number; total: number };
  baselineDir?: string;
  /** --fail-on: what exits 1 (src/cli/gate.ts fleetGate); default level. */
  failOn?: FailOn;
  quiet: boolean;
  /** After the deadline's abort, how long a run may take to stop before it is given up (default GRACE_MS). */
  graceMs?: number;
  /** Runs one agent (tests inject hostile runners); default: the engine with the Node host. */
  runAgent?: (options: RunOptions, onEvent: (e: RunEvent) => void) => Promise<Report>;
}

/** After the deadline's abort, how long a run may take to wind down before it is given up. */
export const GRACE_MS = 5_000;
const SUMMARY_FILE = 'summary.json';

// gRPC as `a2a-interop run` speaks it (one lazily loaded transport for every agent of the fleet).
const fleetGrpc = lazyGrpc();
const defaultRunAgent = (options: RunOptions, onEvent: (e: RunEvent) => void) => runConformance(createNodeHost({ grpc: fleetGrpc }), options, onEvent);

/** `<slug>-<8 hex of the key>`: readable, unique per agent, the same in every shard and every night. */
const agentFileBase = (a: FleetAgent) => `${agentSlug(a.name, a.url)}-${createHash('sha256').update(a.key).digest('hex').slice(0, 8)}`;

function writeFile(path: string, body: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, body);
}

/** The baseline summary's rows by key, and where their JSON reports are. Missing or unreadable: an empty map and a warning. */
function loadBaseline(dir: string, io: FleetIo): Map<string, string> {
  const out = new Map<string, string>();
  const path = join(dir, SUMMARY_FILE);
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as Partial<FleetSummary>;
    if (s.kind !== FLEET_SUMMARY_KIND || !Array.isArray(s.agents)) throw new Error('not a fleet summary');
    for (const r of s.agents) if (typeof r.files?.json === 'string') out.set(r.key, join(dir, r.files.json));
  } catch (e) {
    io.stderr(`warning: no baseline from ${path} (${e instanceof Error ? e.message : String(e)}); trends are left out.\n`);
  }
  return out;
}

function readReport(path: string): Report | undefined {
  try {
    const loaded = loadReport(readFileSync(path, 'utf8'));
    return loaded.ok ? loaded.report : undefined;
  } catch {
    return undefined;
  }
}

/** Runs one agent within its deadline; never throws, never waits longer than deadline + grace. */
async function runWithDeadline(agent: FleetAgent, o: RunManyOptions, credentials: RunOptions['credentials']): Promise<{ report: Report; deadline?: string }> {
  const events: RunEvent[] = [];
  const controller = new AbortController();
  const cap = Math.min(30_000, o.timeoutMs);
  const options: RunOptions = {
    agentUrl: agent.url,
    credentials,
    timeoutMs: o.timeoutMs,
    limits: { requestTimeoutMs: cap, streamIdleTimeoutMs: cap },
    only: o.only,
    signal: controller.signal,
    transport: 'direct',
  };
  let deadline: string | undefined;
  const grace = o.graceMs ?? GRACE_MS;
  const timers: ReturnType<typeof setTimeout>[] = [];
  const givenUp = new Promise<'given-up'>((res) => {
    timers.push(
      setTimeout(() => {
        deadline = `Stopped at the per-agent deadline of ${o.deadlineMs / 1000} s (--deadline).`;
        controller.abort(new Error('deadline'));
      }, o.deadlineMs),
      setTimeout(() => res('given-up'), o.deadlineMs + grace),
    );
  });
  const run = (o.runAgent ?? defaultRunAgent)(options, (e) => events.push(e)).then(
    (report) => ({ report }),
    (e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }),
  );
  try {
    const out = await Promise.race([run, givenUp]);
    if (out !== 'given-up' && 'report' in out) return { report: out.report, deadline };
    // Gave up, or the run threw: the report of what it recorded, marked interrupted.
    const why =
      out === 'given-up'
        ? `${deadline ?? ''} The run did not stop within ${grace / 1000} s and was given up.`.trim()
        : `Our tool failed on this agent: ${out.error}`;
    const started: RunEvent[] = events.some((e) => e.type === 'run-started')
      ? []
      : [
          {
            type: 'run-started',
            at: Date.now(),
            runId: `fleet-${agent.key}`,
            agentUrl: agent.url,
            options: { timeoutMs: o.timeoutMs, credentials: credentials?.kind ?? 'none' },
            tool: { ...TOOL },
          },
        ];
    const all = [
      ...started,
      ...events.filter((e) => e.type !== 'run-finished'),
      { type: 'run-finished', at: Date.now(), status: out === 'given-up' ? 'interrupted' : 'errored', error: why } as RunEvent,
    ];
    return { report: buildReport(applyEvents(initialRunState(), all), all), deadline: out === 'given-up' ? why : undefined };
  } finally {
    for (const t of timers) clearTimeout(t);
  }
}

function writeSummary(outDir: string, s: FleetSummary): void {
  writeFile(join(outDir, SUMMARY_FILE), `${JSON.stringify(s, null, 2)}\n`);
  writeFile(join(outDir, 'summary.md'), fleetMarkdown(s));
  writeFile(join(outDir, 'summary.html'), fleetHtml(s));
}

/** `a2a-interop run-many`. Returns the exit code. */
export async function runMany(o: RunManyOptions, io: FleetIo): Promise<number> {
  let text: string;
  try {
    text = readFileSync(o.file, 'utf8');
  } catch (e) {
    io.stderr(`Cannot read ${o.file}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const parsed = parseFleetFile(text);
  for (const w of parsed.warnings) io.stderr(`warning: ${w}\n`);
  if (parsed.problems.length) {
    io.stderr(`${o.file} was refused, nothing was run:\n${parsed.problems.map((p) => `  - ${p}`).join('\n')}\n`);
    return 2;
  }
  const agents = o.shard ? shardOf(parsed.agents, o.shard) : parsed.agents;
  const formats: ExportFormat[] = ['json', ...o.formats.filter((f) => f !== 'json')];
  const baseline = o.baselineDir ? loadBaseline(o.baselineDir, io) : undefined;
  const started = performance.now();
  if (!o.quiet)
    io.stderr(
      `${agents.length} agent${agents.length === 1 ? '' : 's'}${o.shard ? ` (shard ${o.shard.index}/${o.shard.total} of ${parsed.agents.length})` : ''}, ${o.concurrency} at a time\n`,
    );

  const rows: FleetRow[] = [];
  let next = 0;
  let done = 0;
  const meets = (level: ConformanceLevel | null) => meetsLevel(level, o.minLevel);
  const one = async (agent: FleetAgent): Promise<FleetRow> => {
    const base = agentFileBase(agent);
    const creds = resolveCredentials(agent, io.env);
    if ('missing' in creds) {
      return {
        key: agent.key,
        name: agent.name ?? agent.url,
        url: agent.url,
        outcome: 'not-run',
        level: null,
        levelLabel: 'not run',
        provisional: false,
        message: `Environment variable${creds.missing.length === 1 ? '' : 's'} ${creds.missing.join(', ')} not set.`,
        generation: null,
        binding: null,
        summary: emptySummary(),
        categories: emptyCategories(),
        files: {},
        meetsMinLevel: false,
        durationMs: 0,
      };
    }
    const { report: raw, deadline } = await runWithDeadline(agent, o, creds.credentials);
    let report = raw;
    if (baseline) {
      const path = baseline.get(agent.key);
      const before = path ? readReport(path) : undefined;
      if (before) report = { ...report, comparison: compareWithBaseline(before, report) };
    }
    const { files, warnings } = writeReportFiles(report, formats, join(o.outDir, 'agents', base), writeFile);
    for (const w of warnings) io.stderr(`warning: ${agent.url}: ${w}\n`);
    const rel = Object.fromEntries(Object.entries(files).map(([f, p]) => [f, relative(o.outDir, p).split('\\').join('/')]));
    const row = rowOf(agent.key, report, { files: rel, minLevel: o.minLevel, meets, deadline, name: agent.name });
    if (baseline && !row.trend) row.trend = { status: 'new' };
    return row;
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(o.concurrency, agents.length)) }, async () => {
      while (next < agents.length) {
        const agent = agents[next++]!;
        let row: FleetRow;
        try {
          row = await one(agent);
        } catch (e) {
          // Writing a file failed, or a bug of ours: the agent gets a row, the others go on.
          row = errorRow(agent, e);
        }
        rows.push(row);
        done++;
        if (!o.quiet)
          io.stderr(
            `[${String(done).padStart(String(agents.length).length)}/${agents.length}] ${row.levelLabel.padEnd(28)} ${agent.url} (${(row.durationMs / 1000).toFixed(1)} s)\n`,
          );
      }
    }),
  );
  const summary: FleetSummary = {
    kind: FLEET_SUMMARY_KIND,
    version: FLEET_SUMMARY_VERSION,
    tool: { ...TOOL },
    generatedAt: new Date().toISOString(),
    options: {
      minLevel: o.minLevel,
      timeoutMs: o.timeoutMs,
      deadlineMs: o.deadlineMs,
      ...(o.only?.length ? { only: o.only } : {}),
      formats,
      baseline: Boolean(o.baselineDir),
    },
    ...(o.shard ? { shard: o.shard } : {}),
    agents: sortRows(rows),
    wallMs: Math.round(performance.now() - started),
  };
  writeSummary(o.outDir, summary);
  if (!o.quiet) io.stderr(`\n${totalsLine(summary)}\nSummary: ${join(o.outDir, 'summary.md')} (and .html, .json)\n`);
  const verdict = fleetGate(summary.agents, o.failOn ?? 'level', o.minLevel);
  if (verdict.reason) io.stderr(`${verdict.reason}\n`);
  return verdict.code;
}

function errorRow(agent: FleetAgent, e: unknown): FleetRow {
  return {
    key: agent.key,
    name: agent.name ?? agent.url,
    url: agent.url,
    outcome: 'not-assessed',
    level: null,
    levelLabel: 'not assessed (tool failure)',
    provisional: true,
    message: `Our tool failed on this agent: ${e instanceof Error ? e.message : String(e)}`,
    generation: null,
    binding: null,
    summary: emptySummary(),
    categories: emptyCategories(),
    files: {},
    meetsMinLevel: false,
    durationMs: 0,
  };
}

/**
 * `a2a-interop merge <dirs…> --out-dir DIR`: the shards' summaries as one, equal to an unsharded run's
 * (timings aside), with every report file copied under DIR. Refuses shards of different runs (options or tool
 * version differ) and an agent present in two shards; warns when a shard of `n` is missing.
 */
export function mergeShards(dirs: readonly string[], outDir: string, io: FleetIo & { quiet?: boolean; failOn?: FailOn }): number {
  const summaries: { dir: string; s: FleetSummary }[] = [];
  for (const dir of dirs) {
    try {
      const s = JSON.parse(readFileSync(join(dir, SUMMARY_FILE), 'utf8')) as FleetSummary;
      if (s.kind !== FLEET_SUMMARY_KIND || s.version !== FLEET_SUMMARY_VERSION || !Array.isArray(s.agents))
        throw new Error(`not a version ${FLEET_SUMMARY_VERSION} fleet summary`);
      summaries.push({ dir, s });
    } catch (e) {
      io.stderr(`Cannot merge ${join(dir, SUMMARY_FILE)}: ${e instanceof Error ? e.message : String(e)}\n`);
      return 2;
    }
  }
  const [first] = summaries;
  if (!first) {
    io.stderr('merge needs at least one directory written by run-many\n');
    return 2;
  }
  const sameRun = (a: FleetSummary) => JSON.stringify(a.options) === JSON.stringify(first.s.options) && a.tool.version === first.s.tool.version;
  const odd = summaries.filter(({ s }) => !sameRun(s));
  if (odd.length) {
    io.stderr(`These outputs are not shards of one run (options or tool version differ from ${first.dir}): ${odd.map((x) => x.dir).join(', ')}\n`);
    return 2;
  }
  const total = first.s.shard?.total;
  if (total) {
    const have = new Set(summaries.map(({ s }) => s.shard?.index));
    const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !have.has(i));
    if (missing.length)
      io.stderr(
        `warning: shard${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: the summary covers only the shards given.\n`,
      );
  }
  const seen = new Map<string, string>();
  const rows: FleetRow[] = [];
  for (const { dir, s } of summaries) {
    for (const r of s.agents) {
      const other = seen.get(r.key);
      if (other) {
        io.stderr(`Agent ${r.key} is in both ${other} and ${dir}: not shards of one split.\n`);
        return 2;
      }
      seen.set(r.key, dir);
      // Report files move under outDir with the same relative paths.
      for (const rel of Object.values(r.files)) {
        const from = resolve(dir, rel);
        const to = resolve(outDir, rel);
        if (from !== to && existsSync(from)) {
          mkdirSync(dirname(to), { recursive: true });
          copyFileSync(from, to);
        }
      }
      rows.push(r);
    }
  }
  const { shard: _shard, ...rest } = first.s;
  const merged: FleetSummary = {
    ...rest,
    generatedAt: new Date().toISOString(),
    agents: sortRows(rows),
    wallMs: Math.max(...summaries.map(({ s }) => s.wallMs)),
  };
  writeSummary(outDir, merged);
  if (!io.quiet)
    io.stderr(
      `${summaries.length} output${summaries.length === 1 ? '' : 's'} merged: ${rows.length} agents\n${totalsLine(merged)}\nSummary: ${join(outDir, 'summary.md')} (and .html, .json)\n`,
    );
  const verdict = fleetGate(merged.agents, io.failOn ?? 'level', merged.options.minLevel);
  if (verdict.reason) io.stderr(`${verdict.reason}\n`);
  return verdict.code;
}
