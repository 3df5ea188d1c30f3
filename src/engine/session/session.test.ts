import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type Binding, type DefectName, type Generation, type RunningDefectAgent } from '../../testing/defect-agent';
import { openSession, type Session, SessionInputError, type TaskMemory, type SessionResult } from '.';

const host = createNodeHost();
const agents: RunningDefectAgent[] = [];

async function agent(generation: Generation, binding: Binding, defects: DefectName[] = []) {
  const a = await startDefectAgent({ generation, binding, defects, stepMs: 10, slowTaskMs: 400 });
  agents.push(a);
  return a;
}

async function session(url: string, memory?: TaskMemory): Promise<Session> {
  const open = await openSession(host, { agentUrl: url, memory });
  if (!open.ok) throw new Error(open.unavailable.message);
  return open.session;
}

const ids = (r: SessionResult) => r.findings.map((f) => f.checkId);

afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

describe('a clean agent: blocking and streaming sends judged without findings', () => {
  it.each([
    ['v1.0', 'JSONRPC'],
    ['v0.3', 'HTTP+JSON'],
    ['legacy', 'JSONRPC'],
  ] as const)('%s over %s', async (g, b) => {
    const a = await agent(g, b);
    const s = await session(a.url.replace(/\/$/, ''));
    expect(s.generation).toBe(g);
    expect(s.target.skills.map((k) => k.id)).toContain('haiku');

    const sent = await s.send({ text: 'Write a haiku about interoperability' });
    expect(sent.ok, sent.summary).toBe(true);
    expect(sent.outcome).toBe('task');
    expect(sent.task?.state).toBe('completed');
    expect(sent.task?.artifacts.map((x) => x.text).join('')).toContain('Two agents exchange');
    expect(sent.findings).toEqual([]);
    // v0.3 HTTP+JSON: the payload style is negotiated on the first send (proto JSON first), as in a run.
    expect(sent.exchanges.length).toBe(g === 'v0.3' ? 2 : 1);
    expect(sent.exchanges.at(-1)!.response?.status).toBe(200);

    const streamed = await s.stream({ text: 'Write a haiku about interoperability' });
    expect(streamed.ok, streamed.summary).toBe(true);
    expect(streamed.findings, JSON.stringify(streamed.findings)).toEqual([]);
    expect(streamed.stream?.end).toBe('closed');
    expect(streamed.frames.length).toBeGreaterThan(2);
    expect(streamed.stream?.finalFrame).toBe(streamed.frames.at(-1)!.seq);
    expect(streamed.task?.state).toBe('completed');
    expect(streamed.task?.artifacts[0]?.text).toBe('Two agents exchange\ncards across the quiet wire\ntasks complete in spring');

    const got = await s.get({ taskId: streamed.task!.id!, historyLength: 1 });
    expect(got.ok).toBe(true);
    expect(got.task?.id).toBe(streamed.task!.id);
    expect(got.findings).toEqual([]);
  });
});

