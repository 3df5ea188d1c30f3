/**
 * The tap's relay against a scripted agent on 127.0.0.1: the card rewrite, streams relayed as they come (in lock
 * step with the reader: each event through the tap before the agent sends the next), every fault (delay, drop after N,
 * 503 once, reset once, slow card), credentials masked in what is recorded, bounded memory, and the SSE splitter.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockStep, readLockStep } from '../../proxy/node-testing';
import { serveTap } from '../../server/tap-node';
import { EventSplitter } from './body';
import { RouteTable, rewriteCard } from './routes';
import { createTap } from './tap';
import type { Tap, TapFaults } from './types';

const GAP_MS = 400;
let agent: Server;
let agentUrl = '';
let lastAuth: string | undefined;
/** Streams in lock step with their reader, by JSON-RPC id (node-testing.ts lockStep); the others are paced by GAP_MS. */
const lockSteps = new Map<number, ReturnType<typeof lockStep>>();

function card(base: string) {
  return {
    name: 'Scripted',
    description: 'a scripted v0.3 agent',
    url: `${base}/rpc`,
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    additionalInterfaces: [
      { url: `${base}/rpc`, transport: 'JSONRPC' },
      { url: 'grpc.example:443', transport: 'GRPC' },
    ],
    version: '1',
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: [] }],
  };
}

const status = (id: number | string, state: string, final: boolean) =>
  `data: ${JSON.stringify({ jsonrpc: '2.0', id, result: { kind: 'status-update', taskId: 't1', contextId: 'c1', status: { state, timestamp: new Date().toISOString() }, final } })}\n\n`;

async function handle(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  lastAuth = req.headers.authorization;
  if (req.url === '/.well-known/agent-card.json') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(card(agentUrl)));
    return;
  }
  const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { id: number; method: string };
  if (body.method === 'message/stream') {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(status(body.id, 'submitted', false));
    const step = lockSteps.get(body.id);
    if (step) {
      // Each next event only once the reader has the previous one: a relay that buffers stalls here.
      void (async () => {
        await step.next();
        res.write(status(body.id, 'working', false));
        await step.next();
        res.end(status(body.id, 'completed', true));
      })();
      return;
    }
    setTimeout(() => res.write(status(body.id, 'working', false)), GAP_MS);
    setTimeout(() => res.end(status(body.id, 'completed', true)), 2 * GAP_MS);
    return;
  }
  res.setHeader('content-type', 'application/json');
  if (body.method === 'agent/getAuthenticatedExtendedCard') {
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: card(agentUrl) }));
    return;
  }
  res.end(
    JSON.stringify({
      jsonrpc: '2.0',
      id: body.id,
      result: { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed', timestamp: new Date().toISOString() } },
    }),
  );
}

beforeAll(async () => {
  agent = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', () => r()));
  agentUrl = `http://127.0.0.1:${(agent.address() as { port: number }).port}`;
});
afterAll(async () => {
  agent.closeAllConnections();
  await new Promise<void>((r) => agent.close(() => r()));
});

