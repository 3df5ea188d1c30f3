/**
 * The observation windows of the suite: where a check watches for something NOT happening (a canceled task staying
 * canceled, nothing delivered after a push config is deleted, no delivery after the terminal one), no release gives
 * a number, so each window is sized from what this run measured of the agent (its task durations, its round trips,
 * its delivery latency) within a named floor and ceiling, and closes early at the first decisive answer. Every window
 * used is reported: a `log` event carrying `window` (the report's `timing.windows`), and `a2a-interop explain` lists
 * the windows a check uses (WINDOWS).
 */
import type { ObservationWindowUse } from '../model/events';
import type { HttpContext } from '../http/client';
import { CLOSE_GRACE_MS } from '../judges/stream-end';

export interface WindowSpec {
  /** Stable name, e.g. `cancel.stay`: reports and `explain` use it. */
  readonly name: string;
  /** What is watched, as a sentence. */
  readonly watches: string;
  /** How the length is sized, with the floor and ceiling. */
  readonly sizing: string;
  readonly floorMs: number;
  readonly ceilingMs: number;
  /** The checks whose verdict depends on what the window saw. */
  readonly checks: readonly string[];
  /**
   * True: something happening inside the window is a finding (an observation; observations.test.ts proves each still
   * catches a defect). False: a grace that only lets a stream end by itself; nothing fails for what it alone sees.
   */
  readonly observes: boolean;
}

/** Push: the window after the terminal delivery, in multiples of the slowest delivery latency or round trip seen. */
export const PUSH_STRAGGLER = { factor: 4, floorMs: 150, ceilingMs: 2000 } as const;
/** Cancel: the margin added to the canceled task's own duration, in multiples of the slowest round trip seen. */
export const CANCEL_MARGIN = { factor: 3, floorMs: 50, ceilingMs: 1000 } as const;
/** Cancel: bounds of the whole stay window, from the cancel. */
export const CANCEL_STAY = { floorMs: 100, ceilingMs: 3000 } as const;

/**
 * Stream close: the grace after a stream's final event, the console's fixed grace (judges/stream-end.ts
 * CLOSE_GRACE_MS) scaled up when the stream itself was slow: 4 × the slowest gap between its events (the first from
 * the request), at most twice the grace. Never shorter: a 1.5 s floor let a loaded matrix run see a prompt close late.
 */
export const STREAM_CLOSE = { factor: 4, floorMs: CLOSE_GRACE_MS, ceilingMs: 2 * CLOSE_GRACE_MS } as const;
/** Resubscribe: after the stream reports a pause (input-required), in multiples of the round trip of the send. */
export const STREAM_PAUSE = { factor: 4, floorMs: 100, ceilingMs: 3000 } as const;

export const WINDOWS: readonly WindowSpec[] = [
  {
    name: 'cancel.stay',
    watches: 'a task read back canceled stays canceled (a worker never told of the cancel publishes when its work would have ended)',
    sizing: `until the canceled task has run as long as the longest test task of the agent took (by its status timestamps when they agree with what we saw, else as we measured it), plus ${CANCEL_MARGIN.factor} × the slowest round trip seen (${CANCEL_MARGIN.floorMs}-${CANCEL_MARGIN.ceilingMs} ms); read back with backoff, closed at the first change`,
    floorMs: CANCEL_STAY.floorMs,
    ceilingMs: CANCEL_STAY.ceilingMs,
    checks: ['lifecycle.cancel', 'lifecycle.cancel.effective', 'lifecycle.transitions', 'errors.cancel-twice'],
    observes: true,
  },
  {
    name: 'push.stragglers',
    watches: 'nothing is delivered after the terminal state (a stale or duplicate delivery)',
    sizing: `after the terminal delivery: ${PUSH_STRAGGLER.factor} × the slowest of the push session's delivery latency, gaps between deliveries and round trips, closed at the first delivery after the terminal one`,
    floorMs: PUSH_STRAGGLER.floorMs,
    ceilingMs: PUSH_STRAGGLER.ceilingMs,
    checks: ['lifecycle.push-order'],
    observes: true,
  },
  {
    name: 'push.after-delete',
    watches: 'nothing is delivered to a webhook once its push config is deleted',
    sizing: `after the task is read back settled: ${PUSH_STRAGGLER.factor} × the slowest round trip of the push session, closed at the first late delivery`,
    floorMs: PUSH_STRAGGLER.floorMs,
    ceilingMs: PUSH_STRAGGLER.ceilingMs,
    checks: ['lifecycle.push-after-delete'],
    observes: true,
  },
  {
    name: 'stream.close',
    watches: 'a stream closes after its final event (and a resubscribed stream after the terminal state)',
    sizing: `after the final event: ${STREAM_CLOSE.factor} × the slowest gap between the stream's events (the first from the request), within ${STREAM_CLOSE.floorMs}-${STREAM_CLOSE.ceilingMs} ms (the releases say "close immediately" and give no number); ended by the close itself, so an agent that closes at once never waits`,
    floorMs: STREAM_CLOSE.floorMs,
    ceilingMs: STREAM_CLOSE.ceilingMs,
    checks: ['streaming.closes', 'streaming.terminal', 'streaming.resubscribe'],
    observes: true,
  },
  {
    name: 'stream.pause',
    watches: 'a resubscribed stream that reported a pause (input-required) sends nothing it should not and may close',
    sizing: `after the pause: ${STREAM_PAUSE.factor} × the round trip of the send that started the task (nothing is owed until someone answers), closed when the stream ends`,
    floorMs: STREAM_PAUSE.floorMs,
    ceilingMs: STREAM_PAUSE.ceilingMs,
    checks: ['streaming.resubscribe'],
    observes: false,
  },
];

/** The windows a check's verdict depends on (for `explain`). */
export const windowsOf = (checkId: string): WindowSpec[] => WINDOWS.filter((w) => w.checks.includes(checkId));

/** `factor × measured`, within the floor and ceiling. */
export const sized = (measuredMs: number, w: { factor: number; floorMs: number; ceilingMs: number }): number =>
  Math.round(Math.min(w.ceilingMs, Math.max(w.floorMs, w.factor * Math.max(0, measuredMs))));

/** The slowest gap between a stream's events seen so far, the first from `startedAt` (sizes stream.close). */
export function gapMeter(startedAt: number): { see(at: number): void; readonly slowestMs: number } {
  let last = startedAt;
  let slowest = 0;
  return {
    see(at: number) {
      slowest = Math.max(slowest, at - last);
      last = Math.max(last, at);
    },
    get slowestMs() {
      return slowest;
    },
  };
}

/** Round-trip time of one exchange (inside its request slot), 0 when it has no timings. */
export const roundTrip = (h: { startedAt?: number; endedAt?: number } | undefined): number =>
  h && h.startedAt !== undefined && h.endedAt !== undefined ? Math.max(0, h.endedAt - h.startedAt) : 0;

/** Puts a window used on the run's record (a `log` event with `window`): the report's timing section lists it. */
export function reportWindow(http: HttpContext, w: ObservationWindowUse): void {
  http.emit({
    type: 'log',
    at: http.host.now(),
    level: 'info',
    message: `window ${w.name}: ${w.ms} ms (${w.basis})${w.closedEarly ? `, closed after ${w.usedMs} ms: ${w.closedEarly}` : ''}`,
    window: w,
  });
}
