/**
 * Security probes of issue 22, replayed on loopback only: each of them got through before the fix (a stranger filling
 * the inbox, a request body pinned for a stream's life, a secret or credential header reaching another origin or a
 * plain-HTTP host, a reserved IPv6 spelling passing the hosted guard, the Vite origin trusted by `npm start`, no CSP,
 * server packages outside `npm audit --omit=dev`). The floods themselves are in flood.test.ts.
 * A list of independent test cases: one block per probe, each replaying its attack on its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthClient } from '../engine/auth/client';
import { createHttpContext, exchange } from '../engine/http/client';
import { emptyGrpcResult, type GrpcTransport } from '../engine/ports';
import { grpcExchange } from '../engine/protocol/grpc';
import { Redactor } from '../engine/redact';
import { runConformance } from '../engine/runner/run';
import { createNodeHost } from '../hosts/node';
import { createInboxHandler } from '../inbox/handler';
import { createHost } from '../lib/engine-adapter';
import { createSettingsStore } from '../lib/settings-store';
import { InboxStore } from '../inbox/store';
import { createMcpServer } from '../mcp/server';
import { createProxyHandler, type UpstreamFetch } from '../proxy/handler';
import { checkTargetAllowed, defaultAddressPolicy, isPublicUnicast, parseTarget } from '../proxy/policy';
import { RequestBody, replayBudget } from '../proxy/stream';
import { createWorkerHandler } from '../proxy/worker';
import { ServerConfigError, serverOptionsFromEnv, startServer } from './main';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A loopback HTTP server that records what reaches it. */
interface Recorder {
  url: string;
  hits: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}
async function recorder(handle: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void = (_q, res) => res.end('{}')): Promise<Recorder> {
  const hits: Recorder['hits'] = [];
  const s = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      hits.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        s.closeAllConnections();
        s.close(() => r());
      }),
  };
}

const DASH = 'http://dash.test';