describe('findings of the suite rules, inline per frame', () => {
  it('an event after the final one is flagged on that frame (streaming.after-final)', async () => {
    const a = await agent('v0.3', 'JSONRPC', ['sse-events-after-final']);
    const s = await session(a.url);
    const live: number[] = [];
    const r = await s.stream({ text: 'Write a haiku', onFrame: (f) => live.push(f.seq) });
    // Frames are handed over as they arrive (a console shows them live), then judged as a sequence.
    expect(live).toEqual(r.frames.map((f) => f.seq));
    const late = r.frames.filter((f) => f.findings.some((x) => x.checkId === 'streaming.after-final'));
    expect(late).toHaveLength(1);
    expect(late[0]!.seq).toBe(r.stream!.finalFrame! + 1);
    // v0.3.0: TaskStatusUpdateEvent.final ends the stream (MUST); the state change after completed is also seen.
    expect(late[0]!.findings.find((f) => f.checkId === 'streaming.after-final')?.level).toBe('MUST');
    expect(late[0]!.findings.filter((f) => f.checkId === 'lifecycle.transitions')).toHaveLength(1);
  });

  it('a v1.0 stream that starts with a status update is flagged on frame 1 (streaming.first-event)', async () => {
    const a = await agent('v1.0', 'JSONRPC', ['sse-first-not-task']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku' });
    expect(r.frames[0]!.kind).toBe('status');
    expect(r.frames[0]!.findings.map((f) => f.checkId)).toContain('streaming.first-event');
  });

  it('a bare payload instead of a JSON-RPC response is a framing finding of every frame', async () => {
    const a = await agent('v0.3', 'JSONRPC', ['sse-bare-payload']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku' });
    expect(r.frames.length).toBeGreaterThan(1);
    for (const f of r.frames) expect(f.findings.map((x) => `${x.checkId} ${x.message}`).join('\n')).toMatch(/streaming\.framing .*bare payload/);
  });

  it('no final: true before v1.0 is an end-of-stream finding', async () => {
    const a = await agent('v0.3', 'JSONRPC', ['sse-no-final']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku' });
    expect(r.findings.filter((f) => f.rule === 'end-of-stream').map((f) => f.checkId)).toEqual(['streaming.terminal']);
  });

  it('legacy: stream events that name another task than the id the client chose are a streaming.consistency finding', async () => {
    const a = await agent('legacy', 'JSONRPC', ['legacy-stream-own-id']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku' });
    const f = r.findings.filter((x) => x.checkId === 'streaming.consistency');
    expect(f.length).toBeGreaterThan(0);
    expect(f[0]!.message).toMatch(/^This event is about task [0-9a-f-]+-own, the stream about [0-9a-f-]{36}\.$/);
    const clean = await (await session((await agent('legacy', 'JSONRPC')).url)).stream({ text: 'Write a haiku' });
    expect(clean.findings.filter((x) => x.checkId === 'streaming.consistency')).toEqual([]);
  });

  it('a JSON-RPC answer with the wrong id is an envelope finding; a blocking send answered while working is flagged', async () => {
    const a = await agent('v1.0', 'JSONRPC', ['wrong-rpc-id', 'blocking-returns-working']);
    const s = await session(a.url);
    const r = await s.send({ text: 'Prepare the slow report' });
    expect(r.findings.find((f) => f.rule === 'envelope')?.message).toMatch(/"id" should echo the request id/);
    expect(ids(r)).toContain('lifecycle.blocking');
    // v1.0 contradicts itself on waiting (§3.2.2 vs §3.1.1): advice, as in the suite.
    expect(r.findings.find((f) => f.checkId === 'lifecycle.blocking')?.level).toBe('advisory');
  });

  it('a completed task that a cancel rewrites to canceled is an illegal transition across calls', async () => {
    const a = await agent('v1.0', 'HTTP+JSON', ['cancel-completed-succeeds']);
    const s = await session(a.url);
    const done = await s.send({ text: 'Write a haiku' });
    expect(done.task?.state).toBe('completed');
    const c = await s.cancel({ taskId: done.task!.id! });
    expect(c.task?.state).toBe('canceled');
    const t = c.findings.find((f) => f.checkId === 'lifecycle.transitions');
    expect(t?.message).toMatch(/TASK_STATE_COMPLETED .* TASK_STATE_CANCELED/);
    // The memory goes with the agent: a new session that is handed it still knows the task finished.
    const again = await session(a.url, s.memory as TaskMemory);
    const g = await again.get({ taskId: done.task!.id! });
    expect(ids(g)).toContain('lifecycle.transitions');
  });

  it('a stream event that arrived before a concurrent cancel is judged before it: no transition out of canceled (arrival order)', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const s = await session(a.url);
    let cancel: Promise<SessionResult> | undefined;
    const r = await s.stream({
      text: 'Prepare the slow report',
      onFrame: (f) => {
        if (!cancel && f.taskId) cancel = s.cancel({ taskId: f.taskId });
      },
    });
    const c = await cancel!;
    expect(c.task?.state).toBe('canceled');
    expect(r.frames[0]!.state).toMatch(/submitted|working/);
    // The early events were recorded as they came, before the cancel's answer: nothing departs from canceled.
    expect(ids(r), JSON.stringify(r.findings)).not.toContain('lifecycle.transitions');
    expect(ids(c)).not.toContain('lifecycle.transitions');
  });

  it('a stream the user stops ends "stopped by you", not as an error of the agent', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const s = await session(a.url);
    const stop = new AbortController();
    const r = await s.stream({ text: 'Prepare the slow report', signal: stop.signal, onFrame: () => stop.abort() });
    expect(r.stream?.end).toBe('stopped');
    expect(r.summary).toMatch(/stopped by you/);
    expect(ids(r)).not.toContain('streaming.terminal');
  });

  it('cancel of a running task, get of an unknown task, list (v1.0)', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const s = await session(a.url);
    const started = await s.send({ text: 'Prepare the slow report', blocking: false });
    expect(started.task?.state).toMatch(/submitted|working/);
    const c = await s.cancel({ taskId: started.task!.id! });
    expect(c.task?.state).toBe('canceled');
    expect(c.findings).toEqual([]);
    const missing = await s.get({ taskId: 'no-such-task-0000' });
    expect(missing.ok).toBe(false);
    expect(missing.outcome).toBe('error');
    expect(missing.error?.code).toBe(-32001);
    const page = await s.list({ contextId: started.task!.contextId });
    expect(page.ok, page.summary).toBe(true);
    expect(JSON.stringify(page.value)).toContain(started.task!.id!);
  });

  it('a ListTasks page without nextPageToken is flagged as lifecycle.list judges it', async () => {
    const a = await agent('v1.0', 'HTTP+JSON', ['list-no-next-page-token']);
    const s = await session(a.url);
    const sent = await s.send({ text: 'Write a haiku' });
    const page = await s.list({ contextId: sent.task!.contextId });
    expect(page.ok).toBe(true);
    const f = page.findings.find((x) => x.checkId === 'lifecycle.list');
    expect(f?.message).toMatch(/nextPageToken/);
    expect(f?.level).toBe('MUST');
  });

  it('subscribe to a running task streams it to its end', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const s = await session(a.url);
    const started = await s.send({ text: 'Prepare the slow report', blocking: false });
    const sub = await s.subscribe({ taskId: started.task!.id! });
    expect(sub.ok, sub.summary).toBe(true);
    expect(sub.frames[0]!.kind).toBe('task');
    expect(sub.task?.state).toBe('completed');
    expect(sub.findings).toEqual([]);
  });

  it("rejects a skill the card does not declare, and ListTasks before v1.0, as the caller's mistakes", async () => {
    const a = await agent('v0.3', 'JSONRPC');
    const s = await session(a.url);
    await expect(s.send({ text: 'x', skill: 'nope' })).rejects.toThrow(SessionInputError);
    await expect(s.list()).rejects.toThrow(/v1\.0 only/);
  });
});

