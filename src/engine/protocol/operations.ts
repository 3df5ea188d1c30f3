import type { Binding, Generation } from '../model/check';

/**
 * The one table of protocol operations: each operation's JSON-RPC method per generation, its HTTP+JSON route, and
 * what a successful answer carries. Requests, URLs and the names in messages (`describeOperation`) are derived
 * from it. Sources: A2A v0.1.0 §7 (legacy JSON-RPC methods), v0.2.6 §7 and v0.3.0 §3.5.6 (JSON-RPC / gRPC / REST
 * mapping table; REST paths under `/v1`), v1.0.1 §5.3 (method mapping), §9.4 (JSON-RPC) and §11.3 (HTTP+JSON URL
 * patterns; the v1.0.1 a2a.proto also binds each route under `/{tenant}`). docs/protocol-notes.md summarizes them.
 *
 * Where a generation lacks an operation the name is the one a client of that generation would try (a check decides
 * whether the operation applies), e.g. legacy has no push config list.
 */
export type Operation = 'send' | 'stream' | 'get' | 'cancel' | 'subscribe' | 'pushSet' | 'pushGet' | 'pushList' | 'pushDelete' | 'list' | 'extendedCard';

export interface RestRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the REST base, with `{id}` (the task id) and `{configId}` placeholders. */
  path: string;
}

export interface OperationSpec {
  /** JSON-RPC method name per generation (v1.0 names are also the gRPC ones). */
  rpc: Record<Generation, string>;
  /** HTTP+JSON route; `v0` when the v0.x route differs from v1.0's. */
  rest: RestRoute & { v0?: RestRoute };
  /**
   * The text says POST where the proto says GET (v0.3.0 §3.5.6, v1.0.1 §11.3.2 vs a2a.proto): send the proto's
   * method first and this one when the route is not found (404/405).
   */
  restAlternative?: RestRoute['method'];
  /** A successful answer: `send` a Task or a Message, `task` a Task, `stream` an SSE stream, `value` anything. */
  result: 'send' | 'task' | 'stream' | 'value';
}

const V0_PUSH = {
  set: 'tasks/pushNotificationConfig/set',
  get: 'tasks/pushNotificationConfig/get',
  list: 'tasks/pushNotificationConfig/list',
  delete: 'tasks/pushNotificationConfig/delete',
};
const CONFIGS = '/tasks/{id}/pushNotificationConfigs';

export const OPERATIONS: Readonly<Record<Operation, OperationSpec>> = {
  send: {
    rpc: { legacy: 'tasks/send', 'v0.2': 'message/send', 'v0.3': 'message/send', 'v1.0': 'SendMessage' },
    rest: { method: 'POST', path: '/message:send' },
    result: 'send',
  },
  stream: {
    rpc: { legacy: 'tasks/sendSubscribe', 'v0.2': 'message/stream', 'v0.3': 'message/stream', 'v1.0': 'SendStreamingMessage' },
    rest: { method: 'POST', path: '/message:stream' },
    result: 'stream',
  },
  get: {
    rpc: { legacy: 'tasks/get', 'v0.2': 'tasks/get', 'v0.3': 'tasks/get', 'v1.0': 'GetTask' },
    rest: { method: 'GET', path: '/tasks/{id}' },
    result: 'task',
  },
  cancel: {
    rpc: { legacy: 'tasks/cancel', 'v0.2': 'tasks/cancel', 'v0.3': 'tasks/cancel', 'v1.0': 'CancelTask' },
    rest: { method: 'POST', path: '/tasks/{id}:cancel' },
    result: 'task',
  },
  subscribe: {
    rpc: { legacy: 'tasks/resubscribe', 'v0.2': 'tasks/resubscribe', 'v0.3': 'tasks/resubscribe', 'v1.0': 'SubscribeToTask' },
    rest: { method: 'GET', path: '/tasks/{id}:subscribe' },
    restAlternative: 'POST',
    result: 'stream',
  },
  pushSet: {
    rpc: { legacy: 'tasks/pushNotification/set', 'v0.2': V0_PUSH.set, 'v0.3': V0_PUSH.set, 'v1.0': 'CreateTaskPushNotificationConfig' },
    rest: { method: 'POST', path: CONFIGS },
    result: 'value',
  },
  pushGet: {
    rpc: { legacy: 'tasks/pushNotification/get', 'v0.2': V0_PUSH.get, 'v0.3': V0_PUSH.get, 'v1.0': 'GetTaskPushNotificationConfig' },
    rest: { method: 'GET', path: `${CONFIGS}/{configId}` },
    result: 'value',
  },
  pushList: {
    rpc: { legacy: V0_PUSH.list, 'v0.2': V0_PUSH.list, 'v0.3': V0_PUSH.list, 'v1.0': 'ListTaskPushNotificationConfigs' },
    rest: { method: 'GET', path: CONFIGS },
    result: 'value',
  },
  pushDelete: {
    rpc: { legacy: V0_PUSH.delete, 'v0.2': V0_PUSH.delete, 'v0.3': V0_PUSH.delete, 'v1.0': 'DeleteTaskPushNotificationConfig' },
    rest: { method: 'DELETE', path: `${CONFIGS}/{configId}` },
    result: 'value',
  },
  list: {
    rpc: { legacy: 'tasks/list', 'v0.2': 'tasks/list', 'v0.3': 'tasks/list', 'v1.0': 'ListTasks' },
    rest: { method: 'GET', path: '/tasks' },
    result: 'value',
  },
  // v0.2 serves the extended card by a plain GET beside the endpoint (v0.2.6 §7.10), the RPC name is a guess some servers answer.
  extendedCard: {
    rpc: {
      legacy: 'agent/getAuthenticatedExtendedCard',
      'v0.2': 'agent/authenticatedExtendedCard',
      'v0.3': 'agent/getAuthenticatedExtendedCard',
      'v1.0': 'GetExtendedAgentCard',
    },
    rest: { method: 'GET', path: '/extendedAgentCard', v0: { method: 'GET', path: '/card' } },
    result: 'value',
  },
};

