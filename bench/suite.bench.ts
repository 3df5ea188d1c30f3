/**
 * Suite wall time against the local demo agents (`npx tsx bench/run.ts suite`), beside the floor no tool
 * can beat: the agents' own deliberate delays. Measured side by side in one run:
 * - W: the full suite with the demo agents' default pacing (slow task 1500 ms, 50 ms steps);
 * - W0: the same suite with every deliberate delay set to 0 (the tool's own cost: round trips, parsing, checks);
 * - floor: the longest deliberate delay any single task of the suite must sit through (tasks run concurrently,
 *   so the slowest one bounds the run), and Σ delays: the sum over every task the suite created, i.e. what a
 *   one-at-a-time tool would wait.
 * Target (issue 7): W − floor < 1 s.
 */
import { cpus, loadavg } from 'node:os';
import { createNodeHost } from '../src/hosts/node';
import { runConformance, type Report, type RunEvent } from '../src/engine';
import { startServer } from '../src/server/main';
import { behaviourDelays, behaviourFor, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS } from '../src/testing/defect-agent';
import type { BenchRow, BenchSection } from './run';

const AGENTS = ['v1', 'v03'] as const;
const REPEAT = 3;

/** Sum of the deliberate delays of every message the suite sent (blocking sends and streams). */
function delaysOf(events: RunEvent[], stepMs: number, slowMs: number): { sum: number; longest: number; tasks: number } {
  const table = behaviourDelays(stepMs, slowMs);
  let sum = 0;
  let longest = 0;
  let tasks = 0;
  for (const e of events) {
    if (e.type !== 'http-request' || !e.request.body) continue;
    let text: string | undefined;
    try {
      type Msg = { parts?: { text?: string }[]; content?: { text?: string }[]; taskId?: string };
      const b = JSON.parse(e.request.body) as { params?: { message?: Msg }; message?: Msg };
      const m = b.params?.message ?? b.message;
      if (!m || m.taskId) continue; // follow-ups to existing tasks add no new deliberate delay of their own
      text = (m.parts ?? m.content ?? []).map((p) => p.text ?? '').join('');
    } catch {
      continue;
    }
    if (text === undefined) continue;
    const ms = table[behaviourFor(text)];
    sum += ms;
    longest = Math.max(longest, ms);
    tasks++;
  }
  return { sum, longest, tasks };
}

async function timeSuite(url: string): Promise<{ ms: number; events: RunEvent[]; level: string; path: string }> {
  const events: RunEvent[] = [];
  const t0 = performance.now();
  const report = await runConformance(createNodeHost(), { agentUrl: url, timeoutMs: 30_000 }, (e) => events.push(e));
  return { ms: performance.now() - t0, events, level: report.conformanceLevel ?? `not assessed (${report.notAssessed?.reason})`, path: criticalPath(report) };
}

/**
 * The critical path of a run, from the report's timing section: what decided the wall time (the check that finished
 * last, and the observation window that held it when one did), then the next checks that finished last.
 */
function criticalPath(report: Report): string {
  const t = report.timing;
  if (!t) return '?';
  const next = t.criticalPath.slice(1).map((c) => `${c.id} ${c.durationMs} ms`);
  return [t.decidedBy, ...next].join(', ');
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(): Promise<BenchSection> {
  const loadBefore = loadavg()[0] ?? 0;
  const paced = await startServer({ port: 0, quiet: true, proxy: false });
  const instant = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 0, stepMs: 0 });
  const rows: BenchRow[] = [];
  try {
    for (const id of AGENTS) {
      const W: number[] = [];
      const W0: number[] = [];
      let path0 = '';
      let path = '';
      let delays = { sum: 0, longest: 0, tasks: 0 };
      let level = '';
      for (let i = 0; i < REPEAT; i++) {
        const a = await timeSuite(`${paced.url.replace(/\/$/, '')}/demo/${id}`);
        W.push(a.ms);
        level = a.level;
        path = a.path;
        delays = delaysOf(a.events, DEFAULT_STEP_MS, DEFAULT_SLOW_TASK_MS);
        const zero = await timeSuite(`${instant.url.replace(/\/$/, '')}/demo/${id}`);
        W0.push(zero.ms);
        path0 = zero.path;
      }
      const w = median(W);
      rows.push(
        { metric: `${id}: suite wall time W (median of ${REPEAT})`, value: Math.round(w), unit: 'ms', note: `level ${level}; decided by ${path}` },
        { metric: `${id}: floor (longest deliberate delay of one task)`, value: delays.longest, unit: 'ms' },
        {
          metric: `${id}: Σ deliberate delays of the ${delays.tasks} tasks created`,
          value: delays.sum,
          unit: 'ms',
          note: 'what a one-at-a-time client would wait',
        },
        { metric: `${id}: W − floor (target < 250, issue 23)`, value: Math.round(w - delays.longest), unit: 'ms' },
        {
          metric: `${id}: W0, same suite with zero delays (target < 500)`,
          value: Math.round(median(W0)),
          unit: 'ms',
          note: `the tool's own cost; decided by ${path0}`,
        },
      );
    }
  } finally {
    await Promise.all([paced.close(), instant.close()]);
  }
  return {
    title: "Suite wall time vs the demo agents' deliberate delays (Node host, direct, ≤ 6 requests in flight)",
    rows,
    notes: [
      `Load average (1 min) ${loadBefore.toFixed(1)} before and ${(loadavg()[0] ?? 0).toFixed(1)} after, on ${cpus().length} cpus: figures taken on a busy machine are inflated.`,
      'Checks run concurrently; the slow skill (1500 ms) is on the critical path twice at most (its own run and, when no quicker task is found running, cancel/resubscribe).',
    ],
  };
}
