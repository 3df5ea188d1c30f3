/**
 * The Workers entry for real under workerd (wrangler's `unstable_startWorker`, local mode, no login),
 * configured by wrangler.jsonc. Upstreams are tiny servers on 127.0.0.1:0, reachable only because the
 * test sets UNSAFE_ALLOW_TARGETS to their exact ip:port; everything else private stays blocked.
 */
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockStep, readLockStep, type Recorder, startUpstream } from './node-testing';

process.env.CLOUDFLARE_CF_FETCH_ENABLED = 'false';
process.env.WRANGLER_SEND_METRICS = 'false';

const DASH = 'https://dash.example';
const H = { origin: DASH, 'x-a2a-interop': '1' };
const enc = encodeURIComponent;

let echo: Recorder;
let sse: Recorder;
let internal: Recorder;
/** The SSE agent's lock step with the test that reads it (node-testing.ts lockStep); a new one per read. */
let sseStep = lockStep();
let worker: { url: Promise<URL>; dispose(): Promise<void> } | undefined;
let base = '';

beforeAll(async () => {
  echo = await startUpstream((req, res) => {
    if (req.url?.startsWith('/to/')) {
      res.writeHead(302, { location: decodeURIComponent(req.url.slice(4)) });
      res.end();
      return;
    }
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync('{"zipped":false}'));
      return;
    }
    if (req.url === '/br') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
      res.end(zlib.brotliCompressSync('{"brotli":false}'));
      return;
    }
    if (req.url === '/hang') {
      // Keeps talking: workerd notices a vanished client when it next writes to it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      const tick = setInterval(() => res.write(': tick\n\n'), 100);
      res.on('close', () => clearInterval(tick));
      return;
    }
    if (req.url === '/reset') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: one\n\n');
      setTimeout(() => req.socket.destroy(), 50);
      return;
    }
    res.setHeader('set-cookie', 'agent=1');
    res.setHeader('x-proxy-error', 'forged');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ method: req.method, headers: req.headers, body: req.seen.body }));
  });
  sse = await startUpstream((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const step = sseStep;
    void (async () => {
      for (let n = 0; n < 5; n++) {
        res.write(`data: {"n":${n}}\n\n`);
        // The next event exists only once the reader has this one: a buffering relay stalls here.
        if (n < 4) await step.next();
      }
      res.end();
    })();
  });
  internal = await startUpstream((_req, res) => res.end('internal'));
  const { unstable_startWorker } = await import('wrangler');
  const w = await unstable_startWorker({
    config: fileURLToPath(new URL('../../wrangler.jsonc', import.meta.url)),
    bindings: {
      ALLOWED_ORIGINS: { type: 'plain_text', value: DASH },
      UNSAFE_ALLOW_TARGETS: { type: 'plain_text', value: `127.0.0.1:${echo.port},127.0.0.1:${sse.port}` },
    },
    dev: { server: { hostname: '127.0.0.1', port: 0 }, inspector: false, watch: false, persist: false, logLevel: 'none' },
  });
  worker = w;
  base = (await w.url).origin;
}, 90_000);

afterAll(async () => {
  await worker?.dispose();
  await Promise.all([echo?.close(), sse?.close(), internal?.close()]);
});

const proxied = (target: string) => `${base}/proxy?url=${enc(target)}`;

