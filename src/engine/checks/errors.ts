import type { HttpResult } from '../http/client';
import type { Evidence } from '../model/check';
import { jsonRpcEnvelope, restErrorBody, v1ErrorDataProblems, type JsonRpcEnvelope, type RestError } from '../protocol/shapes';
import { isRecord } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, transportVerdict, type CheckContext, type CheckDef, type Verdict } from './define';
import { canceledTaskId } from './lifecycle';
import { needDialect, noFinishedTask, ownFinishedRun, refusedForCredentials, skillRuns } from './tasks';

/** One deliberately wrong request and what came back. */
export interface Probe {
  name: string;
  http: HttpResult;
  /** The request id we sent (`null` when the request had none we could expect echoed). */
  expectedId: string | null;
  rpc?: JsonRpcEnvelope;
  rest?: RestError;
  /** For JSON-RPC probes: the body was not JSON at all. */
  notJson?: string;
}

/**
 * Probes whose expected answer is an A2A-specific error, with its HTTP status: when the agent answers with
 * that status, v1.0 HTTP+JSON requires a google.rpc.ErrorInfo (a different status is judged by the probe's own check).
 */
const A2A_ERROR_PROBES: Record<string, number[]> = {
  'task-not-found': [404],
  'push-not-supported': [400, 501],
  'cancel-terminal': [400, 409],
  'message-to-terminal': [400],
  'version-unsupported': [400],
};

const ERRORS = {
  legacy: 'v0.1.0 §8 Error Handling',
  'v0.2': 'v0.2.6 §8 Error Handling',
  'v0.3': 'v0.3.0 §8 Error Handling',
  'v1.0': 'v1.0.1 §5.4 Error Code Mappings, §9.5 / §11.6 Error Handling',
};

function probe(ctx: CheckContext, name: string, make: () => Promise<{ http: HttpResult; expectedId: string | null }>): Promise<Probe> {
  return ctx.fixture(`probe:${name}`, async () => {
    const { http, expectedId } = await make();
    const p: Probe = { name, http, expectedId };
    // No answer, or a body cut by a reset or a stall: judged as a transport failure (crashVerdict).
    if (!http.responded || http.error) return p;
    const parsed = http.json();
    if (ctx.dialect!.isRest) {
      if (http.status >= 400) p.rest = restErrorBody(parsed.ok ? parsed.value : undefined, http.status, !!A2A_ERROR_PROBES[name]?.includes(http.status));
    } else if (!parsed.ok) p.notJson = parsed.error;
    else p.rpc = jsonRpcEnvelope(parsed.value, expectedId);
    return p;
  });
}

const rpcBody = (method: string, params: unknown, id: string) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A lane for error probes, so they appear together in the timeline. */
const lane = (ctx: CheckContext) => `errors: ${ctx.checkId.replace(/^errors\./, '')}`;

function rpcProbe(ctx: CheckContext, name: string, method: string, params: unknown, headers?: Record<string, string>, omit?: string[]): Promise<Probe> {
  return probe(ctx, name, async () => {
    const d = ctx.dialect!;
    const id = d.nextRpcId();
    const http = await d.rawRpc(ctx.http, rpcBody(method, params, id), { lane: lane(ctx), checkId: ctx.checkId, headers, omitHeaders: omit });
    return { http, expectedId: id };
  });
}

function restProbe(ctx: CheckContext, name: string, method: string, path: string, body?: string, headers?: Record<string, string>, omit?: string[]): Promise<Probe> {
  return probe(ctx, name, async () => ({
    http: await ctx.dialect!.rawRest(ctx.http, method, path, body, { lane: lane(ctx), checkId: ctx.checkId, headers, omitHeaders: omit }),
    expectedId: null,
  }));
}

/** Describes what the agent answered, for messages. */
function answered(p: Probe): string {
  if (!p.http.responded || p.http.error) return `no complete answer (${p.http.error?.message})`;
  if (p.rpc?.error) return `error ${String(p.rpc.error.code)} "${String(p.rpc.error.message ?? '')}" (HTTP ${p.http.status})`;
  if (p.rpc?.hasResult) return `a result instead of an error (HTTP ${p.http.status})`;
  if (p.notJson !== undefined) return `HTTP ${p.http.status} with a non-JSON body (${p.http.contentType || 'no content type'})`;
  if (p.rest) return `HTTP ${p.http.status}${p.rest.status ? ` ${p.rest.status}` : ''}${p.rest.reason ? ` (${p.rest.reason})` : ''}`;
  return `HTTP ${p.http.status}`;
}

