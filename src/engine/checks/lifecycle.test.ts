/**
 * A list of independent test cases (describe blocks per check), long by nature: each case stands on its own.
 *
 * Lifecycle checks against scripted agents (fake host) and the test agent: each false failure of
 * docs/spec-review/lifecycle.md is gone (permitted behaviour passes, weaker findings are advisories, our limits are
 * tool limits), and real defects still fail.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { startDefectAgent, type DefectName, type RunningDefectAgent } from '../../testing/defect-agent';
import type { PermittedName } from '../../testing/defect-agent/permitted';
import type { CheckResult } from '../model/check';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { judgeListPage } from '../judges/list';

type G = 'legacy' | 'v0.3' | 'v1.0';
type Json = Record<string, unknown>;

interface Task {
  id: string;
  contextId: string;
  /** Remaining states: each get moves one step on; the first is the current state. */
  states: string[];
  history: Json[];
  artifacts: Json[];
  timestamp: string;
  statusMessage?: Json;
  extra?: Json;
}

interface Rpc {
  method: string;
  params: Json;
  id: unknown;
}

type Reply = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | Response | undefined;

interface AgentOpts {
  card?: (c: Json) => Json;
  /** States a new task goes through (first: the send's answer; then one step per get). */
  plan?: (text: string, rpc: Rpc) => string[];
  /** Override any method (return undefined for the default). */
  on?: (rpc: Rpc, a: ScriptedAgent, req: Request) => Reply | Promise<Reply>;
  /** Task JSON tweaks (e.g. drop contextId, add kind). */
  render?: (t: Json, task: Task) => Json;
}

const V1 = (s: string) => `TASK_STATE_${s.toUpperCase().replace(/-/g, '_')}`;
const now = () => new Date().toISOString();

class ScriptedAgent {
  tasks = new Map<string, Task>();
  rpcs: Rpc[] = [];
  private n = 0;
  constructor(
    readonly g: G,
    readonly opts: AgentOpts = {},
  ) {}

  message(role: 'user' | 'agent', text: string, messageId = `m-${++this.n}`): Json {
    if (this.g === 'v1.0') return { messageId, role: role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT', parts: [{ text }] };
    if (this.g === 'legacy') return { role, parts: [{ type: 'text', text }] };
    return { kind: 'message', messageId, role, parts: [{ kind: 'text', text }] };
  }

  render(t: Task, historyLength?: number): Json {
    const g = this.g;
    const state = g === 'v1.0' ? V1(t.states[0]!) : t.states[0]!;
    let history = t.history;
    if (historyLength !== undefined && historyLength > 0) history = history.slice(-historyLength);
    if (g === 'v1.0' && historyLength === 0) history = [];
    const status: Json = { state, timestamp: t.timestamp, ...(t.statusMessage && { message: t.statusMessage }) };
    const base: Json =
      g === 'legacy'
        ? { id: t.id, sessionId: t.contextId, status }
        : g === 'v1.0'
          ? { id: t.id, contextId: t.contextId, status }
          : { kind: 'task', id: t.id, contextId: t.contextId, status };
    if (!(g === 'v1.0' && historyLength === 0)) base.history = history;
    if (t.artifacts.length) base.artifacts = t.artifacts;
    Object.assign(base, t.extra);
    return this.opts.render ? this.opts.render(base, t) : base;
  }

  wrap(body: Json): unknown {
    return this.g === 'v1.0' ? { task: body } : body;
  }

  textOf(params: Json): string {
    const m = params.message as { parts?: { text?: string }[] } | undefined;
    return (m?.parts ?? []).map((p) => p.text ?? '').join('');
  }

  create(params: Json, rpc: Rpc): Task {
    const text = this.textOf(params);
    const m = (params.message ?? {}) as Json;
    const id = this.g === 'legacy' ? String(params.id) : `task-${++this.n}`;
    const contextId = (this.g === 'legacy' ? (params.sessionId as string | undefined) : (m.contextId as string | undefined)) ?? `ctx-${++this.n}`;
    const states = this.opts.plan?.(text, rpc) ?? ['submitted', 'completed'];
    const t: Task = {
      id,
      contextId,
      states,
      history: [this.message('user', text, typeof m.messageId === 'string' ? m.messageId : undefined)],
      artifacts: [],
      timestamp: now(),
    };
    this.settle(t);
    this.tasks.set(id, t);
    return t;
  }

  /** On reaching completed: an agent reply in history and one artifact. */
  settle(t: Task) {
    if (t.states[0] === 'completed' && !t.artifacts.length) {
      t.history.push(this.message('agent', 'done'));
      t.artifacts.push(
        this.g === 'v1.0'
          ? { artifactId: 'a1', parts: [{ text: 'done' }] }
          : this.g === 'legacy'
            ? { parts: [{ type: 'text', text: 'done' }] }
            : { artifactId: 'a1', parts: [{ kind: 'text', text: 'done' }] },
      );
    }
  }

  step(t: Task) {
    if (t.states.length > 1) {
      t.states.shift();
      t.timestamp = now();
      this.settle(t);
    }
  }

  notFound(): Reply {
    return { error: { code: -32001, message: 'Task not found' } };
  }

  async handle(rpc: Rpc, req: Request): Promise<Reply> {
    const custom = await this.opts.on?.(rpc, this, req);
    if (custom !== undefined) return custom;
    const { method, params } = rpc;
    const taskId = (params.id ?? params.taskId) as string;
    if (['message/send', 'SendMessage', 'tasks/send'].includes(method)) {
      const m = (params.message ?? {}) as Json;
      const existing = typeof m.taskId === 'string' ? this.tasks.get(m.taskId) : undefined;
      if (existing) {
        existing.history.push(this.message('user', this.textOf(params), typeof m.messageId === 'string' ? m.messageId : undefined));
        existing.states = ['working', 'completed'];
        existing.timestamp = now();
        return { result: this.wrap(this.render(existing)) };
      }
      return { result: this.wrap(this.render(this.create(params, rpc))) };
    }
    if (['tasks/get', 'GetTask'].includes(method)) {
      const t = this.tasks.get(taskId);
      if (!t) return this.notFound();
      const body = this.render(t, params.historyLength as number | undefined);
      this.step(t);
      return { result: body };
    }
    if (['tasks/cancel', 'CancelTask'].includes(method)) {
      const t = this.tasks.get(taskId);
      if (!t) return this.notFound();
      if (['completed', 'failed', 'canceled', 'rejected'].includes(t.states[0]!)) return { error: { code: -32002, message: 'Task cannot be canceled' } };
      t.states = ['canceled'];
      t.timestamp = now();
      return { result: this.render(t) };
    }
    if (method === 'ListTasks') {
      const all = [...this.tasks.values()].filter((t) => !params.contextId || t.contextId === params.contextId).reverse();
      return { result: { tasks: all.map((t) => this.render(t)), nextPageToken: '', pageSize: params.pageSize ?? 50, totalSize: all.length } };
    }
    return { error: { code: -32601, message: `Method not found: ${method}` } };
  }
}

/** A JSON-RPC agent on the fake host; returns the agent (its tasks and recorded calls) and the run's results. */
async function runScripted(g: G, only: string[], opts: AgentOpts = {}, extra: { timeoutMs?: number; skills?: string[] } = {}) {
  const agent = new ScriptedAgent(g, opts);
  const card = opts.card ? opts.card(sampleCard(g)) : sampleCard(g);
  const cardPath = g === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json';
  const { host, requests } = fakeHost(async (req) => {
    const path = new URL(req.url).pathname;
    if (path === cardPath) return json(card);
    if (req.method !== 'POST') return new Response('not found', { status: 404 });
    const body = JSON.parse(await req.text()) as { id: unknown; method: string; params: Json };
    const rpc: Rpc = { method: body.method, params: body.params ?? {}, id: body.id };
    agent.rpcs.push(rpc);
    const reply = await agent.handle(rpc, req);
    if (reply instanceof Response) return reply;
    if (reply === undefined) throw new Error(`unhandled ${body.method}`);
    return json({ jsonrpc: '2.0', id: body.id, ...reply });
  });
  const report = await runConformance(
    host,
    { agentUrl: 'http://agent.test', only, timeoutMs: extra.timeoutMs ?? 5000, ...(extra.skills && { skills: extra.skills }) },
    () => {},
  );
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { agent, byId, requests, report };
}

/** A reply that waits until the client gives up (our request timeout), like an agent still working. */
const hang = (req: Request): Promise<Response> =>
  new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));

