import { describe, expect, it } from 'vitest';
import { answerInfo, isSendOperation, judgeTwoAgents, requestIds, type TwoAgentCheckId, type TwoAgentResult } from './two-agent';
import type { TapEvent, TapExchangeEnd, TapFinding } from './types';

/**
 * Recorded conversations, in the tap's event contract (src/engine/tap/types.ts): the demo orchestrator (A, the v0.3
 * SDK's client) asking the v0.3 SDK demo agent (B) through a tap, and variations that break one thing each.
 */
const TAP = 'http://127.0.0.1:4173/tap/t1';
const AGENT = 'http://127.0.0.1:4173/demo/v03';

class Recorder {
  events: TapEvent[] = [];
  private seq = 0;
  private n = 0;
  start(at: number, operation: string, body?: unknown, extra: { url?: string; method?: string; streaming?: boolean } = {}): string {
    const id = `x${++this.n}`;
    const text = body === undefined ? undefined : JSON.stringify(body);
    const path = extra.url ?? (operation === 'card' ? '/.well-known/agent-card.json' : '/jsonrpc');
    this.events.push({
      kind: 'exchange-start',
      seq: ++this.seq,
      id,
      at,
      side: 'client',
      method: extra.method ?? (operation === 'card' ? 'GET' : 'POST'),
      url: `${TAP}${path}`,
      upstreamUrl: `${AGENT}${path}`,
      headers: {},
      ...(text !== undefined ? { body: text } : {}),
      bodySize: text?.length ?? 0,
      bodyTruncated: false,
      operation,
      streaming: extra.streaming ?? false,
    });
    return id;
  }
  end(id: string, at: number, status: number, body?: unknown, extra: Partial<TapExchangeEnd> = {}): void {
    const text = body === undefined ? undefined : JSON.stringify(body);
    this.events.push({
      kind: 'exchange-end',
      seq: ++this.seq,
      id,
      at,
      side: 'agent',
      status,
      ...(text !== undefined ? { body: text } : {}),
      bodySize: text?.length ?? 0,
      bodyTruncated: false,
      stream: false,
      frames: 0,
      durationMs: 5,
      ...extra,
    });
  }
  frame(id: string, at: number, frame: number, data: unknown): void {
    this.events.push({ kind: 'sse-frame', seq: ++this.seq, id, at, side: 'agent', frame, ms: 1, data: JSON.stringify(data) });
  }
  finding(f: Omit<TapFinding, 'specRef'>): void {
    this.events.push({ kind: 'finding', seq: ++this.seq, id: f.exchangeId, at: 0, side: f.side, finding: f });
  }
}

const send = (messageId: string, text: string, more: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: messageId,
  method: 'message/send',
  params: { message: { kind: 'message', role: 'user', messageId, parts: [{ kind: 'text', text }], ...more }, configuration: { blocking: true } },
});
const taskAnswer = (rpcId: string, taskId: string, contextId: string, state = 'completed') => ({
  jsonrpc: '2.0',
  id: rpcId,
  result: { kind: 'task', id: taskId, contextId, status: { state }, artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'You said: hi' }] }] },
});
const card = { name: 'Demo agent (v0.3 SDK)', url: `${TAP}/jsonrpc`, protocolVersion: '0.3.0', skills: [] };

/** The demo: card, then two tasks sent at once, answered separately. */
function demo(r = new Recorder()): Recorder {
  const c = r.start(100, 'card');
  r.end(c, 110, 200, card);
  const a = r.start(120, 'message/send', send('m1', 'one'));
  const b = r.start(121, 'message/send', send('m2', 'two'));
  r.end(b, 180, 200, taskAnswer('m2', 't2', 'c2'));
  r.end(a, 190, 200, taskAnswer('m1', 't1', 'c1'));
  return r;
}

