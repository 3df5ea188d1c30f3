/**
 * The server's /inbox routes (the dashboard's push webhook inbox): opened and read by the dashboard's client, POSTed
 * to by agents; in hosted mode the inbox still works while the proxy keeps refusing private targets, and an inbox
 * address never makes the server call anyone.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteInbox } from '../inbox/client';
import { ServerConfigError, serverOptionsFromEnv, startServer, type RunningServer } from './main';

let local: RunningServer;
let hosted: RunningServer;
let canary: Server;
let canaryHits = 0;
let canaryUrl = '';
let dist = '';

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'a2a-dist-inbox-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  local = await startServer({ port: 0, distDir: dist, quiet: true, demoAgents: false });
  hosted = await startServer({ port: 0, distDir: dist, quiet: true, proxyMode: 'hosted', inboxPublicUrl: 'https://a2a.team.example/' });
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('hit');
  });
  await new Promise<void>((r) => canary.listen(0, '127.0.0.1', r));
  canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await Promise.all([local?.close(), hosted?.close(), new Promise((r) => canary?.close(r))]);
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('server /inbox', () => {
  it('local: the dashboard client opens an address on the server origin, an agent POSTs, the client sees it', async () => {
    const lease = await createRemoteInbox({ baseUrl: local.url, pollMs: 2000 }).open({ expect: { token: 'tok-route-1' } });
    expect(lease.url).toMatch(new RegExp(`^${local.url}/inbox/[0-9a-f]{32}$`));
    const waiting = lease.waitFor((d) => d.length > 0, 10_000); // returns at the delivery; 10 s for a busy machine
    const r = await fetch(lease.url, { method: 'POST', headers: { 'X-A2A-Notification-Token': 'tok-route-1' }, body: '{"id":"t1"}' });
    expect(r.status).toBe(200);
    expect((await waiting)[0]).toMatchObject({ token: 'match', body: '{"id":"t1"}' });
    await lease.close();
    expect((await fetch(lease.url, { method: 'POST', body: '{}' })).status).toBe(404);
  });

  it('hosted: addresses are under INBOX_PUBLIC_URL, deliveries are received, and the proxy still refuses private targets', async () => {
    // A hosted inbox opens addresses for the dashboard's origin only (a browser always sends Origin on a POST).
    expect((await fetch(`${hosted.url}/inbox`, { method: 'POST', headers: { 'X-A2A-Interop': '1' }, body: '{}' })).status).toBe(403);
    const opened = await fetch(`${hosted.url}/inbox`, { method: 'POST', headers: { 'X-A2A-Interop': '1', Origin: hosted.url }, body: '{}' });
    expect(opened.status).toBe(201);
    const { url, token } = (await opened.json()) as { url: string; token: string };
    expect(url).toBe(`https://a2a.team.example/inbox/${token}`);
    // The public address forwards to this server's /inbox/<token>; a path prefix before /inbox/ is tolerated.
    expect((await fetch(`${hosted.url}/inbox/${token}`, { method: 'POST', body: '{"task":{}}' })).status).toBe(200);
    const proxied = await fetch(`${hosted.url}/proxy?url=${encodeURIComponent(canaryUrl)}`, { headers: { 'X-A2A-Interop': '1', Origin: hosted.url } });
    expect(proxied.status).toBe(403);
    expect(proxied.headers.get('x-proxy-error')).toBe('target_blocked');
  });

  it('is no relay: nothing sent to an inbox route makes the server contact the URL it names', async () => {
    const opened = (await (
      await fetch(`${hosted.url}/inbox`, { method: 'POST', headers: { 'X-A2A-Interop': '1', Origin: hosted.url }, body: '{}' })
    ).json()) as {
      token: string;
    };
    for (const path of [`/inbox/${opened.token}?url=${encodeURIComponent(canaryUrl)}`, `/inbox?url=${encodeURIComponent(canaryUrl)}`]) {
      await fetch(`${hosted.url}${path}`, { method: 'POST', headers: { Location: canaryUrl, 'X-A2A-Interop': '1' }, body: JSON.stringify({ url: canaryUrl }) });
    }
    const read = await fetch(`${hosted.url}/inbox/${opened.token}/deliveries`, { headers: { 'X-A2A-Interop': '1' } });
    expect(((await read.json()) as { deliveries: unknown[] }).deliveries).toHaveLength(1);
    expect(canaryHits).toBe(0);
  });

  it('INBOX_PUBLIC_URL is read from the environment and checked', () => {
    expect(serverOptionsFromEnv({ INBOX_PUBLIC_URL: 'https://a2a.example.org/hooks' }).inboxPublicUrl).toBe('https://a2a.example.org/hooks');
    expect(() => serverOptionsFromEnv({ INBOX_PUBLIC_URL: 'ftp://x' })).toThrow(ServerConfigError);
    expect(() => serverOptionsFromEnv({ INBOX_PUBLIC_URL: 'https://x.example/?a=1' })).toThrow(/INBOX_PUBLIC_URL/);
  });
});
