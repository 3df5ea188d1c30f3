/**
 * The two-agent checks on a recorded live conversation: the demo orchestrator (agent A, the official v0.3 SDK's
 * client) asked through the local server to forward messages to a tap in front of a demo agent (agent B).
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Task } from 'a2a-sdk-v03';
import { ClientFactory } from 'a2a-sdk-v03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/main';
import { serveTap } from '../../server/tap-node';
import { createTap } from './tap';
import { judgeTwoAgents } from './two-agent';
import type { Tap } from './types';

let agents: RunningServer;
beforeAll(async () => {
  agents = await startServer({ port: 0, quiet: true, proxy: false, inbox: false, slowTaskMs: 300, stepMs: 10 });
});
afterAll(async () => {
  await agents?.close();
});

async function tapFor(agentId: string): Promise<{ tap: Tap; url: string; close(): Promise<void> }> {
  const tap = createTap({ agentUrl: agents.agents.find((a) => a.id === agentId)!.baseUrl, fetch: (r) => fetch(r) });
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

/** Asks the orchestrator (A) as any client would, with the SDK's client. */
async function askA(text: string, a: '0.3' | '1.x' = '0.3'): Promise<Task> {
  const client = await new ClientFactory().createFromUrl(`${agents.orchestrator!.clients.find((c) => c.id === a)!.baseUrl}/`);
  const r = await client.sendMessage({
    message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }] },
    configuration: { blocking: true },
  });
  return r as Task;
}

const statuses = (t: Tap) => Object.fromEntries(judgeTwoAgents(t.events.list()).map((r) => [r.id, r.status]));

describe('two-agent checks on a live A -> B conversation through a tap', () => {
  for (const [a, b] of [
    ['0.3', 'v03'],
    ['0.3', 'v1'],
    ['1.x', 'v1'],
    ['1.x', 'v03'],
  ] as const) {
    it(`A (orchestrator, ${a} SDK client) -> B (${b} demo): two tasks at once, all four checks pass`, async () => {
      const t = await tapFor(b);
      try {
        const [one, two] = await Promise.all([askA(`ask ${t.url}: Prepare the slow report`, a), askA(`ask ${t.url}: Write a haiku about interoperability`, a)]);
        expect([one.status.state, two.status.state]).toEqual(['completed', 'completed']);
        const results = judgeTwoAgents(t.tap.events.list());
        expect(Object.fromEntries(results.map((r) => [r.id, r.status])), JSON.stringify(results, null, 1)).toEqual({
          'two-agent.card': 'pass',
          'two-agent.send': 'pass',
          'two-agent.answer': 'pass',
          'two-agent.concurrent': 'pass',
        });
        // The official SDK's client, speaking the generation of B's card: no client finding on its traffic.
        expect(t.tap.report().findings.filter((f) => f.side === 'client')).toEqual([]);
      } finally {
        await t.close();
      }
    });
  }

  it("A (the v0.3 SDK's client) -> B (legacy demo): A finds B's card through the tap but speaks v0.3 to a legacy agent; B's refusals are not B's failure", async () => {
    const t = await tapFor('legacy');
    try {
      const [one] = await Promise.all([askA(`ask ${t.url}: Prepare the slow report`), askA(`ask ${t.url}: Write a haiku about interoperability`)]);
      expect(one.status.state).toBe('failed');
      const r = Object.fromEntries(judgeTwoAgents(t.tap.events.list()).map((x) => [x.id, x]));
      expect([r['two-agent.card']!.status, r['two-agent.send']!.status, r['two-agent.answer']!.status, r['two-agent.concurrent']!.status]).toEqual([
        'pass',
        'fail',
        'not-observed',
        'not-observed',
      ]);
      expect(r['two-agent.send']!.side).toBe('client');
      expect(r['two-agent.send']!.message).toContain('client.method');
      expect(r['two-agent.answer']!.message).toContain("A's request breaking client.method");
    } finally {
      await t.close();
    }
  });

  it('one question after another: nothing to judge concurrency by; the rest passes', async () => {
    const t = await tapFor('v03');
    try {
      await askA(`ask ${t.url}: first`);
      await askA(`ask ${t.url}: second`);
      expect(statuses(t.tap)).toEqual({
        'two-agent.card': 'pass',
        'two-agent.send': 'pass',
        'two-agent.answer': 'pass',
        'two-agent.concurrent': 'not-observed',
      });
    } finally {
      await t.close();
    }
  });

  it('B failing the task request (an injected 503 once): not B’s failure; A reports it could not get an answer', async () => {
    const t = await tapFor('v03');
    try {
      t.tap.setFaults({ failOnce: 503 });
      const a = await askA(`ask ${t.url}: hello`);
      expect(a.status.state).toBe('failed');
      const r = Object.fromEntries(judgeTwoAgents(t.tap.events.list()).map((x) => [x.id, x]));
      expect(r['two-agent.answer']!.status).toBe('not-observed');
      expect(r['two-agent.answer']!.message).toContain('a fault the tap injected');
    } finally {
      await t.close();
    }
  });
});