async function tapFor(faults?: TapFaults, limits?: { maxEvents: number }) {
  const tap = createTap({ agentUrl, fetch: (r) => fetch(r), ...(faults && { faults }), ...(limits && { limits }) });
  const server: Server = createServer((req, res) => void serveTap(tap, req, res, `http://127.0.0.1:${(server.address() as { port: number }).port}/tap/a/`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}/tap/a/`;
  return {
    tap: tap as Tap,
    base,
    close: async () => {
      tap.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const streamBody = (id = 1) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'message/stream',
    params: { message: { kind: 'message', messageId: `m${id}`, role: 'user', parts: [{ kind: 'text', text: 'hi' }] } },
  });

/** Reads an SSE response, noting when each event arrived (ms after the request was sent). */
async function timedEvents(url: string, body: string): Promise<{ at: number[]; error?: string }> {
  const t0 = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body });
  const reader = res.body!.getReader();
  const at: number[] = [];
  let buf = '';
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      buf += new TextDecoder().decode(r.value);
      while (buf.includes('\n\n')) {
        buf = buf.slice(buf.indexOf('\n\n') + 2);
        at.push(performance.now() - t0);
      }
    }
  } catch (e) {
    return { at, error: e instanceof Error ? e.message : String(e) };
  }
  return { at };
}

describe('the card', () => {
  it('is served with every HTTP interface URL pointing at the tap; gRPC is left out and said so', async () => {
    const t = await tapFor();
    try {
      const c = (await (await fetch(`${t.base}.well-known/agent-card.json`)).json()) as ReturnType<typeof card>;
      expect(c.url).toBe(`${t.base}rpc`);
      expect(c.additionalInterfaces).toEqual([{ url: `${t.base}rpc`, transport: 'JSONRPC' }]);
      const target = t.tap.report().target!;
      expect(target.generation).toBe('v0.3');
      expect(target.notRelayed.map((n) => n.binding)).toContain('GRPC');
    } finally {
      await t.close();
    }
  });

  it('the extended card (JSON-RPC) is rewritten too, so the client stays on the tap', async () => {
    const t = await tapFor();
    try {
      await (await fetch(`${t.base}.well-known/agent-card.json`)).text();
      const res = await fetch(`${t.base}rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'agent/getAuthenticatedExtendedCard' }),
      });
      const got = (await res.json()) as { id: number; result: ReturnType<typeof card> };
      expect(got.id).toBe(7);
      expect(got.result.url).toBe(`${t.base}rpc`);
      expect(got.result.additionalInterfaces.map((i) => i.url)).toEqual([`${t.base}rpc`]);
    } finally {
      await t.close();
    }
  });

  it('rewriteCard maps other origins under ~n and back; the route table never reaches an origin the card did not name', () => {
    const routes = new RouteTable('http://a.example/agent/.well-known/agent-card.json');
    const r = rewriteCard({ supportedInterfaces: [{ url: 'http://a.example/agent/rpc' }, { url: 'http://b.example/x' }] }, routes, 'http://tap/t/1/');
    const urls = (r.card as { supportedInterfaces: { url: string }[] }).supportedInterfaces.map((i) => i.url);
    expect(urls).toEqual(['http://tap/t/1/rpc', 'http://tap/t/1/~0/x']);
    expect(routes.toUpstream('rpc?x=1')).toBe('http://a.example/agent/rpc?x=1');
    expect(routes.toUpstream('~0/x')).toBe('http://b.example/x');
    expect(routes.toUpstream('~5/x')).toBeUndefined();
  });
});

describe('the card, judged', () => {
  it("a card the card checks fail gives the agent's findings (card.*), without holding the card back", async () => {
    const bad = { description: 'no name, no version', url: 'http://bad.test/rpc', protocolVersion: '0.3.0', capabilities: {}, skills: [] };
    const tap = createTap({ agentUrl: 'http://bad.test', fetch: async () => Response.json(bad) });
    const res = await tap.handle(new Request('http://tap.test/t/.well-known/agent-card.json'), 'http://tap.test/t/');
    expect(((await res.json()) as { url: string }).url).toBe('http://tap.test/t/rpc');
    await tap.settled();
    const fs = tap.report().findings;
    expect(fs.every((f) => f.side === 'agent')).toBe(true);
    expect(fs.find((f) => f.checkId === 'card.required-fields')).toMatchObject({ level: 'MUST', message: expect.stringMatching(/"name" is missing/) });
    expect(tap.report().summary.agent.verdict).toBe('fail');
    tap.close();
  });
});