/** One request with the Host header as given (fetch would not let a test set it). */
function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('probe 1: the webhook inbox', () => {
  const open = (h: ReturnType<typeof createInboxHandler>, headers: Record<string, string>, client = '198.51.100.1') =>
    h(new Request(`${DASH}/inbox`, { method: 'POST', headers: { 'x-a2a-interop': '1', ...headers }, body: '{}' }), { clientAddress: client });

  it('applies the proxy policy: a rebound Host, a foreign Origin and (hosted) no Origin are refused; the rate limit answers 429', async () => {
    const local = createInboxHandler({ access: { mode: 'local' } });
    // DNS rebinding: a page at evil.example resolving to 127.0.0.1 reaches the local server with its own Host.
    const rebound = await open(local, { host: 'evil.example:4173', origin: 'http://evil.example:4173' });
    expect(rebound.status).toBe(403);
    expect(await rebound.text()).toMatch(/DNS rebinding/);
    expect((await open(local, { host: '127.0.0.1:4173', origin: 'http://evil.example' })).status).toBe(403);
    expect((await open(local, { host: '127.0.0.1:4173', origin: 'http://127.0.0.1:4173' })).status).toBe(201);
    const hosted = createInboxHandler({ access: { mode: 'hosted', rateLimit: { limit: 3, windowMs: 60_000 } } });
    expect((await open(hosted, { host: 'dash.test' })).status).toBe(403);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await open(hosted, { host: 'dash.test', origin: DASH })).status);
    expect(answers).toEqual([201, 201, 201, 429]);
  });

  it('answers 429 for one client over its share of addresses, 503 when all are held fairly, 413 for a body over the limit', async () => {
    const store = new InboxStore({ maxInboxes: 4, maxInboxesPerClient: 2 });
    const h = createInboxHandler({ store, access: { mode: 'hosted' } });
    const hdr = { host: 'dash.test', origin: DASH };
    expect((await open(h, hdr, 'a')).status).toBe(201);
    expect((await open(h, hdr, 'a')).status).toBe(201);
    const third = await open(h, hdr, 'a');
    expect(third.status).toBe(429);
    expect(await third.text()).toMatch(/already has 2 open inboxes/);
    expect((await open(h, hdr, 'b')).status).toBe(201);
    expect((await open(h, hdr, 'b')).status).toBe(201);
    const full = await open(h, hdr, 'c');
    expect(full.status).toBe(503);
    expect(await full.text()).toMatch(/every inbox address \(4\) is in use/);
    const small = createInboxHandler({ limits: { maxReadBytes: 1024, maxBodyBytes: 512 } });
    const { url } = (await (await open(small, {})).json()) as { url: string };
    const over = await small(new Request(url, { method: 'POST', body: 'x'.repeat(4096) }));
    expect(over.status).toBe(413);
  });

  it('slow bodies from one sender take at most 8 read slots: the 9th is 503, another sender still delivers', async () => {
    // The hosted default (access.mode 'hosted'); a local server's senders are all loopback, so it caps only the total.
    const h = createInboxHandler({ maxConcurrentReadsPerClient: 8 });
    const { url } = (await (await open(h, {})).json()) as { url: string };
    const held: ReadableStreamDefaultController<Uint8Array>[] = [];
    const slow = () =>
      h(
        new Request(url, {
          method: 'POST',
          body: new ReadableStream<Uint8Array>({ start: (c) => void held.push(c) }),
          duplex: 'half',
        } as RequestInit & { duplex: 'half' }),
        { clientAddress: 'slow' },
      );
    const pending = Array.from({ length: 8 }, slow);
    await new Promise((r) => setTimeout(r, 20));
    const ninth = await slow();
    expect(ninth.status).toBe(503);
    expect(await ninth.text()).toMatch(/from this client/);
    expect((await h(new Request(url, { method: 'POST', body: '{"ok":1}' }), { clientAddress: 'agent' })).status).toBe(200);
    for (const c of held.slice(0, 8)) c.close();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual(Array(8).fill(200));
  });

  it('a local server (one user on loopback) has no per-client address cap; a hosted one does', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'a2a-dist-sec-'));
    const local = await startServer({ port: 0, distDir: dist, quiet: true, demoAgents: false, proxy: false });
    const hosted = await startServer({ port: 0, distDir: dist, quiet: true, proxyMode: 'hosted', proxy: false, inboxLimits: { maxInboxesPerClient: 3 } });
    try {
      const opens = async (url: string) => {
        const out: number[] = [];
        for (let i = 0; i < 25; i++)
          out.push((await request(`${url}/inbox`, { method: 'POST', headers: { 'x-a2a-interop': '1', origin: url }, body: '{}' })).status);
        return out;
      };
      expect(await opens(local.url)).toEqual(Array(25).fill(201));
      const h = await opens(hosted.url);
      expect(h.slice(0, 3)).toEqual([201, 201, 201]);
      expect(h.slice(3).every((x) => x === 429)).toBe(true);
    } finally {
      await Promise.all([local.close(), hosted.close()]);
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('a local server answers to its INBOX_PUBLIC_URL name (a tunnel keeping its Host) and still refuses other names', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'a2a-dist-sec-'));
    const s = await startServer({ port: 0, distDir: dist, quiet: true, demoAgents: false, proxy: false, inboxPublicUrl: 'https://hooks.example.net/a2a' });
    try {
      const port = new URL(s.url).port;
      const opened = await request(`${s.url}/inbox`, { method: 'POST', headers: { 'x-a2a-interop': '1' }, body: '{}' });
      const { token } = JSON.parse(opened.body) as { token: string };
      expect((await request(`${s.url}/inbox/${token}`, { method: 'POST', headers: { host: 'hooks.example.net' }, body: '{}' })).status).toBe(200);
      expect((await request(`${s.url}/inbox/${token}`, { method: 'POST', headers: { host: `evil.example:${port}` }, body: '{}' })).status).toBe(403);
    } finally {
      await s.close();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('keeps bytes under one budget: a flood into its own addresses never evicts a small legitimate address', () => {
    const store = new InboxStore({ maxTotalBytes: 256 * 1024, maxBoxBytes: 128 * 1024, maxInboxes: 50, maxInboxesPerClient: 50 });
    const legit = store.create({ token: 't-legit' })!;
    const post = (body: Uint8Array) => ({ method: 'POST', headers: new Headers(), body, bodySize: body.byteLength, truncated: false });
    for (let i = 1; i <= 5; i++) store.receive(legit, post(new TextEncoder().encode(`{"n":${i}}`)));
    const flood = Array.from({ length: 20 }, () => store.create()!);
    const chunk = new Uint8Array(60 * 1024).fill(120);
    for (let i = 0; i < 400; i++) store.receive(flood[i % flood.length]!, post(chunk));
    expect(store.bytes).toBeLessThanOrEqual(256 * 1024);
    expect(store.since(legit)!.map((d) => d.body)).toEqual([1, 2, 3, 4, 5].map((n) => `{"n":${n}}`));
    expect(store.droppedFrom(legit)).toBe(0);
    expect(flood.reduce((n, t) => n + (store.droppedFrom(t) ?? 0), 0)).toBeGreaterThan(0);
  });
});

