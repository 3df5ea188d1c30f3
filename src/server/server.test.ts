/**
 * The server `npm start` / `npm run serve` runs, over real sockets: a list of independent test cases, one block per
 * concern (static files and the proxy, each demo agent's behaviour pinned, the self-hosting settings).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Driver, pollUntil } from '../testing/defect-agent/wire-client';
import { ServerConfigError, isLoopbackHost, serverOptionsFromEnv, startServer, type DemoAgentListing, type RunningServer } from './main';

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
    expect(list.map((a) => a.id)).toEqual(['v1', 'v03', 'legacy', 'flawed', 'oauth', 'signed']);
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
    const text = r.task.artifacts[0].parts.map((p: { text?: string }) => p.text).join('');
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
    const r = await d.send('Prepare the slow report', { nonBlocking: true });
    // The answer came before the task ended (its state says so), whatever the machine's load: no stopwatch needed.
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

/** A proxy request with exactly these headers (fetch would not let us set Host). */
function proxyRequest(
  serverUrl: string,
  target: string,
  headers: Record<string, string>,
  method = 'GET',
  path = `/proxy?url=${encodeURIComponent(target)}`,
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  const u = new URL(serverUrl);
  return new Promise((done, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('self-hosting: the settings npm run serve reads from the environment', () => {
  it('defaults to 127.0.0.1:4173 with the mode left to the address', () => {
    expect(serverOptionsFromEnv({})).toEqual({ host: '127.0.0.1', port: 4173 });
    expect(serverOptionsFromEnv({ HOST: '0.0.0.0', PORT: '8080' })).toEqual({ host: '0.0.0.0', port: 8080 });
  });

  it('reads PROXY_MODE, ALLOWED_ORIGINS, ALLOWED_HOSTS, RATE_LIMIT_PER_MINUTE and DEMO_AGENTS', () => {
    expect(
      serverOptionsFromEnv({
        PROXY_MODE: 'Hosted',
        ALLOWED_ORIGINS: 'https://a2a.corp.example, http://localhost:5173',
        ALLOWED_HOSTS: 'a2a.corp.example,.corp.example',
        RATE_LIMIT_PER_MINUTE: '0',
        DEMO_AGENTS: 'off',
      }),
    ).toEqual({
      host: '127.0.0.1',
      port: 4173,
      proxyMode: 'hosted',
      allowedOrigins: ['https://a2a.corp.example', 'http://localhost:5173'],
      allowedHosts: ['a2a.corp.example', '.corp.example'],
      rateLimitPerMinute: 0,
      demoAgents: false,
    });
  });

  it.each([
    [{ PORT: '70000' }, /PORT must be a port number/],
    [{ PORT: 'http' }, /PORT must be a port number/],
    [{ PROXY_MODE: 'public' }, /PROXY_MODE must be local or hosted/],
    [{ ALLOWED_ORIGINS: 'https://a2a.corp.example/' }, /without a path: "https:\/\/a2a\.corp\.example\/" \(did you mean https:\/\/a2a\.corp\.example\?\)/],
    [{ ALLOWED_ORIGINS: 'a2a.corp.example' }, /ALLOWED_ORIGINS entries are origins/],
    [{ ALLOWED_HOSTS: 'https://a2a.corp.example' }, /ALLOWED_HOSTS entries are host names/],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, /RATE_LIMIT_PER_MINUTE must be a whole number/],
    [{ DEMO_AGENTS: 'maybe' }, /DEMO_AGENTS must be 1 or 0/],
  ])('refuses %o', (env, message) => {
    expect(() => serverOptionsFromEnv(env)).toThrow(ServerConfigError);
    expect(() => serverOptionsFromEnv(env)).toThrow(message);
  });

  it('knows which listen addresses only this machine can reach', () => {
    for (const h of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'a2a.localhost']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'a2a.corp.example']) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe('self-hosting: hosted proxy mode (PROXY_MODE=hosted, ALLOWED_ORIGINS)', () => {
  const TEAM = 'https://a2a.corp.example';
  let hosted: RunningServer;
  beforeAll(async () => {
    hosted = await startServer({ ...serverOptionsFromEnv({ PROXY_MODE: 'hosted', ALLOWED_ORIGINS: TEAM }), port: 0, distDir: dist, quiet: true });
  });
  afterAll(() => hosted?.close());

  it('says it is hosted, and serves no demo agents (its proxy could not reach them)', async () => {
    expect(hosted.proxyMode).toBe('hosted');
    const health = (await (await fetch(`${hosted.url}/proxy/health`)).json()) as { mode: string };
    expect(health.mode).toBe('hosted');
    expect(await (await fetch(`${hosted.url}/api/demo-agents`)).json()).toEqual([]);
    expect((await fetch(`${hosted.url}/demo/v1/.well-known/agent-card.json`)).status).toBe(404);
    const page = await fetch(`${hosted.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('refuses loopback and localhost targets, for the team origin and the same origin alike', async () => {
    for (const origin of [TEAM, hosted.url]) {
      for (const target of [`${hosted.url}/api/demo-agents`, 'http://localhost:4173/', 'http://[::1]:8080/', 'http://10.1.2.3/']) {
        const r = await proxyRequest(hosted.url, target, { Origin: origin, 'X-A2A-Interop': '1' });
        expect(r.status, `${origin} -> ${target}`).toBe(403);
        expect(r.headers['x-proxy-error'], `${origin} -> ${target}`).toBe('target_blocked');
      }
    }
    const r = await proxyRequest(hosted.url, `${hosted.url}/`, { Origin: TEAM, 'X-A2A-Interop': '1' });
    expect(r.headers['access-control-allow-origin']).toBe(TEAM);
    expect(JSON.parse(r.body)).toMatchObject({ detail: expect.stringMatching(/public unicast/) });
  });

  it('honours ALLOWED_ORIGINS: the team origin gets CORS and preflights, any other origin or none is refused', async () => {
    const pre = await proxyRequest(
      hosted.url,
      'https://agent.example/',
      { Origin: TEAM, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type,x-a2a-interop' },
      'OPTIONS',
    );
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(TEAM);

    const foreign = await proxyRequest(hosted.url, 'https://agent.example/', { Origin: 'https://evil.example', 'X-A2A-Interop': '1' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['x-proxy-error']).toBe('origin_not_allowed');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const foreignPre = await proxyRequest(
      hosted.url,
      'https://agent.example/',
      { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' },
      'OPTIONS',
    );
    expect(foreignPre.headers['x-proxy-error']).toBe('origin_not_allowed');

    const none = await proxyRequest(hosted.url, 'https://agent.example/', { 'X-A2A-Interop': '1' });
    expect(none.status).toBe(403);
    expect(none.headers['x-proxy-error']).toBe('origin_not_allowed');
  });

  it('rate-limits per client when RATE_LIMIT_PER_MINUTE is set', async () => {
    const limited = await startServer({ ...serverOptionsFromEnv({ PROXY_MODE: 'hosted', RATE_LIMIT_PER_MINUTE: '2' }), port: 0, distDir: dist, quiet: true });
    try {
      const codes: (string | string[] | undefined)[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await proxyRequest(limited.url, 'http://127.0.0.1:1/', { Origin: limited.url, 'X-A2A-Interop': '1' })).headers['x-proxy-error']);
      expect(codes.slice(0, 2)).toEqual(['target_blocked', 'target_blocked']);
      expect(codes.slice(2)).toEqual(['rate_limited', 'rate_limited']);
    } finally {
      await limited.close();
    }
  });
});

describe('self-hosting: local proxy mode answers only to its own names (ALLOWED_HOSTS)', () => {
  let local: RunningServer;
  beforeAll(async () => {
    local = await startServer({ ...serverOptionsFromEnv({ ALLOWED_HOSTS: 'a2a.lab.example' }), port: 0, distDir: dist, quiet: true, demoAgents: false });
  });
  afterAll(() => local?.close());

  it('reaches loopback targets for a configured Host name and refuses other names (DNS rebinding)', async () => {
    expect(local.proxyMode).toBe('local');
    const port = new URL(local.url).port;
    const target = `${local.url}/api/demo-agents`;
    const named = await proxyRequest(local.url, target, { Host: `a2a.lab.example:${port}`, 'X-A2A-Interop': '1' });
    expect(named.status).toBe(200);
    expect(JSON.parse(named.body)).toEqual([]);
    const rebound = await proxyRequest(local.url, target, { Host: `attacker.example:${port}`, 'X-A2A-Interop': '1' });
    expect(rebound.status).toBe(403);
    expect(rebound.headers['x-proxy-error']).toBe('origin_not_allowed');
  });
});

describe('self-hosting: npm run serve honours HOST and PORT', () => {
  const repo = resolve(__dirname, '../..');
  const freePort = (host: string) =>
    new Promise<number>((done, reject) => {
      const s = createNetServer();
      s.once('error', reject);
      s.listen(0, host, () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => done(port));
      });
    });

  function serve(env: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: repo,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const ready = new Promise<void>((done, reject) => {
      const t = setInterval(() => {
        if (/a2a-interop dashboard:/.test(out)) {
          clearInterval(t);
          done();
        }
      }, 25);
      void exited.then((code) => {
        clearInterval(t);
        reject(new Error(`the server exited (${code}) before it was ready:\n${out}`));
      });
    });
    ready.catch(() => undefined); // observed by the tests that wait for it
    return { child, exited, ready, output: () => out };
  }

  it('listens on exactly HOST:PORT and stops cleanly on SIGTERM', async () => {
    // 127.0.0.2 is loopback too, but a server on it is not reachable at 127.0.0.1: proof HOST is used.
    const port = await freePort('127.0.0.2');
    const s = serve({ HOST: '127.0.0.2', PORT: String(port), PROXY_MODE: 'hosted', ALLOWED_ORIGINS: 'https://a2a.corp.example', DEMO_AGENTS: '0' });
    try {
      await s.ready;
      expect(s.output()).toContain(`http://127.0.0.2:${port}/`);
      expect(s.output()).toMatch(/proxy: hosted mode \(public targets only\); allowed origins: https:\/\/a2a\.corp\.example/);
      const health = (await (await fetch(`http://127.0.0.2:${port}/proxy/health`)).json()) as { mode: string };
      expect(health.mode).toBe('hosted');
      await expect(fetch(`http://127.0.0.1:${port}/proxy/health`)).rejects.toThrow();
    } finally {
      s.child.kill('SIGTERM');
    }
    expect(await s.exited).toBe(0);
  }, 30_000);

  it('exits 2 with the reason on a setting it cannot use', async () => {
    const s = serve({ PORT: '99999' });
    expect(await s.exited).toBe(2);
    expect(s.output()).toMatch(/PORT must be a port number \(0-65535\), got "99999"/);
  }, 30_000);
});
