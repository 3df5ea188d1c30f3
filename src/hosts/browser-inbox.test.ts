import { describe, expect, it } from 'vitest';
import { createBrowserHost, inboxBaseFor } from './browser';

describe('browser host: the push webhook inbox', () => {
  it('is the dashboard server own /inbox when the proxy is on the same origin, none for a proxy elsewhere', () => {
    expect(inboxBaseFor('/proxy')).toBe('');
    expect(inboxBaseFor('/base/proxy?x=1')).toBe('/base');
    expect(inboxBaseFor('https://proxy.example.workers.dev/proxy')).toBeUndefined();
    expect(inboxBaseFor('//evil.example/proxy')).toBeUndefined();
    expect(createBrowserHost({ mode: 'proxy', proxyUrl: 'https://proxy.example/proxy' }).inbox).toBeUndefined();
    expect(createBrowserHost({ mode: 'proxy', inboxBaseUrl: false }).inbox).toBeUndefined();
  });

  it('opens an address with POST /inbox (dashboard header, expected credentials) and reads it back by long-poll', async () => {
    const calls: { url: string; init?: RequestInit }[] = [];
    const fake: typeof fetch = async (input, init) => {
      const url = String(input);
      calls.push({ url, init });
      if (url === '/inbox')
        return new Response(JSON.stringify({ token: 'a'.repeat(32), url: `http://127.0.0.1:4173/inbox/${'a'.repeat(32)}` }), { status: 201 });
      if (url.includes('/deliveries')) {
        const body =
          calls.filter((c) => c.url.includes('/deliveries')).length === 1
            ? [{ seq: 1, body: '{}', at: 1, method: 'POST', headers: {}, bodySize: 2, truncated: false, token: 'match', authorization: 'absent' }]
            : [];
        return new Response(JSON.stringify({ deliveries: body }), { status: 200 });
      }
      return new Response(null, { status: 204 });
    };
    const host = createBrowserHost({ mode: 'proxy', fetch: fake });
    const lease = await host.inbox!.open({ expect: { token: 'tok-browser' } });
    expect(lease.url).toMatch(/\/inbox\/a{32}$/);
    const open = calls[0]!;
    expect(new Headers(open.init?.headers).get('x-a2a-interop')).toBe('1');
    expect(JSON.parse(String(open.init?.body))).toEqual({ expect: { token: 'tok-browser' } });
    const got = await lease.waitFor((d) => d.length > 0, 10_000); // returns at the delivery; 10 s for a busy machine
    expect(got[0]).toMatchObject({ seq: 1, token: 'match' });
    await lease.close();
    expect(calls.at(-1)).toMatchObject({ url: `/inbox/${'a'.repeat(32)}`, init: { method: 'DELETE' } });
  });
});
