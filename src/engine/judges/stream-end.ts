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

/** Where a stream's final event and the event that ends the wait fall (0-based item indexes; -1: not seen yet). */
export interface StreamEnds {
  readonly finalIndex: number;
  readonly endIndex: number;
  /** Reads one item; true when it is the final one or the first that ends the wait (start the close grace then). */
  see(it: StreamItem): boolean;
}

/** The one reading of a stream's ends, for the stream fixture of runs and for console sessions. */
export function streamEnds(g: Generation): StreamEnds {
  let finalIndex = -1;
  let endIndex = -1;
  return {
    get finalIndex() {
      return finalIndex;
    },
    get endIndex() {
      return endIndex;
    },
    see(it) {
      if (finalIndex < 0 && isFinalItem(g, it)) {
        finalIndex = it.seq - 1;
        if (endIndex < 0) endIndex = finalIndex;
        return true;
      }
      if (endIndex < 0 && endsTest(g, it)) {
        endIndex = it.seq - 1;
        return true;
      }
      return false;
    },
  };
}
