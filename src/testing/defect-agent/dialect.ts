/**
 * Wire shapes per generation: legacy (`type` parts, `sessionId`), v0.2/v0.3 (`kind`, kebab states),
 * v1.0 (ProtoJSON: no discriminator, TASK_STATE_* and ROLE_* enums, StreamResponse wrappers).
 */
import type { IArtifact, IMessage, IPart, IStatus, ITask, State } from './tasks';

export type Generation = 'legacy' | 'v0.2' | 'v0.3' | 'v1.0';
export type Binding = 'JSONRPC' | 'HTTP+JSON';
type Json = Record<string, unknown>;

export interface RenderFlags {
  noTaskId: boolean;
  pendingState: boolean;
  badTimestamps: boolean;
  /** Permitted: timestamps without milliseconds (and with a +00:00 offset before v1.0). */
  plainTimestamps?: boolean;
  /** Permitted (v0.2/v0.3): timestamps without a zone designator, as a2a-python writes them. */
  zonelessTimestamps?: boolean;
  /** Permitted (legacy): timestamps with lowercase t and z (RFC 3339 §5.6). */
  lowercaseTimestamps?: boolean;
  /** Permitted (v1.0): Tasks without contextId (not REQUIRED in the proto). */
  noTaskContext?: boolean;
  /** Permitted: metadata and unknown fields on tasks, messages, artifacts and events. */
  extraFields?: boolean;
  /** Permitted: return fewer history messages than asked. */
  fewerHistory?: boolean;
  /** Id override (task-id-changes). */
  idOverride?: string;
}

const NO_FLAGS: RenderFlags = { noTaskId: false, pendingState: false, badTimestamps: false };

function renderState(gen: Generation, s: State, f: RenderFlags): string {
  const state = f.pendingState && (s === 'submitted' || s === 'working') ? 'pending' : s;
  return gen === 'v1.0' ? `TASK_STATE_${state.toUpperCase().replace(/-/g, '_')}` : state;
}

/** Parses a state filter (ListTasks `status`) back to the neutral state. */
export function parseV1State(s: string): State | undefined {
  const m = /^TASK_STATE_([A-Z_]+)$/.exec(s);
  if (!m) return undefined;
  const st = m[1]!.toLowerCase().replace(/_/g, '-') as State;
  return ['submitted', 'working', 'input-required', 'auth-required', 'completed', 'canceled', 'failed', 'rejected'].includes(st) ? st : undefined;
}

function renderPart(gen: Generation, p: IPart): Json {
  if (gen === 'v1.0') {
    if (p.data !== undefined) return { data: p.data };
    if (p.file) return p.file.uri ? { url: p.file.uri } : { raw: p.file.bytes ?? '' };
    return { text: p.text ?? '' };
  }
  const key = gen === 'legacy' ? 'type' : 'kind';
  if (p.data !== undefined) return { [key]: 'data', data: p.data };
  if (p.file) return { [key]: 'file', file: p.file };
  return { [key]: 'text', text: p.text ?? '' };
}

const EXTRA_META = { 'x-trace-id': 'a2a-interop-test', 'x-vendor': { priority: 1 } };

export function renderMessage(gen: Generation, m: IMessage, f: RenderFlags = NO_FLAGS): Json {
  const parts = m.parts.map((p) => renderPart(gen, p));
  if (f.extraFields) return { ...renderMessage(gen, m, { ...f, extraFields: false }), metadata: EXTRA_META };
  if (gen === 'legacy') return { role: m.role, parts };
  const taskId = f.idOverride ?? m.taskId;
  if (gen === 'v1.0') {
    return {
      messageId: m.messageId,
      ...(m.contextId ? { contextId: m.contextId } : {}),
      ...(taskId ? { taskId } : {}),
      role: m.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT',
      parts,
    };
  }
  return {
    kind: 'message',
    messageId: m.messageId,
    role: m.role,
    parts,
    ...(taskId ? { taskId } : {}),
    ...(m.contextId ? { contextId: m.contextId } : {}),
  };
}

function renderStatus(gen: Generation, s: IStatus, f: RenderFlags): Json {
  const plain = s.timestamp.replace(/\.\d+Z$/, gen === 'v1.0' ? 'Z' : '+00:00');
  const timestamp = f.badTimestamps
    ? new Date(s.timestamp).toString()
    : f.plainTimestamps
      ? plain
      : f.zonelessTimestamps
        ? `${s.timestamp.replace(/Z$/, '')}844`
        : f.lowercaseTimestamps
          ? s.timestamp.toLowerCase()
          : s.timestamp;
  return {
    state: renderState(gen, s.state, f),
    ...(s.message ? { message: renderMessage(gen, s.message, f) } : {}),
    timestamp,
  };
}

function renderArtifact(gen: Generation, a: IArtifact, text = a.text, f: RenderFlags = NO_FLAGS): Json {
  const parts = [renderPart(gen, { text })];
  const extra = f.extraFields ? { metadata: EXTRA_META } : {};
  if (gen === 'legacy') return { name: a.name, parts, index: 0, ...extra };
  return { artifactId: a.artifactId, name: a.name, parts, ...extra };
}

export interface HistoryPolicy {
  /** undefined: not given. */
  historyLength?: number;
  noHistory: boolean;
  ignoreLength: boolean;
  /** Defect history-zero-empty: historyLength 0 gives "history": [] instead of no field. */
  zeroEmpty?: boolean;
  includeArtifacts?: boolean;
  /** Permitted variant history-fewer. */
  fewer?: boolean;
}

