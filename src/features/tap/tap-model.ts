/**
 * The Tap page's view of a tap's events (pure): the conversation as turns (the client's request, the agent's answer,
 * the findings and faults of that exchange), each side's verdict, and the same events as run events so the run
 * views' timeline and wire inspector can show them.
 */
import type { RunEvent, TaskState } from '../../lib/engine';
import { sideSummary } from '../../engine/tap/record';
import { answerInfo, isSendOperation } from '../../engine/tap/two-agent';
import type { TapEvent, TapExchangeEnd, TapExchangeStart, TapFaultEvent, TapFinding, TapSideSummary, TapSseFrame, TapTargetInfo } from '../../engine/tap/types';
import { isRecord, safeJsonParse } from '../../engine/util/json';

export interface TapExchangeView {
  id: string;
  start: TapExchangeStart;
  end?: TapExchangeEnd;
  frames: TapSseFrame[];
  findings: TapFinding[];
  faults: TapFaultEvent[];
}

export interface TapView {
  target?: TapTargetInfo;
  exchanges: TapExchangeView[];
  findings: TapFinding[];
  client: TapSideSummary;
  agent: TapSideSummary;
}

/** Folds events (in seq order, duplicates ignored) into exchanges, findings and each side's verdict. */
export function foldTap(events: readonly TapEvent[]): TapView {
  const byId = new Map<string, TapExchangeView>();
  const exchanges: TapExchangeView[] = [];
  const findings: TapFinding[] = [];
  const pendingFaults: TapFaultEvent[] = [];
  let target: TapTargetInfo | undefined;
  const seen = new Set<number>();
  for (const e of events) {
    if (seen.has(e.seq)) continue;
    seen.add(e.seq);
    switch (e.kind) {
      case 'exchange-start': {
        const x: TapExchangeView = { id: e.id, start: e, frames: [], findings: [], faults: pendingFaults.filter((f) => f.id === e.id) };
        byId.set(e.id, x);
        exchanges.push(x);
        break;
      }
      case 'exchange-end': {
        const x = byId.get(e.id);
        if (x) x.end = e;
        break;
      }
      case 'sse-frame':
        byId.get(e.id)?.frames.push(e);
        break;
      case 'finding':
        findings.push(e.finding);
        byId.get(e.finding.exchangeId)?.findings.push(e.finding);
        break;
      case 'fault': {
        const x = byId.get(e.id);
        if (x) x.faults.push(e);
        else pendingFaults.push(e);
        break;
      }
      case 'target':
        target = e.target;
        break;
    }
  }
  return {
    ...(target ? { target } : {}),
    exchanges,
    findings,
    client: sideSummary(findings, 'client', exchanges.length > 0),
    agent: sideSummary(
      findings,
      'agent',
      exchanges.some((x) => x.end),
    ),
  };
}

const MAX_TEXT = 2000;

/** The text parts of a message or artifact (every generation: `text`, `{kind|type: 'text'}`, v1.0 `parts[].text`). */
function partsText(parts: unknown): string[] {
  if (!Array.isArray(parts)) return [];
  const out: string[] = [];
  for (const p of parts.slice(0, 50)) if (isRecord(p) && typeof p.text === 'string') out.push(p.text);
  return out;
}

