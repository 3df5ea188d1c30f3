// A list of independent test cases (describe blocks per check), long by nature: each case stands on its own.
import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import type { CheckResult } from '../model/check';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import type { RunOptions } from '../runner/options';

type Gen = 'legacy' | 'v0.3' | 'v1.0';

const TASK = 't-stream';
const CTX = 'c-stream';

const V1_STATE: Record<string, string> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
};

/** A Task object as the generation spells it. */
function task(g: Gen, state: string, extra: Record<string, unknown> = {}, id = TASK): Record<string, unknown> {
  if (g === 'v1.0') return { id, contextId: CTX, status: { state: V1_STATE[state] }, ...extra };
  if (g === 'legacy') return { id, sessionId: CTX, status: { state }, ...extra };
  return { kind: 'task', id, contextId: CTX, status: { state }, ...extra };
}

/** A stream result (the JSON-RPC `result`) per generation. */
const ev = {
  task: (g: Gen, state: string, extra: Record<string, unknown> = {}) => (g === 'v1.0' ? { task: task(g, state, extra) } : task(g, state, extra)),
  status: (g: Gen, state: string, final?: boolean, status: Record<string, unknown> = {}) => {
    if (g === 'v1.0') return { statusUpdate: { taskId: TASK, contextId: CTX, status: { state: V1_STATE[state], ...status } } };
    if (g === 'legacy') return { id: TASK, status: { state, ...status }, final: final ?? false };
    return { kind: 'status-update', taskId: TASK, contextId: CTX, status: { state, ...status }, final: final ?? false };
  },
  artifact: (g: Gen, artifactId: string, text: string, append = false, lastChunk = false) => {
    if (g === 'v1.0') return { artifactUpdate: { taskId: TASK, contextId: CTX, artifact: { artifactId, parts: [{ text }] }, append, lastChunk } };
    return { kind: 'artifact-update', taskId: TASK, contextId: CTX, artifact: { artifactId, parts: [{ kind: 'text', text }] }, append, lastChunk };
  },
};

/** What the scripted agent streams for one stream request: SSE text chunks, then close or stay open. */
interface Script {
  chunks: (rpcId: unknown) => string[];
  keepOpen?: boolean;
}

