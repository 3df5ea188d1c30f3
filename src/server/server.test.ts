import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Driver, pollUntil } from '../testing/defect-agent/wire-client';
import { startServer, type DemoAgentListing, type RunningServer } from './main';

const STEP = 10;
const SLOW = 400;

let server: RunningServer;
let dist: string;
const proxied: string[] = [];

/** Raw request (no URL normalisation by fetch), for traversal and malformed-path probes. */
function raw(url: string, path: string, method = 'GET'): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'a2a-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>a2a-interop</title><div id="root"></div>');
  writeFileSync(join(dist, 'assets', 'index-AbCdEf12.js'), 'console.log(1)');
  writeFileSync(join(dist, 'assets', 'style-ZyXwVu98.css'), 'body{}');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(tmpdir(), 'a2a-secret.txt'), 'secret');
  server = await startServer({
    port: 0,
    distDir: dist,
    quiet: true,
    slowTaskMs: SLOW,
    stepMs: STEP,
    // Our own stand-in: proves the proxy is mounted at /proxy without depending on its implementation.
    proxy: async (req, res) => {
      if (!req.url?.startsWith('/proxy')) return false;
      proxied.push(req.url);
      res.writeHead(299).end('proxied');
      return true;
    },
  });
});

afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

const agent = (id: string): DemoAgentListing => server.agents.find((a) => a.id === id)!;

