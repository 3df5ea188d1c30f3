/**
 * Judges of a stream, event by event: the findings of one frame alone (streaming.framing), and those of the
 * sequence (first event, one task and context, terminal states that stay, nothing after the final event, artifact
 * chunks). The end of the stream is judged in stream-ending.ts. The streaming checks and the console session call
 * these same functions.
 */
import type { SseIgnoredLine } from '../http/client';
import type { Generation } from '../model/check';
import type { ProtocolError, StreamItem, StreamRun } from '../protocol/dialect';
import { isA2AError } from '../protocol/errors';
import { isTerminal } from '../protocol/states';
import { defined, finding, type Finding } from './finding';
import { terminalChangeFinding, terminalChangesAt } from './rules';
import { BUDGET_ENDS } from './stream-end';
import { streamCloses, streamEnding, type StreamEndFacts } from './stream-ending';

/** Findings of one frame on its own: framing, envelope and payload shape (streaming.framing), error bodies. */
export function frameFindings(g: Generation, it: StreamItem, exchangeId?: string): Finding[] {
  const o = { frame: it.seq, exchangeId };
  return defined([
    ...it.problems.map((p) => finding(g, 'streaming.framing', 'framing', p, { ...o, level: 'MUST' })),
    ...(it.notes ?? []).map((p) => finding(g, 'streaming.framing', 'framing', p, { ...o, level: 'advisory' })),
    ...(it.kind === 'error' ? (it.error?.problems ?? []).map((p) => finding(g, 'errors.shape', 'error-shape', p, { ...o, level: 'MUST' })) : []),
  ]);
}

/**
 * An ignored SSE line that carried content: its data is lost. WHATWG ignores unknown fields and a non-numeric
 * retry, which is legal; but a field name that starts with a byte order mark, with JSON punctuation or white
 * space, or that spells "data" differently, is an event's data that no client will see.
 */