const skillCard =
  (skill: Json) =>
  (c: Json): Json => ({ ...c, skills: [{ id: 's1', name: 'S1', description: 'a skill', tags: ['t'], ...skill }] });

// ------------------------------------------------------------------ test agent runs

const agents: RunningDefectAgent[] = [];
afterAll(() => Promise.all(agents.map((a) => a.close())));

async function runAgent(
  target: { generation: 'legacy' | 'v0.2' | 'v0.3' | 'v1.0'; binding?: 'JSONRPC' | 'HTTP+JSON' },
  only: string[],
  o: { defects?: DefectName[]; permitted?: PermittedName[]; push?: boolean; timeoutMs?: number } = {},
) {
  const agent = await startDefectAgent({ ...target, defects: o.defects, permitted: o.permitted, slowTaskMs: 300, stepMs: 10, features: { push: !!o.push } });
  agents.push(agent);
  const report = await runConformance(
    createNodeHost(),
    { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), timeoutMs: o.timeoutMs ?? 5000, only },
    () => {},
  );
  await agent.close();
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { byId, requests: agent.requests };
}

const isSend = (r: Rpc) => ['message/send', 'SendMessage', 'tasks/send'].includes(r.method);
const isGet = (r: Rpc) => ['tasks/get', 'GetTask'].includes(r.method);
const msgOf = (r: Rpc) => (r.params.message ?? {}) as { parts?: Json[]; taskId?: string; contextId?: string; messageId?: string };