describe('npm start server', () => {
  it('lists the demo agents with absolute URLs', async () => {
    const res = await fetch(`${server.url}/api/demo-agents`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const list = (await res.json()) as DemoAgentListing[];
    expect(list.map((a) => a.id)).toEqual(['v1', 'v03', 'legacy', 'flawed']);
    for (const a of list) {
      expect(a.baseUrl).toBe(`${server.url}${a.path}`);
      expect(a.cardUrl).toBe(`${a.baseUrl}${a.cardPath}`);
      expect(a.url.startsWith(a.baseUrl)).toBe(true);
      expect(a.expectedLevelWhy.length).toBeGreaterThan(20);
      expect(a.delaysMs.slow).toBeGreaterThan(0);
      const card = await fetch(a.cardUrl, { headers: { 'A2A-Version': '1.0' } });
      expect(card.status).toBe(200);
    }
    expect(list.find((a) => a.id === 'flawed')!.defects.length).toBeGreaterThanOrEqual(3);
  });

  it('serves the SPA with content types, cache policy and fallback', async () => {
    const index = await fetch(`${server.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('id="root"');
    const js = await fetch(`${server.url}/assets/index-AbCdEf12.js`);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(js.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/assets/style-ZyXwVu98.css`)).headers.get('content-type')).toMatch(/^text\/css/);
    expect((await fetch(`${server.url}/favicon.svg`)).headers.get('content-type')).toBe('image/svg+xml');
    const deep = await fetch(`${server.url}/runs/123/checks?x=1`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('id="root"');
    expect((await fetch(`${server.url}/assets/missing-12345678.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/nope.png`)).status).toBe(404);
    const head = await fetch(`${server.url}/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const etag = js.headers.get('etag')!;
    expect((await fetch(`${server.url}/assets/index-AbCdEf12.js`, { headers: { 'If-None-Match': etag } })).status).toBe(304);
    expect((await fetch(`${server.url}/`, { method: 'POST' })).status).toBe(405);
  });

  it('survives hostile requests: traversal, malformed paths, aborted clients', async () => {
    for (const p of ['/../a2a-secret.txt', '/..%2fa2a-secret.txt', '/assets/..%2F..%2Fa2a-secret.txt', '/%2e%2e/%2e%2e/etc/passwd']) {
      const r = await raw(server.url, p);
      expect(r.body).not.toContain('secret');
      expect(r.body).not.toContain('root:');
      expect([400, 404, 200]).toContain(r.status);
      if (r.status === 200) expect(r.body).toContain('id="root"');
    }
    expect((await raw(server.url, '/%E0%A4%A')).status).toBe(400);
    // A client that goes away mid-stream does not hurt the server.
    const ac = new AbortController();
    const d = new Driver({ generation: 'v0.3', binding: 'JSONRPC', url: agent('v03').url });
    const res = await fetch(agent('v03').url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: d.sendParams('Prepare the slow report') }),
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    ac.abort();
    expect((await fetch(`${server.url}/api/demo-agents`)).status).toBe(200);
  });

  it('mounts the proxy under /proxy and nothing else', async () => {
    const r = await fetch(`${server.url}/proxy?url=http%3A%2F%2F127.0.0.1%3A1%2F`);
    expect(r.status).toBe(299);
    expect(proxied).toEqual(['/proxy?url=http%3A%2F%2F127.0.0.1%3A1%2F']);
    expect((await fetch(`${server.url}/demo/unknown/x`)).status).toBe(404);
  });
});

describe.each([
  ['v1', 'v1.0', 'JSONRPC', ''],
  ['v1', 'v1.0', 'HTTP+JSON', '/rest'],
  ['v03', 'v0.3', 'JSONRPC', ''],
  ['legacy', 'legacy', 'JSONRPC', ''],
] as const)('demo agent %s (%s over %s)', (id, gen, binding, restPath) => {
  let d: Driver;
  beforeAll(() => {
    const a = agent(id);
    d = new Driver({ generation: gen, binding, url: restPath ? `${a.baseUrl}${restPath}` : a.url });
  });

  it('sends a quick task that completes with the chunked artifact, and gets it back', async () => {
    const r = await d.send('Write a haiku about interoperability');
    expect(r.error).toBeUndefined();
    expect(d.stateOf(r.task)).toBe('completed');
    const text = r.task.artifacts[0].parts.map((p: any) => p.text).join('');
    expect(text).toContain('Two agents exchange');
    expect(text).toContain('tasks complete in spring');
    const g = await d.get(r.task.id);
    expect(g.error).toBeUndefined();
    expect(g.result.id).toBe(r.task.id);
    expect(d.stateOf(g.result)).toBe('completed');
  });

  it('streams a quick task: artifact chunks, then completed, then the stream closes', async () => {
    const s = await d.stream('stream', 'Write a haiku');
    expect(s.contentType).toMatch(/^text\/event-stream/);
    expect(s.ended).toBe(true);
    const ps = s.events.map((f) => d.payload(f));
    expect(ps.filter((p) => d.kindOf(p) === 'artifact')).toHaveLength(3);
    const last = ps[ps.length - 1];
    expect(d.kindOf(last)).toBe('status');
    expect(d.stateOf(last)).toBe('completed');
    if (gen !== 'v1.0') expect(last.final).toBe(true);
    if (gen !== 'legacy') expect(d.kindOf(ps[0])).toBe('task');
  });

  it('cancels a slow task', async () => {
    const t0 = Date.now();
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    expect(Date.now() - t0).toBeLessThan(SLOW);
    expect(['submitted', 'working']).toContain(d.stateOf(r.task));
    const c = await d.cancel(r.task.id);
    expect(c.error).toBeUndefined();
    expect(d.stateOf(c.result)).toBe('canceled');
    expect(d.stateOf((await d.get(r.task.id)).result)).toBe('canceled');
  });

  it('completes a slow task after the configured delay when left alone', async () => {
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    const t = await pollUntil(d, r.task.id, (s) => s === 'completed', 5000);
    expect(d.stateOf(t)).toBe('completed');
  });

  it('resumes an input-required task in the same task, and fails the failing skill', async () => {
    const r = await d.send('Book a table for two');
    expect(d.stateOf(r.task)).toBe('input-required');
    const f = await d.send('Friday', gen === 'legacy' ? { taskId: r.task.id } : { taskId: r.task.id, contextId: r.task.contextId });
    expect(f.task.id).toBe(r.task.id);
    expect(d.stateOf(f.task)).toBe('completed');
    expect(d.stateOf((await d.send('Run the job that fails')).task)).toBe('failed');
    expect(d.stateOf((await d.send('just saying hello')).task)).toBe('completed');
  });

  it('answers an unknown task with TaskNotFound', async () => {
    const r = await d.get('no-such-task');
    expect(r.error?.code).toBe(-32001);
  });
});

describe('v1.0 demo agent: SDK behaviour our tool must show as it is', () => {
  it('serves the v0.3-shaped card without A2A-Version (legacyCompat) and the v1.0 card with it', async () => {
    const a = agent('v1');
    const old = await fetch(a.cardUrl);
    expect(old.headers.get('vary')).toMatch(/A2A-Version/i);
    const oldCard = await old.json();
    expect(oldCard.url).toBe(a.url);
    expect(oldCard.preferredTransport).toBe('JSONRPC');
    // SDK behaviour: protocolVersion "0.3" (not "0.3.0"), and the v1.0 interfaces are embedded in the v0.3 card.
    expect(oldCard.protocolVersion).toBe('0.3');
    expect(oldCard.supportedInterfaces?.length).toBeGreaterThan(0);
    const card = await (await fetch(a.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json();
    expect(card.supportedInterfaces[0]).toMatchObject({ url: a.url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' });
    expect(card.supportedInterfaces[1]).toMatchObject({ url: `${a.baseUrl}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' });
  });

  it('speaks v0.3 JSON-RPC to a request without A2A-Version', async () => {
    const d = new Driver({ generation: 'v0.3', binding: 'JSONRPC', url: agent('v1').url });
    const r = await d.send('hello');
    expect(r.task.kind).toBe('task');
    // SDK behaviour: without configuration.blocking the compat layer answers at once (v0.3 SDK 0.3.14 blocks).
    expect(['submitted', 'working', 'completed']).toContain(r.task.status.state);
    expect(d.stateOf(await pollUntil(d, r.task.id, (s) => s === 'completed'))).toBe('completed');
    const blocking = await d.rpc('message/send', { ...d.sendParams('hello'), configuration: { blocking: true } });
    expect(blocking.result.status.state).toBe('completed');
  });
});

describe('SDK deviations the demo agents keep (pinned so an SDK upgrade that changes them is noticed)', () => {
  it('v1.0 SDK: canceling an already-canceled task succeeds instead of TaskNotCancelable', async () => {
    const d = new Driver({ generation: 'v1.0', binding: 'JSONRPC', url: agent('v1').url });
    const t = (await d.send('Prepare the slow report', { nonBlocking: true })).task;
    expect(d.stateOf((await d.cancel(t.id)).result)).toBe('canceled');
    const again = await d.cancel(t.id);
    expect(again.error).toBeUndefined();
    expect(d.stateOf(again.result)).toBe('canceled');
    // ...while a completed task is refused correctly.
    const done = (await d.send('hello')).task;
    expect((await d.cancel(done.id)).error?.code).toBe(-32002);
  });

  it('v0.3 SDK: a message to a terminal task gets -32600 (v1.0 requires -32004)', async () => {
    const d = new Driver({ generation: 'v0.3', binding: 'JSONRPC', url: agent('v03').url });
    const done = (await d.send('hello')).task;
    const r = await d.send('again', { taskId: done.id, contextId: done.contextId });
    expect(r.error?.code).toBe(-32600);
  });

  it('no SDK endpoint answers CORS preflight (the dashboard reaches them same-origin or through /proxy)', async () => {
    const res = await fetch(agent('v1').url, { method: 'OPTIONS', headers: { Origin: 'http://elsewhere.test', 'Access-Control-Request-Method': 'POST' } });
    await res.text();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('flawed demo agent shows its advertised defects', () => {
  let d: Driver;
  beforeAll(() => {
    d = new Driver({ generation: 'v0.3', binding: 'JSONRPC', url: agent('flawed').url });
  });

  it('capabilities as an array', async () => {
    const card = await (await fetch(agent('flawed').cardUrl)).json();
    expect(Array.isArray(card.capabilities)).toBe(true);
  });

  it('wrong code for an unknown task, 500 on cancel of a completed task, stream without final', async () => {
    expect((await d.get('missing')).error?.code).toBe(-32602);
    const done = await d.send('hello');
    expect((await d.cancel(done.task.id)).wire.status).toBe(500);
    const s = await d.stream('stream', 'Write a haiku');
    expect(s.events.map((f) => d.payload(f)).some((p) => p.final === true)).toBe(false);
  });
});

describe('v0.3 demo agent HTTP+JSON binding: SDK 0.3.14 behaviour our tool must show as it is', () => {
  it('speaks proto-style JSON (content, ROLE_*, TASK_STATE_*), answers 201, and errors are not google.rpc.Status', async () => {
    const base = `${agent('v03').baseUrl}/rest/v1`;
    const send = await fetch(`${base}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: { message_id: crypto.randomUUID(), role: 'ROLE_USER', content: [{ text: 'hello' }] } }),
    });
    expect(send.status).toBe(201);
    const body = await send.json();
    expect(body.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(body.task.status.message.content[0].text).toContain('hello');
    const jsonRpcShaped = await fetch(`${base}/message:send`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } }),
    });
    expect(jsonRpcShaped.status).toBe(400);
    const nf = await fetch(`${base}/tasks/no-such-task`);
    expect(nf.status).toBe(404);
    expect(await nf.json()).toEqual({ code: -32001, message: expect.any(String) });
  });
});
