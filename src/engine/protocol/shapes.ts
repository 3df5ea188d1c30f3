import type { Binding, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { isRecord, typeName } from '../util/json';
import { isWireState, normalizeState, WIRE_STATES } from './states';

/**
 * Shape validation of protocol objects per generation (v0.1.0, v0.2.6 and v0.3.0 §6 with their a2a.json schemas;
 * v1.0.1 §4 and its a2a.proto in ProtoJSON; docs/protocol-notes.md).
 * Each function returns human-readable problems; an empty list means valid.
 * Tolerant by design: they never throw on hostile input.
 */

export interface TaskView {
  id?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  timestamp?: string;
  history?: unknown[];
  artifacts?: unknown[];
  /** status.message, when present: its messageId and text (to see whether a task's status moved on). */
  statusMessageId?: string;
  statusText?: string;
  raw: unknown;
  /** Every finding's text (MUST and weaker), as stream parsing consumes them. */
  problems: string[];
  /** The same findings with the strength of the rule behind each (see ShapeFinding). */
  findings?: ShapeFinding[];
}

/**
 * One shape finding and the strength of the rule behind it in the generation judged:
 * - `MUST`: a REQUIRED field missing or mistyped, an enum misspelled, a v1.0 timestamp that is not UTC "Z";
 * - `advisory`: what the generation describes without requiring (a legacy timestamp that is not RFC 3339 although
 *   the schema's "format" is an optional assertion, a v0.x timestamp that is not ISO 8601 although the schema gives
 *   only a description, a field v1.0 removed, which §5.7 says receivers SHOULD ignore, TASK_STATE_UNSPECIFIED).
 */
export interface ShapeFinding {
  problem: string;
  level: 'MUST' | 'advisory';
}
const must = (problem: string): ShapeFinding => ({ problem, level: 'MUST' });
const weak = (problem: string): ShapeFinding => ({ problem, level: 'advisory' });
const texts = (f: readonly ShapeFinding[]) => f.map((x) => x.problem);

export interface MessageView {
  messageId?: string;
  role?: string;
  taskId?: string;
  contextId?: string;
  text: string;
  raw: unknown;
  problems: string[];
  findings?: ShapeFinding[];
}

/** True when the REST binding of v0.3 is in use: those servers speak the v0.3 proto's JSON (see docs/protocol-notes.md). */
const protoStyle = (g: Generation, b: Binding | undefined) => g === 'v1.0' || (g === 'v0.3' && b === 'HTTP+JSON');

/** v1.0 §5.6.1: ISO 8601 in UTC, "Z" only; the fraction MAY be omitted (any number of digits). */
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** RFC 3339 §5.6 date-time (the legacy schema's "format": "date-time"): "T" and "Z" may be lowercase (§5.6 NOTE). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;
/** ISO 8601 date-time, extended or basic form, reduced precision, "." or "," fraction, zone optional (v0.2/v0.3 §9.3 example has none). */
const ISO8601_EXTENDED = /^(\d{4})-(\d{2})-(\d{2})T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/;
const ISO8601_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,]\d+)?)?)?(?:Z|[+-]\d{2}(?:\d{2})?)?$/;

const inRange = (m: RegExpExecArray): boolean => {
  const [mo, d, h, mi, s] = [m[2], m[3], m[4], m[5], m[6]].map((x) => (x === undefined ? 0 : Number(x)));
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 24 && mi! <= 59 && s! <= 60;
};
const isRfc3339 = (ts: string) => {
  const m = RFC3339.exec(ts);
  return !!m && inRange(m) && (m[7] === undefined || (Number(m[7]) <= 23 && Number(m[8]) <= 59));
};
const isIso8601 = (ts: string) => {
  const m = ISO8601_EXTENDED.exec(ts) ?? ISO8601_BASIC.exec(ts);
  return !!m && inRange(m);
};

/**
 * A status timestamp judged per generation (docs/spec-review/lifecycle.md X7):
 * - v1.0: ISO 8601 UTC ending in "Z" (MUST, §5.6.1; "+00:00" is another offset, so it fails);
 * - v0.2/v0.3: any ISO 8601 date-time, zone optional (the schema only describes it: anything else is an advisory);
 * - legacy: RFC 3339 date-time, case-insensitive "T"/"Z" (format assertion is optional: an advisory).
 * A timestamp that is not a string breaks the schema's type in every generation.
 */
export function timestampFinding(g: Generation, ts: unknown, path: string): ShapeFinding | undefined {
  if (ts === undefined || ts === null) return undefined;
  if (typeof ts !== 'string') return must(`${path} should be an ISO 8601 string, got ${typeName(ts)}`);
  if (g === 'v1.0') {
    return ISO_UTC.test(ts) && !Number.isNaN(Date.parse(ts)) ? undefined : must(`${path} "${ts}" is not an ISO 8601 UTC timestamp ending in Z (v1.0 §5.6.1)`);
  }
  if (g === 'legacy') {
    return isRfc3339(ts) ? undefined : weak(`${path} "${ts}" is not an RFC 3339 date-time (the v0.1.0 schema's "format": "date-time")`);
  }
  return isIso8601(ts) ? undefined : weak(`${path} "${ts}" is not an ISO 8601 date-time`);
}