const byId = (rs: TwoAgentResult[]) => Object.fromEntries(rs.map((x) => [x.id, x])) as Record<TwoAgentCheckId, TwoAgentResult>;
const statuses = (rs: TwoAgentResult[]) => Object.fromEntries(rs.map((x) => [x.id, x.status]));

describe('two-agent checks from a tap conversation', () => {
  it('the demo conversation passes all four, each citing the procedure sentence and its exchanges', () => {
    const rs = judgeTwoAgents(demo().events);
    expect(statuses(rs)).toEqual({ 'two-agent.card': 'pass', 'two-agent.send': 'pass', 'two-agent.answer': 'pass', 'two-agent.concurrent': 'pass' });
    const r = byId(rs);
    expect(r['two-agent.card'].message).toContain('before its first task (x2)');
    expect(r['two-agent.card'].exchanges).toEqual(['x1']);
    expect(r['two-agent.concurrent'].exchanges.sort()).toEqual(['x2', 'x3']);
    expect(r['two-agent.concurrent'].message).toContain('x2 -> t1');
    for (const x of rs) {
      expect(x.specRef).toMatch(/^Conformance procedure, Two agents P[124] \(step 5\.5\)$/);
      expect(x.quote).toMatch(/MUST/);
      expect(x.recommendation.length).toBeGreaterThan(20);
    }
  });

  it('nothing observed yet: every check says so, none passes or fails', () => {
    expect(new Set(judgeTwoAgents([]).map((x) => x.status))).toEqual(new Set(['not-observed']));
  });

  it('tasks without a card read through the tap: an advisory (a card configured directly is allowed)', () => {
    const r = new Recorder();
    const a = r.start(120, 'message/send', send('m1', 'one'));
    r.end(a, 130, 200, taskAnswer('m1', 't1', 'c1'));
    const card = byId(judgeTwoAgents(r.events))['two-agent.card'];
    expect(card.status).toBe('advisory');
    expect(card.side).toBe('client');
    expect(card.message).toContain('§8.2');
  });

  it("a card B does not serve is B's failure; a card cut by an injected fault is nobody's", () => {
    const r = new Recorder();
    r.end(r.start(100, 'card'), 110, 404, { error: 'not found' });
    const c = byId(judgeTwoAgents(r.events))['two-agent.card'];
    expect([c.status, c.side]).toEqual(['fail', 'agent']);
    const f = new Recorder();
    f.end(f.start(100, 'card'), 110, 0, undefined, { error: { code: 'fault', message: 'reset once' } });
    expect(byId(judgeTwoAgents(f.events))['two-agent.card'].status).toBe('not-observed');
  });

  it('a card read after the first task still passes, and says so', () => {
    const r = new Recorder();
    const a = r.start(100, 'message/send', send('m1', 'one'));
    r.end(a, 110, 200, taskAnswer('m1', 't1', 'c1'));
    r.end(r.start(120, 'card'), 130, 200, card);
    const c = byId(judgeTwoAgents(r.events))['two-agent.card'];
    expect(c.status).toBe('pass');
    expect(c.message).toContain('after its first task (x1)');
  });

  it("every send broken by a client MUST finding fails 'A sends B a task' on the client", () => {
    const r = new Recorder();
    const a = r.start(100, 'message/send', send('m1', 'one'));
    r.finding({ side: 'client', checkId: 'client.method', level: 'MUST', message: 'wrong method', exchangeId: a });
    r.end(a, 110, 200, { jsonrpc: '2.0', id: 'm1', error: { code: -32601, message: 'Method not found' } });
    const rs = byId(judgeTwoAgents(r.events));
    expect([rs['two-agent.send'].status, rs['two-agent.send'].side]).toEqual(['fail', 'client']);
    expect(rs['two-agent.send'].message).toContain('client.method');
    // B refusing a broken request is no failure of B's.
    expect(rs['two-agent.answer'].status).toBe('not-observed');
    expect(rs['two-agent.answer'].message).toContain("A's request breaking client.method");
    // An advisory finding alone does not fail it.
    const ok = new Recorder();
    const b = ok.start(100, 'message/send', send('m1', 'one'));
    ok.finding({ side: 'client', checkId: 'client.accept', level: 'advisory', message: 'no Accept', exchangeId: b });
    ok.end(b, 110, 200, taskAnswer('m1', 't1', 'c1'));
    expect(byId(judgeTwoAgents(ok.events))['two-agent.send'].status).toBe('pass');
  });

  it("an error answer, a 500 or a body that is no task fail 'B answers' on the agent", () => {
    for (const [status, body] of [
      [200, { jsonrpc: '2.0', id: 'm1', error: { code: -32603, message: 'boom' } }],
      [500, { oops: true }],
      [200, { jsonrpc: '2.0', id: 'm1', result: { hello: 'world' } }],
    ] as const) {
      const r = new Recorder();
      r.end(r.start(100, 'message/send', send('m1', 'one')), 110, status, body);
      const x = byId(judgeTwoAgents(r.events))['two-agent.answer'];
      expect([x.status, x.side], JSON.stringify(body)).toEqual(['fail', 'agent']);
    }
  });

  it("an injected 503 or reset is not B's failure, and a pending send is not judged yet", () => {
    const r = new Recorder();
    r.end(r.start(100, 'message/send', send('m1', 'one')), 110, 503, undefined, { error: { code: 'fault', message: 'failOnce 503' } });
    r.start(120, 'message/send', send('m2', 'two'));
    const x = byId(judgeTwoAgents(r.events))['two-agent.answer'];
    expect(x.status).toBe('not-observed');
    expect(x.message).toMatch(/a fault the tap injected.*1 still waiting for B/);
  });

  it('streams: the task named by the frames is the answer; a stream of frames with no task fails', () => {
    const r = new Recorder();
    const a = r.start(100, 'message/stream', { ...send('m1', 'one'), method: 'message/stream' }, { streaming: true });
    const b = r.start(101, 'message/stream', { ...send('m2', 'two'), method: 'message/stream' }, { streaming: true });
    r.frame(a, 110, 1, { jsonrpc: '2.0', id: 'm1', result: { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted' } } });
    r.frame(b, 111, 1, { jsonrpc: '2.0', id: 'm2', result: { kind: 'task', id: 't2', contextId: 'c2', status: { state: 'submitted' } } });
    r.frame(a, 112, 2, {
      jsonrpc: '2.0',
      id: 'm1',
      result: { kind: 'status-update', taskId: 't1', contextId: 'c1', status: { state: 'completed' }, final: true },
    });
    r.frame(b, 113, 2, {
      jsonrpc: '2.0',
      id: 'm2',
      result: { kind: 'status-update', taskId: 't2', contextId: 'c2', status: { state: 'completed' }, final: true },
    });
    r.end(a, 120, 200, undefined, { stream: true, frames: 2 });
    r.end(b, 121, 200, undefined, { stream: true, frames: 2 });
    const rs = byId(judgeTwoAgents(r.events));
    expect(rs['two-agent.answer'].status).toBe('pass');
    expect(rs['two-agent.answer'].message).toContain('x1: task completed');
    expect(rs['two-agent.concurrent'].status).toBe('pass');

    const bad = new Recorder();
    const c = bad.start(100, 'message/stream', send('m1', 'one'), { streaming: true });
    bad.frame(c, 110, 1, { hello: 1 });
    bad.end(c, 120, 200, undefined, { stream: true, frames: 1 });
    expect(byId(judgeTwoAgents(bad.events))['two-agent.answer'].message).toContain('a stream of 1 event(s) with no task or message');
  });

  it('interference: two new tasks answered with one task, or one context they did not ask to share, fail on the agent', () => {
    const shared = new Recorder();
    const a = shared.start(100, 'message/send', send('m1', 'one'));
    const b = shared.start(101, 'message/send', send('m2', 'two'));
    shared.end(a, 150, 200, taskAnswer('m1', 't1', 'c1'));
    shared.end(b, 151, 200, taskAnswer('m2', 't1', 'c1'));
    const x = byId(judgeTwoAgents(shared.events))['two-agent.concurrent'];
    expect([x.status, x.side]).toEqual(['fail', 'agent']);
    expect(x.message).toContain('the same task t1');
    expect(x.message).toContain('the same context c1');

    const ctx = new Recorder();
    const c = ctx.start(100, 'message/send', send('m1', 'one'));
    const d = ctx.start(101, 'message/send', send('m2', 'two'));
    ctx.end(c, 150, 200, taskAnswer('m1', 't1', 'c1'));
    ctx.end(d, 151, 200, taskAnswer('m2', 't2', 'c1'));
    expect(byId(judgeTwoAgents(ctx.events))['two-agent.concurrent'].message).toContain('the same context c1');
  });

  it('a context A names is kept: answering in another context is interference; sharing the one A named twice is not', () => {
    const r = new Recorder();
    const a = r.start(100, 'message/send', send('m1', 'one', { contextId: 'mine' }));
    const b = r.start(101, 'message/send', send('m2', 'two', { contextId: 'mine' }));
    r.end(a, 150, 200, taskAnswer('m1', 't1', 'mine'));
    r.end(b, 151, 200, taskAnswer('m2', 't2', 'mine'));
    expect(byId(judgeTwoAgents(r.events))['two-agent.concurrent'].status).toBe('pass');
    const w = new Recorder();
    const c = w.start(100, 'message/send', send('m1', 'one', { contextId: 'mine' }));
    const d = w.start(101, 'message/send', send('m2', 'two'));
    w.end(c, 150, 200, taskAnswer('m1', 't1', 'theirs'));
    w.end(d, 151, 200, taskAnswer('m2', 't2', 'c2'));
    expect(byId(judgeTwoAgents(w.events))['two-agent.concurrent'].message).toContain('B answered x1 (context mine) in context theirs');
  });

  it('the same messageId on two requests sent at once is the client’s doing', () => {
    const r = new Recorder();
    const a = r.start(100, 'message/send', send('same', 'one'));
    const b = r.start(101, 'message/send', send('same', 'two'));
    r.end(a, 150, 200, taskAnswer('same', 't1', 'c1'));
    r.end(b, 151, 200, taskAnswer('same', 't2', 'c2'));
    const x = byId(judgeTwoAgents(r.events))['two-agent.concurrent'];
    expect([x.status, x.side]).toEqual(['fail', 'client']);
  });

  it('one task after another is no concurrency; continuing a task is not a new task', () => {
    const r = new Recorder();
    r.end(r.start(100, 'message/send', send('m1', 'one')), 110, 200, taskAnswer('m1', 't1', 'c1', 'input-required'));
    r.end(r.start(120, 'message/send', send('m2', 'two')), 130, 200, taskAnswer('m2', 't2', 'c2'));
    expect(byId(judgeTwoAgents(r.events))['two-agent.concurrent'].status).toBe('not-observed');
    const k = new Recorder();
    const a = k.start(100, 'message/send', send('m1', 'one'));
    const b = k.start(101, 'message/send', send('m2', 'answer', { taskId: 't1', contextId: 'c1' }));
    k.end(a, 150, 200, taskAnswer('m1', 't1', 'c1'));
    k.end(b, 151, 200, taskAnswer('m2', 't1', 'c1'));
    expect(byId(judgeTwoAgents(k.events))['two-agent.concurrent'].status).toBe('not-observed');
  });

  it('two tasks open at once but not both answered yet: not judged yet', () => {
    const r = new Recorder();
    const a = r.start(100, 'message/send', send('m1', 'one'));
    r.start(101, 'message/send', send('m2', 'two'));
    r.end(a, 150, 200, taskAnswer('m1', 't1', 'c1'));
    const x = byId(judgeTwoAgents(r.events))['two-agent.concurrent'];
    expect(x.status).toBe('not-observed');
    expect(x.exchanges).toEqual(['x1', 'x2']);
  });
});

describe('bounded work', () => {
  it('2,000 tasks sent at once are judged in bounded time (no pairwise scan of every body)', () => {
    const r = new Recorder();
    const ids = Array.from({ length: 2000 }, (_, i) => r.start(100 + i, 'message/send', send(`m${i}`, 'x'.repeat(200))));
    ids.forEach((id, i) => r.end(id, 5000 + i, 200, taskAnswer(`m${i}`, `t${i}`, `c${i}`)));
    const t = performance.now();
    const rs = byId(judgeTwoAgents(r.events));
    const ms = performance.now() - t;
    expect(rs['two-agent.concurrent'].status).toBe('pass');
    expect(rs['two-agent.concurrent'].exchanges).toHaveLength(2000);
    // About 0.2 s on a loaded 2-core machine; the first, pairwise version took 10.8 s for 1,000 (about 40 s here).
    expect(ms).toBeLessThan(3000);
  });
});

describe('reading requests and answers of every generation', () => {
  it('recognises the send operations of every generation and binding', () => {
    for (const op of [
      'message/send',
      'message/stream',
      'tasks/send',
      'tasks/sendSubscribe',
      'SendMessage',
      'SendStreamingMessage',
      'POST /v1/message:send',
      'POST /message:stream',
    ])
      expect(isSendOperation(op), op).toBe(true);
    for (const op of ['card', 'tasks/get', 'GetTask', 'tasks/cancel', 'GET /v1/tasks/t1', 'message/sendx']) expect(isSendOperation(op), op).toBe(false);
  });

  it('answers: v1.0 wrappers, v0.3 kinds, legacy tasks, errors, garbage', () => {
    expect(
      answerInfo(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } } })),
    ).toEqual({
      kind: 'task',
      taskId: 't',
      contextId: 'c',
      state: 'completed',
    });
    expect(answerInfo(JSON.stringify({ message: { messageId: 'm', contextId: 'c', parts: [] } }))).toMatchObject({ kind: 'message', contextId: 'c' });
    expect(answerInfo(JSON.stringify({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_WORKING' } } }))).toEqual({
      kind: 'event',
      taskId: 't',
      contextId: 'c',
      state: 'working',
    });
    expect(answerInfo(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', sessionId: 's', status: { state: 'completed' } } }))).toEqual({
      kind: 'task',
      taskId: 't',
      contextId: 's',
      state: 'completed',
    });
    expect(answerInfo(JSON.stringify({ code: 5, message: 'Task not found' })).kind).toBe('error');
    expect(answerInfo(JSON.stringify({ error: { code: 404, message: 'nope', status: 'NOT_FOUND' } })).kind).toBe('error');
    for (const junk of [undefined, '', 'not json', '[1,2]', 'null', '{"jsonrpc":"2.0","result":42}']) expect(answerInfo(junk).kind).toBe('unknown');
  });

  it('requests: JSON-RPC params, HTTP+JSON bodies, the legacy client-chosen task id', () => {
    expect(requestIds(JSON.stringify(send('m1', 'x', { taskId: 't', contextId: 'c' })))).toEqual({ taskId: 't', contextId: 'c', messageId: 'm1' });
    expect(requestIds(JSON.stringify({ message: { messageId: 'm', contextId: 'c', parts: [] } }))).toEqual({ contextId: 'c', messageId: 'm' });
    expect(requestIds(JSON.stringify({ jsonrpc: '2.0', method: 'tasks/send', params: { id: 'legacy', sessionId: 's', message: { parts: [] } } }))).toEqual({
      contextId: 's',
      clientTaskId: 'legacy',
    });
    for (const junk of [undefined, 'x', '[]', '{"jsonrpc":"2.0","params":3}']) expect(requestIds(junk)).toEqual({});
  });
});
