import type { HttpResult, SseMessage, StreamOutcome } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { isRecord, safeJsonParse, truncate, typeName } from '../util/json';
import { isA2ASpecificCode } from './errors';
import { OPERATIONS, type Operation } from './operations';
import {
  artifactFindings,
  depthProblem,
  jsonRpcEnvelope,
  messageView,
  restErrorBody,
  statusProblems,
  taskView,
  v1ErrorDataProblems,
  type MessageView,
  type ShapeFinding,
  type TaskView,
} from './shapes';

/**
 * Pure parsing of agent answers into TaskView / MessageView / ProtocolError, one generation and binding at a time,
 * validating shapes along the way (shapes.ts). Never throws. The Dialect (dialect.ts) calls these for its requests;
 * checks and sessions may call them on exchanges they made themselves.
 */

/** Who is being read: the generation and binding spoken, and the binding whose object shapes the answers take. */
export interface Speaker {
  generation: Generation;
  binding: Binding;
  /** v0.3 HTTP+JSON in the JSON-RPC object style answers in JSON-RPC shapes (see Dialect.shapeBinding). */
  shapeBinding: Binding;
}

/** An error answer from the agent, in one shape for both bindings. */
export interface ProtocolError {
  /** JSON-RPC error code (JSON-RPC binding). */
  code?: number;
  httpStatus: number;
  /** google.rpc.Status `status` (REST binding), e.g. NOT_FOUND. */
  status?: string;
  /** google.rpc.ErrorInfo reason, e.g. TASK_NOT_FOUND. */
  reason?: string;
  message: string;
  /** Problems with the error's shape for the binding/generation. */
  problems: string[];
  /** The binding whose error this is (errors.ts reads codes, reasons and statuses by it). */
  binding?: Binding;
}

export type CallOutcome =
  | { kind: 'task'; task: TaskView; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'message'; message: MessageView; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'ok'; value: unknown; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'error'; error: ProtocolError; http: HttpResult; envelopeProblems: string[] }
  /** The agent answered, but not with anything this operation can return. */
  | { kind: 'invalid'; reason: string; http: HttpResult; envelopeProblems: string[] }
  /** No answer (see http.error). */
  | { kind: 'transport'; http: HttpResult; envelopeProblems: string[] };

export interface StreamItem {
  seq: number;
  at: number;
  event?: string;
  data: string;
  kind: 'task' | 'message' | 'status' | 'artifact' | 'error' | 'invalid';
  task?: TaskView;
  message?: MessageView;
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  /** Pre-1.0 status events carry `final`. */
  final?: boolean;
  artifact?: { id?: string; index?: number; append?: boolean; lastChunk?: boolean; text: string; parts: number };
  error?: ProtocolError;
  /** Envelope and payload problems for this event (what the generation requires). */
  problems: string[];
  /**
   * Findings the generation does not require (shapes.ts findings of level advisory): e.g. fields v1.0 removed
   * (§5.7: receivers SHOULD ignore unrecognized fields), timestamp forms the v0.x schemas only describe. Never a
   * framing failure.
   */
  notes?: string[];
}

/** A stream's outcome with its events read. */
export interface StreamRun extends StreamOutcome {
  items: StreamItem[];
}

/**
 * Interprets one SSE event of this generation/binding. `problems` are what the generation requires (envelope,
 * required fields, spelling); `notes` what it only describes (shapes.ts findings of level advisory, e.g. a field
 * v1.0 removed, which §5.7 says receivers SHOULD ignore): never a framing failure.
 */
/** U+001E, the record separator of RFC 7464 JSON text sequences. */
const RS = String.fromCharCode(0x1e);
/** The data with the U+001E record separators (and whitespace) before its JSON removed; undefined when it has none. */
function withoutRecordSeparators(data: string): string | undefined {
  const t = data.trimStart();
  if (!t.startsWith(RS)) return undefined;
  let i = 0;
  while (i < t.length && (t[i] === RS || /\s/.test(t[i]!))) i++;
  return t.slice(i);
}