describe('lifecycle.send', () => {
  it('a refusal of input in a media type the skill declares is an advisory naming the mode (X1.2)', async () => {
    const { byId, agent } = await runScripted('v1.0', ['lifecycle.send'], {
      card: skillCard({ inputModes: ['image/png'], outputModes: ['text/plain'], examples: ['Make a thumbnail'] }),
      on: (rpc) => (isSend(rpc) ? { error: { code: -32005, message: 'Content type not supported' } } : undefined),
    });
    expect(msgOf(agent.rpcs[0]!).parts?.[0]).toMatchObject({ mediaType: 'image/png' });
    const r = byId['lifecycle.send']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/refused our image\/png input .* declares image\/png/);
    expect(r.advisoryReason).toMatch(/no skill selection/);
  });

  it('v1.0: a validation error (-32602) naming the content type is a correct refusal of input the skill does not declare', async () => {
    const { byId } = await runScripted('v1.0', ['lifecycle.send'], {
      card: skillCard({ inputModes: ['video/mp4'], examples: ['Transcode this'] }),
      on: (rpc) => (isSend(rpc) ? { error: { code: -32602, message: 'Unsupported content type text/plain: this skill takes video/mp4' } } : undefined),
    });
    expect(byId['lifecycle.send']!.status).toBe('skip');
    expect(byId['lifecycle.send']!.message).toMatch(/correctly refused/);
  });

  it("skill runs ask to return at once and accept the skill's own output modes with the card's", async () => {
    const { agent, byId } = await runScripted('v1.0', ['lifecycle.send'], { card: skillCard({ outputModes: ['image/png'], examples: ['Draw a cat'] }) });
    expect(byId['lifecycle.send']!.status).toBe('pass');
    const cfg = agent.rpcs.find(isSend)!.params.configuration as Json;
    expect(cfg.returnImmediately).toBe(true);
    expect(cfg.acceptedOutputModes).toEqual(['image/png', 'text/plain']);
  });

  it('HTTP 429 is retried once after Retry-After; one that persists is a tool limit, not a failure (X4)', async () => {
    const limited = () => new Response('{"error":"slow down"}', { status: 429, headers: { 'content-type': 'application/json', 'retry-after': '0' } });
    const { byId, agent } = await runScripted('v0.3', ['lifecycle.send'], { on: (rpc) => (isSend(rpc) ? limited() : undefined) });
    expect(agent.rpcs.filter(isSend)).toHaveLength(2);
    expect(byId['lifecycle.send']!.status).toBe('skip');
    expect(byId['lifecycle.send']!.skipKind).toBe('tool-limit');
    expect(byId['lifecycle.send']!.message).toMatch(/429 Too Many Requests \(Retry-After: 0\).*not judged/);

    let first = true;
    const once = await runScripted('v0.3', ['lifecycle.send'], {
      on: (rpc) => {
        if (!isSend(rpc) || !first) return undefined;
        first = false;
        return limited();
      },
    });
    expect(once.byId['lifecycle.send']!.status).toBe('pass');
  });

  it('a send still unanswered when our budget ends is a tool limit (X2)', async () => {
    const { byId } = await runScripted(
      'v1.0',
      ['lifecycle.send', 'lifecycle.terminal'],
      { on: (rpc, _a, req) => (isSend(rpc) ? hang(req) : undefined) },
      { timeoutMs: 1200 },
    );
    expect(byId['lifecycle.send']!.status).toBe('skip');
    expect(byId['lifecycle.send']!.skipKind).toBe('tool-limit');
    expect(byId['lifecycle.send']!.message).toMatch(/no answer within our 1200 ms budget.*--timeout/);
    expect(byId['lifecycle.terminal']!.skipKind).toBe('tool-limit');
  });

  it('an initial state "unknown" (in the v0.3 enum) is an advisory; an unknown word still fails', async () => {
    const unknown = await runScripted('v0.3', ['lifecycle.send'], { plan: () => ['unknown', 'completed'] });
    expect(unknown.byId['lifecycle.send']!.status).toBe('advisory');
    expect(unknown.byId['lifecycle.send']!.message).toMatch(/initial state unknown/);
    const pending = await runScripted('v0.3', ['lifecycle.send'], { plan: () => ['pending', 'completed'] });
    expect(pending.byId['lifecycle.send']!.status).toBe('fail');
  });
});

describe('lifecycle.get and lifecycle.terminal', () => {
  it('TaskNotFound for a task that had finished is an advisory (purged); for a running task it fails after one retry', async () => {
    const purged = await runScripted('v1.0', ['lifecycle.get'], { plan: () => ['completed'], on: (rpc, a) => (isGet(rpc) ? a.notFound() : undefined) });
    expect(purged.byId['lifecycle.get']!.status).toBe('advisory');
    expect(purged.byId['lifecycle.get']!.message).toMatch(/already finished \(TASK_STATE_COMPLETED\)/);

    const lost = await runScripted('v1.0', ['lifecycle.get'], {
      plan: () => ['submitted', 'completed'],
      on: (rpc, a) => (isGet(rpc) ? a.notFound() : undefined),
    });
    expect(lost.byId['lifecycle.get']!.status).toBe('fail');
    expect(lost.byId['lifecycle.get']!.message).toMatch(/TaskNotFound for task .*TASK_STATE_SUBMITTED \(asked again after 300 ms\)/);
    expect(lost.agent.rpcs.filter(isGet)).toHaveLength(2);

    let misses = 1;
    const late = await runScripted('v1.0', ['lifecycle.get'], {
      plan: () => ['submitted', 'completed'],
      on: (rpc, a) => (isGet(rpc) && misses-- > 0 ? a.notFound() : undefined),
    });
    expect(late.byId['lifecycle.get']!.status).toBe('pass');
  });

  it('every get is judged: a later get that breaks fails lifecycle.get, and lifecycle.terminal defers to it', async () => {
    let gets = 0;
    const { byId } = await runScripted('v0.3', ['lifecycle.get', 'lifecycle.terminal'], {
      plan: () => ['submitted', 'working', 'working', 'working', 'completed'],
      on: (rpc) => (isGet(rpc) && ++gets === 2 ? { error: { code: -32603, message: 'Internal error' } } : undefined),
    });
    expect(byId['lifecycle.get']!.status).toBe('fail');
    expect(byId['lifecycle.get']!.message).toMatch(/-32603 Internal error/);
    expect(byId['lifecycle.terminal']!.status).toBe('skip');
    expect(byId['lifecycle.terminal']!.message).toMatch(/judged by lifecycle.get/);
  });
});