/** A 5xx or a dropped connection while handling a bad request: the crash the seed calls critical (step 4). */
function crashVerdict(p: Probe, what: string): Verdict | undefined {
  if (!p.http.responded || p.http.error) {
    const v = transportVerdict(p.http, what);
    return v.status === 'fail' ? { ...v, critical: true, message: `${v.message} A crash while handling errors must be fixed before deploying.` } : v;
  }
  if (p.http.status >= 500) {
    return {
      status: 'fail',
      critical: true,
      message: `${what}: the server failed with HTTP ${p.http.status} (${answered(p)}). A server error during error handling is a critical failure.`,
      evidence: [exchangeEvidence(p.http)],
    };
  }
  return undefined;
}

/** Judges a JSON-RPC probe against the expected code(s). */
function expectRpcCode(p: Probe, codes: number[], what: string, names: string): Verdict {
  const crash = crashVerdict(p, what);
  if (crash) return crash;
  const evidence: Evidence[] = [exchangeEvidence(p.http)];
  const code = p.rpc?.error?.code;
  if (typeof code === 'number' && codes.includes(code)) return pass(`${what}: ${names} (${code}) as expected.`, evidence);
  return fail(`${what}: expected ${names} (${codes.join(' or ')}), got ${answered(p)}.`, evidence);
}

/** Judges a REST probe against the expected HTTP status(es) and, for v1.0, the ErrorInfo reason. */
function expectRest(ctx: CheckContext, p: Probe, statuses: number[], reason: string | undefined, what: string): Verdict {
  const crash = crashVerdict(p, what);
  if (crash) return crash;
  const evidence: Evidence[] = [exchangeEvidence(p.http)];
  if (!statuses.includes(p.http.status)) return fail(`${what}: expected HTTP ${statuses.join(' or ')}, got ${answered(p)}.`, evidence);
  if (ctx.generation === 'v1.0' && reason && p.rest?.reason && p.rest.reason !== reason) {
    return fail(`${what}: HTTP ${p.http.status} as expected, but ErrorInfo.reason is ${p.rest.reason}, not ${reason}.`, evidence);
  }
  return pass(`${what}: HTTP ${p.http.status}${p.rest?.reason ? ` ${p.rest.reason}` : ''} as expected.`, evidence);
}

function pre(ctx: CheckContext): Verdict | undefined {
  return needDialect(ctx);
}

/** Auth-refused probes say nothing about error handling when the user gave no credentials. */
const authSkip = (ctx: CheckContext, p: Probe): Verdict | undefined => refusedForCredentials(ctx, p.http);

/**
 * An id no task has: a fresh UUID, the form well-behaved agents generate and accept (an agent that validates the
 * id format may answer a prefixed id with InvalidParams, which says nothing about TaskNotFound).
 */
const unknownTaskId = (ctx: CheckContext) => ctx.uuid();

const BROKEN_JSON = '{"jsonrpc": "2.0", "id": "a2a-interop-parse", "method": ';

/** The deliberately wrong requests, memoized per run: the specific checks and errors.shape share them. */
const PROBES = {
  'unknown-method': (ctx: CheckContext) =>
    ctx.dialect!.isRest
      ? restProbe(ctx, 'unknown-method', 'GET', '/a2a-interop-no-such-operation')
      : rpcProbe(ctx, 'unknown-method', 'a2a-interop/no-such-method', {}),
  'invalid-json': (ctx: CheckContext) =>
    ctx.dialect!.isRest
      ? restProbe(ctx, 'invalid-json', 'POST', '/message:send', BROKEN_JSON)
      : probe(ctx, 'invalid-json', async () => ({ http: await ctx.dialect!.rawRpc(ctx.http, BROKEN_JSON, { lane: lane(ctx), checkId: ctx.checkId }), expectedId: null })),
  'invalid-request': (ctx: CheckContext) =>
    probe(ctx, 'invalid-request', async () => ({ http: await ctx.dialect!.rawRpc(ctx.http, '{"not": "valid jsonrpc"}', { lane: lane(ctx), checkId: ctx.checkId }), expectedId: null })),
  'invalid-params': (ctx: CheckContext) =>
    ctx.dialect!.isRest
      ? restProbe(ctx, 'invalid-params', 'POST', '/message:send', JSON.stringify({ message: 42 }))
      : rpcProbe(ctx, 'invalid-params', ctx.dialect!.method('send'), ctx.generation === 'legacy' ? { id: 42, message: 42 } : { message: 42 }),
  'task-not-found': (ctx: CheckContext) =>
    ctx.dialect!.isRest
      ? restProbe(ctx, 'task-not-found', 'GET', `/tasks/${unknownTaskId(ctx)}`)
      : rpcProbe(ctx, 'task-not-found', ctx.dialect!.method('get'), { id: unknownTaskId(ctx) }),
} as const;

