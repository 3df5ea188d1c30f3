/**
 * A list of independent test cases (describe blocks per check), long by nature: each case stands on its own.
 *
 * The errors.* and auth.* checks against scripted agents (fake host): what the specification permits passes (or is
 * an advisory where it is only defensible), real deviations still fail. Each case names the review item it proves
 * (docs/spec-review/errors.md).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcTransport } from '../../grpc/transport';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import type { CheckResult } from '../model/check';
import type { Credentials } from '../model/credentials';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { shapedLike } from './setups/probe-ids';
import { SHAPE_PROBES } from './setups/probes';
import { PROBES } from './errors/shared';

type Gen = 'legacy' | 'v0.3' | 'v1.0';
type Json = Record<string, unknown>;
interface FakeTask {
  id: string;
  contextId: string;
  state: string;
  history: Json[];
}
interface Hook {
  /** JSON-RPC method, or `${HTTP method} ${path}` on HTTP+JSON. */
  method: string;
  params: Json;
  id: unknown;
  hasId: boolean;
  headers: Headers;
  tasks: Map<string, FakeTask>;
  body: unknown;
}
interface FakeOpts {
  gen: Gen;
  rest?: boolean;
  card?: (c: Json) => Json;
  /** A scripted deviation: return a Response to replace the default answer. */
  override?: (h: Hook) => Response | undefined;
  newTaskId?: (n: number) => string;
  /** The state a new task is in when the send returns (default completed). */
  newState?: (text: string) => string;
  /** Credentials the agent requires (Authorization: Bearer …); the default refusal is 401 with a challenge. */
  token?: string;
}

const BASE = 'http://agent.test';
const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const REASONS: Record<number, [number, string]> = {
  [-32001]: [404, 'TASK_NOT_FOUND'],
  [-32002]: [400, 'TASK_NOT_CANCELABLE'],
  [-32003]: [400, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
  [-32004]: [400, 'UNSUPPORTED_OPERATION'],
  [-32009]: [400, 'VERSION_NOT_SUPPORTED'],
};
const TERMINAL = ['completed', 'canceled', 'failed', 'rejected'];

const v1State = (s: string) => `TASK_STATE_${s.toUpperCase().replace(/-/g, '_')}`;

const rpcError = (gen: Gen, id: unknown, code: number, message: string, status = 200, extra: Json = {}) => {
  const reason = REASONS[code]?.[1];
  const error: Json = { code, message, ...(gen === 'v1.0' && reason ? { data: [{ '@type': ERROR_INFO, reason, domain: 'a2a-protocol.org' }] } : {}), ...extra };
  return json({ jsonrpc: '2.0', id, error }, { status });
};
const restError = (gen: Gen, code: number, message: string, httpOverride?: number) => {
  const [http, reason] = REASONS[code] ?? [code === -32601 ? 404 : code === -32700 || code === -32602 ? 400 : 500, undefined];
  const status = httpOverride ?? http;
  if (gen !== 'v1.0') return json({ message }, { status });
  return json(
    { error: { code: status, status: 'FAILED_PRECONDITION', message, details: reason ? [{ '@type': ERROR_INFO, reason, domain: 'a2a-protocol.org' }] : [] } },
    { status },
  );
};

/** A small, spec-correct agent of one generation and binding, with hooks for scripted deviations. */
function fakeAgent(o: FakeOpts) {
  const tasks = new Map<string, FakeTask>();
  let n = 0;
  const restPrefix = o.gen === 'v1.0' ? '/api' : '/api/v1';
  const render = (t: FakeTask): Json => {
    if (o.gen === 'v1.0' || o.rest)
      return { id: t.id, contextId: t.contextId, status: { state: v1State(t.state), timestamp: '2026-01-01T00:00:00.000Z' }, history: t.history };
    if (o.gen === 'legacy') return { id: t.id, sessionId: t.contextId, status: { state: t.state, timestamp: '2026-01-01T00:00:00.000Z' } };
    return { kind: 'task', id: t.id, contextId: t.contextId, status: { state: t.state, timestamp: '2026-01-01T00:00:00.000Z' }, history: t.history };
  };
  const baseCard = (): Json => {
    const c = sampleCard(o.gen, BASE);
    if (o.rest && o.gen === 'v1.0') c.supportedInterfaces = [{ url: `${BASE}/api`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' }];
    if (o.rest && o.gen === 'v0.3') Object.assign(c, { url: `${BASE}/api`, preferredTransport: 'HTTP+JSON' });
    if (o.gen === 'legacy') c.url = `${BASE}/rpc`;
    return o.card ? o.card(c) : c;
  };
  const textOf = (m: unknown): string => {
    const parts = (m as { parts?: unknown[]; content?: unknown[] })?.parts ?? (m as { content?: unknown[] })?.content ?? [];
    return parts.map((p) => String((p as { text?: unknown }).text ?? '')).join(' ');
  };
  const streaming = () => (baseCard().capabilities as { streaming?: boolean } | undefined)?.streaming === true;

  /** The default behaviour, binding-neutral: a result, or [code, message]. */
  function operate(op: string, params: Json): { result: unknown } | { error: [number, string] } | { stream: FakeTask } {
    const msg = (params.message ?? {}) as Json;
    switch (op) {
      case 'send': {
        if (typeof params.message !== 'object' || params.message === null) return { error: [-32602, 'message must be a Message'] };
        const taskId = o.gen === 'legacy' ? (params.id as string) : (msg.taskId as string | undefined);
        const existing = taskId ? tasks.get(taskId) : undefined;
        if (existing) {
          if (TERMINAL.includes(existing.state)) return { error: [-32004, `task ${existing.id} is ${existing.state}`] };
          if (o.gen === 'v1.0' && msg.contextId && msg.contextId !== existing.contextId) return { error: [-32602, 'contextId does not match the task'] };
          existing.history.push(msg);
          existing.state = 'completed';
          return { result: o.gen === 'v1.0' ? { task: render(existing) } : render(existing) };
        }
        if (taskId && o.gen !== 'legacy') return { error: [-32001, `task ${taskId} not found`] };
        const t: FakeTask = {
          id: taskId ?? (o.newTaskId ? o.newTaskId(++n) : randomUUID()),
          contextId: (msg.contextId as string) ?? (params.sessionId as string) ?? randomUUID(),
          state: o.newState ? o.newState(textOf(msg)) : 'completed',
          history: [msg],
        };
        tasks.set(t.id, t);
        return { result: o.gen === 'v1.0' || o.rest ? { task: render(t) } : render(t) };
      }
      case 'get': {
        if (typeof params.id !== 'string') return { error: [-32602, 'params.id is required'] };
        const t = tasks.get(String(params.id));
        return t ? { result: render(t) } : { error: [-32001, `task ${String(params.id)} not found`] };
      }
      case 'cancel': {
        if (typeof params.id !== 'string') return { error: [-32602, 'params.id is required'] };
        const t = tasks.get(String(params.id));
        if (!t) return { error: [-32001, 'not found'] };
        if (TERMINAL.includes(t.state)) return { error: [-32002, `task is ${t.state}`] };
        t.state = 'canceled';
        return { result: render(t) };
      }
      case 'subscribe': {
        const t = tasks.get(String(params.id));
        if (!streaming()) return { error: [-32004, 'streaming is not supported'] };
        if (!t) return { error: [-32001, 'not found'] };
        if (o.gen === 'v1.0' && TERMINAL.includes(t.state)) return { error: [-32004, 'task is terminal'] };
        return { stream: t };
      }
      case 'stream':
        if (!streaming()) return { error: [-32004, 'streaming is not supported'] };
        return { error: [-32603, 'not scripted'] };
      case 'push':
        return { error: [-32003, 'Push Notification is not supported'] };
      default:
        return { error: [-32601, 'Method not found'] };
    }
  }

  const sse = (frames: unknown[]) =>
    new Response(frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });

  const RPC: Record<Gen, Record<string, string>> = {
    legacy: {
      'tasks/send': 'send',
      'tasks/get': 'get',
      'tasks/cancel': 'cancel',
      'tasks/resubscribe': 'subscribe',
      'tasks/sendSubscribe': 'stream',
      'tasks/pushNotification/set': 'push',
      'tasks/pushNotification/get': 'push',
    },
    'v0.3': {
      'message/send': 'send',
      'tasks/get': 'get',
      'tasks/cancel': 'cancel',
      'tasks/resubscribe': 'subscribe',
      'message/stream': 'stream',
      'tasks/pushNotificationConfig/set': 'push',
      'tasks/pushNotificationConfig/list': 'push',
    },
    'v1.0': {
      SendMessage: 'send',
      GetTask: 'get',
      CancelTask: 'cancel',
      SubscribeToTask: 'subscribe',
      SendStreamingMessage: 'stream',
      CreateTaskPushNotificationConfig: 'push',
      ListTaskPushNotificationConfigs: 'push',
    },
  };

  const route = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (url.pathname === '/.well-known/agent-card.json' || url.pathname === '/.well-known/agent.json') {
      const wanted = o.gen === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json';
      return url.pathname === wanted ? json(baseCard()) : new Response('not found', { status: 404 });
    }
    if (o.token && req.headers.get('authorization') !== `Bearer ${o.token}`) {
      const r = o.override?.({ method: 'auth', params: {}, id: null, hasId: false, headers: req.headers, tasks, body: undefined });
      if (r) return r;
      return new Response('{"error":"unauthorized"}', { status: 401, headers: { 'www-authenticate': 'Bearer realm="t"', 'content-type': 'application/json' } });
    }
    const text = await req.text();
    if (o.rest) {
      const path = url.pathname.slice(restPrefix.length);
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        const r = o.override?.({ method: `${req.method} ${path}`, params: {}, id: null, hasId: false, headers: req.headers, tasks, body: text });
        return r ?? restError(o.gen, -32700, 'Invalid JSON payload');
      }
      const hook: Hook = { method: `${req.method} ${path}`, params: {}, id: null, hasId: false, headers: req.headers, tasks, body };
      const r = o.override?.(hook);
      if (r) return r;
      if (o.gen === 'v1.0' && req.headers.get('a2a-version') !== '1.0') return restError(o.gen, -32009, 'version not supported');
      let m: RegExpExecArray | null;
      let out: ReturnType<typeof operate>;
      if (path === '/message:send') out = operate('send', body as Json);
      else if ((m = /^\/tasks\/([^/:]+):cancel$/.exec(path))) out = operate('cancel', { id: decodeURIComponent(m[1]!) });
      else if ((m = /^\/tasks\/([^/:]+):subscribe$/.exec(path))) out = operate('subscribe', { id: decodeURIComponent(m[1]!) });
      else if (path === '/message:stream') out = operate('stream', body as Json);
      else if (/^\/tasks\/[^/:]+\/pushNotificationConfigs/.test(path)) out = operate('push', {});
      else if ((m = /^\/tasks\/([^/:]+)$/.exec(path)) && req.method === 'GET') out = operate('get', { id: decodeURIComponent(m[1]!) });
      else out = { error: [-32601, `no route ${path}`] };
      if ('error' in out) return restError(o.gen, out.error[0], out.error[1]);
      if ('stream' in out) return sse([{ task: render(out.stream) }]);
      return json(out.result);
    }
    if (url.pathname !== '/rpc') return new Response('not found', { status: 404 });
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      const r = o.override?.({ method: '(parse error)', params: {}, id: null, hasId: false, headers: req.headers, tasks, body: text });
      return r ?? rpcError(o.gen, null, -32700, 'Parse error');
    }
    const b = (typeof body === 'object' && body !== null ? body : {}) as Json;
    const hook: Hook = { method: String(b.method ?? ''), params: (b.params ?? {}) as Json, id: b.id, hasId: 'id' in b, headers: req.headers, tasks, body };
    const r = o.override?.(hook);
    if (r) return r;
    if (b.jsonrpc !== '2.0' || typeof b.method !== 'string') return rpcError(o.gen, null, -32600, 'Invalid Request');
    if (!hook.hasId) return new Response(null, { status: 204 });
    if (o.gen === 'v1.0' && req.headers.get('a2a-version') !== '1.0') return rpcError(o.gen, b.id, -32009, 'version not supported');
    const op = RPC[o.gen][b.method] ?? 'unknown';
    const params = (typeof b.params === 'object' && b.params !== null ? b.params : {}) as Json;
    const out = operate(op, params);
    if ('error' in out) return rpcError(o.gen, b.id, out.error[0], out.error[1]);
    if ('stream' in out) return sse([{ jsonrpc: '2.0', id: b.id, result: render(out.stream) }]);
    return json({ jsonrpc: '2.0', id: b.id, result: out.result });
  };
  return { route, tasks };
}

