import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRemoteInbox } from './client';
import { createInboxHandler } from './handler';
import { createNodeInbox, createNodeInboxMount } from './node';
import { InboxStore } from './store';

const BASE = 'http://dash.test';
const DASH = { 'x-a2a-interop': '1' };

async function open(h: ReturnType<typeof createInboxHandler>, expect: object = {}) {
  const r = await h(
    new Request(`${BASE}/inbox`, { method: 'POST', headers: { ...DASH, 'content-type': 'application/json' }, body: JSON.stringify({ expect }) }),
  );
  return { status: r.status, body: (await r.json()) as { token: string; url: string } };
}
const post = (h: ReturnType<typeof createInboxHandler>, url: string, body: BodyInit, headers: Record<string, string> = {}) =>
  h(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body }));

afterEach(() => vi.restoreAllMocks());

describe('inbox handler', () => {
  it('opens an address, records a delivery with the credentials compared and masked, and serves it to the dashboard', async () => {
    const h = createInboxHandler();
    const { status, body } = await open(h, { token: 'tok-abcdef', authorization: 'Bearer cred-123456' });
    expect(status).toBe(201);
    expect(body.url).toMatch(/^http:\/\/dash\.test\/inbox\/[0-9a-f]{32}$/);
    const r = await post(h, body.url, JSON.stringify({ statusUpdate: { taskId: 't', echo: 'tok-abcdef' } }), {
      'X-A2A-Notification-Token': 'tok-abcdef',
      Authorization: 'bearer cred-123456',
    });
    expect(r.status).toBe(200);
    const read = await h(new Request(`${body.url}/deliveries?after=0`, { headers: DASH }));
    const { deliveries } = (await read.json()) as {
      deliveries: { seq: number; token: string; authorization: string; headers: Record<string, string>; body: string }[];
    };
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ seq: 1, token: 'match', authorization: 'match' });
    expect(JSON.stringify(deliveries)).not.toMatch(/tok-abcdef|cred-123456/);
    expect(deliveries[0]?.headers.authorization).toBe('bearer [REDACTED]');
  });

  it('answers 404 for unknown or malformed tokens and refuses dashboard routes without the client header', async () => {
    const h = createInboxHandler();
    expect((await post(h, `${BASE}/inbox/${'a'.repeat(32)}`, '{}')).status).toBe(404);
    expect((await post(h, `${BASE}/inbox/../../etc`, '{}')).status).toBe(404);
    expect((await h(new Request(`${BASE}/inbox`, { method: 'POST', body: '{}' }))).status).toBe(403);
    const { body } = await open(h);
    expect((await h(new Request(`${body.url}/deliveries`))).status).toBe(403);
    expect((await h(new Request(body.url, { method: 'DELETE' }))).status).toBe(403);
    expect((await h(new Request(body.url, { method: 'DELETE', headers: DASH }))).status).toBe(204);
    expect((await post(h, body.url, '{}')).status).toBe(404);
  });

  it('caps the body (413, first bytes kept), keeps a bounded number of deliveries and open addresses, and expires them', async () => {
    let now = 1000;
    const store = new InboxStore({ maxBodyBytes: 16, maxReadBytes: 64, maxDeliveries: 3, maxInboxes: 2, ttlMs: 5000 }, () => now);
    const h = createInboxHandler({ store });
    const a = (await open(h)).body;
    const big = await post(h, a.url, 'x'.repeat(10_000));
    expect(big.status).toBe(413);
    for (let i = 0; i < 5; i++) await post(h, a.url, `{"i":${i}}`);
    const got = store.since(a.token) ?? [];
    expect(got.map((d) => d.seq)).toEqual([4, 5, 6]);
    expect(store.since(a.token, 0)?.[0]?.body).toBe('{"i":2}');
    const first = await post(h, a.url, 'y'.repeat(40));
    expect(first.status).toBe(200);
    expect(store.since(a.token)?.at(-1)).toMatchObject({ body: 'y'.repeat(16), bodySize: 40, truncated: true });
    await open(h);
    expect((await open(h)).status).toBe(503);
    now += 6000;
    expect((await post(h, a.url, '{}')).status).toBe(404);
    expect((await open(h)).status).toBe(201);
  });

  it('long-polls: a read waits for the next delivery and never calls out', async () => {
    const spy = vi.spyOn(globalThis, 'fetch');
    const h = createInboxHandler();
    const { body } = await open(h);
    // A long wait (20 s) so that "woken by the delivery" and "the wait ran out" are far apart: the read must come
    // back well before the wait ends (10 s of slack for a busy machine; it takes about 50 ms).
    const pending = h(new Request(`${body.url}/deliveries?after=0&waitMs=20000`, { headers: DASH }));
    const t0 = Date.now();
    setTimeout(() => void post(h, body.url, '{"late":true}'), 50);
    const got = (await (await pending).json()) as { deliveries: { body: string }[] };
    expect(got.deliveries.map((d) => d.body)).toEqual(['{"late":true}']);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(spy).not.toHaveBeenCalled();
  });
});