/** An upstream that answers every request with an SSE stream that never ends (a comment every 20 ms). */
const endlessSse: UpstreamFetch = async (req) => {
  await (req.body instanceof ReadableStream ? new Response(req.body).arrayBuffer() : undefined);
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('data: {}\n\n'));
      timer = setInterval(() => c.enqueue(new TextEncoder().encode(': tick\n\n')), 20);
    },
    cancel: () => clearInterval(timer),
  });
  req.signal.addEventListener('abort', () => clearInterval(timer), { once: true });
  return { status: 200, headers: new Headers({ 'content-type': 'text/event-stream' }), body };
};

const proxyReq = (target: string, init: { method?: string; body?: BodyInit; headers?: Record<string, string> } = {}) =>
  new Request(`http://127.0.0.1:4173/proxy?url=${encodeURIComponent(target)}`, {
    method: init.method ?? 'GET',
    body: init.body,
    headers: { host: '127.0.0.1:4173', 'x-a2a-interop': '1', ...init.headers },
  });

describe('probe 2: the proxy does not pin bodies or streams', () => {
  it('keeps the replay copy only until the response head, and at most maxReplayBytes', async () => {
    const src = new Response(new Uint8Array(300 * 1024)).body!;
    const body = new RequestBody(src, 5 * 1024 * 1024, 1024 * 1024);
    const reader = body.stream().getReader();
    let read = 0;
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      read += r.value.byteLength;
    }
    expect(read).toBe(300 * 1024);
    expect(body.kept).toBe(300 * 1024);
    body.release();
    expect(body.kept).toBe(0);
    // Over maxReplayBytes: streamed through, nothing kept, a redirect cannot resend it.
    const big = new RequestBody(new Response(new Uint8Array(2 * 1024 * 1024)).body!, 5 * 1024 * 1024, 1024 * 1024);
    const r2 = big.stream().getReader();
    while (!(await r2.read()).done);
    expect(big.kept).toBe(0);
    expect(big.replayable).toBe(false);
    await expect(big.all()).rejects.toThrow(/cannot be sent again/);
  });

  it('replay copies of all requests waiting for a head share one budget (maxReplayTotalBytes, default 64 MiB)', async () => {
    const budget = replayBudget(100 * 1024);
    const readAll = async (b: RequestBody) => {
      const r = b.stream().getReader();
      while (!(await r.read()).done);
    };
    const a = new RequestBody(new Response(new Uint8Array(80 * 1024)).body!, 5 * 1024 * 1024, 1024 * 1024, budget);
    const b = new RequestBody(new Response(new Uint8Array(80 * 1024)).body!, 5 * 1024 * 1024, 1024 * 1024, budget);
    await readAll(a);
    await readAll(b);
    expect(a.kept).toBe(80 * 1024);
    expect(b.replayable).toBe(false);
    expect(budget.used).toBe(80 * 1024);
    a.release();
    expect(budget.used).toBe(0);
    const { PROXY_DEFAULT_LIMITS } = await import('../proxy/handler');
    expect(PROXY_DEFAULT_LIMITS.maxReplayTotalBytes).toBe(64 * 1024 * 1024);
  });

  it('refuses a client its next open request over maxOpenPerClient (stream_limit, 429) and ends a stream at maxStreamMs', async () => {
    const handle = createProxyHandler({ mode: 'local', upstream: endlessSse, limits: { maxOpenPerClient: 2, maxStreamMs: 300 } });
    const a = await handle(proxyReq('http://127.0.0.1:9/sse', { method: 'POST', body: '{"x":1}' }), { clientAddress: 'c1' });
    const b = await handle(proxyReq('http://127.0.0.1:9/sse'), { clientAddress: 'c1' });
    const c = await handle(proxyReq('http://127.0.0.1:9/sse'), { clientAddress: 'c1' });
    expect([a.status, b.status, c.status]).toEqual([200, 200, 429]);
    expect(c.headers.get('x-proxy-error')).toBe('stream_limit');
    expect((await handle(proxyReq('http://127.0.0.1:9/sse'), { clientAddress: 'c2' })).status).toBe(200);
    const started = Date.now();
    const text = await a.text();
    // The upstream never ends, so an end at all is the 300 ms lifetime's (its marker below says so); a generous bound a
    // busy machine cannot reach.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(text).toMatch(/^data: \{\}\n\n/);
    expect(text).toMatch(/: x-proxy-error stream_limit\n$/);
    await b.body?.cancel();
    // Both of c1's streams ended: it may open again.
    expect((await handle(proxyReq('http://127.0.0.1:9/sse'), { clientAddress: 'c1' })).status).toBe(200);
  });

  it('the Workers entry reads MAX_OPEN_PER_CLIENT and MAX_STREAM_SECONDS', async () => {
    const handle = createWorkerHandler({ ALLOWED_ORIGINS: DASH, MAX_OPEN_PER_CLIENT: '1', MAX_STREAM_SECONDS: '1' }, endlessSse);
    const req = () =>
      new Request(`https://proxy.example/proxy?url=${encodeURIComponent('https://93.184.215.14/sse')}`, {
        headers: { origin: DASH, 'x-a2a-interop': '1' },
      });
    const first = await handle(req(), { clientAddress: '203.0.113.9' });
    const second = await handle(req(), { clientAddress: '203.0.113.9' });
    expect([first.status, second.status]).toEqual([200, 429]);
    expect(second.headers.get('x-proxy-error')).toBe('stream_limit');
    expect(await first.text()).toMatch(/: x-proxy-error stream_limit\n$/);
  });

  it('hosted defaults: 32 open requests per client and 15 minutes per stream', async () => {
    const { PROXY_HOSTED_LIMITS } = await import('../proxy/handler');
    expect(PROXY_HOSTED_LIMITS).toEqual({ maxOpenPerClient: 32, maxStreamMs: 15 * 60_000 });
  });
});

