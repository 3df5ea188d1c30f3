/**
 * The hostile agents do on the wire what their descriptions claim (checked with a raw node:http / node:net
 * client, not the engine), so the corpus tests judge the engine against real misbehaviour.
 */
import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { BIG_HEADER_BYTES, HUGE_CARD_BYTES, NEST_DEPTH, RETRY_AFTER_S, type HostileName } from './behaviours';
import { startHostileAgent } from './index';
import type { RunningHostileAgent } from './server';

const agents: RunningHostileAgent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

async function agent(name: HostileName): Promise<RunningHostileAgent> {
  const a = await startHostileAgent(name);
  agents.push(a);
  return a;
}

const CARD = '/.well-known/agent-card.json';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaderBytes: number;
  chunks: Buffer[];
  body: Buffer;
  error?: string;
}

/** One request with node:http; `until` may end the read early (returns true to stop). */
function raw(base: string, path: string, opts: { method?: string; body?: string; until?: (chunks: Buffer[]) => boolean } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, {
      method: opts.method ?? 'GET',
      agent: false,
      maxHeaderSize: 1024 * 1024,
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', accept: 'application/json, text/event-stream' },
    });
    let settle: ((error: string) => void) | undefined;
    // After the head arrived, a reset ends the read (with what came) instead of failing it.
    req.on('error', (e) => (settle ? settle(e.message) : reject(e)));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      const out = (error?: string): Raw => ({
        status: res.statusCode ?? 0,
        headers: res.headers,
        rawHeaderBytes: res.rawHeaders.reduce((n, h) => n + h.length, 0),
        chunks,
        body: Buffer.concat(chunks),
        error,
      });
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        if (opts.until?.(chunks)) {
          res.destroy();
          resolve(out());
        }
      });
      settle = (error) => resolve(out(error));
      res.on('end', () => resolve(out()));
      res.on('error', (e) => resolve(out(e.message)));
      res.on('aborted', () => resolve(out('aborted')));
    });
    req.end(opts.body);
  });
}

const rpc = (method: string, text = 'Write a haiku about interoperability') =>
  JSON.stringify({ jsonrpc: '2.0', id: 'wire-1', method, params: { message: { messageId: `m-${Math.random()}`, role: 'ROLE_USER', parts: [{ text }] } } });

