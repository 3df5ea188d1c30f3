/**
 * The test agent's own tests: a list of independent test cases, one block per setup (each clean generation and
 * binding, each auth scheme, hostile input) and one probe per defect, each showing the switch changes the wire as
 * described and the clean agent does not show it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXT_REQUIRED } from './extensions';
import { DEFECT_NAMES, type DefectName, startDefectAgent, type RunningDefectAgent } from './index';
import type { Binding, Generation } from './dialect';
import { Driver, type WireJson, pollUntil } from './wire-client';
import { HAIKU_LINES } from './skills';
import { pushDeliveries } from './push-probe';
import { createGrpcTransport } from '../../grpc/transport';

const grpcTransport = createGrpcTransport();

const STEP = 10;
const SLOW = 400;
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

const COMBOS: [Generation, Binding][] = [
  ['legacy', 'JSONRPC'],
  ['v0.2', 'JSONRPC'],
  ['v0.3', 'JSONRPC'],
  ['v0.3', 'HTTP+JSON'],
  ['v1.0', 'JSONRPC'],
  ['v1.0', 'HTTP+JSON'],
];

describe.each(COMBOS)('clean %s agent over %s', (gen, binding) => {
  let agent: RunningDefectAgent;
  let d: Driver;
  const rest = binding === 'HTTP+JSON';
  const v1 = gen === 'v1.0';
  const legacy = gen === 'legacy';

  beforeAll(async () => {
    agent = await startDefectAgent({ generation: gen, binding, stepMs: STEP, slowTaskMs: SLOW });
    d = new Driver({ generation: gen, binding, url: agent.url });
  });
  afterAll(() => agent.close());

  it('serves the card of its generation at the right well-known path, with CORS', async () => {
    const res = await fetch(agent.cardUrl, { headers: { Origin: 'http://example.test' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://example.test');
    expect(res.headers.get('etag')).toBeTruthy();
    const card = await res.json();
    expect(agent.cardUrl.endsWith(legacy || gen === 'v0.2' ? '/.well-known/agent.json' : '/.well-known/agent-card.json')).toBe(true);
    const other = agent.cardUrl.endsWith('agent.json')
      ? agent.cardUrl.replace('agent.json', 'agent-card.json')
      : agent.cardUrl.replace('agent-card.json', 'agent.json');
    expect((await fetch(other)).status).toBe(404);
    expect(card.name).toBeTypeOf('string');
    expect(card.capabilities).toMatchObject({ streaming: true, pushNotifications: false });
    expect(card.skills.length).toBeGreaterThanOrEqual(4);
    for (const s of card.skills) {
      expect(s).toMatchObject({ id: expect.any(String), name: expect.any(String), description: expect.any(String) });
      expect(s.tags.length).toBeGreaterThan(0);
      expect(s.examples.length).toBeGreaterThan(0);
    }
    if (v1) {
      expect(card.url).toBeUndefined();
      expect(card.supportedInterfaces).toEqual([{ url: agent.url, protocolBinding: binding, protocolVersion: '1.0' }]);
      expect(card.capabilities.stateTransitionHistory).toBeUndefined();
    } else {
      expect(card.url).toBe(agent.url);
      expect(card.supportedInterfaces).toBeUndefined();
      if (gen === 'v0.3') expect(card).toMatchObject({ protocolVersion: '0.3.0', preferredTransport: binding });
      if (gen === 'v0.2') expect(card).toMatchObject({ protocolVersion: '0.2.6', preferredTransport: 'JSONRPC' });
      if (legacy) expect(card.protocolVersion).toBeUndefined();
    }
    // Conditional request.
    const again = await fetch(agent.cardUrl, { headers: { 'If-None-Match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });

  it('answers CORS preflight for the card and the endpoint', async () => {
    for (const url of [agent.cardUrl, rest ? `${agent.url}${gen === 'v0.3' ? '/v1' : ''}/message:stream` : agent.url]) {
      const res = await fetch(url, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://app.test',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, a2a-version, authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('http://app.test');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase();
      for (const h of ['content-type', 'a2a-version', 'authorization']) expect(allowed).toContain(h);
    }
  });

  it('runs a quick task to completed with the streamed artifact, in the generation payload style', async () => {
    const r = await d.send('Write a haiku about interoperability');
    expect(r.error).toBeUndefined();
    expect(r.wire.status).toBe(200);
    expect(r.wire.headers.get('content-type')).toMatch(v1 && rest ? /^application\/a2a\+json/ : /^application\/json/);
    const t = r.task;
    expect(t.id).toBeTypeOf('string');
    expect(t.status.state).toBe(v1 ? 'TASK_STATE_COMPLETED' : 'completed');
    expect(t.status.timestamp).toMatch(ISO_Z);
    expect(t.artifacts[0].parts[0].text).toBe(HAIKU_LINES.join('\n'));
    if (legacy) {
      expect(t.sessionId).toBeTypeOf('string');
      expect(t.artifacts[0].parts[0].type).toBe('text');
      expect(t.history[0].role).toBe('user');
    } else if (v1) {
      expect(t.kind).toBeUndefined();
      expect(t.artifacts[0].parts[0].kind).toBeUndefined();
      expect(t.history[0].role).toBe('ROLE_USER');
      expect(t.contextId).toBeTypeOf('string');
    } else {
      expect(t.kind).toBe('task');
      expect(t.contextId).toBeTypeOf('string');
      expect(t.artifacts[0].artifactId).toBeTypeOf('string');
      expect(t.artifacts[0].parts[0].kind).toBe('text');
    }
    // tasks/get with historyLength.
    const full = await d.get(t.id);
    expect(full.result.history.length).toBeGreaterThanOrEqual(2);
    const one = await d.get(t.id, 1);
    expect(one.result.history).toHaveLength(1);
    expect(one.result.history[0].role).toBe(v1 ? 'ROLE_AGENT' : 'agent');
    if (v1) {
      const none = await d.get(t.id, 0);
      expect(none.result.history).toBeUndefined();
    }
  });

  it('legacy tasks keep the client-chosen id and session', async () => {
    if (!legacy) return;
    const r = await d.rpc('tasks/send', { id: 'client-id-1', sessionId: 'sess-1', message: { role: 'user', parts: [{ type: 'text', text: 'hello' }] } });
    expect(r.result).toMatchObject({ id: 'client-id-1', sessionId: 'sess-1', status: { state: 'completed' } });
  });

  it('streams a quick task with correct framing and closes at the end', async () => {
    const s = await d.stream('stream', 'Write a haiku');
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    expect(s.ended).toBe(true);
    if (!rest) {
      for (const f of s.events) expect(f).toMatchObject({ jsonrpc: '2.0', id: expect.anything() });
      expect(new Set(s.events.map((f) => f.id)).size).toBe(1);
    } else {
      for (const f of s.events) expect(f.jsonrpc).toBeUndefined();
    }
    const ps = s.events.map((f) => d.payload(f));
    const kinds = ps.map((p) => d.kindOf(p));
    if (!legacy) expect(kinds[0]).toBe('task');
    expect(kinds.filter((k) => k === 'artifact')).toHaveLength(3);
    const arts = ps.filter((p) => d.kindOf(p) === 'artifact');
    if (legacy) {
      expect(arts.map((a) => a.artifact.append)).toEqual([false, true, true]);
      expect(arts.map((a) => a.artifact.lastChunk)).toEqual([false, false, true]);
    } else {
      expect(arts.map((a) => a.append)).toEqual([false, true, true]);
      expect(arts.map((a) => a.lastChunk)).toEqual([false, false, true]);
    }
    const statuses = ps.filter((p) => d.kindOf(p) === 'status');
    expect(d.kindOf(ps[ps.length - 1])).toBe('status');
    expect(d.stateOf(statuses[statuses.length - 1])).toBe('completed');
    if (v1) {
      for (const p of statuses) expect('final' in p).toBe(false);
    } else {
      expect(statuses.map((p) => p.final)).toEqual([...statuses.slice(0, -1).map(() => false), true]);
    }
  });

  it('cancels a slow task, and refuses to cancel it again', async () => {
    let id: string;
    if (legacy) {
      const r = await d.send('Prepare the slow report');
      expect(r.task.status.state).toBe('working');
      id = r.task.id;
    } else {
      const r = await d.send('Prepare the slow report', { nonBlocking: true });
      expect(['submitted', 'working']).toContain(d.stateOf(r.task));
      id = r.task.id;
    }
    const c = await d.cancel(id);
    expect(c.error).toBeUndefined();
    expect(d.stateOf(c.result)).toBe('canceled');
    expect(d.stateOf((await d.get(id)).result)).toBe('canceled');
    const again = await d.cancel(id);
    expect(again.error?.code).toBe(-32002);
    if (rest) expect(again.wire.status).toBe(400);
  });

  it('slow tasks complete on their own after the configured delay', async () => {
    const t0 = Date.now();
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    const done = await pollUntil(d, r.task.id, (s) => s === 'completed', 5000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(SLOW - 20);
    expect(done.artifacts[0].name).toBe('report');
  });

  it('pauses in input-required and resumes in the same task when answered', async () => {
    const r = await d.send('Book a table for two');
    expect(d.stateOf(r.task)).toBe('input-required');
    expect(r.task.status.message.parts[0].text).toMatch(/which day/i);
    const follow = legacy
      ? await d.send('Friday', { taskId: r.task.id, contextId: r.task.sessionId })
      : await d.send('Friday', { taskId: r.task.id, contextId: r.task.contextId });
    expect(follow.error).toBeUndefined();
    expect(follow.task.id).toBe(r.task.id);
    expect(d.stateOf(follow.task)).toBe('completed');
    expect(follow.task.status.message.parts[0].text).toContain('Friday');
  });

  it('ends the failing skill in failed, and plain messages complete at once', async () => {
    const f = await d.send('Run the job that fails');
    expect(d.stateOf(f.task)).toBe('failed');
    const p = await d.send('hello there');
    expect(d.stateOf(p.task)).toBe('completed');
  });

  it('answers errors with the spec codes', async () => {
    const nf = await d.get('no-such-task');
    expect(nf.error?.code).toBe(-32001);
    const done = await d.send('hello');
    const toTerminal = legacy
      ? await d.send('again', { taskId: done.task.id })
      : await d.send('again', { taskId: done.task.id, contextId: done.task.contextId });
    expect(toTerminal.error?.code).toBe(-32004);
    if (!legacy) {
      const unknownTask = await d.send('hi', { taskId: 'no-such-task' });
      expect(unknownTask.error?.code).toBe(-32001);
    }
    const push = await d.pushSet(done.task.id);
    expect(push.error?.code).toBe(-32003);
    if (rest) {
      expect(nf.wire.status).toBe(404);
      expect(push.wire.status).toBe(400);
      expect(nf.wire.json.error).toMatchObject({ code: 404, status: 'NOT_FOUND', message: expect.any(String) });
      expect(nf.wire.json.error.details[0]).toMatchObject({
        '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
        reason: 'TASK_NOT_FOUND',
        domain: 'a2a-protocol.org',
      });
      return;
    }
    const parse = await d.post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(parse.status).toBe(200);
    expect(parse.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const invalid = await d.post('{"not": "valid jsonrpc"}');
    expect(invalid.json.error.code).toBe(-32600);
    const unknown = await d.rpc('tasks/nonexistent', {});
    expect(unknown.error?.code).toBe(-32601);
    expect(unknown.wire.json.id).toBe(unknown.wire.json.id);
    const badParams = await d.rpc(d.methodName('get'), {});
    expect(badParams.error?.code).toBe(-32602);
    const sendNoMessage = await d.rpc(d.methodName('send'), legacy ? { id: 'x' } : {});
    expect(sendNoMessage.error?.code).toBe(-32602);
    if (v1) {
      expect(nf.error?.data).toEqual([expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' })]);
    }
  });

  it('resubscribes to a running task and closes at its end', async () => {
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    const s = await d.stream('resubscribe', r.task.id, { timeoutMs: 3000 });
    expect(s.contentType).toMatch(/^text\/event-stream/);
    expect(s.ended).toBe(true);
    const ps = s.events.map((f) => d.payload(f));
    expect(d.kindOf(ps[0])).toBe(legacy ? 'status' : 'task');
    expect(d.stateOf(ps[ps.length - 1])).toBe('completed');
    if (v1) {
      const terminal = await d.stream('resubscribe', r.task.id);
      const code = rest ? terminal.wire?.json?.error?.details?.[0]?.reason : terminal.wire?.json?.error?.code;
      expect(code).toBe(rest ? 'UNSUPPORTED_OPERATION' : -32004);
    }
  });

  it('v1.0: negotiates A2A-Version (missing means 0.3, which this agent does not speak)', async () => {
    if (!v1) return;
    const missing = await d.send('hello', {}, { 'A2A-Version': '' });
    expect(missing.error?.code).toBe(-32009);
    const future = await d.send('hello', {}, { 'A2A-Version': '2.0' });
    expect(future.error?.code).toBe(-32009);
    const patch = await d.send('hello', {}, { 'A2A-Version': '1.0.7' });
    expect(patch.error).toBeUndefined();
    if (rest) expect(missing.wire.status).toBe(400);
  });

  it('v1.0: returnImmediately returns the task at once; ListTasks pages newest first', async () => {
    if (!v1) return;
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    // At once: the task came back before it started working (its state says so; a stopwatch would fail on a busy machine).
    expect(d.stateOf(r.task)).toBe('submitted');
    const ctx = crypto.randomUUID();
    const a = await d.send('hello one', { contextId: ctx });
    await new Promise((res) => setTimeout(res, 5));
    const b = await d.send('Write a haiku', { contextId: ctx });
    const page1 = await d.list({ contextId: ctx, pageSize: 1 });
    expect(page1.result).toMatchObject({ pageSize: 1, totalSize: 2 });
    expect(page1.result.tasks.map((t: WireJson) => t.id)).toEqual([b.task.id]);
    expect(page1.result.tasks[0].artifacts).toBeUndefined();
    expect(page1.result.nextPageToken).not.toBe('');
    const page2 = await d.list({ contextId: ctx, pageSize: 1, pageToken: page1.result.nextPageToken });
    expect(page2.result.tasks.map((t: WireJson) => t.id)).toEqual([a.task.id]);
    expect(page2.result.nextPageToken).toBe('');
    const withArtifacts = await d.list({ contextId: ctx, includeArtifacts: true });
    expect(withArtifacts.result.tasks[0].artifacts).toHaveLength(1);
    const bad = await d.list({ pageSize: 1000 });
    expect(bad.error?.code).toBe(-32602);
    const ext = rest
      ? await fetch(`${agent.url}/extendedAgentCard`, { headers: { 'A2A-Version': '1.0' } }).then(async (x) => ({ status: x.status, body: await x.json() }))
      : await d.rpc('GetExtendedAgentCard', {});
    if (rest) expect((ext as WireJson).body.error.details[0].reason).toBe('UNSUPPORTED_OPERATION');
    else expect((ext as WireJson).error.code).toBe(-32004);
  });

  it('records every request it receives', async () => {
    const before = agent.requests.length;
    await d.get('recorded-id');
    const rec = agent.requests[agent.requests.length - 1]!;
    expect(agent.requests.length).toBe(before + 1);
    expect(rec.method).toBe(rest ? 'GET' : 'POST');
    if (!rest) expect(JSON.parse(rec.body).params.id).toBe('recorded-id');
    else expect(rec.path).toContain('recorded-id');
    expect(rec.headers['content-type']).toBeTruthy();
  });
});

describe.each([
  ['bearer', undefined],
  ['apiKey', 'X-Partner-Key'],
] as const)('auth: %s', (scheme, header) => {
  let agent: RunningDefectAgent;
  beforeAll(async () => {
    agent = await startDefectAgent({ generation: 'v0.3', auth: { scheme, secret: 's3cret-token', ...(header ? { header } : {}) }, stepMs: STEP });
  });
  afterAll(() => agent.close());

  it('keeps the card public, declares the scheme, and rejects missing or wrong credentials', async () => {
    const card = await (await fetch(agent.cardUrl)).json();
    const name = scheme === 'bearer' ? 'bearer' : 'apiKey';
    expect(card.security).toEqual([{ [name]: [] }]);
    expect(card.securitySchemes[name]).toEqual(
      scheme === 'bearer' ? { type: 'http', scheme: 'bearer', bearerFormat: 'opaque' } : { type: 'apiKey', in: 'header', name: header },
    );
    const d = new Driver({ generation: 'v0.3', binding: 'JSONRPC', url: agent.url });
    const none = await d.send('hello');
    expect(none.wire.status).toBe(401);
    if (scheme === 'bearer') expect(none.wire.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const wrong = await d.send('hello', {}, scheme === 'bearer' ? { Authorization: 'Bearer nope' } : { [header!]: 'nope' });
    expect(wrong.wire.status).toBe(scheme === 'bearer' ? 401 : 403);
    const ok = await d.send('hello', {}, scheme === 'bearer' ? { Authorization: 'Bearer s3cret-token' } : { [header!]: 's3cret-token' });
    expect(ok.wire.status).toBe(200);
    expect(ok.task.status.state).toBe('completed');
    // Preflight never needs credentials.
    const pre = await fetch(agent.url, { method: 'OPTIONS', headers: { Origin: 'http://x.test', 'Access-Control-Request-Method': 'POST' } });
    expect(pre.status).toBe(204);
  });
});

describe('hostile input', () => {
  let agent: RunningDefectAgent;
  beforeAll(async () => {
    agent = await startDefectAgent({ generation: 'v1.0', stepMs: STEP });
  });
  afterAll(() => agent.close());

  it('refuses oversized bodies, wrong methods and odd JSON without crashing', async () => {
    const big = await fetch(agent.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' },
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect((await fetch(agent.url)).status).toBe(405);
    const d = new Driver({ generation: 'v1.0', binding: 'JSONRPC', url: agent.url });
    for (const body of [
      '[]',
      '[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]',
      'null',
      '"str"',
      '{"jsonrpc":"2.0","id":{"a":1},"method":"GetTask"}',
    ]) {
      const r = await d.post(body);
      expect(r.status).toBe(200);
      expect(r.json.error.code).toBe(-32600);
      expect(r.json.id).toBe(null);
    }
    const weird = await d.rpc('SendMessage', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: '<script>alert(1)</script>' }] } });
    expect(weird.result.task.history[0].parts[0].text).toBe('<script>alert(1)</script>');
    const longIdMessage: string = (await d.rpc('GetTask', { id: 'x'.repeat(100_000) })).error?.message ?? '';
    expect(longIdMessage.length).toBeGreaterThan(0);
    expect(longIdMessage.length).toBeLessThan(300);
    expect((await fetch(`${agent.url}/.well-known/agent-card.json`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${agent.url}/somewhere/else`)).status).toBe(404);
  });
});

// ------------------------------------------------------------------------------------------ defects

interface Agents {
  v1: RunningDefectAgent;
  v1rest: RunningDefectAgent;
  v03: RunningDefectAgent;
  legacy: RunningDefectAgent;
  auth: RunningDefectAgent;
  authLegacy: RunningDefectAgent;
  signed: RunningDefectAgent;
  extensions: RunningDefectAgent;
  push: RunningDefectAgent;
  nostream: RunningDefectAgent;
  extended: RunningDefectAgent;
  interfaces: RunningDefectAgent;
  grpc: RunningDefectAgent;
}
type AgentKey = keyof Agents;

interface Probe {
  agent: AgentKey;
  /** Observes the wire and returns true when the defect is visible. */
  shows(d: Driver, a: RunningDefectAgent): Promise<boolean>;
}

