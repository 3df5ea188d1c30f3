/**
 * Error checks on capabilities the card does not declare: push config calls without push, stream and subscribe
 * without streaming, and a subscription to a finished task.
 */
import type { Evidence } from '../../model/check';
import type { StreamItem, StreamRun } from '../../protocol/dialect';
import { isA2AError, JSONRPC_CODE, LEGACY_DOCUMENT_CODES, type ErrorAnswer } from '../../protocol/errors';
import { isTerminal } from '../../protocol/states';
import { truncate } from '../../util/json';
import type { CheckContext, CheckContextWith } from '../context';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip, type Verdict } from '../define';
import { unknownTaskId, type ProbeId } from '../setups/probe-ids';
import {
  answered,
  answerMayBe,
  crashVerdict,
  expectError,
  isClientError,
  only,
  probeAnswer,
  probeIs,
  probeLane,
  readProbe,
  sendProbe,
  type Probe,
  type RestExpect,
} from '../setups/probes';
import { completedRun, noFinishedTask, ownFinishedRun, primarySkill, skillInput, skillRuns } from '../setups/tasks';
import { isRefusal, isSuccess } from './shared';

const UNSUPPORTED = JSONRPC_CODE.UnsupportedOperation;

type StreamAnswer =
  | { kind: 'crash'; verdict: Verdict }
  /** An error: as an answer (any status; a gRPC status), or as the first event of a stream. */
  | { kind: 'refused'; error: ErrorAnswer; how: string }
  /** An event stream that did not start with an error. */
  | { kind: 'stream'; items: StreamItem[] }
  /** A JSON answer that is not an error. */
  | { kind: 'accepted'; how: string };

function readStream(ctx: CheckContextWith<'dialect'>, run: StreamRun, name: string, what: string): StreamAnswer {
  const r = run.result;
  if (run.reason === 'not-stream' || !r.responded || (r.error && !run.items.length)) {
    const p = readProbe(ctx, name, r, null);
    const crash = crashVerdict(ctx, p, what);
    if (crash) return { kind: 'crash', verdict: crash };
    // JSON-RPC: an error object at any status, or a 4xx/5xx without one.
    const error = probeAnswer(ctx, p);
    if (error.kind === 'error' || r.status >= 400)
      return { kind: 'refused', error: { kind: 'error', error: { httpStatus: r.status, ...error.error } }, how: answered(p) };
    return { kind: 'accepted', how: answered(p) };
  }
  const first = run.items[0];
  if (first?.kind === 'error' && first.error) {
    const e = first.error;
    // gRPC: the call's status (the stream's only item when it refused at once).
    const how =
      e.binding === 'GRPC'
        ? `gRPC ${e.status ?? 'status'}${e.reason ? ` (${e.reason})` : ' without an ErrorInfo'} "${truncate(e.message, 120)}"`
        : `an event stream whose first event is the error ${e.code ?? e.httpStatus}${e.reason ? ` ${e.reason}` : ''} "${truncate(e.message, 120)}"`;
    return { kind: 'refused', error: { kind: 'error', error: e }, how };
  }
  return { kind: 'stream', items: run.items };
}

const streamEvidence = (run: StreamRun, label: string): Evidence[] => [
  exchangeEvidence(run.result, label),
  ...run.items.slice(0, 3).map((it) => ev(`${label}: event ${it.seq} (${it.kind}${it.rawState ? ` ${it.rawState}` : ''})`, it.data)),
];

function describeStream(items: StreamItem[]): string {
  const [first] = items;
  return first ? `${items.length} event(s), the first a ${first.kind}${first.rawState ? ` (${first.rawState})` : ''}` : 'no event within our wait';
}

/** A short budget for probes that open streams: a refusal comes at once. */
const streamBudget = (ctx: CheckContext) => Math.min(ctx.taskTimeoutMs, 10_000);

