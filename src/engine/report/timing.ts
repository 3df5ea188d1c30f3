/**
 * The report's timing section (model/report.ts Timing): time to verdict, the checks that finished last, the
 * observation window that held the last of them, and every window the run used. Pure, from the folded run state.
 */
import type { Timing } from '../model/report';
import { windowsOf } from '../checks/windows';
import type { RunState } from '../state/run-state';

/** A window that ended this close to the last check's finish held it (our own bookkeeping takes a few ms). */
const HELD_WITHIN_MS = 25;

export function timingOf(state: RunState, pathLength = 3): Timing | undefined {
  const start = state.startedAt;
  if (start === undefined) return undefined;
  const end = state.finishedAt ?? Math.max(start, ...Object.values(state.checks).map((c) => c.finishedAt ?? start));
  const rel = (t: number) => Math.max(0, Math.round(t - start));
  const criticalPath = Object.values(state.checks)
    .filter((c): c is typeof c & { finishedAt: number } => c.finishedAt !== undefined)
    .sort((a, b) => b.finishedAt - a.finishedAt)
    .slice(0, pathLength)
    .map((c) => ({
      id: c.id,
      startedAtMs: rel(c.startedAt),
      finishedAtMs: rel(c.finishedAt),
      durationMs: Math.max(0, Math.round(c.finishedAt - c.startedAt)),
    }));
  const windows = state.logs.flatMap((l) => (l.window ? [{ ...l.window, endedAtMs: rel(l.at) }] : []));
  const last = criticalPath[0];
  const names = new Set(last ? windowsOf(last.id).map((w) => w.name) : []);
  const held = last
    ? windows.filter((w) => names.has(w.name) && w.endedAtMs <= last.finishedAtMs && last.finishedAtMs - w.endedAtMs <= HELD_WITHIN_MS).pop()
    : undefined;
  const decidedBy = !last
    ? 'No check finished.'
    : held
      ? `${last.id} (${last.durationMs} ms), held by its observation window ${held.name} (${held.usedMs ?? held.ms} ms)`
      : `${last.id} (${last.durationMs} ms)`;
  return { timeToVerdictMs: rel(end), criticalPath, decidedBy, ...(held && { decidingWindow: held.name }), windows };
}
