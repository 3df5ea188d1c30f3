import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from './node';

/** The Node host follows redirects like the proxy: credentials never go to another origin. */
let a: Server;
let b: Server;
const seen: { path: string; method: string; headers: IncomingHttpHeaders }[] = [];
const port = (s: Server) => (s.address() as AddressInfo).port;
const listen = (s: Server) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));

beforeAll(async () => {
  b = createServer((req, res) => {
    seen.push({ path: req.url ?? '', method: req.method ?? '', headers: req.headers });
    res.end('landed');
  });
  await listen(b);
  a = createServer((req, res) => {
    seen.push({ path: req.url ?? '', method: req.method ?? '', headers: req.headers });
    if (req.url === '/away') res.writeHead(307, { Location: `http://localhost:${port(b)}/there` }).end();
    else if (req.url === '/near') res.writeHead(302, { Location: '/here' }).end();
    else if (req.url === '/loop') res.writeHead(302, { Location: '/loop' }).end();
    else res.end('home');
  });
  await listen(a);
});
afterAll(() => {
  a.close();
  b.close();
});

const creds = { Authorization: 'Bearer tok-1', 'X-API-Key': 'key-1', 'A2A-Version': '1.0', 'Content-Type': 'application/json' };

describe('Node host redirects', () => {
  it('a redirect to another origin carries no credential header (API keys included), only protocol headers', async () => {
    seen.length = 0;
    const res = await createNodeHost({ inbox: false }).fetch(`http://127.0.0.1:${port(a)}/away`, { method: 'POST', headers: creds, body: '{"x":1}' });
    expect(await res.text()).toBe('landed');
    const there = seen.find((s) => s.path === '/there');
    expect(there?.method).toBe('POST');
    expect(there?.headers['x-api-key']).toBeUndefined();
    expect(there?.headers.authorization).toBeUndefined();
    expect(there?.headers['a2a-version']).toBe('1.0');
  });

  it('a same-origin redirect keeps the credentials; a POST answered 302 becomes a GET', async () => {
    seen.length = 0;
    const res = await createNodeHost({ inbox: false }).fetch(`http://127.0.0.1:${port(a)}/near`, { method: 'POST', headers: creds, body: '{}' });
    expect(await res.text()).toBe('home');
    const here = seen.find((s) => s.path === '/here');
    expect(here?.headers['x-api-key']).toBe('key-1');
    expect(here?.method).toBe('GET');
  });

  it('a loop fails the way fetch says it (the engine calls it the agent’s redirect loop), and manual stays manual', async () => {
    const host = createNodeHost({ inbox: false });
    await expect(host.fetch(`http://127.0.0.1:${port(a)}/loop`, { method: 'GET' })).rejects.toMatchObject({ cause: { message: 'redirect count exceeded' } });
    const res = await host.fetch(`http://127.0.0.1:${port(a)}/away`, { method: 'GET', redirect: 'manual' });
    expect(res.status).toBe(307);
  });
});