/** The worst of several verdicts: a failure, then an advisory failure, then a skip, then a pass (messages joined). */
function worst(vs: readonly [Verdict, ...Verdict[]]): Verdict {
  const rank = (v: Verdict) => (v.status === 'fail' && !v.advisory ? 4 : v.status === 'fail' ? 3 : v.status === 'error' ? 5 : v.status === 'skip' ? 2 : 1);
  const sorted = [...vs].sort((a, b) => rank(b) - rank(a));
  const top = sorted[0] ?? vs[0];
  if (vs.length === 1) return top;
  return { ...top, message: sorted.map((v) => v.message).join(' '), evidence: vs.flatMap((v) => v.evidence ?? []) };
}

export const errorsPushNotSupported = defineCheck({
  id: 'errors.push-not-supported',
  title: `Push config calls on an agent without push give PushNotificationNotSupported (${JSONRPC_CODE.PushNotificationNotSupported})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${JSONRPC_CODE.PushNotificationNotSupported})`,
    'v0.2': 'v0.2.6 §8.2',
    'v0.3': 'v0.3.0 §8.2',
    'v1.0': 'v1.0.1 §3.3.4 Capability Validation, §5.4 (gRPC FAILED_PRECONDITION), §10.6',
  },
  recommendation: `When capabilities.pushNotifications is false or absent, answer every push config method (set/create, get, list, delete) with PushNotificationNotSupportedError ${JSONRPC_CODE.PushNotificationNotSupported} (HTTP+JSON 400) instead of storing the config, 404, ${JSONRPC_CODE.UnsupportedOperation} or 500.`,
  requires: ['dialect'],
  run: async (ctx) => {
    if (ctx.card.capabilities.pushNotifications) return skip('The card declares push notifications (see lifecycle.push-config).', 'not-applicable');
    const runs = await skillRuns(ctx);
    const real = runs.find((r) => r.final?.id)?.final?.id;
    const taskId: ProbeId = real ? { id: real, shaped: true } : await unknownTaskId(ctx);
    const g = ctx.generation;
    const url = 'https://webhook.a2a-interop.invalid/push';
    // Create/set names a webhook URL (which URL validation may refuse first); list/get names none.
    const setParams =
      g === 'legacy'
        ? { id: taskId.id, pushNotificationConfig: { url } }
        : g === 'v1.0'
          ? { taskId: taskId.id, url }
          : { taskId: taskId.id, pushNotificationConfig: { url } };
    // HTTP+JSON: the task id travels in the path.
    const setBody = g === 'v1.0' ? { url } : { pushNotificationConfig: { url } };
    const set = await sendProbe(ctx, 'push-not-supported', () => ({ ...ctx.dialect.request('pushSet', setParams, { id: taskId.id }, setBody), taskId }));
    const skipped = refusedForCredentials(ctx, set.http);
    if (skipped) return skipped;
    // Legacy has no list: its get (by task id) answers the same question.
    const listParams = g === 'v1.0' ? { taskId: taskId.id } : { id: taskId.id };
    const list = await sendProbe(ctx, 'push-not-supported-list', () => ({
      ...ctx.dialect.request(g === 'legacy' ? 'pushGet' : 'pushList', listParams, { id: taskId.id }),
      taskId,
    }));
    const crash = crashVerdict(ctx, set, 'Setting a push config') ?? crashVerdict(ctx, list, 'Listing push configs');
    if (crash) return crash;
    const evidence = [exchangeEvidence(set.http, 'set'), exchangeEvidence(list.http, g === 'legacy' ? 'get' : 'list')];
    // Observed: a refused config must not have been stored.
    if (isSuccess(ctx, list) && list.http.text.includes(url)) {
      return fail(
        `The push config was ${isRefusal(ctx, set) ? 'refused' : 'accepted'} (${answered(set)}), yet listing the task's push configs shows it stored, although the card declares no push notifications.`,
        evidence,
      );
    }
    // v0.x HTTP+JSON has no table; v1.0's is the error table's (its ErrorInfo reason tells this 400 from others).
    const rest: RestExpect | undefined =
      g === 'v1.0'
        ? undefined
        : {
            pass: only(400, 501),
            expected: 'HTTP 400 or 501',
            advisory: (s) =>
              isClientError(s) && s !== 404 && s !== 405
                ? `v0.x has no HTTP mapping table: HTTP ${s} refuses the call, though 400 (or 501) is what servers send.`
                : undefined,
          };
    const judge = (p: Probe, what: string): Verdict => expectError(ctx, p, what, 'PushNotificationNotSupported', { rest });
    const vs = [judge(set, 'Setting a push config'), judge(list, g === 'legacy' ? 'Getting the push config' : 'Listing push configs')];
    const passed = vs.find((v) => v.status === 'pass');
    if (passed) return pass(`${passed.message}${vs.every((v) => v.status === 'pass') ? ' (both the set and the read refused)' : ''}`, evidence);
    // The right code in a malformed error object (JSON-RPC 2.0 §5.1): say that, not "neither call gave it".
    const rightCode = vs.find(
      (v, i) => v.status === 'fail' && ctx.dialect.binding === 'JSONRPC' && probeIs(ctx, [set, list][i]!, 'PushNotificationNotSupported'),
    );
    if (rightCode) return { ...rightCode, evidence };
    if (!real && (probeIs(ctx, set, 'TaskNotFound') || probeIs(ctx, list, 'TaskNotFound'))) {
      return skip(
        `No task of this run could be named, and the agent answered TaskNotFound for the invented id ${taskId.id}: it checks the task before the capability (the order is unspecified), so PushNotificationNotSupported could not be observed.`,
        'precondition',
        evidence,
      );
    }
    const unsupported = [set, list].some((p) => probeIs(ctx, p, 'UnsupportedOperation') || (ctx.dialect.isRest && g !== 'v1.0' && p.http.status === 501));
    const hint = unsupported
      ? ` a2a-python's request handlers answer UnsupportedOperationError (${JSONRPC_CODE.UnsupportedOperation}) here (its validate decorator, or no push store configured); the specification names PushNotificationNotSupportedError (${JSONRPC_CODE.PushNotificationNotSupported}).`
      : '';
    const adv = vs.find((v) => v.advisory);
    const message = `Neither push config call gave PushNotificationNotSupported: set → ${answered(set)}; ${g === 'legacy' ? 'get' : 'list'} → ${answered(list)}.${hint}`;
    return adv ? { ...fail(message, evidence), advisory: adv.advisory } : fail(message, evidence);
  },
});