async function run(o: FakeOpts, only: string[], credentials?: Credentials) {
  const agent = fakeAgent(o);
  const { host, requests } = fakeHost(agent.route);
  const report = await runConformance(host, { agentUrl: BASE, only, timeoutMs: 3000, ...(credentials ? { credentials } : {}) }, () => {});
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { byId, report, requests, tasks: agent.tasks };
}

const rpcMethod = (h: Hook, ...names: string[]) => names.includes(h.method);

// ---------------------------------------------------------------- §2.1 crashes

describe('a well-formed error with HTTP 4xx/5xx is an answer, not a crash (review §2.1)', () => {
  it('VersionNotSupported (-32009) with HTTP 500, as @a2a-js/sdk 1.x sends it, passes errors.version-unsupported', async () => {
    const { byId } = await run(
      { gen: 'v1.0', override: (h) => (h.headers.get('a2a-version') === '99.0' ? rpcError('v1.0', h.id, -32009, 'unsupported', 500) : undefined) },
      ['errors.version-unsupported'],
    );
    const r = byId['errors.version-unsupported']!;
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/VersionNotSupported \(-32009\) as expected \(at HTTP 500: no release fixes the status/);
  });

  it('-32603 with HTTP 500 for malformed params is a plain failure on the code, not a critical crash', async () => {
    const { byId } = await run(
      {
        gen: 'v1.0',
        override: (h) =>
          h.method === 'SendMessage' && typeof h.params.message !== 'object' ? rpcError('v1.0', h.id, -32603, 'Internal error', 500) : undefined,
      },
      ['errors.invalid-params'],
    );
    const r = byId['errors.invalid-params']!;
    expect(r.status).toBe('fail');
    expect(r.critical).toBeUndefined();
    expect(r.message).toMatch(/expected InvalidParams \(-32602\), got error -32603/);
  });

  it('an HTML 500 for malformed JSON is still a critical failure', async () => {
    const { byId } = await run(
      {
        gen: 'v0.3',
        override: (h) =>
          h.method === '(parse error)' ? new Response('<html>boom</html>', { status: 500, headers: { 'content-type': 'text/html' } }) : undefined,
      },
      ['errors.invalid-json'],
    );
    expect(byId['errors.invalid-json']!.status).toBe('fail');
    expect(byId['errors.invalid-json']!.critical).toBe(true);
    expect(byId['errors.invalid-json']!.message).toMatch(/HTTP 500 and no JSON-RPC error object/);
  });

  it('v0.3 HTTP+JSON: 501 for push config calls (a2a-python 0.3) passes errors.push-not-supported', async () => {
    const { byId } = await run(
      {
        gen: 'v0.3',
        rest: true,
        override: (h) => (h.method.includes('pushNotificationConfigs') ? json({ message: 'This operation is not supported' }, { status: 501 }) : undefined),
      },
      ['errors.push-not-supported'],
    );
    expect(byId['errors.push-not-supported']!.status).toBe('pass');
    expect(byId['errors.push-not-supported']!.message).toMatch(/HTTP 501 as expected/);
  });
});