const d = (ctx: CheckContext) => ctx.dialect!;

/** The memoized probe of a name (made by the check that ran it first). */
const PROBE_CACHE = (ctx: CheckContext, name: string) => ctx.fixture<Probe>(`probe:${name}`, () => Promise.reject(new Error(`probe ${name} was not made`)));

/** TaskNotFound on either binding: -32001; HTTP 404 (reason TASK_NOT_FOUND when given). */
function isTaskNotFound(ctx: CheckContext, p: Probe): boolean {
  if (d(ctx).isRest) return p.http.status === 404 && (p.rest?.reason === undefined || p.rest.reason === 'TASK_NOT_FOUND');
  return p.rpc?.error?.code === -32001;
}

/** Cancels a task that is already terminal; the answer must be TaskNotCancelable. */
async function cancelFinished(ctx: CheckContext, name: string, id: string, state: string): Promise<Verdict> {
  const what = `Cancel of ${state} task ${id}`;
  if (d(ctx).isRest) {
    const p = await restProbe(ctx, name, 'POST', `/tasks/${encodeURIComponent(id)}:cancel`, '{}');
    return authSkip(ctx, p) ?? expectRest(ctx, p, [400, 409], 'TASK_NOT_CANCELABLE', what);
  }
  const p = await rpcProbe(ctx, name, d(ctx).method('cancel'), { id });
  const skipped = authSkip(ctx, p);
  if (skipped) return skipped;
  const v = expectRpcCode(p, [-32002], what, 'TaskNotCancelable');
  if (v.status === 'fail' && p.rpc?.hasResult) {
    const st = isRecord(p.rpc.result) ? JSON.stringify((p.rpc.result as { status?: { state?: unknown } }).status?.state) : '';
    return { ...v, message: `${what} succeeded (state ${st}) instead of failing with TaskNotCancelable.` };
  }
  return v;
}

