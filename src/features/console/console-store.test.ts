import { describe, expect, it, vi } from 'vitest';
import type { ConsoleOpen, ConsoleSession, SessionFrame, SessionResult, SessionTarget } from '../../lib/console-adapter';
import type { ConsoleRecord } from '../../lib/console-db';
import type { RunEvent } from '../../lib/engine';
import { createRunStore } from '../../lib/run-store';
import { EMPTY_DRAFT } from './compose';
import { ConsoleController, MAX_EVENTS, type ConsoleCall } from './console-store';

const TARGET: SessionTarget = {
  inputUrl: 'http://127.0.0.1:1/a',
  attempts: [],
  evidence: ['v0.3 card'],
  generation: 'v0.3',
  testedGeneration: 'v0.3',
  binding: 'JSONRPC',
  endpointUrl: 'http://127.0.0.1:1/a/jsonrpc',
  agentName: 'Fake',
  streaming: true,
  skills: [{ id: 'book', name: 'Booking', examples: ['Book a table for two'] }],
};

const req = (id: string, lane: string, body = '{}'): RunEvent => ({
  type: 'http-request',
  at: 1,
  exchangeId: id,
  lane,
  request: { method: 'POST', url: TARGET.endpointUrl!, headers: {}, body, bodySize: body.length },
});
const res = (id: string, body: string): RunEvent => ({
  type: 'http-response',
  at: 2,
  exchangeId: id,
  response: { status: 200, headers: {}, body, bodySize: body.length, truncated: false, stream: false },
  timings: { startedAt: 1, endedAt: 2 },
});

const taskState = (taskId: string, state: 'input-required' | 'completed' | 'working', source: 'send' | 'stream'): RunEvent => ({
  type: 'task-state',
  at: 3,
  lane: 'console #1',
  taskId,
  state,
  rawState: state,
  source,
});

function result(patch: Partial<SessionResult>): SessionResult {
  return {
    operation: 'send',
    method: 'message/send',
    generation: 'v0.3',
    binding: 'JSONRPC',
    ok: true,
    outcome: 'task',
    summary: 'ok',
    frames: [],
    exchanges: [],
    findings: [],
    durationMs: 5,
    events: [],
    ...patch,
  };
}

const frame = (seq: number, patch: Partial<SessionFrame>): SessionFrame => ({ seq, ms: seq * 10, data: '{}', kind: 'status', findings: [], ...patch });

/** A session whose answers the test scripts; it records what it was asked. */
function fakeSession(overrides: Partial<ConsoleSession> = {}) {
  const asked: { op: string; args: Record<string, unknown> }[] = [];
  const record =
    (op: string, r: (args: Record<string, unknown>) => SessionResult | Promise<SessionResult>) =>
    async (o: object = {}) => {
      const args = o as Record<string, unknown>;
      asked.push({ op, args });
      return r(args);
    };
  const bookingAnswer = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    result: {
      kind: 'task',
      id: 't1',
      contextId: 'c1',
      status: { state: 'input-required', message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'For how many?' }] } },
    },
  });
  const session: ConsoleSession = {
    target: TARGET,
    generation: 'v0.3',
    binding: 'JSONRPC',
    send: record('send', (a) =>
      result({
        task: {
          id: (a.taskId as string) ?? 't1',
          contextId: 'c1',
          state: a.taskId ? 'completed' : 'input-required',
          rawState: a.taskId ? 'completed' : 'input-required',
          artifacts: [],
          raw: {},
        },
        exchanges: [
          {
            exchangeId: 'x1',
            request: { method: 'POST', url: TARGET.endpointUrl!, headers: {}, bodySize: 2 },
            response: { status: 200, headers: {}, body: bookingAnswer, bodySize: 1, truncated: false, stream: false },
            sseEvents: 0,
          },
        ],
        // The engine tells the state the answer showed (a task-state event), as it does in a run.
        events: [req('x1', 'console #1'), res('x1', bookingAnswer), taskState((a.taskId as string) ?? 't1', a.taskId ? 'completed' : 'input-required', 'send')],
      }),
    ) as ConsoleSession['send'],
    stream: record('stream', () => result({ operation: 'stream' })) as ConsoleSession['stream'],
    get: record('get', () => result({ operation: 'get' })) as ConsoleSession['get'],
    cancel: record('cancel', () =>
      result({ operation: 'cancel', task: { id: 't1', state: 'canceled', rawState: 'canceled', artifacts: [], raw: {} } }),
    ) as ConsoleSession['cancel'],
    subscribe: record('subscribe', () => result({ operation: 'subscribe' })) as ConsoleSession['subscribe'],
    list: record('list', () =>
      result({
        operation: 'list',
        outcome: 'ok',
        value: { tasks: [{ id: 't9', contextId: 'c9', status: { state: 'TASK_STATE_WORKING' } }] },
        // The page as the engine read it.
        tasks: [{ id: 't9', contextId: 'c9', state: 'working', rawState: 'TASK_STATE_WORKING', artifacts: [], raw: {} }],
      }),
    ) as ConsoleSession['list'],
    ...overrides,
  };
  return { session, asked };
}