// ---------------------------------------------------------------- §2.3 REST statuses

describe('HTTP+JSON statuses per generation (review §2.3)', () => {
  it('v1.0: an unknown route answered 400 passes errors.unknown-method (any 4xx is an appropriate error)', async () => {
    const { byId } = await run(
      {
        gen: 'v1.0',
        rest: true,
        override: (h) => (h.method.includes('a2a-interop-no-such-operation') ? restError('v1.0', -32602, 'bad route', 400) : undefined),
      },
      ['errors.unknown-method'],
    );
    expect(byId['errors.unknown-method']!.status).toBe('pass');
  });

  it('v1.0: malformed JSON answered 422 is an advisory; v0.3: 422 passes', async () => {
    const at422 = (gen: Gen) => (h: Hook) => (typeof h.body === 'string' ? restError(gen, -32700, 'Unprocessable', 422) : undefined);
    const v1 = await run({ gen: 'v1.0', rest: true, override: at422('v1.0') }, ['errors.invalid-json']);
    expect(v1.byId['errors.invalid-json']!.status).toBe('advisory');
    expect(v1.byId['errors.invalid-json']!.advisoryReason).toMatch(/400 only as an example/);
    const v03 = await run({ gen: 'v0.3', rest: true, override: at422('v0.3') }, ['errors.invalid-json']);
    expect(v03.byId['errors.invalid-json']!.status).toBe('pass');
  });

  it('v1.0: push config calls answered 501 fail (v1.0.1 §5.4 maps PushNotificationNotSupported to 400)', async () => {
    const { byId } = await run(
      {
        gen: 'v1.0',
        rest: true,
        override: (h) => (h.method.includes('pushNotificationConfigs') ? json({ error: { code: 501, message: 'nope' } }, { status: 501 }) : undefined),
      },
      ['errors.push-not-supported'],
    );
    expect(byId['errors.push-not-supported']!.status).toBe('fail');
    expect(byId['errors.push-not-supported']!.critical).toBeUndefined();
  });
});

// ---------------------------------------------------------------- §2.4, §2.5 errors.shape

describe('errors.shape', () => {
  it('-32600 with id null for the unknown-method and invalid-params probes is well-formed (review §2.4)', async () => {
    const { byId } = await run(
      {
        gen: 'v0.3',
        override: (h) =>
          rpcMethod(h, 'a2a-interop/no-such-method') || (h.method === 'message/send' && typeof h.params.message !== 'object')
            ? rpcError('v0.3', null, -32600, 'Request payload validation error', 400)
            : undefined,
      },
      ['errors.shape', 'errors.unknown-method', 'errors.invalid-params'],
    );
    expect(byId['errors.shape']!.status).toBe('pass');
    expect(byId['errors.unknown-method']!.status).toBe('fail');
    expect(byId['errors.invalid-params']!.status).toBe('advisory');
  });

  it('an error object without "message" on cancel (and get) fails: the probes of every core method are judged', async () => {
    const noMessage = (m: string) => (h: Hook) =>
      h.method === m && h.params.id === undefined ? json({ jsonrpc: '2.0', id: h.id, error: { code: -32602 } }) : undefined;
    for (const [gen, m] of [
      ['v0.3', 'tasks/cancel'],
      ['v1.0', 'GetTask'],
    ] as const) {
      const { byId } = await run({ gen, override: noMessage(m) }, ['errors.shape']);
      const r = byId['errors.shape']!;
      expect(r.status, m).toBe('fail');
      expect(r.message).toBe(`1 shape problem(s): invalid-params-${m === 'GetTask' ? 'get' : 'cancel'}: error.message should be a string.`);
    }
  });

  it('a parse error that echoes the recovered id is well-formed; a wrong id still fails', async () => {
    const ok = await run(
      { gen: 'v0.3', override: (h) => (h.method === '(parse error)' ? rpcError('v0.3', 'a2a-interop-parse', -32700, 'Parse error') : undefined) },
      ['errors.shape'],
    );
    expect(ok.byId['errors.shape']!.status).toBe('pass');
    const bad = await run({ gen: 'v0.3', override: (h) => (h.method === 'tasks/get' ? rpcError('v0.3', 'other', -32001, 'not found') : undefined) }, [
      'errors.shape',
    ]);
    expect(bad.byId['errors.shape']!.status).toBe('fail');
    expect(bad.byId['errors.shape']!.message).toMatch(/task-not-found: "id" should echo the request id/);
  });

  it('v1.0 HTTP+JSON: google.rpc.Status without the string "status" passes (not a google.rpc.Status field; review §2.5)', async () => {
    const noStatus = (h: Hook) => {
      const path = h.method.split(' ')[1] ?? '';
      if (/^\/tasks\/[^/:]+$/.test(path) && h.method.startsWith('GET')) {
        return json(
          { error: { code: 404, message: 'Task not found', details: [{ '@type': ERROR_INFO, reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }] } },
          { status: 404 },
        );
      }
      if (path.includes('a2a-interop-no-such')) return json({ error: { code: 404, message: 'no route' } }, { status: 404 });
      return undefined;
    };
    const { byId } = await run({ gen: 'v1.0', rest: true, override: noStatus }, ['errors.shape']);
    expect(byId['errors.shape']!.status).toBe('pass');
    expect(byId['errors.shape']!.message).toMatch(/error\.status .* is absent, which is fine/);
  });

  it('v1.0 HTTP+JSON: an application/problem+json body fails and names the §6.4 examples', async () => {
    const problem = (h: Hook) =>
      h.method.startsWith('GET /tasks/')
        ? new Response(
            JSON.stringify({ type: 'https://a2a-protocol.org/errors/task-not-found', title: 'Task not found', status: 404, detail: 'no such task' }),
            {
              status: 404,
              headers: { 'content-type': 'application/problem+json' },
            },
          )
        : undefined;
    const { byId } = await run({ gen: 'v1.0', rest: true, override: problem }, ['errors.shape']);
    expect(byId['errors.shape']!.status).toBe('fail');
    expect(byId['errors.shape']!.message).toMatch(/application\/problem\+json \(as in the v1\.0\.1 §6\.4\/§6\.5 examples\)/);
  });

  it('v0.3 HTTP+JSON: an HTML error page fails; a {"message"} body passes', async () => {
    const html = (h: Hook) =>
      h.method.includes('a2a-interop-no-such') ? new Response('<html>404</html>', { status: 404, headers: { 'content-type': 'text/html' } }) : undefined;
    const bad = await run({ gen: 'v0.3', rest: true, override: html }, ['errors.shape']);
    expect(bad.byId['errors.shape']!.status).toBe('fail');
    expect(bad.byId['errors.shape']!.message).toMatch(/unknown-method: the error body is not JSON/);
    const good = await run({ gen: 'v0.3', rest: true }, ['errors.shape']);
    expect(good.byId['errors.shape']!.status).toBe('pass');
  });

  it('v1.0 JSON-RPC: an untyped object in error.data fails errors.shape (MUST), while errors.details only asks for the ErrorInfo (SHOULD)', async () => {
    const untyped = (h: Hook) =>
      h.method === 'GetTask'
        ? rpcError('v1.0', h.id, -32001, 'not found', 200, {
            data: [{ '@type': ERROR_INFO, reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }, { hint: 'no @type' }],
          })
        : undefined;
    const { byId } = await run({ gen: 'v1.0', override: untyped }, ['errors.shape', 'errors.details']);
    expect(byId['errors.shape']!.status).toBe('fail');
    expect(byId['errors.shape']!.message).toMatch(/error\.data\[1\] MUST be an object with "@type"/);
    expect(byId['errors.details']!.status).toBe('pass');
    const freeForm = await run(
      { gen: 'v1.0', override: (h) => (h.method === 'GetTask' ? rpcError('v1.0', h.id, -32001, 'not found', 200, { data: { taskId: 'x' } }) : undefined) },
      ['errors.shape', 'errors.details'],
    );
    expect(freeForm.byId['errors.shape']!.status).toBe('pass');
    expect(freeForm.byId['errors.details']!.status).toBe('fail');
    expect(freeForm.byId['errors.details']!.level).toBe('SHOULD');
  });
});

