/**
 * Each permitted behaviour of the test agent changes the wire as its description says, and the plain agent does not
 * show it (the matrix, src/engine/checks/matrix.test.ts, proves the suite accepts each one).
 * A list of independent test cases: one probe per permitted behaviour (PROBES), each run on its own.
 */
import { EXT_REQUIRED } from './extensions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Binding, Generation } from './dialect';
import { createGrpcTransport } from '../../grpc/transport';
import { PERMITTED_NAMES, startDefectAgent, type AgentBinding, type PermittedName, type RunningDefectAgent } from './index';
import { Driver, type WireJson } from './wire-client';
import { pushDeliveries } from './push-probe';

const STEP = 10;
const SLOW = 400;
const SECRET = 'tok-perm-42';
const BEARER = { Authorization: `Bearer ${SECRET}` };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface AgentSpec {
  generation: Generation;
  binding?: AgentBinding;
  auth?: boolean;
  features?: {
    push?: boolean;
    streaming?: boolean;
    extendedCard?: boolean;
    signed?: boolean;
    extensions?: boolean;
    extraInterfaces?: { url: string; binding: Binding }[];
  };
}

const SPECS = {
  v1: { generation: 'v1.0' },
  v1rest: { generation: 'v1.0', binding: 'HTTP+JSON' },
  grpc: { generation: 'v1.0', binding: 'GRPC' },
  v03: { generation: 'v0.3' },
  v03rest: { generation: 'v0.3', binding: 'HTTP+JSON' },
  v02: { generation: 'v0.2' },
  legacy: { generation: 'legacy' },
  auth: { generation: 'v1.0', auth: true },
  authV03: { generation: 'v0.3', auth: true },
  push: { generation: 'v1.0', features: { push: true } },
  pushRest: { generation: 'v1.0', binding: 'HTTP+JSON', features: { push: true } },
  nostreamV03: { generation: 'v0.3', features: { streaming: false } },
  extended: { generation: 'v1.0', auth: true, features: { extendedCard: true } },
  extendedV02: { generation: 'v0.2', auth: true, features: { extendedCard: true } },
  signed: { generation: 'v1.0', features: { signed: true } },
  signedV03: { generation: 'v0.3', features: { signed: true } },
  extensions: { generation: 'v1.0', features: { extensions: true } },
  interfacesV03: { generation: 'v0.3', features: { extraInterfaces: [{ url: 'http://127.0.0.1:9/rest', binding: 'HTTP+JSON' }] } },
} satisfies Record<string, AgentSpec>;
type AgentKey = keyof typeof SPECS;

interface Probe {
  agent: AgentKey;
  /** Observes the wire and returns true when the behaviour is visible. */
  shows(d: Driver, a: RunningDefectAgent): Promise<boolean>;
}

const grpcTransport = createGrpcTransport();
/** A unary call to the agent's gRPC front, with the details of its status. */
const grpcCall = (a: RunningDefectAgent, method: string, message: unknown, version = '1.0') =>
  grpcTransport.unary({ url: a.url, method: `/lf.a2a.v1.A2AService/${method}`, message, metadata: { 'a2a-version': version }, timeoutMs: 5000 });
const reasonsOf = (details: unknown[]) => details.map((x) => (x as WireJson).reason).filter(Boolean);

const cardRes = (a: RunningDefectAgent, headers: Record<string, string> = {}) => fetch(a.cardUrl, { headers });
const cardOf = async (a: RunningDefectAgent, headers: Record<string, string> = {}) => (await cardRes(a, headers)).json();
const quick = async (d: Driver) => (await d.send('Write a haiku')).task;
const slowTask = async (d: Driver) => (await d.send('Prepare the slow report', { nonBlocking: true })).task;
const statesOf = (d: Driver, events: WireJson[]) =>
  events
    .map((f) => d.payload(f))
    .filter((p) => d.kindOf(p) === 'status' || d.kindOf(p) === 'task')
    .map((p) => d.stateOf(p));
