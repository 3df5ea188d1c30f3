import type { Evidence } from '../model/check';
import type { TaskState } from '../model/events';
import type { CallOutcome, StreamItem, StreamRun } from '../protocol/dialect';
import { v1ErrorDataProblems, type TaskView } from '../protocol/shapes';
import { isTerminal, normalizeState } from '../protocol/states';
import { isRecord, truncate } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip, type CheckContext, type CheckDef, type Verdict } from './define';
import { canceledTaskId } from './fixtures/cancel';
import { unknownTaskId, type ProbeId } from './fixtures/probe-ids';
import {
  answered,
  crashVerdict,
  expectRest,
  expectRpcCode,
  isClientError,
  malformedIdVerdict,
  only,
  probeLane,
  readProbe,
  sendProbe,
  structuredError,
  validationStatuses,
  type Probe,
  type RestExpect,
} from './fixtures/probes';
import { completedRun, noFinishedTask, ownFinishedRun, primarySkill, runningCandidates, runTask, skillInput, skillRuns, startRunningTask } from './fixtures/tasks';
import { needDialect } from './preconditions';

const ERRORS = {
  legacy: 'v0.1.0 §8 Error Handling',
  'v0.2': 'v0.2.6 §8 Error Handling',
  'v0.3': 'v0.3.0 §8 Error Handling',
  'v1.0': 'v1.0.1 §5.4 Error Code Mappings, §9.5 / §11.6 Error Handling',
};

// ---------------------------------------------------------------- the shared probes

const BROKEN_JSON = '{"jsonrpc": "2.0", "id": "a2a-interop-parse", "method": ';
const PARSE_PROBE_ID = 'a2a-interop-parse';

/** The deliberately wrong requests judged by errors.shape too, memoized per run. */
const PROBES = {
  'unknown-method': (ctx: CheckContext) =>
    sendProbe(ctx, 'unknown-method', () =>
      ctx.dialect!.isRest ? { kind: 'rest', method: 'GET', path: '/a2a-interop-no-such-operation' } : { kind: 'rpc', method: 'a2a-interop/no-such-method', params: {} },
    ),
  'invalid-json': (ctx: CheckContext) =>
    sendProbe(ctx, 'invalid-json', () => (ctx.dialect!.isRest ? { kind: 'rest', method: 'POST', path: '/message:send', body: BROKEN_JSON } : { kind: 'raw', body: BROKEN_JSON, expectedId: null })),
  'invalid-request': (ctx: CheckContext) => sendProbe(ctx, 'invalid-request', () => ({ kind: 'raw', body: '{"not": "valid jsonrpc"}', expectedId: null })),
  'invalid-params': (ctx: CheckContext) =>
    sendProbe(ctx, 'invalid-params', () =>
      ctx.dialect!.isRest
        ? { kind: 'rest', method: 'POST', path: '/message:send', body: JSON.stringify({ message: 42 }) }
        : { kind: 'rpc', method: ctx.dialect!.method('send'), params: ctx.generation === 'legacy' ? { id: 42, message: 42 } : { message: 42 } },
    ),
  'task-not-found': (ctx: CheckContext) =>
    sendProbe(ctx, 'task-not-found', async () => {
      const taskId = await unknownTaskId(ctx);
      return ctx.dialect!.isRest
        ? { kind: 'rest', method: 'GET', path: `/tasks/${encodeURIComponent(taskId.id)}`, taskId }
        : { kind: 'rpc', method: ctx.dialect!.method('get'), params: { id: taskId.id }, taskId };
    }),
} as const;

const d = (ctx: CheckContext) => ctx.dialect!;

/** TaskNotFound on either binding: -32001; HTTP 404 (reason TASK_NOT_FOUND when given). */
function isTaskNotFound(ctx: CheckContext, p: Probe): boolean {
  if (d(ctx).isRest) return p.http.status === 404 && (p.rest?.reason === undefined || p.rest.reason === 'TASK_NOT_FOUND');
  return p.rpc?.error?.code === -32001;
}

const outcomeNotFound = (o: CallOutcome | undefined) => o?.kind === 'error' && (o.error.code === -32001 || o.http.status === 404);

/** The answer is a success (a JSON-RPC result; on HTTP+JSON a 2xx). */
/**
 * The answer is a success of the binding. On JSON-RPC a `"result": null` beside a real error object is the error
 * (errors.shape reports the envelope): only a non-null result with no error is a success.
 */
const isSuccess = (ctx: CheckContext, p: Probe) =>
  d(ctx).isRest ? p.http.responded && !p.http.error && p.http.status >= 200 && p.http.status < 300 : !!p.rpc?.hasResult && p.rpc.result != null && !(p.rpc.hasError && p.rpc.error);

/** The answer is an error of the binding (a JSON-RPC error at any status; on HTTP+JSON a 4xx/5xx). */
const isRefusal = (ctx: CheckContext, p: Probe) => (d(ctx).isRest ? p.http.status >= 400 : !!p.rpc?.hasError);

/** The state of the Task a successful answer carries (JSON-RPC result, REST body; v1.0 send wraps it in `task`). */
function answeredState(ctx: CheckContext, p: Probe): { state?: TaskState; raw?: string } | undefined {
  if (!isSuccess(ctx, p)) return undefined;
  let v: unknown = d(ctx).isRest ? (() => {
    const j = p.http.json();
    return j.ok ? j.value : undefined;
  })() : p.rpc?.result;
  if (isRecord(v) && isRecord(v.task)) v = v.task;
  if (!isRecord(v) || !isRecord(v.status)) return {};
  const raw = v.status.state;
  return { state: normalizeState(raw), raw: typeof raw === 'string' ? raw : JSON.stringify(raw) };
}

/** Reads a task back after a probe (observe, do not trust the answer). */
const readBack = (ctx: CheckContext, id: string): Promise<CallOutcome> => d(ctx).get(ctx.http, { id, lane: probeLane(ctx), checkId: ctx.checkId });

const readBackEvidence = (o: CallOutcome | undefined, label: string): Evidence[] => (o ? [exchangeEvidence(o.http, label)] : []);

/** HTTP+JSON statuses for TaskNotCancelable: 400 (v1.0.1) or 409 (v1.0.0, a2a-python 0.3); v0.x: another 4xx is an advisory. */
function cancelStatuses(ctx: CheckContext): RestExpect {
  return {
    pass: only(400, 409),
    expected: 'HTTP 400 or 409',
    reason: 'TASK_NOT_CANCELABLE',
    advisory:
      ctx.generation === 'v1.0'
        ? undefined
        : (s) => (isClientError(s) && s !== 404 ? `v0.x has no HTTP mapping table: HTTP ${s} refuses the cancel, though 400 or 409 is what servers customarily send.` : undefined),
  };
}

/** Cancels a task that is already terminal; the judgement of the code (the callers judge the effects). */
async function cancelFinished(ctx: CheckContext, name: string, id: string, stateName: string): Promise<{ v: Verdict; p: Probe; what: string }> {
  const what = `Cancel of ${stateName} task ${id}`;
  const p = await sendProbe(ctx, name, () =>
    d(ctx).isRest ? { kind: 'rest', method: 'POST', path: `/tasks/${encodeURIComponent(id)}:cancel`, body: '{}' } : { kind: 'rpc', method: d(ctx).method('cancel'), params: { id } },
  );
  const skipped = refusedForCredentials(ctx, p.http);
  if (skipped) return { v: skipped, p, what };
  const v = d(ctx).isRest ? expectRest(ctx, p, what, cancelStatuses(ctx)) : expectRpcCode(ctx, p, what, { codes: [-32002], names: 'TaskNotCancelable' });
  return { v, p, what };
}