export const errorChecks: CheckDef[] = [
  defineCheck({
    id: 'errors.unknown-method',
    title: 'An unknown method is answered with MethodNotFound (-32601)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §9.5 (JSON-RPC 2.0 -32601), §11.6 (HTTP 404)' },
    recommendation: 'Answer unknown JSON-RPC methods with {"error":{"code":-32601,"message":"Method not found"}} and the request id; on HTTP+JSON answer unknown routes with 404. Frameworks often return 404 HTML or 500 for these by default.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const p = await PROBES['unknown-method'](ctx);
      if (ctx.dialect!.isRest) return authSkip(ctx, p) ?? expectRest(ctx, p, [404, 405], undefined, 'Unknown operation');
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32601], 'Unknown method', 'MethodNotFound');
    },
  }),
  defineCheck({
    id: 'errors.invalid-json',
    title: 'A body that is not JSON is answered with a parse error (-32700)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §9.5 (-32700), §11.6 (HTTP 400)' },
    recommendation: 'Catch JSON parse failures before dispatch and answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}} (HTTP+JSON: 400 with a google.rpc.Status body), not a 500 or an HTML error page.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const p = await PROBES['invalid-json'](ctx);
      if (ctx.dialect!.isRest) return authSkip(ctx, p) ?? expectRest(ctx, p, [400], undefined, 'Malformed JSON');
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32700], 'Malformed JSON', 'JSONParseError');
    },
  }),
  defineCheck({
    id: 'errors.invalid-request',
    title: 'JSON that is not a JSON-RPC request is answered with InvalidRequest (-32600)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: ERRORS,
    recommendation: 'Validate the JSON-RPC envelope (jsonrpc "2.0", a string method, an id) and answer violations with -32600 Invalid Request and id null.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (ctx.dialect!.isRest) return skip('JSON-RPC envelopes do not exist on the HTTP+JSON binding.', 'not-applicable');
      const p = await PROBES['invalid-request'](ctx);
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32600], 'JSON without a JSON-RPC envelope', 'InvalidRequest');
    },
  }),
  defineCheck({
    id: 'errors.invalid-params',
    title: 'A send with malformed params is answered with InvalidParams (-32602)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { ...ERRORS, 'v1.0': 'v1.0.1 §3.3.2 (validation: -32602 / HTTP 400)' },
    recommendation: 'Validate params against the schema of the method (message must be a Message object) and answer -32602 Invalid params (HTTP+JSON: 400 INVALID_ARGUMENT) instead of crashing on the missing fields.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const p = await PROBES['invalid-params'](ctx);
      if (ctx.dialect!.isRest) return authSkip(ctx, p) ?? expectRest(ctx, p, [400], undefined, 'A message that is a number');
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32602], 'A message that is a number', 'InvalidParams');
    },
  }),
  defineCheck({
    id: 'errors.task-not-found',
    title: 'get of a task that does not exist gives TaskNotFound (-32001, HTTP 404)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8 (-32001 TaskNotFoundError)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.1.3, §5.4 (TaskNotFound / NOT_FOUND / 404)' },
    recommendation: 'When the task store has no such id, answer TaskNotFoundError -32001 (HTTP+JSON: 404 NOT_FOUND with ErrorInfo reason TASK_NOT_FOUND) rather than null, an empty task or a 500.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const p = await PROBES['task-not-found'](ctx);
      if (ctx.dialect!.isRest) return authSkip(ctx, p) ?? expectRest(ctx, p, [404], 'TASK_NOT_FOUND', 'Get of an unknown task');
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32001], 'Get of an unknown task', 'TaskNotFound');
    },
  }),
  defineCheck({
    id: 'errors.cancel-terminal',
    title: 'Canceling a completed task gives TaskNotCancelable (-32002) and leaves the task as it was',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8 (-32002 TaskNotCancelableError)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §7.4, §8.2', 'v1.0': 'v1.0.1 §3.1.5 (HTTP 400 in v1.0.1, 409 in v1.0.0)' },
    recommendation: 'Guard terminal states: a cancel of a completed, failed or rejected task must answer TaskNotCancelableError -32002 (HTTP+JSON: 400, or 409 per v1.0.0), never a 500 and never a silently "canceled" completed task (seed procedure 4.4).',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const r = await ownFinishedRun(ctx, 'cancel-terminal');
      if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to cancel');
      const v = await cancelFinished(ctx, 'cancel-terminal', r.final.id, r.final.rawState ?? 'finished');
      if (v.status !== 'pass') return v;
      // Observed, not trusted: the refusal must have left the task as it was.
      const after = await ctx.dialect!.get(ctx.http, { id: r.final.id, lane: lane(ctx), checkId: ctx.checkId });
      if (after.kind === 'task' && after.task.state !== r.final.state) {
        return fail(`The cancel was refused, but reading the task back shows it changed from ${r.final.rawState} to ${after.task.rawState}.`, [...(v.evidence ?? []), exchangeEvidence(after.http, 'read back')]);
      }
      return { ...v, evidence: [...(v.evidence ?? []), ...(after.kind === 'task' ? [exchangeEvidence(after.http, 'read back: unchanged')] : [])] };
    },
  }),
  defineCheck({
    id: 'errors.cancel-twice',
    title: 'Canceling an already canceled task gives TaskNotCancelable (v1.0 also permits TaskNotFound, or idempotent success)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8.2 (-32002)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §7.4, §8.2', 'v1.0': 'v1.0.1 §3.1.5, §3.3.1 Idempotency' },
    recommendation:
      'Answer a cancel of a task that is already canceled with TaskNotCancelableError -32002 (HTTP+JSON 400). In v1.0 the specification also calls cancel idempotent (§3.3.1) and lets a duplicate return TaskNotFoundError once the task was purged; pick one behaviour and document it.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const canceled = await canceledTaskId(ctx);
      if (!canceled) return skip('No task was canceled in this run (see lifecycle.cancel), so there is none to cancel again.', 'precondition');
      const v = await cancelFinished(ctx, 'cancel-canceled', canceled, 'canceled');
      if (v.status === 'pass' || ctx.generation !== 'v1.0') return v;
      // v1.0: a duplicate cancel MAY return TaskNotFound (§3.3.1) ...
      const p = await PROBE_CACHE(ctx, 'cancel-canceled');
      if (isTaskNotFound(ctx, p)) return pass('A duplicate cancel returned TaskNotFound, which v1.0 §3.3.1 permits for a canceled and purged task.', v.evidence);
      // ... and calls cancel idempotent, while §3.1.5 lists TaskNotCancelable for canceled tasks: not a MUST either way.
      if (v.status === 'fail' && (p.rpc?.hasResult || (d(ctx).isRest && p.http.status >= 200 && p.http.status < 300))) {
        return { ...v, advisory: 'v1.0.1 §3.3.1 calls cancel idempotent (a duplicate has the same effect), while §3.1.5 lists TaskNotCancelable for a canceled task: the specification permits both readings.' };
      }
      return v;
    },
  }),
  defineCheck({
    id: 'errors.message-to-terminal',
    title: 'A message to a finished task is refused (v1.0: UnsupportedOperation -32004)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v0.3': 'v0.3.0 §6.1 (a terminal task cannot be restarted: results in an error)', 'v0.2': 'v0.2.6 §6.1', 'v1.0': 'v1.0.1 §3.1.1 (MUST: UnsupportedOperationError)' },
    recommendation: 'Refuse messages that target a task in a terminal state: v1.0 requires UnsupportedOperationError (-32004; HTTP+JSON 400 UNSUPPORTED_OPERATION); earlier versions any error. Create a new task in the same context instead.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const r = await ownFinishedRun(ctx, 'message-to-terminal');
      if (!r?.final?.id) return noFinishedTask(ctx, 'terminal task to message');
      const d = ctx.dialect!;
      const params = d.sendParams({ text: 'One more thing, please.', taskId: r.final.id, contextId: r.final.contextId });
      const what = `A message to ${r.final.rawState} task ${r.final.id}`;
      if (d.isRest) {
        const p = await restProbe(ctx, 'message-to-terminal', 'POST', '/message:send', JSON.stringify(params));
        if (ctx.generation === 'v1.0') return expectRest(ctx, p, [400], 'UNSUPPORTED_OPERATION', what);
        return crashVerdict(p, what) ?? (p.http.status >= 400 ? pass(`${what} was refused (HTTP ${p.http.status}).`, [exchangeEvidence(p.http)]) : fail(`${what} was accepted (HTTP ${p.http.status}).`, [exchangeEvidence(p.http)]));
      }
      const p = await rpcProbe(ctx, 'message-to-terminal', d.method('send'), params);
      if (ctx.generation === 'v1.0') return expectRpcCode(p, [-32004], what, 'UnsupportedOperation');
      const crash = crashVerdict(p, what);
      if (crash) return crash;
      if (p.rpc?.error) return pass(`${what} was refused with ${String(p.rpc.error.code)}.`, [exchangeEvidence(p.http)]);
      return fail(`${what} was accepted: ${answered(p)}.`, [exchangeEvidence(p.http)]);
    },
  }),
  defineCheck({
    id: 'errors.push-not-supported',
    title: 'Push config calls on an agent without push give PushNotificationNotSupported (-32003)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §8 (-32003)', 'v0.2': 'v0.2.6 §8.2', 'v0.3': 'v0.3.0 §8.2', 'v1.0': 'v1.0.1 §3.3.4 Capability Validation' },
    recommendation: 'When capabilities.pushNotifications is false or absent, answer every push config method with PushNotificationNotSupportedError -32003 (HTTP+JSON 400) instead of storing the config, 404 or 500.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (ctx.card.capabilities.pushNotifications) return skip('The card declares push notifications (see lifecycle.push-config).', 'not-applicable');
      const runs = await skillRuns(ctx);
      const taskId = runs.find((r) => r.final?.id)?.final?.id ?? unknownTaskId(ctx);
      const d = ctx.dialect!;
      const url = 'https://webhook.a2a-interop.invalid/push';
      if (d.isRest) {
        const body = ctx.generation === 'v1.0' ? { url } : { pushNotificationConfig: { url } };
        const p = await restProbe(ctx, 'push-not-supported', 'POST', `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`, JSON.stringify(body));
        return authSkip(ctx, p) ?? expectRest(ctx, p, [400, 501], 'PUSH_NOTIFICATION_NOT_SUPPORTED', 'Setting a push config');
      }
      const params = ctx.generation === 'legacy' ? { id: taskId, pushNotificationConfig: { url } } : ctx.generation === 'v1.0' ? { taskId, url } : { taskId, pushNotificationConfig: { url } };
      const p = await rpcProbe(ctx, 'push-not-supported', d.method('pushSet'), params);
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32003], 'Setting a push config', 'PushNotificationNotSupported');
    },
  }),
  defineCheck({
    id: 'errors.version-unsupported',
    title: 'An unsupported A2A-Version is refused with VersionNotSupported (-32009)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.6.2 Server Responsibilities, §5.4 (-32009 / HTTP 400)' },
    recommendation: 'Read A2A-Version on every request; when you cannot apply the requested version answer VersionNotSupportedError -32009 (HTTP+JSON 400 with reason VERSION_NOT_SUPPORTED) instead of silently applying another version.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const d = ctx.dialect!;
      const h = { 'A2A-Version': '99.0' };
      if (d.isRest) {
        const p = await restProbe(ctx, 'version-unsupported', 'GET', `/tasks/${unknownTaskId(ctx)}`, undefined, h);
        return authSkip(ctx, p) ?? expectRest(ctx, p, [400], 'VERSION_NOT_SUPPORTED', 'A2A-Version: 99.0');
      }
      const p = await rpcProbe(ctx, 'version-unsupported', d.method('get'), { id: unknownTaskId(ctx) }, h);
      return authSkip(ctx, p) ?? expectRpcCode(p, [-32009], 'A2A-Version: 99.0', 'VersionNotSupported');
    },
  }),
  defineCheck({
    id: 'errors.version-missing',
    title: 'A request without A2A-Version is treated as 0.3 (or refused), not as 1.0',
    category: 'error-handling',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.6.2 (servers MUST treat a missing A2A-Version as 0.3)' },
    recommendation: 'Treat a request without A2A-Version as a 0.3 request: serve it through a v0.3 compatibility layer (e.g. @a2a-js/sdk legacyCompat) or answer VersionNotSupportedError -32009. Answering it with v1.0 semantics hides version bugs in clients.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      const d = ctx.dialect!;
      const p = d.isRest
        ? await restProbe(ctx, 'version-missing', 'GET', `/tasks/${unknownTaskId(ctx)}`, undefined, undefined, ['A2A-Version'])
        : await rpcProbe(ctx, 'version-missing', d.method('get'), { id: unknownTaskId(ctx) }, undefined, ['A2A-Version']);
      const skipped = authSkip(ctx, p);
      if (skipped) return skipped;
      const crash = crashVerdict(p, 'A request without A2A-Version');
      if (crash) return crash;
      const evidence = [exchangeEvidence(p.http)];
      const code = p.rpc?.error?.code;
      if (code === -32009 || p.rest?.reason === 'VERSION_NOT_SUPPORTED') return pass('Refused with VersionNotSupported.', evidence);
      if (code === -32601) return pass('Treated as a 0.3 request (GetTask is not a 0.3 method: -32601).', evidence);
      if (d.isRest && p.http.status === 404 && p.rest?.reason !== 'TASK_NOT_FOUND') return pass('Treated as a 0.3 request (the 1.0 route does not exist in 0.3).', evidence);
      if (d.isRest && p.http.status === 400) return pass('Refused with HTTP 400 (a v1.0 task lookup would have answered 404).', evidence);
      return fail(`Answered with v1.0 semantics (${answered(p)}): the missing header was not treated as 0.3.`, evidence);
    },
  }),
  defineCheck({
    id: 'errors.shape',
    title: 'Error answers have the shape of the binding (JSON-RPC error object; google.rpc.Status on HTTP+JSON)',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §6.12 JSONRPCError', 'v0.2': 'v0.2.6 §6.12 JSONRPCError', 'v0.3': 'v0.3.0 §6.12 JSONRPCError', 'v1.0': 'v1.0.1 §9.5, §11.6 (google.rpc.Status)' },
    recommendation:
      'JSON-RPC: {"jsonrpc":"2.0","id":<request id, or null when it could not be read>,"error":{"code":<integer>,"message":<string>}} with no "result". HTTP+JSON v1.0: {"error":{"code":<HTTP status>,"status":"NOT_FOUND","message":…,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      // The probes are shared with the specific checks (memoized): whichever runs first makes them.
      const names = (Object.keys(PROBES) as (keyof typeof PROBES)[]).filter((n) => !(n === 'invalid-request' && ctx.dialect!.isRest));
      const probes = await Promise.all(names.map((n) => PROBES[n](ctx)));
      const judged = probes.filter((p) => p.http.responded && !p.http.error && p.http.status !== 401 && p.http.status !== 403 && p.http.status < 500);
      if (!judged.length) return skip('No error answer to judge (the error probes did not run or got no answer).', 'precondition');
      const problems: [string, string][] = [];
      for (const p of judged) {
        if (ctx.dialect!.isRest) {
          if (p.http.status < 400) continue;
          if (ctx.generation === 'v1.0') p.rest?.problems.forEach((x) => problems.push([p.name, x]));
        } else if (p.notJson !== undefined) problems.push([p.name, `the body is not JSON (${p.http.contentType || 'no content type'})`]);
        else if (p.rpc) {
          const env = p.rpc;
          const idProblem = env.problems.find((x) => x.startsWith('"id"'));
          const others = env.problems.filter((x) => !x.startsWith('"id"'));
          others.forEach((x) => problems.push([p.name, x]));
          if (idProblem) {
            const cantKnowId = p.name === 'invalid-json' || p.name === 'invalid-request';
            if (!cantKnowId || env.id !== null) problems.push([p.name, cantKnowId ? `"id" should be null when the request id could not be read, got ${JSON.stringify(env.id)}` : idProblem]);
          }
        }
      }
      return problems.length
        ? fail(`${problems.length} shape problem(s): ${problems.slice(0, 3).map(([n, x]) => `${n}: ${x}`).join('; ')}.`, problems.slice(0, 20).map(([n, x]) => ev(n, x)))
        : pass(`${judged.length} error answer(s), all well-formed.`);
    },
  }),
  defineCheck({
    id: 'errors.details',
    title: 'A2A errors carry a google.rpc.ErrorInfo with the reason (v1.0)',
    category: 'error-handling',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §9.5 (error.data ErrorInfo: SHOULD; MUST in v1.0.0)' },
    recommendation: 'Put a google.rpc.ErrorInfo in JSON-RPC error.data (a list of typed details): {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (ctx.dialect!.isRest) return skip('On HTTP+JSON, ErrorInfo is part of google.rpc.Status (see errors.shape).', 'not-applicable');
      const p = await PROBES['task-not-found'](ctx);
      const e = p.rpc?.error;
      if (!e || typeof e.code !== 'number' || e.code > -32001 || e.code < -32099) return skip('No A2A-specific error answer to inspect (see errors.task-not-found).', 'precondition');
      const problems = v1ErrorDataProblems(e.data);
      return problems.length ? fail(`TaskNotFound carries no usable ErrorInfo: ${problems.join('; ')}.`, [exchangeEvidence(p.http)]) : pass('error.data carries a google.rpc.ErrorInfo.', [exchangeEvidence(p.http)]);
    },
  }),
];

