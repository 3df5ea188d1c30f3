import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import type { Message, Task } from 'a2a-sdk-v03';
import { ClientFactory } from 'a2a-sdk-v03/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/main';
import { answerOf, answerOf1, buildOrchestratorCard, forwardable, parseAsk } from './orchestrator-agent';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true, proxy: false, inbox: false, stepMs: 5, slowTaskMs: 50 });
});
afterAll(async () => {
  await server?.close();
});

/** Talks to the orchestrator (agent A) as any client would: the official SDK's client, from its card. */
async function ask(text: string, a: '0.3' | '1.x' = '0.3'): Promise<Task> {
  const base = server.orchestrator!.clients.find((c) => c.id === a)!.baseUrl;
  const client = await new ClientFactory().createFromUrl(`${base}/`);
  const r = await client.sendMessage({
    message: { kind: 'message', role: 'user', messageId: randomUUID(), parts: [{ kind: 'text', text }] },
    configuration: { blocking: true },
  });
  expect(r.kind).toBe('task');
  return r as Task;
}
const statusText = (t: Task) => (t.status.message?.parts ?? []).map((p) => (p.kind === 'text' ? p.text : '')).join('');
const artifactText = (t: Task) => (t.artifacts ?? []).flatMap((a) => a.parts.map((p) => (p.kind === 'text' ? p.text : ''))).join('');

describe('demo orchestrator (agent A of the two-agent demo)', () => {
  it('is listed at /api/demo-orchestrator with the agents it may ask, and serves an SDK card', async () => {
    const res = await fetch(`${server.url}/api/demo-orchestrator`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as typeof server.orchestrator;
    expect(body).toEqual(server.orchestrator);
    expect(body!.baseUrl).toBe(`${server.url}/demo/orchestrator`);
    expect(body!.peers.map((p) => p.id)).toContain('v03');
    expect(body!.peers.map((p) => p.id)).not.toContain('oauth');
    const card = (await (await fetch(body!.cardUrl)).json()) as { name: string; skills: { examples: string[] }[] };
    expect(card.name).toMatch(/orchestrator/i);
    expect(card.skills[0]!.examples[0]).toBe(`ask ${server.url}/demo/v03: Hello from the orchestrator`);
  });

  it("forwards 'ask <url>: <text>' to agent B with the SDK's client and answers with B's reply", async () => {
    const v03 = server.agents.find((a) => a.id === 'v03')!.baseUrl;
    const t = await ask(`ask ${v03}: hello there`);
    expect(t.status.state).toBe('completed');
    expect(artifactText(t)).toBe('You said: hello there');
    expect(statusText(t)).toBe('Demo agent (v0.3 SDK) answered (its task: completed): You said: hello there');
    expect(t.artifacts?.[0]?.metadata).toMatchObject({ peerUrl: v03, peerState: 'completed' });
  });

  it("with @a2a-js/sdk 1.3.0's client (at /demo/orchestrator-v1): B's reply from the v1.0 and the v0.3 demo agents", async () => {
    expect(server.orchestrator!.clients.map((c) => [c.id, c.baseUrl])).toEqual([
      ['0.3', `${server.url}/demo/orchestrator`],
      ['1.x', `${server.url}/demo/orchestrator-v1`],
    ]);
    for (const b of ['v1', 'v03']) {
      const url = server.agents.find((a) => a.id === b)!.baseUrl;
      const t = await ask(`ask ${url}: hello from v1`, '1.x');
      expect(t.status.state, statusText(t)).toBe('completed');
      expect(artifactText(t)).toBe('You said: hello from v1');
      expect(t.artifacts?.[0]?.metadata).toMatchObject({ peerUrl: url, peerState: 'completed' });
    }
  });

  it('two questions at once get two separate answers (each its own task on B)', async () => {
    const v03 = server.agents.find((a) => a.id === 'v03')!.baseUrl;
    const [a, b] = await Promise.all([ask(`ask ${v03}: first`), ask(`ask ${v03}: second`)]);
    expect([artifactText(a), artifactText(b)]).toEqual(['You said: first', 'You said: second']);
    expect(a.artifacts?.[0]?.metadata?.peerTaskId).not.toBe(b.artifacts?.[0]?.metadata?.peerTaskId);
  });

  it('refuses to forward off this machine, and says how to ask when no agent is named', async () => {
    const off = await ask('ask https://agent.example.com: hi');
    expect(off.status.state).toBe('rejected');
    expect(statusText(off)).toContain('only to agents on this machine');
    const none = await ask('hello');
    expect(none.status.state).toBe('rejected');
    expect(statusText(none)).toContain("'ask <agent URL>: <message>'");
  });

  it('an agent B that is not there: failed, with the reason', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const t = await ask(`ask http://127.0.0.1:${port}/nobody: hi`);
    expect(t.status.state).toBe('failed');
    expect(statusText(t)).toMatch(/^Could not get an answer from http:\/\/127\.0\.0\.1:\d+\/nobody: /);
  });
});

