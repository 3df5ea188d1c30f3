/**
 * The local server's taps: /api/taps starts one in front of a demo agent, the official v0.3 SDK client talks through
 * /tap/<id>/, the events stream replays then goes live, the report has both sides, faults are toggled, and the API
 * refuses other web pages, foreign Host names and hosted mode without ALLOWED_HOSTS.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory } from 'a2a-sdk-v03/client';
import type { TapEvent, TapReport } from '../engine/tap';
import { startServer, type RunningServer } from './main';
import { parseFaults } from './taps';

let s: RunningServer;
beforeAll(async () => {
  s = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 200, stepMs: 10 });
});
afterAll(async () => {
  await s?.close();
});

const api = (path: string, init: RequestInit = {}) => fetch(`${s.url.replace(/\/$/, '')}${path}`, init);
const post = (body: unknown, headers: Record<string, string> = {}) =>
  api('/api/taps', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

/** Reads SSE events from the events endpoint until `enough` says stop. */
async function readEvents(id: string, enough: (evs: TapEvent[]) => boolean): Promise<TapEvent[]> {
  const ac = new AbortController();
  const res = await api(`/api/taps/${id}/events`, { signal: ac.signal });
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const evs: TapEvent[] = [];
  let buf = '';
  const deadline = Date.now() + 5_000;
  while (!enough(evs) && Date.now() < deadline) {
    const r = await reader.read();
    if (r.done) break;
    buf += new TextDecoder().decode(r.value);
    for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
      const block = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = block.split('\n').find((l) => l.startsWith('data: '));
      if (data) evs.push(JSON.parse(data.slice(6)) as TapEvent);
    }
  }
  ac.abort();
  return evs;
}

describe('/api/taps', () => {
  it('starts a tap the official SDK client talks through; events replay then stream live; the report judges both sides', async () => {
    const agent = `${s.url.replace(/\/$/, '')}/demo/v03`;
    const created = await post({ agentUrl: agent });
    expect(created.status).toBe(201);
    const { id, url } = (await created.json()) as { id: string; url: string };
    expect(url).toBe(`${s.url.replace(/\/$/, '')}/tap/${id}/`);

    const client = await new ClientFactory().createFromUrl(url);
    const answer = await client.sendMessage({
      message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'write a haiku' }] },
    });
    expect(JSON.stringify(answer)).toMatch(/completed/);

    const replayed = await readEvents(id, (evs) => evs.filter((e) => e.kind === 'exchange-end').length >= 2);
    expect(replayed.map((e) => e.kind)).toEqual(expect.arrayContaining(['target', 'exchange-start', 'exchange-end']));
    expect(replayed.map((e) => e.seq)).toEqual([...replayed.map((e) => e.seq)].sort((a, b) => a - b));

    // Live: an event stream opened now sees the next exchange as it happens.
    const live = readEvents(id, (evs) => evs.some((e) => e.kind === 'exchange-start' && e.operation === 'tasks/get'));
    await new Promise((r) => setTimeout(r, 100));
    const task = answer as { id: string };
    await client.getTask({ id: task.id });
    expect((await live).some((e) => e.kind === 'exchange-start' && e.operation === 'tasks/get')).toBe(true);

    const report = (await (await api(`/api/taps/${id}/report`)).json()) as TapReport;
    expect(report.exchanges.length).toBeGreaterThanOrEqual(3);
    expect(report.summary.client.verdict).toBe('pass');
    expect(report.target?.generation).toBe('v0.3');

    const patched = await api(`/api/taps/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ faults: { failOnce: 503 } }),
    });
    expect(await patched.json()).toEqual({ faults: { failOnce: 503 } });
    await expect(client.getTask({ id: task.id })).rejects.toThrow();

    expect((await api(`/api/taps/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/taps/${id}/report`)).status).toBe(404);
    expect((await fetch(`${url}.well-known/agent-card.json`)).status).toBe(404);
  });

  it('refuses another web page (foreign Origin), a non-JSON body, a bad URL and bad faults', async () => {
    const agentUrl = `${s.url.replace(/\/$/, '')}/demo/v03`;
    expect((await post({ agentUrl }, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await api('/api/taps', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ agentUrl }) })).status).toBe(415);
    expect((await post({ agentUrl: 'file:///etc/passwd' })).status).toBe(400);
    expect((await post({ agentUrl, faults: { failOnce: 500 } })).status).toBe(400);
  });

  it('refuses a foreign Host name (DNS rebinding)', async () => {
    const { port } = new URL(s.url);
    const status = await new Promise<number>((resolve, reject) => {
      const r = request({ host: '127.0.0.1', port, path: '/api/taps', method: 'GET', headers: { host: 'rebind.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      r.on('error', reject);
      r.end();
    });
    expect(status).toBe(403);
  });

  it('parseFaults keeps known toggles within bounds', () => {
    expect(parseFaults({ delayMs: 20, dropStreamAfter: 2, failOnce: 'reset', slowCardMs: 0, other: 1 })).toEqual({
      delayMs: 20,
      dropStreamAfter: 2,
      failOnce: 'reset',
    });
    expect(parseFaults({ delayMs: -1 })).toMatch(/delayMs/);
    expect(parseFaults([])).toMatch(/object/);
  });
});

describe('hosted mode', () => {
  it('runs no tap without ALLOWED_HOSTS', async () => {
    const h = await startServer({ port: 0, quiet: true, proxy: false, proxyMode: 'hosted', demoAgents: false, inbox: false });
    try {
      const res = await fetch(`${h.url.replace(/\/$/, '')}/api/taps`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"agentUrl":"https://example.com"}',
      });
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/ALLOWED_HOSTS/);
    } finally {
      await h.close();
    }
  });

  it('with ALLOWED_HOSTS: answers that Host only, and never relays to a loopback or private agent', async () => {
    const h = await startServer({ port: 0, quiet: true, proxy: false, proxyMode: 'hosted', demoAgents: false, inbox: false, allowedHosts: ['a2a.example'] });
    try {
      const { port } = new URL(h.url);
      const send = (host: string, body: string) =>
        new Promise<{ status: number; text: string }>((resolve, reject) => {
          const r = request(
            { host: '127.0.0.1', port, path: '/api/taps', method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json' } },
            (res) => {
              let text = '';
              res.on('data', (c: Buffer) => (text += c.toString()));
              res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
            },
          );
          r.on('error', reject);
          r.end(body);
        });
      expect((await send('127.0.0.1', '{"agentUrl":"https://example.com"}')).status).toBe(403);
      const loop = await send('a2a.example', '{"agentUrl":"http://127.0.0.1:4173/demo/v03"}');
      expect(loop.status).toBe(403);
      expect(loop.text).toMatch(/public unicast|loopback/);
      expect((await send('a2a.example', '{"agentUrl":"http://10.0.0.8/a2a"}')).status).toBe(403);
    } finally {
      await h.close();
    }
  });
});