const sse = (rpcId: unknown, ...results: unknown[]) => results.map((r) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: rpcId, result: r })}\n\n`);

function sseResponse(s: Script, rpcId: unknown): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of s.chunks(rpcId)) c.enqueue(enc.encode(chunk));
      if (!s.keepOpen) c.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

interface AgentOpts {
  stream: Script;
  subscribe?: Script;
  /** State a get reports for the streamed task (default completed). */
  getState?: () => string;
  /** Replaces the stream endpoint's answer entirely. */
  streamAnswer?: (rpcId: unknown) => Response;
  /** The n-th non-stream send (1-based) answers HTTP 503. */
  sendFails?: (n: number) => boolean;
  /** Every get answers TaskNotFound. */
  getNotFound?: boolean;
  /** Legacy: the stream's events keep their own task id instead of the TaskSendParams.id we sent. */
  foreignIds?: boolean;
}

function agent(g: Gen, o: AgentOpts) {
  const card = { ...sampleCard(g), capabilities: { streaming: true } };
  const cardPath = g === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json';
  const methods =
    g === 'v1.0'
      ? { stream: 'SendStreamingMessage', send: 'SendMessage', get: 'GetTask', subscribe: 'SubscribeToTask' }
      : g === 'legacy'
        ? { stream: 'tasks/sendSubscribe', send: 'tasks/send', get: 'tasks/get', subscribe: 'tasks/resubscribe' }
        : { stream: 'message/stream', send: 'message/send', get: 'tasks/get', subscribe: 'tasks/resubscribe' };
  let sends = 0;
  return fakeHost(async (req) => {
    const url = new URL(req.url);
    if (url.pathname === cardPath) return json(card);
    if (req.method !== 'POST') return new Response('not found', { status: 404 });
    const body = (await req.json()) as { id: unknown; method: string; params?: { id?: string } };
    const reply = (result: unknown) => json({ jsonrpc: '2.0', id: body.id, result });
    switch (body.method) {
      case methods.stream: {
        if (o.streamAnswer) return o.streamAnswer(body.id);
        // Legacy: the client chooses the task id (TaskSendParams.id), and a conforming agent's events carry it.
        const sent = g === 'legacy' && !o.foreignIds ? body.params?.id : undefined;
        return sseResponse(sent ? { ...o.stream, chunks: (id) => o.stream.chunks(id).map((c) => c.split(TASK).join(sent)) } : o.stream, body.id);
      }
      case methods.subscribe: {
        // The subscription is about the task we asked for.
        const sub = o.subscribe ?? { chunks: () => [] };
        return sseResponse({ ...sub, chunks: (id) => sub.chunks(id).map((c) => c.split(TASK).join(body.params?.id ?? TASK)) }, body.id);
      }
      case methods.send: {
        if (o.sendFails?.(sends + 1)) {
          sends++;
          return new Response('busy', { status: 503 });
        }
        const t = task(g, 'working', {}, `t-send-${++sends}`);
        return reply(g === 'v1.0' ? { task: t } : t);
      }
      case methods.get: {
        if (o.getNotFound) return json({ jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Task not found' } });
        const t = task(g, o.getState?.() ?? 'completed', {}, body.params?.id ?? TASK);
        return reply(t);
      }
      default:
        return json({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } });
    }
  });
}

const STREAMING = [
  'streaming.content-type',
  'streaming.framing',
  'streaming.first-event',
  'streaming.terminal',
  'streaming.after-final',
  'streaming.closes',
  'streaming.artifacts',
  'streaming.consistency',
];

async function run(g: Gen, o: AgentOpts, only = STREAMING, timeoutMs = 1500, limits?: RunOptions['limits']) {
  const { host, requests } = agent(g, o);
  const report = await runConformance(host, { agentUrl: 'http://agent.test', only, timeoutMs, limits }, () => {});
  expect(report.protocol.generation).toBe(g);
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { byId, requests };
}

const statusOf = (r: CheckResult | undefined) => [r?.status, r?.skipKind].filter(Boolean).join(':');

describe('SSE noise: a leading BOM is SSE, a U+001E before the JSON is not', () => {
  const frames = (id: unknown, g: Gen) => sse(id, ev.task(g, 'working'), ev.status(g, 'completed', true));
  it.each(['v0.3', 'v1.0'] as const)('%s: a BOM at the start of the stream is stripped (WHATWG): every check passes', async (g) => {
    const { byId } = await run(g, { stream: { chunks: (id) => frames(id, g).map((c, i) => (i === 0 ? `\uFEFF${c}` : c)) } });
    for (const id of ['streaming.framing', 'streaming.terminal', 'streaming.after-final']) expect(statusOf(byId[id]), id).toBe('pass');
  });
  it.each(['v0.3', 'v1.0'] as const)(
    '%s: U+001E before every JSON fails streaming.framing once (data is not JSON); the stream is still read to its end',
    async (g) => {
      const { byId } = await run(g, { stream: { chunks: (id) => frames(id, g).map((c) => c.replace('data: ', 'data: \u001e')) } });
      const f = byId['streaming.framing']!;
      expect([f.status, f.level]).toEqual(['fail', 'MUST']);
      expect(f.message).toMatch(/2 of 2 event\(s\) are malformed: data is not JSON: it starts with U\+001E/);
      // Not "last state none": the end of the stream is judged on what the agent sent, once.
      for (const id of ['streaming.terminal', 'streaming.after-final', 'streaming.first-event']) expect(statusOf(byId[id]), id).toBe('pass');
    },
  );
});

describe('streaming.consistency', () => {
  const events = (id: unknown) => sse(id, ev.task('legacy', 'working'), ev.status('legacy', 'working'), ev.status('legacy', 'completed', true));
  it('legacy: events that all name one task, but not the id we sent (TaskSendParams.id), fail the MUST', async () => {
    const { byId } = await run('legacy', { stream: { chunks: events }, foreignIds: true }, ['streaming.consistency']);
    const r = byId['streaming.consistency']!;
    expect([r.status, r.level]).toEqual(['fail', 'MUST']);
    expect(r.message).toMatch(/^3 of 3 event\(s\) name task t-stream, not the id [0-9a-f-]{36} we sent in tasks\/sendSubscribe \(TaskSendParams.id\)\.$/);
  });
  it('legacy: events that carry the id we sent pass', async () => {
    const { byId } = await run('legacy', { stream: { chunks: events } }, ['streaming.consistency']);
    expect(statusOf(byId['streaming.consistency'])).toBe('pass');
  });
});

describe('SSE framing freedoms (WHATWG)', () => {
  it('CR-only line ends: every event arrives, the last (terminal) one included', async () => {
    const { byId } = await run('v1.0', {
      stream: {
        chunks: (id) => sse(id, ev.task('v1.0', 'submitted'), ev.status('v1.0', 'working'), ev.status('v1.0', 'completed')).map((e) => e.replace(/\n/g, '\r')),
      },
    });
    expect(statusOf(byId['streaming.terminal'])).toBe('pass');
    expect(byId['streaming.terminal']!.message).toMatch(/TASK_STATE_COMPLETED at event 3 of 3 and closed/);
    expect(statusOf(byId['streaming.framing'])).toBe('pass');
    expect(byId['streaming.framing']!.message).toMatch(/^3 event\(s\), all well-formed/);
  });

  it('unknown fields and a non-numeric retry are ignored, not framing failures', async () => {
    const { byId } = await run('v1.0', {
      stream: { chunks: (id) => ['retry: soon\nfoo: bar\n\n', ...sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed'))] },
    });
    const f = byId['streaming.framing']!;
    expect(f.status).toBe('pass');
    expect(f.message).toMatch(/2 line\(s\) were ignored as WHATWG SSE says clients must \(retry "soon", field "foo"\): legal, nothing lost/);
  });

  it('multi-line JSON without "data:" on every line (the §9.3 example layout) still fails, with the cause named', async () => {
    const { byId } = await run('v0.3', {
      stream: {
        chunks: (id) => {
          const pretty = JSON.stringify({ jsonrpc: '2.0', id, result: ev.task('v0.3', 'completed') }, null, 2).split('\n');
          return [`data: ${pretty[0]}\n${pretty.slice(1).join('\n')}\n\n`, ...sse(id, ev.status('v0.3', 'completed', true))];
        },
      },
    });
    const f = byId['streaming.framing']!;
    expect(f.status).toBe('fail');
    expect(f.message).toMatch(/not SSE fields .*continuation lines lack the "data:" prefix/);
  });

  it('a byte order mark before every event loses the events and fails framing', async () => {
    const { byId } = await run('v1.0', {
      stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed')).map((e) => `\uFEFF${e}`) },
    });
    expect(byId['streaming.framing']!.status).toBe('fail');
    expect(byId['streaming.framing']!.message).toMatch(/not SSE fields .*byte order mark/);
    expect(byId['streaming.terminal']!.status).toBe('fail');
    expect(byId['streaming.terminal']!.message).toMatch(/without reaching a terminal/);
  });
});

describe('payload findings the generation does not require', () => {
  it('v1.0: a leftover "kind" on the Task and "final" on a status update are advisories (§5.7), not framing failures', async () => {
    const { byId } = await run('v1.0', {
      stream: {
        chunks: (id) =>
          sse(
            id,
            { task: { ...task('v1.0', 'working'), kind: 'task' } },
            { statusUpdate: { taskId: TASK, contextId: CTX, status: { state: 'TASK_STATE_COMPLETED' }, final: true } },
          ),
      },
    });
    const f = byId['streaming.framing']!;
    expect(f.status).toBe('advisory');
    expect(f.message).toMatch(/does not require: task has "kind", removed in v1\.0 .*; statusUpdate\.final was removed in v1\.0/);
    expect(f.advisoryReason).toMatch(/§5\.7/);
  });

  it('v1.0: a timestamp without the Z suffix still fails framing (§5.6.1)', async () => {
    const { byId } = await run('v1.0', {
      stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed', undefined, { timestamp: '2025-04-02T16:59:25.331844' })) },
    });
    expect(byId['streaming.framing']!.status).toBe('fail');
    expect(byId['streaming.framing']!.message).toMatch(/not an ISO 8601 UTC timestamp ending in Z/);
  });

  it('v0.3: any ISO 8601 date-time is accepted (zone-less as in the §9.3 example, basic format, comma decimals)', async () => {
    for (const ts of ['2025-04-02T16:59:25.331844', '20251027T100000Z', '2025-10-27T10:00Z', '2025-10-27T10:00:00,5+02:00']) {
      const { byId } = await run('v0.3', {
        stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.status('v0.3', 'completed', true, { timestamp: ts })) },
      });
      expect([ts, byId['streaming.framing']!.status]).toEqual([ts, 'pass']);
    }
  });

  it('v0.3: a timestamp that is not ISO 8601 at all is an advisory (the schema only describes it), not a framing failure', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.status('v0.3', 'completed', true, { timestamp: 'Thu Jan 01 1970 10:00:00' })) },
    });
    expect(byId['streaming.framing']!.status).toBe('advisory');
    expect(byId['streaming.framing']!.message).toMatch(/does not require: status\.timestamp "Thu Jan 01 1970 10:00:00" is not an ISO 8601 date-time/);
  });

  it('v0.3: a missing required field (taskId on a status update) still fails framing', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), { kind: 'status-update', contextId: CTX, status: { state: 'completed' }, final: true }) },
    });
    expect(byId['streaming.framing']!.status).toBe('fail');
    expect(byId['streaming.framing']!.message).toMatch(/taskId is required/);
  });
});

describe('v1.0 stream ends', () => {
  it('closing at INPUT_REQUIRED passes', async () => {
    const { byId } = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'input-required')) } });
    expect(statusOf(byId['streaming.terminal'])).toBe('pass');
    expect(byId['streaming.terminal']!.message).toMatch(/TASK_STATE_INPUT_REQUIRED .*closed \(allowed at an interrupted state\)/);
    expect(statusOf(byId['streaming.after-final'])).toBe('skip:not-applicable');
  });

  it('staying open at INPUT_REQUIRED is an advisory at most, at AUTH_REQUIRED a pass (§7.6.1)', async () => {
    const input = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'input-required')), keepOpen: true } });
    expect(input.byId['streaming.terminal']!.status).toBe('advisory');
    expect(input.byId['streaming.terminal']!.message).toMatch(/TASK_STATE_INPUT_REQUIRED .*stayed open/);
    const auth = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'auth-required')), keepOpen: true } });
    expect(auth.byId['streaming.terminal']!.status).toBe('pass');
    expect(auth.byId['streaming.terminal']!.message).toMatch(/stayed open, as v1\.0 §7\.6\.1 says it SHOULD/);
  });

  it('still open after the terminal status fails (§3.1.2 MUST close)', async () => {
    const { byId } = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed')), keepOpen: true } });
    expect(byId['streaming.terminal']!.status).toBe('fail');
    expect(byId['streaming.terminal']!.message).toMatch(/reached TASK_STATE_COMPLETED but did not close within \d+ ms/);
  });

  it('one final Task snapshot after the terminal status is allowed (§11.7); more is not', async () => {
    const ok = await run('v1.0', {
      stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed'), ev.task('v1.0', 'completed')) },
    });
    expect(ok.byId['streaming.after-final']!.status).toBe('pass');
    expect(ok.byId['streaming.after-final']!.message).toMatch(/one final Task snapshot in TASK_STATE_COMPLETED followed, which §11\.7 allows/);
    const bad = await run('v1.0', {
      stream: {
        chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed'), ev.task('v1.0', 'completed'), ev.status('v1.0', 'working')),
      },
    });
    expect(bad.byId['streaming.after-final']!.status).toBe('fail');
    expect(bad.byId['streaming.after-final']!.message).toMatch(/^1 event\(s\) arrived after the final one/);
  });

  it('a non-terminal Task snapshot after the terminal status fails (§11.7 allows only a final snapshot)', async () => {
    for (const state of ['working', 'input-required']) {
      const { byId } = await run('v1.0', {
        stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed'), ev.task('v1.0', state)) },
      });
      expect(byId['streaming.after-final']!.status, state).toBe('fail');
      expect(byId['streaming.after-final']!.message).toMatch(/^1 event\(s\) arrived after the final one/);
    }
  });

  it('a first event other than the Task still fails in v1.0', async () => {
    const { byId } = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.status('v1.0', 'working'), ev.status('v1.0', 'completed')) } });
    expect(byId['streaming.first-event']!.status).toBe('fail');
    expect(byId['streaming.first-event']!.message).toMatch(/MUST begin with the Task object/);
  });
});

describe('our budget ended the stream', () => {
  it("the task is still running (get) when the per-task timeout ends the stream: the procedure's failure (T3), naming the knob", async () => {
    const { byId } = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working')), keepOpen: true }, getState: () => 'working' });
    const t = byId['streaming.terminal']!;
    expect(t).toMatchObject({ status: 'fail', level: 'MUST' });
    expect(t.message).toMatch(
      /still open without reaching the end of the task when the per-task timeout of 1\.5 s ran out .*get says TASK_STATE_WORKING.*--task-timeout/,
    );
    expect(t.requirement?.sentences.map((s) => s.section)).toContain('Timeouts T3');
  });

  it('a stream our silence limit ended (not the per-task timeout) stays a tool limit', async () => {
    const { byId } = await run(
      'v1.0',
      { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working')), keepOpen: true }, getState: () => 'working' },
      STREAMING,
      1500,
      { streamIdleTimeoutMs: 300 },
    );
    expect(statusOf(byId['streaming.terminal'])).toBe('skip:tool-limit');
    expect(byId['streaming.terminal']!.message).toMatch(/went silent for 300 ms/);
  });

  it('the task already finished (get): the stream neither delivered that nor closed, a failure', async () => {
    const { byId } = await run('v1.0', { stream: { chunks: (id) => sse(id, ev.task('v1.0', 'working')), keepOpen: true }, getState: () => 'completed' });
    const t = byId['streaming.terminal']!;
    expect(t.status).toBe('fail');
    expect(t.message).toMatch(
      /The task reached TASK_STATE_COMPLETED \(read back with get\), but the stream neither delivered that nor closed: it was still open when the 1500 ms budget ran out/,
    );
  });

  it('no event at all before the budget ended: framing and first-event are tool limits', async () => {
    const { byId } = await run('v1.0', { stream: { chunks: () => [': hello\n\n'], keepOpen: true } });
    expect(statusOf(byId['streaming.framing'])).toBe('skip:tool-limit');
    expect(statusOf(byId['streaming.first-event'])).toBe('skip:tool-limit');
    expect(byId['streaming.framing']!.message).toMatch(/--timeout/);
  });
});

describe('before v1.0: any first event, Task endings, input-required', () => {
  it('v0.3: a first status update in completed is fine', async () => {
    const { byId } = await run('v0.3', { stream: { chunks: (id) => sse(id, ev.status('v0.3', 'completed', true)) } });
    expect(byId['streaming.first-event']!.status).toBe('pass');
    expect(byId['streaming.first-event']!.message).toMatch(/no release before v1\.0 fixes the first event/);
    expect(byId['streaming.terminal']!.status).toBe('pass');
  });

  it('v0.3: a first artifact update is fine', async () => {
    const { byId } = await run('v0.3', { stream: { chunks: (id) => sse(id, ev.artifact('v0.3', 'a1', 'hi'), ev.status('v0.3', 'completed', true)) } });
    expect(byId['streaming.first-event']!.status).toBe('pass');
  });

  it('v0.3: a stream that ends with the Task in completed and closes passes (a2a-python ends streams so)', async () => {
    const { byId } = await run('v0.3', { stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.task('v0.3', 'completed')) } });
    expect(byId['streaming.terminal']!.status).toBe('pass');
    expect(byId['streaming.terminal']!.message).toMatch(/ended with the Task in completed .*and closed/);
  });

  it('v0.3: a terminal status without final:true still fails', async () => {
    const { byId } = await run('v0.3', { stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.status('v0.3', 'completed', false)) } });
    expect(byId['streaming.terminal']!.status).toBe('fail');
    expect(byId['streaming.terminal']!.message).toMatch(/A terminal status \(completed, event 2\) arrived but no event had "final": true/);
  });

  it('v0.3: input-required with final:false and the stream left open is not a failure', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.status('v0.3', 'input-required', false)), keepOpen: true },
    });
    expect(byId['streaming.terminal']!.status).toBe('pass');
    expect(byId['streaming.terminal']!.message).toMatch(/paused at input-required .*stayed open/);
    expect(statusOf(byId['streaming.closes'])).toBe('skip:not-applicable');
  });

  it('v0.3: events after final:true still fail after-final', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.status('v0.3', 'completed', true), ev.status('v0.3', 'working', false)) },
    });
    expect(byId['streaming.after-final']!.status).toBe('fail');
  });

  it("legacy: a first status in completed passes first-event; a terminal status without final fails the procedure's SHOULD (S2)", async () => {
    const { byId } = await run('legacy', { stream: { chunks: (id) => sse(id, ev.status('legacy', 'completed', false)) } });
    expect(byId['streaming.first-event']!.status).toBe('pass');
    expect(byId['streaming.terminal']).toMatchObject({ status: 'fail', level: 'SHOULD' });
    expect(byId['streaming.terminal']!.message).toMatch(/no event had "final": true/);
  });
});

describe('errors instead of a stream', () => {
  it('a JSON-RPC error body is reported as the refusal it is, not as a wrong content type', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: () => [] },
      streamAnswer: (id) => json({ jsonrpc: '2.0', id, error: { code: -32603, message: 'model backend down' } }),
    });
    const c = byId['streaming.content-type']!;
    expect(c.status).toBe('fail');
    expect(c.message).toMatch(
      /refused the streaming request with an error instead of opening a stream \(-32603 "model backend down", HTTP 200\), although the card declares streaming/,
    );
    expect(c.message).not.toMatch(/Content-Type/);
  });

  it('a 429 that persists after the polite retry is our limit (tool-limit), not a content-type failure', async () => {
    let calls = 0;
    const { byId } = await run('v0.3', {
      stream: { chunks: () => [] },
      streamAnswer: () => (++calls, new Response('Too Many Requests', { status: 429, headers: { 'retry-after': '0' } })),
    });
    expect(calls).toBe(2);
    expect(statusOf(byId['streaming.content-type'])).toBe('skip:tool-limit');
    expect(byId['streaming.content-type']!.message).toMatch(/HTTP 429 Too Many Requests/);
    expect(statusOf(byId['streaming.terminal'])).toBe('skip:tool-limit');
  });

  it('a 2xx result that is not an event stream is still a wrong content type', async () => {
    const { byId } = await run('v0.3', { stream: { chunks: () => [] }, streamAnswer: (id) => json({ jsonrpc: '2.0', id, result: task('v0.3', 'completed') }) });
    expect(byId['streaming.content-type']!.status).toBe('fail');
    expect(byId['streaming.content-type']!.message).toMatch(/answered HTTP 200 with Content-Type application\/json, not an event stream/);
  });

  it('an error event first: first-event does not blame the order; terminal reports the error once', async () => {
    const { byId } = await run('v1.0', {
      stream: { chunks: (id) => [`data: ${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } })}\n\n`] },
    });
    expect(statusOf(byId['streaming.first-event'])).toBe('skip:precondition');
    expect(byId['streaming.first-event']!.message).toMatch(/error event first \(-32603 "boom"\)/);
    expect(byId['streaming.framing']!.status).toBe('pass');
    const t = byId['streaming.terminal']!;
    expect(t.status).toBe('fail');
    expect(t.message).toMatch(/refused the streaming request with an error in the stream \(event 1\) \(-32603 "boom"\)/);
  });
});

describe('streaming.artifacts', () => {
  it('appending to an artifact that arrived inside the Task event is fine', async () => {
    const { byId } = await run('v0.3', {
      stream: {
        chunks: (id) =>
          sse(
            id,
            ev.task('v0.3', 'working', { artifacts: [{ artifactId: 'a1', parts: [{ kind: 'text', text: 'Hel' }] }] }),
            ev.artifact('v0.3', 'a1', 'lo', true, true),
            ev.status('v0.3', 'completed', true),
          ),
      },
    });
    expect(byId['streaming.artifacts']!.status).toBe('pass');
    expect(byId['streaming.artifacts']!.evidence.map((e) => e.value).join()).toMatch(/a1: Hello/);
  });

  it('appending to an artifact never started is reported (an advisory: append is descriptive)', async () => {
    const { byId } = await run('v0.3', {
      stream: { chunks: (id) => sse(id, ev.task('v0.3', 'working'), ev.artifact('v0.3', 'a9', 'lo', true), ev.status('v0.3', 'completed', true)) },
    });
    expect(byId['streaming.artifacts']!.status).toBe('advisory');
    expect(byId['streaming.artifacts']!.message).toMatch(/appends to artifact a9, which was never started/);
  });
});

describe('streaming.resubscribe', () => {
  const only = ['streaming.resubscribe'];
  it('v1.0: the task pauses at INPUT_REQUIRED and the subscription stays open: allowed', async () => {
    let gets = 0;
    const { byId } = await run(
      'v1.0',
      {
        stream: { chunks: () => [] },
        subscribe: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'input-required')), keepOpen: true },
        getState: () => (++gets <= 1 ? 'completed' : 'input-required'),
      },
      only,
      5000,
    );
    const r = byId['streaming.resubscribe']!;
    expect([r.status, r.message]).toEqual(['pass', expect.any(String)]);
    expect(r.message).toMatch(/paused at TASK_STATE_INPUT_REQUIRED and the stream stayed open, which is allowed/);
  });

  it('v1.0: the subscription stays open after the terminal status: a failure citing §3.1.6', async () => {
    const { byId } = await run(
      'v1.0',
      { stream: { chunks: () => [] }, subscribe: { chunks: (id) => sse(id, ev.task('v1.0', 'working'), ev.status('v1.0', 'completed')), keepOpen: true } },
      only,
      5000,
    );
    const r = byId['streaming.resubscribe']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/delivered TASK_STATE_COMPLETED but was still open \d+ ms later \(v1\.0 §3\.1\.6/);
  });

  it('v1.0: still running when our budget ends: a tool-limit skip', async () => {
    let gets = 0;
    const { byId } = await run(
      'v1.0',
      {
        stream: { chunks: () => [] },
        subscribe: { chunks: (id) => sse(id, ev.task('v1.0', 'working')), keepOpen: true },
        getState: () => (++gets <= 1 ? 'completed' : 'working'),
      },
      only,
    );
    const r = byId['streaming.resubscribe']!;
    expect([statusOf(r), r.message]).toEqual(['skip:tool-limit', expect.any(String)]);
    expect(r.message).toMatch(/still running when our budget ended.*--timeout/);
  });
});

describe('streaming.disconnect', () => {
  const only = ['streaming.disconnect'];
  const stream: Script = { chunks: (id) => sse(id, ev.task('v1.0', 'working')), keepOpen: true };
  it('one refused request right after the disconnect is asked again before calling it a crash', async () => {
    const { byId } = await run('v1.0', { stream, sendFails: (n) => n === 2 }, only);
    expect(byId['streaming.disconnect']!.status).toBe('pass');
    expect(byId['streaming.disconnect']!.message).toMatch(/still retrievable .* and the agent answers new messages/);
  });

  it('a server error twice after the disconnect is a possible crash: a failure (a crash is never only an advisory)', async () => {
    const { byId } = await run('v1.0', { stream, sendFails: (n) => n >= 2 }, only);
    expect(byId['streaming.disconnect']!.status).toBe('fail');
    expect(byId['streaming.disconnect']!.critical).toBe(true);
    expect(byId['streaming.disconnect']!.message).toMatch(/no longer answers a new message \(twice, 1 s apart; HTTP 503\): it may have crashed/);
  });

  it('a task dropped after its client left is an advisory, said as such', async () => {
    const { byId } = await run('v1.0', { stream, getNotFound: true }, only);
    expect(byId['streaming.disconnect']!.status).toBe('advisory');
    expect(byId['streaming.disconnect']!.message).toMatch(/is gone \(-32001 "Task not found"\).*does not require it/);
  });
});