describe('lifecycle.transitions, task-id-stable and cancel (read back)', () => {
  it('a return to submitted is legal; a canceled task that later completes breaks "a terminal state is final" at MUST (the procedure), in both checks that see it', async () => {
    const back = await runScripted('v0.3', ['lifecycle.transitions'], { plan: () => ['submitted', 'working', 'submitted', 'completed'] });
    expect(back.byId['lifecycle.transitions']!.status).toBe('pass');

    const flip = await runScripted('v1.0', ['lifecycle.transitions', 'lifecycle.cancel', 'lifecycle.cancel.effective'], {
      plan: () => ['submitted', 'working', 'working', 'working', 'completed'],
      on: (rpc, a) => {
        if (rpc.method !== 'CancelTask') return undefined;
        const t = a.tasks.get(rpc.params.id as string)!;
        t.states = ['canceled', 'completed'];
        return { result: a.render(t) };
      },
    });
    expect(flip.byId['lifecycle.cancel']!.status).toBe('pass');
    for (const id of ['lifecycle.cancel.effective', 'lifecycle.transitions']) {
      expect(flip.byId[id], id).toMatchObject({ status: 'fail', level: 'MUST', tier: 'core' });
      expect(
        flip.byId[id]!.requirement?.sentences.some((s) => s.doc === 'Conformance procedure'),
        id,
      ).toBe(true);
    }
    expect(flip.byId['lifecycle.cancel.effective']!.message).toMatch(
      /canceled, then TASK_STATE_COMPLETED|did not stay so: TASK_STATE_CANCELED → TASK_STATE_COMPLETED/,
    );
    expect(flip.byId['lifecycle.transitions']!.message).toMatch(/TASK_STATE_CANCELED → TASK_STATE_COMPLETED/);
  });

  it('v1.0: a contextId that changes between answers is an advisory; a changed task id still fails', async () => {
    const ctxChange = await runScripted('v1.0', ['lifecycle.task-id-stable'], {
      plan: () => ['submitted', 'completed'],
      on: (rpc, a) => {
        if (!isGet(rpc)) return undefined;
        const t = a.tasks.get(rpc.params.id as string)!;
        return { result: { ...a.render(t), contextId: 'another-context' } };
      },
    });
    expect(ctxChange.byId['lifecycle.task-id-stable']!.status).toBe('advisory');
    const idChange = await runAgent({ generation: 'v1.0' }, ['lifecycle.task-id-stable'], { defects: ['task-id-changes'] });
    expect(idChange.byId['lifecycle.task-id-stable']!.status).toBe('fail');
  });

  it('cancel answered with the task still working (and later completed): cancel passes, cancel.effective is an advisory', async () => {
    const { byId } = await runAgent({ generation: 'v1.0' }, ['lifecycle.cancel', 'lifecycle.cancel.effective'], { defects: ['cancel-ignored'] });
    expect(byId['lifecycle.cancel']!.status).toBe('pass');
    expect(byId['lifecycle.cancel.effective']!.status).toBe('advisory');
    expect(byId['lifecycle.cancel.effective']!.message).toMatch(/ended TASK_STATE_COMPLETED, not canceled/);
  });

  it('a cancel answer whose id is null (not the request id) fails lifecycle.cancel (JSON-RPC 2.0 §5)', async () => {
    for (const g of ['v0.3', 'v1.0'] as const) {
      const { byId } = await runScripted(g, ['lifecycle.cancel'], {
        plan: () => ['submitted', 'working', 'working', 'working', 'working', 'completed'],
        on: (rpc, a) => {
          if (rpc.method !== 'tasks/cancel' && rpc.method !== 'CancelTask') return undefined;
          const t = a.tasks.get(String(rpc.params.id))!;
          t.states = ['canceled'];
          return json({ jsonrpc: '2.0', id: null, result: a.render(t) });
        },
      });
      const r = byId['lifecycle.cancel']!;
      expect([r.status, r.level], g).toEqual(['fail', 'MUST']);
      expect(r.message).toMatch(/, but the answer's JSON-RPC envelope is malformed: "id" should echo the request id "[^"]+", got null\.$/);
    }
  });

  it('UnsupportedOperation (-32004) to cancel is an advisory; an internal error still fails', async () => {
    const unsupported = await runScripted('v1.0', ['lifecycle.cancel'], {
      on: (rpc) => (rpc.method === 'CancelTask' ? { error: { code: -32004, message: 'Cancel is not supported' } } : undefined),
    });
    expect(unsupported.byId['lifecycle.cancel']!.status).toBe('advisory');
    const crash = await runScripted('v1.0', ['lifecycle.cancel'], {
      plan: () => ['submitted', 'working', 'working', 'working', 'working', 'completed'],
      on: (rpc) => (rpc.method === 'CancelTask' ? { error: { code: -32603, message: 'boom' } } : undefined),
    });
    expect(crash.byId['lifecycle.cancel']!.status).toBe('fail');
  });
});

describe('lifecycle.shape', () => {
  it('v1.0: a Task without contextId passes; "kind" is an advisory; a "+00:00" timestamp still fails', async () => {
    const noCtx = await runScripted('v1.0', ['lifecycle.shape'], { render: (t) => ({ ...t, contextId: undefined }) });
    expect(noCtx.byId['lifecycle.shape']!.status).toBe('pass');
    const kind = await runScripted('v1.0', ['lifecycle.shape'], { render: (t) => ({ ...t, kind: 'task' }) });
    expect(kind.byId['lifecycle.shape']!.status).toBe('advisory');
    expect(kind.byId['lifecycle.shape']!.message).toMatch(/task has "kind", removed in v1\.0/);
    const offset = await runScripted('v1.0', ['lifecycle.shape'], {
      render: (t) => ({ ...t, status: { ...(t.status as Json), timestamp: '2025-04-02T16:59:25+00:00' } }),
    });
    expect(offset.byId['lifecycle.shape']!.status).toBe('fail');
    expect(offset.byId['lifecycle.shape']!.message).toMatch(/not an ISO 8601 UTC timestamp ending in Z/);
  });

  it("v0.3: the release's own zone-less timestamp passes; a byte order mark is an advisory (fails in v1.0)", async () => {
    const zoneless = await runScripted('v0.3', ['lifecycle.shape'], {
      render: (t) => ({ ...t, status: { ...(t.status as Json), timestamp: '2025-04-02T16:59:25.331844' } }),
    });
    expect(zoneless.byId['lifecycle.shape']!.status).toBe('pass');
    const bom = (g: G) =>
      runScripted(g, ['lifecycle.shape'], {
        on: (rpc, a) => {
          if (!isSend(rpc)) return undefined;
          const t = a.create(rpc.params, rpc);
          return new Response(`\uFEFF${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: a.wrap(a.render(t)) })}`, {
            headers: { 'content-type': 'application/json' },
          });
        },
      });
    expect((await bom('v0.3')).byId['lifecycle.shape']!.status).toBe('advisory');
    expect((await bom('v1.0')).byId['lifecycle.shape']!.status).toBe('fail');
  });
});

describe('lifecycle.multi-turn (observed in the stored task)', () => {
  const booking = skillCard({ examples: ['Book a table for two'] });
  const paused = () => ['input-required'];
  const answerWith = (reply: (a: ScriptedAgent, t: Task, rpc: Rpc) => Reply) => (rpc: Rpc, a: ScriptedAgent) => {
    const id = msgOf(rpc).taskId;
    if (!isSend(rpc) || !id) return undefined;
    return reply(a, a.tasks.get(id)!, rpc);
  };

  it('a Message in reply to the answer passes when the task read back has resumed', async () => {
    const { byId, agent } = await runScripted('v1.0', ['lifecycle.multi-turn'], {
      card: booking,
      plan: paused,
      on: answerWith((a, t) => {
        t.states = ['working', 'completed'];
        return { result: { message: a.message('agent', 'Noted, booking now.') } };
      }),
    });
    expect(byId['lifecycle.multi-turn']!.status).toBe('pass');
    expect(byId['lifecycle.multi-turn']!.message).toMatch(/resumed \(TASK_STATE_WORKING\)|ended TASK_STATE_COMPLETED/);
    expect((agent.rpcs.find((r) => isSend(r) && msgOf(r).taskId)!.params.configuration as Json).returnImmediately).toBe(true);
  });

  it('ending failed after the answer, or asking again with a new status, shows the answer was processed', async () => {
    const failed = await runScripted('v0.3', ['lifecycle.multi-turn'], {
      card: booking,
      plan: paused,
      on: answerWith((a, t) => {
        t.states = ['failed'];
        return { result: a.render(t) };
      }),
    });
    expect(failed.byId['lifecycle.multi-turn']!.status).toBe('pass');
    expect(failed.byId['lifecycle.multi-turn']!.message).toMatch(/ended failed/);
    const again = await runAgent({ generation: 'v1.0' }, ['lifecycle.multi-turn'], { permitted: ['asks-again'] });
    expect(again.byId['lifecycle.multi-turn']!.status).toBe('pass');
    expect(again.byId['lifecycle.multi-turn']!.message).toMatch(/history|status changed|new status message/);
  });

  it('an answer that leaves the task exactly as it was is reported (an advisory: resuming is a MAY)', async () => {
    const { byId } = await runScripted(
      'v1.0',
      ['lifecycle.multi-turn'],
      { card: booking, plan: paused, on: answerWith((a, t) => ({ result: a.wrap(a.render(t)) })) },
      { timeoutMs: 2000 },
    );
    expect(byId['lifecycle.multi-turn']!.status).toBe('advisory');
    expect(byId['lifecycle.multi-turn']!.message).toMatch(/nothing changed/);
  });
});

describe('lifecycle.history and lifecycle.history-length', () => {
  const noHistory = (t: Json) => {
    const { history: _h, ...rest } = t;
    return rest;
  };

  it('no history at all is an advisory in v1.0 and v0.3, a SHOULD failure in legacy', async () => {
    const v1 = await runScripted('v1.0', ['lifecycle.history'], { render: noHistory });
    expect(v1.byId['lifecycle.history']!.status).toBe('advisory');
    expect(v1.byId['lifecycle.history']!.message).not.toMatch(/stateTransitionHistory/);
    const legacy = await runScripted('legacy', ['lifecycle.history'], { render: noHistory });
    expect(legacy.byId['lifecycle.history']!.status).toBe('fail');
  });

  it('v1.0: more than historyLength messages fails (MUST NOT); "history": [] for 0 is an advisory (ProtoJSON: unset); an omitted one passes', async () => {
    const ignoring = await runScripted('v1.0', ['lifecycle.history-length'], {
      on: (rpc, a) => (isGet(rpc) && rpc.params.historyLength !== undefined ? { result: a.render(a.tasks.get(rpc.params.id as string)!) } : undefined),
    });
    expect(ignoring.byId['lifecycle.history-length']!.status).toBe('fail');
    expect(ignoring.byId['lifecycle.history-length']!.message).toMatch(/historyLength=1 returned 2 history messages.*historyLength=0 returned 2/);
    const empty = await runScripted('v1.0', ['lifecycle.history-length'], {
      on: (rpc, a) =>
        isGet(rpc) && rpc.params.historyLength === 0 ? { result: { ...a.render(a.tasks.get(rpc.params.id as string)!, 0), history: [] } } : undefined,
    });
    expect(empty.byId['lifecycle.history-length']!.status).toBe('advisory');
    expect(empty.byId['lifecycle.history-length']!.level).toBe('MUST');
    expect(empty.byId['lifecycle.history-length']!.message).toMatch(/"history": \[\] .*SHOULD be omitted/);
    expect(empty.byId['lifecycle.history-length']!.advisoryReason).toMatch(/ProtoJSON/);
    const ok = await runScripted('v1.0', ['lifecycle.history-length'], {});
    expect(ok.byId['lifecycle.history-length']!.status).toBe('pass');
  });

  it('v0.3: more than historyLength is an advisory, and historyLength 0 is never sent (the v0.3 proto reads it as unlimited)', async () => {
    const { byId, agent } = await runScripted('v0.3', ['lifecycle.history', 'lifecycle.history-length'], {
      on: (rpc, a) => (isGet(rpc) && rpc.params.historyLength !== undefined ? { result: a.render(a.tasks.get(rpc.params.id as string)!) } : undefined),
    });
    expect(byId['lifecycle.history-length']!.status).toBe('advisory');
    expect(agent.rpcs.filter((r) => isGet(r) && r.params.historyLength === 0)).toEqual([]);
    expect(byId['lifecycle.history']!.status).toBe('pass');
  });

  it('a history too short to show the bound is not judged', async () => {
    const { byId } = await runScripted('v1.0', ['lifecycle.history-length'], {
      render: (t) => ({ ...t, history: (t.history as Json[] | undefined)?.slice(0, 1) }),
    });
    expect(byId['lifecycle.history-length']!.status).toBe('skip');
    expect(byId['lifecycle.history-length']!.message).toMatch(/history too short/);
  });
});

describe('lifecycle.context', () => {
  it("sends the skill's own input (an image to an image-only skill) in the existing context, and reads the task back", async () => {
    const { byId, agent } = await runScripted('v1.0', ['lifecycle.context'], {
      card: skillCard({ inputModes: ['image/png'], examples: ['Make a thumbnail'] }),
      on: (rpc) =>
        isSend(rpc) && !msgOf(rpc).parts?.some((p) => p.mediaType === 'image/png')
          ? { error: { code: -32005, message: 'Content type not supported' } }
          : undefined,
    });
    const inContext = agent.rpcs.filter((r) => isSend(r) && msgOf(r).contextId);
    expect(inContext).toHaveLength(1);
    expect(msgOf(inContext[0]!).parts?.[0]).toMatchObject({ mediaType: 'image/png' });
    expect(byId['lifecycle.context']!.status).toBe('pass');
    expect(byId['lifecycle.context']!.message).toMatch(/read back/);
  });

  it('v1.0: refusing the contextId with an error passes (§3.4.1); in v0.3 it is an advisory; another context fails', async () => {
    const rejected = await runAgent({ generation: 'v1.0' }, ['lifecycle.context'], { permitted: ['context-rejected'] });
    expect(rejected.byId['lifecycle.context']!.status).toBe('pass');
    expect(rejected.byId['lifecycle.context']!.message).toMatch(/permits/);
    const refuse = (rpc: Rpc): Reply => (isSend(rpc) && msgOf(rpc).contextId ? { error: { code: -32602, message: 'unknown contextId' } } : undefined);
    const v03 = await runScripted('v0.3', ['lifecycle.context'], { on: refuse });
    expect(v03.byId['lifecycle.context']!.status).toBe('advisory');
    const moved = await runScripted('v1.0', ['lifecycle.context'], {
      on: (rpc, a) => {
        if (!isSend(rpc) || !msgOf(rpc).contextId) return undefined;
        const t = a.create({ message: { ...msgOf(rpc), contextId: 'fresh-context' } }, rpc);
        return { result: a.wrap(a.render(t)) };
      },
    });
    expect(moved.byId['lifecycle.context']!.status).toBe('fail');
    expect(moved.byId['lifecycle.context']!.message).toMatch(/MUST NOT generate a new contextId/);
    // A content-type refusal is not a refusal of the context: it is judged as one (an advisory for a declared type).
    const typeRefused = await runScripted('v1.0', ['lifecycle.context'], {
      on: (rpc) => (isSend(rpc) && msgOf(rpc).contextId ? { error: { code: -32005, message: 'Content type not supported' } } : undefined),
    });
    expect(typeRefused.byId['lifecycle.context']!.status).toBe('advisory');
    expect(typeRefused.byId['lifecycle.context']!.message).toMatch(/unsupported content type/);
  });
});

describe('lifecycle.list', () => {
  it('method not found is an advisory; a page without nextPageToken or with artifacts fails; the call filters by context', async () => {
    const missing = await runScripted('v1.0', ['lifecycle.list'], {
      on: (rpc) => (rpc.method === 'ListTasks' ? { error: { code: -32601, message: 'Method not found' } } : undefined),
    });
    expect(missing.byId['lifecycle.list']!.status).toBe('advisory');
    const bad = await runScripted('v1.0', ['lifecycle.list'], {
      on: (rpc, a) =>
        rpc.method === 'ListTasks' ? { result: { tasks: [...a.tasks.values()].map((t) => a.render(t)), pageSize: 10, totalSize: a.tasks.size } } : undefined,
    });
    const r = bad.byId['lifecycle.list']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/"nextPageToken" is missing/);
    expect(r.message).toMatch(/carry "artifacts" although includeArtifacts was not set/);
    const first = bad.agent.rpcs.find((x) => x.method === 'ListTasks')!;
    expect(first.params).toMatchObject({ pageSize: 10 });
    expect(typeof first.params.contextId).toBe('string');
  });

  it('a ListTasks answer whose id is null (not the request id) fails (JSON-RPC 2.0 §5)', async () => {
    const { byId } = await runScripted('v1.0', ['lifecycle.list'], {
      on: (rpc) =>
        rpc.method === 'ListTasks' ? json({ jsonrpc: '2.0', id: null, result: { tasks: [], nextPageToken: '', pageSize: 10, totalSize: 0 } }) : undefined,
    });
    expect(byId['lifecycle.list']!.status).toBe('fail');
    expect(byId['lifecycle.list']!.message).toMatch(/^contextId [^:]+: "id" should echo the request id "[^"]+", got null/);
  });

  it('tasks listed oldest first fail (§3.1.4 MUST: newest first by status timestamp); newest first and equal timestamps pass', () => {
    const t = (id: string, timestamp: string) => ({ id, contextId: 'c', status: { state: 'TASK_STATE_COMPLETED', timestamp } });
    const page = (...tasks: unknown[]) => ({ tasks, nextPageToken: '', pageSize: 10, totalSize: tasks.length });
    const oldest = judgeListPage(page(t('a', '2026-01-01T00:00:01.000Z'), t('b', '2026-01-01T00:00:02.000Z')), 'c');
    expect(oldest.hard).toEqual(['the tasks are not sorted by status timestamp, newest first (§3.1.4 MUST)']);
    expect(judgeListPage(page(t('b', '2026-01-01T00:00:02.000Z'), t('a', '2026-01-01T00:00:01.000Z')), 'c').hard).toEqual([]);
    expect(judgeListPage(page(t('b', '2026-01-01T00:00:02.000Z'), t('a', '2026-01-01T00:00:02.000Z')), 'c').hard).toEqual([]);
  });

  it('the test agent lists its tasks oldest first with list-oldest-first: lifecycle.list fails', async () => {
    const { byId } = await runAgent({ generation: 'v1.0' }, ['lifecycle.list'], { defects: ['list-oldest-first'] });
    expect(byId['lifecycle.list']!.status).toBe('fail');
    expect(byId['lifecycle.list']!.message).toMatch(/not sorted by status timestamp, newest first/);
  });

  it('the test agent lists its tasks correctly on both v1.0 bindings', async () => {
    for (const binding of ['JSONRPC', 'HTTP+JSON'] as const) {
      const { byId } = await runAgent({ generation: 'v1.0', binding }, ['lifecycle.list']);
      expect(byId['lifecycle.list']!.status, binding).toBe('pass');
    }
  });
});