/** The text of timestampFinding, as stream parsing reads it (a legacy finding keeps the "not an ISO 8601 date-time" wording it recognizes). */
export function timestampProblem(g: Generation, ts: unknown, path: string): string | undefined {
  const f = timestampFinding(g, ts, path);
  if (!f) return undefined;
  return g === 'legacy' && typeof ts === 'string' ? `${path} "${ts}" is not an ISO 8601 date-time` : f.problem;
}

function partFindings(g: Generation, b: Binding | undefined, p: unknown, path: string): ShapeFinding[] {
  if (!isRecord(p)) return [must(`${path} should be an object, got ${typeName(p)}`)];
  const out: ShapeFinding[] = [];
  if (g === 'v1.0') {
    const present = ['text', 'raw', 'url', 'data'].filter((k) => p[k] !== undefined);
    if (present.length !== 1) out.push(must(`${path} must have exactly one of text, raw, url, data (has ${present.join(', ') || 'none'})`));
    // An unrecognized field (§5.7: receivers SHOULD ignore it); no sentence forbids sending it.
    if ('kind' in p) out.push(weak(`${path} has "kind", removed in v1.0 (Appendix A.2.1)`));
    if (p.text !== undefined && typeof p.text !== 'string') out.push(must(`${path}.text should be a string`));
  } else if (g === 'v0.3' && b === 'HTTP+JSON') {
    const present = ['text', 'file', 'data'].filter((k) => p[k] !== undefined);
    if (present.length !== 1 && typeof p.kind !== 'string') out.push(must(`${path} must have one of text, file, data`));
  } else {
    const disc = g === 'legacy' ? 'type' : 'kind';
    const kind = p[disc];
    if (kind !== 'text' && kind !== 'file' && kind !== 'data')
      out.push(must(`${path}.${disc} should be "text", "file" or "data", got ${JSON.stringify(kind)}`));
    if (kind === 'text' && typeof p.text !== 'string') out.push(must(`${path}.text should be a string`));
    if (kind === 'file' && !isRecord(p.file)) out.push(must(`${path}.file should be an object`));
    if (kind === 'data' && !isRecord(p.data)) out.push(must(`${path}.data should be an object`));
  }
  return out;
}

export function messageView(g: Generation, b: Binding | undefined, m: unknown, path = 'message'): MessageView {
  if (!isRecord(m)) {
    const f = [must(`${path} should be an object, got ${typeName(m)}`)];
    return { text: '', raw: m, problems: texts(f), findings: f };
  }
  const findings: ShapeFinding[] = [];
  const role = m.role;
  if (protoStyle(g, b)) {
    if (role !== 'ROLE_USER' && role !== 'ROLE_AGENT') findings.push(must(`${path}.role should be "ROLE_USER" or "ROLE_AGENT", got ${JSON.stringify(role)}`));
  } else if (role !== 'user' && role !== 'agent') {
    findings.push(must(`${path}.role should be "user" or "agent", got ${JSON.stringify(role)}`));
  }
  if (g !== 'legacy' && typeof m.messageId !== 'string') findings.push(must(`${path}.messageId is required`));
  if (g === 'v0.2' || (g === 'v0.3' && b !== 'HTTP+JSON')) {
    if (m.kind !== 'message') findings.push(must(`${path}.kind should be "message", got ${JSON.stringify(m.kind)}`));
  }
  const partsKey = g === 'v0.3' && b === 'HTTP+JSON' && m.parts === undefined ? 'content' : 'parts';
  const parts = m[partsKey];
  let text = '';
  if (!Array.isArray(parts)) findings.push(must(`${path}.parts should be a list`));
  else {
    parts.slice(0, 50).forEach((p, i) => {
      findings.push(...partFindings(g, b, p, `${path}.${partsKey}[${i}]`));
      if (isRecord(p) && typeof p.text === 'string' && text.length < 2000) text += p.text;
    });
  }
  return {
    messageId: typeof m.messageId === 'string' ? m.messageId : undefined,
    role: typeof role === 'string' ? role : undefined,
    taskId: typeof m.taskId === 'string' ? m.taskId : undefined,
    contextId: typeof m.contextId === 'string' ? m.contextId : undefined,
    text,
    raw: m,
    problems: texts(findings),
    findings,
  };
}

export interface StatusShape {
  problems: string[];
  findings: ShapeFinding[];
  state?: TaskState;
  rawState?: string;
  timestamp?: string;
  message?: MessageView;
}

