/**
 * The browser host against a real Node proxy (absolute proxy URL, Node's fetch standing in for the
 * browser's), and the engine's HTTP client on top of it: proxy-made failures arrive as `X-Proxy-Error`
 * responses and become `source: 'proxy'` errors, never agent failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, exchange, stream, type HttpContext } from '../engine/http/client';
import type { RunEvent } from '../engine/model/events';
import type { Host } from '../engine/ports';
import { Redactor } from '../engine/redact';
import { type ProxyServer, type Recorder, startProxy, startUpstream } from '../proxy/node-testing';
import { checkProxyHealth, createBrowserHost, explainTarget, proxiedUrl } from './browser';

let agent: Recorder;
let proxy: ProxyServer;
let deadPort: number;

beforeAll(async () => {
  agent = await startUpstream((req, res) => {
    if (req.url === '/sse-cut') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"kind":"status-update"}\n\n');
      setTimeout(() => req.socket.destroy(), 30);
      return;
    }
    if (req.url === '/html') {
      res.setHeader('content-type', 'text/html');
      res.end('<html>not a proxy</html>');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ headers: req.headers, body: req.seen.body, url: req.url }));
  });
  proxy = await startProxy({ mode: 'local' });
  const dead = await startUpstream((_q, s) => s.end());
  deadPort = dead.port;
  await dead.close();
});

afterAll(async () => {
  await proxy?.close();
  await agent?.close();
});

function ctxFor(host: Host): HttpContext & { events: RunEvent[] } {
  const events: RunEvent[] = [];
  let n = 0;
  return {
    host,
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    redactor: new Redactor(),
    newId: (p) => `${p}${++n}`,
    limits: { ...DEFAULT_LIMITS, requestTimeoutMs: 5_000, streamIdleTimeoutMs: 5_000 },
    events,
  };
}

describe('createBrowserHost, proxy mode', () => {
  it('rewrites to ?url=<encoded> and keeps an existing query', () => {
    expect(proxiedUrl('/proxy', 'http://a.test/x?y=1&z=2')).toBe('/proxy?url=http%3A%2F%2Fa.test%2Fx%3Fy%3D1%26z%3D2');
    expect(proxiedUrl('https://p.example/proxy/', 'http://a.test/')).toBe('https://p.example/proxy?url=http%3A%2F%2Fa.test%2F');
    expect(proxiedUrl('https://p.example/proxy?k=1', 'http://a.test/')).toBe('https://p.example/proxy?k=1&url=http%3A%2F%2Fa.test%2F');
  });

  it('reaches the agent through the proxy with the dashboard header and the card-named API-key header', async () => {
    const host = createBrowserHost({ mode: 'proxy', proxyUrl: `${proxy.origin}/proxy` });
    expect(host.transport).toBe('proxy');
    const res = await host.fetch(agent.url('/a2a?x=1'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Card-Key': 'secret-key', authorization: 'Bearer t' },
      body: '{"jsonrpc":"2.0"}',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-proxy-upstream-status')).toBe('200');
    const seen = (await res.json()) as { headers: Record<string, string>; url: string; body: string };
    expect(seen.url).toBe('/a2a?x=1');
    expect(seen.body).toBe('{"jsonrpc":"2.0"}');
    expect(seen.headers['x-card-key']).toBe('secret-key');
    expect(seen.headers.authorization).toBe('Bearer t');
    expect(seen.headers['x-a2a-interop']).toBeUndefined();
  });

  it('returns proxy-made errors as responses instead of throwing', async () => {
    const host = createBrowserHost({ mode: 'proxy', proxyUrl: `${proxy.origin}/proxy` });
    const res = await host.fetch('ftp://example.com/', { method: 'GET' });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-proxy-error')).toBe('bad_target');
  });

  it('turns an unreachable proxy into a proxy_unreachable response', async () => {
    const host = createBrowserHost({ mode: 'proxy', proxyUrl: `http://127.0.0.1:${deadPort}/proxy` });
    const res = await host.fetch(agent.url('/'), { method: 'GET' });
    expect(res.headers.get('x-proxy-error')).toBe('proxy_unreachable');
    expect(((await res.json()) as { detail: string }).detail).toMatch(/proxy URL setting/);
  });

  it('still rejects when the engine aborts', async () => {
    const host = createBrowserHost({ mode: 'proxy', proxyUrl: `${proxy.origin}/proxy` });
    const ctl = new AbortController();
    ctl.abort();
    await expect(host.fetch(agent.url('/'), { method: 'GET', signal: ctl.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('createBrowserHost, direct mode', () => {
  it('calls fetch with the target and the init untouched', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const fake = (async (input: string | URL | Request, init?: RequestInit) => {
      calls.push([String(input), init]);
      return new Response('ok');
    }) as typeof fetch;
    const host = createBrowserHost({ mode: 'direct', fetch: fake });
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
    await host.fetch('https://agent.example/a2a', init);
    expect(calls).toEqual([['https://agent.example/a2a', init]]);
    expect(host.transport).toBe('direct');
  });

  it('lets a CORS-style network failure surface as a TypeError', async () => {
    const host = createBrowserHost({ mode: 'direct' });
    await expect(host.fetch(`http://127.0.0.1:${deadPort}/`, { method: 'GET' })).rejects.toBeInstanceOf(TypeError);
  });
});

describe('checkProxyHealth', () => {
  it('reports a running proxy and its mode', async () => {
    expect(await checkProxyHealth(`${proxy.origin}/proxy`)).toEqual({ ok: true, mode: 'local', version: expect.any(String) });
  });

  it('reports a dead proxy and a server that is not the proxy, without throwing', async () => {
    const dead = await checkProxyHealth(`http://127.0.0.1:${deadPort}/proxy`);
    expect(dead.ok).toBe(false);
    expect(dead.error).toMatch(/could not be reached/);
    const notProxy = await checkProxyHealth(agent.url('/html'));
    expect(notProxy.ok).toBe(false);
  });
});

describe('the engine through the browser host', () => {
  const host = () => createBrowserHost({ mode: 'proxy', proxyUrl: `${proxy.origin}/proxy` });

  it("a response from the agent is the agent's", async () => {
    const ctx = ctxFor(host());
    const r = await exchange(ctx, { method: 'GET', url: agent.url('/card'), lane: 'l' });
    expect(r.responded).toBe(true);
    expect(r.status).toBe(200);
    expect(r.error).toBeUndefined();
  });

  it('an agent the proxy cannot reach is a proxy error, not an agent failure', async () => {
    const ctx = ctxFor(host());
    const r = await exchange(ctx, { method: 'POST', url: `http://127.0.0.1:${deadPort}/a2a`, body: '{}', lane: 'l' });
    expect(r.responded).toBe(false);
    expect(r.error).toMatchObject({ source: 'proxy', code: 'connect_failed', blame: 'unknown' });
    const logged = ctx.events.find((e) => e.type === 'http-response');
    expect(logged && logged.type === 'http-response' && logged.error?.source).toBe('proxy');
  });

  it('a stream the proxy had to cut is marked as cut by the proxy', async () => {
    const ctx = ctxFor(host());
    const out = await stream(ctx, { method: 'POST', url: agent.url('/sse-cut'), body: '{}', lane: 'l' }, () => undefined);
    expect(out.events).toBe(1);
    expect(out.proxyCut).toBe(true);
    expect(out.reason).toBe('error');
    expect(out.result.error).toMatchObject({ source: 'proxy', code: 'stream_cut' });
  });
});

describe('explainTarget (re-exported for the UI)', () => {
  it('explains a private target behind a hosted proxy', () => {
    expect(explainTarget('http://192.168.1.20:8080/', { kind: 'hosted' })).toMatch(/private network/);
    expect(explainTarget('http://192.168.1.20:8080/', { kind: 'local' })).toBeUndefined();
  });
});

describe('browser readiness through the proxy diagnostic (/proxy/preflight)', () => {
  it('measures the CORS preflight of a CORS-ready agent and of one without CORS, end to end through the engine', async () => {
    const { startDefectAgent } = await import('../testing/defect-agent');
    const { runConformance } = await import('../engine/runner/run');
    const { reportResults } = await import('../engine/report/build');
    const ready = await startDefectAgent({ generation: 'v1.0', slowTaskMs: 200, stepMs: 5 });
    const closed = await startDefectAgent({ generation: 'v1.0', defects: ['no-cors'], slowTaskMs: 200, stepMs: 5 });
    try {
      const host = createBrowserHost({ mode: 'proxy', proxyUrl: `${proxy.origin}/proxy` });
      expect(host.preflight).toBeTypeOf('function');
      const only = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];
      const statuses = async (url: string) => {
        const report = await runConformance(host, { agentUrl: url.replace(/\/\.well-known\/.*$/, ''), only }, () => {});
        return Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
      };
      const ok = await statuses(ready.cardUrl);
      expect(only.map((id) => ok[id]!.status)).toEqual(['pass', 'pass', 'pass']);
      expect(ok['interop.cors.rpc']!.evidence[0]!.value).toMatch(/access-control-allow-origin/i);
      const bad = await statuses(closed.cardUrl);
      // CORS is outside A2A: advisories, never failures.
      expect(only.map((id) => bad[id]!.status)).toEqual(['advisory', 'advisory', 'advisory']);
      expect(bad['interop.cors.card']!.message).toMatch(/Access-Control-Allow-Origin/);
      // The agent saw our synthetic origin, never the dashboard's.
      expect(closed.requests.some((r) => r.method === 'OPTIONS' && r.headers.origin === 'https://dashboard.a2a-interop.example')).toBe(true);
    } finally {
      await Promise.all([ready.close(), closed.close()]);
    }
  });

  it('refuses the diagnostic without the dashboard header and for bad targets', async () => {
    const noHeader = await fetch(`${proxy.origin}/proxy/preflight?url=${encodeURIComponent('http://127.0.0.1:1/')}`);
    expect(noHeader.headers.get('x-proxy-error')).toBe('origin_not_allowed');
    const badTarget = await fetch(`${proxy.origin}/proxy/preflight?url=ftp%3A%2F%2Fx`, { headers: { 'x-a2a-interop': '1' } });
    expect(badTarget.headers.get('x-proxy-error')).toBe('bad_target');
  });
});