const cardOf = async (a: RunningDefectAgent, headers: Record<string, string> = {}) => (await fetch(a.cardUrl, { headers })).json();
const schemeValues = (card: WireJson): WireJson[] => Object.values(card.securitySchemes ?? {});
const quick = async (d: Driver) => (await d.send('Write a haiku')).task;
const slowTask = async (d: Driver) => (await d.send('Prepare the slow report', { nonBlocking: true })).task;
const statesOf = (d: Driver, events: WireJson[]) =>
  events
    .map((f) => d.payload(f))
    .filter((p) => d.kindOf(p) === 'status' || d.kindOf(p) === 'task')
    .map((p) => d.stateOf(p));
const BEARER = { Authorization: 'Bearer tok-123456' };
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A raw JSON-RPC POST without the Driver's defaults (no A2A-Version, no credentials unless given). */
const rawRpc = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: text ? JSON.parse(text) : undefined };
};

/** A v1.0 JSON-RPC SendMessage with the given headers (extensions probes). */
const extensionSend = (a: RunningDefectAgent, headers: Record<string, string>) =>
  rawRpc(
    a.url,
    { jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm-ext', role: 'ROLE_USER', parts: [{ text: 'Write a haiku' }] } } },
    { 'A2A-Version': '1.0', ...headers },
  );

const PROBES: Record<DefectName, Probe> = {
  // ------------------------------------------------------------------ card
  'card-capabilities-array': { agent: 'v03', shows: async (_d, a) => Array.isArray((await cardOf(a)).capabilities) },
  'card-bad-signature': { agent: 'signed', shows: async (_d, a) => !/^[A-Za-z0-9_-]+$/.test((await cardOf(a)).signatures[0].protected) },
  'card-capabilities-strings': { agent: 'v03', shows: async (_d, a) => typeof (await cardOf(a)).capabilities.streaming === 'string' },
  'card-signature-tampered': { agent: 'signed', shows: async (_d, a) => / \(edited after signing\)$/.test((await cardOf(a)).description) },
  'card-missing-skills': { agent: 'v1', shows: async (_d, a) => !('skills' in (await cardOf(a))) },
  'card-skill-no-description': { agent: 'v1', shows: async (_d, a) => (await cardOf(a)).skills[0].description === undefined },
  'card-modes-not-list': { agent: 'v1', shows: async (_d, a) => typeof (await cardOf(a)).defaultInputModes === 'string' },
  'card-mode-shorthand': { agent: 'v1', shows: async (_d, a) => (await cardOf(a)).defaultInputModes[0] === 'text' },
  'card-html-404': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl);
      await r.text();
      return r.status === 404 && (r.headers.get('content-type') ?? '').startsWith('text/html');
    },
  },
  'card-bom': {
    agent: 'v1',
    shows: async (_d, a) => {
      const b = new Uint8Array(await (await fetch(a.cardUrl)).arrayBuffer());
      return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
    },
  },
  'card-wrong-content-type': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl);
      await r.text();
      return !(r.headers.get('content-type') ?? '').startsWith('application/json');
    },
  },
  'card-no-content-type': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl);
      await r.text();
      return r.headers.get('content-type') === null;
    },
  },
  'card-relative-url': {
    agent: 'v03',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      return !/^https?:\/\//.test(c.url) || !/^https?:\/\//.test(c.additionalInterfaces[0].url);
    },
  },
  'card-doc-url-javascript': { agent: 'v1', shows: async (_d, a) => String((await cardOf(a)).documentationUrl).startsWith('javascript:') },
  'card-doc-url-not-string': { agent: 'v1', shows: async (_d, a) => typeof (await cardOf(a)).documentationUrl === 'object' },
  'card-undeclared-security': {
    agent: 'v1',
    shows: async (_d, a) => {
      const c = await cardOf(a);
      const declared = new Set(Object.keys(c.securitySchemes ?? {}));
      return (c.securityRequirements ?? []).some((r: WireJson) => Object.keys(r.schemes).some((n) => !declared.has(n)));
    },
  },
  'card-oauth-no-token-url': {
    agent: 'v1',
    shows: async (_d, a) => schemeValues(await cardOf(a)).some((s) => s.oauth2SecurityScheme && !s.oauth2SecurityScheme.flows?.clientCredentials?.tokenUrl),
  },
  'card-oauth-relative-url': {
    agent: 'v1',
    shows: async (_d, a) => schemeValues(await cardOf(a)).some((s) => s.oauth2SecurityScheme?.flows?.password?.tokenUrl === '/oauth/token'),
  },
  'card-apikey-no-name': {
    agent: 'v1',
    shows: async (_d, a) => schemeValues(await cardOf(a)).some((s) => s.apiKeySecurityScheme && !s.apiKeySecurityScheme.name),
  },
  'card-legacy-schemes-string': { agent: 'authLegacy', shows: async (_d, a) => typeof (await cardOf(a)).authentication.schemes === 'string' },
  'card-interface-no-version': {
    agent: 'v1',
    shows: async (_d, a) => (await cardOf(a)).supportedInterfaces.some((i: WireJson) => i.protocolVersion === undefined),
  },
  'card-binding-spelling': {
    agent: 'v1',
    shows: async (_d, a) => (await cardOf(a)).supportedInterfaces.some((i: WireJson) => i.protocolBinding === 'jsonrpc'),
  },
  'card-behind-auth': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl);
      await r.text();
      return r.status === 401;
    },
  },
  'card-huge': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl, { method: 'HEAD' });
      return Number(r.headers.get('content-length')) > 19 * 1024 * 1024;
    },
  },
  'card-legacy-path-only': {
    agent: 'v1',
    shows: async (_d, a) => {
      const n = await fetch(a.cardUrl);
      const o = await fetch(a.cardUrl.replace('agent-card.json', 'agent.json'));
      await Promise.all([n.text(), o.text()]);
      return n.status === 404 && o.status === 200;
    },
  },
  'card-no-cache-headers': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl);
      await r.text();
      return !r.headers.get('cache-control') && !r.headers.get('etag');
    },
  },
  'card-varies-no-vary': {
    agent: 'v1',
    shows: async (_d, a) => {
      const withV = await fetch(a.cardUrl, { headers: { 'A2A-Version': '1.0' } });
      const without = await fetch(a.cardUrl);
      const [x, y] = await Promise.all([withV.json(), without.json()]);
      return x.description !== y.description && !/a2a-version/i.test(withV.headers.get('vary') ?? '');
    },
  },
  'extended-card-anonymous': {
    agent: 'extended',
    shows: async (_d, a) =>
      (await rawRpc(a.url, { jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }, { 'A2A-Version': '1.0' })).json?.result?.name !== undefined,
  },
  // ------------------------------------------------------------------ tasks
  'send-returns-message': {
    agent: 'v1',
    shows: async (d) => {
      const r = await d.send('Write a haiku');
      return r.task === undefined && r.message?.role === 'ROLE_AGENT';
    },
  },
  'task-never-finishes': { agent: 'v1', shows: async (d) => d.stateOf(await quick(d)) === 'working' },
  'no-task-id': { agent: 'v1', shows: async (d) => (await quick(d)).id === undefined },
  'bad-initial-state': {
    agent: 'v1',
    shows: async (d) => !['submitted', 'working'].includes(d.stateOf(await slowTask(d))),
  },
  'task-id-changes': {
    agent: 'v1',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      return new Set(ps.map((p) => p.id ?? p.taskId)).size > 1;
    },
  },
  'duplicate-task-ids': {
    agent: 'v1',
    shows: async (d) => {
      const [x, y] = await Promise.all([d.send('Write a haiku about twins'), d.send('Write a haiku about twins')]);
      return x.task.id === y.task.id;
    },
  },
  'get-not-found-running': { agent: 'v1', shows: async (d) => (await d.get((await slowTask(d)).id)).error?.code === -32001 },
  'cancel-ignored': {
    agent: 'v1',
    shows: async (d) => d.stateOf((await d.cancel((await slowTask(d)).id)).result) !== 'canceled',
  },
  'cancel-reverts': {
    agent: 'v1',
    shows: async (d) => {
      const id = (await slowTask(d)).id;
      const answered = d.stateOf((await d.cancel(id)).result);
      // Read back until the state leaves canceled (the defect: the work completes at SLOW) or the task has had SLOW plus
      // 1.5 s of slack to do so (the clean agent); one read after a fixed SLOW + 300 ms lost the race on a busy machine.
      const until = Date.now() + SLOW + 1500;
      let state = answered;
      while (state === 'canceled' && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 25));
        state = d.stateOf((await d.get(id)).result);
      }
      return answered === 'canceled' && state === 'completed';
    },
  },
  'cancel-not-found-running': {
    agent: 'v1',
    shows: async (d) => {
      const id = (await slowTask(d)).id;
      return (await d.cancel(id)).error?.code === -32000 && d.stateOf((await d.get(id)).result) !== undefined;
    },
  },
  'cancel-internal-error': { agent: 'v1', shows: async (d) => (await d.cancel((await slowTask(d)).id)).error?.code === -32603 },
  'cancel-completed-500': { agent: 'v1', shows: async (d) => (await d.cancel((await quick(d)).id)).wire.status === 500 },
  'cancel-completed-succeeds': {
    agent: 'v1',
    shows: async (d) => {
      const c = await d.cancel((await quick(d)).id);
      return c.error === undefined && d.stateOf(c.result) === 'canceled';
    },
  },
  'cancel-canceled-wrong-code': {
    agent: 'v1',
    shows: async (d) => {
      const t = await slowTask(d);
      await d.cancel(t.id);
      return (await d.cancel(t.id)).error?.code === -32603;
    },
  },
  'no-history': { agent: 'v1', shows: async (d) => (await d.get((await quick(d)).id)).result.history === undefined },
  'history-ignores-length': { agent: 'v1', shows: async (d) => (await d.get((await quick(d)).id, 1)).result.history.length > 1 },
  'history-zero-empty': {
    agent: 'v1',
    shows: async (d) => {
      const h = (await d.get((await quick(d)).id, 0)).result.history;
      return Array.isArray(h) && h.length === 0;
    },
  },
  'input-answer-dropped': {
    agent: 'v1',
    shows: async (d) => {
      const t = (await d.send('Book a table')).task;
      await d.send('Friday', { taskId: t.id, contextId: t.contextId, nonBlocking: true });
      await wait(60);
      const back = (await d.get(t.id)).result;
      return d.stateOf(back) === 'input-required' && !JSON.stringify(back.history).includes('Friday');
    },
  },
  'context-replaced': {
    agent: 'v1',
    shows: async (d) => {
      const ctx = crypto.randomUUID();
      return (await d.send('hello', { contextId: ctx })).task.contextId !== ctx;
    },
  },
  'blocking-returns-working': { agent: 'v1', shows: async (d) => ['submitted', 'working'].includes(d.stateOf((await d.send('Prepare the slow report')).task)) },
  'blocking-answer-no-artifacts': {
    agent: 'v1',
    shows: async (d) => {
      const t = await quick(d);
      return !t.artifacts?.length && ((await d.get(t.id)).result.artifacts ?? []).length > 0;
    },
  },
  'list-no-next-page-token': { agent: 'v1', shows: async (d) => !('nextPageToken' in (await d.list({ pageSize: 100 })).result) },
  'list-includes-artifacts': {
    agent: 'v1',
    shows: async (d) => {
      const t = await quick(d);
      return ((await d.list({ contextId: t.contextId })).result.tasks[0]?.artifacts ?? []).length > 0;
    },
  },
  'list-ignores-context': {
    agent: 'v1',
    shows: async (d) => {
      await quick(d);
      return (await d.list({ contextId: crypto.randomUUID() })).result.tasks.length > 0;
    },
  },
  'list-oldest-first': {
    agent: 'v1',
    shows: async (d) => {
      await quick(d);
      await quick(d);
      const ts = ((await d.list({ pageSize: 100 })).result.tasks as WireJson[]).map((t) => Date.parse(t.status.timestamp));
      return ts.length >= 2 && ts[0]! < ts[ts.length - 1]!;
    },
  },
  'push-config-wrong-url': {
    agent: 'push',
    shows: async (d) => (await d.pushSet((await slowTask(d)).id)).result?.url !== 'http://127.0.0.1:9/hook',
  },
  'push-config-not-deleted': {
    agent: 'push',
    shows: async (d) => {
      const t = await slowTask(d);
      const set = await d.pushSet(t.id);
      await d.rpc('DeleteTaskPushNotificationConfig', { taskId: t.id, id: set.result.id });
      return (await d.rpc('GetTaskPushNotificationConfig', { taskId: t.id, id: set.result.id })).error === undefined;
    },
  },
  'push-wrong-shape': { agent: 'push', shows: async (d) => (await pushDeliveries(d, SLOW)).some((x) => !('statusUpdate' in x.json)) },
  'push-no-token': { agent: 'push', shows: async (d) => (await pushDeliveries(d, SLOW)).some((x) => x.authorization !== 'match') },
  'push-out-of-order': { agent: 'push', shows: async (d) => !/COMPLETED/.test((await pushDeliveries(d, SLOW)).at(-1)?.body ?? 'COMPLETED') },
  'push-after-delete': { agent: 'push', shows: async (d) => (await pushDeliveries(d, SLOW, { deleteFirst: true })).length > 0 },
  'wrong-rpc-id': {
    agent: 'v1',
    shows: async (d) => {
      const w = await d.post(JSON.stringify({ jsonrpc: '2.0', id: 'req-7', method: 'GetTask', params: { id: 'x' } }));
      return w.json.id !== 'req-7';
    },
  },
  'result-and-error': {
    agent: 'v1',
    shows: async (d) => {
      const w = (await d.send('hello')).wire.json;
      return 'result' in w && 'error' in w;
    },
  },
  'bad-timestamps': { agent: 'v1', shows: async (d) => !ISO_Z.test((await quick(d)).status.timestamp) },
  'relay-input-refused': { agent: 'v1', shows: async (d) => (await d.send('hello there')).error?.code === -32602 },
  // ------------------------------------------------------------------ streaming
  'sse-wrong-content-type': {
    agent: 'v1',
    shows: async (d) => !(await d.stream('stream', 'Write a haiku')).contentType.startsWith('text/event-stream'),
  },
  'sse-error-body': { agent: 'v1', shows: async (d) => (await d.stream('stream', 'Write a haiku')).wire?.json?.error?.code === -32603 },
  'sse-never-ends': { agent: 'v1', shows: async (d) => !(await d.stream('stream', 'Write a haiku', { timeoutMs: 800 })).ended },
  'sse-stall-after-complete': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('stream', 'Write a haiku', { timeoutMs: 800 });
      return !s.ended && !statesOf(d, s.events).includes('completed');
    },
  },
  'sse-events-after-final': {
    agent: 'v03',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      const i = ps.findIndex((p) => p.final === true);
      return i >= 0 && i < ps.length - 1;
    },
  },
  'stream-stale-snapshot': {
    agent: 'v1',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      const end = ps.findIndex((p) => d.kindOf(p) === 'status' && d.stateOf(p) === 'completed');
      return end >= 0 && ps.slice(end + 1).some((p) => d.kindOf(p) === 'task' && d.stateOf(p) === 'working');
    },
  },
  'sse-no-final': {
    agent: 'v03',
    shows: async (d) => (await d.stream('stream', 'Write a haiku')).events.every((f) => d.payload(f).final !== true),
  },
  'sse-error-event': {
    agent: 'v1',
    shows: async (d) => {
      const ev = (await d.stream('stream', 'Write a haiku')).events;
      return ev.length > 0 && ev[ev.length - 1].error?.code === -32603;
    },
  },
  'sse-first-not-task': {
    agent: 'v1',
    shows: async (d) => d.kindOf(d.payload((await d.stream('stream', 'Write a haiku')).events[0])) !== 'task',
  },
  'sse-bare-payload': {
    agent: 'v1',
    shows: async (d) => (await d.stream('stream', 'Write a haiku')).events.some((f) => !('jsonrpc' in f)),
  },
  'sse-multiline-no-prefix': {
    agent: 'v1',
    shows: async (d) => (await d.stream('stream', 'Write a haiku')).raw.split(/\r?\n/).some((l) => /^\s*["{}\]]/.test(l)),
  },
  'legacy-stream-own-id': {
    agent: 'legacy',
    shows: async (d) => {
      const ps = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f));
      return ps.length > 0 && ps.every((p) => typeof p.id === 'string' && p.id.endsWith('-own'));
    },
  },
  'sse-record-separator': { agent: 'v1', shows: async (d) => (await d.stream('stream', 'Write a haiku')).raw.includes('data: \u001e{') },
  'artifact-append-without-start': {
    agent: 'v1',
    shows: async (d) => {
      const art = (await d.stream('stream', 'Write a haiku')).events.map((f) => d.payload(f)).find((p) => d.kindOf(p) === 'artifact');
      return art?.append === true;
    },
  },
  'sse-no-resubscribe': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('resubscribe', (await slowTask(d)).id, { timeoutMs: 3000 });
      return s.wire?.json?.error?.code === -32601;
    },
  },
  'subscribe-terminal-replays': { agent: 'v1', shows: async (d) => (await d.stream('resubscribe', (await quick(d)).id)).events.length > 0 },
  'crash-after-disconnect': {
    agent: 'v1',
    shows: async (d) => {
      const s = await d.stream('stream', 'Prepare the slow report', { timeoutMs: 100 });
      const id = d.payload(s.events[0]).id;
      await wait(50);
      return (await d.get(id)).wire.status === 500;
    },
  },
  'streaming-undeclared-served': {
    agent: 'nostream',
    shows: async (d) => (await d.stream('stream', 'Write a haiku')).contentType.startsWith('text/event-stream'),
  },
  'streaming-undeclared-wrong-code': { agent: 'nostream', shows: async (d) => (await d.stream('stream', 'Write a haiku')).wire?.json?.error?.code === -32603 },
  // ------------------------------------------------------------------ errors
  'unknown-method-wrong-code': { agent: 'v1', shows: async (d) => (await d.rpc('tasks/nonexistent', {})).error?.code !== -32601 },
  'unknown-route-spa-fallback': {
    agent: 'v1rest',
    shows: async (_d, a) => {
      const r = await fetch(`${a.url}/no-such-route`, { headers: { 'A2A-Version': '1.0' } });
      await r.text();
      return r.status === 200 && (r.headers.get('content-type') ?? '').startsWith('text/html');
    },
  },
  'invalid-json-500': { agent: 'v1', shows: async (d) => (await d.post('{oops')).status === 500 },
  'invalid-request-wrong-code': { agent: 'v1', shows: async (d) => (await d.post('{"not": "valid jsonrpc"}')).json?.error?.code !== -32600 },
  'invalid-params-wrong-code': { agent: 'v1', shows: async (d) => (await d.rpc('GetTask', {})).error?.code !== -32602 },
  'task-not-found-wrong-code': {
    agent: 'v1',
    shows: async (d) => {
      const r = await d.get('missing');
      return r.wire.status === 200 && r.error?.code !== -32001;
    },
  },
  'task-not-found-500': { agent: 'v1', shows: async (d) => (await d.get('missing')).wire.status === 500 },
  'unknown-task-created': {
    agent: 'v1',
    shows: async (d) => {
      const id = crypto.randomUUID();
      return (await d.send('hello', { taskId: id })).task?.id === id;
    },
  },
  'context-mismatch-accepted': {
    agent: 'v1',
    shows: async (d) => {
      const t = (await d.send('Book a table')).task;
      return (await d.send('Friday', { taskId: t.id, contextId: crypto.randomUUID(), nonBlocking: true })).error === undefined;
    },
  },
  'message-to-terminal-accepted': {
    agent: 'v1',
    shows: async (d) => {
      const t = await quick(d);
      return (await d.send('again', { taskId: t.id, contextId: t.contextId })).error === undefined;
    },
  },
  'message-to-terminal-appends': {
    agent: 'v1',
    shows: async (d) => {
      const t = await quick(d);
      const r = await d.send('one more thing', { taskId: t.id, contextId: t.contextId });
      return r.error?.code === -32004 && JSON.stringify((await d.get(t.id)).result.history).includes('one more thing');
    },
  },
  'push-wrong-code': { agent: 'v1', shows: async (d) => (await d.pushSet('any')).error?.code === -32601 },
  'version-lenient': { agent: 'v1', shows: async (d) => (await d.send('hello', {}, { 'A2A-Version': '' })).error === undefined },
  'notification-answered': {
    agent: 'v1',
    shows: async (d) => (await d.post(JSON.stringify({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } }))).text.trim() !== '',
  },
  'id-missing-not-found': {
    agent: 'v1',
    shows: async (d) => {
      const r = JSON.parse((await d.post(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: {} }))).text) as WireJson;
      return r.error?.code === -32001;
    },
  },
  'notification-refused-with-id': {
    agent: 'v1',
    shows: async (d) => {
      const text = (await d.post(JSON.stringify({ jsonrpc: '2.0', method: 'GetTask', params: { id: 'x' } }))).text;
      const r = (text.trim() ? JSON.parse(text) : {}) as WireJson;
      return r.error?.code === -32600 && r.id === 0;
    },
  },
  'error-data-no-errorinfo': {
    agent: 'v1',
    shows: async (d) => {
      const data = (await d.get('missing')).error?.data;
      return !Array.isArray(data) || !data.some((x: WireJson) => x?.['@type']?.endsWith('google.rpc.ErrorInfo'));
    },
  },
  'error-data-untyped': {
    agent: 'v1',
    shows: async (d) => {
      const data = (await d.get('missing')).error?.data;
      return Array.isArray(data) && data.some((x: WireJson) => x['@type'] === undefined);
    },
  },
  'rest-error-not-status': {
    agent: 'v1rest',
    shows: async (d) => {
      const e = (await d.get('missing')).wire.json?.error;
      return !(e && typeof e === 'object' && typeof e.code === 'number' && typeof e.status === 'string' && Array.isArray(e.details));
    },
  },
  'rest-error-html': { agent: 'v1rest', shows: async (d) => ((await d.get('missing')).wire.headers.get('content-type') ?? '').startsWith('text/html') },
  'grpc-bare-errors': {
    agent: 'grpc',
    shows: async (_d, a) => {
      const r = await grpcTransport.unary({
        url: a.url,
        method: '/lf.a2a.v1.A2AService/GetTask',
        message: { id: 'missing' },
        metadata: { 'a2a-version': '1.0' },
        timeoutMs: 5000,
      });
      return r.status === 'INTERNAL' && r.details.length === 0;
    },
  },
  // ------------------------------------------------------------------ auth, interop
  'auth-not-enforced': { agent: 'auth', shows: async (d) => (await d.send('hello')).wire.status === 200 },
  'auth-no-www-authenticate': {
    agent: 'auth',
    shows: async (d) => {
      const r = await d.send('hello');
      return r.wire.status === 401 && !r.wire.headers.get('www-authenticate');
    },
  },
  'auth-inconsistent': {
    agent: 'auth',
    shows: async (_d, a) =>
      (await rawRpc(a.url, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'missing' } }, { ...BEARER, 'A2A-Version': '1.0' })).status === 401,
  },
  'no-cors': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.url, { method: 'OPTIONS', headers: { Origin: 'http://x.test', 'Access-Control-Request-Method': 'POST' } });
      await r.text();
      return r.status !== 204 || !r.headers.get('access-control-allow-origin');
    },
  },
  'extension-required-not-enforced': {
    agent: 'extensions',
    shows: async (_d, a) => !(await extensionSend(a, {})).json.error,
  },
  'extension-unknown-refused': {
    agent: 'extensions',
    shows: async (_d, a) => !!(await extensionSend(a, { 'A2A-Extensions': `${EXT_REQUIRED},https://unknown.invalid/ext/v1` })).json.error,
  },
  'interface-broken': {
    agent: 'interfaces',
    shows: async (_d, a) => {
      const second: string = (await cardOf(a)).supportedInterfaces[1].url;
      // The clean card points at the real second agent (here a closed port); the defect at a dead path of this agent.
      if (!second.startsWith(new URL(a.url).origin)) return false;
      const r = await fetch(`${second}/message:send`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' }, body: '{}' });
      await r.text();
      return r.status === 404;
    },
  },
  // ------------------------------------------------------------------ security review (informational findings)
  'card-internal-url': { agent: 'v1', shows: async (_d, a) => String((await cardOf(a)).documentationUrl).startsWith('http://169.254.169.254/') },
  'card-hidden-text': { agent: 'v1', shows: async (_d, a) => /\u202E/.test(String((await cardOf(a)).description)) },
  'card-llm-instructions': { agent: 'v1', shows: async (_d, a) => /Ignore all previous instructions/.test(String((await cardOf(a)).description)) },
  'card-secret': { agent: 'v1', shows: async (_d, a) => /AKIA[0-9A-Z]{16}/.test(String((await cardOf(a)).description)) },
  'cors-credentials': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.url, { method: 'OPTIONS', headers: { Origin: 'http://x.test', 'Access-Control-Request-Method': 'POST' } });
      await r.text();
      return r.headers.get('access-control-allow-credentials') === 'true' && r.headers.get('access-control-allow-origin') === 'http://x.test';
    },
  },
  'card-redirect-other-host': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.cardUrl, { redirect: 'manual' });
      await r.text();
      const to = r.headers.get('location');
      return r.status === 302 && !!to && new URL(to).host !== new URL(a.cardUrl).host && (await fetch(to)).ok;
    },
  },
  'redirect-off-host': {
    agent: 'v1',
    shows: async (_d, a) => {
      const r = await fetch(a.url, { redirect: 'manual' });
      await r.text();
      return r.status === 302 && new URL(r.headers.get('location') ?? '/', a.url).host !== new URL(a.url).host;
    },
  },
};