export function statusProblems(g: Generation, b: Binding | undefined, s: unknown, path: string): StatusShape {
  if (!isRecord(s)) {
    const f = [must(`${path} should be an object, got ${typeName(s)}`)];
    return { problems: texts(f), findings: f };
  }
  const findings: ShapeFinding[] = [];
  const problems: string[] = [];
  const add = (f: ShapeFinding, text = f.problem) => {
    findings.push(f);
    problems.push(text);
  };
  const raw = s.state;
  const state = normalizeState(raw);
  const expect: Generation = protoStyle(g, b) ? 'v1.0' : g;
  if (state === undefined) add(must(`${path}.state ${JSON.stringify(raw)} is not a task state`));
  else if (protoStyle(g, b) && raw === 'TASK_STATE_UNSPECIFIED') {
    // A proto enum value ("unknown or indeterminate"); ProtoJSON would even omit it as the zero default.
    add(weak(`${path}.state "TASK_STATE_UNSPECIFIED" is the proto's zero value (unknown or indeterminate), not a state a task reports`));
  } else if (!isWireState(expect, raw) && !(g === 'v0.3' && b === 'HTTP+JSON' && raw === 'TASK_STATE_CANCELLED')) {
    add(must(`${path}.state ${JSON.stringify(raw)} is not spelled as the ${g} ${b ?? ''} schema says (one of ${WIRE_STATES[expect].join(', ')})`));
  }
  const ts = timestampFinding(g, s.timestamp, `${path}.timestamp`);
  if (ts) add(ts, timestampProblem(g, s.timestamp, `${path}.timestamp`));
  let message: MessageView | undefined;
  if (s.message !== undefined && s.message !== null) {
    message = messageView(g, b, s.message, `${path}.message`);
    for (const f of message.findings ?? []) add(f);
  }
  return {
    problems,
    findings,
    state,
    rawState: typeof raw === 'string' ? raw : JSON.stringify(raw),
    timestamp: typeof s.timestamp === 'string' ? s.timestamp : undefined,
    message,
  };
}

export function taskView(g: Generation, b: Binding | undefined, t: unknown, path = 'task'): TaskView {
  if (!isRecord(t)) {
    const f = [must(`${path} should be an object, got ${typeName(t)}`)];
    return { raw: t, problems: texts(f), findings: f };
  }
  const findings: ShapeFinding[] = [];
  const problems: string[] = [];
  const add = (fs: readonly ShapeFinding[], textsOf: readonly string[] = texts(fs)) => {
    findings.push(...fs);
    problems.push(...textsOf);
  };
  if (typeof t.id !== 'string' || !t.id) add([must(`${path}.id is required (a non-empty string)`)]);
  // Task.contextId is REQUIRED in the v0.2/v0.3 JSON schema only: not in the v0.3 proto (REST) nor in v1.0.
  if ((g === 'v0.2' || (g === 'v0.3' && b !== 'HTTP+JSON')) && typeof t.contextId !== 'string') add([must(`${path}.contextId is required`)]);
  if ((g === 'v0.2' || (g === 'v0.3' && b !== 'HTTP+JSON')) && t.kind !== 'task') {
    add([must(`${path}.kind should be "task", got ${JSON.stringify(t.kind)}`)]);
  }
  if (g === 'v1.0' && 'kind' in t) add([weak(`${path} has "kind", removed in v1.0 (Appendix A.2.1)`)]);
  const st = statusProblems(g, b, t.status, `${path}.status`);
  add(st.findings, st.problems);
  let history: unknown[] | undefined;
  if (t.history !== undefined && t.history !== null) {
    if (!Array.isArray(t.history)) add([must(`${path}.history should be a list`)]);
    else {
      history = t.history;
      t.history.slice(0, 20).forEach((m, i) => add(messageView(g, b, m, `${path}.history[${i}]`).findings ?? []));
    }
  }
  let artifacts: unknown[] | undefined;
  if (t.artifacts !== undefined && t.artifacts !== null) {
    if (!Array.isArray(t.artifacts)) add([must(`${path}.artifacts should be a list`)]);
    else {
      artifacts = t.artifacts;
      t.artifacts.slice(0, 20).forEach((a, i) => add(artifactFindings(g, b, a, `${path}.artifacts[${i}]`)));
    }
  }
  return {
    id: typeof t.id === 'string' ? t.id : undefined,
    contextId: typeof t.contextId === 'string' ? t.contextId : typeof t.sessionId === 'string' ? t.sessionId : undefined,
    state: st.state,
    rawState: st.rawState,
    timestamp: st.timestamp,
    history,
    artifacts,
    statusMessageId: st.message?.messageId,
    statusText: st.message?.text,
    raw: t,
    problems,
    findings,
  };
}

export function artifactFindings(g: Generation, b: Binding | undefined, a: unknown, path: string): ShapeFinding[] {
  if (!isRecord(a)) return [must(`${path} should be an object, got ${typeName(a)}`)];
  const out: ShapeFinding[] = [];
  if (g !== 'legacy' && typeof a.artifactId !== 'string') out.push(must(`${path}.artifactId is required`));
  const partsKey = g === 'v0.3' && b === 'HTTP+JSON' && a.parts === undefined ? 'content' : 'parts';
  const parts = a[partsKey];
  if (!Array.isArray(parts)) out.push(must(`${path}.parts should be a list`));
  else parts.slice(0, 20).forEach((p, i) => out.push(...partFindings(g, b, p, `${path}.${partsKey}[${i}]`)));
  return out;
}

export * from './envelopes';
