/**
 * Streaming checks on how the shared stream ends: it reaches the end of the task, nothing follows the final event,
 * and the server closes it.
 */
import { afterFinal, finalWords } from '../../judges/stream';
import { streamCloses, streamEnding } from '../../judges/stream-ending';
import type { CheckContext } from '../context';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolLimit, type Verdict } from '../define';
import type { StreamFixture } from '../setups/stream';
import { streamNeverEnded } from '../../judges/rules';
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
    const { final, after, snapshot } = afterFinal(ctx.generation, items, f.finalIndex);
    if (!final) {
      const end = items[f.endIndex];
      if (end)
        return skip(
          `The stream paused at ${end.rawState ?? end.kind} and never sent a final event; events after an interrupted state are allowed.`,
          'not-applicable',
        );
      return skip('No final event arrived (see streaming.terminal).', 'precondition');
    }
    // §11.7: "MAY optionally resend a final Task snapshot before closing".
    const also = snapshot ? ` (one final Task snapshot in ${snapshot.rawState} followed, which §11.7 allows)` : '';
    return after.length
      ? fail(`${after.length} event(s) arrived after the final one (${finalWords(final)})${also}.`, itemEvidence(after))
      : pass(`No event after the final one${also}.`);
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
    const j = streamCloses(f.run.items, f);
    if (j.ok === undefined) return skip(j.message, j.skip);
    return j.ok ? pass(j.message) : fail(j.message);
  },
});

/**
 * streaming.terminal: did the stream reach the end of the task, and (v1.0) close there? The judge
 * (src/engine/judges/stream-ending.ts) decides, as it does for the console; what is ours is worded here.
 */
function judgeTerminal(ctx: CheckContext, f: StreamFixture): Verdict {
  const run = f.run;
  const items = run.items;
  const evd = [...itemEvidence(items.slice(-4)), ev('stream end', `${run.reason} after ${items.length} event(s)`)];
  const rb = f.readBack;
  const rbEvidence = rb ? [exchangeEvidence(rb.http, 'get after the stream')] : [];
  const j = streamEnding(ctx.generation, run, { ...f, endWords: streamEnd(ctx, run) });
  const last = (x: { lastState?: string }) => x.lastState ?? 'none';
  switch (j.status) {
    case 'pass':
      return pass(j.message, evd);
    case 'fail':
      return fail(j.message, rb ? [...evd, ...rbEvidence] : evd, j.recommendation);
    case 'advisory':
      return { status: 'fail', advisory: j.why, message: j.message, evidence: rb ? [...evd, ...rbEvidence] : evd, recommendation: j.recommendation };
    case 'refused':
      // What the error says is the finding: our valid request failed.
      return refusalVerdict(ctx, j.item.error, 0, `in the stream (event ${j.item.seq})`, evd);
    case 'broke-off':
      return brokeOff(ctx, run, `before the task ended (last state ${last(j)})`);
    case 'timeout':
      // The per-task timeout (the procedure's, Timeouts T3), not one of our budgets: the stream never terminated.
      return streamNeverEnded(
        `The stream was still open without reaching the end of the task when the per-task timeout of ${ctx.taskTimeoutMs / 1000} s ran out (${items.length} event(s), last streamed state ${last(j)}${rb?.kind === 'task' ? `; get says ${rb.task.rawState}` : ''}).`,
        [...evd, ...rbEvidence],
      );
    case 'budget': {
      const state =
        rb?.kind === 'task'
          ? `still ${rb.task.rawState} (read back with get)`
          : rb
            ? `of unknown state (the get after the stream ${rb.kind === 'error' ? `failed: ${errorText(rb.error)}` : `gave ${rb.kind}`})`
            : 'of unknown state (no event named the task)';
      return toolLimit(
        `The stream ${streamEnd(ctx, run)} before the task ended; the task is ${state}. Not the agent's fault as far as we can see. ${budgetKnob(ctx, run)}`,
        [...evd, ...rbEvidence],
      );
    }
  }
}
