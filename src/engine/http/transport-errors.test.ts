/** How a fetch that threw is named: a blocked port, and CORS only where a browser is the one that failed. */
import { describe, expect, it } from 'vitest';
import { timerSleep, type Host } from '../ports';
import { Redactor } from '../redact';
import { DEFAULT_LIMITS, exchange, type HttpContext } from './client';
import { browserFetchFailure } from './transport-errors';

function ctxWith(fetch: Host['fetch'], transport?: Host['transport']): HttpContext {
  let n = 0;
  return {
    host: { fetch, now: () => Date.now(), sleep: timerSleep, randomUUID: () => `u${++n}`, ...(transport && { transport }) },
    signal: new AbortController().signal,
    emit: () => undefined,
    redactor: new Redactor(),
    newId: (p) => `${p}${++n}`,
    limits: { ...DEFAULT_LIMITS, requestTimeoutMs: 5_000 },
  };
}

const get = (ctx: HttpContext, url: string) => exchange(ctx, { method: 'GET', url, lane: 'test' });

describe('fetch failures', () => {
  it("Node's fetch to port 9 (a Fetch-standard bad port): blocked_port, and no word about CORS", async () => {
    const r = await get(
      ctxWith((u, i) => fetch(u, i)),
      'http://127.0.0.1:9/.well-known/agent-card.json',
    );
    expect(r.error?.code).toBe('blocked_port');
    expect(r.error?.message).toMatch(/^Nothing was sent: fetch refuses this URL's port \(fetch failed: bad port\)/);
    expect(r.error?.message).not.toMatch(/CORS/);
  });

  it('a bare browser failure ("Failed to fetch") mentions CORS only without the proxy', async () => {
    const failing: Host['fetch'] = () => Promise.reject(new TypeError('Failed to fetch'));
    const direct = await get(ctxWith(failing, 'direct'), 'https://agent.example/');
    expect(direct.error?.code).toBe('fetch_failed');
    expect(direct.error?.message).toMatch(/usually CORS/);
    const proxied = await get(ctxWith(failing, 'proxy'), 'https://agent.example/');
    expect(proxied.error?.message).not.toMatch(/CORS/);
    // Node names its cause: no CORS guess.
    const node = await get(
      ctxWith(() => Promise.reject(new TypeError('fetch failed', { cause: new Error('other side closed') }))),
      'https://agent.example/',
    );
    expect(node.error?.message).not.toMatch(/CORS/);
  });

  it('recognises the browsers’ messages', () => {
    for (const m of ['Failed to fetch', 'TypeError: Failed to fetch', 'NetworkError when attempting to fetch resource.', 'Load failed'])
      expect(browserFetchFailure(m), m).toBe(true);
    for (const m of ['fetch failed: bad port', 'fetch failed: connect ECONNREFUSED 127.0.0.1:1', '']) expect(browserFetchFailure(m), m).toBe(false);
  });
});