function setup(session: ConsoleSession, open?: (s: ConsoleSession) => ConsoleOpen) {
  const timeline = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  const saved: ConsoleRecord<ConsoleCall>[] = [];
  let t = 1_000;
  let n = 0;
  const ctl = new ConsoleController({
    open: async () => open?.(session) ?? { ok: true, session, target: TARGET, events: [req('d1', 'discovery')] },
    timeline,
    save: async (r) => {
      saved.push(structuredClone(r));
    },
    now: () => (t += 10),
    newId: () => `s${++n}`,
  });
  return { ctl, timeline, saved };
}

describe('console controller', () => {
  it('connects: the target is shown, discovery events reach the timeline, the session is saved', async () => {
    const { session } = fakeSession();
    const { ctl, timeline, saved } = setup(session);
    expect(await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'bearer', token: 'sekret' } })).toBe(true);
    expect(ctl.state.phase).toBe('open');
    expect(ctl.state.target?.agentName).toBe('Fake');
    timeline.flush();
    const run = timeline.store.getState().run;
    expect(run.runId).toBe('s1');
    expect(run.options?.credentials).toBe('bearer');
    expect(run.exchangeOrder).toEqual(['d1']);
    // Nothing is saved until something is sent.
    expect(saved).toEqual([]);
    await ctl.get('t1');
    expect(saved.at(-1)?.id).toBe('s1');
    // Credentials stay in memory: nothing saved carries them.
    expect(JSON.stringify(saved)).not.toContain('sekret');
    expect(ctl.sessionCredentials).toEqual({ kind: 'bearer', token: 'sekret' });
  });

  it('an agent that cannot be talked to: the reason is shown, no call can be made', async () => {
    const { session } = fakeSession();
    const { ctl } = setup(session, () => ({ ok: false, unavailable: { reason: 'not-a2a', message: 'no card' }, target: TARGET, events: [] }));
    expect(await ctl.connect({ agentUrl: 'http://x/', credentials: { kind: 'none' } })).toBe(false);
    expect(ctl.state.phase).toBe('unavailable');
    expect(ctl.state.unavailable?.message).toBe('no card');
    expect(await ctl.get('t1')).toBeUndefined();
    expect(ctl.state.error).toMatch(/Connect/);
  });

  it('a send that asks for input: the task is listed with its question; Answer continues the same task and context', async () => {
    const { session, asked } = fakeSession();
    const { ctl, timeline, saved } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    const c = await ctl.send({
      stream: false,
      text: 'Book a table for two',
      parts: [{ kind: 'text', text: 'Book a table for two' }],
      blocking: true,
      skill: 'book',
    });
    expect(c?.status).toBe('done');
    expect(asked[0]).toMatchObject({ op: 'send', args: { text: 'Book a table for two', skill: 'book', blocking: true } });
    const task = ctl.state.tasks.t1!;
    expect(task.state).toBe('input-required');
    expect(task.statusParts).toEqual([{ kind: 'text', text: 'For how many?' }]);
    ctl.answer('t1');
    expect(ctl.state.draft).toMatchObject({ target: 'continue', taskId: 't1', contextId: 'c1' });
    expect(ctl.state.composeFocus).toBe(1);
    await ctl.send({ stream: false, text: 'two', parts: [{ kind: 'text', text: 'two' }], blocking: true, taskId: 't1', contextId: 'c1' });
    expect(asked[1]).toMatchObject({ op: 'send', args: { taskId: 't1', contextId: 'c1' } });
    expect(ctl.state.tasks.t1!.state).toBe('completed');
    expect(ctl.state.taskOrder).toEqual(['t1']);
    // The result's events went to the timeline, with a task-state marker per answer.
    timeline.flush();
    const run = timeline.store.getState().run;
    expect(run.taskStates.map((s) => s.state)).toEqual(['input-required', 'completed']);
    expect(run.lanes).toContain('console #1');
    // Saved calls keep the result but not the engine events (those are saved once, apart).
    const last = saved.at(-1)!;
    expect(last.calls).toHaveLength(2);
    expect('events' in (last.calls[0]!.result ?? {})).toBe(false);
    expect(last.events.filter((e) => e.type === 'http-request').length).toBe(3);
  });

  it('a stream: frames appear as they arrive, live events reach the timeline once, Stop aborts only our reading', async () => {
    let release: (r: SessionResult) => void = () => undefined;
    let seenSignal: AbortSignal | undefined;
    const { session } = fakeSession({
      stream: (async (o: { onFrame?: (f: SessionFrame) => void; onEvent?: (e: RunEvent) => void; signal?: AbortSignal }) => {
        seenSignal = o.signal;
        o.onEvent?.(req('x5', 'console #1'));
        o.onFrame?.(frame(1, { kind: 'task', taskId: 't2', state: 'submitted', rawState: 'submitted' }));
        o.onFrame?.(
          frame(2, {
            kind: 'status',
            taskId: 't2',
            state: 'working',
            rawState: 'working',
            findings: [{ level: 'MUST', checkId: 'streaming.framing', rule: 'framing', message: 'bad', frame: 2 }],
          }),
        );
        return new Promise<SessionResult>((r) => (release = r));
      }) as ConsoleSession['stream'],
    });
    const { ctl, timeline } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    const pending = ctl.send({ stream: true, text: 'Prepare the slow report', parts: [{ kind: 'text', text: 'Prepare the slow report' }], blocking: true });
    await Promise.resolve();
    const running = ctl.state.calls[0]!;
    expect(running.status).toBe('running');
    expect(running.frames.map((f) => f.rawState)).toEqual(['submitted', 'working']);
    expect(running.frames[1]!.findings[0]!.checkId).toBe('streaming.framing');
    timeline.flush();
    expect(timeline.store.getState().run.exchangeOrder).toContain('x5');
    ctl.stop(running.id);
    expect(seenSignal?.aborted).toBe(true);
    const frames = [
      frame(1, { kind: 'task', taskId: 't2', state: 'submitted', rawState: 'submitted' }),
      frame(2, { kind: 'status', taskId: 't2', state: 'working', rawState: 'working' }),
    ];
    release(
      result({
        operation: 'stream',
        frames,
        task: { id: 't2', state: 'working', rawState: 'working', artifacts: [], raw: undefined },
        events: [req('x5', 'console #1')],
      }),
    );
    const done = await pending;
    expect(done?.stopped).toBe(true);
    expect(done?.status).toBe('done');
    timeline.flush();
    // The live request event was not added a second time from the result.
    expect(timeline.store.getState().run.exchangeOrder.filter((x) => x === 'x5')).toHaveLength(1);
    expect(ctl.state.tasks.t2?.state).toBe('working');
    expect(ctl.state.tasks.t2?.artifactsCut).toBe(false);
  });

  it('a streamed artifact event cut at the per-event limit is said, and a Get brings the whole artifacts', async () => {
    const cutFrame = frame(2, {
      kind: 'artifact',
      taskId: 't3',
      data: '{"jsonrpc":"2.0","id":1,"result":{"kind":"artifact-update","artifact":{"parts":[{"kind":"file","file":{"bytes":"iVBO',
    });
    const whole = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      result: { kind: 'task', id: 't3', status: { state: 'completed' }, artifacts: [{ artifactId: 'img', parts: [{ kind: 'text', text: 'all of it' }] }] },
    });
    const { session } = fakeSession({
      stream: (async () =>
        result({
          operation: 'stream',
          frames: [frame(1, { kind: 'task', taskId: 't3', state: 'working', rawState: 'working' }), cutFrame],
          task: { id: 't3', state: 'working', rawState: 'working', artifacts: [], raw: undefined },
        })) as ConsoleSession['stream'],
      get: (async () =>
        result({
          operation: 'get',
          task: { id: 't3', state: 'completed', rawState: 'completed', artifacts: [], raw: {} },
          exchanges: [
            {
              exchangeId: 'x9',
              request: { method: 'POST', url: TARGET.endpointUrl!, headers: {}, bodySize: 2 },
              response: { status: 200, headers: {}, body: whole, bodySize: 1, truncated: false, stream: false },
              sseEvents: 0,
            },
          ],
        })) as ConsoleSession['get'],
    });
    const { ctl } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    await ctl.send({ stream: true, text: 'img', parts: [{ kind: 'text', text: 'img' }], blocking: true });
    expect(ctl.state.tasks.t3?.artifactsCut).toBe(true);
    await ctl.get('t3');
    expect(ctl.state.tasks.t3).toMatchObject({
      artifactsCut: false,
      state: 'completed',
      artifacts: [{ key: 'img', parts: [{ kind: 'text', text: 'all of it' }] }],
    });
  });

  it("a refused input is the user's to fix; anything else thrown is our failure, never the agent's", async () => {
    const inputError = Object.assign(new Error('The card declares no skill "x".'), { name: 'SessionInputError' });
    const { session } = fakeSession({
      send: (() => Promise.reject(inputError)) as ConsoleSession['send'],
      get: (() => Promise.reject(new TypeError('boom'))) as ConsoleSession['get'],
    });
    const { ctl } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    expect((await ctl.send({ stream: false, text: 'x', parts: [], blocking: true, skill: 'x' }))?.error).toBe('The card declares no skill "x".');
    expect((await ctl.get('t'))?.error).toMatch(/failed on its side \(not the agent's fault\): boom/);
  });

  it('cancel, list (v1.0 page folded into tasks), push calls and raw re-sends reach the session; missing engine support is said', async () => {
    const { session, asked } = fakeSession();
    const { ctl } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    await ctl.cancel('t1');
    expect(ctl.state.tasks.t1?.state).toBe('canceled');
    await ctl.list({ contextId: 'c9', pageSize: 5 });
    expect(asked.at(-1)).toMatchObject({ op: 'list', args: { contextId: 'c9', pageSize: 5 } });
    expect(ctl.state.tasks.t9).toMatchObject({ contextId: 'c9', state: 'working', rawState: 'TASK_STATE_WORKING' });
    expect(ctl.supports).toEqual({ push: false, raw: false });
    expect((await ctl.push('push-set', { taskId: 't1', url: 'https://hook', token: 'hook-secret-123' }))?.error).toMatch(/no push-config calls/);
    expect((await ctl.raw({ method: 'POST', url: 'http://127.0.0.1:1/a/jsonrpc', headers: {}, body: '{}' }, 'exchange x1'))?.error).toMatch(/cannot re-send/);
    // The push token typed by the user is never kept as typed.
    expect(JSON.stringify(ctl.state.calls)).not.toContain('hook-secret-123');
  });

  it('edit again puts an earlier send back into the composer', async () => {
    const { session } = fakeSession();
    const { ctl } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    await ctl.send({
      stream: false,
      text: 'hello',
      parts: [
        { kind: 'text', text: 'hello' },
        { kind: 'data', data: { a: 1 } },
      ],
      blocking: false,
      historyLength: 2,
      acceptedOutputModes: ['text/plain'],
      metadata: { m: true },
    });
    ctl.setDraft({ text: 'changed' });
    ctl.editAgain('c1');
    expect(ctl.state.draft).toEqual({
      ...EMPTY_DRAFT,
      text: 'hello',
      dataJson: '{\n  "a": 1\n}',
      mode: 'non-blocking',
      historyLength: '2',
      outputModes: 'text/plain',
      metadataJson: '{\n  "m": true\n}',
    });
  });

  it('a saved session comes back read-only: calls, tasks and timeline; the engine events are bounded', async () => {
    const { session } = fakeSession();
    const { ctl, timeline, saved } = setup(session);
    await ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    await ctl.send({ stream: false, text: 'Book', parts: [{ kind: 'text', text: 'Book' }], blocking: true });
    const record = saved.at(-1)!;
    ctl.reset();
    expect(ctl.state.calls).toEqual([]);
    ctl.loadSaved(record);
    expect(ctl.state.phase).toBe('saved');
    expect(ctl.state.calls).toHaveLength(1);
    expect(ctl.state.tasks.t1?.state).toBe('input-required');
    expect(timeline.store.getState().run.exchangeOrder).toContain('x1');
    expect(ctl.hasSession).toBe(false);

    // A chatty session: events beyond MAX_EVENTS are dropped, not kept growing.
    const many: RunEvent[] = Array.from({ length: MAX_EVENTS + 10 }, (_, i) => ({ type: 'log', at: i, level: 'info', message: String(i) }));
    const flood = fakeSession({ get: (async () => result({ operation: 'get', events: many })) as ConsoleSession['get'] });
    const s2 = setup(flood.session);
    await s2.ctl.connect({ agentUrl: 'http://127.0.0.1:1/a', credentials: { kind: 'none' } });
    await s2.ctl.get('t');
    expect(s2.saved.at(-1)!.events.length).toBe(MAX_EVENTS);
  });

  it('a new connection while one is opening wins; the first answer is dropped', async () => {
    const { session } = fakeSession();
    const opens: ((o: ConsoleOpen) => void)[] = [];
    const timeline = createRunStore((cb) => {
      cb();
      return () => undefined;
    });
    const ctl = new ConsoleController({ open: () => new Promise<ConsoleOpen>((r) => opens.push(r)), timeline });
    const first = ctl.connect({ agentUrl: 'http://a/', credentials: { kind: 'none' } });
    const second = ctl.connect({ agentUrl: 'http://b/', credentials: { kind: 'none' } });
    opens[1]!({ ok: true, session, target: { ...TARGET, agentName: 'B' }, events: [] });
    opens[0]!({ ok: true, session, target: { ...TARGET, agentName: 'A' }, events: [] });
    expect(await second).toBe(true);
    expect(await first).toBe(false);
    expect(ctl.state.target?.agentName).toBe('B');
    expect(ctl.state.agentUrl).toBe('http://b/');
    vi.restoreAllMocks();
  });
});
