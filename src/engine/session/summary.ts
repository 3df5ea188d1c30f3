/**
 * What a session call returns, shaped for a reader: exchanges folded from the engine's events, tasks, messages
 * and frames summarized, everything that came from the agent bounded and redacted. Pure.
 */
import type { Generation } from '../model/check';
import type { RunEvent } from '../model/events';
import type { ProtocolError, StreamItem } from '../protocol/dialect';
import type { MessageView, TaskView } from '../protocol/shapes';
import type { Redactor } from '../redact';
import { boundedClone, isRecord, truncate } from '../util/json';
import { frameFindings } from '../judges';
import type { MessageSummary, SessionExchange, SessionFinding, SessionFrame, StreamSummary, TaskSummary } from './types';

/** The engine's exchange events folded into one record per exchange. */
export function exchangesOf(events: readonly RunEvent[]): SessionExchange[] {
  const byId = new Map<string, SessionExchange>();
  for (const e of events) {
    if (e.type === 'http-request') byId.set(e.exchangeId, { exchangeId: e.exchangeId, request: e.request, sseEvents: 0 });
    else if (e.type === 'http-response') {
      const x = byId.get(e.exchangeId);
      if (x) Object.assign(x, { response: e.response, error: e.error, timings: e.timings });
    } else if (e.type === 'sse-event') {
      const x = byId.get(e.exchangeId);
      if (x) x.sseEvents++;
    }
  }
  return [...byId.values()];
}

/** One SSE event as a frame: parsed, redacted, with the findings about it alone (sequence findings come later). */
export function frameOf(g: Generation, it: StreamItem, t0: number, exchangeId: string | undefined, r: Redactor): SessionFrame {
  const f: SessionFrame = {
    seq: it.seq,
    ms: Math.max(0, it.at - t0),
    event: it.event,
    data: r.text(it.data),
    kind: it.kind,
    taskId: it.taskId ?? it.task?.id,
    contextId: it.contextId ?? it.task?.contextId,
    state: it.state,
    rawState: it.rawState,
    final: it.final,
    artifact: it.artifact ? { ...it.artifact, text: r.text(it.artifact.text) } : undefined,
    error: it.error ? redactError(it.error, r) : undefined,
    findings: frameFindings(g, it, exchangeId),
  };
  for (const fd of f.findings) fd.message = r.text(fd.message);
  return f;
}

/** A task as a reader needs it first; `raw` bounded and redacted. */
export function taskSummary(t: TaskView, r: Redactor): TaskSummary {
  return {
    id: t.id,
    contextId: t.contextId,
    state: t.state,
    rawState: t.rawState,
    timestamp: t.timestamp,
    statusText: t.statusText === undefined ? undefined : r.text(truncate(t.statusText, 4_000)),
    artifacts: (t.artifacts ?? []).slice(0, 20).map((a) => artifactSummary(a, r)),
    historyLength: t.history?.length,
    raw: redactDeep(boundedClone(t.raw, { maxDepth: 12, maxNodes: 3_000, maxString: 4_000 }), r),
  };
}

export function messageSummary(m: MessageView, r: Redactor): MessageSummary {
  return {
    messageId: m.messageId,
    role: m.role,
    taskId: m.taskId,
    contextId: m.contextId,
    text: r.text(truncate(m.text, 8_000)),
    raw: redactDeep(boundedClone(m.raw, { maxDepth: 12, maxNodes: 2_000, maxString: 4_000 }), r),
  };
}

/** The task a stream was about: its last Task event, with the later states and artifact chunks folded in. */
export function streamTask(items: readonly StreamItem[], taskId: string | undefined, r: Redactor): TaskSummary | undefined {
  if (!taskId) return undefined;
  const lastTask = [...items].reverse().find((i) => i.kind === 'task' && i.task)?.task;
  // The Task event's raw body is one moment of the stream (its first state, usually): the frames carry them all.
  const summary: TaskSummary = lastTask
    ? { ...taskSummary(lastTask, r), raw: undefined, historyLength: undefined }
    : { id: taskId, artifacts: [], raw: undefined };
  const stated = [...items].reverse().find((i) => (i.kind === 'task' || i.kind === 'status') && i.state);
  if (stated) {
    summary.state = stated.state;
    summary.rawState = stated.rawState;
  }
  // Artifact chunks: appended by id (or index), in order.
  const arts = new Map<string, TaskSummary['artifacts'][number]>();
  for (const a of summary.artifacts) arts.set(a.artifactId ?? String(arts.size), a);
  for (const it of items) {
    if (it.kind !== 'artifact' || !it.artifact) continue;
    const key = it.artifact.id ?? String(it.artifact.index ?? 0);
    const cur = arts.get(key);
    if (cur && it.artifact.append) {
      cur.text = truncate(cur.text + r.text(it.artifact.text), 8_000);
      cur.parts += it.artifact.parts;
    } else arts.set(key, { artifactId: it.artifact.id, text: r.text(it.artifact.text), parts: it.artifact.parts });
  }
  summary.artifacts = [...arts.values()].slice(0, 20);
  if (summary.state && !summary.rawState) summary.rawState = summary.state;
  return summary;
}

export function redactError(e: ProtocolError, r: Redactor): ProtocolError {
  return { ...e, message: r.text(truncate(e.message, 2_000)), problems: e.problems.map((p) => r.text(p)) };
}

function artifactSummary(a: unknown, r: Redactor): TaskSummary['artifacts'][number] {
  if (!isRecord(a)) return { text: '', parts: 0 };
  const parts = Array.isArray(a.parts) ? a.parts : Array.isArray(a.content) ? a.content : [];
  let text = '';
  for (const p of parts.slice(0, 50)) if (isRecord(p) && typeof p.text === 'string') text += p.text;
  return {
    artifactId: typeof a.artifactId === 'string' ? a.artifactId : undefined,
    name: typeof a.name === 'string' ? r.text(truncate(a.name, 200)) : undefined,
    text: r.text(truncate(text, 8_000)),
    parts: parts.length,
  };
}

/** Masks secrets in every string of a bounded value (already depth-capped by boundedClone). */
export function redactDeep(v: unknown, r: Redactor): unknown {
  if (typeof v === 'string') return r.text(v);
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, r));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[r.text(k)] = redactDeep(x, r);
    return out;
  }
  return v;
}

export const errorText = (e: ProtocolError | undefined) =>
  e
    ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined && x !== '').join(' ')}${e.message ? ` "${truncate(e.message, 200)}"` : ''}`.trim() ||
      'no details'
    : 'no details';

export function countText(findings: readonly SessionFinding[]): string {
  if (!findings.length) return 'no findings';
  const required = findings.filter((f) => f.level !== 'advisory').length;
  return `${findings.length} finding(s): ${required} required, ${findings.length - required} advisory`;
}

export function streamEndText(end: StreamSummary['end'], budgetMs: number, graceMs: number): string {
  switch (end) {
    case 'closed':
      return 'closed by the agent';
    case 'grace':
      return `still open ${graceMs} ms after its last awaited event (we stopped reading)`;
    case 'timeout':
      return `still open when our ${budgetMs} ms budget ended`;
    case 'idle':
      return 'silent for too long (we stopped reading)';
    case 'limit':
      return 'too many events (we stopped reading)';
    case 'oversize':
      return 'an event over our size limit (we stopped reading)';
    case 'error':
      return 'broke off';
    case 'stopped':
      return 'stopped by you';
    default:
      return end;
  }
}