describe('streams', () => {
  it('are relayed as they come: each event reaches the client through the tap before the agent sends the next (no buffering)', async () => {
    const t = await tapFor();
    try {
      await (await fetch(`${t.base}.well-known/agent-card.json`)).text();
      const direct = await timedEvents(`${agentUrl}/rpc`, streamBody(1));
      expect(direct.at.length).toBe(3);
      // Lock step, not a stopwatch (which failed on a busy machine): the agent writes each next event only once the
      // client has received the previous one through the tap; a tap that held events back would stall.
      const step = lockStep();
      lockSteps.set(2, step);
      const res = await fetch(`${t.base}rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: streamBody(2),
      });
      const tapped = await readLockStep(res.body!, step);
      expect(tapped.stalled).toBeUndefined();
      expect(tapped.events).toHaveLength(3);
      const r = t.tap.report();
      const x = r.exchanges.find((e) => e.response?.stream)!;
      expect(x.frames.map((f) => f.frame)).toEqual([1, 2, 3]);
      expect(r.findings.filter((f) => f.side === 'client')).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('faults', () => {
  it('drop a stream after N events: the client sees a broken connection after N; recorded as a fault', async () => {
    const t = await tapFor({ dropStreamAfter: 1 });
    try {
      const got = await timedEvents(`${t.base}rpc`, streamBody());
      expect(got.at.length).toBe(1);
      expect(got.error).toBeTruthy();
      const evs = t.tap.events.list();
      expect(evs.some((e) => e.kind === 'fault' && e.fault === 'drop-stream')).toBe(true);
      const end = evs.find((e) => e.kind === 'exchange-end' && e.stream);
      expect(end && end.kind === 'exchange-end' && end.error?.code).toBe('fault');
      // The agent is not blamed for the end the tap made; the client is told it never came back for the task.
      const r = t.tap.report();
      expect(r.findings.filter((f) => f.side === 'agent' && f.level !== 'advisory')).toEqual([]);
      expect(r.findings.filter((f) => f.side === 'client').map((f) => f.checkId)).toEqual(['client.resubscribe']);
    } finally {
      await t.close();
    }
  });

  it('a client that resubscribes after the drop is not told to', async () => {
    const t = await tapFor({ dropStreamAfter: 1 });
    try {
      await timedEvents(`${t.base}rpc`, streamBody());
      t.tap.setFaults({});
      const body = JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tasks/resubscribe', params: { id: 't1' } });
      await (await fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'text/event-stream' }, body })).text();
      expect(t.tap.report().findings.filter((f) => f.side === 'client')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('503 once, then relays again', async () => {
    const t = await tapFor({ failOnce: 503 });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't1' } });
      const first = await fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(first.status).toBe(503);
      const second = await fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(second.status).toBe(200);
      expect(
        t.tap.events
          .list()
          .filter((e) => e.kind === 'fault')
          .map((e) => e.kind === 'fault' && e.fault),
      ).toEqual(['fail-503']);
    } finally {
      await t.close();
    }
  });

  it('reset once: the connection breaks without an answer', async () => {
    const t = await tapFor({ failOnce: 'reset' });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't1' } });
      await expect(fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).rejects.toThrow();
      const again = await fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect(again.status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('delay and slow card hold the request that long', async () => {
    const t = await tapFor({ delayMs: 150, slowCardMs: 150 });
    try {
      let t0 = performance.now();
      await (await fetch(`${t.base}.well-known/agent-card.json`)).text();
      expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
      t0 = performance.now();
      await (
        await fetch(`${t.base}rpc`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't1' } }),
        })
      ).text();
      expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
    } finally {
      await t.close();
    }
  });
});

describe('recording', () => {
  it('masks the credentials the client sends (they still reach the agent)', async () => {
    const t = await tapFor();
    try {
      const secret = 'Bearer sk-very-secret-token-123';
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 't1', note: 'sk-very-secret-token-123' } });
      await (await fetch(`${t.base}rpc`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: secret }, body })).text();
      expect(lastAuth).toBe(secret);
      const recorded = JSON.stringify(t.tap.events.list());
      expect(recorded).not.toContain('sk-very-secret-token-123');
      expect(recorded).toContain('[REDACTED]');
    } finally {
      await t.close();
    }
  });

  it('keeps at most maxEvents events (oldest dropped, counted)', async () => {
    const t = await tapFor(undefined, { maxEvents: 5 });
    try {
      for (let i = 0; i < 4; i++)
        await (
          await fetch(`${t.base}rpc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tasks/get', params: { id: 't1' } }),
          })
        ).text();
      expect(t.tap.events.list().length).toBe(5);
      expect(t.tap.report().dropped.events).toBeGreaterThan(0);
    } finally {
      await t.close();
    }
  });
});

describe('EventSplitter', () => {
  const split = (chunks: string[]) => {
    const s = new EventSplitter();
    return chunks.flatMap((c) => s.split(new TextEncoder().encode(c)).map((b) => new TextDecoder().decode(b)));
  };
  it('cuts after each blank line, whatever the line ends and chunking', () => {
    expect(split(['data: a\n\ndata: b\n\n'])).toEqual(['data: a\n\n', 'data: b\n\n']);
    expect(split(['data: a\r\n\r\ndata: b\r\r'])).toEqual(['data: a\r\n\r\n', 'data: b\r\r']);
    expect(split(['data: a\n', '\ndata: b'])).toEqual(['data: a\n', '\n', 'data: b']);
  });
});
