import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../model/events';
import { timerSleep } from '../ports';
import { Redactor } from '../redact';
import { DEFAULT_LIMITS, exchange, retryAfterMs, Semaphore, type HttpContext } from './client';

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
    const { ctx, events, calls } = ctxFor([() => new Response('slow down', { status: 429, headers: { 'retry-after': '0' } }), () => new Response('{"ok":true}', { status: 200 })]);
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
