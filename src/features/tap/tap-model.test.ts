import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from '../../lib/engine';
import type { TapEvent, TapExchangeStart } from '../../engine/tap/types';
import { replyOf } from './tap-api';
import { tapExport } from './tap-views';
import type { TapReport } from '../../engine/tap/types';
import type { TwoAgentResult } from '../../engine/tap/two-agent';
import { asTapEvent, foldTap, tapRunStarted, toRunEvents, turnOf, wordsOf } from './tap-model';

const start = (seq: number, id: string, operation: string, body?: unknown, streaming = false): TapExchangeStart => ({
  kind: 'exchange-start',
  seq,
  id,
  at: 1000 + seq,
  side: 'client',
  method: 'POST',
  url: 'http://127.0.0.1:1/tap/t/jsonrpc',
  upstreamUrl: 'http://127.0.0.1:1/a/jsonrpc',
  headers: { authorization: 'Bearer ****' },
  ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  bodySize: 2,
  bodyTruncated: false,
  operation,
  streaming,
});

/** A streamed exchange (task, artifact, final status) and a failed one, as the tap records them. */
const EVENTS: TapEvent[] = [
  start(
    1,
    'x1',
    'message/stream',
    { jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { parts: [{ kind: 'text', text: 'Write a haiku' }] } } },
    true,
  ),
  {
    kind: 'sse-frame',
    seq: 2,
    id: 'x1',
    at: 1010,
    side: 'agent',
    frame: 1,
    ms: 5,
    data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted' } } }),
  },
  {
    kind: 'sse-frame',
    seq: 3,
    id: 'x1',
    at: 1020,
    side: 'agent',
    frame: 2,
    ms: 15,
    data: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      result: { kind: 'artifact-update', taskId: 't1', artifact: { parts: [{ kind: 'text', text: 'Old pond' }] } },
    }),
  },
  {
    kind: 'sse-frame',
    seq: 4,
    id: 'x1',
    at: 1030,
    side: 'agent',
    frame: 3,
    ms: 25,
    data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'status-update', taskId: 't1', status: { state: 'completed' }, final: true } }),
  },
  {
    kind: 'exchange-end',
    seq: 5,
    id: 'x1',
    at: 1031,
    side: 'agent',
    status: 200,
    headers: {},
    bodySize: 0,
    bodyTruncated: false,
    stream: true,
    frames: 3,
    headersMs: 4,
    durationMs: 30,
  },
  start(6, 'x2', 'tasks/get', { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: 't1' } }),
  { kind: 'fault', seq: 7, id: 'x2', at: 1040, side: 'agent', fault: 'reset', detail: 'connection reset once' },
  {
    kind: 'exchange-end',
    seq: 8,
    id: 'x2',
    at: 1041,
    side: 'agent',
    bodySize: 0,
    bodyTruncated: false,
    stream: false,
    frames: 0,
    durationMs: 1,
    error: { code: 'fault', message: 'reset by the tap' },
  },
  {
    kind: 'finding',
    seq: 9,
    id: 'x2',
    at: 1042,
    side: 'agent',
    finding: { side: 'agent', checkId: 'streaming.closes', level: 'SHOULD', message: 'm', exchangeId: 'x1' },
  },
];