/** A raw POST without the Driver's defaults. */
const rawPost = async (url: string, body: string, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });
  const text = await r.text();
  let json: WireJson;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
};
const rpcBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
/** A JSON-RPC notification: no id member. */
const notificationBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: '2.0', method, params });
const b64json = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
const bookAndAnswer = async (d: Driver, o: { contextId?: string } = {}) => {
  const t = (await d.send('Book a table')).task;
  const r = await d.send('Friday', { taskId: t.id, contextId: o.contextId ?? t.contextId, nonBlocking: true });
  return { t, r };
};

const PROBES: Record<PermittedName, Probe> = {
  // ------------------------------------------------------------------ card
  'grpc-interface': {
    agent: 'v1',
    shows: async (_d, a) => (await cardOf(a)).supportedInterfaces.some((i: WireJson) => i.protocolBinding === 'GRPC' && /^[\w.-]+:\d+$/.test(i.url)),
  },
  'card-protected': {
    agent: 'auth',
    shows: async (_d, a) => (await cardRes(a)).status === 401 && (await cardRes(a, BEARER)).status === 200,
  },
  'card-protected-spa': {
    agent: 'auth',
    shows: async (_d, a) => {
      const page = await fetch(`${new URL(a.cardUrl).origin}/settings/profile`);
      return (await cardRes(a)).status === 401 && page.status === 200 && (page.headers.get('content-type') ?? '').startsWith('text/html');
    },
  },
  'card-extra-fields': {
    agent: 'v1',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return (
        c['x-vendor'] !== undefined && c.skills[0]['x-vendor'] !== undefined && (c.capabilities.extensions ?? []).some((x: WireJson) => x.uri === undefined)
      );
    },
  },
  'card-empty-strings': { agent: 'v1', shows: async (_d, a) => (await cardOf(a)).description === '' },
  'card-legacy-nulls': {
    agent: 'legacy',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return c.provider === null && c.skills.some((s: WireJson) => s.description === null && s.inputModes === null);
    },
  },
  'card-media-ranges': { agent: 'v1', shows: async (_d, a) => (await cardOf(a)).skills[0].inputModes.includes('text/*') },
  'card-skill-modes-empty': { agent: 'v1', shows: async (_d, a) => (await cardOf(a)).skills[0].inputModes.length === 0 },
  'card-content-type-charset': { agent: 'v1', shows: async (_d, a) => /charset=utf-8/i.test((await cardRes(a)).headers.get('content-type') ?? '') },
  'card-both-paths': {
    agent: 'v1',
    shows: async (_d, a) => (await cardRes(a)).status === 200 && (await fetch(a.cardUrl.replace('agent-card.json', 'agent.json'))).status === 200,
  },
  'card-dual-v03-v1': {
    agent: 'v1',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      const old = await rawPost(a.url, rpcBody('tasks/get', { id: crypto.randomUUID() }));
      return c.protocolVersion === '0.3.0' && Array.isArray(c.supportedInterfaces) && old.json?.error?.code === -32001;
    },
  },
  'card-v03-no-preferred-transport': { agent: 'v03', shows: async (_d, a) => !('preferredTransport' in (await cardOf(a))) },
  'card-shared-url-transports': {
    agent: 'v03',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return c.additionalInterfaces.some((i: WireJson) => i.transport === 'GRPC' && i.url === c.url);
    },
  },
  'card-custom-binding-uri': {
    agent: 'v1',
    shows: async (_d, a) => (await cardOf(a)).supportedInterfaces.some((i: WireJson) => /^https:\/\//.test(i.protocolBinding)),
  },
  'card-varies-by-version': {
    agent: 'v1',
    shows: async (_d, a) => {
      const withV = await cardRes(a, { 'A2A-Version': '1.0' });
      const [x, y] = await Promise.all([withV.json(), cardOf(a)]);
      return x.description !== y.description && /a2a-version/i.test(withV.headers.get('vary') ?? '');
    },
  },
  'card-revalidate': { agent: 'v1', shows: async (_d, a) => /no-cache/.test((await cardRes(a)).headers.get('cache-control') ?? '') },
  'card-signed-per-request': {
    agent: 'signed',
    shows: async (_d, a) => (await cardOf(a)).signatures[0].signature !== (await cardOf(a)).signatures[0].signature,
  },
  'card-alg-unprotected': {
    agent: 'signedV03',
    shows: async (_d, a) => {
      const sig = (await cardOf(a)).signatures[0];
      return sig.header?.alg === 'ES256' && b64json(sig.protected).alg === undefined;
    },
  },
  'card-signature-unknown-kid': {
    agent: 'signed',
    shows: async (_d, a) => {
      const kid = b64json((await cardOf(a)).signatures[0].protected).kid;
      const jwks = await (await fetch(new URL('/.well-known/jwks.json', a.cardUrl))).json();
      return typeof kid === 'string' && !jwks.keys.some((k: { kid?: string }) => k.kid === kid);
    },
  },
  'extension-activated-not-listed': {
    agent: 'extensions',
    shows: async (_d, a) => {
      const body = rpcBody('SendMessage', { message: { messageId: 'm-ext', role: 'ROLE_USER', parts: [{ text: 'Write a haiku' }] } });
      const r = await rawPost(a.url, body, { 'A2A-Version': '1.0', 'A2A-Extensions': EXT_REQUIRED });
      return !r.json?.error && r.headers.get('a2a-extensions') === null;
    },
  },
  'card-signature-jku-404': {
    agent: 'signed',
    shows: async (_d, a) => (await fetch(b64json((await cardOf(a)).signatures[0].protected).jku)).status === 404,
  },
  'card-oauth-flows': {
    agent: 'auth',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return c.securitySchemes.oauth?.oauth2SecurityScheme?.flows?.deviceCode?.tokenUrl !== undefined && c.securityRequirements.length === 2;
    },
  },
  'auth-optional': {
    agent: 'authV03',
    shows: async (d, a) => {
      const c = await cardOf(a);
      return JSON.stringify(c.security[0]) === '{}' && (await d.send('hello', {}, { Authorization: '' })).wire.status === 200;
    },
  },
  'extended-not-configured': { agent: 'extended', shows: async (d) => (await d.rpc('GetExtendedAgentCard', {})).error?.code === -32007 },
  'extended-v02-rpc': {
    agent: 'extendedV02',
    shows: async (d, a) => {
      const get = await fetch(`${new URL(a.url).origin}/agent/authenticatedExtendedCard`, { headers: BEARER });
      await get.text();
      return get.status === 404 && typeof (await d.rpc('agent/authenticatedExtendedCard', {})).result?.name === 'string';
    },
  },
  // ------------------------------------------------------------------ tasks
  'image-only-skill': { agent: 'v1', shows: async (d) => (await d.send('Make a thumbnail of this picture')).error?.code === -32005 },
  'video-only-skill': { agent: 'v1', shows: async (d) => (await d.send('Transcode this clip')).error?.code === -32005 },
  'content-type-validation-error': {
    agent: 'v1',
    shows: async (d) => {
      const e = (await d.send('Transcode this clip')).error;
      return e?.code === -32602 && /content type/i.test(e.message ?? '');
    },
  },
  'task-rejected-initial': { agent: 'v1', shows: async (d) => d.stateOf((await d.send('Open the gate', { nonBlocking: true })).task) === 'rejected' },
  'strict-task-ids': { agent: 'v1', shows: async (d) => (await d.get('not-a-uuid')).error?.code === -32602 },
  'prefixed-task-ids': { agent: 'v1', shows: async (d) => /^task-[0-9a-f]{12}$/.test((await quick(d)).id) },
  'sequential-task-ids': { agent: 'v1', shows: async (d) => /^t-\d{6}$/.test((await quick(d)).id) },
  'skip-working': { agent: 'v1', shows: async (d) => !statesOf(d, (await d.stream('stream', 'hello')).events).includes('working') },
  'back-to-submitted': {
    agent: 'v1',
    shows: async (d) => {
      const s = statesOf(d, (await d.stream('stream', 'Write a haiku')).events);
      return s.some((x, i) => x === 'submitted' && s.slice(0, i).includes('working'));
    },
  },
  'asks-again': {
    agent: 'v1',
    shows: async (d) => {
      const { t } = await bookAndAnswer(d);
      await wait(60);
      const back = (await d.get(t.id)).result;
      return d.stateOf(back) === 'input-required' && JSON.stringify(back.history).includes('Friday');
    },
  },
  'answer-message-reply': { agent: 'v1', shows: async (d) => (await bookAndAnswer(d)).r.result?.message !== undefined },
  'cancel-async': {
    agent: 'v1',
    shows: async (d) => {
      const t = await slowTask(d);
      const c = await d.cancel(t.id);
      await wait(500);
      return d.stateOf(c.result) !== 'canceled' && d.stateOf((await d.get(t.id)).result) === 'canceled';
    },
  },
  'history-fewer': { agent: 'v1', shows: async (d) => (await d.get((await quick(d)).id, 2)).result.history.length < 2 },
  'timestamps-offset': { agent: 'v03', shows: async (d) => (await quick(d)).status.timestamp.endsWith('+00:00') },
  'timestamps-zoneless': { agent: 'v03', shows: async (d) => /T\d\d:\d\d:\d\d\.\d+$/.test((await quick(d)).status.timestamp) },
  'timestamps-lowercase': { agent: 'legacy', shows: async (d) => /^\d{4}-\d\d-\d\dt.*z$/.test((await quick(d)).status.timestamp) },
  'v1-no-task-context': { agent: 'v1', shows: async (d) => (await quick(d)).contextId === undefined },
  'extra-fields': { agent: 'v1', shows: async (d) => (await quick(d)).metadata !== undefined },
  'rate-limit-once': {
    agent: 'v1',
    shows: async (_d, a) => {
      const h = { 'A2A-Version': '1.0' };
      const first = await rawPost(a.url, rpcBody('GetTask', { id: 'x' }), h);
      const second = await rawPost(a.url, rpcBody('GetTask', { id: 'x' }), h);
      return first.status === 429 && first.headers.get('retry-after') === '1' && second.status === 200;
    },
  },
  'list-small-pages': {
    agent: 'v1',
    shows: async (d) => {
      const ctx = crypto.randomUUID();
      for (const x of ['one', 'two', 'three']) await d.send(`hello ${x}`, { contextId: ctx });
      const page = (await d.list({ contextId: ctx, pageSize: 10 })).result;
      return page.tasks.length === 2 && page.nextPageToken !== '';
    },
  },
  'context-rejected': { agent: 'v1', shows: async (d) => (await d.send('hello', { contextId: crypto.randomUUID() })).error?.code === -32602 },
  'push-token-masked': { agent: 'push', shows: async (d) => (await d.pushSet((await slowTask(d)).id)).result?.token === '****' },
  'push-delete-204': {
    agent: 'pushRest',
    shows: async (d, a) => {
      const t = await slowTask(d);
      const set = await d.pushSet(t.id);
      const r = await fetch(`${a.url}/tasks/${t.id}/pushNotificationConfigs/${set.result.id}`, { method: 'DELETE', headers: { 'A2A-Version': '1.0' } });
      return r.status === 204;
    },
  },
  'push-second-delete-not-found': {
    agent: 'push',
    shows: async (d) => {
      const t = await slowTask(d);
      const set = await d.pushSet(t.id);
      await d.rpc('DeleteTaskPushNotificationConfig', { taskId: t.id, id: set.result.id });
      return (await d.rpc('DeleteTaskPushNotificationConfig', { taskId: t.id, id: set.result.id })).error !== undefined;
    },
  },
  // ------------------------------------------------------------------ streaming
  'sse-crlf': { agent: 'v1', shows: async (d) => (await d.stream('stream', 'Write a haiku')).raw.includes('\r\n') },
  'sse-cr': { agent: 'v1', shows: async (d) => /\r(?!\n)/.test((await d.stream('stream', 'Write a haiku')).raw) },
  'sse-bom': { agent: 'v1', shows: async (d) => (await d.stream('stream', 'Write a haiku')).raw.startsWith('\uFEFF') },
  'sse-multiline-data': { agent: 'v1', shows: async (d) => /^data: .*\ndata: /m.test((await d.stream('stream', 'Write a haiku')).raw) },
  'sse-fields': {
    agent: 'v1',
    shows: async (d) => {
      const raw = (await d.stream('stream', 'Write a haiku')).raw;
      return raw.includes('\nevent: message') && /\nid: \d+/.test(raw);
    },
  },
  'sse-unknown-fields': {
    agent: 'v1',
    shows: async (d) => {
      const raw = (await d.stream('stream', 'Write a haiku')).raw;
      return raw.includes('foo: bar') && raw.includes('retry: soon');
    },
  },
  gzip: {
    agent: 'v1',
    shows: async (_d, a) => {
      const card = await fetch(a.cardUrl, { headers: { 'Accept-Encoding': 'gzip' } });
      const json = await card.json();
      return card.headers.get('content-encoding') === 'gzip' && /Defect agent/.test(json.name);
    },
  },
  'stream-open-at-auth-required': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('stream', 'Sign in to my calendar', { timeoutMs: 600 });
      return !s.ended && statesOf(d, s.events).includes('auth-required');
    },
  },
  'stream-task-snapshot': {
    agent: 'v1',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      const last = ps[ps.length - 1];
      return d.kindOf(last) === 'task' && d.stateOf(last) === 'completed' && d.kindOf(ps[ps.length - 2]) === 'status';
    },
  },
  'stream-ends-with-task': {
    agent: 'v03',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      const last = ps[ps.length - 1];
      return d.kindOf(last) === 'task' && d.stateOf(last) === 'completed' && ps.every((p) => p.final !== true);
    },
  },
  'stream-first-terminal-status': {
    agent: 'v03',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      return ps.length === 1 && d.kindOf(ps[0]) === 'status' && ps[0].final === true && d.stateOf(ps[0]) === 'completed';
    },
  },
  'artifact-in-task': {
    agent: 'v1',
    shows: async (d) => {
      const first = d.payload((await d.stream('stream', 'Write a haiku')).events[0]);
      return d.kindOf(first) === 'task' && first.artifacts?.length === 1;
    },
  },
  'disconnect-cancels': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('stream', 'Prepare the slow report', { timeoutMs: 100 });
      const id = d.payload(s.events[0]).id;
      await wait(50);
      return d.stateOf((await d.get(id)).result) === 'canceled';
    },
  },
  'cors-minimal': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.url, {
        method: 'OPTIONS',
        headers: { Origin: 'http://x.test', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
      await r.text();
      return r.status === 204 && r.headers.get('access-control-allow-origin') === '*' && r.headers.get('access-control-allow-methods') === null;
    },
  },
  'rest-url-v1': {
    agent: 'interfacesV03',
    shows: async (_d, a) => (await cardOf(a)).additionalInterfaces.some((i: WireJson) => i.transport === 'HTTP+JSON' && i.url.endsWith('/v1')),
  },
  'endpoint-path': {
    agent: 'v1',
    shows: async (_d, a) => {
      const url: string = (await cardOf(a)).supportedInterfaces[0].url;
      const r = await rawPost(url, rpcBody('GetTask', { id: 'x' }), { 'A2A-Version': '1.0' });
      return url.endsWith('/a2a') && r.json?.error?.code === -32001;
    },
  },
  // ------------------------------------------------------------------ errors and auth
  'jsonrpc-error-http-status': { agent: 'v1', shows: async (d) => (await d.get('missing')).wire.status === 404 },
  'notification-invalid-request': { agent: 'v1', shows: async (d) => (await d.post(notificationBody('GetTask', { id: 'x' }))).json?.error?.code === -32600 },
  'notification-202': {
    agent: 'v1',
    shows: async (d) => {
      const r = await d.post(notificationBody('GetTask', { id: 'x' }));
      return r.status === 202 && r.text === '';
    },
  },
  'duplicate-cancel-not-found': {
    agent: 'v1',
    shows: async (d) => {
      const t = await slowTask(d);
      await d.cancel(t.id);
      return (await d.cancel(t.id)).error?.code === -32001;
    },
  },
  'duplicate-cancel-idempotent': {
    agent: 'v1',
    shows: async (d) => {
      const t = await slowTask(d);
      await d.cancel(t.id);
      const again = await d.cancel(t.id);
      return again.error === undefined && d.stateOf(again.result) === 'canceled';
    },
  },
  'rest-json-content-type': { agent: 'v1rest', shows: async (d) => /^application\/json/.test((await d.send('hello')).wire.headers.get('content-type') ?? '') },
  'rest-409-not-cancelable': { agent: 'v1rest', shows: async (d) => (await d.cancel((await quick(d)).id)).wire.status === 409 },
  'rest-501-unsupported': {
    agent: 'v03rest',
    shows: async (d) => {
      const r = await d.pushSet((await quick(d)).id);
      return r.wire.status === 501 && typeof r.wire.json?.message === 'string';
    },
  },
  'rest-message-error-body': {
    agent: 'v03rest',
    shows: async (d) => {
      const w = (await d.get('missing')).wire;
      return w.status === 404 && typeof w.json?.message === 'string' && w.json.error === undefined;
    },
  },
  'grpc-v100-statuses': {
    agent: 'grpc',
    shows: async (_d, a) => {
      const r = await grpcCall(a, 'GetTask', { id: 'missing' }, '99.0');
      return r.status === 'UNIMPLEMENTED' && reasonsOf(r.details).includes('VERSION_NOT_SUPPORTED');
    },
  },
  'grpc-error-details': {
    agent: 'grpc',
    shows: async (_d, a) => {
      const r = await grpcCall(a, 'GetTask', { id: 'missing' });
      const [first, info] = r.details as WireJson[];
      return r.status === 'NOT_FOUND' && /LocalizedMessage$/.test(String(first?.['@type'])) && typeof info?.metadata?.timestamp === 'string';
    },
  },
  'rest-status-no-status-field': {
    agent: 'v1rest',
    shows: async (d) => {
      const e = (await d.get('missing')).wire.json?.error;
      return e?.code === 404 && e.status === undefined && Array.isArray(e.details);
    },
  },
  'unknown-route-400': {
    agent: 'v1rest',
    shows: async (_d, a) => {
      const r = await fetch(`${a.url}/no-such-route`, { headers: { 'A2A-Version': '1.0' } });
      await r.text();
      return r.status === 400;
    },
  },
  'validation-422': { agent: 'v03rest', shows: async (_d, a) => (await rawPost(`${a.url}/v1/message:send`, '{oops')).status === 422 },
  'push-retries': {
    agent: 'push',
    shows: async (d) => (await pushDeliveries(d, SLOW)).filter((x) => /COMPLETED/.test(x.body)).length >= 2,
  },
  'push-url-validation': { agent: 'v1', shows: async (d) => (await d.pushSet((await quick(d)).id)).error?.code === -32602 },
  'version-compat-03': {
    agent: 'v1',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      const old = await rawPost(a.url, rpcBody('tasks/get', { id: crypto.randomUUID() }));
      return c.supportedInterfaces.some((i: WireJson) => i.protocolVersion === '0.3') && old.json?.error?.code === -32001;
    },
  },
  'version-problem-json': {
    agent: 'v1rest',
    shows: async (_d, a) => {
      const r = await fetch(`${a.url}/tasks/x`, { headers: { 'A2A-Version': '9.9' } });
      await r.text();
      return r.status === 400 && (r.headers.get('content-type') ?? '').startsWith('application/problem+json');
    },
  },
  'subscribe-terminal-error': { agent: 'v03', shows: async (d) => (await d.stream('resubscribe', (await quick(d)).id)).wire?.json?.error?.code === -32602 },
  'sse-error-first-event': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('resubscribe', (await quick(d)).id);
      return s.contentType.startsWith('text/event-stream') && s.events[0]?.error?.code === -32004;
    },
  },
  'no-streaming-method-not-found': { agent: 'nostreamV03', shows: async (d) => (await d.stream('stream', 'Write a haiku')).wire?.json?.error?.code === -32601 },
  'context-mismatch-not-found': { agent: 'v1', shows: async (d) => (await bookAndAnswer(d, { contextId: crypto.randomUUID() })).r.error?.code === -32001 },
  'auth-jsonrpc-error': {
    agent: 'auth',
    shows: async (_d, a) => {
      const r = await rawPost(a.url, rpcBody('GetTask', { id: 'x' }), { 'A2A-Version': '1.0' });
      return r.status === 200 && r.json?.error?.code === -32000 && r.json.id === null;
    },
  },
  'auth-403': { agent: 'auth', shows: async (_d, a) => (await rawPost(a.url, rpcBody('GetTask', { id: 'x' }), { 'A2A-Version': '1.0' })).status === 403 },
  'auth-multi-challenge': {
    agent: 'auth',
    shows: async (_d, a) =>
      /Bearer .*, Signature /.test((await rawPost(a.url, rpcBody('GetTask', { id: 'x' }), { 'A2A-Version': '1.0' })).headers.get('www-authenticate') ?? ''),
  },
  'card-rtl-text': {
    agent: 'v1',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return /\u200F/.test(String(c.name)) && /system prompt/.test(String(c.description));
    },
  },
  'redirect-same-host': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.url, { redirect: 'manual' });
      await r.text();
      return r.status === 302 && new URL(r.headers.get('location') ?? '', a.url).host === new URL(a.url).host;
    },
  },
};