// ---------------------------------------------------------------- §2.2 probe ids

describe("unknown task ids are shaped like the agent's own (review §2.2)", () => {
  it('shapedLike keeps length, separators, character classes (hex stays hex) and a leading word tag', () => {
    let i = 0;
    const rnd = () => ['9f3a7c21e4b05d68', '0123456789abcdef'][i++ % 2]!;
    expect(shapedLike('task-0042-Ab', rnd)).toMatch(/^task-\d{4}-[A-Z][a-z]$/);
    expect(shapedLike('task-0042-Ab', rnd)).not.toBe('task-0042-Ab');
    expect(shapedLike('3f2a-9c', rnd)).toMatch(/^\d[a-f]\d[a-f]-\d[a-f]$/);
    // A hex-looking first segment is not a tag; a tag with too little left after it is randomized too.
    expect(shapedLike('cafe-1234', rnd)).toMatch(/^[a-f]{4}-\d{4}$/);
    expect(shapedLike('job-12', rnd)).toMatch(/^[a-z]{3}-\d{2}$/);
    // A very short sequence number (t-5) would hit a real task: lengthened to 10 random characters in all.
    expect(shapedLike('t-5', rnd)).toMatch(/^[a-z]-\d{9}$/);
  });

  it('an agent that validates its id format gets an id of that format and answers TaskNotFound: pass', async () => {
    const strict = (h: Hook) =>
      h.method === 'tasks/get' && !/^task-\d{4}$/.test(String(h.params.id)) ? rpcError('v0.3', h.id, -32602, 'malformed task id') : undefined;
    const { byId, requests } = await run({ gen: 'v0.3', newTaskId: (n) => `task-${String(n).padStart(4, '0')}`, override: strict }, ['errors.task-not-found']);
    expect(byId['errors.task-not-found']!.status).toBe('pass');
    const probed = await Promise.all(requests.filter((r) => r.method === 'POST').map((r) => r.clone().text()));
    expect(probed.some((b) => /"method":"tasks\/get","params":\{"id":"task-\d{4}"\}/.test(b))).toBe(true);
  });

  it("InvalidParams for an id shaped like the agent's own fails; for a bare UUID (message-only agent) it is an advisory", async () => {
    const invalid = (h: Hook) => (h.method === 'tasks/get' ? rpcError('v0.3', h.id, -32602, 'malformed task id') : undefined);
    const shaped = await run({ gen: 'v0.3', override: invalid }, ['errors.task-not-found']);
    expect(shaped.byId['errors.task-not-found']!.status).toBe('fail');
    expect(shaped.byId['errors.task-not-found']!.message).toMatch(/has the shape of the agent's own task ids/);
    const messageOnly = (h: Hook) =>
      h.method === 'message/send' && typeof h.params.message === 'object'
        ? json({ jsonrpc: '2.0', id: h.id, result: { kind: 'message', messageId: 'm1', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] } })
        : invalid(h);
    const bare = await run({ gen: 'v0.3', override: messageOnly }, ['errors.task-not-found']);
    expect(bare.byId['errors.task-not-found']!.status).toBe('advisory');
    expect(bare.byId['errors.task-not-found']!.advisoryReason).toMatch(/format validation is permitted/);
  });
});

// ---------------------------------------------------------------- specific checks

describe('errors.invalid-params / unknown-method / invalid-request messages', () => {
  it('-32602 for a body that is not a Request object fails errors.invalid-request and names @a2a-js/sdk', async () => {
    const { byId } = await run({ gen: 'v1.0', override: (h) => (!h.method && !h.hasId ? rpcError('v1.0', null, -32602, 'invalid') : undefined) }, [
      'errors.invalid-request',
    ]);
    expect(byId['errors.invalid-request']!.status).toBe('fail');
    expect(byId['errors.invalid-request']!.message).toMatch(/@a2a-js\/sdk 1\.x answers -32602 here/);
  });
});

describe('the error object of every probe is judged once', () => {
  it('errors.shape judges exactly the probes SHAPE_PROBES names (the others by their own check)', () => {
    expect([...SHAPE_PROBES].sort()).toEqual(Object.keys(PROBES).sort());
  });
  it('a TaskNotCancelable without "message" fails errors.cancel-terminal; a PushNotificationNotSupported without it fails errors.push-not-supported', async () => {
    const noMessage = (m: string, code: number) => (h: Hook) => (h.method === m ? json({ jsonrpc: '2.0', id: h.id, error: { code } }) : undefined);
    const cancel = await run({ gen: 'v0.3', override: (h) => (h.params.id !== undefined ? noMessage('tasks/cancel', -32002)(h) : undefined) }, [
      'errors.cancel-terminal',
    ]);
    expect(cancel.byId['errors.cancel-terminal']!.status, cancel.byId['errors.cancel-terminal']!.message).toBe('fail');
    expect(cancel.byId['errors.cancel-terminal']!.message).toMatch(
      /TaskNotCancelable \(-32002\) as expected, but the error object is malformed: error\.message should be a string \(JSON-RPC 2\.0 §5\.1\)\./,
    );
    const push = await run(
      { gen: 'v1.0', override: (h) => noMessage('CreateTaskPushNotificationConfig', -32003)(h) ?? noMessage('ListTaskPushNotificationConfigs', -32003)(h) },
      ['errors.push-not-supported'],
    );
    expect(push.byId['errors.push-not-supported']!.status, push.byId['errors.push-not-supported']!.message).toBe('fail');
    expect(push.byId['errors.push-not-supported']!.message).toMatch(/but the error object is malformed: error\.message should be a string/);
  });
});

