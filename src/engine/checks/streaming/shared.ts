/** What the streaming check files share: preconditions, the stream's end in words, refusals, evidence. */
import type { Evidence } from '../../model/check';
import type { ProtocolError, StreamItem, StreamRun } from '../../protocol/dialect';
import { isA2AError, JSONRPC_CODE } from '../../protocol/errors';
import type { CheckContext } from '../context';
import { errorText, refusalMessage } from '../../judges/stream';
import { ev, exchangeEvidence, skip, TIMEOUT_KNOB, transportVerdict, type Verdict } from '../verdict';
import { primarySkill, skillInput } from '../setups/tasks';

export const STREAM = {
  legacy: 'v0.1.0 §7.2 tasks/sendSubscribe, §3.3 Streaming Transport',
  'v0.2': 'v0.2.6 §7.2 message/stream, §3.3',
  'v0.3': 'v0.3.0 §7.2 message/stream, §3.3.1 JSON-RPC Streaming',
  'v1.0': 'v1.0.1 §3.1.2 Send Streaming Message, §9.4.2 / §11.7 Streaming',
};

/** How the stream ended, in words (our budgets named, so a flood or a stall is not mistaken for a close). */
export function streamEnd(ctx: CheckContext, run: StreamRun): string {
  switch (run.reason) {
    case 'closed':
      return 'closed';
    case 'timeout':
      return `was still open when the ${ctx.taskTimeoutMs} ms budget ran out`;
    case 'idle':
      return `went silent for ${ctx.http.limits.streamIdleTimeoutMs} ms`;
    case 'limit':
      return `sent more than ${ctx.http.limits.maxStreamEvents} events (our per-stream limit; we stopped reading)`;
    case 'oversize':
      return `sent an event larger than our ${ctx.http.limits.maxBodyBytes} byte limit (we stopped reading)`;
    case 'error':
      return `broke off (${run.result.error?.message ?? 'transport error'})`;
    default:
      return `ended (${run.reason})`;
  }
}

/** Which of our budgets ended the stream, and how to raise it. */
export function budgetKnob(ctx: CheckContext, run: StreamRun): string {
  switch (run.reason) {
    case 'idle':
      return `Our stream silence limit (${ctx.http.limits.streamIdleTimeoutMs} ms, limits.streamIdleTimeoutMs) ended it; it is not settable from the CLI or dashboard yet, and a longer per-task budget does not raise it.`;
    case 'limit':
      return `Our per-stream event cap (${ctx.http.limits.maxStreamEvents} events, limits.maxStreamEvents) ended it.`;
    case 'oversize':
      return `Our size limit for one event (${ctx.http.limits.maxBodyBytes} bytes, limits.maxBodyBytes) ended it.`;
    default:
      return `To give the agent more time, ${TIMEOUT_KNOB}.`;
  }
}

/** The stream broke off: our tool or the proxy (error result), or the agent (a failure naming the break). */
export function brokeOff(ctx: CheckContext, run: StreamRun, what: string): Verdict {
  const e = run.result.error;
  // Our side (a proxy refusal, the user's stop) is never the agent's fault; a cut the proxy saw upstream is.
  if (e && (e.blame === 'tool' || e.source === 'abort')) return transportVerdict(run.result, what);
  return {
    status: 'fail',
    critical: e?.code === 'reset' || e?.code === 'upstream_reset',
    message: `The stream ${streamEnd(ctx, run)} ${what}.`,
    evidence: [exchangeEvidence(run.result)],
  };
}

export { errorText };

const isContentTypeError = (e: ProtocolError | undefined) =>
  !!e && (isA2AError({ kind: 'error', error: e }, 'ContentTypeNotSupported') || e.httpStatus === 415);

const notImplementedError = (e: ProtocolError | undefined, httpStatus: number) =>
  httpStatus === 404 || httpStatus === 405 || e?.code === JSONRPC_CODE.MethodNotFound || e?.status === 'UNIMPLEMENTED';

/**
 * The agent answered our (valid) streaming request with an error, as an HTTP error body or as an error event:
 * a refusal, judged for what it says. The card declares streaming, so the method must work; a media type the
 * skill does not accept (and we could not produce) is a correct refusal.
 */
export function refusalVerdict(ctx: CheckContext, e: ProtocolError | undefined, httpStatus: number, where: string, evidence: Evidence[]): Verdict {
  if (isContentTypeError(e) && skillInput(ctx, primarySkill(ctx)).unsupported) {
    return skip(
      `The agent refused the test input's media type (${errorText(e)}), which its skill does not declare and this tool could not produce another way.`,
      'not-applicable',
      evidence,
    );
  }
  const what = notImplementedError(e, httpStatus) ? 'answered that the streaming method does not exist' : 'refused the streaming request with an error';
  return {
    status: 'fail',
    critical: httpStatus >= 500,
    // The console's judge words an internal error or a missing method the same way (src/engine/judges/stream.ts).
    message: refusalMessage(what, e, httpStatus, where),
    evidence,
    recommendation:
      'Serve the streaming method for the inputs your skills declare, or set capabilities.streaming to false. If the error is an internal failure of the agent, fix it: the request was a valid message built from the card.',
  };
}

export const itemEvidence = (items: StreamItem[], max = 12): Evidence[] =>
  items
    .slice(0, max)
    .map((i) =>
      ev(
        `event ${i.seq}${i.event ? ` (${i.event})` : ''}`,
        `${i.kind}${i.state ? ` ${i.rawState}` : ''}${i.final ? ' final' : ''}${i.kind === 'error' ? ` ${errorText(i.error)}` : ''}\n${i.data}`,
      ),
    );