describe('Workers entry under workerd', () => {
  it('answers health in hosted mode with exact-origin CORS', async () => {
    const res = await fetch(`${base}/proxy/health`, { headers: { origin: DASH } });
    // No ALLOWED_HOSTS here: the health answer says what that leaves open.
    expect(await res.json()).toEqual({ ok: true, mode: 'hosted', version: expect.any(String), warnings: [expect.stringMatching(/^ALLOWED_HOSTS is not set/)] });
    expect(res.headers.get('access-control-allow-origin')).toBe(DASH);
  });

  it('answers the CORS preflight for the dashboard origin only', async () => {
    const ok = await fetch(proxied(echo.url('/')), {
      method: 'OPTIONS',
      headers: { origin: DASH, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-a2a-interop' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DASH);
    const evil = await fetch(proxied(echo.url('/')), {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('forwards a JSON-RPC POST with the header allowlist, strips Set-Cookie and forged X-Proxy-*', async () => {
    const body = '{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}';
    const res = await fetch(proxied(echo.url('/rpc')), {
      method: 'POST',
      headers: { ...H, 'content-type': 'application/json', authorization: 'Bearer t', cookie: 'dash=1', 'a2a-version': '1.0', 'x-forwarded-for': '1.2.3.4' },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-proxy-upstream-status')).toBe('200');
    expect(res.headers.get('x-proxy-error')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    const seen = (await res.json()) as { body: string; headers: Record<string, string> };
    expect(seen.body).toBe(body);
    expect(seen.headers.authorization).toBe('Bearer t');
    expect(seen.headers['a2a-version']).toBe('1.0');
    expect(seen.headers.cookie).toBeUndefined();
    expect(seen.headers.origin).toBeUndefined();
    expect(seen.headers['x-forwarded-for']).toBeUndefined();
  });

  it('delivers each SSE event before the agent writes the next (lock step: no clock, so no load can fail it)', async () => {
    sseStep = lockStep();
    const res = await fetch(proxied(sse.url('/stream')), { headers: { ...H, accept: 'text/event-stream' } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const read = await readLockStep(res.body!, sseStep);
    expect(read.stalled).toBeUndefined();
    expect(read.events).toEqual([0, 1, 2, 3, 4].map((n) => `data: {"n":${n}}`));
  });

  it('ends a stream reset mid-way with the SSE comment marker', async () => {
    const res = await fetch(proxied(echo.url('/reset')), { headers: H });
    expect(await res.text()).toBe('data: one\n\n: x-proxy-error upstream_reset\n');
  });

  it('delivers gzip and brotli bodies the agent sent despite identity readably', async () => {
    const gz = await fetch(proxied(echo.url('/gzip')), { headers: H });
    expect(await gz.json()).toEqual({ zipped: false });
    const br = await fetch(proxied(echo.url('/br')), { headers: H });
    expect(await br.json()).toEqual({ brotli: false });
  });

  it('blocks private targets and localhost, and redirects to them', async () => {
    for (const t of [
      'http://10.0.0.1/',
      `http://127.0.0.1:${internal.port}/`,
      `http://localhost:${internal.port}/`,
      'http://[::1]/',
      'http://169.254.169.254/',
    ]) {
      const res = await fetch(proxied(t), { headers: H });
      expect(res.status, t).toBe(403);
      expect(res.headers.get('x-proxy-error'), t).toBe('target_blocked');
      // The dashboard can read the proxy's verdict cross-origin.
      expect(res.headers.get('access-control-allow-origin'), t).toBe(DASH);
    }
    const hop = await fetch(proxied(echo.url(`/to/${enc(`http://127.0.0.1:${internal.port}/`)}`)), { headers: H });
    expect(hop.headers.get('x-proxy-error')).toBe('redirect_blocked');
    expect(internal.requests).toHaveLength(0);
  });

  it('refuses foreign origins, missing Origin and missing dashboard header', async () => {
    const evil = await fetch(proxied(echo.url('/')), { headers: { ...H, origin: 'https://evil.example' } });
    expect(evil.headers.get('x-proxy-error')).toBe('origin_not_allowed');
    const none = await fetch(proxied(echo.url('/')), { headers: { 'x-a2a-interop': '1' } });
    expect(none.headers.get('x-proxy-error')).toBe('origin_not_allowed');
    const noHeader = await fetch(proxied(echo.url('/')), { headers: { origin: DASH } });
    expect(noHeader.headers.get('x-proxy-error')).toBe('origin_not_allowed');
  });

  it('aborts the upstream request when the client leaves mid-stream', async () => {
    const aborted = echo.nextAbort();
    const ctl = new AbortController();
    const res = await fetch(proxied(echo.url('/hang')), { headers: H, signal: ctl.signal });
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    const t0 = performance.now();
    ctl.abort();
    const seen = await Promise.race([aborted, new Promise<undefined>((r) => setTimeout(() => r(undefined), 15_000))]);
    expect(seen?.url).toBe('/hang');
    // The agent never ends the stream: an abort seen within 10 s is the client's (a generous bound a busy machine
    // cannot reach; it takes a few ms).
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('refuses bad targets', async () => {
    for (const t of ['ftp://example.com/', 'http://u:p@example.com/', 'nope']) {
      const res = await fetch(proxied(t), { headers: H });
      expect(res.headers.get('x-proxy-error'), t).toBe('bad_target');
    }
  });
});