describe('errors.invalid-params probes every core method', () => {
  const METHODS: Record<Gen, { get: string; cancel: string }> = {
    legacy: { get: 'tasks/get', cancel: 'tasks/cancel' },
    'v0.3': { get: 'tasks/get', cancel: 'tasks/cancel' },
    'v1.0': { get: 'GetTask', cancel: 'CancelTask' },
  };
  it.each(['legacy', 'v0.3', 'v1.0'] as const)('%s: get/cancel without an id answered TaskNotFound ("Task not found: undefined") fail', async (gen) => {
    for (const op of ['get', 'cancel'] as const) {
      const m = METHODS[gen][op];
      const { byId } = await run(
        { gen, override: (h) => (h.method === m && h.params.id === undefined ? rpcError(gen, h.id, -32001, 'Task not found: undefined') : undefined) },
        ['errors.invalid-params'],
      );
      const r = byId['errors.invalid-params']!;
      expect([r.status, r.level], `${gen} ${op}`).toEqual(['fail', 'MUST']);
      expect(r.message).toBe(
        `${m} without the task id (params {}): expected InvalidParams (-32602), got error -32001 "Task not found: undefined" (HTTP 200). TaskNotFound means the missing id was looked up as a task id instead of being refused as a malformed parameter.`,
      );
    }
  });
  it('a conforming agent passes with each method named; the probes are sent with params {}', async () => {
    const { byId, requests } = await run({ gen: 'v0.3' }, ['errors.invalid-params']);
    const r = byId['errors.invalid-params']!;
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(
      /^message\/send with a message that is a number: InvalidParams \(-32602\) as expected\. tasks\/get without the task id \(params \{\}\): InvalidParams \(-32602\) as expected\. tasks\/cancel without/,
    );
    const bodies = await Promise.all(requests.filter((q) => q.method === 'POST').map((q) => q.clone().text()));
    expect(bodies.filter((b) => b.includes('"params":{}')).length).toBeGreaterThanOrEqual(2);
  });
  it('v1.0: ListTasks with pageSize "many" answered with a result fails; not implemented (-32601) is left to lifecycle.list', async () => {
    const accepted = await run(
      { gen: 'v1.0', override: (h) => (h.method === 'ListTasks' ? json({ jsonrpc: '2.0', id: h.id, result: { tasks: [], nextPageToken: '' } }) : undefined) },
      ['errors.invalid-params'],
    );
    expect(accepted.byId['errors.invalid-params']!.status).toBe('fail');
    expect(accepted.byId['errors.invalid-params']!.message).toMatch(
      /ListTasks with pageSize "many": expected InvalidParams \(-32602\), got a result instead of an error/,
    );
    const missing = await run({ gen: 'v1.0' }, ['errors.invalid-params']);
    expect(missing.byId['errors.invalid-params']!.status).toBe('pass');
    expect(missing.byId['errors.invalid-params']!.message).toMatch(/ListTasks is not implemented: see lifecycle\.list/);
  });
  it('v1.0 HTTP+JSON: GET /tasks?pageSize=many answered 200 fails', async () => {
    const { byId } = await run({ gen: 'v1.0', rest: true, override: (h) => (h.method === 'GET /tasks' ? json({ tasks: [], nextPageToken: '' }) : undefined) }, [
      'errors.invalid-params',
    ]);
    expect(byId['errors.invalid-params']!.status).toBe('fail');
    expect(byId['errors.invalid-params']!.message).toMatch(/with pageSize "many": expected HTTP 400, got HTTP 200/);
  });
});

describe('errors.cancel-terminal tells an unchanged task from a corrupted one', () => {
  it('a completed task returned as a success: non-critical failure', async () => {
    const { byId } = await run(
      {
        gen: 'v1.0',
        override: (h) =>
          h.method === 'CancelTask'
            ? json({ jsonrpc: '2.0', id: h.id, result: { id: h.params.id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } })
            : undefined,
      },
      ['errors.cancel-terminal'],
    );
    const r = byId['errors.cancel-terminal']!;
    expect(r.status).toBe('fail');
    expect(r.critical).toBeUndefined();
    expect(r.message).toMatch(/returned the unchanged TASK_STATE_COMPLETED task as a success/);
  });

  it('a completed task rewritten to canceled: critical', async () => {
    const corrupt = (h: Hook) => {
      if (h.method !== 'CancelTask') return undefined;
      const t = h.tasks.get(String(h.params.id))!;
      t.state = 'canceled';
      return json({ jsonrpc: '2.0', id: h.id, result: { id: t.id, contextId: t.contextId, status: { state: 'TASK_STATE_CANCELED' } } });
    };
    const { byId } = await run({ gen: 'v1.0', override: corrupt }, ['errors.cancel-terminal']);
    expect(byId['errors.cancel-terminal']!.status).toBe('fail');
    expect(byId['errors.cancel-terminal']!.critical).toBe(true);
    expect(byId['errors.cancel-terminal']!.message).toMatch(/became TASK_STATE_CANCELED/);
  });
});

describe('errors.message-to-terminal', () => {
  it('v1.0: UnsupportedOperation, but the message was appended to the history anyway: fail', async () => {
    const append = (h: Hook) => {
      const m = h.params.message as Json | undefined;
      const t = m && typeof m.taskId === 'string' ? h.tasks.get(m.taskId) : undefined;
      if (h.method !== 'SendMessage' || !t) return undefined;
      t.history.push(m!);
      return rpcError('v1.0', h.id, -32004, 'terminal');
    };
    const { byId } = await run({ gen: 'v1.0', override: append }, ['errors.message-to-terminal']);
    expect(byId['errors.message-to-terminal']!.status).toBe('fail');
    expect(byId['errors.message-to-terminal']!.message).toMatch(/shows our message in its history/);
  });

  it('v0.3 HTTP+JSON: a 501 refusal passes (any refusal before v1.0)', async () => {
    const refuse = (h: Hook) => {
      const m = (h.body as Json | undefined)?.message as Json | undefined;
      return h.method === 'POST /message:send' && m && typeof m.taskId === 'string' && h.tasks.has(m.taskId)
        ? json({ message: 'Not Implemented' }, { status: 501 })
        : undefined;
    };
    const { byId } = await run({ gen: 'v0.3', rest: true, override: refuse }, ['errors.message-to-terminal']);
    expect(byId['errors.message-to-terminal']!.status).toBe('pass');
  });
});