describe('tap model', () => {
  it('folds exchanges, frames, faults and findings, and each side’s verdict', () => {
    const v = foldTap([...EVENTS, EVENTS[1]!]);
    expect(v.exchanges.map((x) => [x.id, x.frames.length, x.faults.length, x.findings.length])).toEqual([
      ['x1', 3, 0, 1],
      ['x2', 0, 1, 0],
    ]);
    expect(v.agent).toEqual({ verdict: 'fail', must: 0, should: 1, advisory: 0 });
    expect(v.client.verdict).toBe('pass');
    expect(foldTap([]).client.verdict).toBe('not-observed');
  });

  it('turns: the words of both sides, a stream’s final state, a fault named as the tap’s', () => {
    const [x1, x2] = foldTap(EVENTS).exchanges;
    expect(turnOf(x1!)).toMatchObject({
      request: 'POST message/stream',
      said: 'Write a haiku',
      answer: 'HTTP 200 · stream of 3 event(s) · completed',
      answered: 'Old pond',
      state: 'completed',
      taskId: 't1',
      send: true,
    });
    expect(turnOf(x2!)).toMatchObject({
      request: 'POST tasks/get',
      answer: 'no complete answer (fault injected by the tap): reset by the tap',
      tone: 'fail',
      send: false,
    });
  });

  it('run events: the timeline and wire inspector fold them (requests, responses, SSE, task states)', () => {
    const starts = new Map<string, TapExchangeStart>();
    const runEvents = [tapRunStarted('t', 'http://127.0.0.1:1/a', 999)];
    for (const e of EVENTS) {
      if (e.kind === 'exchange-start') starts.set(e.id, e);
      runEvents.push(...toRunEvents(e, starts));
    }
    const run = applyEvents(initialRunState(), runEvents);
    expect(run.status).toBe('running');
    expect(run.exchangeOrder).toEqual(['x1', 'x2']);
    expect(run.exchanges.x1?.response?.stream).toBe(true);
    expect(run.exchanges.x1?.timings).toEqual({ startedAt: 1001, headersAt: 1005, endedAt: 1031 });
    expect(run.exchanges.x1?.request.headers.authorization).toBe('Bearer ****');
    expect(run.exchanges.x2?.error).toMatchObject({ code: 'fault' });
    expect(run.sse.map((s) => s.summary)).toEqual(['task submitted', 'event', 'event completed']);
    expect(run.taskStates.map((t) => t.state)).toEqual(['submitted', 'completed']);
    expect(run.lanes).toEqual(['message/stream', 'tasks/get']);
  });

  it('accepts only events with the shape of a tap event', () => {
    for (const e of EVENTS) expect(asTapEvent(JSON.parse(JSON.stringify(e)))).toBeDefined();
    for (const junk of [
      null,
      1,
      'x',
      {},
      { kind: 'exchange-start', seq: 1, id: 'x', at: 1 },
      { kind: 'nope', seq: 1, id: 'x', at: 1 },
      { kind: 'finding', seq: 1, id: 'x', at: 1, finding: { side: 'both' } },
    ])
      expect(asTapEvent(junk)).toBeUndefined();
  });

  it('words of requests and answers in every generation; nothing from junk', () => {
    expect(wordsOf({ params: { message: { parts: [{ text: 'hi' }] } } })).toBe('hi');
    expect(wordsOf({ result: { task: { status: { message: { parts: [{ text: 'v1' }] } } } } })).toBe('v1');
    expect(wordsOf({ message: { content: [{ text: 'rest' }] } })).toBe('rest');
    expect(wordsOf({ result: { id: 't', status: { state: 'completed', message: { parts: [{ type: 'text', text: 'legacy' }] } } } })).toBe('legacy');
    expect(wordsOf({ params: { message: { parts: [{ text: 'x'.repeat(3000) }] } } })?.length).toBe(2001);
    for (const junk of [undefined, 'text', [], { result: 4 }]) expect(wordsOf(junk)).toBeUndefined();
  });

  it("the orchestrator's reply: its task's state and words, or why not", () => {
    expect(
      replyOf({ jsonrpc: '2.0', result: { kind: 'task', status: { state: 'completed', message: { parts: [{ kind: 'text', text: 'B said hi' }] } } } }),
    ).toEqual({ state: 'completed', text: 'B said hi' });
    expect(replyOf({ jsonrpc: '2.0', error: { code: -32603, message: 'boom' } })).toEqual({ state: 'error', text: 'boom' });
    expect(replyOf('nope').state).toBe('unknown');
  });
});

describe('tap exports', () => {
  const HOSTILE = '<script>alert(1)</script>';
  const report: TapReport = {
    tool: 'a2a-interop tap',
    agentUrl: 'http://127.0.0.1:1/a',
    target: { agentUrl: 'http://127.0.0.1:1/a', agentName: HOSTILE, interfaces: [], requiredExtensions: [], notRelayed: [] },
    startedAt: 1000,
    at: 2000,
    exchanges: [
      {
        id: 'x1',
        request: {
          at: 1001,
          method: 'POST',
          url: 'http://127.0.0.1:1/tap/t/',
          upstreamUrl: 'http://127.0.0.1:1/a/',
          headers: {},
          body: '{}',
          bodySize: 2,
          bodyTruncated: false,
          operation: 'message/send',
          streaming: false,
        },
        response: {
          at: 1002,
          status: 200,
          headers: { 'content-type': 'application/json' },
          body: `{"text":"${HOSTILE}"}`,
          bodySize: 10,
          bodyTruncated: false,
          stream: false,
          frames: 0,
          durationMs: 1,
        },
        frames: [],
      },
    ],
    findings: [{ side: 'client', checkId: 'client.message-id', level: 'MUST', message: `No messageId ${HOSTILE}`, exchangeId: 'x1' }],
    faults: {},
    summary: { client: { verdict: 'fail', must: 1, should: 0, advisory: 0 }, agent: { verdict: 'pass', must: 0, should: 0, advisory: 0 }, exchanges: 1 },
    dropped: { events: 0, exchanges: 0 },
  };
  const two = [{ id: 'two-agent.card', status: 'pass' }] as unknown as TwoAgentResult[];

  it('JSON: the report, with the two-agent results when judged', () => {
    expect(JSON.parse(tapExport(report, 'json', two).body)).toEqual({ ...report, twoAgents: two });
    expect(JSON.parse(tapExport(report, 'json', null).body)).toEqual(report);
  });
  it('HAR 1.2 and the other formats, agent text escaped', () => {
    const har = JSON.parse(tapExport(report, 'har', two).body) as { log: { version: string; entries: unknown[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(1);
    const html = tapExport(report, 'html', null);
    expect(html.mimeType).toMatch(/text\/html/);
    expect(html.body).not.toContain(HOSTILE);
    for (const f of ['markdown', 'junit', 'sarif'] as const) expect(tapExport(report, f, null).body).toContain('client.message-id');
  });
});
