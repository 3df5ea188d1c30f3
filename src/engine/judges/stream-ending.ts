/**
 * The end of a stream, judged once for runs and console sessions: did it reach the end of the task
 * (streaming.terminal: final:true before v1.0, closing at a terminal state in v1.0) and did the server close it
 * after the final event (streaming.closes, before v1.0)? What is ours (a budget, the user's stop, a cut on our
 * side) is never judged here as the agent's; the caller says how it words the end of the stream.
 */
import type { Generation } from '../model/check';
import type { CallOutcome, StreamItem, StreamRun } from '../protocol/dialect';
import { isInterrupted, isTerminal } from '../protocol/states';
import { BUDGET_ENDS } from './stream-end';

export interface StreamEndFacts {
  /** Index in items of the final event (-1: none) and of the event that ended the wait (-1: none). */
  finalIndex: number;
  endIndex: number;
  /** The agent closed the stream by itself. */
  closed: boolean;
  /** The task read back after our budget ended the stream with no end event. */
  readBack?: CallOutcome;
  /** How long we waited for the close after the end event, ms. */
  closeGraceMs: number;
  /** How the stream ended, in the caller's words ("closed", "went silent for 5000 ms"); default the run's reason. */
  endWords?: string;
}

/**
 * What the end of a stream says. `fail` and `advisory` are the agent's (an advisory: nothing stronger than MAY
 * stands behind it, `why`); `refused` (an error event ended it: the refusal is judged for what it says),
 * `broke-off` (a transport error before the end), `timeout` (still open when the per-task budget ran out) and
 * `budget` (another budget of ours, or the user's stop) are for the caller to word as its door does.
 */
export type StreamEnding =
  | { status: 'pass'; checkId: 'streaming.terminal'; message: string; frame?: number }
  | { status: 'fail' | 'advisory'; checkId: 'streaming.terminal'; message: string; frame?: number; why?: string; recommendation?: string }
  | { status: 'refused'; item: StreamItem }
  | { status: 'broke-off'; ours: boolean; message: string; lastState?: string }
  | { status: 'timeout' | 'budget'; lastState?: string };

/** How a run's stream ended, when the caller has no words of its own. */
const defaultWords = (run: StreamRun) =>
  run.reason === 'closed' ? 'closed' : run.reason === 'error' ? `broke off (${run.result.error?.message ?? 'transport error'})` : `ended (${run.reason})`;