export const errorsStreamingUnsupported = defineCheck({
  id: 'errors.streaming-unsupported',
  title: `Without declared streaming, the stream and subscribe methods give UnsupportedOperation (${JSONRPC_CODE.UnsupportedOperation})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${LEGACY_DOCUMENT_CODES.StreamingNotSupported}, document only), §7.2`,
    'v0.2': 'v0.2.6 §8.2, §7.2',
    'v0.3': 'v0.3.0 §8.2, §7.2',
    'v1.0': 'v1.0.1 §3.3.4 Capability Validation, §5.4 (gRPC FAILED_PRECONDITION), §10.6',
  },
  recommendation: `When capabilities.streaming is false or absent, answer SendStreamingMessage / message/stream and SubscribeToTask / tasks/resubscribe with UnsupportedOperationError ${JSONRPC_CODE.UnsupportedOperation} (HTTP+JSON 400, gRPC FAILED_PRECONDITION, reason UNSUPPORTED_OPERATION; before v1.0 ${JSONRPC_CODE.MethodNotFound} is accepted too). If you do serve streams, declare capabilities.streaming: true.`,
  requires: ['dialect'],
  run: async (ctx) => {
    if (ctx.card.capabilities.streaming) return skip('The card declares streaming (see the streaming checks and errors.subscribe-terminal).', 'not-applicable');
    const g = ctx.generation;
    const budget = streamBudget(ctx);
    const judge = (ans: StreamAnswer, what: string, evidence: Evidence[], terminalTask: boolean): Verdict => {
      if (ans.kind === 'crash') return ans.verdict;
      if (ans.kind === 'stream' || ans.kind === 'accepted') {
        const served = ans.kind === 'stream' ? `served as an event stream (${describeStream(ans.items)})` : `answered with a result (${ans.how})`;
        const message = `${what} was ${served} although the card does not declare streaming.`;
        if (g === 'v1.0') return fail(`${message} v1.0.1 §3.3.4: it MUST return UnsupportedOperationError.`, evidence);
        return {
          ...fail(message, evidence),
          advisory:
            'Before v1.0 no keyworded sentence forbids serving a stream the card does not declare: the card is inaccurate (declare capabilities.streaming: true).',
        };
      }
      const got = ans.how;
      if (g === 'v1.0') {
        return answerMayBe(ans.error, 'UnsupportedOperation')
          ? pass(`${what}: refused with UnsupportedOperation (${got}).`, evidence)
          : fail(
              `${what}: expected UnsupportedOperation (${UNSUPPORTED}; HTTP 400 or gRPC FAILED_PRECONDITION, reason UNSUPPORTED_OPERATION), got ${got}.`,
              evidence,
            );
      }
      if (g === 'legacy') return pass(`${what}: refused (${got}).`, evidence);
      const status = ans.error.error?.httpStatus ?? 0;
      const ok = ctx.dialect.isRest
        ? isClientError(status) || status === 501
        : isA2AError(ans.error, 'UnsupportedOperation') || isA2AError(ans.error, 'MethodNotFound');
      if (ok) return pass(`${what}: refused (${got}).`, evidence);
      const message = `${what}: expected UnsupportedOperation (${UNSUPPORTED}) or MethodNotFound (${JSONRPC_CODE.MethodNotFound}), got ${got}.`;
      // A subscription to a finished task may be refused for the terminal state first (the order is unspecified).
      return terminalTask
        ? {
            ...fail(message, evidence),
            advisory: 'The task subscribed to is terminal: the agent may have refused it for that before looking at the capability.',
          }
        : fail(message, evidence);
    };
    const input = skillInput(ctx, primarySkill(ctx));
    const sendRun = await ctx.dialect.streamSend(
      ctx.http,
      { ...input, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: budget, taskId: g === 'legacy' ? ctx.uuid() : undefined },
      () => 'stop',
    );
    const sendWhat = `${ctx.dialect.describe('stream')}`;
    const blocked = refusedForCredentials(ctx, sendRun.result);
    if (blocked) return blocked;
    const sendAns = readStream(ctx, sendRun, 'streaming-unsupported', sendWhat);
    if (sendAns.kind === 'crash' && sendAns.verdict.status !== 'fail') return sendAns.verdict;
    const verdicts: [Verdict, ...Verdict[]] = [judge(sendAns, sendWhat, streamEvidence(sendRun, sendWhat), false)];
    const done = await completedRun(ctx);
    if (done?.final?.id) {
      const id = done.final.id;
      const subRun = await ctx.dialect.subscribe(ctx.http, { id, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: budget }, () => 'stop');
      const subWhat = `${ctx.dialect.describe('subscribe', id)} (a ${done.final.rawState} task)`;
      verdicts.push(judge(readStream(ctx, subRun, 'streaming-unsupported-subscribe', subWhat), subWhat, streamEvidence(subRun, subWhat), true));
    }
    return worst(verdicts);
  },
});