describe('node inbox (CLI) and the remote client (dashboard)', () => {
  it('listens on 127.0.0.1 only while an address is open; a lease sees deliveries as they arrive', async () => {
    const inbox = createNodeInbox();
    const lease = await inbox.open({ expect: { token: 'tok-zzzzzz' } });
    expect(lease.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inbox\/[0-9a-f]{32}$/);
    const waiting = lease.waitFor((d) => d.length >= 2, 10_000); // returns at the deliveries; 10 s for a busy machine
    await fetch(lease.url, { method: 'POST', body: '{"n":1}', headers: { 'X-A2A-Notification-Token': 'tok-zzzzzz' } });
    await fetch(lease.url, { method: 'POST', body: '{"n":2}' });
    const got = await waiting;
    expect(got.map((d) => [d.body, d.token])).toEqual([
      ['{"n":1}', 'match'],
      ['{"n":2}', 'absent'],
    ]);
    expect(inbox.listening()).toBeDefined();
    await lease.close();
    expect(inbox.listening()).toBeUndefined();
    await expect(fetch(lease.url, { method: 'POST', body: '{}' })).rejects.toThrow();
  });

  it('a public URL (--webhook-url) names the addresses; the listener stays on its fixed port', async () => {
    const inbox = createNodeInbox({ port: 0, publicUrl: 'https://hooks.example.net/a2a/' });
    const lease = await inbox.open();
    expect(lease.url).toMatch(/^https:\/\/hooks\.example\.net\/a2a\/inbox\/[0-9a-f]{32}$/);
    // A forwarder that keeps its prefix still reaches the address.
    const local = `${inbox.listening()}/a2a${new URL(lease.url).pathname.replace(/^\/a2a/, '')}`;
    expect((await fetch(local, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(lease.deliveries()).toHaveLength(1);
    await inbox.close();
  });

  it('the browser client opens, reads and closes an address on a server that mounts the handler', async () => {
    const mount = createNodeInboxMount();
    const server = createServer((req, res) => void mount(req, res).then((ok) => ok || res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const lease = await createRemoteInbox({ baseUrl: base, pollMs: 2000 }).open({ expect: { authorization: 'Bearer xyz-123456' } });
      expect(lease.url.startsWith(`${base}/inbox/`)).toBe(true);
      const waiting = lease.waitFor((d) => d.length > 0, 10_000); // returns at the delivery; 10 s for a busy machine
      await fetch(lease.url, { method: 'POST', body: '{"task":{}}', headers: { Authorization: 'Bearer xyz-123456' } });
      const got = await waiting;
      expect(got[0]).toMatchObject({ authorization: 'match', body: '{"task":{}}' });
      await lease.close();
      expect(mount.handler.store.size).toBe(0);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