/** Security is declared when the card lists schemes or requirements (or legacy authentication). */
export function declaresSecurity(ctx: CheckContext): boolean {
  return Object.keys(ctx.card.securitySchemes).length > 0 || ctx.card.securityRequirements.length > 0 || ctx.card.legacyAuthSchemes.length > 0;
}

const AUTH = {
  legacy: 'v0.1.0 §4.4 Server Responsibilities for Authentication',
  'v0.2': 'v0.2.6 §4.4',
  'v0.3': 'v0.3.0 §4.4 Server Responsibilities for Authentication',
  'v1.0': 'v1.0.1 §7.4 Server Authentication Responsibilities',
};

/** The same harmless request (get of an unknown task) without, then with, the user's credentials. */
function authProbe(ctx: CheckContext, anonymous: boolean): Promise<Probe> {
  return probe(ctx, anonymous ? 'auth-anonymous' : 'auth-credentials', async () => {
    const d = ctx.dialect!;
    const laneName = 'auth';
    const id = unknownTaskId(ctx);
    if (d.isRest) return { http: await d.rawRest(ctx.http, 'GET', `/tasks/${id}`, undefined, { lane: laneName, checkId: ctx.checkId, anonymous }), expectedId: null };
    const rid = d.nextRpcId();
    return { http: await d.rawRpc(ctx.http, rpcBody(d.method('get'), { id }, rid), { lane: laneName, checkId: ctx.checkId, anonymous }), expectedId: rid };
  });
}

