import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../model/events';
import { timerSleep } from '../ports';
import { Redactor } from '../redact';
import { createHttpContext, DEFAULT_LIMITS, exchange, lineEndNormalizer, retryAfterMs, Semaphore, stream, urgent, type HttpContext } from './client';
import { withSlot } from './context';

function ctxFor(responses: (() => Response)[]) {
  const events: RunEvent[] = [];
  let n = 0;
  let calls = 0;
  const ctx: HttpContext = {
    host: {
      fetch: async () => responses[Math.min(calls++, responses.length - 1)]!(),
      now: () => Date.now(),
      sleep: timerSleep,
      randomUUID: () => `u${++n}`,
    },
    signal: new AbortController().signal,
    emit: (e) => events.push(e),
    redactor: new Redactor(),
    newId: (p) => `${p}${++n}`,
    limits: { ...DEFAULT_LIMITS, requestTimeoutMs: 2000 },
  };
  return { ctx, events, calls: () => calls };
}

const req = { method: 'POST', url: 'http://agent.test/rpc', body: '{}', lane: 'test' };

describe('exchange: 429 with Retry-After', () => {
  it('retries once after a short Retry-After and records both exchanges', async () => {
    const { ctx, events, calls } = ctxFor([
      () => new Response('slow down', { status: 429, headers: { 'retry-after': '0' } }),
      () => new Response('{"ok":true}', { status: 200 }),
    ]);
    const r = await exchange(ctx, req);
    expect(r.status).toBe(200);
    expect(calls()).toBe(2);
    expect(events.filter((e) => e.type === 'http-response').map((e) => (e.type === 'http-response' ? e.response?.status : 0))).toEqual([429, 200]);
  });

  it('does not retry when Retry-After is long or missing, and a second 429 stands', async () => {
    const long = ctxFor([() => new Response('', { status: 429, headers: { 'retry-after': '3600' } })]);
    expect((await exchange(long.ctx, req)).status).toBe(429);
    expect(long.calls()).toBe(1);
    const none = ctxFor([() => new Response('', { status: 429 })]);
    expect((await exchange(none.ctx, req)).status).toBe(429);
    expect(none.calls()).toBe(1);
    const twice = ctxFor([() => new Response('', { status: 429, headers: { 'retry-after': '0' } })]);
    expect((await exchange(twice.ctx, req)).status).toBe(429);
    expect(twice.calls()).toBe(2);
  });

  it('parses delay-seconds and HTTP dates', () => {
    expect(retryAfterMs('2', 0)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:03 GMT', 1000)).toBe(2000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(null, 0)).toBeUndefined();
  });
});

describe('Semaphore', () => {
  it('never lets more than n holders in, and serves waiters in order', async () => {
    const s = new Semaphore(2);
    let active = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, i) => {
        const release = await s.acquire();
        active++;
        peak = Math.max(peak, active);
        order.push(i);
        await timerSleep(5);
        active--;
        release();
        release(); // a second release is ignored
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('Semaphore priority', () => {
  it('gives a freed slot to an urgent waiter before ordinary ones that queued earlier', async () => {
    const s = new Semaphore(1);
    const holder = await s.acquire();
    const order: string[] = [];
    const take = (name: string, p: 'urgent' | 'normal') =>
      s.acquire(p).then((release) => {
        order.push(name);
        release();
      });
    const all = Promise.all([take('bulk 1', 'normal'), take('bulk 2', 'normal'), take('cancel', 'urgent'), take('bulk 3', 'normal'), take('read', 'urgent')]);
    holder();
    await all;
    expect(order).toEqual(['cancel', 'read', 'bulk 1', 'bulk 2', 'bulk 3']);
  });

  it('urgent(ctx) marks the requests of a context, and withSlot takes the urgent lane for them', async () => {
    const ctx = createHttpContext({ fetch: async () => new Response(''), now: () => Date.now(), sleep: timerSleep, randomUUID: () => 'u' }, { concurrency: 1 });
    const u = urgent(ctx);
    expect(u.priority).toBe('urgent');
    expect(ctx.priority).toBeUndefined();
    expect(u.slots).toBe(ctx.slots);
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const first = withSlot(ctx, () => gate);
    const bulk = withSlot(ctx, async () => void order.push('bulk'));
    const cancel = withSlot(u, async () => void order.push('cancel'));
    open();
    await Promise.all([first, bulk, cancel]);
    expect(order).toEqual(['cancel', 'bulk']);
  });
});

/** A text/event-stream response written in the given chunks. */
const sseChunks = (chunks: string[]) => () => {
  const enc = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(c) {
        for (const x of chunks) c.enqueue(enc.encode(x));
        c.close();
      },
    }),
    { status: 200, headers: { 'content-type': 'text/event-stream' } },
  );
};

async function readStream(chunks: string[], limits: Partial<HttpContext['limits']> = {}) {
  const { ctx } = ctxFor([sseChunks(chunks)]);
  ctx.limits = { ...ctx.limits, ...limits };
  const data: string[] = [];
  const out = await stream(ctx, { ...req, lane: 'sse' }, (m) => void data.push(m.data));
  return { out, data };
}

describe('stream: SSE line ends and ignored lines (WHATWG)', () => {
  it('CR-only line ends deliver every event, the last one included', async () => {
    const { out, data } = await readStream(['data: one\r\r', 'data: two\r\r']);
    expect(data).toEqual(['one', 'two']);
    expect(out.reason).toBe('closed');
    expect(out.parseErrors).toEqual([]);
  });

  it('a CRLF split across chunks is one line end, not two', async () => {
    const { data } = await readStream(['data: one\r', '\ndata: more\r', '\n\r', '\n']);
    expect(data).toEqual(['one\nmore']);
  });

  it('mixed LF, CRLF and CR in one stream', async () => {
    const { data } = await readStream(['data: a\n\ndata: b\r\n\r\ndata: c\r\r']);
    expect(data).toEqual(['a', 'b', 'c']);
  });

  it('unknown fields and a non-numeric retry are recorded as ignored lines, with the field named', async () => {
    const { out, data } = await readStream(['retry: soon\nfoo: bar\n\uFEFFdata: lost\n\ndata: kept\n\n']);
    expect(data).toEqual(['kept']);
    expect(out.ignoredLineCount).toBe(3);
    expect(out.ignoredLines.map((l) => [l.type, l.field])).toEqual([
      ['invalid-retry', 'retry'],
      ['unknown-field', 'foo'],
      ['unknown-field', '\uFEFFdata'],
    ]);
  });

  it('an event larger than our buffer ends the read as our limit (oversize), not as a broken connection', async () => {
    const { out } = await readStream([`data: ${'x'.repeat(200)}`, `${'y'.repeat(200)}\n\n`, 'data: after\n\n'], { maxBodyBytes: 100 });
    expect(out.reason).toBe('oversize');
    expect(out.result.error).toBeUndefined();
  });

  it('lineEndNormalizer keeps state across chunks', () => {
    const n = lineEndNormalizer();
    expect([n('a\r'), n('\nb\r'), n(''), n('c\r\n')]).toEqual(['a\n', 'b\n', '', 'c\n']);
  });
});