export const errorsSubscribeTerminal = defineCheck({
  id: 'errors.subscribe-terminal',
  title: `Subscribing to a finished task gives UnsupportedOperation (${JSONRPC_CODE.UnsupportedOperation}, v1.0)`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.7 tasks/resubscribe',
    'v0.2': 'v0.2.6 §7.9',
    'v0.3': 'v0.3.0 §7.9',
    'v1.0': 'v1.0.1 §3.1.6, §9.4.6 SubscribeToTask, §10.4.6, §10.6',
  },
  recommendation: `Answer SubscribeToTask on a task in a terminal state with UnsupportedOperationError ${JSONRPC_CODE.UnsupportedOperation} (HTTP+JSON 400, gRPC FAILED_PRECONDITION, reason UNSUPPORTED_OPERATION) instead of opening a stream that replays the task. Before v1.0: refuse it, or deliver the final state and close the stream at once.`,
  requires: ['dialect'],
  run: async (ctx) => {
    if (!ctx.card.capabilities.streaming) return skip('The card does not declare streaming (see errors.streaming-unsupported).', 'not-applicable');
    const r = await ownFinishedRun(ctx, 'subscribe-terminal');
    if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to subscribe to');
    const id = r.final.id;
    const g = ctx.generation;
    const what = `${ctx.dialect.describe('subscribe', id)} on ${r.final.rawState} task ${id}`;
    const grace = 2000;
    const stop = new AbortController();
    const quit = new AbortController();
    let endSeen: string | undefined;
    const final = (it: StreamItem) => isTerminal(it.state, g) || it.final === true || (it.kind === 'task' && isTerminal(it.task?.state, g));
    const run = await ctx.dialect.subscribe(
      ctx.http,
      { id, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: streamBudget(ctx), stopSignal: stop.signal },
      (it) => {
        if (it.kind === 'error' || g === 'v1.0') return 'stop';
        if (!endSeen && final(it)) {
          endSeen = it.rawState ?? it.task?.rawState ?? 'final';
          void ctx.http.host.sleep(grace, quit.signal).then(
            () => stop.abort(),
            () => undefined,
          );
        }
        return undefined;
      },
    );
    quit.abort();
    const blocked = refusedForCredentials(ctx, run.result);
    if (blocked) return blocked;
    const evidence = streamEvidence(run, what);
    const ans = readStream(ctx, run, 'subscribe-terminal', what);
    if (ans.kind === 'crash') return ans.verdict;
    if (g === 'v1.0') {
      if (ans.kind === 'refused') {
        if (answerMayBe(ans.error, 'UnsupportedOperation')) return pass(`${what}: refused with UnsupportedOperation (${ans.how}).`, evidence);
        const hint = isA2AError(ans.error, 'InvalidParams') ? " a2a-python's on_subscribe_to_task answers InvalidParams here." : '';
        return fail(
          `${what}: expected UnsupportedOperation (${UNSUPPORTED}; HTTP 400 or gRPC FAILED_PRECONDITION, reason UNSUPPORTED_OPERATION), got ${ans.how}.${hint}`,
          evidence,
        );
      }
      if (ans.kind === 'stream') {
        return fail(
          `${what}: served as an event stream (${describeStream(ans.items)}) instead of UnsupportedOperationError (v1.0.1 §3.1.6, §9.4.6); a final Task snapshot belongs to live streams only.`,
          evidence,
        );
      }
      return fail(`${what}: answered with a result (${ans.how}) instead of UnsupportedOperationError.`, evidence);
    }
    // Before v1.0 nothing fixes the answer: an error, or the final state delivered on a stream that then closes.
    if (ans.kind === 'refused') return pass(`${what}: refused (${ans.how}).`, evidence);
    if (ans.kind === 'accepted') return fail(`${what}: answered with a result (${ans.how}), neither an error nor an event stream.`, evidence);
    if (endSeen && run.reason === 'closed') return pass(`${what}: the stream delivered the final state (${endSeen}) and closed.`, evidence);
    if (endSeen)
      // The rule "the stream ends at its final event", as streaming.terminal / streaming.closes judge it.
      return {
        ...fail(
          `${what}: the stream delivered the final state (${endSeen}) but was still open ${run.reason === 'stopped' ? `${grace} ms later` : `when our wait ended (${run.reason})`}.`,
          evidence,
        ),
        rule: 'stream-ends',
      };
    return fail(
      `${what}: the stream ${run.reason === 'closed' ? 'closed' : `was still open when our wait ended (${run.reason})`} without delivering the final state (${describeStream(ans.items)}).`,
      evidence,
    );
  },
});
