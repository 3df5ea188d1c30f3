/** The JSON-RPC binding: method table per generation, envelope checks, notifications, and each operation's answer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Auth } from './auth';
import type { CardServing } from './card-serving';
import type { Generation } from './dialect';
import { A2AError, E, httpMapping, rpcErrorObject } from './errors';
import { gateExtensions } from './extensions';
import type { Operations } from './operations';
import { idParam, optInt, parseSend } from './params';
import type { Plumbing } from './plumbing';
import type { PushConfigs } from './push';
import type { Streaming } from './streaming';
import { AuthError, CrashError, isObj, type AgentState, type Json } from './state';

const METHODS: Record<Generation, Record<string, string>> = {
  legacy: {
    'tasks/send': 'send',
    'tasks/sendSubscribe': 'stream',
    'tasks/get': 'get',
    'tasks/cancel': 'cancel',
    'tasks/resubscribe': 'resubscribe',
    'tasks/pushNotification/set': 'pushSet',
    'tasks/pushNotification/get': 'pushGet',
  },
  'v0.2': {
    'message/send': 'send',
    'message/stream': 'stream',
    'tasks/get': 'get',
    'tasks/cancel': 'cancel',
    'tasks/resubscribe': 'resubscribe',
    'tasks/pushNotificationConfig/set': 'pushSet',
    'tasks/pushNotificationConfig/get': 'pushGet',
    'tasks/pushNotificationConfig/list': 'pushList',
    'tasks/pushNotificationConfig/delete': 'pushDelete',
  },
  'v0.3': {
    'message/send': 'send',
    'message/stream': 'stream',
    'tasks/get': 'get',
    'tasks/cancel': 'cancel',
    'tasks/resubscribe': 'resubscribe',
    'tasks/pushNotificationConfig/set': 'pushSet',
    'tasks/pushNotificationConfig/get': 'pushGet',
    'tasks/pushNotificationConfig/list': 'pushList',
    'tasks/pushNotificationConfig/delete': 'pushDelete',
    'agent/getAuthenticatedExtendedCard': 'extendedCard',
  },
  'v1.0': {
    SendMessage: 'send',
    SendStreamingMessage: 'stream',
    GetTask: 'get',
    ListTasks: 'list',
    CancelTask: 'cancel',
    SubscribeToTask: 'resubscribe',
    CreateTaskPushNotificationConfig: 'pushSet',
    GetTaskPushNotificationConfig: 'pushGet',
    ListTaskPushNotificationConfigs: 'pushList',
    DeleteTaskPushNotificationConfig: 'pushDelete',
    GetExtendedAgentCard: 'extendedCard',
  },
};

export interface JsonRpcDeps {
  ops: Operations;
  push: PushConfigs;
  streaming: Streaming;
  auth: Auth;
  card: CardServing;
  plumbing: Plumbing;
}

export function createJsonRpc(s: AgentState, { ops, push, streaming, auth, card, plumbing }: JsonRpcDeps) {
  const { gen, features, has, permits, notFoundError, errShape } = s;
  const { send, getTask, cancelTask, listTasks } = ops;
  const { pushRpc, validateWebhook } = push;
  const { makeSink, streamSend, resubscribe } = streaming;
  const { REALM, credentialState, refuseAuth, checkAuth } = auth;
  const { extendedCard } = card;
  const { crash, versionError, rateLimit } = plumbing;

  const rpcId = (id: unknown): unknown => {
    if (!has('wrong-rpc-id')) return id;
    return typeof id === 'number' ? id + 1000 : `${String(id ?? 'null')}-x`;
  };

  function rpcSend(res: ServerResponse, id: unknown, body: { result: unknown } | { error: A2AError }, notification = false): void {
    if (res.destroyed) return;
    if (notification && !has('notification-answered')) {
      // JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.
      if (permits('notification-202')) return void res.writeHead(202).end();
      if (!permits('notification-invalid-request') && !has('notification-refused-with-id')) return void res.writeHead(204).end();
      // notification-refused-with-id: the refusal carries a made-up id (0) instead of null, as if answering a request.
      const msg = {
        jsonrpc: '2.0',
        id: has('notification-refused-with-id') ? 0 : null,
        error: rpcErrorObject(gen, E.invalidRequest('Requests need an id'), errShape()),
      };
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(msg));
    }
    const msg: Json = { jsonrpc: '2.0', id: rpcId(id ?? null) };
    if ('result' in body) {
      msg.result = body.result;
      if (has('result-and-error')) msg.error = null;
    } else {
      msg.error = rpcErrorObject(gen, body.error, errShape());
      if (has('result-and-error')) msg.result = null;
    }
    const status = 'error' in body && permits('jsonrpc-error-http-status') ? httpMapping(body.error.code).http : 200;
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(msg));
  }

  /** The JSON-RPC methods of the generation (v0.2 with extended-v02-rpc: plus agent/authenticatedExtendedCard). */
  const methodTable = (): Record<string, string> =>
    gen === 'v0.2' && permits('extended-v02-rpc') ? { ...METHODS['v0.2'], 'agent/authenticatedExtendedCard': 'extendedCard' } : METHODS[gen];

  async function handleRpc(req: IncomingMessage, res: ServerResponse, url: URL, text: string, authorised: boolean): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      if (!authorised && !checkAuth(req, res)) return;
      if (has('invalid-json-500')) return crash(res);
      return rpcSend(res, null, { error: E.parse() });
    }
    const method = isObj(msg) && typeof msg.method === 'string' ? msg.method : '';
    // extended-card-anonymous: the extended card method skips the authentication every other call gets.
    const anonymousOk = has('extended-card-anonymous') && methodTable()[method] === 'extendedCard';
    if (!authorised && !anonymousOk && !checkAuth(req, res)) return;
    if (method && rateLimit(res, `rpc ${method}`)) return;
    const invalidRequest = (m: string) => (has('invalid-request-wrong-code') ? E.internal(m) : E.invalidRequest(m));
    if (!isObj(msg)) return rpcSend(res, null, { error: invalidRequest('The request must be a JSON-RPC 2.0 object') });
    const id = msg.id;
    const idOk = id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string' || !idOk) {
      return rpcSend(res, idOk ? (id ?? null) : null, { error: invalidRequest('Not a valid JSON-RPC 2.0 request') });
    }
    const notification = !('id' in msg);
    const vErr = versionError(req, url);
    if (vErr) return rpcSend(res, id ?? null, { error: vErr }, notification);
    const op = Object.prototype.hasOwnProperty.call(methodTable(), msg.method) ? methodTable()[msg.method] : undefined;
    if (!op || (op === 'resubscribe' && has('sse-no-resubscribe'))) {
      const e =
        has('unknown-method-wrong-code') && op !== 'resubscribe'
          ? E.invalidRequest(`Unknown method ${msg.method.slice(0, 80)}`)
          : E.methodNotFound(`Method not found: ${msg.method.slice(0, 80)}`);
      return rpcSend(res, id ?? null, { error: e }, notification);
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    try {
      const params = msg.params === undefined && (op === 'extendedCard' || op === 'list') ? {} : msg.params;
      if (!isObj(params)) throw E.invalidParams('params must be an object');
      if (op === 'send' || op === 'stream') gateExtensions(s, req, res);
      // id-missing-not-found: a get or cancel without an id looks up the task "undefined" instead of refusing the params.
      if ((op === 'get' || op === 'cancel') && params.id === undefined && has('id-missing-not-found')) throw E.taskNotFound(String(params.id));
      switch (op) {
        case 'send':
          return rpcSend(res, id, { result: await send(parseSend(s, params), ac.signal) }, notification);
        case 'get':
          return rpcSend(
            res,
            id,
            { result: getTask(idParam(params), optInt(params.historyLength, 'historyLength'), credentialState(req).state === 'valid') },
            notification,
          );
        case 'cancel':
          return rpcSend(res, id, { result: cancelTask(idParam(params)) }, notification);
        case 'list':
          return rpcSend(res, id, { result: listTasks(params) }, notification);
        case 'pushSet':
        case 'pushGet':
        case 'pushList':
        case 'pushDelete':
          if (!features.push) {
            if (has('push-wrong-code')) throw E.methodNotFound(`Method not found: ${msg.method}`);
            if (op === 'pushSet') validateWebhook(gen === 'v1.0' ? params : isObj(params.pushNotificationConfig) ? params.pushNotificationConfig : {});
            throw E.pushNotSupported();
          }
          return rpcSend(res, id, { result: pushRpc(op, params) }, notification);
        case 'extendedCard':
          return rpcSend(res, id, { result: extendedCard() }, notification);
        case 'stream':
        case 'resubscribe': {
          const frame = (payload: Json): Json => (has('sse-bare-payload') ? payload : { jsonrpc: '2.0', id: rpcId(id), result: payload });
          const sink = makeSink(res, frame, (e) => ({ jsonrpc: '2.0', id: rpcId(id), error: rpcErrorObject(gen, e, errShape()) }));
          if (op === 'stream') streamSend(sink, parseSend(s, params));
          else resubscribe(sink, idParam(params));
          return;
        }
        default:
          // Every method in METHODS has a case; a gap must answer, never hang the client.
          throw E.internal(`unhandled operation ${op}`);
      }
    } catch (e) {
      if (e instanceof CrashError) return crash(res);
      if (e instanceof AuthError) return refuseAuth(res, 401, `Bearer ${REALM}, error="invalid_token"`);
      if (e instanceof A2AError) {
        const err = e.code === -32602 && has('invalid-params-wrong-code') ? E.internal(e.message) : notFoundError(e);
        if (err instanceof CrashError) return crash(res);
        if (res.headersSent) return void res.end();
        return rpcSend(res, id, { error: err }, notification);
      }
      if (!res.headersSent) return rpcSend(res, id, { error: E.internal() }, notification);
      res.end();
    }
  }

  return { handleRpc };
}