const isUtf8 = (b: Buffer) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('hostile agents on the wire', () => {
  it.concurrent('card-50mb sends a 50 MB card', async () => {
    const a = await agent('card-50mb');
    let size = 0;
    const r = await raw(a.url, CARD, { until: (c) => ((size += c.at(-1)!.length), false) });
    expect(size).toBeGreaterThan(HUGE_CARD_BYTES);
    expect(r.headers['content-length']).toBeUndefined();
  });

  it.concurrent('card-bom, card-invalid-utf8, card-nested-100k, card-yaml serve what they say', async () => {
    const bom = await raw((await agent('card-bom')).url, CARD);
    expect([...bom.body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(isUtf8((await raw((await agent('card-invalid-utf8')).url, CARD)).body)).toBe(false);
    expect((await raw((await agent('card-nested-100k')).url, CARD)).body.toString()).toContain('['.repeat(NEST_DEPTH));
    const yaml = await raw((await agent('card-yaml')).url, CARD);
    expect(yaml.headers['content-type']).toBe('application/yaml');
    expect(yaml.body.toString()).toMatch(/^# agent card\nname: /);
  });

  it.concurrent('card-redirect-loop and rpc-redirect-loop redirect in a circle; rpc-redirect-other-host leaves the host', async () => {
    const card = (await agent('card-redirect-loop')).url;
    const first = await raw(card, CARD);
    expect(first.status).toBe(302);
    const second = await raw(card, first.headers.location!);
    expect(second.headers.location).toBe(CARD);
    const rpcLoop = (await agent('rpc-redirect-loop')).url;
    const r1 = await raw(rpcLoop, '/', { method: 'POST', body: rpc('SendMessage') });
    const r2 = await raw(rpcLoop, r1.headers.location!, { method: 'POST', body: rpc('SendMessage') });
    expect([r1.status, r2.status, r2.headers.location]).toEqual([307, 307, '/']);
    const other = await raw((await agent('rpc-redirect-other-host')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect(other.status).toBe(307);
    expect(new URL(other.headers.location!).hostname).toBe('localhost');
  });

  it.concurrent('rpc-headers-64k sends 64 KB of headers; rpc-429 sends Retry-After; rpc-nested-100k nests 100,000 deep', async () => {
    const big = await raw((await agent('rpc-headers-64k')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect(big.rawHeaderBytes).toBeGreaterThanOrEqual(BIG_HEADER_BYTES);
    const limited = await raw((await agent('rpc-429')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, String(RETRY_AFTER_S)]);
    const deep = await raw((await agent('rpc-nested-100k')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect(deep.body.toString()).toContain(`"result":${'['.repeat(NEST_DEPTH)}`);
  });

  it.concurrent('rpc-invalid-utf8 and rpc-bom corrupt the JSON-RPC answers', async () => {
    const bad = await raw((await agent('rpc-invalid-utf8')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect(isUtf8(bad.body)).toBe(false);
    const bom = await raw((await agent('rpc-bom')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect([...bom.body.subarray(0, 4)]).toEqual([0xef, 0xbb, 0xbf, 0x7b]);
  });

  it.concurrent('rpc-reset-mid-body cuts the body short with a reset', async () => {
    const r = await raw((await agent('rpc-reset-mid-body')).url, '/', { method: 'POST', body: rpc('SendMessage') });
    expect(r.error ?? 'no error').toMatch(/aborted|ECONNRESET|socket hang up/);
    expect(r.body.length).toBeGreaterThan(0);
    expect(r.body.length).toBeLessThan(Number(r.headers['content-length']));
  });

  it.concurrent('rpc-drip sends one byte per second', async () => {
    const t0 = performance.now();
    const r = await raw((await agent('rpc-drip')).url, '/', { method: 'POST', body: rpc('SendMessage'), until: (c) => c.length >= 2 });
    expect(r.chunks.map((c) => c.length)).toEqual([1, 1]);
    expect(performance.now() - t0).toBeGreaterThan(1500);
  });

  it.concurrent('sse-flood sends events far faster than the engine keeps them (its 2,000-event cap fills within 0.1 s)', async () => {
    let events = 0;
    let t0 = 0;
    const r = await raw((await agent('sse-flood')).url, '/', {
      method: 'POST',
      body: rpc('SendStreamingMessage'),
      until: (c) => {
        t0 ||= performance.now();
        events += (c.at(-1)!.toString().match(/\n\n/g) ?? []).length;
        return events >= 200_000;
      },
    });
    const perSecond = (events / (performance.now() - t0)) * 1000;
    console.log(`sse-flood: ${events} events read at ${Math.round(perSecond)} events/s`);
    expect(r.headers['content-type']).toBe('text/event-stream');
    // Well over 100,000 a second on a quiet machine (printed above); what the corpus needs is a flood that fills the
    // engine's per-stream cap of 2,000 events at once, which 20,000 a second still does on a busy one.
    expect(perSecond).toBeGreaterThan(20_000);
  });

  it.concurrent('sse-split-every-byte writes one byte per chunk; sse-invalid-utf8 and sse-bom-every-event corrupt the stream', async () => {
    const split = await raw((await agent('sse-split-every-byte')).url, '/', { method: 'POST', body: rpc('SendStreamingMessage') });
    expect(split.chunks.length).toBeGreaterThan(500);
    expect(Math.max(...split.chunks.map((c) => c.length))).toBe(1);
    expect(split.body.toString()).toContain('\r\n\r\n');
    const bad = await raw((await agent('sse-invalid-utf8')).url, '/', { method: 'POST', body: rpc('SendStreamingMessage') });
    expect(isUtf8(bad.body)).toBe(false);
    const boms = await raw((await agent('sse-bom-every-event')).url, '/', { method: 'POST', body: rpc('SendStreamingMessage') });
    expect(boms.body.toString().split('\uFEFFdata:').length).toBeGreaterThan(3);
  });

  it.concurrent('black-hole accepts and never sends a byte', async () => {
    const a = await agent('black-hole');
    const got = await new Promise<number>((resolve) => {
      const s = net.connect(Number(new URL(a.url).port), '127.0.0.1', () => s.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
      let n = 0;
      s.on('data', (d) => (n += d.length));
      setTimeout(() => {
        s.destroy();
        resolve(n);
      }, 500);
    });
    expect(got).toBe(0);
  });
});
