/**
 * The official @a2a-js/sdk clients (1.3.0 and 0.3.14), unmodified, talk to the demo agents through the tap
 * (JSON-RPC and HTTP+JSON, send and stream): the conversation works, every exchange is recorded, and the client
 * side has no finding. What the agent side shows is pinned per agent (the SDK servers' own deviations).
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientFactory as ClientFactory1, ClientFactoryOptions as ClientFactoryOptions1 } from '@a2a-js/sdk/client';
import { Role } from '@a2a-js/sdk';
import { ClientFactory as ClientFactory03, ClientFactoryOptions as ClientFactoryOptions03 } from 'a2a-sdk-v03/client';
import { startServer, type RunningServer } from '../../server/main';
import { serveTap } from '../../server/tap-node';
import { createTap } from './tap';
import type { Tap, TapReport } from './types';

let agents: RunningServer;
beforeAll(async () => {
  agents = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 300, stepMs: 10 });
});
afterAll(async () => {
  await agents?.close();
});

/** A tap in front of `agentPath` on its own 127.0.0.1 port; returns its URL. */
async function tapFor(agentPath: string): Promise<{ tap: Tap; url: string; close(): Promise<void> }> {
  const tap = createTap({ agentUrl: `${agents.url.replace(/\/$/, '')}${agentPath}`, fetch: (r) => fetch(r) });
  const server: Server = createServer((req, res) => void serveTap(tap, req, res, `http://127.0.0.1:${(server.address() as { port: number }).port}/`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  return {
    tap,
    url,
    close: async () => {
      tap.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const clientFindings = (r: TapReport) => r.findings.filter((f) => f.side === 'client').map((f) => `${f.checkId}: ${f.message}`);
const agentFindings = (r: TapReport) => r.findings.filter((f) => f.side === 'agent' && f.level !== 'advisory').map((f) => `${f.checkId}: ${f.message}`);

const v1Message = (text: string) => ({
  tenant: '',
  message: {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  },
  configuration: undefined,
  metadata: undefined,
});

describe.each([
  ['JSONRPC', 'JSONRPC'],
  ['HTTP+JSON', 'HTTP+JSON'],
] as const)('@a2a-js/sdk 1.3.0 client over %s through the tap (v1.0 demo agent)', (_name, transport) => {
  it('sends and streams unmodified; no client finding', async () => {
    const t = await tapFor('/demo/v1');
    try {
      const factory = new ClientFactory1(ClientFactoryOptions1.createFrom(ClientFactoryOptions1.default, { preferredTransports: [transport] }));
      const client = await factory.createFromUrl(t.url);
      const sent = await client.sendMessage(v1Message('write a haiku'));
      expect(JSON.stringify(sent)).toMatch(/Two agents exchange|TASK_STATE|completed/i);
      const events: unknown[] = [];
      for await (const e of client.sendMessageStream(v1Message('write a haiku'))) events.push(e);
      expect(events.length).toBeGreaterThan(1);
      await t.tap.settled();
      const r = t.tap.report();
      expect(r.exchanges.length).toBeGreaterThanOrEqual(3);
      expect(r.exchanges.every((x) => x.response?.status === 200)).toBe(true);
      expect(r.exchanges.some((x) => x.response?.stream && x.frames.length === events.length)).toBe(true);
      expect(r.target?.generation).toBe('v1.0');
      expect(clientFindings(r)).toEqual([]);
      expect(r.summary.client.verdict).toBe('pass');
      expect(agentFindings(r)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe.each([
  ['JSONRPC', 'JSONRPC'],
  ['HTTP+JSON', 'HTTP+JSON'],
] as const)('@a2a-js/sdk 0.3.14 client over %s through the tap (v0.3 demo agent)', (_name, transport) => {
  it('sends and streams unmodified; no client finding', async () => {
    const t = await tapFor('/demo/v03');
    try {
      const factory = new ClientFactory03(ClientFactoryOptions03.createFrom(ClientFactoryOptions03.default, { preferredTransports: [transport] }));
      const client = await factory.createFromUrl(t.url);
      const message = () => ({
        message: { kind: 'message' as const, messageId: randomUUID(), role: 'user' as const, parts: [{ kind: 'text' as const, text: 'write a haiku' }] },
      });
      const sent = await client.sendMessage(message());
      expect(JSON.stringify(sent)).toMatch(/completed|Two agents exchange/);
      const events: unknown[] = [];
      for await (const e of client.sendMessageStream(message())) events.push(e);
      expect(events.length).toBeGreaterThan(1);
      await t.tap.settled();
      const r = t.tap.report();
      expect(r.target?.generation).toBe('v0.3');
      expect(r.exchanges.some((x) => x.response?.stream && x.frames.length === events.length)).toBe(true);
      expect(clientFindings(r)).toEqual([]);
      expect(r.summary.client.verdict).toBe('pass');
      expect(agentFindings(r)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