describe('permitted variants: each switch changes the wire as described, and the plain agent does not show it', () => {
  const agents = {} as Record<AgentKey, RunningDefectAgent>;
  const drivers = {} as Record<AgentKey, Driver>;
  beforeAll(async () => {
    for (const [k, spec] of Object.entries(SPECS) as [AgentKey, AgentSpec][]) {
      agents[k] = await startDefectAgent({
        generation: spec.generation,
        binding: spec.binding ?? 'JSONRPC',
        stepMs: STEP,
        slowTaskMs: SLOW,
        ...(spec.auth ? { auth: { scheme: 'bearer', secret: SECRET } } : {}),
        ...(spec.features ? { features: spec.features } : {}),
      });
      drivers[k] = new Driver({
        generation: spec.generation,
        // gRPC: the probes call the front themselves (grpcCall); the Driver is not used.
        binding: spec.binding === 'GRPC' ? 'JSONRPC' : (spec.binding ?? 'JSONRPC'),
        url: agents[k].url,
        ...(spec.auth ? { headers: BEARER } : {}),
      });
    }
  });
  afterAll(async () => {
    await Promise.all(Object.values(agents).map((a) => a.close()));
    grpcTransport.close();
  });

  it('has a probe for every permitted behaviour', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...PERMITTED_NAMES].sort());
  });

  for (const name of PERMITTED_NAMES) {
    it(name, async () => {
      const p = PROBES[name];
      const a = agents[p.agent];
      a.setPermitted([]);
      expect(await p.shows(drivers[p.agent], a), 'the plain agent must not show the behaviour').toBe(false);
      a.setPermitted([name]);
      try {
        expect(await p.shows(drivers[p.agent], a), 'the behaviour must be visible on the wire').toBe(true);
      } finally {
        a.setPermitted([]);
      }
    });
  }

  it('rejects unknown permitted behaviours', () => {
    expect(() => agents.v1.setPermitted(['not-a-behaviour' as PermittedName])).toThrow(/unknown permitted behaviour/);
  });
});