const V1_UNSUPPORTED = (ctx: CheckContext, p: Probe) =>
  d(ctx).isRest ? p.http.status === 400 && (p.rest?.reason === undefined || p.rest.reason === 'UNSUPPORTED_OPERATION') : p.rpc?.error?.code === -32004;

// ---------------------------------------------------------------- streams (streaming-unsupported, subscribe-terminal)

type StreamAnswer =
  | { kind: 'crash'; verdict: Verdict }
  /** An error: as a JSON answer (any status), or as the first event of a stream. */
  | { kind: 'refused'; code?: number; reason?: string; status: number; how: string }
  /** An event stream that did not start with an error. */
  | { kind: 'stream'; items: StreamItem[] }
  /** A JSON answer that is not an error. */
  | { kind: 'accepted'; how: string };

function readStream(ctx: CheckContext, run: StreamRun, name: string, what: string): StreamAnswer {
  const r = run.result;
  if (run.reason === 'not-stream' || !r.responded || (r.error && !run.items.length)) {
    const p = readProbe(ctx, name, r, null);
    const crash = crashVerdict(ctx, p, what);
    if (crash) return { kind: 'crash', verdict: crash };
    if (d(ctx).isRest) return r.status >= 400 ? { kind: 'refused', reason: p.rest?.reason, status: r.status, how: answered(p) } : { kind: 'accepted', how: answered(p) };
    const code = p.rpc?.error?.code;
    if (p.rpc?.hasError) return { kind: 'refused', code: typeof code === 'number' ? code : undefined, status: r.status, how: answered(p) };
    if (r.status >= 400) return { kind: 'refused', status: r.status, how: answered(p) };
    return { kind: 'accepted', how: answered(p) };
  }
  const first = run.items[0];
  if (first?.kind === 'error' && first.error) {
    const e = first.error;
    return {
      kind: 'refused',
      code: e.code,
      reason: e.reason,
      status: d(ctx).isRest ? e.httpStatus : r.status,
      how: `an event stream whose first event is the error ${e.code ?? e.httpStatus}${e.reason ? ` ${e.reason}` : ''} "${truncate(e.message, 120)}"`,
    };
  }
  return { kind: 'stream', items: run.items };
}

const streamEvidence = (run: StreamRun, label: string): Evidence[] => [
  exchangeEvidence(run.result, label),
  ...run.items.slice(0, 3).map((it) => ev(`${label}: event ${it.seq} (${it.kind}${it.rawState ? ` ${it.rawState}` : ''})`, it.data)),
];

const describeStream = (items: StreamItem[]) =>
  items.length ? `${items.length} event(s), the first a ${items[0]!.kind}${items[0]!.rawState ? ` (${items[0]!.rawState})` : ''}` : 'no event within our wait';

/** A short budget for probes that open streams: a refusal comes at once. */
const streamBudget = (ctx: CheckContext) => Math.min(ctx.taskTimeoutMs, 10_000);

/** The worst of several verdicts: a failure, then an advisory failure, then a skip, then a pass (messages joined). */
function worst(vs: Verdict[]): Verdict {
  const rank = (v: Verdict) => (v.status === 'fail' && !v.advisory ? 4 : v.status === 'fail' ? 3 : v.status === 'error' ? 5 : v.status === 'skip' ? 2 : 1);
  const sorted = [...vs].sort((a, b) => rank(b) - rank(a));
  const top = sorted[0]!;
  if (vs.length === 1) return top;
  return { ...top, message: sorted.map((v) => v.message).join(' '), evidence: vs.flatMap((v) => v.evidence ?? []) };
}

// ---------------------------------------------------------------- checks