describe('errors.push-not-supported', () => {
  it('URL validation refusing the set first (-32602) while list answers -32003: pass', async () => {
    const { byId } = await run(
      { gen: 'v1.0', override: (h) => (h.method === 'CreateTaskPushNotificationConfig' ? rpcError('v1.0', h.id, -32602, 'url not allowed') : undefined) },
      ['errors.push-not-supported'],
    );
    expect(byId['errors.push-not-supported']!.status).toBe('pass');
    expect(byId['errors.push-not-supported']!.message).toMatch(/Listing push configs: PushNotificationNotSupported/);
  });

  it('UnsupportedOperation (-32004) on both calls fails and names a2a-python', async () => {
    const { byId } = await run(
      { gen: 'v0.3', override: (h) => (h.method.startsWith('tasks/pushNotificationConfig') ? rpcError('v0.3', h.id, -32004, 'not supported') : undefined) },
      ['errors.push-not-supported'],
    );
    expect(byId['errors.push-not-supported']!.status).toBe('fail');
    expect(byId['errors.push-not-supported']!.level).toBe('SHOULD');
    expect(byId['errors.push-not-supported']!.message).toMatch(/a2a-python's request handlers/);
  });
});

describe('errors.version-missing picks its probe from the card', () => {
  it('is a MUST; a 1.0-only interface answering -32601 is an advisory (not refused with VersionNotSupported)', async () => {
    const { byId } = await run(
      { gen: 'v1.0', override: (h) => (!h.headers.get('a2a-version') && h.hasId ? rpcError('v1.0', h.id, -32601, 'Method not found') : undefined) },
      ['errors.version-missing'],
    );
    const r = byId['errors.version-missing']!;
    expect(r.level).toBe('MUST');
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/treated as a 0\.3 request/);
  });

  it('a 1.0-only interface answering TaskNotFound (v1.0 semantics) fails; VersionNotSupported passes', async () => {
    const lenient = await run(
      { gen: 'v1.0', override: (h) => (!h.headers.get('a2a-version') && h.method === 'GetTask' ? rpcError('v1.0', h.id, -32001, 'not found') : undefined) },
      ['errors.version-missing'],
    );
    expect(lenient.byId['errors.version-missing']!.status).toBe('fail');
    const strict = await run({ gen: 'v1.0' }, ['errors.version-missing']);
    expect(strict.byId['errors.version-missing']!.status).toBe('pass');
  });

  it('with a 0.3 interface at the same URL, a header-less tasks/get is a 0.3 request: TaskNotFound passes, -32601 fails', async () => {
    const card = (c: Json) => ({
      ...c,
      supportedInterfaces: [...(c.supportedInterfaces as Json[]), { url: `${BASE}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
    });
    const compat = (h: Hook) => (!h.headers.get('a2a-version') && h.method === 'tasks/get' ? rpcError('v0.3', h.id, -32001, 'Task not found') : undefined);
    const ok = await run({ gen: 'v1.0', card, override: compat }, ['errors.version-missing']);
    expect(ok.byId['errors.version-missing']!.status).toBe('pass');
    expect(ok.byId['errors.version-missing']!.message).toMatch(/served as 0\.3/);
    const noCompat = await run(
      {
        gen: 'v1.0',
        card,
        override: (h) => (!h.headers.get('a2a-version') && h.method === 'tasks/get' ? rpcError('v1.0', h.id, -32601, 'Method not found') : undefined),
      },
      ['errors.version-missing'],
    );
    expect(noCompat.byId['errors.version-missing']!.status).toBe('fail');
  });
});

// ---------------------------------------------------------------- auth

describe('auth.required judges what the card actually requires (review §2.6)', () => {
  it('legacy authentication.schemes ["public"]: anonymous access is expected (not applicable)', async () => {
    const { byId } = await run({ gen: 'legacy', card: (c) => ({ ...c, authentication: { schemes: ['public'] } }) }, ['auth.required', 'auth.challenge']);
    expect(byId['auth.required']!.status).toBe('skip');
    expect(byId['auth.required']!.message).toMatch(/only public: anonymous access/);
  });

  it('schemes declared but no top-level requirement, or a requirement list with {}: not applicable', async () => {
    const schemesOnly = await run({ gen: 'v0.3', card: (c) => ({ ...c, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }) }, ['auth.required']);
    expect(schemesOnly.byId['auth.required']!.status).toBe('skip');
    expect(schemesOnly.byId['auth.required']!.message).toMatch(/no top-level security requirement/);
    const optional = await run(
      { gen: 'v0.3', card: (c) => ({ ...c, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{}, { bearer: [] }] }) },
      ['auth.required'],
    );
    expect(optional.byId['auth.required']!.status).toBe('skip');
    expect(optional.byId['auth.required']!.message).toMatch(/empty requirement \{\}/);
  });

  const secured = (gen: Gen) => (c: Json) =>
    gen === 'v1.0'
      ? { ...c, securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } }, securityRequirements: [{ schemes: { bearer: { list: [] } } }] }
      : { ...c, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] };
  const customError = (gen: Gen) => (h: Hook) => (h.method === 'auth' ? rpcError(gen, null, -32000, 'Authentication required') : undefined);

  it('v1.0: a "JSON-RPC custom error" with HTTP 200 is a rejection: pass', async () => {
    const { byId } = await run({ gen: 'v1.0', token: 's3cret', card: secured('v1.0'), override: customError('v1.0') }, ['auth.required', 'auth.challenge'], {
      kind: 'bearer',
      token: 's3cret',
    });
    expect(byId['auth.required']!.status).toBe('pass');
    expect(byId['auth.required']!.message).toMatch(/JSON-RPC custom error/);
    expect(byId['auth.challenge']!.status).toBe('skip');
  });

  it('v0.3: the same rejection is an advisory (401/403 are SHOULD examples)', async () => {
    const { byId } = await run({ gen: 'v0.3', token: 's3cret', card: secured('v0.3'), override: customError('v0.3') }, ['auth.required'], {
      kind: 'bearer',
      token: 's3cret',
    });
    expect(byId['auth.required']!.status).toBe('advisory');
  });

  it('an anonymous call answered TaskNotFound was processed: fail', async () => {
    const { byId } = await run({ gen: 'v1.0', card: secured('v1.0') }, ['auth.required']);
    expect(byId['auth.required']!.status).toBe('fail');
    expect(byId['auth.required']!.message).toMatch(/TaskNotFound \(-32001\).*lookup ran/);
  });

  it('the same JSON-RPC error with and without credentials: not an authentication check, fail', async () => {
    const always = (h: Hook) => (h.method === 'auth' || h.method === 'GetTask' ? rpcError('v1.0', h.id ?? null, -32603, 'backend down') : undefined);
    const { byId } = await run({ gen: 'v1.0', token: 's3cret', card: secured('v1.0'), override: always }, ['auth.required'], {
      kind: 'bearer',
      token: 's3cret',
    });
    expect(byId['auth.required']!.status).toBe('fail');
    expect(byId['auth.required']!.message).toMatch(/exactly the answer the same call with credentials got/);
  });

  it('auth.accepted: 403 on a get of an unknown task after the credentials worked for send is an authorization decision: pass', async () => {
    const forbidGet = (h: Hook) =>
      h.method === 'GetTask' && !h.tasks.has(String(h.params.id))
        ? new Response('{}', { status: 403, headers: { 'content-type': 'application/json' } })
        : undefined;
    const { byId } = await run({ gen: 'v1.0', token: 's3cret', card: secured('v1.0'), override: forbidGet }, ['auth.accepted'], {
      kind: 'bearer',
      token: 's3cret',
    });
    expect(byId['auth.accepted']!.status).toBe('pass');
    expect(byId['auth.accepted']!.message).toMatch(/authorization decision/);
  });
});

// ---------------------------------------------------------------- new checks

describe('errors.unknown-task-message', () => {
  it('TaskNotFound passes; a task created under the unknown id fails', async () => {
    const ok = await run({ gen: 'v1.0' }, ['errors.unknown-task-message']);
    expect(ok.byId['errors.unknown-task-message']!.status).toBe('pass');
    const creates = (h: Hook) => {
      const m = h.params.message as Json | undefined;
      if (h.method !== 'SendMessage' || !m || typeof m.taskId !== 'string' || h.tasks.has(m.taskId)) return undefined;
      const t = { id: m.taskId, contextId: 'c1', state: 'completed', history: [m] };
      h.tasks.set(t.id, t);
      return json({ jsonrpc: '2.0', id: h.id, result: { task: { id: t.id, contextId: t.contextId, status: { state: 'TASK_STATE_COMPLETED' } } } });
    };
    const bad = await run({ gen: 'v1.0', override: creates }, ['errors.unknown-task-message']);
    expect(bad.byId['errors.unknown-task-message']!.status).toBe('fail');
    expect(bad.byId['errors.unknown-task-message']!.message).toMatch(/was accepted \(a Task in state TASK_STATE_COMPLETED\)/);
  });

  it('is a SHOULD in v0.3 and not applicable to legacy', async () => {
    const v03 = await run(
      {
        gen: 'v0.3',
        override: (h) => (h.method === 'message/send' && (h.params.message as Json)?.taskId ? rpcError('v0.3', h.id, -32603, 'boom') : undefined),
      },
      ['errors.unknown-task-message'],
    );
    expect(v03.byId['errors.unknown-task-message']!.status).toBe('fail');
    expect(v03.byId['errors.unknown-task-message']!.level).toBe('SHOULD');
    const legacy = await run({ gen: 'legacy' }, ['errors.unknown-task-message']);
    expect(legacy.byId['errors.unknown-task-message']!.status).toBe('skip');
  });
});

describe('errors.context-mismatch (v1.0)', () => {
  const paused = { newState: (t: string) => (t.includes('a2a-interop') ? 'completed' : 'input-required') };
  it('rejected with any error and the task left as it was: pass', async () => {
    const { byId } = await run({ gen: 'v1.0', ...paused }, ['errors.context-mismatch']);
    expect(byId['errors.context-mismatch']!.status).toBe('pass');
    expect(byId['errors.context-mismatch']!.message).toMatch(/INPUT_REQUIRED.*was rejected \(error -32602/);
  });

  it('accepted: fail', async () => {
    const accept = (h: Hook) => {
      const m = h.params.message as Json | undefined;
      const t = m && typeof m.taskId === 'string' ? h.tasks.get(m.taskId) : undefined;
      if (h.method !== 'SendMessage' || !t || m!.contextId === t.contextId) return undefined;
      t.state = 'completed';
      return json({ jsonrpc: '2.0', id: h.id, result: { task: { id: t.id, contextId: t.contextId, status: { state: 'TASK_STATE_COMPLETED' } } } });
    };
    const { byId } = await run({ gen: 'v1.0', ...paused, override: accept }, ['errors.context-mismatch']);
    expect(byId['errors.context-mismatch']!.status).toBe('fail');
    expect(byId['errors.context-mismatch']!.message).toMatch(/was accepted/);
  });

  it('rejected, but the rejected message resumed the paused task: fail', async () => {
    const resume = (h: Hook) => {
      const m = h.params.message as Json | undefined;
      const t = m && typeof m.taskId === 'string' ? h.tasks.get(m.taskId) : undefined;
      if (h.method !== 'SendMessage' || !t || m!.contextId === t.contextId) return undefined;
      t.state = 'working';
      return rpcError('v1.0', h.id, -32602, 'contextId mismatch');
    };
    const { byId } = await run({ gen: 'v1.0', ...paused, override: resume }, ['errors.context-mismatch']);
    expect(byId['errors.context-mismatch']!.status).toBe('fail');
    expect(byId['errors.context-mismatch']!.message).toMatch(/resumed it/);
  });

  it('without a paused task, a running one is used', async () => {
    const { byId } = await run({ gen: 'v1.0', newState: () => 'working' }, ['errors.context-mismatch']);
    expect(byId['errors.context-mismatch']!.status).toBe('pass');
    expect(byId['errors.context-mismatch']!.message).toMatch(/running task/);
  });
});

describe('errors.streaming-unsupported', () => {
  const noStreaming = (c: Json) => ({ ...c, capabilities: { ...(c.capabilities as Json), streaming: false } });
  it('v1.0: UnsupportedOperation for the stream and the subscription passes', async () => {
    const { byId } = await run({ gen: 'v1.0', card: noStreaming }, ['errors.streaming-unsupported']);
    expect(byId['errors.streaming-unsupported']!.status).toBe('pass');
    expect(byId['errors.streaming-unsupported']!.message).toMatch(/SendStreamingMessage: refused with UnsupportedOperation.*SubscribeToTask/);
  });

  it('v1.0: a stream served anyway fails; v0.3: an advisory', async () => {
    const streams = (gen: Gen) => (h: Hook) =>
      h.method === 'SendStreamingMessage' || h.method === 'message/stream'
        ? new Response(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: h.id, result: gen === 'v1.0' ? { task: { id: 't9', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } } : { kind: 'task', id: 't9', contextId: 'c', status: { state: 'working' } } })}\n\n`,
            {
              headers: { 'content-type': 'text/event-stream' },
            },
          )
        : undefined;
    const v1 = await run({ gen: 'v1.0', card: noStreaming, override: streams('v1.0') }, ['errors.streaming-unsupported']);
    expect(v1.byId['errors.streaming-unsupported']!.status).toBe('fail');
    expect(v1.byId['errors.streaming-unsupported']!.message).toMatch(/served as an event stream/);
    const v03 = await run({ gen: 'v0.3', card: noStreaming, override: streams('v0.3') }, ['errors.streaming-unsupported']);
    expect(v03.byId['errors.streaming-unsupported']!.status).toBe('advisory');
  });

  it('v0.3: MethodNotFound (-32601) passes; not applicable when streaming is declared', async () => {
    const notFound = (h: Hook) =>
      h.method === 'message/stream' || h.method === 'tasks/resubscribe' ? rpcError('v0.3', h.id, -32601, 'Method not found') : undefined;
    const { byId } = await run({ gen: 'v0.3', card: noStreaming, override: notFound }, ['errors.streaming-unsupported']);
    expect(byId['errors.streaming-unsupported']!.status).toBe('pass');
    const declared = await run({ gen: 'v0.3' }, ['errors.streaming-unsupported']);
    expect(declared.byId['errors.streaming-unsupported']!.status).toBe('skip');
  });
});

describe('errors.subscribe-terminal (scripted)', () => {
  it('v1.0: a stream replaying the finished task fails', async () => {
    const replay = (h: Hook) => {
      if (h.method !== 'SubscribeToTask') return undefined;
      const t = h.tasks.get(String(h.params.id))!;
      return new Response(
        `data: ${JSON.stringify({ jsonrpc: '2.0', id: h.id, result: { task: { id: t.id, contextId: t.contextId, status: { state: 'TASK_STATE_COMPLETED' } } } })}\n\n`,
        {
          headers: { 'content-type': 'text/event-stream' },
        },
      );
    };
    const { byId } = await run({ gen: 'v1.0', override: replay }, ['errors.subscribe-terminal']);
    expect(byId['errors.subscribe-terminal']!.status).toBe('fail');
    expect(byId['errors.subscribe-terminal']!.message).toMatch(/served as an event stream \(1 event\(s\), the first a task \(TASK_STATE_COMPLETED\)\)/);
  });

  it('v1.0: an in-stream UnsupportedOperation error passes', async () => {
    const inStream = (h: Hook) =>
      h.method === 'SubscribeToTask'
        ? new Response(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: h.id, error: { code: -32004, message: 'terminal', data: [{ '@type': ERROR_INFO, reason: 'UNSUPPORTED_OPERATION', domain: 'a2a-protocol.org' }] } })}\n\n`,
            {
              headers: { 'content-type': 'text/event-stream' },
            },
          )
        : undefined;
    const { byId } = await run({ gen: 'v1.0', override: inStream }, ['errors.subscribe-terminal']);
    expect(byId['errors.subscribe-terminal']!.status).toBe('pass');
  });
});

describe('errors.notification', () => {
  it('an empty 204 passes; -32600 with id null passes; a TaskNotFound reply is an advisory (MAY)', async () => {
    const silent = await run({ gen: 'v1.0' }, ['errors.notification']);
    expect(silent.byId['errors.notification']!.status).toBe('pass');
    const invalid = await run(
      { gen: 'v0.3', override: (h) => (!h.hasId && h.method === 'tasks/get' ? rpcError('v0.3', null, -32600, 'id required') : undefined) },
      ['errors.notification'],
    );
    expect(invalid.byId['errors.notification']!.status).toBe('pass');
    const replies = await run(
      { gen: 'v1.0', override: (h) => (!h.hasId && h.method === 'GetTask' ? rpcError('v1.0', null, -32001, 'not found') : undefined) },
      ['errors.notification'],
    );
    expect(replies.byId['errors.notification']!.status).toBe('advisory');
    expect(replies.byId['errors.notification']!.message).toMatch(/TaskNotFound means it was processed as a request/);
  });

  it('a -32600 refusal under a non-null id answers the notification: an advisory (MAY), not the id-null rejection', async () => {
    for (const id of [0, 'n-1']) {
      const { byId } = await run(
        { gen: 'v0.3', override: (h) => (!h.hasId && h.method === 'tasks/get' ? rpcError('v0.3', id, -32600, 'id required') : undefined) },
        ['errors.notification'],
      );
      expect(byId['errors.notification']!.status, String(id)).toBe('advisory');
      expect(byId['errors.notification']!.message).toBe(
        `A tasks/get notification (no "id" member): answered with error -32600 (id ${JSON.stringify(id)}); JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.`,
      );
    }
  });

  it('is not applicable on HTTP+JSON', async () => {
    const { byId } = await run({ gen: 'v1.0', rest: true }, ['errors.notification']);
    expect(byId['errors.notification']!.status).toBe('skip');
  });
});

// ---------------------------------------------------------------- the real test agent

describe('the clean test agent passes the new checks', () => {
  const NEW = ['errors.unknown-task-message', 'errors.context-mismatch', 'errors.subscribe-terminal', 'errors.streaming-unsupported', 'errors.notification'];
  const agents: RunningDefectAgent[] = [];
  let v1: RunningDefectAgent;
  let v1rest: RunningDefectAgent;
  let v03: RunningDefectAgent;
  beforeAll(async () => {
    const o = { slowTaskMs: 300, stepMs: 10 } as const;
    [v1, v1rest, v03] = await Promise.all([
      startDefectAgent({ generation: 'v1.0', ...o }),
      startDefectAgent({ generation: 'v1.0', binding: 'HTTP+JSON', ...o }),
      startDefectAgent({ generation: 'v0.3', ...o }),
    ]);
    agents.push(v1, v1rest, v03);
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
  });
  const realRun = async (a: RunningDefectAgent) => {
    const report = await runConformance(createNodeHost(), { agentUrl: a.cardUrl.replace(/\/\.well-known\/.*$/, ''), only: NEW, timeoutMs: 5000 }, () => {});
    return Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  };

  it('v1.0 JSON-RPC', async () => {
    const byId = await realRun(v1);
    expect(byId['errors.unknown-task-message']!.status).toBe('pass');
    expect(byId['errors.context-mismatch']!.status).toBe('pass');
    expect(byId['errors.subscribe-terminal']!.status).toBe('pass');
    expect(byId['errors.streaming-unsupported']!.status).toBe('skip');
    expect(byId['errors.notification']!.status).toBe('pass');
  });

  it('v1.0 HTTP+JSON', async () => {
    const byId = await realRun(v1rest);
    expect(byId['errors.unknown-task-message']!.status).toBe('pass');
    expect(byId['errors.context-mismatch']!.status).toBe('pass');
    expect(byId['errors.subscribe-terminal']!.status).toBe('pass');
    expect(byId['errors.notification']!.status).toBe('skip');
  });

  it('v0.3 JSON-RPC: a subscription to a finished task delivers the final state and closes', async () => {
    const byId = await realRun(v03);
    expect(byId['errors.unknown-task-message']!.status).toBe('pass');
    expect(byId['errors.context-mismatch']!.status).toBe('skip');
    expect(byId['errors.subscribe-terminal']!.status).toBe('pass');
    expect(byId['errors.subscribe-terminal']!.message).toMatch(/delivered the final state .* and closed/);
  });
});

// ---------------------------------------------------------------- over gRPC

describe('the error checks over gRPC (v1.0.1 §5.4, §10.6): the status and ErrorInfo reason from the error table', () => {
  const ONLY = [
    'errors.task-not-found',
    'errors.cancel-terminal',
    'errors.version-unsupported',
    'errors.version-missing',
    'errors.unknown-method',
    'errors.invalid-params',
    'errors.shape',
  ];
  const grpc = createGrpcTransport();
  let agent: RunningDefectAgent;
  beforeAll(async () => {
    agent = await startDefectAgent({ generation: 'v1.0', binding: 'GRPC', slowTaskMs: 300, stepMs: 10 });
  });
  afterAll(async () => {
    await agent.close();
    grpc.close();
  });
  const grpcRun = async () => {
    const report = await runConformance(
      createNodeHost({ grpc }),
      { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), only: ONLY, timeoutMs: 5000 },
      () => {},
    );
    return Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  };

  it('the clean agent passes, naming the gRPC status and reason it got', async () => {
    agent.setDefects([]);
    agent.setPermitted([]);
    const byId = await grpcRun();
    expect(byId['errors.task-not-found']!.status).toBe('pass');
    expect(byId['errors.task-not-found']!.message).toMatch(/gRPC NOT_FOUND \(TASK_NOT_FOUND\)/);
    expect(byId['errors.cancel-terminal']!.status).toBe('pass');
    expect(byId['errors.cancel-terminal']!.message).toMatch(/gRPC FAILED_PRECONDITION \(TASK_NOT_CANCELABLE\)/);
    expect(byId['errors.version-unsupported']!.status).toBe('pass');
    expect(byId['errors.version-missing']!.status).toBe('pass');
  });

  it('the probes without a gRPC form are not applicable, each with its precise reason', async () => {
    const byId = await grpcRun();
    expect(byId['errors.unknown-method']!.status).toBe('skip');
    expect(byId['errors.unknown-method']!.message).toMatch(/UNIMPLEMENTED/);
    expect(byId['errors.invalid-params']!.message).toMatch(/no JSON on the gRPC wire/);
    expect(byId['errors.shape']!.message).toMatch(/no JSON on the gRPC wire/);
  });

  it('a wrong status fails with what was expected; INTERNAL without details is a plain failure, not a crash', async () => {
    agent.setDefects(['task-not-found-wrong-code']);
    try {
      const byId = await grpcRun();
      expect(byId['errors.task-not-found']!.status).toBe('fail');
      expect(byId['errors.task-not-found']!.message).toMatch(
        /expected TaskNotFound \(gRPC NOT_FOUND with ErrorInfo reason TASK_NOT_FOUND\), got gRPC INVALID_ARGUMENT/,
      );
    } finally {
      agent.setDefects([]);
    }
    agent.setDefects(['grpc-bare-errors']);
    try {
      const byId = await grpcRun();
      expect(byId['errors.cancel-terminal']!.status).toBe('fail');
      expect(byId['errors.cancel-terminal']!.critical).toBeFalsy();
      expect(byId['errors.cancel-terminal']!.message).toMatch(/got gRPC INTERNAL without an ErrorInfo/);
    } finally {
      agent.setDefects([]);
    }
  });

  it("v1.0.0's UNIMPLEMENTED passes with its reason (grpc-v100-statuses)", async () => {
    agent.setPermitted(['grpc-v100-statuses']);
    try {
      const byId = await grpcRun();
      expect(byId['errors.version-unsupported']!.status).toBe('pass');
      expect(byId['errors.version-unsupported']!.message).toMatch(/UNIMPLEMENTED \(VERSION_NOT_SUPPORTED\).*v1\.0\.0 status/);
    } finally {
      agent.setPermitted([]);
    }
  });
});