export function parseStreamEvent(s: Speaker, m: SseMessage, rpcId: string | number | undefined): StreamItem {
  const base = { seq: m.seq, at: m.at, event: m.event, data: truncate(m.data, 4000) };
  let parsed = safeJsonParse(m.data);
  const problems: string[] = [];
  const stripped = parsed.ok ? undefined : withoutRecordSeparators(m.data);
  if (stripped !== undefined) {
    // Tolerant parsing, strict judging: a U+001E (RFC 7464 JSON text sequence) record separator before the JSON is
    // not part of SSE (WHATWG strips only a leading BOM of the stream), so the data is not JSON: one framing problem
    // of this event. The JSON after it is still read, so that the rest of the stream (its states, its end) is judged
    // on what the agent meant, not as a stream that never said anything (judged once, by streaming.framing).
    const rest = safeJsonParse(stripped);
    if (rest.ok) {
      problems.push(
        'data is not JSON: it starts with U+001E (the RFC 7464 record separator of JSON text sequences), which is not part of SSE framing; send the JSON alone after "data: "',
      );
      parsed = rest;
    }
  }
  if (!parsed.ok) return { ...base, kind: 'invalid', problems: [`data is not JSON: ${parsed.error}`] };
  let payload: unknown = parsed.value;
  if (s.binding !== 'HTTP+JSON') {
    const env = jsonRpcEnvelope(parsed.value, rpcId ?? null);
    if (isRecord(parsed.value) && !env.hasResult && !env.hasError && !('jsonrpc' in parsed.value) && looksLikePayload(parsed.value)) {
      // Tolerant parsing, strict judging: read the bare payload, but record the framing violation.
      return {
        ...base,
        ...classifyStreamPayload(s, parsed.value, ['the event is a bare payload, not a JSON-RPC response {"jsonrpc":"2.0","id":…,"result":…}']),
      };
    }
    problems.push(...env.problems);
    if (!isRecord(parsed.value) || (!env.hasResult && !env.hasError)) {
      return { ...base, kind: 'invalid', problems: problems.length ? problems : ['not a JSON-RPC response'] };
    }
    if (env.hasError && env.error) {
      return { ...base, kind: 'error', error: rpcError(s.generation, env.error, 200), problems };
    }
    payload = env.result;
  } else if (isRecord(payload) && isRecord(payload.error)) {
    const e = restErrorBody(payload, typeof payload.error.code === 'number' ? payload.error.code : 500);
    return {
      ...base,
      kind: 'error',
      error: { httpStatus: e.code ?? 0, status: e.status, reason: e.reason, message: e.message ?? '', problems: e.problems, binding: 'HTTP+JSON' },
      problems,
    };
  }
  return { ...base, ...classifyStreamPayload(s, payload, problems) };
}

function classifyStreamPayload(s: Speaker, p: unknown, problems: string[]): Omit<StreamItem, 'seq' | 'at' | 'event' | 'data'> {
  const g = s.generation;
  const b = s.shapeBinding;
  if (!isRecord(p)) return { kind: 'invalid', problems: [...problems, `event payload should be an object, got ${typeName(p)}`] };
  if (g === 'v1.0' || (g === 'v0.3' && s.binding === 'HTTP+JSON')) {
    // StreamResponse oneof: {task | message | statusUpdate | artifactUpdate}
    const keys = ['task', 'message', 'statusUpdate', 'artifactUpdate'].filter((k) => p[k] !== undefined);
    if (keys.length !== 1) {
      if (g === 'v0.3' && typeof p.kind === 'string') return classifyKind(s, p, problems);
      return {
        kind: 'invalid',
        problems: [...problems, `a StreamResponse must hold exactly one of task, message, statusUpdate, artifactUpdate (has ${keys.join(', ') || 'none'})`],
      };
    }
    const k = keys[0]!;
    if (k === 'task') {
      const task = taskView(g, b, p.task);
      return {
        kind: 'task',
        task,
        taskId: task.id,
        contextId: task.contextId,
        state: task.state,
        rawState: task.rawState,
        ...judged(problems, task.findings, task.problems),
      };
    }
    if (k === 'message') {
      const message = messageView(g, b, p.message);
      return { kind: 'message', message, ...judged(problems, message.findings, message.problems) };
    }
    const ev = p[k] as unknown;
    if (!isRecord(ev)) return { kind: 'invalid', problems: [...problems, `${k} should be an object`] };
    const idProblems = typeof ev.taskId === 'string' ? [] : [`${k}.taskId is required`];
    if (k === 'statusUpdate') {
      const st = statusProblems(g, b, ev.status, 'statusUpdate.status');
      const removed: ShapeFinding[] =
        g === 'v1.0' && 'final' in ev ? [{ problem: 'statusUpdate.final was removed in v1.0 (closing the stream signals completion)', level: 'advisory' }] : [];
      return {
        kind: 'status',
        taskId: str(ev.taskId),
        contextId: str(ev.contextId),
        state: st.state,
        rawState: st.rawState,
        final: ev.final === true,
        ...judged([...problems, ...idProblems], [...st.findings, ...removed], st.problems),
      };
    }
    return {
      kind: 'artifact',
      taskId: str(ev.taskId),
      contextId: str(ev.contextId),
      artifact: artifactOf(ev),
      ...judged([...problems, ...idProblems], artifactFindings(g, b, ev.artifact, 'artifactUpdate.artifact'), []),
    };
  }
  if (g === 'legacy') {
    if ('artifact' in p) {
      return { kind: 'artifact', taskId: str(p.id), artifact: artifactOf(p), ...judged(problems, artifactFindings(g, b, p.artifact, 'artifact'), []) };
    }
    if ('status' in p) {
      const st = statusProblems(g, b, p.status, 'status');
      const idp = typeof p.id === 'string' ? [] : ['status event id (the task id) is required'];
      return {
        kind: 'status',
        taskId: str(p.id),
        state: st.state,
        rawState: st.rawState,
        final: p.final === true,
        ...judged([...problems, ...idp], st.findings, st.problems),
      };
    }
    return { kind: 'invalid', problems: [...problems, 'legacy stream events carry either "status" or "artifact"'] };
  }
  return classifyKind(s, p, problems);
}