describe('defects: each switch changes the wire as described, and the clean agent does not show it', () => {
  const agents = {} as Agents;
  const drivers = {} as Record<AgentKey, Driver>;
  beforeAll(async () => {
    const common = { stepMs: STEP, slowTaskMs: SLOW };
    agents.v1 = await startDefectAgent({ generation: 'v1.0', ...common });
    agents.v1rest = await startDefectAgent({ generation: 'v1.0', binding: 'HTTP+JSON', ...common });
    agents.v03 = await startDefectAgent({ generation: 'v0.3', ...common });
    const auth = { scheme: 'bearer' as const, secret: 'tok-123456' };
    agents.legacy = await startDefectAgent({ generation: 'legacy', ...common });
    agents.auth = await startDefectAgent({ generation: 'v1.0', auth, ...common });
    agents.authLegacy = await startDefectAgent({ generation: 'legacy', auth, ...common });
    agents.signed = await startDefectAgent({ generation: 'v1.0', features: { signed: true }, ...common });
    agents.extensions = await startDefectAgent({ generation: 'v1.0', features: { extensions: true }, ...common });
    agents.push = await startDefectAgent({ generation: 'v1.0', features: { push: true }, ...common });
    agents.nostream = await startDefectAgent({ generation: 'v1.0', features: { streaming: false }, ...common });
    agents.extended = await startDefectAgent({ generation: 'v1.0', auth, features: { extendedCard: true }, ...common });
    agents.grpc = await startDefectAgent({ generation: 'v1.0', binding: 'GRPC', ...common });
    agents.interfaces = await startDefectAgent({
      generation: 'v1.0',
      features: { extraInterfaces: [{ url: 'http://127.0.0.1:9/rest', binding: 'HTTP+JSON' }] },
      ...common,
    });
    const driver = (k: AgentKey, generation: Generation, binding: Binding, headers?: Record<string, string>) => {
      drivers[k] = new Driver({ generation, binding, url: agents[k].url, ...(headers ? { headers } : {}) });
    };
    driver('v1', 'v1.0', 'JSONRPC');
    driver('v1rest', 'v1.0', 'HTTP+JSON');
    driver('v03', 'v0.3', 'JSONRPC');
    driver('legacy', 'legacy', 'JSONRPC');
    driver('auth', 'v1.0', 'JSONRPC');
    driver('authLegacy', 'legacy', 'JSONRPC', BEARER);
    driver('signed', 'v1.0', 'JSONRPC');
    driver('push', 'v1.0', 'JSONRPC');
    driver('nostream', 'v1.0', 'JSONRPC');
    driver('extended', 'v1.0', 'JSONRPC', BEARER);
    driver('interfaces', 'v1.0', 'JSONRPC');
    driver('grpc', 'v1.0', 'JSONRPC');
  });
  afterAll(async () => {
    grpcTransport.close();
    await Promise.all(Object.values(agents).map((a) => a.close()));
  });

  it('has a probe for every defect', () => {
    expect(Object.keys(PROBES).sort()).toEqual([...DEFECT_NAMES].sort());
  });

  for (const name of DEFECT_NAMES) {
    it(name, async () => {
      const p = PROBES[name];
      const a = agents[p.agent];
      a.setDefects([]);
      expect(await p.shows(drivers[p.agent], a), 'the clean agent must not show the defect').toBe(false);
      a.setDefects([name]);
      try {
        expect(await p.shows(drivers[p.agent], a), 'the defect must be visible on the wire').toBe(true);
      } finally {
        a.setDefects([]);
      }
    });
  }

  it('the card-huge card is really 20 MB of valid JSON', async () => {
    agents.v1.setDefects(['card-huge']);
    try {
      const text = await (await fetch(agents.v1.cardUrl)).text();
      expect(text.length).toBeGreaterThan(20 * 1024 * 1024);
      expect(JSON.parse(text).description).toHaveLength(20 * 1024 * 1024);
    } finally {
      agents.v1.setDefects([]);
    }
  });

  it('sse-no-final on v1.0 closes the stream without the terminal status', async () => {
    const d = drivers.v1;
    agents.v1.setDefects(['sse-no-final']);
    try {
      const s = await d.stream('stream', 'Write a haiku');
      expect(s.ended).toBe(true);
      expect(statesOf(d, s.events)).not.toContain('completed');
    } finally {
      agents.v1.setDefects([]);
    }
  });

  it('card defects leave the task wire alone, and task defects leave the card alone', async () => {
    const d = drivers.v1;
    const a = agents.v1;
    a.setDefects([]);
    const cleanCard = await (await fetch(a.cardUrl)).text();
    try {
      for (const name of DEFECT_NAMES) {
        if (PROBES[name].agent !== 'v1') continue;
        a.setDefects([name]);
        if (name.startsWith('card-')) {
          const r = await d.send('Write a haiku');
          expect(d.stateOf(r.task), name).toBe('completed');
          expect(r.task.artifacts[0].parts[0].text, name).toBe(HAIKU_LINES.join('\n'));
        } else if (name !== 'no-cors') {
          const res = await fetch(a.cardUrl);
          expect(res.status, name).toBe(200);
          expect(await res.text(), name).toBe(cleanCard);
        }
      }
    } finally {
      a.setDefects([]);
    }
  });

  it('rejects unknown defect names', () => {
    expect(() => agents.v1.setDefects(['not-a-defect' as DefectName])).toThrow(/unknown defect/);
  });
});
