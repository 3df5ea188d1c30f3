/**
 * Streaming checks on how the shared stream ends: it reaches the end of the task, nothing follows the final event,
 * and the server closes it.
 */
import { isInterrupted, isTerminal } from '../../protocol/states';
import type { CheckContext } from '../context';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolLimit, type Verdict } from '../define';
import { BUDGET_ENDS, CLOSE_GRACE_MS, type StreamFixture } from '../fixtures/stream';
import { streamNeverEnded } from '../rules';
import { brokeOff, budgetKnob, errorText, itemEvidence, refusalVerdict, STREAM, streamEnd } from './shared';

export const streamingTerminal = defineCheck({
  id: 'streaming.terminal',
  title: 'The stream reaches the end of the task: final:true before v1.0, closing at a terminal state in v1.0',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.2.2 TaskStatusUpdateEvent.final',
    'v0.2': 'v0.2.6 §7.2.2 TaskStatusUpdateEvent.final',
    'v0.3': 'v0.3.0 §7.2.2 TaskStatusUpdateEvent.final',
    'v1.0': 'v1.0.1 §3.1.2 (MUST close at a terminal state), §11.7, §7.6.1',
  },
  recommendation:
    'Before v1.0: mark the last status update with "final": true (terminal or input-required) and close the response. v1.0: there is no "final"; close the stream right after the terminal status (at input-required/auth-required you may close or keep it open). In @a2a-js/sdk publish the final status and call eventBus.finished().',
  requires: ['stream'],
  run: (ctx) => judgeTerminal(ctx, ctx.stream),
});

export const streamingAfterFinal = defineCheck({
  id: 'streaming.after-final',
  title: 'Nothing arrives after the final event (v1.0: except one final Task snapshot)',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.1.2, §3.5.2 Streaming Event Delivery, §11.7' },
  recommendation:
    'Stop publishing once the final status is out (v1.0: the terminal status, optionally followed by one final Task snapshot): close the stream; late artifacts belong before the final status.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const items = f.run.items;
    const final = items[f.finalIndex];
    if (f.finalIndex < 0 || !final) {
      const end = items[f.endIndex];
      if (end)
        return skip(
          `The stream paused at ${end.rawState ?? end.kind} and never sent a final event; events after an interrupted state are allowed.`,
          'not-applicable',
        );
      return skip('No final event arrived (see streaming.terminal).', 'precondition');
    }
    let after = items.slice(f.finalIndex + 1);
    let snapshot = '';
    if (ctx.generation === 'v1.0' && final.kind !== 'message') {
      // §11.7: "MAY optionally resend a final Task snapshot before closing".
      const [next] = after;
      if (next?.kind === 'task' && isTerminal(next.state, ctx.generation)) {
        snapshot = ` (one final Task snapshot in ${next.rawState} followed, which §11.7 allows)`;
        after = after.slice(1);
      }
    }
    return after.length
      ? fail(
          `${after.length} event(s) arrived after the final one (${final.kind}${final.rawState ? ` ${final.rawState}` : ''}${final.final ? ', final: true' : ''}, event ${final.seq})${snapshot}.`,
          itemEvidence(after),
        )
      : pass(`No event after the final one${snapshot}.`);
  },
});

export const streamingCloses = defineCheck({
  id: 'streaming.closes',
  title: 'The server closes the stream after the final event',
  category: 'streaming',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { legacy: 'v0.1.0 §7.2 (the server closes the stream after final)', 'v0.2': 'v0.2.6 §7.2', 'v0.3': 'v0.3.0 §7.2' },
  recommendation: 'End the HTTP response after the final event; clients otherwise keep a connection (and a browser slot) open.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const endAt = f.finalIndex >= 0 ? f.finalIndex : f.endIndex;
    const end = f.run.items[endAt];
    if (!end) return skip('No final event arrived (see streaming.terminal).', 'precondition');
    if (f.finalIndex < 0 && end.kind === 'status' && isInterrupted(end.state)) {
      return skip(`The stream paused at ${end.rawState} without final: true, so it did not claim to end; nothing requires closing there.`, 'not-applicable');
    }
    return f.closed
      ? pass(`The stream closed after the final event (${end.kind}${end.rawState ? ` ${end.rawState}` : ''}).`)
      : fail(`The stream was still open ${CLOSE_GRACE_MS} ms after the final event (${end.kind}${end.rawState ? ` ${end.rawState}` : ''}, event ${end.seq}).`);
  },
});