export const errorChecks: CheckDef[] = [
  defineCheck({
    id: 'errors.unknown-method',
    title: 'An unknown method is answered with MethodNotFound (-32601)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §3.3.2, §9.5 (JSON-RPC 2.0 -32601); HTTP+JSON: a 4xx' },
    recommendation:
      'Answer unknown JSON-RPC methods with {"error":{"code":-32601,"message":"Method not found"}} and the request id; on HTTP+JSON answer unknown routes with a 4xx (404 or 405). Frameworks often return 404 HTML or 500 for these by default.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const p = await PROBES['unknown-method'](ctx);
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      if (d(ctx).isRest) return expectRest(ctx, p, 'Unknown operation', { pass: (s) => isClientError(s) || s === 501, expected: 'a 4xx status (404 or 405 by HTTP semantics) or 501' });
      return expectRpcCode(ctx, p, 'Unknown method', {
        codes: [-32601],
        names: 'MethodNotFound',
        hints: { [-32600]: 'JSON-RPC 2.0 §5.1 reserves -32601 for a method that does not exist; -32600 is for a body that is not a Request object (servers that validate the method name against a schema, e.g. with pydantic, answer -32600 here).' },
      });
    },
  }),
  defineCheck({
    id: 'errors.invalid-json',
    title: 'A body that is not JSON is answered with a parse error (-32700)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §9.5 (-32700), §3.3.2 (HTTP 400 as the example)' },
    recommendation:
      'Catch JSON parse failures before dispatch and answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}} (HTTP+JSON: 400 with an error body), not a 500 or an HTML error page.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const p = await PROBES['invalid-json'](ctx);
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      if (d(ctx).isRest) return expectRest(ctx, p, 'Malformed JSON', validationStatuses(ctx));
      return expectRpcCode(ctx, p, 'Malformed JSON', {
        codes: [-32700],
        names: 'JSONParseError',
        hints: { [-32602]: '@a2a-js/sdk 1.x answers a parse error with -32602 (its RequestMalformedError maps to INVALID_PARAMS); JSON-RPC 2.0 §5.1 and the A2A tables say -32700.' },
      });
    },
  }),
  defineCheck({
    id: 'errors.invalid-request',
    title: 'JSON that is not a JSON-RPC request is answered with InvalidRequest (-32600)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §9.5 (-32600)' },
    recommendation: 'Validate the JSON-RPC envelope (jsonrpc "2.0", a string method, an id) and answer violations with -32600 Invalid Request and id null.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (d(ctx).isRest) return skip('JSON-RPC envelopes do not exist on the HTTP+JSON binding.', 'not-applicable');
      const p = await PROBES['invalid-request'](ctx);
      return (
        refusedForCredentials(ctx, p.http) ??
        expectRpcCode(ctx, p, 'JSON without a JSON-RPC envelope', {
          codes: [-32600],
          names: 'InvalidRequest',
          hints: {
            [-32602]:
              '@a2a-js/sdk 1.x answers -32602 here (isRequestValid → RequestMalformedError); JSON-RPC 2.0 §5.1 and every A2A error table give -32600 for a body that is not a Request object (the §3.3.2 validation example concerns params, not the envelope).',
          },
        })
      );
    },
  }),
  defineCheck({
    id: 'errors.invalid-params',
    title: 'A send with malformed params is answered with InvalidParams (-32602)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §3.3.2 (validation: -32602 / HTTP 400)' },
    recommendation:
      'Validate params against the schema of the method (message must be a Message object) and answer -32602 Invalid params (HTTP+JSON: 400 INVALID_ARGUMENT) instead of crashing on the missing fields.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const p = await PROBES['invalid-params'](ctx);
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      if (d(ctx).isRest) return expectRest(ctx, p, 'A message that is a number', validationStatuses(ctx));
      return expectRpcCode(ctx, p, 'A message that is a number', {
        codes: [-32602],
        names: 'InvalidParams',
        advisory: {
          [-32600]:
            'The schemas name InvalidRequestError "Request payload validation error", which servers (e.g. the Google legacy samples) read as covering schema-invalid params: -32600 is a defensible reading, though JSON-RPC 2.0 gives -32602.',
        },
      });
    },
  }),
  defineCheck({
    id: 'errors.task-not-found',
    title: 'get of a task that does not exist gives TaskNotFound (-32001, HTTP 404)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32001 TaskNotFoundError)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.1.3, §3.3.2, §5.4 (TaskNotFound / NOT_FOUND / 404)' },
    recommendation:
      'When the task store has no such id, answer TaskNotFoundError -32001 (HTTP+JSON: 404 with ErrorInfo reason TASK_NOT_FOUND in v1.0) rather than null, an empty task or a 500.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const p = await PROBES['task-not-found'](ctx);
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const what = `Get of an unknown task (${p.taskId?.id ?? '?'})`;
      const v = d(ctx).isRest
        ? expectRest(ctx, p, what, { pass: only(404), expected: 'HTTP 404', reason: 'TASK_NOT_FOUND' })
        : expectRpcCode(ctx, p, what, { codes: [-32001], names: 'TaskNotFound' });
      return malformedIdVerdict(ctx, p, v);
    },
  }),
  defineCheck({
    id: 'errors.cancel-terminal',
    title: 'Canceling a completed task gives TaskNotCancelable (-32002) and leaves the task as it was',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32002 TaskNotCancelableError)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.1.5 (HTTP 400 in v1.0.1, 409 in v1.0.0)' },
    recommendation:
      'Guard terminal states: a cancel of a completed, failed or rejected task must answer TaskNotCancelableError -32002 (HTTP+JSON: 400, or 409 per v1.0.0), never a 500 and never a silently "canceled" completed task.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const r = await ownFinishedRun(ctx, 'cancel-terminal');
      if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to cancel');
      const t = r.final;
      const id = t.id!;
      const { v, p, what } = await cancelFinished(ctx, 'cancel-terminal', id, t.rawState ?? 'finished');
      if (v.status === 'skip' || v.status === 'error' || v.critical) return v;
      // Observed, not trusted: a terminal state is final, whatever the answer said.
      const after = await readBack(ctx, id);
      const evidence = [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')];
      const got = answeredState(ctx, p);
      const changedTo = (got?.state && got.state !== t.state ? got.raw : undefined) ?? (after.kind === 'task' && after.task.state !== t.state ? after.task.rawState : undefined);
      if (changedTo) {
        return {
          status: 'fail',
          critical: true,
          message: `${what}: the ${t.rawState} task became ${changedTo}. A terminal state is final (task lifecycle MUST): the cancel rewrote finished work instead of being refused with TaskNotCancelable.`,
          evidence,
        };
      }
      if (got) return fail(`${what}: the agent returned the unchanged ${t.rawState} task as a success instead of refusing with TaskNotCancelable (-32002).`, evidence);
      return { ...v, evidence };
    },
  }),
  defineCheck({
    id: 'errors.cancel-twice',
    title: 'Canceling an already canceled task gives TaskNotCancelable (v1.0 also permits TaskNotFound, or idempotent success)',
    category: 'error-handling',
    level: 'MAY',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32002)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.1.5, §3.3.1 Idempotency' },
    recommendation:
      'Answer a cancel of a task that is already canceled with TaskNotCancelableError -32002 (HTTP+JSON 400). In v1.0 the specification also calls cancel idempotent (§3.3.1) and lets a duplicate return TaskNotFoundError once the task was purged; pick one behaviour and document it. Never change the state of a canceled task.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const canceled = await canceledTaskId(ctx);
      if (!canceled) return skip('No task was canceled in this run (see lifecycle.cancel), so there is none to cancel again.', 'precondition');
      const { v, p, what } = await cancelFinished(ctx, 'cancel-canceled', canceled, 'canceled');
      if (v.status === 'skip' || v.status === 'error' || v.critical) return v;
      const after = await readBack(ctx, canceled);
      const evidence = [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')];
      const got = answeredState(ctx, p);
      const changedTo = (got?.state && got.state !== 'canceled' ? got.raw : undefined) ?? (after.kind === 'task' && after.task.state !== 'canceled' ? after.task.rawState : undefined);
      if (changedTo) {
        return { status: 'fail', critical: true, message: `${what}: the canceled task became ${changedTo}. A terminal state is final, whatever a duplicate cancel answers.`, evidence };
      }
      if (v.status === 'pass') return { ...v, evidence };
      if (ctx.generation === 'v1.0') {
        if (got) return pass(`${what}: the agent returned the canceled task again; v1.0.1 §3.3.1 makes cancel idempotent ("multiple cancellation requests have the same effect").`, evidence);
        if (isTaskNotFound(ctx, p)) return pass(`${what}: TaskNotFound, which v1.0.1 §3.3.1 permits for a canceled and purged task.`, evidence);
        return {
          ...v,
          evidence,
          advisory:
            'v1.0.1 §3.3.1 calls cancel idempotent (a duplicate may return the task, or TaskNotFound once purged) while §3.1.5 lists TaskNotCancelable for a canceled task: nothing else is named, but the release contradicts itself here.',
        };
      }
      if (isTaskNotFound(ctx, p) && outcomeNotFound(after)) return pass(`${what}: TaskNotFound, and a get finds no such task either (it was purged).`, evidence);
      if (got) {
        return fail(
          `${what}: the agent returned the canceled task as a success instead of refusing with TaskNotCancelable (-32002); before v1.0 there is no idempotency rule and the §8.2 TaskNotCancelableError row names "canceled".`,
          evidence,
        );
      }
      return { ...v, evidence };
    },
  }),
  defineCheck({
    id: 'errors.message-to-terminal',
    title: 'A message to a finished task is refused (v1.0: UnsupportedOperation -32004) and leaves the task as it was',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32009 InvalidTaskStateError, document only)', 'v0.2': 'v0.2.6 §7.1', 'v0.3': 'v0.3.0 §7.1', 'v1.0': 'v1.0.1 §3.1.1, §5.4 (UnsupportedOperationError)' },
    recommendation:
      'Refuse messages that target a task in a terminal state: v1.0 requires UnsupportedOperationError (-32004; HTTP+JSON 400 UNSUPPORTED_OPERATION); earlier versions any error. Leave the task untouched (no history entry, no restart) and create a new task in the same context instead.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const r = await ownFinishedRun(ctx, 'message-to-terminal');
      if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to message');
      const t = r.final;
      const id = t.id!;
      const marker = `One more thing, please (a2a-interop ${ctx.uuid().slice(0, 8)}).`;
      const params = d(ctx).sendParams({ text: marker, taskId: id, contextId: t.contextId });
      const what = `A message to ${t.rawState} task ${id}`;
      const p = await sendProbe(ctx, 'message-to-terminal', () =>
        d(ctx).isRest ? { kind: 'rest', method: 'POST', path: '/message:send', body: JSON.stringify(params) } : { kind: 'rpc', method: d(ctx).method('send'), params },
      );
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const crash = crashVerdict(ctx, p, what);
      if (crash) return crash;
      let v: Verdict;
      let after: CallOutcome | undefined;
      if (ctx.generation === 'v1.0') {
        v = d(ctx).isRest
          ? expectRest(ctx, p, what, { pass: only(400), expected: 'HTTP 400 UNSUPPORTED_OPERATION', reason: 'UNSUPPORTED_OPERATION' })
          : expectRpcCode(ctx, p, what, {
              codes: [-32004],
              names: 'UnsupportedOperation',
              hints: { [-32602]: 'a2a-python\'s DefaultRequestHandler answers InvalidParams ("Task … is in terminal state"); v1.0.1 §3.1.1 names UnsupportedOperationError.' },
            });
        if (v.status === 'fail' && isTaskNotFound(ctx, p)) {
          after = await readBack(ctx, id);
          if (outcomeNotFound(after)) return skip(`${what} got TaskNotFound, and a get finds no such task either: it was purged, so a message to a terminal task could not be exercised.`, 'precondition', [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')]);
          v = fail(`${what}: TaskNotFound, although a get still returns the task; v1.0.1 §3.1.1 names UnsupportedOperationError for a terminal task.`, [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')]);
        }
      } else {
        const evidence = [exchangeEvidence(p.http)];
        v = isRefusal(ctx, p) ? pass(`${what} was refused (${answered(p)}).`, evidence) : fail(`${what} was accepted: ${answered(p)}.`, evidence);
      }
      if (!isRefusal(ctx, p)) return v;
      // Observed, not trusted: an error answer plus a silent append or restart is still a failure.
      after ??= await readBack(ctx, id);
      if (after.kind !== 'task') return v;
      const evidence = [...(v.evidence ?? []).filter((e) => e.label !== 'read back'), exchangeEvidence(after.http, 'read back')];
      if (after.task.state !== t.state) {
        return { status: 'fail', critical: true, message: `${what} was answered with an error, but reading the task back shows it changed from ${t.rawState} to ${after.task.rawState}: a terminal state is final.`, evidence };
      }
      const messageId = isRecord(params.message) && typeof params.message.messageId === 'string' ? params.message.messageId : undefined;
      const history = JSON.stringify(after.task.history ?? []);
      if (history.includes(marker) || (messageId && history.includes(messageId))) {
        return fail(`${what} was answered with an error, but reading the task back shows our message in its history: the refused message was still appended.`, evidence);
      }
      return { ...v, evidence };
    },
  }),
  defineCheck({
    id: 'errors.push-not-supported',
    title: 'Push config calls on an agent without push give PushNotificationNotSupported (-32003)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32003)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.3.4 Capability Validation' },
    recommendation:
      'When capabilities.pushNotifications is false or absent, answer every push config method (set/create, get, list, delete) with PushNotificationNotSupportedError -32003 (HTTP+JSON 400) instead of storing the config, 404, -32004 or 500.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (ctx.card.capabilities.pushNotifications) return skip('The card declares push notifications (see lifecycle.push-config).', 'not-applicable');
      const runs = await skillRuns(ctx);
      const real = runs.find((r) => r.final?.id)?.final?.id;
      const taskId: ProbeId = real ? { id: real, shaped: true } : await unknownTaskId(ctx);
      const g = ctx.generation;
      const url = 'https://webhook.a2a-interop.invalid/push';
      const enc = encodeURIComponent(taskId.id);
      // Create/set names a webhook URL (which URL validation may refuse first); list/get names none.
      const set = await sendProbe(ctx, 'push-not-supported', () =>
        d(ctx).isRest
          ? { kind: 'rest', method: 'POST', path: `/tasks/${enc}/pushNotificationConfigs`, body: JSON.stringify(g === 'v1.0' ? { url } : { pushNotificationConfig: { url } }), taskId }
          : { kind: 'rpc', method: d(ctx).method('pushSet'), params: g === 'legacy' ? { id: taskId.id, pushNotificationConfig: { url } } : g === 'v1.0' ? { taskId: taskId.id, url } : { taskId: taskId.id, pushNotificationConfig: { url } }, taskId },
      );
      const skipped = refusedForCredentials(ctx, set.http);
      if (skipped) return skipped;
      const list = await sendProbe(ctx, 'push-not-supported-list', () =>
        d(ctx).isRest
          ? { kind: 'rest', method: 'GET', path: `/tasks/${enc}/pushNotificationConfigs`, taskId }
          : g === 'legacy'
            ? { kind: 'rpc', method: 'tasks/pushNotification/get', params: { id: taskId.id }, taskId }
            : g === 'v1.0'
              ? { kind: 'rpc', method: 'ListTaskPushNotificationConfigs', params: { taskId: taskId.id }, taskId }
              : { kind: 'rpc', method: 'tasks/pushNotificationConfig/list', params: { id: taskId.id }, taskId },
      );
      const crash = crashVerdict(ctx, set, 'Setting a push config') ?? crashVerdict(ctx, list, 'Listing push configs');
      if (crash) return crash;
      const evidence = [exchangeEvidence(set.http, 'set'), exchangeEvidence(list.http, g === 'legacy' ? 'get' : 'list')];
      // Observed: a refused config must not have been stored.
      if (isSuccess(ctx, list) && list.http.text.includes(url)) {
        return fail(`The push config was ${isRefusal(ctx, set) ? 'refused' : 'accepted'} (${answered(set)}), yet listing the task's push configs shows it stored, although the card declares no push notifications.`, evidence);
      }
      const rest: RestExpect =
        g === 'v1.0'
          ? { pass: only(400), expected: 'HTTP 400 PUSH_NOTIFICATION_NOT_SUPPORTED', reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' }
          : {
              pass: only(400, 501),
              expected: 'HTTP 400 or 501',
              advisory: (s) => (isClientError(s) && s !== 404 && s !== 405 ? `v0.x has no HTTP mapping table: HTTP ${s} refuses the call, though 400 (or 501) is what servers send.` : undefined),
            };
      const judge = (p: Probe, what: string): Verdict => {
        if (d(ctx).isRest) {
          const v = expectRest(ctx, p, what, rest);
          // v1.0: the reason tells PushNotificationNotSupported from other 400s.
          return v.status === 'pass' && g === 'v1.0' && p.rest?.reason && p.rest.reason !== 'PUSH_NOTIFICATION_NOT_SUPPORTED' ? fail(v.message, v.evidence) : v;
        }
        return expectRpcCode(ctx, p, what, { codes: [-32003], names: 'PushNotificationNotSupported' });
      };
      const vs = [judge(set, 'Setting a push config'), judge(list, g === 'legacy' ? 'Getting the push config' : 'Listing push configs')];
      const passed = vs.find((v) => v.status === 'pass');
      if (passed) return pass(`${passed.message}${vs.every((v) => v.status === 'pass') ? ' (both the set and the read refused)' : ''}`, evidence);
      if (!real && (isTaskNotFound(ctx, set) || isTaskNotFound(ctx, list))) {
        return skip(
          `No task of this run could be named, and the agent answered TaskNotFound for the invented id ${taskId.id}: it checks the task before the capability (the order is unspecified), so PushNotificationNotSupported could not be observed.`,
          'precondition',
          evidence,
        );
      }
      const unsupported = [set, list].some((p) => p.rpc?.error?.code === -32004 || p.rest?.reason === 'UNSUPPORTED_OPERATION' || (d(ctx).isRest && g !== 'v1.0' && p.http.status === 501));
      const hint = unsupported
        ? " a2a-python's request handlers answer UnsupportedOperationError (-32004) here (its validate decorator, or no push store configured); the specification names PushNotificationNotSupportedError (-32003)."
        : '';
      const adv = vs.find((v) => v.advisory);
      const message = `Neither push config call gave PushNotificationNotSupported: set → ${answered(set)}; ${g === 'legacy' ? 'get' : 'list'} → ${answered(list)}.${hint}`;
      return adv ? { ...fail(message, evidence), advisory: adv.advisory } : fail(message, evidence);
    },
  }),
  defineCheck({
    id: 'errors.version-unsupported',
    title: 'An unsupported A2A-Version is refused with VersionNotSupported (-32009)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.6.2 Server Responsibilities, §5.4 (-32009 / HTTP 400)' },
    recommendation:
      'Read A2A-Version on every request; when you cannot apply the requested version answer VersionNotSupportedError -32009 (HTTP+JSON 400 with reason VERSION_NOT_SUPPORTED) instead of silently applying another version.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const h = { 'A2A-Version': '99.0' };
      const p = await sendProbe(ctx, 'version-unsupported', async () => {
        const taskId = await unknownTaskId(ctx);
        return d(ctx).isRest
          ? { kind: 'rest', method: 'GET', path: `/tasks/${encodeURIComponent(taskId.id)}`, headers: h, taskId }
          : { kind: 'rpc', method: d(ctx).method('get'), params: { id: taskId.id }, headers: h, taskId };
      });
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const processed = isTaskNotFound(ctx, p) ? ' The request was processed (TaskNotFound for our probe id): the header was ignored.' : '';
      const v = d(ctx).isRest
        ? expectRest(ctx, p, 'A2A-Version: 99.0', { pass: only(400), expected: 'HTTP 400 VERSION_NOT_SUPPORTED', reason: 'VERSION_NOT_SUPPORTED' })
        : expectRpcCode(ctx, p, 'A2A-Version: 99.0', { codes: [-32009], names: 'VersionNotSupported' });
      return v.status === 'fail' && processed ? { ...v, message: `${v.message}${processed}` } : v;
    },
  }),
  defineCheck({
    id: 'errors.version-missing',
    title: 'A request without A2A-Version is treated as 0.3: refused by a 1.0-only interface, served as 0.3 where 0.3 is declared',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.6.2 (Agents MUST interpret empty value as 0.3 version)' },
    recommendation:
      'Treat a request without A2A-Version as a 0.3 request: where the card declares a 0.3 interface at the same URL, serve it through the v0.3 compatibility layer (e.g. @a2a-js/sdk legacyCompat); otherwise answer VersionNotSupportedError -32009 (HTTP+JSON 400 VERSION_NOT_SUPPORTED). Answering it with v1.0 semantics hides version bugs in clients.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      const omit = ['A2A-Version'];
      const norm = (u: string | undefined) => (u ?? '').replace(/\/+$/, '');
      const iface03 = ctx.card.interfaces.find(
        (i) => norm(i.url) === norm(ctx.endpointUrl) && /^0\.3(\.|$)/.test(i.protocolVersion ?? '') && String(i.binding).toUpperCase() === String(ctx.binding ?? '').toUpperCase(),
      );
      const taskId = await unknownTaskId(ctx);
      const enc = encodeURIComponent(taskId.id);
      if (iface03) {
        // A 0.3 interface at this URL: the header-less request is a 0.3 request, judged by 0.3 semantics.
        const p = await sendProbe(ctx, 'version-missing', () =>
          d(ctx).isRest ? { kind: 'rest', method: 'GET', path: `/v1/tasks/${enc}`, omit, taskId } : { kind: 'rpc', method: 'tasks/get', params: { id: taskId.id }, omit, taskId },
        );
        const skipped = refusedForCredentials(ctx, p.http);
        if (skipped) return skipped;
        const what = `A 0.3 ${d(ctx).isRest ? `GET /v1/tasks/{id}` : 'tasks/get'} without A2A-Version (the card declares a 0.3 interface at this URL)`;
        const crash = crashVerdict(ctx, p, what);
        if (crash) return crash;
        const evidence = [exchangeEvidence(p.http)];
        if (!d(ctx).isRest) {
          const code = p.rpc?.error?.code;
          if (code === -32001) return pass(`${what}: served as 0.3 (TaskNotFound -32001 for our unknown id).`, evidence);
          if (code === -32601) return fail(`${what}: -32601 Method not found, i.e. routed as 1.0; v1.0.1 §3.6.2 requires a missing header to mean 0.3, and the card promises 0.3 here.`, evidence);
          return fail(`${what}: expected the 0.3 answer (TaskNotFound -32001), got ${answered(p)}.`, evidence);
        }
        if (p.http.status === 404 && p.rest?.reason !== undefined && p.rest.reason !== 'TASK_NOT_FOUND') return fail(`${what}: ${answered(p)}, not a 0.3 TaskNotFound.`, evidence);
        if (p.http.status === 404) {
          return /task/i.test(p.http.text)
            ? pass(`${what}: served as 0.3 (HTTP 404 naming the task).`, evidence)
            : { ...fail(`${what}: HTTP 404 without a body that names the task: a missing 0.3 route and a 0.3 TaskNotFound look alike.`, evidence), advisory: 'An HTTP 404 cannot tell a 0.3 TaskNotFound from a route the 1.0 router lacks.' };
        }
        return fail(`${what}: expected the 0.3 answer (HTTP 404 for our unknown task), got ${answered(p)}.`, evidence);
      }
      const p = await sendProbe(ctx, 'version-missing', () =>
        d(ctx).isRest ? { kind: 'rest', method: 'GET', path: `/tasks/${enc}`, omit, taskId } : { kind: 'rpc', method: d(ctx).method('get'), params: { id: taskId.id }, omit, taskId },
      );
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const what = `A ${d(ctx).describe('get')} without A2A-Version (the card declares only 1.0 at this URL)`;
      const crash = crashVerdict(ctx, p, what);
      if (crash) return crash;
      const evidence = [exchangeEvidence(p.http)];
      const code = p.rpc?.error?.code;
      if (code === -32009 || p.rest?.reason === 'VERSION_NOT_SUPPORTED') return pass(`${what}: refused with VersionNotSupported.`, evidence);
      if (d(ctx).isRest && p.http.status === 400 && p.rest?.reason === undefined) return pass(`${what}: refused with HTTP 400 (a v1.0 task lookup would have answered 404).`, evidence);
      const treatedAsOld =
        code === -32601 ? 'treated as a 0.3 request (GetTask is not a 0.3 method: -32601)' : d(ctx).isRest && p.http.status === 404 && p.rest?.reason !== 'TASK_NOT_FOUND' ? 'treated as a non-1.0 request (HTTP 404 without TASK_NOT_FOUND)' : undefined;
      if (treatedAsOld) {
        return {
          ...fail(`${what}: ${treatedAsOld}, but not refused with VersionNotSupportedError as v1.0.1 §3.6.2 requires of an interface that does not support 0.3.`, evidence),
          advisory: 'The request was not served with 1.0 semantics (the MUST at stake); only the error type differs.',
        };
      }
      return fail(`${what}: answered with v1.0 semantics (${answered(p)}): the missing header was not treated as 0.3.`, evidence);
    },
  }),
  defineCheck({
    id: 'errors.shape',
    title: 'Error answers have the shape of the binding (JSON-RPC error object; JSON error bodies on HTTP+JSON, google.rpc.Status in v1.0)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §6.11.2, §6.12 JSONRPCError',
      'v0.2': 'v0.2.6 §6.11.2, §6.12 JSONRPCError',
      'v0.3': 'v0.3.0 §6.11.2, §6.12 JSONRPCError; §3.2.3 (HTTP+JSON: JSON error bodies)',
      'v1.0': 'v1.0.1 §3.3.2, §9.5, §11.6 (google.rpc.Status)',
    },
    recommendation:
      'JSON-RPC: {"jsonrpc":"2.0","id":<request id, or null when it could not be read>,"error":{"code":<integer>,"message":<string>}} with no "result" (v1.0: every object in error.data carries "@type"). HTTP+JSON v1.0: google.rpc.Status {"error":{"code":<HTTP status>,"message":…,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}, not application/problem+json. HTTP+JSON v0.3: a JSON error body, not an HTML page.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      // The probes are shared with the specific checks (memoized): whichever runs first makes them.
      const names = (Object.keys(PROBES) as (keyof typeof PROBES)[]).filter((n) => !(n === 'invalid-request' && d(ctx).isRest));
      const probes = await Promise.all(names.map((n) => PROBES[n](ctx)));
      // Crashes (no answer, a 5xx without a structured error) are judged by the probes' own checks.
      const judged = probes.filter((p) => p.http.responded && !p.http.error && p.http.status !== 401 && p.http.status !== 403 && p.http.status !== 429 && (p.http.status < 500 || structuredError(ctx, p)));
      if (!judged.length) return skip('No error answer to judge (the error probes did not run or got no answer).', 'precondition');
      const problems: [string, string][] = [];
      const notes = new Set<string>();
      let errorAnswers = 0;
      for (const p of judged) {
        if (d(ctx).isRest) {
          if (p.http.status < 400) continue;
          errorAnswers++;
          if (ctx.generation === 'v1.0') {
            p.rest?.problems.forEach((x) => problems.push([p.name, x]));
            p.rest?.notes.forEach((x) => notes.add(x));
          } else {
            const body = p.http.json();
            if (!body.ok) problems.push([p.name, `the error body is not JSON (HTTP ${p.http.status}, ${p.http.contentType || 'no content type'}); v0.3.0 §3.2.3 requires error responses in a consistent JSON format`]);
            else if (!isRecord(body.value)) problems.push([p.name, 'the error body is JSON but not an object that maps to an A2A error type (v0.3.0 §3.2.3)']);
          }
          continue;
        }
        if (p.notJson !== undefined) {
          errorAnswers++;
          problems.push([p.name, `the body is not JSON (HTTP ${p.http.status}, ${p.http.contentType || 'no content type'})`]);
          continue;
        }
        if (!p.rpc) continue;
        const env = p.rpc;
        if (env.hasError) errorAnswers++;
        env.problems.filter((x) => !x.startsWith('"id"')).forEach((x) => problems.push([p.name, x]));
        const idProblem = env.problems.find((x) => x.startsWith('"id"'));
        if (idProblem) {
          // JSON-RPC 2.0 §5: id null when the request id could not be detected (-32700 / -32600), whatever the probe;
          // a parse-error answer that recovered our id had no error detecting it.
          const code = env.error?.code;
          const nullOk = env.id === null && (code === -32700 || code === -32600);
          const recovered = p.name === 'invalid-json' && env.id === PARSE_PROBE_ID;
          if (!nullOk && !recovered) {
            const cantKnowId = p.name === 'invalid-json' || p.name === 'invalid-request';
            problems.push([p.name, cantKnowId ? `"id" should be null when the request id could not be read, got ${JSON.stringify(env.id)}` : idProblem]);
          }
        }
        if (ctx.generation === 'v1.0' && env.error) v1ErrorDataProblems(env.error.data, 'must').forEach((x) => problems.push([p.name, x]));
      }
      if (!errorAnswers && !problems.length) return skip('No probe was answered with an error, so there is no error shape to judge (see the other errors checks).', 'precondition');
      if (problems.length) {
        return fail(`${problems.length} shape problem(s): ${problems.slice(0, 3).map(([n, x]) => `${n}: ${x}`).join('; ')}.`, problems.slice(0, 20).map(([n, x]) => ev(n, x)));
      }
      return pass(`${errorAnswers} error answer(s), all well-formed.${notes.size ? ` (${[...notes][0]}.)` : ''}`);
    },
  }),
  defineCheck({
    id: 'errors.details',
    title: 'A2A errors carry a google.rpc.ErrorInfo with the reason (v1.0)',
    category: 'error-handling',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §9.5 (error.data ErrorInfo: SHOULD; MUST in v1.0.0)' },
    recommendation:
      'Put a google.rpc.ErrorInfo in JSON-RPC error.data (a list of typed details): {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (d(ctx).isRest) return skip('On HTTP+JSON, ErrorInfo is part of google.rpc.Status (see errors.shape).', 'not-applicable');
      const p = await PROBES['task-not-found'](ctx);
      const e = p.rpc?.error;
      if (!e || typeof e.code !== 'number' || e.code > -32001 || e.code < -32099) return skip('No A2A-specific error answer to inspect (see errors.task-not-found).', 'precondition');
      // Untyped items of a data list break a MUST: errors.shape reports them.
      const problems = v1ErrorDataProblems(e.data, 'should');
      return problems.length ? fail(`The A2A error ${e.code} carries no usable ErrorInfo: ${problems.join('; ')}.`, [exchangeEvidence(p.http)]) : pass('error.data carries a google.rpc.ErrorInfo.', [exchangeEvidence(p.http)]);
    },
  }),
  defineCheck({
    id: 'errors.unknown-task-message',
    title: 'A message naming a task that does not exist gives TaskNotFound (-32001, HTTP 404)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v0.2': 'v0.2.6 §8.2 (-32001)', 'v0.3': 'v0.3.0 §8.2 (-32001)', 'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics, §5.4' },
    recommendation:
      'When message.taskId names no task, answer TaskNotFoundError -32001 (HTTP+JSON: 404 TASK_NOT_FOUND) instead of creating a task, ignoring the id or answering another error. Task ids are server-generated: a client names one only to continue that task.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (ctx.generation === 'legacy') return skip('Legacy clients choose task ids: tasks/send with a new id creates the task (v0.1.0 §7.1.1).', 'not-applicable');
      const taskId = await unknownTaskId(ctx);
      const input = skillInput(ctx, primarySkill(ctx));
      const params = d(ctx).sendParams({ text: input.text, parts: input.parts, taskId: taskId.id });
      const p = await sendProbe(ctx, 'unknown-task-message', () =>
        d(ctx).isRest ? { kind: 'rest', method: 'POST', path: '/message:send', body: JSON.stringify(params), taskId } : { kind: 'rpc', method: d(ctx).method('send'), params, taskId },
      );
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const what = `A message with taskId ${taskId.id} (no such task)`;
      let v = d(ctx).isRest
        ? expectRest(ctx, p, what, { pass: only(404), expected: 'HTTP 404', reason: 'TASK_NOT_FOUND' })
        : expectRpcCode(ctx, p, what, { codes: [-32001], names: 'TaskNotFound' });
      if (v.status === 'fail' && isSuccess(ctx, p)) {
        const st = answeredState(ctx, p);
        v = fail(`${what} was accepted (${st?.raw ? `a Task in state ${st.raw}` : answered(p)}): the agent created a task or ignored the taskId instead of answering TaskNotFound.`, v.evidence);
      }
      v = malformedIdVerdict(ctx, p, v);
      if (v.status !== 'pass') return v;
      // Observed: the refusal created no task under the client's id.
      const after = await readBack(ctx, taskId.id);
      if (after.kind === 'task') return fail(`${what} was refused with TaskNotFound, yet a get now returns a task with that id: one was created under the client's id.`, [...(v.evidence ?? []), exchangeEvidence(after.http, 'read back')]);
      return { ...v, evidence: [...(v.evidence ?? []), exchangeEvidence(after.http, 'read back: still not found')] };
    },
  }),
  defineCheck({
    id: 'errors.context-mismatch',
    title: 'A message whose contextId differs from its task\'s is rejected and leaves the task as it was (v1.0)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.4.3 Multi-Turn Conversation Patterns' },
    recommendation:
      'When a message names an existing task and a contextId other than that task\'s, reject it with an error (e.g. InvalidParams -32602, HTTP 400) before touching the task: do not append it to the history, resume the task or move it to the new context.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (ctx.generation !== 'v1.0') return skip('Only v1.0 requires rejecting a mismatching contextId (§3.4.3).', 'not-applicable');
      const runs = await skillRuns(ctx);
      const targets: { task: TaskView; paused: boolean; label: string }[] = [];
      // A task paused in input-required is the cleanest target (it waits for exactly such a message): start our own.
      const pausedModel = runs.find((r) => r.outcome === 'interrupted' && r.final?.id);
      let lastSkip: Verdict = skip('No task of this run stayed non-terminal long enough to send it a mismatching message.', 'precondition');
      if (pausedModel) {
        const own = await runTask(ctx, d(ctx), { text: pausedModel.text, input: pausedModel.input, skillId: pausedModel.skillId, lane: ctx.lane('context-mismatch') });
        if (own.outcome === 'interrupted' && own.final?.id) targets.push({ task: own.final, paused: true, label: `task ${own.final.id} (${own.final.rawState})` });
      }
      const candidates = runningCandidates(ctx);
      let from = 0;
      for (let attempt = 0; attempt < 5; attempt++) {
        let target = targets.shift();
        if (!target) {
          const started = await startRunningTask(ctx, 'context-mismatch', from, undefined, candidates);
          if (!started) return lastSkip;
          from = started.index + 1;
          if (started.send.kind !== 'task' || !started.send.task.id) {
            if (refusedForCredentials(ctx, started.send.http)) return refusedForCredentials(ctx, started.send.http)!;
            if (started.send.kind === 'message') return skip('The agent replies with Messages only (no tasks), so there is no task to send a mismatching contextId to.', 'not-applicable');
            return skip('Could not start a task to send a mismatching contextId to.', 'precondition', [exchangeEvidence(started.send.http)]);
          }
          if (!started.running) {
            lastSkip = skip(`The tasks finished (${started.send.task.rawState}) before a mismatching message could be sent.`, 'precondition', [exchangeEvidence(started.send.http)]);
            if (from >= candidates.length) return lastSkip;
            continue;
          }
          target = { task: started.send.task, paused: false, label: `running task ${started.send.task.id}` };
        }
        const t = target.task;
        const id = t.id!;
        const otherContext = ctx.uuid();
        const marker = `a2a-interop context-mismatch probe ${otherContext.slice(0, 8)}`;
        const params = d(ctx).sendParams({ text: marker, taskId: id, contextId: otherContext });
        const what = `A message to ${target.label} (contextId ${t.contextId ?? '?'}) with contextId ${otherContext}`;
        const p = await sendProbe(ctx, `context-mismatch-${attempt}`, () =>
          d(ctx).isRest ? { kind: 'rest', method: 'POST', path: '/message:send', body: JSON.stringify(params) } : { kind: 'rpc', method: d(ctx).method('send'), params },
        );
        const skipped = refusedForCredentials(ctx, p.http);
        if (skipped) return skipped;
        const crash = crashVerdict(ctx, p, what);
        if (crash) return crash;
        const after = await readBack(ctx, id);
        const evidence = [exchangeEvidence(p.http), ...readBackEvidence(after, 'read back')];
        if (!isRefusal(ctx, p)) {
          return fail(`${what} was accepted (${answered(p)}); v1.0.1 §3.4.3: agents MUST reject messages whose contextId differs from that of the referenced task.`, evidence);
        }
        const afterTask = after.kind === 'task' ? after.task : undefined;
        // Refused because the task finished meanwhile? Then it says nothing about the contextId.
        if (afterTask && isTerminal(afterTask.state, ctx.generation) && !target.paused && V1_UNSUPPORTED(ctx, p)) {
          lastSkip = skip(`${what} was refused with ${answered(p)}, but the task had meanwhile finished (${afterTask.rawState}): the refusal may be for the terminal state.`, 'precondition', evidence);
          if (from >= candidates.length) return lastSkip;
          continue;
        }
        if (afterTask) {
          if (afterTask.contextId !== undefined && t.contextId !== undefined && afterTask.contextId !== t.contextId) {
            return fail(`${what} was refused (${answered(p)}), but reading the task back shows its contextId changed to ${afterTask.contextId}.`, evidence);
          }
          const history = JSON.stringify(afterTask.history ?? []);
          if (history.includes(marker)) return fail(`${what} was refused (${answered(p)}), but reading the task back shows the message in its history.`, evidence);
          if (target.paused && afterTask.state !== t.state) {
            return fail(`${what} was refused (${answered(p)}), but the task moved from ${t.rawState} to ${afterTask.rawState}: the rejected message resumed it.`, evidence);
          }
        }
        return pass(`${what} was rejected (${answered(p)})${afterTask ? '; the task is unchanged' : ''}.`, evidence);
      }
      return lastSkip;
    },
  }),
  defineCheck({
    id: 'errors.streaming-unsupported',
    title: 'Without declared streaming, the stream and subscribe methods give UnsupportedOperation (-32004)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32006, document only), §7.2', 'v0.2': 'v0.2.6 §8.2, §7.2', 'v0.3': 'v0.3.0 §8.2, §7.2', 'v1.0': 'v1.0.1 §3.3.4 Capability Validation' },
    recommendation:
      'When capabilities.streaming is false or absent, answer SendStreamingMessage / message/stream and SubscribeToTask / tasks/resubscribe with UnsupportedOperationError -32004 (HTTP+JSON 400 UNSUPPORTED_OPERATION; before v1.0 -32601 is accepted too). If you do serve streams, declare capabilities.streaming: true.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (ctx.card.capabilities.streaming) return skip('The card declares streaming (see the streaming checks and errors.subscribe-terminal).', 'not-applicable');
      const g = ctx.generation;
      const rest = d(ctx).isRest;
      const budget = streamBudget(ctx);
      const judge = (ans: StreamAnswer, what: string, evidence: Evidence[], terminalTask: boolean): Verdict => {
        if (ans.kind === 'crash') return ans.verdict;
        if (ans.kind === 'stream' || ans.kind === 'accepted') {
          const served = ans.kind === 'stream' ? `served as an event stream (${describeStream(ans.items)})` : `answered with a result (${ans.how})`;
          const message = `${what} was ${served} although the card does not declare streaming.`;
          if (g === 'v1.0') return fail(`${message} v1.0.1 §3.3.4: it MUST return UnsupportedOperationError.`, evidence);
          return { ...fail(message, evidence), advisory: 'Before v1.0 no keyworded sentence forbids serving a stream the card does not declare: the card is inaccurate (declare capabilities.streaming: true).' };
        }
        const got = ans.how;
        if (g === 'v1.0') {
          const ok = rest ? ans.reason === 'UNSUPPORTED_OPERATION' || (ans.status === 400 && ans.reason === undefined) : ans.code === -32004;
          return ok ? pass(`${what}: refused with UnsupportedOperation (${got}).`, evidence) : fail(`${what}: expected UnsupportedOperation (-32004; HTTP 400 UNSUPPORTED_OPERATION), got ${got}.`, evidence);
        }
        if (g === 'legacy') return pass(`${what}: refused (${got}).`, evidence);
        const ok = rest ? isClientError(ans.status) || ans.status === 501 : ans.code === -32004 || ans.code === -32601;
        if (ok) return pass(`${what}: refused (${got}).`, evidence);
        const message = `${what}: expected UnsupportedOperation (-32004) or MethodNotFound (-32601), got ${got}.`;
        // A subscription to a finished task may be refused for the terminal state first (the order is unspecified).
        return terminalTask ? { ...fail(message, evidence), advisory: 'The task subscribed to is terminal: the agent may have refused it for that before looking at the capability.' } : fail(message, evidence);
      };
      const input = skillInput(ctx, primarySkill(ctx));
      const sendRun = await d(ctx).streamSend(
        ctx.http,
        { ...input, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: budget, taskId: g === 'legacy' ? ctx.uuid() : undefined },
        () => 'stop',
      );
      const sendWhat = `${d(ctx).describe('stream')}`;
      const blocked = refusedForCredentials(ctx, sendRun.result);
      if (blocked) return blocked;
      const sendAns = readStream(ctx, sendRun, 'streaming-unsupported', sendWhat);
      if (sendAns.kind === 'crash' && sendAns.verdict.status !== 'fail') return sendAns.verdict;
      const verdicts = [judge(sendAns, sendWhat, streamEvidence(sendRun, sendWhat), false)];
      const done = await completedRun(ctx);
      if (done?.final?.id) {
        const id = done.final.id;
        const subRun = await d(ctx).subscribe(ctx.http, { id, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: budget }, () => 'stop');
        const subWhat = `${d(ctx).describe('subscribe', id)} (a ${done.final.rawState} task)`;
        verdicts.push(judge(readStream(ctx, subRun, 'streaming-unsupported-subscribe', subWhat), subWhat, streamEvidence(subRun, subWhat), true));
      }
      return worst(verdicts);
    },
  }),
  defineCheck({
    id: 'errors.subscribe-terminal',
    title: 'Subscribing to a finished task gives UnsupportedOperation (-32004, v1.0)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §7.7 tasks/resubscribe', 'v0.2': 'v0.2.6 §7.9', 'v0.3': 'v0.3.0 §7.9', 'v1.0': 'v1.0.1 §3.1.6, §9.4.6 SubscribeToTask' },
    recommendation:
      'Answer SubscribeToTask on a task in a terminal state with UnsupportedOperationError -32004 (HTTP+JSON 400 UNSUPPORTED_OPERATION) instead of opening a stream that replays the task. Before v1.0: refuse it, or deliver the final state and close the stream at once.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (!ctx.card.capabilities.streaming) return skip('The card does not declare streaming (see errors.streaming-unsupported).', 'not-applicable');
      const r = await ownFinishedRun(ctx, 'subscribe-terminal');
      if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to subscribe to');
      const id = r.final.id;
      const g = ctx.generation;
      const what = `${d(ctx).describe('subscribe', id)} on ${r.final.rawState} task ${id}`;
      const grace = 2000;
      const stop = new AbortController();
      const quit = new AbortController();
      let endSeen: string | undefined;
      const final = (it: StreamItem) => isTerminal(it.state, g) || it.final === true || (it.kind === 'task' && isTerminal(it.task?.state, g));
      const run = await d(ctx).subscribe(ctx.http, { id, lane: probeLane(ctx), checkId: ctx.checkId, timeoutMs: streamBudget(ctx), stopSignal: stop.signal }, (it) => {
        if (it.kind === 'error' || g === 'v1.0') return 'stop';
        if (!endSeen && final(it)) {
          endSeen = it.rawState ?? it.task?.rawState ?? 'final';
          void ctx.http.host.sleep(grace, quit.signal).then(
            () => stop.abort(),
            () => undefined,
          );
        }
        return undefined;
      });
      quit.abort();
      const blocked = refusedForCredentials(ctx, run.result);
      if (blocked) return blocked;
      const evidence = streamEvidence(run, what);
      const ans = readStream(ctx, run, 'subscribe-terminal', what);
      if (ans.kind === 'crash') return ans.verdict;
      if (g === 'v1.0') {
        if (ans.kind === 'refused') {
          const ok = d(ctx).isRest ? ans.reason === 'UNSUPPORTED_OPERATION' || (ans.status === 400 && ans.reason === undefined) : ans.code === -32004;
          if (ok) return pass(`${what}: refused with UnsupportedOperation (${ans.how}).`, evidence);
          const hint = ans.code === -32602 ? " a2a-python's on_subscribe_to_task answers InvalidParams here." : '';
          return fail(`${what}: expected UnsupportedOperation (-32004; HTTP 400 UNSUPPORTED_OPERATION), got ${ans.how}.${hint}`, evidence);
        }
        if (ans.kind === 'stream') {
          return fail(`${what}: served as an event stream (${describeStream(ans.items)}) instead of UnsupportedOperationError (v1.0.1 §3.1.6, §9.4.6); a final Task snapshot belongs to live streams only.`, evidence);
        }
        return fail(`${what}: answered with a result (${ans.how}) instead of UnsupportedOperationError.`, evidence);
      }
      // Before v1.0 nothing fixes the answer: an error, or the final state delivered on a stream that then closes.
      if (ans.kind === 'refused') return pass(`${what}: refused (${ans.how}).`, evidence);
      if (ans.kind === 'accepted') return fail(`${what}: answered with a result (${ans.how}), neither an error nor an event stream.`, evidence);
      if (endSeen && run.reason === 'closed') return pass(`${what}: the stream delivered the final state (${endSeen}) and closed.`, evidence);
      if (endSeen) return fail(`${what}: the stream delivered the final state (${endSeen}) but was still open ${run.reason === 'stopped' ? `${grace} ms later` : `when our wait ended (${run.reason})`}.`, evidence);
      return fail(`${what}: the stream ${run.reason === 'closed' ? 'closed' : `was still open when our wait ended (${run.reason})`} without delivering the final state (${describeStream(ans.items)}).`, evidence);
    },
  }),
  defineCheck({
    id: 'errors.notification',
    title: 'A JSON-RPC notification (no "id") gets no JSON-RPC response',
    category: 'error-handling',
    level: 'MAY',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §6.11.1; JSON-RPC 2.0 §4.1', 'v0.2': 'v0.2.6 §6.11.1; JSON-RPC 2.0 §4.1', 'v0.3': 'v0.3.0 §6.11.1; JSON-RPC 2.0 §4.1', 'v1.0': 'v1.0.1 §9.3; JSON-RPC 2.0 §4.1' },
    recommendation:
      'A JSON-RPC request without "id" is a notification: do not process it as a request and do not reply with a JSON-RPC Response (answer HTTP 204 or 202 with an empty body), or reject it as an invalid A2A request (-32600 with id null), since the A2A schemas require an id.',
    run: async (ctx) => {
      const p0 = needDialect(ctx);
      if (p0) return p0;
      if (d(ctx).isRest) return skip('Notifications exist only on the JSON-RPC binding.', 'not-applicable');
      const taskId = await unknownTaskId(ctx);
      // A get, never a send: a server that processes the notification creates nothing.
      const body = JSON.stringify({ jsonrpc: '2.0', method: d(ctx).method('get'), params: { id: taskId.id } });
      const p = await sendProbe(ctx, 'notification', () => ({ kind: 'raw', body, expectedId: null, taskId }));
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const what = `A ${d(ctx).method('get')} notification (no "id" member)`;
      const crash = crashVerdict(ctx, p, what);
      if (crash) return crash;
      const evidence = [exchangeEvidence(p.http)];
      const s = p.http.status;
      if (p.http.text.trim() === '') {
        return s >= 200 && s < 300 ? pass(`${what}: HTTP ${s} with an empty body (no JSON-RPC response), as JSON-RPC 2.0 §4.1 requires.`, evidence) : fail(`${what}: HTTP ${s} with an empty body.`, evidence);
      }
      const code = p.rpc?.error?.code;
      const idNull = p.rpc?.id === null || p.rpc?.id === undefined;
      if ((code === -32600 || code === -32602) && idNull) {
        return pass(`${what}: rejected as an invalid request (${code}, id null): the A2A schemas require an id on every method request.`, evidence);
      }
      if (p.rpc?.hasResult) return fail(`${what}: processed and answered with a result (id ${JSON.stringify(p.rpc.id)}); JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.`, evidence);
      if (typeof code === 'number') {
        return fail(`${what}: answered with error ${code} (id ${JSON.stringify(p.rpc?.id)})${code === -32001 ? ': TaskNotFound means it was processed as a request' : ''}; JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.`, evidence);
      }
      return fail(`${what}: answered ${answered(p)}.`, evidence);
    },
  }),
];