/** Where an operation is sent: the interface under test. */
export interface OperationTarget {
  generation: Generation;
  binding: Binding;
  endpointUrl: string;
  /** The interface's tenant (v1.0 only: sent in every request, §8.3.2). */
  tenant?: string;
}

/** The JSON-RPC method of `op` in generation `g`. */
export const methodName = (g: Generation, op: Operation): string => OPERATIONS[op].rpc[g];

/** The HTTP+JSON route of `op` in generation `g` (path with placeholders, under the REST base). */
export function restRoute(g: Generation, op: Operation): RestRoute {
  const r = OPERATIONS[op].rest;
  return g !== 'v1.0' && r.v0 ? r.v0 : { method: r.method, path: r.path };
}

/** The tenant a request of generation `g` carries: only v1.0 interfaces have one. */
export const tenantOf = (g: Generation, tenant: string | undefined): string | undefined => (g === 'v1.0' && tenant ? tenant : undefined);

/**
 * The REST base of an interface: v1.0 paths sit at the interface URL (under `/{tenant}` when it has one); v0.x paths
 * start with `/v1`, which a declared URL that already ends in `/v1` (the v0.3 schema's example) keeps only once.
 */
export function restBase(t: Omit<OperationTarget, 'binding'>): string {
  const base = t.endpointUrl.replace(/\/+$/, '');
  const prefix = t.generation === 'v1.0' || /\/v1$/.test(base) ? '' : '/v1';
  const tenant = tenantOf(t.generation, t.tenant);
  return `${base}${tenant ? `/${encodeURIComponent(tenant)}` : ''}${prefix}`;
}

/** Fills a route's placeholders (URL-encoded for requests, as given for messages). */
export function fillPath(path: string, ids: { id?: string; configId?: string }, encode = true): string {
  const enc = (v: string) => (encode ? encodeURIComponent(v) : v);
  return path.replace('{id}', () => enc(ids.id ?? '')).replace('{configId}', () => enc(ids.configId ?? ''));
}

/** The URL an operation is sent to (JSON-RPC: the endpoint; HTTP+JSON: base, tenant, `/v1` prefix and route). */
export function operationUrl(t: OperationTarget, op: Operation, ids: { id?: string; configId?: string } = {}): string {
  if (t.binding !== 'HTTP+JSON') return t.endpointUrl;
  return `${restBase(t)}${fillPath(restRoute(t.generation, op).path, ids)}`;
}

/**
 * The operation as named in messages: the JSON-RPC method, or the REST method and path relative to the interface
 * (`/v1` for v0.x, no tenant), e.g. `POST /v1/tasks/{id}:cancel`.
 */
export function describeOperation(t: Pick<OperationTarget, 'generation' | 'binding'>, op: Operation, id = '{id}', configId = '{configId}'): string {
  if (t.binding !== 'HTTP+JSON') return methodName(t.generation, op);
  const route = restRoute(t.generation, op);
  return `${route.method} ${t.generation === 'v1.0' ? '' : '/v1'}${fillPath(route.path, { id, configId }, false)}`;
}