/** streaming.terminal: did the stream reach the end of the task, and (v1.0) close there? */
function judgeTerminal(ctx: CheckContext, f: StreamFixture): Verdict {
  const g = ctx.generation;
  const run = f.run;
  const items = run.items;
  const evd = [...itemEvidence(items.slice(-4)), ev('stream end', `${run.reason} after ${items.length} event(s)`)];
  const lastState = [...items].reverse().find((i) => i.state)?.rawState;
  const error = items.find((i) => i.kind === 'error');
  if (error && (f.finalIndex < 0 || items[f.finalIndex] === error)) {
    // An error event legitimately ends a stream (v0.1.0 §7.2 MAY; the v0.2/v0.3 schema allows error responses);
    // what it says is the finding: our valid request failed.
    return refusalVerdict(ctx, error.error, 0, `in the stream (event ${error.seq})`, evd);
  }
  const end = items[f.endIndex];
  const final = items[f.finalIndex];
  if (!end) {
    if (run.reason === 'error') return brokeOff(ctx, run, `before the task ended (last state ${lastState ?? 'none'})`);
    if (BUDGET_ENDS.has(run.reason)) {
      const rb = f.readBack;
      if (rb?.kind === 'task' && isTerminal(rb.task.state, g)) {
        return fail(
          `The task reached ${rb.task.rawState} (read back with get), but the stream neither delivered that nor closed: it ${streamEnd(ctx, run)} (last streamed state ${lastState ?? 'none'}).`,
          [...evd, exchangeEvidence(rb.http, 'get after the stream')],
          g === 'v1.0'
            ? 'Publish the terminal status on the stream and close it (v1.0 §3.1.2).'
            : 'Publish the last status with "final": true and close the stream.',
        );
      }
      if (rb?.kind === 'task' && isInterrupted(rb.task.state)) {
        return {
          status: 'fail',
          advisory: 'The task paused (an interrupted state); nothing requires closing the stream there, only delivering its updates.',
          message: `The task is in ${rb.task.rawState} (read back with get), but the stream did not deliver that state: it ${streamEnd(ctx, run)} (last streamed state ${lastState ?? 'none'}).`,
          evidence: [...evd, exchangeEvidence(rb.http, 'get after the stream')],
        };
      }
      if (run.reason === 'timeout') {
        // The per-task timeout (the procedure's, Timeouts T3), not one of our budgets: the stream never terminated.
        return streamNeverEnded(
          `The stream was still open without reaching the end of the task when the per-task timeout of ${ctx.taskTimeoutMs / 1000} s ran out (${items.length} event(s), last streamed state ${lastState ?? 'none'}${rb?.kind === 'task' ? `; get says ${rb.task.rawState}` : ''}).`,
          [...evd, ...(rb ? [exchangeEvidence(rb.http, 'get after the stream')] : [])],
        );
      }
      const state =
        rb?.kind === 'task'
          ? `still ${rb.task.rawState} (read back with get)`
          : rb
            ? `of unknown state (the get after the stream ${rb.kind === 'error' ? `failed: ${errorText(rb.error)}` : `gave ${rb.kind}`})`
            : 'of unknown state (no event named the task)';
      return toolLimit(
        `The stream ${streamEnd(ctx, run)} before the task ended; the task is ${state}. Not the agent's fault as far as we can see. ${budgetKnob(ctx, run)}`,
        [...evd, ...(rb ? [exchangeEvidence(rb.http, 'get after the stream')] : [])],
      );
    }
    if (g === 'v1.0')
      return fail(
        `The stream ${streamEnd(ctx, run)} without reaching a terminal or interrupted state (last state ${lastState ?? 'none'}): a v1.0 task stream ends at a terminal state (§3.1.2).`,
        evd,
      );
    return fail(`No final event arrived: the stream ${streamEnd(ctx, run)} (last state ${lastState ?? 'none'}) and no status update had "final": true.`, evd);
  }
  if (end.kind === 'message') {
    if (g === 'v1.0' && !f.closed)
      return fail(`The stream carried a Message but did not close within ${CLOSE_GRACE_MS} ms (§3.1.2: exactly one Message, then close immediately).`, evd);
    return pass(`The stream is a Message reply (event ${end.seq}).`, evd);
  }
  // A break right after the end (a reset instead of a clean close) still ends the stream for the client.
  const ended = f.closed || run.reason === 'error';
  const how = f.closed ? 'closed' : `ended with a transport error instead of a clean close (${run.result.error?.message ?? 'error'})`;
  if (g === 'v1.0') {
    if (final) {
      if (!ended)
        return fail(
          `The stream reached ${final.rawState} but did not close within ${CLOSE_GRACE_MS} ms${run.reason === 'stopped' ? '' : ` (it ${streamEnd(ctx, run)})`}; v1.0 §3.1.2: the stream MUST close when the task reaches a terminal state.`,
          evd,
        );
      return pass(`The stream reached ${final.rawState} at event ${final.seq} of ${items.length} and ${how}.`, evd);
    }
    // Interrupted: §3.1.2/§3.1.6 require closing at terminal states only; §11.7 describes closing at interrupted
    // ones too; §7.6.1 says streams SHOULD stay open at AUTH_REQUIRED.
    if (ended) return pass(`The stream reached ${end.rawState} at event ${end.seq} and ${how} (allowed at an interrupted state).`, evd);
    if (end.state === 'auth-required') return pass(`The stream reached ${end.rawState} and stayed open, as v1.0 §7.6.1 says it SHOULD.`, evd);
    return {
      status: 'fail',
      advisory:
        'v1.0.1 §3.1.2 and §3.1.6 require closing at terminal states only; §11.7 describes the stream closing at a terminal or interrupted state. Staying open is allowed.',
      message: `The stream reached ${end.rawState} at event ${end.seq} and stayed open (still open ${CLOSE_GRACE_MS} ms later); clients that follow §11.7 wait for the close.`,
      evidence: evd,
      recommendation:
        'Either close the stream at input-required (clients then send the answer as a new streaming message) or keep it open and document it; both are allowed.',
    };
  }
  if (final) return pass(`The stream reached ${final.rawState ?? final.kind} with "final": true at event ${final.seq} of ${items.length}.`, evd);
  if (end.kind === 'task') {
    // The schema lets any event be a Task; the reference SDK (a2a-python) ends a stream at a Task in a terminal or
    // input-required state.
    return pass(
      `The stream ended with the Task in ${end.rawState} (event ${end.seq})${f.closed ? ' and closed' : ''}; a Task in that state ends the stream for SDK clients.`,
      evd,
    );
  }
  if (isTerminal(end.state, g)) return fail(`A terminal status (${end.rawState}, event ${end.seq}) arrived but no event had "final": true.`, evd);
  // Interrupted status without final:true.
  if (!f.closed)
    return pass(
      `The stream paused at ${end.rawState} (event ${end.seq}) and stayed open without "final": true; nothing before v1.0 requires closing there.`,
      evd,
    );
  return {
    status: 'fail',
    advisory: `Before v1.0, "final" is described as marking the end of the stream, but no sentence says when an interrupted state must carry it.`,
    message: `The stream closed at ${end.rawState} (event ${end.seq}) without any event having "final": true.`,
    evidence: evd,
  };
}