function classifyKind(s: Speaker, p: Record<string, unknown>, problems: string[]): Omit<StreamItem, 'seq' | 'at' | 'event' | 'data'> {
  const g = s.generation;
  const b = s.shapeBinding;
  switch (p.kind) {
    case 'task': {
      const task = taskView(g, b, p);
      return {
        kind: 'task',
        task,
        taskId: task.id,
        contextId: task.contextId,
        state: task.state,
        rawState: task.rawState,
        ...judged(problems, task.findings, task.problems),
      };
    }
    case 'message': {
      const message = messageView(g, b, p);
      return { kind: 'message', message, ...judged(problems, message.findings, message.problems) };
    }
    case 'status-update': {
      const st = statusProblems(g, b, p.status, 'status');
      const extra: string[] = [];
      if (typeof p.taskId !== 'string') extra.push('taskId is required');
      if (typeof p.contextId !== 'string') extra.push('contextId is required');
      if (typeof p.final !== 'boolean') extra.push('"final" is required on status-update events before v1.0');
      return {
        kind: 'status',
        taskId: str(p.taskId),
        contextId: str(p.contextId),
        state: st.state,
        rawState: st.rawState,
        final: p.final === true,
        ...judged([...problems, ...extra], st.findings, st.problems),
      };
    }
    case 'artifact-update':
      return {
        kind: 'artifact',
        taskId: str(p.taskId),
        contextId: str(p.contextId),
        artifact: artifactOf(p),
        ...judged(problems, artifactFindings(g, b, p.artifact, 'artifact'), []),
      };
    default:
      return {
        kind: 'invalid',
        problems: [...problems, `unknown event kind ${JSON.stringify(p.kind)} (expected task, message, status-update, artifact-update)`],
      };
  }
}

export function rpcError(g: Generation, e: { code: unknown; message: unknown; data?: unknown }, httpStatus: number): ProtocolError {
  const problems: string[] = [];
  if (g === 'v1.0' && typeof e.code === 'number' && isA2ASpecificCode(e.code)) {
    problems.push(...v1ErrorDataProblems(e.data));
  }
  let reason: string | undefined;
  if (Array.isArray(e.data)) {
    const info = e.data.find((d) => isRecord(d) && typeof d.reason === 'string');
    if (isRecord(info)) reason = String(info.reason);
  }
  return {
    code: typeof e.code === 'number' ? e.code : undefined,
    httpStatus,
    message: typeof e.message === 'string' ? e.message : '',
    problems,
    reason,
    binding: 'JSONRPC',
  };
}

/** Parses a JSON-RPC answer of `op`. */
export function parseRpc(s: Speaker, http: HttpResult, rpcId: string | number, op: Operation): CallOutcome {
  // A body cut by a reset or a stall is a transport failure, not a "not JSON" answer.
  if (!http.responded || http.error) return { kind: 'transport', http, envelopeProblems: [] };
  const parsed = http.json();
  if (!parsed.ok) {
    return {
      kind: 'invalid',
      reason: `HTTP ${http.status}, body is not JSON (${http.contentType || 'no content type'}): ${parsed.error}`,
      http,
      envelopeProblems: [],
    };
  }
  const env = jsonRpcEnvelope(parsed.value, rpcId);
  const deep = depthProblem(http.text);
  if (deep) env.problems.push(deep);
  if (env.hasError && env.error) {
    return { kind: 'error', error: rpcError(s.generation, env.error, http.status), http, envelopeProblems: env.problems };
  }
  if (!env.hasResult) return { kind: 'invalid', reason: env.problems.join('; ') || 'no result', http, envelopeProblems: env.problems };
  return classifyResult(s, env.result, op, http, env.problems);
}