/** streaming.terminal: did the stream reach the end of the task, and (v1.0) close there? */
export function streamEnding(g: Generation, run: StreamRun, f: StreamEndFacts): StreamEnding {
  const items = run.items;
  const words = f.endWords ?? defaultWords(run);
  const lastState = [...items].reverse().find((i) => i.state)?.rawState;
  const last = lastState ?? 'none';
  const error = items.find((i) => i.kind === 'error');
  // An error event legitimately ends a stream (v0.1.0 §7.2 MAY; the v0.2/v0.3 schema allows error responses).
  if (error && (f.finalIndex < 0 || items[f.finalIndex] === error)) return { status: 'refused', item: error };
  const end = items[f.endIndex];
  const final = items[f.finalIndex];
  const fail = (message: string, frame?: number, recommendation?: string): StreamEnding => ({
    status: 'fail',
    checkId: 'streaming.terminal',
    message,
    ...(frame !== undefined && { frame }),
    ...(recommendation && { recommendation }),
  });
  const pass = (message: string): StreamEnding => ({ status: 'pass', checkId: 'streaming.terminal', message });
  if (!end) {
    if (run.reason === 'error') {
      const e = run.result.error;
      return {
        status: 'broke-off',
        ours: !!e && (e.blame === 'tool' || e.source === 'abort'),
        message: `The stream ${words} before the task ended (last state ${last}).`,
        lastState,
      };
    }
    if (BUDGET_ENDS.has(run.reason) || run.reason === 'stopped') {
      const rb = f.readBack;
      if (rb?.kind === 'task' && isTerminal(rb.task.state, g)) {
        return fail(
          `The task reached ${rb.task.rawState} (read back with get), but the stream neither delivered that nor closed: it ${words} (last streamed state ${last}).`,
          undefined,
          g === 'v1.0'
            ? 'Publish the terminal status on the stream and close it (v1.0 §3.1.2).'
            : 'Publish the last status with "final": true and close the stream.',
        );
      }
      if (rb?.kind === 'task' && isInterrupted(rb.task.state)) {
        return {
          status: 'advisory',
          checkId: 'streaming.terminal',
          why: 'The task paused (an interrupted state); nothing requires closing the stream there, only delivering its updates.',
          message: `The task is in ${rb.task.rawState} (read back with get), but the stream did not deliver that state: it ${words} (last streamed state ${last}).`,
        };
      }
      return { status: run.reason === 'timeout' ? 'timeout' : 'budget', lastState };
    }
    if (g === 'v1.0')
      return fail(
        `The stream ${words} without reaching a terminal or interrupted state (last state ${last}): a v1.0 task stream ends at a terminal state (§3.1.2).`,
      );
    return fail(`No final event arrived: the stream ${words} (last state ${last}) and no status update had "final": true.`);
  }
  if (end.kind === 'message') {
    if (g === 'v1.0' && !f.closed)
      return fail(`The stream carried a Message but did not close within ${f.closeGraceMs} ms (§3.1.2: exactly one Message, then close immediately).`, end.seq);
    return pass(`The stream is a Message reply (event ${end.seq}).`);
  }
  // A break right after the end (a reset instead of a clean close) still ends the stream for the client.
  const ended = f.closed || run.reason === 'error';
  const how = f.closed ? 'closed' : `ended with a transport error instead of a clean close (${run.result.error?.message ?? 'error'})`;
  if (g === 'v1.0') {
    if (final) {
      if (!ended)
        return fail(
          `The stream reached ${final.rawState} but did not close within ${f.closeGraceMs} ms${run.reason === 'stopped' ? '' : ` (it ${words})`}; v1.0 §3.1.2: the stream MUST close when the task reaches a terminal state.`,
          final.seq,
        );
      return pass(`The stream reached ${final.rawState} at event ${final.seq} of ${items.length} and ${how}.`);
    }
    // Interrupted: §3.1.2/§3.1.6 require closing at terminal states only; §11.7 describes closing at interrupted
    // ones too; §7.6.1 says streams SHOULD stay open at AUTH_REQUIRED.
    if (ended) return pass(`The stream reached ${end.rawState} at event ${end.seq} and ${how} (allowed at an interrupted state).`);
    if (end.state === 'auth-required') return pass(`The stream reached ${end.rawState} and stayed open, as v1.0 §7.6.1 says it SHOULD.`);
    return {
      status: 'advisory',
      checkId: 'streaming.terminal',
      why: 'v1.0.1 §3.1.2 and §3.1.6 require closing at terminal states only; §11.7 describes the stream closing at a terminal or interrupted state. Staying open is allowed.',
      message: `The stream reached ${end.rawState} at event ${end.seq} and stayed open (still open ${f.closeGraceMs} ms later); clients that follow §11.7 wait for the close.`,
      frame: end.seq,
      recommendation:
        'Either close the stream at input-required (clients then send the answer as a new streaming message) or keep it open and document it; both are allowed.',
    };
  }
  if (final) return pass(`The stream reached ${final.rawState ?? final.kind} with "final": true at event ${final.seq} of ${items.length}.`);
  if (end.kind === 'task') {
    // The schema lets any event be a Task; the reference SDK (a2a-python) ends a stream at a Task in a terminal or
    // input-required state.
    return pass(
      `The stream ended with the Task in ${end.rawState} (event ${end.seq})${f.closed ? ' and closed' : ''}; a Task in that state ends the stream for SDK clients.`,
    );
  }
  if (isTerminal(end.state, g)) return fail(`A terminal status (${end.rawState}, event ${end.seq}) arrived but no event had "final": true.`, end.seq);
  // Interrupted status without final:true.
  if (!f.closed)
    return pass(`The stream paused at ${end.rawState} (event ${end.seq}) and stayed open without "final": true; nothing before v1.0 requires closing there.`);
  return {
    status: 'advisory',
    checkId: 'streaming.terminal',
    why: 'Before v1.0, "final" is described as marking the end of the stream, but no sentence says when an interrupted state must carry it.',
    message: `The stream closed at ${end.rawState} (event ${end.seq}) without any event having "final": true.`,
    frame: end.seq,
  };
}

/**
 * streaming.closes (before v1.0): the server closes the stream after the final event. `undefined`: nothing to judge
 * (no end event, or a pause without final: true, which does not claim to end the stream).
 */
export function streamCloses(
  items: readonly StreamItem[],
  f: Pick<StreamEndFacts, 'finalIndex' | 'endIndex' | 'closed' | 'closeGraceMs'>,
): { ok: boolean; message: string; frame: number } | { ok?: undefined; skip: 'precondition' | 'not-applicable'; message: string } {
  const end = items[f.finalIndex >= 0 ? f.finalIndex : f.endIndex];
  if (!end) return { skip: 'precondition', message: 'No final event arrived (see streaming.terminal).' };
  if (f.finalIndex < 0 && end.kind === 'status' && isInterrupted(end.state))
    return {
      skip: 'not-applicable',
      message: `The stream paused at ${end.rawState} without final: true, so it did not claim to end; nothing requires closing there.`,
    };
  const what = `${end.kind}${end.rawState ? ` ${end.rawState}` : ''}`;
  return f.closed
    ? { ok: true, message: `The stream closed after the final event (${what}).`, frame: end.seq }
    : { ok: false, message: `The stream was still open ${f.closeGraceMs} ms after the final event (${what}, event ${end.seq}).`, frame: end.seq };
}
