/**
 * What ends a stream, decided once for runs (the stream fixture) and console sessions alike: the event after which
 * nothing may follow, the event a client stops waiting at, our budgets, and how long a stream may stay open after
 * its end before it counts as left open.
 */
import type { Generation } from '../model/check';
import type { StreamItem, StreamRun } from '../protocol/dialect';
import { isInterrupted, isTerminal } from '../protocol/states';

/** How long we wait for the stream to close after its final event before calling it endless. */
export const CLOSE_GRACE_MS = 3000;

/** Stream ends that are our own budget running out, not the agent closing. */
export const BUDGET_ENDS: ReadonlySet<StreamRun['reason']> = new Set(['timeout', 'idle', 'limit', 'oversize']);

/**
 * After this event nothing may follow and the stream must close (as far as the generation requires it): v1.0 a
 * terminal Task/status update; before v1.0 a status with final:true; any generation a Message or an error event.
 */
export function isFinalItem(g: Generation, it: StreamItem): boolean {
  if (it.kind === 'message' || it.kind === 'error') return true;
  if (g === 'v1.0') return (it.kind === 'task' || it.kind === 'status') && isTerminal(it.state, g);
  return it.kind === 'status' && it.final === true;
}

/**
 * This event ends the wait: the final one, or an earlier interrupted state (v1.0 may keep the stream open there),
 * or before v1.0 a Task in a terminal/interrupted state or a terminal status without final:true.
 */
export function endsTest(g: Generation, it: StreamItem): boolean {
  if (isFinalItem(g, it)) return true;
  return (it.kind === 'task' || it.kind === 'status') && (isTerminal(it.state, g) || isInterrupted(it.state));
}