/** History per generation: v1.0 §3.2.4 (unset = all, 0 = omit, N = last N); older: N > 0 = last N, else all. */
function selectHistory(gen: Generation, history: IMessage[], p: HistoryPolicy): IMessage[] | undefined {
  if (p.noHistory) return undefined;
  if (p.ignoreLength || p.historyLength === undefined) return history;
  if (p.historyLength <= 0) return gen === 'legacy' ? history : p.zeroEmpty && gen === 'v1.0' ? [] : undefined;
  // Permitted variant history-fewer: at most N, and here one less than the agent has when it could give more.
  if (p.fewer) return history.slice(-p.historyLength).slice(1);
  return history.slice(-p.historyLength);
}

export function renderTask(gen: Generation, t: ITask, f: RenderFlags, p: HistoryPolicy): Json {
  const id = f.idOverride ?? t.id;
  const history = selectHistory(gen, t.history, p);
  const out: Json = {};
  if (gen === 'v0.2' || gen === 'v0.3') out.kind = 'task';
  if (!f.noTaskId) out.id = id;
  if (gen === 'legacy') out.sessionId = t.contextId;
  else if (!f.noTaskContext) out.contextId = t.contextId;
  out.status = renderStatus(gen, t.status, f);
  if (p.includeArtifacts !== false && t.artifacts.length > 0) out.artifacts = t.artifacts.map((a) => renderArtifact(gen, a, a.text, f));
  if (history) out.history = history.map((m) => renderMessage(gen, m, f));
  if (f.extraFields) out.metadata = EXTRA_META;
  return out;
}

export function renderStatusEvent(gen: Generation, t: ITask, s: IStatus, final: boolean | undefined, f: RenderFlags): Json {
  const id = f.idOverride ?? t.id;
  const status = renderStatus(gen, s, f);
  const extra = f.extraFields ? { metadata: EXTRA_META } : {};
  if (gen === 'legacy') return { id, status, ...(final === undefined ? {} : { final }), ...extra };
  if (gen === 'v1.0') return { statusUpdate: { taskId: id, contextId: t.contextId, status, ...extra } };
  return { kind: 'status-update', taskId: id, contextId: t.contextId, status, ...(final === undefined ? {} : { final }), ...extra };
}

export function renderArtifactEvent(gen: Generation, t: ITask, a: IArtifact, chunk: string, append: boolean, lastChunk: boolean, f: RenderFlags): Json {
  const id = f.idOverride ?? t.id;
  if (gen === 'legacy') return { id, artifact: { ...renderArtifact(gen, a, chunk, f), append, lastChunk } };
  const artifact = renderArtifact(gen, a, chunk, f);
  if (gen === 'v1.0') return { artifactUpdate: { taskId: id, contextId: t.contextId, artifact, append, lastChunk } };
  return { kind: 'artifact-update', taskId: id, contextId: t.contextId, artifact, append, lastChunk };
}

/** v0.3 REST wraps stream payloads like the proto's StreamResponse, keeping the JSON-RPC object shapes. */
export function wrapV03Rest(payload: Json): Json {
  switch (payload.kind) {
    case 'task':
      return { task: payload };
    case 'message':
      return { message: payload };
    case 'status-update':
      return { statusUpdate: payload };
    case 'artifact-update':
      return { artifactUpdate: payload };
    default:
      return payload;
  }
}

// ---------------------------------------------------------------- parsing of client messages

export interface ParsedMessage {
  message: IMessage;
  taskId?: string;
  contextId?: string;
}

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses a client message in the generation's shape; returns an error text for -32602 otherwise. */
export function parseMessage(gen: Generation, raw: unknown): ParsedMessage | string {
  if (!isObj(raw)) return 'message must be an object';
  const role = raw.role;
  const okRole = gen === 'v1.0' ? role === 'ROLE_USER' || role === 'ROLE_AGENT' : role === 'user' || role === 'agent';
  if (!okRole) return `message.role is invalid: ${JSON.stringify(role)?.slice(0, 40)}`;
  if (!Array.isArray(raw.parts) || raw.parts.length === 0) return 'message.parts must be a non-empty array';
  const parts: IPart[] = [];
  for (const p of raw.parts as unknown[]) {
    if (!isObj(p)) return 'each part must be an object';
    const kind = gen === 'v1.0' ? undefined : gen === 'legacy' ? p.type : p.kind;
    if (typeof p.text === 'string' && (kind === undefined || kind === 'text')) parts.push({ text: p.text });
    else if ('data' in p && (kind === undefined || kind === 'data')) parts.push({ data: p.data });
    else if (gen !== 'v1.0' && isObj(p.file) && kind === 'file') parts.push({ file: p.file as IPart['file'] & object });
    else if (gen === 'v1.0' && (typeof p.url === 'string' || typeof p.raw === 'string'))
      parts.push({ file: typeof p.url === 'string' ? { uri: p.url } : { bytes: p.raw as string } });
    else return 'a part has no recognised content';
  }
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  if (gen !== 'legacy' && typeof raw.messageId !== 'string') return 'message.messageId is required';
  const messageId = str(raw.messageId) ?? `m-${Math.random().toString(36).slice(2)}`;
  const r = role === 'ROLE_AGENT' || role === 'agent' ? 'agent' : 'user';
  return { message: { messageId, role: r, parts }, taskId: str(raw.taskId), contextId: str(raw.contextId) };
}
