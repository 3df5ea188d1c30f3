/** What the error-handling check files share: the probes errors.shape judges too, and reading answers of the binding. */
import type { Evidence } from '../../model/check';
import type { TaskState } from '../../model/events';
import type { CallOutcome } from '../../protocol/dialect';
import { isA2AError } from '../../protocol/errors';
import { normalizeState } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContextWith } from '../context';
import { exchangeEvidence } from '../verdict';
import { unknownTaskId } from '../setups/probe-ids';
import { probeAnswer, probeLane, probeMayBe, sendProbe, type Probe } from '../setups/probes';

export const ERRORS = {
  legacy: 'v0.1.0 §8 Error Handling',
  'v0.2': 'v0.2.6 §8 Error Handling',
  'v0.3': 'v0.3.0 §8 Error Handling',
  'v1.0': 'v1.0.1 §5.4 Error Code Mappings, §9.5 / §11.6 Error Handling',
};

const BROKEN_JSON = '{"jsonrpc": "2.0", "id": "a2a-interop-parse", "method": ';
export const PARSE_PROBE_ID = 'a2a-interop-parse';

/** The deliberately wrong requests judged by errors.shape too, memoized per run. */
export const PROBES = {
  'unknown-method': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'unknown-method', () =>
      ctx.dialect.isRest
        ? { kind: 'rest', method: 'GET', path: '/a2a-interop-no-such-operation' }
        : { kind: 'rpc', method: 'a2a-interop/no-such-method', params: {} },
    ),
  'invalid-json': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-json', () =>
      ctx.dialect.isRest ? { kind: 'rest', ...ctx.dialect.route('send'), body: BROKEN_JSON } : { kind: 'raw', body: BROKEN_JSON, expectedId: null },
    ),
  'invalid-request': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-request', () => ({ kind: 'raw', body: '{"not": "valid jsonrpc"}', expectedId: null })),
  'invalid-params': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-params', () =>
      ctx.dialect.isRest
        ? { kind: 'rest', ...ctx.dialect.route('send'), body: JSON.stringify({ message: 42 }) }
        : { kind: 'rpc', method: ctx.dialect.method('send'), params: ctx.generation === 'legacy' ? { id: 42, message: 42 } : { message: 42 } },
    ),
  // Malformed params of the other core methods (JSON-RPC: get and cancel without the required id; v1.0: ListTasks
  // with a pageSize that is not a number). On HTTP+JSON the id is part of the path: only ListTasks' query is probed.
  'invalid-params-get': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-params-get', () => ({ kind: 'rpc', method: ctx.dialect.method('get'), params: {} })),
  'invalid-params-cancel': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-params-cancel', () => ({ kind: 'rpc', method: ctx.dialect.method('cancel'), params: {} })),
  'invalid-params-list': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'invalid-params-list', () => {
      if (!ctx.dialect.isRest) return { kind: 'rpc', method: ctx.dialect.method('list'), params: { pageSize: 'many' } };
      const r = ctx.dialect.route('list');
      return { kind: 'rest', method: r.method, path: `${r.path}?pageSize=many` };
    }),
  'task-not-found': (ctx: CheckContextWith<'dialect'>) =>
    sendProbe(ctx, 'task-not-found', async () => {
      const taskId = await unknownTaskId(ctx);
      return { ...ctx.dialect.request('get', { id: taskId.id }, { id: taskId.id }), taskId };
    }),
} as const;

/** The probes that exist on a binding and generation (the JSON-RPC-only ones aside on HTTP+JSON; ListTasks is v1.0's). */
export function probesFor(ctx: CheckContextWith<'dialect'>): (keyof typeof PROBES)[] {
  const rpcOnly: string[] = ['invalid-request', 'invalid-params-get', 'invalid-params-cancel'];
  return (Object.keys(PROBES) as (keyof typeof PROBES)[]).filter(
    (n) => !(ctx.dialect.isRest && rpcOnly.includes(n)) && !(n === 'invalid-params-list' && ctx.generation !== 'v1.0'),
  );
}

/** A read-back that finds no task: TaskNotFound on any binding, or any error at HTTP 404. */
export const outcomeNotFound = (o: CallOutcome | undefined) => o?.kind === 'error' && (isA2AError(o, 'TaskNotFound') || o.http.status === 404);

/**
 * The answer is a success of the binding. On JSON-RPC a `"result": null` beside a real error object is the error
 * (errors.shape reports the envelope): only a non-null result with no error is a success.
 */
export const isSuccess = (ctx: CheckContextWith<'dialect'>, p: Probe): boolean =>
  p.grpc
    ? p.grpc.kind === 'task' || p.grpc.kind === 'message' || p.grpc.kind === 'ok'
    : ctx.dialect.isRest
      ? p.http.responded && !p.http.error && p.http.status >= 200 && p.http.status < 300
      : !!p.rpc?.hasResult && p.rpc.result != null && !(p.rpc.hasError && p.rpc.error);

/** The answer is an error of the binding (a JSON-RPC error at any status; on HTTP+JSON a 4xx/5xx; a gRPC status). */
export const isRefusal = (ctx: CheckContextWith<'dialect'>, p: Probe): boolean => probeAnswer(ctx, p).kind === 'error';

/** The state of the Task a successful answer carries (JSON-RPC result, REST body; v1.0 send wraps it in `task`). */
export function answeredState(ctx: CheckContextWith<'dialect'>, p: Probe): { state?: TaskState; raw?: string } | undefined {
  if (!isSuccess(ctx, p)) return undefined;
  if (p.grpc) return p.grpc.kind === 'task' ? { state: p.grpc.task.state, raw: p.grpc.task.rawState } : {};
  let v: unknown = ctx.dialect.isRest
    ? (() => {
        const j = p.http.json();
        return j.ok ? j.value : undefined;
      })()
    : p.rpc?.result;
  if (isRecord(v) && isRecord(v.task)) v = v.task;
  if (!isRecord(v) || !isRecord(v.status)) return {};
  const raw = v.status.state;
  return { state: normalizeState(raw), raw: typeof raw === 'string' ? raw : JSON.stringify(raw) };
}

/** Reads a task back after a probe (observe, do not trust the answer). */
export const readBack = (ctx: CheckContextWith<'dialect'>, id: string): Promise<CallOutcome> =>
  ctx.dialect.get(ctx.http, { id, lane: probeLane(ctx), checkId: ctx.checkId });

export const readBackEvidence = (o: CallOutcome | undefined, label: string): Evidence[] => (o ? [exchangeEvidence(o.http, label)] : []);

/** UnsupportedOperation, or its HTTP+JSON / gRPC status without an ErrorInfo reason. */
export const V1_UNSUPPORTED = (ctx: CheckContextWith<'dialect'>, p: Probe) => probeMayBe(ctx, p, 'UnsupportedOperation');