export const authChecks: CheckDef[] = [
  defineCheck({
    id: 'auth.required',
    title: 'Requests without credentials are rejected (401/403) when the card declares security',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: AUTH,
    recommendation: 'Enforce the schemes the card declares on every A2A endpoint (not on the card): put the auth middleware in front of the JSON-RPC/REST handlers. An agent that declares security but accepts anonymous calls is misleading its clients.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (!declaresSecurity(ctx)) return skip('The card declares no security, so anonymous access is expected.', 'not-applicable');
      const p = await authProbe(ctx, true);
      if (!p.http.responded) return transportVerdict(p.http, 'calling without credentials');
      if (p.http.status === 401 || p.http.status === 403) return pass(`Rejected with HTTP ${p.http.status}.`, [exchangeEvidence(p.http)]);
      return fail(`The card declares security, yet a call without credentials was answered HTTP ${p.http.status} (${answered(p)}).`, [exchangeEvidence(p.http)]);
    },
  }),
  defineCheck({
    id: 'auth.challenge',
    title: 'A 401 carries WWW-Authenticate',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: { 'v0.2': 'v0.2.6 §4.4 (RFC 9110 §11.6.1)', 'v0.3': 'v0.3.0 §4.4, §7.10 (401 with WWW-Authenticate)', 'v1.0': 'v1.0.1 §7.4 (HTTP 401 semantics, RFC 9110 §11.6.1)', legacy: 'v0.1.0 §4.4 (RFC 9110 §11.6.1)' },
    recommendation: 'Send a WWW-Authenticate header with every 401 (RFC 9110 §11.6.1 MUST), e.g. WWW-Authenticate: Bearer realm="agent"; clients use it to pick the scheme.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (!declaresSecurity(ctx)) return skip('The card declares no security.', 'not-applicable');
      const p = await authProbe(ctx, true);
      if (p.http.status !== 401) return skip(`The anonymous call got HTTP ${p.http.status || 'no answer'}, not 401.`, p.http.status === 403 ? 'not-applicable' : 'precondition');
      const h = p.http.headers.get('www-authenticate');
      return h ? pass(`WWW-Authenticate: ${h}`) : fail('HTTP 401 without a WWW-Authenticate header.', [exchangeEvidence(p.http)]);
    },
  }),
  defineCheck({
    id: 'auth.accepted',
    title: 'The same request with the user\'s credentials is accepted',
    category: 'error-handling',
    level: 'MUST',
    phase: 'suite',
    specRefs: AUTH,
    recommendation: 'Accept the credentials in the place the card declares (the header name of the apiKey scheme, or Authorization: Bearer). Check that the scheme in the card matches what the middleware reads.',
    run: async (ctx) => {
      const p0 = pre(ctx);
      if (p0) return p0;
      if (!declaresSecurity(ctx)) return skip('The card declares no security.', 'not-applicable');
      if (ctx.credentials.kind === 'none') return skip('No credentials were given for this run.', 'precondition');
      const p = await authProbe(ctx, false);
      if (!p.http.responded) return transportVerdict(p.http, 'calling with credentials');
      if (p.http.status === 401 || p.http.status === 403) {
        // Refused everywhere: we cannot tell wrong credentials from a wrong agent (not assessed). Refused here
        // but accepted for the test tasks: the agent enforces its scheme inconsistently.
        const runs = await skillRuns(ctx);
        const accepted = runs.find((r) => r.send.http.responded && r.send.http.status !== 401 && r.send.http.status !== 403);
        if (!accepted) return refusedForCredentials(ctx, p.http)!;
        return fail(`The credentials were accepted for ${ctx.dialect!.describe('send')} but refused (HTTP ${p.http.status}) for ${ctx.dialect!.describe('get')}.`, [exchangeEvidence(accepted.send.http, 'accepted'), exchangeEvidence(p.http, 'refused')]);
      }
      return pass(`Accepted (HTTP ${p.http.status}).`, [exchangeEvidence(p.http)]);
    },
  }),
];