describe('lifecycle.push-config', () => {
  const pushCard = (c: Json): Json => ({ ...c, capabilities: { ...(c.capabilities as Json), pushNotifications: true } });
  const configs = new Map<string, Json>();
  /** A push config store on the scripted agent; `stale` keeps configs after delete (a defect). */
  const pushStore =
    (g: G, stale = false) =>
    (rpc: Rpc, a: ScriptedAgent): Reply => {
      const p = rpc.params;
      const taskId = String(p.taskId ?? p.id);
      const v1 = g === 'v1.0';
      const render = (c: Json) => (v1 ? { ...c, taskId } : { taskId, pushNotificationConfig: c });
      switch (rpc.method) {
        case 'CreateTaskPushNotificationConfig':
        case 'tasks/pushNotificationConfig/set': {
          const c = { id: `cfg-${configs.size + 1}`, ...((v1 ? { url: p.url, token: p.token } : p.pushNotificationConfig) as Json) };
          configs.set(`${taskId}/${String(c.id)}`, c);
          return { result: render(c) };
        }
        case 'GetTaskPushNotificationConfig':
        case 'tasks/pushNotificationConfig/get': {
          const c = configs.get(`${taskId}/${String(v1 ? p.id : p.pushNotificationConfigId)}`);
          return c ? { result: render(c) } : { error: { code: -32001, message: 'no such config' } };
        }
        case 'ListTaskPushNotificationConfigs':
        case 'tasks/pushNotificationConfig/list': {
          const all = [...configs.entries()].filter(([k]) => k.startsWith(`${taskId}/`)).map(([, c]) => render(c));
          return { result: v1 ? { configs: all } : all };
        }
        case 'DeleteTaskPushNotificationConfig':
        case 'tasks/pushNotificationConfig/delete':
          if (!stale) configs.delete(`${taskId}/${String(v1 ? p.id : p.pushNotificationConfigId)}`);
          return { result: v1 ? {} : null };
      }
      void a;
      return undefined;
    };
  const running = () => ['submitted', 'working', 'working', 'working', 'working', 'working', 'completed'];

  it('set, get, list and delete with the test agent (every generation and binding), with the run inbox URL and a token', async () => {
    for (const target of [
      { generation: 'v1.0' },
      { generation: 'v1.0', binding: 'HTTP+JSON' },
      { generation: 'v0.3', binding: 'HTTP+JSON' },
      { generation: 'v0.3' },
      { generation: 'v0.2' },
      { generation: 'legacy' },
    ] as const) {
      const { byId, requests } = await runAgent(target, ['lifecycle.push-config'], { push: true });
      const label = `${target.generation} ${'binding' in target ? target.binding : 'JSONRPC'}`;
      expect(byId['lifecycle.push-config']!.status, `${label}: ${byId['lifecycle.push-config']!.message}`).toBe('pass');
      const set = requests.find(
        (r) =>
          /pushNotification(Config)?(\/set|s"?$)|CreateTaskPushNotificationConfig/.test(r.body) ||
          (r.method === 'POST' && /pushNotificationConfigs$/.test(r.path)),
      )!;
      // The Node host's webhook inbox (without one: the fixed PUSH_WEBHOOK_URL, see lifecycle/push-delivery.test.ts).
      expect(set.body, label).toMatch(/http:\/\/127\.0\.0\.1:\d+\/inbox\/[0-9a-f]{32}/);
      expect(set.body, label).toMatch(/"token":"a2a-interop-/);
      if (target.generation !== 'legacy')
        expect(
          requests.some((r) => r.method === 'DELETE' || /delete|Delete/.test(r.body)),
          label,
        ).toBe(true);
    }
  });

  it('a config still readable after delete fails in v1.0 (§3.1.8 MUST fail) and is an advisory in v0.3', async () => {
    configs.clear();
    const v1 = await runScripted('v1.0', ['lifecycle.push-config'], { card: pushCard, plan: running, on: pushStore('v1.0', true) });
    expect(v1.byId['lifecycle.push-config']!.status).toBe('fail');
    expect(v1.byId['lifecycle.push-config']!.message).toMatch(/get after delete still returns the config/);
    configs.clear();
    const v03 = await runScripted('v0.3', ['lifecycle.push-config'], { card: pushCard, plan: running, on: pushStore('v0.3', true) });
    expect(v03.byId['lifecycle.push-config']!.status).toBe('advisory');
    configs.clear();
    const clean = await runScripted('v1.0', ['lifecycle.push-config'], { card: pushCard, plan: running, on: pushStore('v1.0') });
    expect(clean.byId['lifecycle.push-config']!.status).toBe('pass');
  });

  it('a push config answer whose id is null (not the request id) fails in every generation (JSON-RPC 2.0 §5)', async () => {
    for (const g of ['v0.3', 'v1.0'] as const) {
      configs.clear();
      const store = pushStore(g);
      const { byId } = await runScripted(g, ['lifecycle.push-config'], {
        card: pushCard,
        plan: running,
        on: (rpc, a) => {
          const reply = store(rpc, a);
          const isSet = rpc.method === 'CreateTaskPushNotificationConfig' || rpc.method === 'tasks/pushNotificationConfig/set';
          return isSet && reply && 'result' in reply ? json({ jsonrpc: '2.0', id: null, result: reply.result }) : reply;
        },
      });
      const r = byId['lifecycle.push-config']!;
      expect([r.status, r.level], g).toEqual(['fail', 'MUST']);
      expect(r.message).toMatch(/^set answer: "id" should echo the request id "[^"]+", got null/);
    }
  });

  it('our webhook URL refused as invalid is a tool limit; a v0.3 agent that does not implement push config is an advisory', async () => {
    const ssrf = await runScripted('v1.0', ['lifecycle.push-config'], {
      card: pushCard,
      plan: running,
      on: (rpc) => (rpc.method === 'CreateTaskPushNotificationConfig' ? { error: { code: -32602, message: 'webhook host not in allowlist' } } : undefined),
    });
    expect(ssrf.byId['lifecycle.push-config']!.status).toBe('skip');
    expect(ssrf.byId['lifecycle.push-config']!.skipKind).toBe('tool-limit');
    const none = await runScripted('v0.3', ['lifecycle.push-config'], { card: pushCard, plan: running });
    expect(none.byId['lifecycle.push-config']!.status).toBe('advisory');
    expect(none.byId['lifecycle.push-config']!.advisoryReason).toMatch(/MAY implement/);
  });
});

describe('lifecycle.blocking', () => {
  const slow = skillCard({ examples: ['Prepare the slow report'] });
  const answerBlocking =
    (state: string, artifacts = 0) =>
    (rpc: Rpc, a: ScriptedAgent): Reply => {
      const cfg = (rpc.params.configuration ?? {}) as Json;
      if (!isSend(rpc) || cfg.returnImmediately === true || cfg.blocking === false) return undefined;
      const t = a.create(rpc.params, rpc);
      t.states = [state];
      a.settle(t);
      const body = a.render(t);
      return { result: a.wrap(artifacts ? body : { ...body, artifacts: undefined }) };
    };

  it('v1.0: a blocking send answered WORKING is an advisory (§3.2.2 MUST wait vs §3.1.1 MUST return immediately); v0.3 blocking:true answered working is an advisory', async () => {
    const v1 = await runScripted('v1.0', ['lifecycle.blocking'], {
      card: slow,
      plan: () => ['submitted', 'working', 'completed'],
      on: answerBlocking('working'),
    });
    expect(v1.byId['lifecycle.blocking']!.status).toBe('advisory');
    expect(v1.byId['lifecycle.blocking']!.level).toBe('MUST');
    expect(v1.byId['lifecycle.blocking']!.message).toMatch(/still TASK_STATE_WORKING.*MUST wait/);
    expect(v1.byId['lifecycle.blocking']!.advisoryReason).toMatch(/§3.2.2.*§3.1.1 says SendMessage "MUST return immediately/);
    const blockingSend = v1.agent.rpcs.filter(isSend).find((r) => (r.params.configuration as Json).returnImmediately === undefined);
    expect(blockingSend).toBeDefined();
    const v03 = await runScripted('v0.3', ['lifecycle.blocking'], {
      card: slow,
      plan: () => ['submitted', 'working', 'completed'],
      on: answerBlocking('working'),
    });
    expect(v03.byId['lifecycle.blocking']!.status).toBe('advisory');
    expect(v03.agent.rpcs.some((r) => isSend(r) && (r.params.configuration as Json).blocking === true)).toBe(true);
  });

  it('v1.0: a blocking answer without the artifacts the finished task has fails; a complete one passes', async () => {
    const partial = await runScripted('v1.0', ['lifecycle.blocking'], { card: slow, on: answerBlocking('completed', 0) });
    expect(partial.byId['lifecycle.blocking']!.status).toBe('fail');
    expect(partial.byId['lifecycle.blocking']!.message).toMatch(/carried 0 artifact\(s\), the finished task has 1/);
    const full = await runScripted('v1.0', ['lifecycle.blocking'], { card: slow, on: answerBlocking('completed', 1) });
    expect(full.byId['lifecycle.blocking']!.status).toBe('pass');
  });

  it('a blocking send still running when our budget ends is a tool limit, never a failure', async () => {
    const { byId } = await runScripted(
      'v1.0',
      ['lifecycle.blocking'],
      { card: slow, on: (rpc, _a, req) => (isSend(rpc) && (rpc.params.configuration as Json).returnImmediately !== true ? hang(req) : undefined) },
      { timeoutMs: 1200 },
    );
    expect(byId['lifecycle.blocking']!.status).toBe('skip');
    expect(byId['lifecycle.blocking']!.skipKind).toBe('tool-limit');
  });
});

describe('the test agent with permitted behaviours passes every lifecycle check', () => {
  const LIFECYCLE = [
    'lifecycle.send',
    'lifecycle.get',
    'lifecycle.terminal',
    'lifecycle.transitions',
    'lifecycle.task-id-stable',
    'lifecycle.shape',
    'lifecycle.cancel',
    'lifecycle.cancel.effective',
    'lifecycle.multi-turn',
    'lifecycle.history',
    'lifecycle.history-length',
    'lifecycle.context',
    'lifecycle.list',
    'lifecycle.push-config',
    'lifecycle.blocking',
  ];
  const PERMITTED: PermittedName[] = [
    'skip-working',
    'history-fewer',
    'timestamps-offset',
    'image-only-skill',
    'video-only-skill',
    'extra-fields',
    'strict-task-ids',
  ];
  it.each([
    ['v1.0', 'JSONRPC'],
    ['v1.0', 'HTTP+JSON'],
    ['v0.3', 'HTTP+JSON'],
    ['v0.3', 'JSONRPC'],
    ['v0.2', 'JSONRPC'],
    ['legacy', 'JSONRPC'],
  ] as const)('%s %s', async (generation, binding) => {
    const { byId } = await runAgent({ generation, binding }, LIFECYCLE, { permitted: PERMITTED, push: true });
    const bad = Object.values(byId).filter((r) => r.status === 'fail' || r.status === 'advisory' || r.status === 'error');
    expect(bad.map((r) => `${r.id}: ${r.status}: ${r.message}`)).toEqual([]);
  });
});