/** Parses a REST answer of `op`. */
export function parseRest(s: Speaker, http: HttpResult, op: Operation): CallOutcome {
  if (!http.responded || http.error) return { kind: 'transport', http, envelopeProblems: [] };
  const parsed = http.json();
  if (http.status >= 400) {
    const body = parsed.ok ? parsed.value : undefined;
    if (s.generation === 'v1.0') {
      const e = restErrorBody(body, http.status);
      return {
        kind: 'error',
        error: {
          httpStatus: http.status,
          status: e.status,
          reason: e.reason,
          message: e.message ?? truncate(http.text, 200),
          problems: e.problems,
          binding: 'HTTP+JSON',
        },
        http,
        envelopeProblems: [],
      };
    }
    const msg = isRecord(body) ? String((isRecord(body.error) ? body.error.message : body.message) ?? '') : truncate(http.text, 200);
    return { kind: 'error', error: { httpStatus: http.status, message: msg, problems: [], binding: 'HTTP+JSON' }, http, envelopeProblems: [] };
  }
  if (!parsed.ok) return { kind: 'invalid', reason: `HTTP ${http.status}, body is not JSON: ${parsed.error}`, http, envelopeProblems: [] };
  const deep = depthProblem(http.text);
  return classifyResult(s, parsed.value, op, http, deep ? [deep] : []);
}

function classifyResult(s: Speaker, result: unknown, op: Operation, http: HttpResult, envelopeProblems: string[]): CallOutcome {
  const g = s.generation;
  const b = s.shapeBinding;
  if (OPERATIONS[op].result === 'value') return { kind: 'ok', value: result, http, envelopeProblems };
  if (op === 'send' && (g === 'v1.0' || (g === 'v0.3' && s.binding === 'HTTP+JSON'))) {
    if (isRecord(result) && result.task !== undefined) return { kind: 'task', task: taskView(g, b, result.task), http, envelopeProblems };
    if (isRecord(result) && result.message !== undefined) return { kind: 'message', message: messageView(g, b, result.message), http, envelopeProblems };
    if (g === 'v0.3' && isRecord(result) && (result.kind === 'task' || result.kind === 'message')) {
      return result.kind === 'task'
        ? { kind: 'task', task: taskView(g, b, result), http, envelopeProblems }
        : { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
    }
    return { kind: 'invalid', reason: `SendMessage must return {"task": …} or {"message": …}, got ${describeKeys(result)}`, http, envelopeProblems };
  }
  if (op === 'send' && g !== 'legacy') {
    if (isRecord(result) && result.kind === 'message') return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
    if (isRecord(result) && (result.kind === 'task' || (result.id !== undefined && result.status !== undefined))) {
      return { kind: 'task', task: taskView(g, b, result), http, envelopeProblems };
    }
    if (isRecord(result) && result.role !== undefined && result.parts !== undefined) {
      return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
    }
    return { kind: 'invalid', reason: `message/send must return a Task or a Message, got ${describeKeys(result)}`, http, envelopeProblems };
  }
  if (isRecord(result) && result.status !== undefined) return { kind: 'task', task: taskView(g, b, result), http, envelopeProblems };
  if (op === 'send' && isRecord(result) && result.role !== undefined) {
    return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
  }
  return { kind: 'invalid', reason: `expected a Task, got ${describeKeys(result)}`, http, envelopeProblems };
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * An event's problems (what the generation requires: the envelope's and the MUST shape findings) and notes (the
 * advisory shape findings). Without structured findings every text counts as a problem.
 */
function judged(own: string[], findings: readonly ShapeFinding[] | undefined, texts: readonly string[]): { problems: string[]; notes?: string[] } {
  if (!findings) return { problems: [...own, ...texts] };
  const notes = findings.filter((f) => f.level !== 'MUST').map((f) => f.problem);
  const problems = [...own, ...findings.filter((f) => f.level === 'MUST').map((f) => f.problem)];
  return notes.length ? { problems, notes } : { problems };
}

const looksLikePayload = (v: Record<string, unknown>) =>
  typeof v.kind === 'string' || ['task', 'message', 'statusUpdate', 'artifactUpdate', 'status', 'artifact'].some((k) => k in v);

function describeKeys(v: unknown): string {
  if (!isRecord(v)) return typeName(v);
  const keys = Object.keys(v).slice(0, 8);
  return `an object with ${keys.length ? keys.join(', ') : 'no fields'}`;
}

function artifactOf(ev: Record<string, unknown>): StreamItem['artifact'] {
  const a = isRecord(ev.artifact) ? ev.artifact : {};
  const parts = Array.isArray(a.parts) ? a.parts : Array.isArray(a.content) ? a.content : [];
  let text = '';
  for (const p of parts.slice(0, 50)) if (isRecord(p) && typeof p.text === 'string') text += p.text;
  return {
    id: typeof a.artifactId === 'string' ? a.artifactId : undefined,
    index: typeof a.index === 'number' ? a.index : undefined,
    append: (ev.append ?? a.append) === true,
    lastChunk: (ev.lastChunk ?? a.lastChunk) === true,
    text: truncate(text, 4000),
    parts: parts.length,
  };
}