export function lostData(l: SseIgnoredLine): boolean {
  if (l.type !== 'unknown-field') return false;
  return /^[\uFEFF{}[\]"\s,]/.test(l.field) || /data/i.test(l.field);
}

/** Invisible characters that break SSE lines, named (a byte order mark before a field name is the usual one). */
export const visibleLine = (s: string) => s.replace(/\uFEFF/g, '\\uFEFF (a byte order mark)').replace(/\r/g, '\\r');

/** Why lines were lost, in words (the usual causes named). */
function lostCause(lines: SseIgnoredLine[]): string {
  if (lines.some((l) => l.field.startsWith('\uFEFF'))) return 'a byte order mark before a field name (allowed only once, at the very start of the stream)';
  if (lines.some((l) => /^[{}[\]"\s,]/.test(l.field))) {
    return 'continuation lines lack the "data:" prefix (a multi-line JSON value needs "data:" on every line, or one line per event; the v0.2.6/v0.3.0 §9.3 examples show this invalid layout)';
  }
  return 'a misspelled "data" field';
}

/** The stream as a byte stream (streaming.framing): UTF-8, and no line whose content every client drops. */
export function streamFramingFindings(g: Generation, run: StreamRun): Finding[] {
  const x = { exchangeId: run.result.exchangeId, level: 'MUST' as const };
  const lost = run.ignoredLines.filter(lostData);
  const [firstLost] = lost;
  return defined([
    run.result.invalidUtf8
      ? finding(g, 'streaming.framing', 'framing', 'The stream is not valid UTF-8 (SSE streams MUST be UTF-8; clients replace or reject the bytes)', x)
      : undefined,
    firstLost
      ? finding(
          g,
          'streaming.framing',
          'framing',
          `${lost.length}${run.ignoredLineCount >= 20 ? '+' : ''} line(s) are not SSE fields (e.g. ${visibleLine(firstLost.line)}): ${lostCause(lost)}; clients ignore such lines, so their content is lost`,
          x,
        )
      : undefined,
  ]);
}

/** A stream the agent ended without any event (streaming.framing): a task stream carries at least the task. */
export function emptyStreamFinding(g: Generation, run: StreamRun): Finding | undefined {
  if (run.items.length || run.reason === 'error' || BUDGET_ENDS.has(run.reason)) return undefined;
  return finding(
    g,
    'streaming.framing',
    'framing',
    `The stream ended without any event (${run.reason}): a JSON-RPC request MUST get a response, and a task stream carries at least the task.`,
    { exchangeId: run.result.exchangeId, level: 'MUST' },
  );
}

/**
 * The first event of a task stream: v1.0 the Task (SendStreamingMessage §3.1.2: streaming.first-event;
 * SubscribeToTask §3.1.6: streaming.resubscribe). A Message, an error or an unreadable event is judged elsewhere.
 */
export function firstEventFinding(g: Generation, op: 'stream' | 'subscribe', first: StreamItem | undefined, exchangeId?: string): Finding | undefined {
  if (!first || g !== 'v1.0' || first.kind === 'task' || first.kind === 'message' || first.kind === 'error' || first.kind === 'invalid') return undefined;
  const o = { frame: first.seq, exchangeId };
  return op === 'stream'
    ? finding(
        g,
        'streaming.first-event',
        'event-order',
        `The first event is a ${first.kind === 'status' ? 'status update' : 'artifact update'}${first.rawState ? ` (${first.rawState})` : ''}, but a v1.0 task stream MUST begin with the Task object (§3.1.2).`,
        o,
      )
    : finding(
        g,
        'streaming.resubscribe',
        'event-order',
        `SubscribeToTask sent a ${first.kind} first; v1.0 §3.1.6: the operation MUST return a Task object as the first event.`,
        o,
      );
}

const taskOf = (i: StreamItem) => i.taskId ?? i.task?.id;
const ctxOf = (i: StreamItem) => i.contextId ?? i.task?.contextId;

/**
 * One task and one context per stream (streaming.consistency); a subscription carries only its task
 * (streaming.resubscribe). `taskId`: the task subscribed to, or (legacy) the id the client chose, which every event
 * MUST carry (v0.1.0 §7.2.2/§7.2.3); else the first task named.
 */
export function streamIdFindings(g: Generation, op: 'stream' | 'subscribe', items: readonly StreamItem[], taskId?: string, exchangeId?: string): Finding[] {
  const firstTask = taskId ?? items.map(taskOf).find(Boolean);
  const firstCtx = items.map(ctxOf).find(Boolean);
  const out: (Finding | undefined)[] = [];
  for (const it of items) {
    const t = taskOf(it);
    const c = ctxOf(it);
    const o = { frame: it.seq, exchangeId };
    if (t && firstTask && t !== firstTask) {
      out.push(
        op === 'subscribe'
          ? finding(g, 'streaming.resubscribe', 'ids', `The subscription to task ${firstTask} carried an event of another task (${t}).`, o)
          : finding(g, 'streaming.consistency', 'ids', `This event is about task ${t}, the stream about ${firstTask}.`, o),
      );
    } else if (c && firstCtx && c !== firstCtx)
      out.push(finding(g, 'streaming.consistency', 'ids', `This event is in context ${c}, the stream in ${firstCtx}.`, o));
  }
  return defined(out);
}

/** A terminal state does not change (lifecycle.transitions, rule terminal-final), per task, within one stream. */
export function streamTransitionFindings(g: Generation, items: readonly StreamItem[], exchangeId?: string): Finding[] {
  const byTask = new Map<string, StreamItem[]>();
  for (const it of items) if (it.state) byTask.set(taskOf(it) ?? '?', [...(byTask.get(taskOf(it) ?? '?') ?? []), it]);
  const out: (Finding | undefined)[] = [];
  for (const [task, seen] of byTask) {
    const changes = terminalChangesAt(
      seen.map((i) => ({ state: i.state, raw: i.rawState, source: `stream event ${i.seq}` })),
      g,
    );
    for (const c of changes) out.push(terminalChangeFinding(g, [`streamed task ${task}: ${c.text}`], { frame: seen[c.at]!.seq, exchangeId }));
  }
  return defined(out);
}

/** The events after the final one (v1.0 §11.7: one final Task snapshot may follow, `snapshot`): streaming.after-final. */
export function afterFinal(
  g: Generation,
  items: readonly StreamItem[],
  finalIndex: number,
): { final?: StreamItem; after: StreamItem[]; snapshot?: StreamItem } {
  const final = items[finalIndex];
  if (finalIndex < 0 || !final) return { after: [] };
  let after = items.slice(finalIndex + 1);
  const [next] = after;
  if (g === 'v1.0' && final.kind !== 'message' && next?.kind === 'task' && isTerminal(next.state, g)) {
    after = after.slice(1);
    return { final, after, snapshot: next };
  }
  return { final, after };
}

/** The final event in words: `status completed, final: true, event 4`. */
export const finalWords = (final: StreamItem) =>
  `${final.kind}${final.rawState ? ` ${final.rawState}` : ''}${final.final ? ', final: true' : ''}, event ${final.seq}`;

/** One finding per event after the final one (streaming.after-final). */
export function afterFinalFindings(g: Generation, items: readonly StreamItem[], finalIndex: number, exchangeId?: string): Finding[] {
  const { final, after } = afterFinal(g, items, finalIndex);
  if (!final) return [];
  return defined(
    after.map((it) =>
      finding(g, 'streaming.after-final', 'event-order', `This event arrived after the final one (${finalWords(final)}).`, { frame: it.seq, exchangeId }),
    ),
  );
}

/**
 * Artifact chunks that do not reassemble (streaming.artifacts): an append to an artifact never started (a Task
 * event's artifacts count as started), or after its lastChunk. `problem` reads "event 5 appends to artifact a1, …".
 */
export function artifactChunkProblems(items: readonly StreamItem[]): { seq: number; problem: string }[] {
  const seen = new Map<string, { closed: boolean }>();
  const out: { seq: number; problem: string }[] = [];
  for (const it of items) {
    if (it.kind === 'task') {
      for (const a of it.task?.artifacts ?? []) {
        if (typeof a !== 'object' || a === null) continue;
        const r = a as Record<string, unknown>;
        const key = typeof r.artifactId === 'string' ? r.artifactId : String(typeof r.index === 'number' ? r.index : 0);
        if (!seen.has(key)) seen.set(key, { closed: false });
      }
      continue;
    }
    if (it.kind !== 'artifact') continue;
    const key = it.artifact?.id ?? String(it.artifact?.index ?? 0);
    const cur = seen.get(key);
    if (it.artifact?.append) {
      if (!cur) out.push({ seq: it.seq, problem: `event ${it.seq} appends to artifact ${key}, which was never started` });
      else if (cur.closed) out.push({ seq: it.seq, problem: `event ${it.seq} appends to artifact ${key} after its lastChunk` });
    } else seen.set(key, { closed: false });
    if (it.artifact?.lastChunk) seen.set(key, { closed: true });
  }
  return out;
}

export interface StreamJudgement {
  /** Findings that belong to one frame (sequence rules), by seq. */
  byFrame: Map<number, Finding[]>;
  /** Findings about the stream as a whole (end of stream, encoding, lost lines). */
  stream: Finding[];
}

export interface StreamFacts extends StreamEndFacts {
  op: 'stream' | 'subscribe';
  /** The card declares streaming (capabilities.streaming): a refused streaming request is then the agent's fault. */
  streamingDeclared?: boolean;
  /** subscribe: the task subscribed to; legacy send: the task id the client chose. */
  taskId?: string;
}

/**
 * The sequence rules of a stream, as the streaming checks judge them: framing of the whole stream, first event,
 * one task and context, terminal states that stay, nothing after the final event, artifact chunks that reassemble,
 * and the end of the stream (stream-ending.ts).
 */
export function judgeStream(g: Generation, run: StreamRun, f: StreamFacts): StreamJudgement {
  const byFrame = new Map<number, Finding[]>();
  const x = run.result.exchangeId;
  const items = run.items;
  const perFrame = [
    firstEventFinding(g, f.op, items[0], x),
    ...streamIdFindings(g, f.op, items, f.taskId, x),
    ...streamTransitionFindings(g, items, x),
    ...afterFinalFindings(g, items, f.finalIndex, x),
    ...artifactChunkProblems(items).map((p) =>
      finding(g, 'streaming.artifacts', 'event-order', `${p.problem[0]!.toUpperCase()}${p.problem.slice(1)}.`, { frame: p.seq, exchangeId: x }),
    ),
  ];
  for (const fd of defined(perFrame)) byFrame.set(fd.frame!, [...(byFrame.get(fd.frame!) ?? []), fd]);
  const end = streamEnding(g, run, f);
  const o = { exchangeId: x };
  let ending: Finding | undefined;
  if (end.status === 'fail' || end.status === 'advisory')
    ending = finding(g, end.checkId, 'end-of-stream', end.message, {
      ...o,
      frame: end.frame,
      ...(end.status === 'advisory' && { level: 'advisory' as const }),
    });
  else if (end.status === 'broke-off' && !end.ours) ending = finding(g, 'streaming.terminal', 'end-of-stream', end.message, o);
  else if (end.status === 'refused' && f.streamingDeclared && f.op === 'stream')
    ending = streamRefusalFinding(g, 'streaming.terminal', end.item.error, 0, `in the stream (event ${end.item.seq})`, { ...o, frame: end.item.seq });
  const closes = streamCloses(items, f);
  const open = closes.ok === false ? finding(g, 'streaming.closes', 'end-of-stream', closes.message, { ...o, frame: closes.frame }) : undefined;
  return { byFrame, stream: defined([...streamFramingFindings(g, run), emptyStreamFinding(g, run), ending, open]) };
}

/**
 * A streaming method (or a subscription) answered with something that is not an event stream and not an error
 * (streaming.content-type; a subscription: streaming.resubscribe): HTTP 200 with text/event-stream is required.
 */
export function notAStreamFinding(
  g: Generation,
  op: 'stream' | 'subscribe',
  r: Pick<StreamRun['result'], 'status' | 'contentType' | 'exchangeId'>,
): Finding | undefined {
  return finding(
    g,
    op === 'stream' ? 'streaming.content-type' : 'streaming.resubscribe',
    'framing',
    `The ${op === 'stream' ? 'stream endpoint' : 'subscription'} answered HTTP ${r.status} with ${r.contentType ? `Content-Type ${r.contentType}` : 'no Content-Type'}, not an event stream (HTTP 200, text/event-stream).`,
    { exchangeId: r.exchangeId, level: 'MUST' },
  );
}

/** An A2A error in words: its code, status or reason, and its message. */
export const errorText = (e: ProtocolError | undefined) =>
  e
    ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined && x !== '').join(' ')}${e.message ? ` "${e.message}"` : ''}`.trim() || 'no details'
    : 'no details';

/** The sentence of a refused streaming request (`what` the agent did, `where`: "instead of opening a stream", "in the stream (event 4)"). */
export const refusalMessage = (what: string, e: ProtocolError | undefined, httpStatus: number, where: string) =>
  `The agent ${what} ${where} (${errorText(e)}${httpStatus ? `, HTTP ${httpStatus}` : ''}), although the card declares streaming (capabilities.streaming: true), so the streaming method must answer with the task's event stream.`;

/**
 * A streaming request refused by an agent whose card declares streaming, with an error no request of a client can
 * be blamed for: an internal error (JSON-RPC -32603, HTTP 5xx, gRPC INTERNAL) or "no such method" (-32601, HTTP 404
 * or 405 without an A2A error, UNIMPLEMENTED). As an answer instead of a stream: streaming.content-type; as the event
 * that ends the stream: streaming.terminal. A run (whose request is built from the card) also fails other refusals.
 */
export function streamRefusalFinding(
  g: Generation,
  checkId: 'streaming.content-type' | 'streaming.terminal',
  e: ProtocolError | undefined,
  httpStatus: number,
  where: string,
  o: { exchangeId?: string; frame?: number } = {},
): Finding | undefined {
  const answer = { kind: 'error', error: e ? { ...e, httpStatus: e.httpStatus || httpStatus } : { httpStatus } };
  const internal = isA2AError(answer, 'InternalError') || httpStatus >= 500 || e?.status === 'INTERNAL';
  const missing =
    isA2AError(answer, 'MethodNotFound') ||
    e?.status === 'UNIMPLEMENTED' ||
    ((httpStatus === 404 || httpStatus === 405) && e?.code === undefined && !e?.reason);
  if (!internal && !missing) return undefined;
  const what = missing ? 'answered that the streaming method does not exist' : 'refused the streaming request with an error';
  return finding(g, checkId, 'answer', refusalMessage(what, e, httpStatus, where), { ...o, level: 'MUST' });
}