describe('probe 3: MCP never reads a secret from a variable a call names', () => {
  let client: Client;
  let idp: Recorder;
  let agent: Recorder;
  beforeAll(async () => {
    idp = await recorder((_q, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"t","token_type":"Bearer"}'));
    agent = await recorder((req, res) => {
      if (req.url?.includes('agent-card.json')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            name: 'oauth agent',
            description: 'd',
            url: `${agent.url}/jsonrpc`,
            version: '1',
            protocolVersion: '0.3.0',
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 's', name: 's', description: 'd', tags: [] }],
            securitySchemes: { o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${idp.url}/token`, scopes: {} } } } },
            security: [{ o: [] }],
          }),
        );
        return;
      }
      res.writeHead(401).end();
    });
    const server = createMcpServer({ env: { PATH: 'path-value-not-a-client-secret', A2A_OAUTH_CLIENT_SECRET: 'the-real-secret' }, log: () => undefined });
    const [x, y] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 't', version: '0' });
    await Promise.all([server.connect(x), client.connect(y)]);
  });
  afterAll(async () => {
    await client?.close();
    await idp?.close();
    await agent?.close();
  });

  it('client_secret_env: "PATH" is refused before any request; the token URL never sees its value', async () => {
    const res = (await client.callTool({
      name: 'run_a2a_conformance',
      arguments: { agent_url: agent.url, oauth: { client_id: 'c', client_secret_env: 'PATH' }, only: ['lifecycle.send'] },
    })) as CallToolResult;
    const text = res.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
    expect(res.isError).toBe(true);
    expect(text).toMatch(/reads client secrets only from A2A_OAUTH_CLIENT_SECRET/);
    expect(idp.hits).toEqual([]);
    expect(agent.hits).toEqual([]);
  });
});

describe('probe 4: MCP extra headers stay with the agent origin', () => {
  let client: Client;
  let other: Recorder;
  let agent: Recorder;
  const jws = (header: object) => `${Buffer.from(JSON.stringify(header)).toString('base64url')}`;
  beforeAll(async () => {
    other = await recorder((req, res) => {
      if (req.url === '/jwks.json') res.writeHead(200, { 'content-type': 'application/json' }).end('{"keys":[]}');
      else res.writeHead(404).end();
    });
    agent = await recorder((req, res) => {
      if (req.url?.startsWith('/moved/.well-known/agent-card.json')) {
        res.writeHead(307, { location: `${other.url}/card.json` }).end();
        return;
      }
      if (req.url?.startsWith('/signed/.well-known/agent-card.json')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            name: 'signed agent',
            description: 'd',
            url: `${agent.url}/signed/jsonrpc`,
            version: '1',
            protocolVersion: '0.3.0',
            capabilities: {},
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [{ id: 's', name: 's', description: 'd', tags: [] }],
            signatures: [{ protected: jws({ alg: 'ES256', kid: 'k1', jku: `${other.url}/jwks.json` }), signature: 'AAAA' }],
          }),
        );
        return;
      }
      res.writeHead(404).end();
    });
    const server = createMcpServer({ log: () => undefined });
    const [x, y] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 't', version: '0' });
    await Promise.all([server.connect(x), client.connect(y)]);
  });
  afterAll(async () => {
    await client?.close();
    await other?.close();
    await agent?.close();
  });
  const headers = { Authorization: 'Bearer tok-secret-1', 'X-Tenant-Key': 'tenant-secret-2' };

  it('a cross-origin redirect target gets neither the credential nor the second header', async () => {
    await client.callTool({ name: 'discover_a2a_agent', arguments: { agent_url: `${agent.url}/moved`, headers } });
    const first = agent.hits.find((h) => h.url.startsWith('/moved/'));
    expect(first?.headers['x-tenant-key']).toBe('tenant-secret-2');
    const moved = other.hits.filter((h) => h.url === '/card.json');
    expect(moved.length).toBeGreaterThan(0);
    for (const h of moved) {
      expect(h.headers.authorization).toBeUndefined();
      expect(h.headers['x-tenant-key']).toBeUndefined();
    }
  });

  it("the card's jku (another origin) gets neither", async () => {
    await client.callTool({ name: 'discover_a2a_agent', arguments: { agent_url: `${agent.url}/signed`, headers } });
    const jku = other.hits.filter((h) => h.url === '/jwks.json');
    expect(jku.length).toBeGreaterThan(0);
    for (const h of jku) {
      expect(h.headers.authorization).toBeUndefined();
      expect(h.headers['x-tenant-key']).toBeUndefined();
    }
  });
});

describe('probe 5: the OAuth client secret does not follow redirects', () => {
  it('client_secret_post answered 307 to another origin: not replayed there, and the run says why', async () => {
    const thief = await recorder();
    const idp = await recorder((req, res) => {
      // Refuses Basic as such (switching the client to client_secret_post), then redirects the POST elsewhere.
      if (req.headers.authorization) res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_client"}');
      else res.writeHead(307, { location: `${thief.url}/token` }).end();
    });
    try {
      const redactor = new Redactor();
      const ctx = createHttpContext(createNodeHost({ inbox: false }), { redactor });
      const c = new OAuthClient(
        ctx,
        { scheme: 'o', kind: 'client-credentials', tokenUrl: `${idp.url}/token`, scopes: [] },
        {
          kind: 'oauth2',
          clientId: 'cid',
          clientSecret: 'client-secret-xyz',
        },
      );
      expect(await c.start()).toBe(false);
      expect(idp.hits.some((h) => h.body.includes('client_secret=client-secret-xyz'))).toBe(true);
      expect(thief.hits).toEqual([]);
      expect(c.failure?.message).toMatch(/redirecting to .*only when it is a 307\/308 within the same origin/);
      expect(c.failure?.message).not.toContain('client-secret-xyz');
    } finally {
      await thief.close();
      await idp.close();
    }
  });

  it('through the proxy: x-proxy-redirect: same-origin refuses the cross-origin hop before any request there', async () => {
    const seen: string[] = [];
    const upstream: UpstreamFetch = async (req) => {
      seen.push(req.url.href);
      return { status: 307, headers: new Headers({ location: 'http://other.test/token' }), body: null };
    };
    const handle = createProxyHandler({ mode: 'local', upstream });
    const res = await handle(
      proxyReq('http://idp.test/token', { method: 'POST', body: 'client_secret=s', headers: { 'x-proxy-redirect': 'same-origin', 'content-type': 'x' } }),
    );
    expect(res.headers.get('x-proxy-error')).toBe('redirect_blocked');
    expect(seen).toEqual(['http://idp.test/token']);
  });
});

describe('probe 6: guards', () => {
  it('the hosted guard refuses all 30 loopback spellings of the review (the last one, [::127.0.0.1], got through before)', () => {
    const policy = defaultAddressPolicy('hosted');
    const spellings = [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://127.0.1/',
      'http://0x7f.0.0.1/',
      'http://0x7f000001/',
      'http://2130706433/',
      'http://017700000001/',
      'http://0177.0.0.1/',
      'http://127.0.0.1./',
      'http://127.255.255.254/',
      'http://0.0.0.0/',
      'http://0/',
      'http://localhost/',
      'http://LOCALHOST/',
      'http://localhost./',
      'http://a.localhost/',
      'http://%31%32%37.0.0.1/',
      'http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/',
      'http://127.0.0.1:80/',
      'https://127.0.0.1:443/',
      'http://[::1]/',
      'http://[0:0:0:0:0:0:0:1]/',
      'http://[0::1]/',
      'http://[::]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[::127.0.0.1]/',
    ];
    expect(spellings).toHaveLength(30);
    for (const raw of spellings) {
      const t = parseTarget(raw);
      const refusal = t.ok ? checkTargetAllowed(t.url, 'hosted', policy) : t.reason;
      expect(refusal, raw).toBeTruthy();
    }
  });

  it('the hosted guard refuses ::/96 and every other IPv6 outside global unicast; public addresses pass', () => {
    const policy = defaultAddressPolicy('hosted');
    const refused = [
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]/',
      'http://[::a00:1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://[::1]/',
      'http://[::]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b:1::1]/',
      'http://[100::1]/',
      'http://[2001::1]/',
      'http://[2001:db8::1]/',
      'http://[2001:10::1]/',
      'http://[2002:7f00:1::1]/',
      'http://[3fff::1]/',
      'http://[5f00::1]/',
      'http://[fc00::1]/',
      'http://[fe80::1]/',
      'http://[fec0::1]/',
      'http://[ff02::1]/',
      'http://[100:0:0:1::1]/',
      'http://[4000::1]/',
    ];
    for (const u of refused) expect(checkTargetAllowed(new URL(u), 'hosted', policy), u).toMatch(/A hosted proxy only reaches public unicast addresses/);
    expect(checkTargetAllowed(new URL('http://[::7f00:1]/'), 'hosted', policy)).toMatch(/reserved address/);
    for (const a of ['2606:4700:4700::1111', '2a00:1450:4001:800::200e', '8.8.8.8']) expect(isPublicUnicast(a), a).toBe(true);
  });

  it("bearer tokens and API keys go over plain HTTP only to loopback, unless the host allows it; the OAuth rule's words", async () => {
    const sent: string[] = [];
    const f: typeof fetch = async (input) => {
      sent.push(String(input));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const ask = async (allow: boolean, url: string, headers: Record<string, string>) => {
      const redactor = new Redactor().addSecret('tok-123456').addSecret('key-abcdef');
      const ctx = createHttpContext(createNodeHost({ fetch: f, inbox: false, allowInsecureCredentials: allow }), { redactor });
      return exchange(ctx, { method: 'POST', url, headers, body: '{}', lane: 't' });
    };
    const refused = await ask(false, 'http://10.1.2.3/a2a', { Authorization: 'Bearer tok-123456' });
    expect(refused.error?.code).toBe('insecure_credentials');
    expect(refused.error?.blame).toBe('tool');
    expect(refused.error?.message).toMatch(/A2A_ALLOW_INSECURE_CREDENTIALS=1/);
    expect((await ask(false, 'http://agent.example/a2a', { 'X-API-Key': 'key-abcdef' })).error?.code).toBe('insecure_credentials');
    expect((await ask(false, 'http://agent.example/a2a?api_key=key-abcdef', {})).error?.code).toBe('insecure_credentials');
    expect(sent).toEqual([]);
    // No credential, https, loopback, or allowed by the user: sent.
    expect((await ask(false, 'http://agent.example/a2a', { Accept: 'application/json' })).responded).toBe(true);
    expect((await ask(false, 'https://agent.example/a2a', { Authorization: 'Bearer tok-123456' })).responded).toBe(true);
    expect((await ask(false, 'http://127.0.0.1:9/a2a', { Authorization: 'Bearer tok-123456' })).responded).toBe(true);
    expect((await ask(false, 'http://[::1]:9/a2a', { Authorization: 'Bearer tok-123456' })).responded).toBe(true);
    expect((await ask(true, 'http://10.1.2.3/a2a', { Authorization: 'Bearer tok-123456' })).responded).toBe(true);
    expect(sent).toHaveLength(5);
  });

  it('a run against a plain-HTTP agent on another machine with a bearer token: not assessed, our refusal, no token on the wire', async () => {
    const demos = await startServer({ port: 0, quiet: true, proxy: false, inbox: false, slowTaskMs: 300, stepMs: 5 });
    try {
      // agent.test stands for another machine: requests are carried to the demo server, its card rewritten to name it.
      const fake = `http://agent.test:${new URL(demos.url).port}`;
      const wire: string[] = [];
      const f: typeof fetch = async (input, init) => {
        wire.push(JSON.stringify(Object.fromEntries(new Headers(init?.headers))));
        const res = await fetch(String(input).replace(fake, demos.url), init);
        if (!(res.headers.get('content-type') ?? '').includes('json')) return res;
        return new Response((await res.text()).split(demos.url).join(fake), { status: res.status, headers: res.headers });
      };
      const report = await runConformance(
        createNodeHost({ fetch: f, inbox: false, allowInsecureCredentials: false }),
        {
          agentUrl: `${fake}/demo/v03`,
          credentials: { kind: 'bearer', token: 'tok-on-the-wire' },
          timeoutMs: 5_000,
        },
        () => undefined,
      );
      expect(report.notAssessed?.reason).toBe('tool-failure');
      expect(report.notAssessed?.message).toMatch(/Not sent: this request carries the run's credentials .*A2A_ALLOW_INSECURE_CREDENTIALS=1/);
      expect(wire.length).toBeGreaterThan(0); // discovery went out, without the credential
      expect(wire.join('\n')).not.toContain('tok-on-the-wire');
    } finally {
      await demos.close();
    }
  });

  it('gRPC: credentials in metadata go over a plaintext channel only to loopback', async () => {
    const called: string[] = [];
    const transport: GrpcTransport = {
      unary: async (req) => {
        called.push(req.url);
        return { ...emptyGrpcResult(), code: 0, responded: true, messages: [{}] };
      },
      serverStream: async () => emptyGrpcResult(),
    };
    const call = (url: string) => {
      const redactor = new Redactor().addSecret('tok-123456');
      const ctx = createHttpContext({ ...createNodeHost({ inbox: false, allowInsecureCredentials: false }), grpc: transport }, { redactor });
      return grpcExchange(ctx, { url, op: 'get', message: { id: 't' }, headers: { Authorization: 'Bearer tok-123456' }, lane: 't' });
    };
    for (const url of ['grpc://10.1.2.3:50051', 'http://agent.example:50051']) {
      const { http } = await call(url);
      expect(http.error?.code, url).toBe('insecure_credentials');
    }
    expect(called).toEqual([]);
    for (const url of ['grpcs://10.1.2.3:50051', 'agent.example:443', 'grpc://127.0.0.1:50051', '127.0.0.1:50051']) await call(url);
    expect(called).toEqual(['grpcs://10.1.2.3:50051', 'agent.example:443', 'grpc://127.0.0.1:50051', '127.0.0.1:50051']);
  });

  it('the dashboard: off by default, its settings switch reaches the browser host', async () => {
    const sent: string[] = [];
    const f: typeof fetch = async (input) => {
      sent.push(String(input));
      return new Response('{}', { headers: { 'content-type': 'application/json' } });
    };
    const settings = createSettingsStore().getState();
    expect(settings.allowInsecureCredentials).toBe(false);
    const ask = (allow: boolean) => {
      const redactor = new Redactor().addSecret('tok-123456');
      const host = createHost({ mode: 'direct', allowInsecureCredentials: allow });
      const ctx = createHttpContext({ ...host, fetch: (u, init) => f(u, init) }, { redactor });
      return exchange(ctx, { method: 'GET', url: 'http://192.168.1.20/a2a', headers: { Authorization: 'Bearer tok-123456' }, lane: 't' });
    };
    expect((await ask(settings.allowInsecureCredentials)).error?.code).toBe('insecure_credentials');
    expect(sent).toEqual([]);
    expect((await ask(true)).responded).toBe(true);
    expect(sent).toEqual(['http://192.168.1.20/a2a']);
  });

  describe('servers', () => {
    let local: Awaited<ReturnType<typeof startServer>>;
    let hosted: Awaited<ReturnType<typeof startServer>>;
    let dist = '';
    beforeAll(async () => {
      dist = mkdtempSync(join(tmpdir(), 'a2a-dist-sec-'));
      writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
      local = await startServer({ port: 0, distDir: dist, quiet: true, demoAgents: false });
      hosted = await startServer({ port: 0, distDir: dist, quiet: true, proxyMode: 'hosted' });
    });
    afterAll(async () => {
      await Promise.all([local?.close(), hosted?.close()]);
      if (dist) rmSync(dist, { recursive: true, force: true });
    });

    it('npm start does not trust the Vite dev origin (http://127.0.0.1:5173, any Vite app) for its proxy or inbox', async () => {
      for (const origin of ['http://127.0.0.1:5173', 'http://localhost:5173']) {
        const p = await fetch(`${local.url}/proxy/health`, { headers: { Origin: origin, 'X-A2A-Interop': '1' } });
        expect(p.status, origin).toBe(403);
        const i = await fetch(`${local.url}/inbox`, { method: 'POST', headers: { Origin: origin, 'X-A2A-Interop': '1' }, body: '{}' });
        expect(i.status, origin).toBe(403);
      }
    });

    it('the dashboard is served with a strict Content-Security-Policy', async () => {
      const res = await fetch(`${local.url}/`);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    });

    it('a hosted server without ALLOWED_HOSTS says so in its health answer', async () => {
      const res = await fetch(`${hosted.url}/proxy/health`, { headers: { Origin: hosted.url } });
      const body = (await res.json()) as { warnings?: string[] };
      expect(body.warnings?.[0]).toMatch(/ALLOWED_HOSTS is not set/);
    });
  });
});

describe('the limits are configurable', () => {
  it('reads the inbox and proxy budgets from the environment and refuses values it cannot use', () => {
    const o = serverOptionsFromEnv({
      INBOX_MAX_TOTAL_BYTES: '64M',
      INBOX_MAX_BOX_BYTES: '512K',
      INBOX_MAX_INBOXES: '50',
      INBOX_MAX_PER_CLIENT: '5',
      PROXY_MAX_OPEN_PER_CLIENT: '0',
      PROXY_MAX_STREAM_SECONDS: '60',
    });
    expect(o.inboxLimits).toEqual({ maxTotalBytes: 64 * 1024 * 1024, maxBoxBytes: 512 * 1024, maxInboxes: 50, maxInboxesPerClient: 5 });
    expect(o.proxyLimits).toEqual({ maxOpenPerClient: 0, maxStreamMs: 60_000 });
    expect(serverOptionsFromEnv({}).inboxLimits).toBeUndefined();
    expect(() => serverOptionsFromEnv({ INBOX_MAX_TOTAL_BYTES: 'lots' })).toThrow(ServerConfigError);
    expect(() => serverOptionsFromEnv({ INBOX_MAX_TOTAL_BYTES: '1K' })).toThrow(/INBOX_MAX_TOTAL_BYTES must be at least 65536 bytes/);
    expect(() => serverOptionsFromEnv({ PROXY_MAX_STREAM_SECONDS: '-1' })).toThrow(/PROXY_MAX_STREAM_SECONDS/);
  });
});

describe('probe 7: what the server runs is audited', () => {
  it('every package the server imports (and tsx, which runs it) is a production dependency of the lockfile', async () => {
    const { build } = await import('esbuild');
    const r = await build({
      entryPoints: [join(ROOT, 'src/server/main.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      outfile: join(tmpdir(), 'a2a-server-probe.mjs'),
      loader: { '.node': 'empty' },
    });
    const packages = new Set(['tsx']);
    for (const f of Object.keys(r.metafile.inputs)) {
      const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f);
      if (m?.[1]) packages.add(m[1]);
    }
    expect(packages.has('ipaddr.js')).toBe(true);
    expect(packages.has('express')).toBe(true);
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    // supports-color: an optional peer that debug loads only when something else installed it (try/require).
    const OPTIONAL = new Set(['supports-color']);
    const devOnly = [...packages].filter((p) => !OPTIONAL.has(p) && lock.packages[`node_modules/${p}`]?.dev === true);
    expect(devOnly).toEqual([]);
    // ...and the CLI package keeps its few dependencies (the server's live in the server/ workspace).
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies)).not.toContain('express');
  }, 30_000);
});