/** What a request or answer says in words (message, artifacts, status message), capped; undefined when nothing. */
export function wordsOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const texts: string[] = [];
  const message = (m: unknown) => {
    if (isRecord(m)) texts.push(...partsText(m.parts ?? m.content));
  };
  const body = isRecord(value.result) ? value.result : isRecord(value.params) ? value.params : value;
  const inner = isRecord(body.task)
    ? body.task
    : isRecord(body.message) && !isRecord(body.status)
      ? body
      : isRecord(body.statusUpdate)
        ? body.statusUpdate
        : isRecord(body.artifactUpdate)
          ? body.artifactUpdate
          : body;
  if (isRecord(inner.message)) message(inner.message);
  else if (Array.isArray(inner.parts) || Array.isArray(inner.content)) message(inner);
  if (isRecord(inner.artifact)) texts.push(...partsText(inner.artifact.parts));
  if (Array.isArray(inner.artifacts)) for (const a of inner.artifacts.slice(0, 20)) if (isRecord(a)) texts.push(...partsText(a.parts));
  if (isRecord(inner.status) && isRecord(inner.status.message) && !texts.length) message(inner.status.message);
  const s = texts.join('').trim();
  return s ? (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT)}…` : s) : undefined;
}

const parse = (text: string | undefined): unknown => {
  if (!text) return undefined;
  const p = safeJsonParse(text);
  return p.ok ? p.value : undefined;
};

/** A JSON-RPC error's or an HTTP+JSON error body's message. */
function errorOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const e = isRecord(value.error) ? value.error : value.jsonrpc === undefined && typeof value.code === 'number' ? value : undefined;
  if (!e) return undefined;
  const code = typeof e.code === 'number' || typeof e.code === 'string' ? ` ${e.code}` : '';
  const msg = typeof e.message === 'string' ? `: ${e.message.slice(0, 300)}` : '';
  return `error${code}${msg}`;
}

/** One exchange as a conversation turn: what the client said, what the agent answered. */
export interface TapTurn {
  /** `Client: message/send` */
  request: string;
  /** The words the client sent (message text), when any. */
  said?: string;
  /** `HTTP 200 · task completed`, `stream: 4 events · completed`, `no answer: reset`, or `waiting…`. */
  answer: string;
  /** The agent's words (message, artifacts, status message; a stream's joined), when any. */
  answered?: string;
  tone: 'pass' | 'fail' | 'running' | 'error';
  state?: TaskState;
  taskId?: string;
  send: boolean;
}

export function turnOf(x: TapExchangeView): TapTurn {
  const s = x.start;
  const req = parse(s.body);
  const said = s.operation === 'card' ? undefined : wordsOf(req);
  const base = {
    request: s.operation === 'card' ? `${s.method} the agent card` : `${s.method} ${s.operation}`,
    ...(said ? { said } : {}),
    send: isSendOperation(s.operation),
  };
  const e = x.end;
  if (!e)
    return {
      ...base,
      answer: x.frames.length ? `streaming: ${x.frames.length} event(s) so far…` : 'waiting for the agent…',
      tone: 'running',
      ...streamBits(x),
    };
  if (e.error) {
    const who =
      e.error.code === 'fault'
        ? 'fault injected by the tap'
        : e.error.code === 'tool'
          ? 'the tap failed'
          : e.error.code === 'client-closed'
            ? 'the client went away'
            : e.error.code;
    return {
      ...base,
      answer: `no complete answer (${who}): ${e.error.message.slice(0, 300)}`,
      tone: e.error.code === 'tool' ? 'error' : 'fail',
      ...streamBits(x),
    };
  }
  const status = `HTTP ${e.status ?? '?'}`;
  if (e.stream) {
    const bits = streamBits(x);
    return {
      ...base,
      answer: `${status} · stream of ${x.frames.length} event(s)${bits.state ? ` · ${bits.state}` : ''}`,
      tone: (e.status ?? 0) < 400 ? 'pass' : 'fail',
      ...bits,
    };
  }
  const body = parse(e.body);
  if (s.operation === 'card') {
    const name = isRecord(body) && typeof body.name === 'string' ? body.name.slice(0, 200) : undefined;
    return { ...base, answer: `${status}${name ? ` · card of "${name}"` : ''}`, tone: (e.status ?? 0) < 400 ? 'pass' : 'fail' };
  }
  const info = answerInfo(e.body);
  const err = errorOf(body);
  const what =
    err ?? (info.kind === 'unknown' ? (e.body ? 'an answer that is no task or message' : 'no body') : `${info.kind}${info.state ? ` ${info.state}` : ''}`);
  const answered = err ? undefined : wordsOf(body);
  return {
    ...base,
    answer: `${status} · ${what}`,
    ...(answered ? { answered } : {}),
    tone: (e.status ?? 0) >= 400 || err ? 'fail' : 'pass',
    ...(info.state ? { state: info.state } : {}),
    ...(info.taskId ? { taskId: info.taskId } : {}),
  };
}

function streamBits(x: TapExchangeView): { answered?: string; state?: TaskState; taskId?: string } {
  if (!x.frames.length) return {};
  const words: string[] = [];
  let state: TaskState | undefined;
  let taskId: string | undefined;
  for (const f of x.frames) {
    const v = parse(f.data);
    const w = wordsOf(v);
    if (w) words.push(w);
    const i = answerInfo(f.data);
    state = i.state ?? state;
    taskId = taskId ?? i.taskId;
  }
  const answered = words.join('\n').slice(0, MAX_TEXT);
  return { ...(answered ? { answered } : {}), ...(state ? { state } : {}), ...(taskId ? { taskId } : {}) };
}

/** The run events the timeline and wire inspector fold (one lane per operation: `card`, `message/send`, …). */
export function toRunEvents(e: TapEvent, starts: ReadonlyMap<string, TapExchangeStart>): RunEvent[] {
  switch (e.kind) {
    case 'exchange-start':
      return [
        {
          type: 'http-request',
          at: e.at,
          exchangeId: e.id,
          lane: laneOf(e),
          request: { method: e.method, url: e.url, headers: e.headers, ...(e.body !== undefined ? { body: e.body } : {}), bodySize: e.bodySize },
        },
      ];
    case 'exchange-end': {
      const start = starts.get(e.id);
      const startedAt = start?.at ?? e.at - e.durationMs;
      const out: RunEvent[] = [
        {
          type: 'http-response',
          at: e.at,
          exchangeId: e.id,
          ...(e.status !== undefined && e.status > 0
            ? {
                response: {
                  status: e.status,
                  ...(e.statusText ? { statusText: e.statusText } : {}),
                  headers: e.headers ?? {},
                  ...(e.body !== undefined ? { body: e.body } : {}),
                  bodySize: e.bodySize,
                  truncated: e.bodyTruncated,
                  stream: e.stream,
                },
              }
            : {}),
          ...(e.error
            ? {
                error: {
                  source:
                    e.error.code === 'unreachable' || e.error.code === 'reset'
                      ? ('network' as const)
                      : e.error.code === 'client-closed'
                        ? ('abort' as const)
                        : ('proxy' as const),
                  code: e.error.code,
                  message: e.error.message,
                  blame:
                    e.error.code === 'unreachable' || e.error.code === 'reset'
                      ? ('agent' as const)
                      : e.error.code === 'tool'
                        ? ('tool' as const)
                        : ('unknown' as const),
                },
              }
            : {}),
          timings: { startedAt, ...(e.headersMs !== undefined ? { headersAt: startedAt + e.headersMs } : {}), endedAt: startedAt + e.durationMs },
        },
      ];
      const info = !e.stream && start && start.operation !== 'card' ? answerInfo(e.body) : undefined;
      if (info?.state && info.taskId && start) out.push(taskState(e.at, laneOf(start), info.taskId, info.state, sourceOf(start.operation)));
      return out;
    }
    case 'sse-frame': {
      const start = starts.get(e.id);
      const lane = start ? laneOf(start) : 'stream';
      const info = answerInfo(e.data);
      const out: RunEvent[] = [
        {
          type: 'sse-event',
          at: e.at,
          exchangeId: e.id,
          lane,
          seq: e.frame,
          ...(e.event ? { event: e.event } : {}),
          data: e.data,
          summary: `${info.kind}${info.state ? ` ${info.state}` : ''}`,
        },
      ];
      if (info.state && info.taskId) out.push(taskState(e.at, lane, info.taskId, info.state, 'stream'));
      return out;
    }
    default:
      return [];
  }
}

const laneOf = (s: TapExchangeStart) => (s.operation === 'card' ? 'card' : s.operation.slice(0, 60) || `${s.method} ${s.url}`.slice(0, 60));
const sourceOf = (operation: string): 'send' | 'get' | 'cancel' | 'subscribe' =>
  /cancel/i.test(operation)
    ? 'cancel'
    : /get|tasks\/\w+$/i.test(operation) && !isSendOperation(operation)
      ? 'get'
      : /subscribe/i.test(operation)
        ? 'subscribe'
        : 'send';
const taskState = (at: number, lane: string, taskId: string, state: TaskState, source: 'send' | 'get' | 'cancel' | 'stream' | 'subscribe'): RunEvent => ({
  type: 'task-state',
  at,
  lane,
  taskId,
  state,
  rawState: state,
  source,
});

/** The events that open and close the timeline's "run" (the tap's life). */
export const tapRunStarted = (tapId: string, agentUrl: string, at: number): RunEvent => ({
  type: 'run-started',
  at,
  runId: `tap-${tapId}`,
  agentUrl,
  options: { timeoutMs: 0, credentials: 'none' },
  tool: { name: 'a2a-interop tap', version: '1' },
});
export const tapRunFinished = (at: number): RunEvent => ({ type: 'run-finished', at, status: 'completed' });

/** Accepts what the events stream sends only when it has the shape of a tap event (kind, seq, exchange id, time). */
export function asTapEvent(v: unknown): TapEvent | undefined {
  if (!isRecord(v)) return undefined;
  if (typeof v.kind !== 'string' || typeof v.seq !== 'number' || typeof v.id !== 'string' || typeof v.at !== 'number') return undefined;
  switch (v.kind) {
    case 'exchange-start':
      return typeof v.operation === 'string' && typeof v.method === 'string' && typeof v.url === 'string' && isRecord(v.headers)
        ? (v as unknown as TapEvent)
        : undefined;
    case 'exchange-end':
      return typeof v.durationMs === 'number' ? (v as unknown as TapEvent) : undefined;
    case 'sse-frame':
      return typeof v.frame === 'number' && typeof v.data === 'string' ? (v as unknown as TapEvent) : undefined;
    case 'finding':
      return isRecord(v.finding) && (v.finding.side === 'client' || v.finding.side === 'agent') && typeof v.finding.message === 'string'
        ? (v as unknown as TapEvent)
        : undefined;
    case 'fault':
      return typeof v.fault === 'string' ? (v as unknown as TapEvent) : undefined;
    case 'target':
      return isRecord(v.target) ? (v as unknown as TapEvent) : undefined;
    default:
      return undefined;
  }
}