describe('orchestrator helpers', () => {
  it('parses ask <url>: <text>', () => {
    expect(parseAsk('ask http://127.0.0.1:4173/tap/ab/: Write a haiku')).toEqual({ url: 'http://127.0.0.1:4173/tap/ab/', text: 'Write a haiku' });
    expect(parseAsk('  ASK http://localhost:1/x hello: there ')).toEqual({ url: 'http://localhost:1/x', text: 'hello: there' });
    for (const t of ['ask', 'ask http://x', 'hello http://x: y', 'ask ftp://x: y', 'ask http://x:   ']) expect(parseAsk(t), t).toBeUndefined();
  });
  it('forwards to loopback only', () => {
    for (const u of ['http://127.0.0.1:4173/tap/a/', 'http://localhost:9/x', 'http://[::1]:3/']) expect(forwardable(u), u).toBe(true);
    for (const u of ['https://agent.example.com/', 'http://10.0.0.1/', 'http://127.0.0.1.nip.io/', 'file:///etc/passwd']) expect(forwardable(u), u).toBe(false);
  });
  it("reads B's answer from a message or a task", () => {
    const m: Message = { kind: 'message', messageId: 'm', role: 'agent', parts: [{ kind: 'text', text: 'hi' }], contextId: 'c' };
    expect(answerOf(m)).toEqual({ text: 'hi', contextId: 'c' });
    const t: Task = {
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state: 'input-required', message: { ...m, parts: [{ kind: 'text', text: 'Which day?' }] } },
    };
    expect(answerOf(t)).toEqual({ text: 'Which day?', state: 'input-required', taskId: 't', contextId: 'c' });
  });
  it("reads B's answer as the 1.x client gives it (enum states, $case parts)", () => {
    const part = (value: string) => ({ content: { $case: 'text' as const, value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
    const task = {
      id: 't',
      contextId: 'c',
      status: {
        state: 6,
        message: {
          messageId: 'm',
          contextId: 'c',
          taskId: 't',
          role: 2,
          parts: [part('Which day?')],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        },
        timestamp: undefined,
      },
      artifacts: [],
      history: [],
      metadata: undefined,
    };
    expect(answerOf1(task as unknown as Parameters<typeof answerOf1>[0])).toEqual({ text: 'Which day?', taskId: 't', contextId: 'c', state: 'input-required' });
    const message = { messageId: 'm', contextId: 'c', taskId: '', role: 2, parts: [part('hi')], metadata: undefined, extensions: [], referenceTaskIds: [] };
    expect(answerOf1(message as unknown as Parameters<typeof answerOf1>[0])).toEqual({ text: 'hi', contextId: 'c' });
  });

  it('card: an SDK-shaped v0.3 card whose example names the peer', () => {
    const c = buildOrchestratorCard('http://127.0.0.1:1/demo/orchestrator/', 'http://127.0.0.1:1/demo/v1/');
    expect(c.url).toBe('http://127.0.0.1:1/demo/orchestrator/jsonrpc');
    expect(c.skills[0]!.examples?.[0]).toBe('ask http://127.0.0.1:1/demo/v1: Hello from the orchestrator');
  });
});
