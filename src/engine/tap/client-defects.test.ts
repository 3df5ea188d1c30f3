/**
 * A hand-made client with one defect at a time, through the tap to the demo agents: each defect gets exactly its
 * finding, attributed to the client, on the exchange that showed it (and a clean request gets none).
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

async function tapFor(agentPath: string): Promise<{ tap: Tap; url: string; close(): Promise<void> }> {
  const tap = createTap({ agentUrl: `${agents.url.replace(/\/$/, '')}${agentPath}`, fetch: (r) => fetch(r) });
  const server: Server = createServer((req, res) => void serveTap(tap, req, res, `http://127.0.0.1:${(server.address() as { port: number }).port}/`));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    tap,
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/`,
    close: async () => {
      tap.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The JSON-RPC endpoint the tap's card offers for a protocol version. */
async function endpoint(url: string, version: string, headers: Record<string, string> = {}): Promise<string> {
  const card = (await (await fetch(`${url}.well-known/agent-card.json`, { headers })).json()) as {
    url?: string;
    supportedInterfaces?: { url: string; protocolBinding: string; protocolVersion: string }[];
  };
  const i = card.supportedInterfaces?.find((x) => x.protocolBinding === 'JSONRPC' && x.protocolVersion === version);
  return i?.url ?? card.url!;
}

let rpcSeq = 0;
async function rpc(url: string, method: string, params: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcSeq, method, params }),
  });
  return (await res.json()) as Record<string, unknown>;
}

const byClient = (r: TapReport) => r.findings.filter((f) => f.side === 'client');
const ids = (r: TapReport) => byClient(r).map((f) => f.checkId);
const V1 = { 'A2A-Version': '1.0' };
const v1Msg = (text: string, extra: Record<string, unknown> = {}) => ({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra } });
const v03Msg = (text: string, extra: Record<string, unknown> = {}) => ({
  message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...extra },
});

describe('client defects through the tap', () => {
  it('a clean v1.0 request: no client finding (the baseline the defects differ from)', async () => {
    const t = await tapFor('/demo/v1');
    try {
      const ep = await endpoint(t.url, '1.0', V1);
      const answer = await rpc(ep, 'SendMessage', v1Msg('write a haiku'), V1);
      expect(answer.result).toBeDefined();
      expect(ids(t.tap.report())).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('wrong method for the generation: tasks/send to a v1.0 interface is client.method (MUST), the client broke it', async () => {
    const t = await tapFor('/demo/v1');
    try {
      const ep = await endpoint(t.url, '1.0', V1);
      await rpc(ep, 'tasks/send', { id: randomUUID(), message: { role: 'user', parts: [{ type: 'text', text: 'hi' }] } }, V1);
      const r = t.tap.report();
      expect(ids(r)).toEqual(['client.method']);
      const f = byClient(r)[0]!;
      expect(f).toMatchObject({ side: 'client', level: 'MUST' });
      expect(f.message).toMatch(/tasks\/send is the legacy method; this v1\.0 interface speaks SendMessage/);
      expect(f.quote).toBeTruthy();
      expect(r.summary.client.verdict).toBe('fail');
      expect(r.exchanges.find((x) => x.id === f.exchangeId)?.request.operation).toBe('tasks/send');
    } finally {
      await t.close();
    }
  });

  it('missing messageId (v0.3): client.message-id, a required field', async () => {
    const t = await tapFor('/demo/v03');
    try {
      const ep = await endpoint(t.url, '0.3');
      const m = v03Msg('write a haiku');
      delete (m.message as { messageId?: string }).messageId;
      await rpc(ep, 'message/send', m);
      const r = t.tap.report();
      expect(ids(r)).toEqual(['client.message-id']);
      expect(byClient(r)[0]!.level).toBe('MUST');
    } finally {
      await t.close();
    }
  });

  it('reused messageId: the second message gets client.message-id-unique (advisory: the spec only describes ids as unique)', async () => {
    const t = await tapFor('/demo/v03');
    try {
      const ep = await endpoint(t.url, '0.3');
      const m = v03Msg('write a haiku');
      await rpc(ep, 'message/send', m);
      expect(ids(t.tap.report())).toEqual([]);
      await rpc(ep, 'message/send', m);
      const r = t.tap.report();
      expect(ids(r)).toEqual(['client.message-id-unique']);
      const f = byClient(r)[0]!;
      expect(f.level).toBe('advisory');
      expect(f.exchangeId).toBe(r.exchanges.at(-1)!.id);
    } finally {
      await t.close();
    }
  });

  it('v1.0 without A2A-Version: client.version-header (MUST, v1.0.1 §3.6.1)', async () => {
    const t = await tapFor('/demo/v1');
    try {
      const ep = await endpoint(t.url, '1.0', V1);
      await rpc(ep, 'SendMessage', v1Msg('write a haiku'));
      const r = t.tap.report();
      expect(ids(r)).toEqual(['client.version-header']);
      expect(byClient(r)[0]).toMatchObject({ level: 'MUST', side: 'client' });
      expect(byClient(r)[0]!.specRef).toMatch(/v1\.0\.1 §3\.6\.1/);
    } finally {
      await t.close();
    }
  });

  it('continuing a terminal task: client.task-terminal on the follow-up, none before', async () => {
    const t = await tapFor('/demo/v03');
    try {
      const ep = await endpoint(t.url, '0.3');
      const first = await rpc(ep, 'message/send', v03Msg('write a haiku', {}));
      const task = first.result as { id: string; contextId: string; status: { state: string } };
      expect(task.status.state).toBe('completed');
      expect(ids(t.tap.report())).toEqual([]);
      await rpc(ep, 'message/send', v03Msg('and another one', { taskId: task.id, contextId: task.contextId }));
      const r = t.tap.report();
      expect(ids(r)).toEqual(['client.task-terminal']);
      expect(byClient(r)[0]!.message).toContain(task.id);
      expect(byClient(r)[0]!.exchangeId).toBe(r.exchanges.at(-1)!.id);
    } finally {
      await t.close();
    }
  });

  it('input-required: answering in the same task is clean; a new task in that context instead is client.input-required; never answering shows in the report', async () => {
    const t = await tapFor('/demo/v03');
    try {
      const ep = await endpoint(t.url, '0.3');
      const ask = async () => (await rpc(ep, 'message/send', v03Msg('book a table'))).result as { id: string; contextId: string; status: { state: string } };
      const first = await ask();
      expect(first.status.state).toBe('input-required');
      // Answered in the same task: nothing for the client.
      await rpc(ep, 'message/send', v03Msg('Friday', { taskId: first.id, contextId: first.contextId }));
      expect(ids(t.tap.report())).toEqual([]);
      // Asked again, then a new task is started in that context instead of answering.
      const second = await ask();
      expect(second.status.state).toBe('input-required');
      await rpc(ep, 'message/send', v03Msg('something else', { contextId: second.contextId }));
      const r = t.tap.report();
      expect(ids(r)).toContain('client.input-required');
      const started = byClient(r).find((f) => f.checkId === 'client.input-required' && f.exchangeId === r.exchanges.at(-1)!.id)!;
      expect(started.message).toContain(second.id);
      // And it was never answered: the report says so (so far).
      expect(
        byClient(r).some((f) => f.checkId === 'client.input-required' && /has not answered it \(so far\)/.test(f.message) && f.message.includes(second.id)),
      ).toBe(true);
    } finally {
      await t.close();
    }
  });
});
