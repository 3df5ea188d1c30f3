/**
 * The Web-standard handler with an in-memory upstream: behaviour that does not depend on sockets
 * (those classes are covered over real sockets in node.test.ts and under workerd in worker.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createProxyHandler, type UpstreamFetch, type UpstreamRequest, type UpstreamResponse } from './handler';
import { UpstreamError } from './errors';

const ORIGIN = 'http://127.0.0.1:4173';
const target = 'http://agent.test:9000/a2a';

function req(url: string, init: RequestInit & { headers?: Record<string, string> } = {}): Request {
  return new Request(`${ORIGIN}${url}`, {
    ...init,
    headers: { host: '127.0.0.1:4173', 'x-a2a-interop': '1', ...init.headers },
  });
}

function fakeUpstream(respond: (r: UpstreamRequest) => UpstreamResponse | Promise<UpstreamResponse>) {
  const calls: UpstreamRequest[] = [];
  const fn: UpstreamFetch = async (r) => {
    calls.push(r);
    return respond(r);
  };
  return { fn, calls };
}

const streamOf = (...parts: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const p of parts) c.enqueue(new TextEncoder().encode(p));
      c.close();
    },
  });

describe('createProxyHandler', () => {
  it('returns a 404 problem for paths outside /proxy', async () => {
    const up = fakeUpstream(() => ({ status: 200, headers: new Headers(), body: null }));
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn });
    for (const path of ['/', '/proxyx', '/api/proxy']) {
      const res = await handle(req(path));
      expect(res.status).toBe(404);
      expect(res.headers.get('x-proxy-error')).toBe('bad_target');
    }
    expect(up.calls).toHaveLength(0);
  });

  it('drops the body of null-body statuses and HEAD', async () => {
    const up = fakeUpstream((r) => ({
      status: r.url.pathname === '/nc' ? 204 : 200,
      headers: new Headers({ 'content-length': '5' }),
      body: streamOf('hello'),
    }));
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn });
    const nc = await handle(req(`/proxy?url=${encodeURIComponent('http://agent.test/nc')}`));
    expect(nc.status).toBe(204);
    expect(nc.body).toBeNull();
    const head = await handle(req(`/proxy?url=${encodeURIComponent(target)}`, { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(head.headers.get('content-length')).toBe('5');
  });

  it('trusts a transport that already decoded the body (Workers)', async () => {
    const up = fakeUpstream(() => ({
      status: 200,
      headers: new Headers({ 'content-encoding': 'gzip', 'content-length': '20', 'content-type': 'application/json' }),
      body: streamOf('{"plain":true}'),
      decoded: true,
    }));
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn });
    const res = await handle(req(`/proxy?url=${encodeURIComponent(target)}`));
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('content-length')).toBeNull();
    expect(await res.text()).toBe('{"plain":true}');
  });

  it('bounds the wait for the response head itself when the transport does not', async () => {
    const up = fakeUpstream(
      (r) =>
        new Promise<UpstreamResponse>((_resolve, reject) => {
          r.signal.addEventListener('abort', () => reject(r.signal.reason));
        }),
    );
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn, timeouts: { connectMs: 50, firstByteMs: 50 } });
    const t0 = performance.now();
    const res = await handle(req(`/proxy?url=${encodeURIComponent(target)}`));
    expect(res.status).toBe(504);
    expect(res.headers.get('x-proxy-error')).toBe('upstream_timeout');
    // The upstream settles only on abort, so the answer is our 50 ms budget's; the default budget would take over
    // two minutes: a generous bound a busy machine cannot reach.
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('classifies whatever the transport throws, and keeps UpstreamError codes', async () => {
    const errors: unknown[] = [Object.assign(new Error('x'), { code: 'ENOTFOUND' }), new UpstreamError('tls_failed', 'bad cert'), 'a string', null];
    const codes: (string | null)[] = [];
    for (const e of errors) {
      const handle = createProxyHandler({
        mode: 'local',
        upstream: async () => {
          throw e;
        },
      });
      codes.push((await handle(req(`/proxy?url=${encodeURIComponent(target)}`))).headers.get('x-proxy-error'));
    }
    expect(codes).toEqual(['dns_failed', 'tls_failed', 'connect_failed', 'connect_failed']);
  });

  it('cuts an event stream on any mid-body failure with the marker', async () => {
    let n = 0;
    const up = fakeUpstream(() => ({
      status: 200,
      headers: new Headers({ 'content-type': 'text/event-stream; charset=utf-8' }),
      body: new ReadableStream<Uint8Array>(
        {
          pull(c) {
            if (n++ === 0) c.enqueue(new TextEncoder().encode('data: 1\n\n'));
            else c.error(new TypeError('Network connection lost.'));
          },
        },
        { highWaterMark: 0 },
      ),
    }));
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn });
    const res = await handle(req(`/proxy?url=${encodeURIComponent(target)}`));
    expect(await res.text()).toBe('data: 1\n\n: x-proxy-error upstream_reset\n');
  });

  it('aborts the upstream when the client cancels the body', async () => {
    let aborted = false;
    const up = fakeUpstream((r) => {
      r.signal.addEventListener('abort', () => (aborted = true));
      return {
        status: 200,
        headers: new Headers({ 'content-type': 'text/event-stream' }),
        body: new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) }),
      };
    });
    const handle = createProxyHandler({ mode: 'local', upstream: up.fn });
    const res = await handle(req(`/proxy?url=${encodeURIComponent(target)}`));
    await res.body!.cancel();
    expect(aborted).toBe(true);
  });

  it('never throws on hostile requests', async () => {
    const up = fakeUpstream(() => ({ status: 200, headers: new Headers(), body: null }));
    const handle = createProxyHandler({ mode: 'hosted', upstream: up.fn, allowedOrigins: ['https://d.example'] });
    const nasty = [
      `/proxy?url=${encodeURIComponent('http://\u0000/')}`,
      `/proxy?url=${encodeURIComponent('http://[::ffff:7f00:1]/')}`,
      `/proxy?url=${encodeURIComponent('http://xn--/')}`,
      '/proxy?url=%E0%A4%A',
      '/proxy?url=http%3A%2F%2Fa.example%2F&url=http%3A%2F%2F127.0.0.1%2F',
      `/proxy?url=${encodeURIComponent(`http://${'a'.repeat(300)}.example/`)}`,
    ];
    for (const path of nasty) {
      const res = await handle(
        new Request(`https://proxy.example${path}`, { headers: { origin: 'https://d.example', 'x-a2a-interop': '1', 'x-proxy-forward-headers': '\u00ff,,,' } }),
      );
      expect(res).toBeInstanceOf(Response);
      expect(res.status, path).toBeLessThan(600);
    }
  });
});
