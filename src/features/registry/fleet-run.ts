/**
 * A fleet run from the registry: every registered agent (or a selection) through the suite, a few at a time, and
 * the same summary `a2a-interop run-many` writes (src/exporters/fleet-summary.ts: agents x categories, levels,
 * summary.json / .md / .html). Pure apart from the `run` it is given (the dashboard's runner, which also records
 * each run in the History).
 */
import {
  emptyCategories,
  emptySummary,
  FLEET_SUMMARY_KIND,
  FLEET_SUMMARY_VERSION,
  rowOf,
  sortRows,
  type FleetRow,
  type FleetSummary,
} from '../../exporters/fleet-summary';
import { agentKey } from '../../engine/report/compare';
import type { RunMeta } from '../../lib/db';
import { meetsLevel, TOOL, type ConformanceLevel, type Credentials, type Report } from '../../lib/engine';
import type { StoredAgent } from '../../lib/registry-db';
import { agentKeysOf, runTargetOf } from './helpers';

/**
 * Agents at once: the default, and the most the page allows. Every request of the page goes to one origin (the
 * proxy, or the agents directly) and a browser keeps at most 6 HTTP/1.1 connections per origin, with each agent's
 * SSE stream holding one while it is read: more agents at once only queue, and a queued request uses up its
 * agent's time budget. The CLI's run-many has no such limit.
 */
export const FLEET_CONCURRENCY = { default: 2, max: 6 } as const;

export interface FleetTarget {
  /** The registry id: the row's key. */
  key: string;
  name: string;
  url: string;
  credentials: Credentials;
}

/**
 * What each selected agent runs with: its run URL (runTargetOf) and, when its local headers hold a literal value,
 * that one header as the credential. Agents without an http(s) URL are listed apart with the reason.
 */
export function fleetTargets(
  list: readonly StoredAgent[],
  selected?: ReadonlySet<string>,
): { targets: FleetTarget[]; skipped: { key: string; why: string }[] } {
  const targets: FleetTarget[] = [];
  const skipped: { key: string; why: string }[] = [];
  for (const s of list) {
    if (selected && !selected.has(s.id)) continue;
    const url = runTargetOf(s.agent);
    if (!url) {
      skipped.push({ key: s.id, why: 'no card URL and no http(s) endpoint to run' });
      continue;
    }
    const headers = Object.entries((s.agent.local as { headers?: Record<string, unknown> } | undefined)?.headers ?? {}).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '' && !e[1].includes('${'),
    );
    const [h] = headers;
    const bearer = h && h[0].toLowerCase() === 'authorization' ? /^bearer\s+(.+)$/i.exec(h[1])?.[1] : undefined;
    const credentials: Credentials = !h ? { kind: 'none' } : bearer ? { kind: 'bearer', token: bearer } : { kind: 'header', name: h[0], value: h[1] };
    targets.push({ key: s.id, name: s.agent.name || s.id, url, credentials });
  }
  return { targets, skipped };
}

export interface FleetRunOptions {
  concurrency: number;
  /** Runs one agent to its report (the dashboard: the engine through the browser host, recorded in the History). */
  run: (target: FleetTarget, signal: AbortSignal) => Promise<Report>;
  signal: AbortSignal;
  minLevel?: ConformanceLevel;
  /** Each agent's row as soon as its run ends. */
  onRow?: (row: FleetRow, done: number, total: number) => void;
}

/** The row of an agent whose run failed in our code, or that was never started (Stop). */
function notRunRow(t: FleetTarget, outcome: 'not-assessed' | 'not-run', message: string): FleetRow {
  return {
    key: t.key,
    name: t.name,
    url: t.url,
    outcome,
    level: null,
    levelLabel: outcome === 'not-run' ? 'not run' : 'not assessed (tool failure)',
    provisional: outcome === 'not-assessed',
    message,
    generation: null,
    binding: null,
    summary: emptySummary(),
    categories: emptyCategories(),
    files: {},
    meetsMinLevel: false,
    durationMs: 0,
  };
}

/** Runs `targets` at most `concurrency` at a time; after Stop, agents not started yet are rows saying so. */
export async function runFleet(targets: readonly FleetTarget[], o: FleetRunOptions): Promise<FleetRow[]> {
  const minLevel = o.minLevel ?? 'minimal';
  const limit = Math.max(1, Math.min(FLEET_CONCURRENCY.max, Math.floor(o.concurrency) || 1));
  const rows: FleetRow[] = [];
  let next = 0;
  const finish = (row: FleetRow) => {
    rows.push(row);
    o.onRow?.(row, rows.length, targets.length);
  };
  const worker = async () => {
    while (next < targets.length) {
      const t = targets[next++]!;
      if (o.signal.aborted) {
        finish(notRunRow(t, 'not-run', 'Stopped before this agent started.'));
        continue;
      }
      try {
        const report = await o.run(t, o.signal);
        finish(rowOf(t.key, report, { files: {}, minLevel, meets: (l) => meetsLevel(l, minLevel), name: t.name }));
      } catch (e) {
        finish(notRunRow(t, 'not-assessed', `Our tool failed on this agent: ${e instanceof Error ? e.message : String(e)}`));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, targets.length) }, worker));
  return sortRows(rows);
}

/** The summary `run-many` writes, for rows run here (no report files: each run is in the History). */
export function fleetSummaryOf(rows: readonly FleetRow[], o: { minLevel?: ConformanceLevel; timeoutMs: number; wallMs: number; now?: Date }): FleetSummary {
  return {
    kind: FLEET_SUMMARY_KIND,
    version: FLEET_SUMMARY_VERSION,
    tool: { ...TOOL },
    generatedAt: (o.now ?? new Date()).toISOString(),
    options: { minLevel: o.minLevel ?? 'minimal', timeoutMs: o.timeoutMs, deadlineMs: o.timeoutMs, formats: [], baseline: false },
    agents: sortRows(rows),
    wallMs: Math.round(o.wallMs),
  };
}

/** This agent's levels over time from the History (oldest first, the last `n` finished runs), matched by URL. */
export function levelHistory(stored: StoredAgent, runs: readonly RunMeta[], n = 8): RunMeta[] {
  const keys = agentKeysOf(stored.agent);
  const url = runTargetOf(stored.agent);
  if (url) keys.add(agentKey(url));
  return runs
    .filter((r) => r.status !== 'running' && keys.has(agentKey(r.agentUrl)))
    .sort((a, b) => a.startedAt - b.startedAt)
    .slice(-n);
}