describe('credentials and unusable targets', () => {
  let html: Server;
  let htmlUrl = '';
  beforeAll(async () => {
    html = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>Not an agent</title>'));
    await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
    htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((r) => html.close(() => r())));

  it('sends extra headers but masks their values in everything returned', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const secret = 'sk-live-abcdef123456';
    const open = await openSession(host, { agentUrl: a.url, headers: { 'X-Custom-Token': secret } });
    if (!open.ok) throw new Error(open.unavailable.message);
    const r = await open.session.send({ text: `echo ${secret} back` });
    expect(a.requests.some((q) => q.headers['x-custom-token'] === secret)).toBe(true);
    expect(JSON.stringify(r)).not.toContain(secret);
    expect(JSON.stringify(r)).toContain('[REDACTED]');
  });

  it('says why when there is nothing to talk to', async () => {
    const bad = await openSession(host, { agentUrl: 'not a url' });
    expect(!bad.ok && bad.unavailable.reason).toBe('invalid-url');
    const closed = await openSession(host, { agentUrl: 'http://127.0.0.1:9/', warmupRetries: 0 });
    expect(!closed.ok && closed.unavailable.reason).toBe('unreachable');
    expect(!closed.ok && closed.unavailable.message).toMatch(/Nothing answered/);
    const page = await openSession(host, { agentUrl: htmlUrl });
    expect(!page.ok && page.unavailable.reason).toBe('not-a2a');
    expect(!page.ok && page.exchanges.length).toBeGreaterThan(0);
  });
});

describe('streams that do not end or are not streams', () => {
  it('a v1.0 stream that stays open after the terminal state is cut after the grace period and flagged', async () => {
    const a = await agent('v1.0', 'JSONRPC', ['sse-never-ends']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku', timeoutMs: 10_000 });
    expect(r.stream?.end).toBe('grace');
    const end = r.findings.find((f) => f.rule === 'end-of-stream');
    expect(end?.checkId).toBe('streaming.terminal');
    expect(end?.frame).toBe(r.stream?.finalFrame);
  });

  it('a JSON answer to the streaming method is a content-type finding', async () => {
    const a = await agent('v0.3', 'JSONRPC', ['sse-wrong-content-type']);
    const s = await session(a.url);
    const r = await s.stream({ text: 'Write a haiku' });
    expect(r.ok).toBe(false);
    expect(r.stream?.end).toBe('not-stream');
    expect(ids(r)).toContain('streaming.content-type');
  });
});
