/**
 * Reading one stream of a session (a streaming send, a subscription, a re-sent streaming request) as the suite's
 * stream fixture reads it, then judging it with the judges of streams (src/engine/judges), frame by frame.
 */
import type { HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { RunEvent, TaskState } from '../model/events';
import type { Host } from '../ports';
import type { CallOutcome, Dialect, StreamItem, StreamRun } from '../protocol/dialect';
import type { Redactor } from '../redact';
import { isRecord } from '../util/json';
import { BUDGET_ENDS, CLOSE_GRACE_MS, judgeStream, notAStreamFinding, outcomeFindings, streamEnds, streamRefusalFinding } from '../judges';
import { countText, errorText, exchangesOf, frameOf, messageSummary, redactError, streamEndText, streamTask } from './summary';
import type { CallOptions, SessionFinding, SessionFrame, SessionOperation, SessionResult, StreamSummary } from './types';

/** How long we keep reading after the event that ends a stream, waiting for the agent to close it: the suite's. */
export { CLOSE_GRACE_MS } from '../judges';

/** One call of a session: its HTTP context (events collected, signals combined), lane, start and budget. */
export interface CallScope {
  ctx: HttpContext;
  events: RunEvent[];
  lane: string;
  started: number;
  timeoutMs: number;
  /** The exchange the latest request opened (a stream's frames belong to it). */
  lastExchange(): string | undefined;
}

/** What reading a stream needs from its session. */
export interface StreamHost {
  generation: Generation;
  binding: Binding;
  dialect: Dialect;
  /** The card declares streaming (capabilities.streaming). */
  streamingDeclared: boolean;
  redactor: Redactor;
  host: Host;
  describe(op: SessionOperation, id?: string): string;
  finish(s: CallScope, op: SessionOperation, method: string, res: CallOutcome, findings: SessionFinding[]): SessionResult;
  observe(taskId: string, state: TaskState, rawState: string, source: string, exchangeId: string, frame?: number): SessionFinding | undefined;
  /** Emits the task-state event of a state seen in the stream (the call's op as its source). */
  emitState(s: CallScope, op: 'stream' | 'subscribe', taskId: string, state: TaskState, rawState: string): void;
}

/** Reads a stream like the suite's stream fixture: stop a grace period after the event that ends it, unless it closes. */
export async function readStream(
  h: StreamHost,
  s: CallScope,
  op: 'stream' | 'subscribe',
  o: CallOptions,
  open: (stop: AbortSignal, onItem: (it: StreamItem) => void) => Promise<StreamRun>,
  subscribedTaskId?: string,
  /** Legacy sends: the task id the client chose (TaskSendParams.id), which every event MUST carry. */
  sentTaskId?: string,
): Promise<SessionResult> {
  const g = h.generation;
  const host = h.host;
  const stop = new AbortController();
  const ends = streamEnds(g);
  let grace: AbortController | undefined;
  const startGrace = () => {
    grace?.abort();
    const mine = new AbortController();
    grace = mine;
    host.sleep(CLOSE_GRACE_MS, AbortSignal.any([mine.signal, s.ctx.signal])).then(
      () => stop.abort(),
      () => undefined,
    );
  };
  const frames: SessionFrame[] = [];
  const seenHere = new Set<string>();
  const crossCall = new Map<number, SessionFinding>();
  const run = await open(stop.signal, (it) => {
    if (ends.see(it)) startGrace();
    // The task's state goes into the session's memory when the event arrives, not when the stream ends: a cancel
    // answered while this stream is read is judged after the events that came before it, never before.
    const id = it.taskId ?? it.task?.id;
    if (id && it.state && it.rawState !== undefined) {
      h.emitState(s, op, id, it.state, it.rawState);
      const t = h.observe(id, it.state, it.rawState, `${op} event ${it.seq}`, s.lastExchange() ?? '', it.seq);
      if (t && !seenHere.has(id)) crossCall.set(it.seq, t);
      seenHere.add(id);
    }
    const f = frameOf(g, it, s.started, s.lastExchange(), h.redactor);
    frames.push(f);
    try {
      o.onFrame?.(f);
    } catch {
      /* a failing consumer must not break the stream */
    }
  });
  grace?.abort();
  const items = run.items;
  const taskId = subscribedTaskId ?? sentTaskId ?? items.map((i) => i.taskId ?? i.task?.id).find(Boolean);
  let readBack: CallOutcome | undefined;
  if (ends.endIndex < 0 && BUDGET_ENDS.has(run.reason) && taskId && !s.ctx.signal.aborted) {
    // Our budget ended the stream: did the task finish without the stream saying so (the agent's fault)?
    readBack = await h.dialect.get(s.ctx, { id: taskId, lane: s.lane, timeoutMs: Math.min(s.timeoutMs, 10_000) });
  }
  const method = h.describe(op, subscribedTaskId);
  const r = run.result;
  if (run.reason === 'not-stream' || !r.responded) {
    // No stream: read the answer as the operation's (an error, usually), as streaming.content-type does.
    const d = h.dialect;
    const body = r.json();
    const bodyId = body.ok && isRecord(body.value) ? body.value.id : undefined;
    const answer: CallOutcome = !r.responded
      ? { kind: 'transport', http: r, envelopeProblems: [] }
      : d.isRest
        ? d.parseRest(r, 'send')
        : d.parseRpc(r, typeof bodyId === 'string' ? bodyId : String(bodyId ?? ''), 'send');
    const findings = answer.kind === 'transport' ? outcomeFindings(g, op, answer) : outcomeFindings(g, op, answer).filter((f) => f.rule !== 'answer');
    if (answer.kind !== 'error' && answer.kind !== 'transport') {
      const fd = notAStreamFinding(g, op, r);
      if (fd) findings.push(fd);
    } else if (answer.kind === 'error' && op === 'stream' && h.streamingDeclared) {
      const fd = streamRefusalFinding(g, 'streaming.content-type', answer.error, r.status, 'instead of opening a stream', { exchangeId: r.exchangeId });
      if (fd) findings.push(fd);
    }
    const result = h.finish(s, op, method, answer, findings);
    result.ok = false;
    result.stream = { end: 'not-stream', events: 0 };
    return result;
  }
  // The user's Stop (the call's own signal) is neither the agent's end nor ours.
  const end: StreamSummary['end'] = o.signal?.aborted && run.reason !== 'closed' ? 'stopped' : run.reason === 'stopped' ? 'grace' : run.reason;
  const judged = judgeStream(g, run, {
    op,
    streamingDeclared: h.streamingDeclared,
    endWords: streamEndText(end, s.timeoutMs, CLOSE_GRACE_MS),
    finalIndex: ends.finalIndex,
    endIndex: ends.endIndex,
    closed: run.reason === 'closed',
    readBack,
    taskId: subscribedTaskId ?? sentTaskId,
    closeGraceMs: CLOSE_GRACE_MS,
  });
  for (const f of frames) f.findings.push(...(judged.byFrame.get(f.seq) ?? []));
  for (const f of judged.stream) f.message = h.redactor.text(f.message);
  for (const f of frames) for (const fd of f.findings) fd.message = h.redactor.text(fd.message);
  const findings: SessionFinding[] = [...frames.flatMap((f) => f.findings), ...judged.stream];
  // Transitions across calls, judged in arrival order (as each event came in, against what other calls had seen by
  // then): the first state this stream showed of each task (within the stream judgeStream judged them already).
  for (const [seq, t] of crossCall) {
    t.message = h.redactor.text(t.message);
    findings.push(t);
    frames.find((f) => f.seq === seq)?.findings.push(t);
  }
  if (readBack?.kind === 'task') findings.push(...outcomeFindings(g, 'get', readBack, { taskId }));
  const stream: StreamSummary = {
    end,
    events: run.events,
    firstEventMs: run.firstEventMs,
    finalFrame: ends.finalIndex >= 0 ? ends.finalIndex + 1 : undefined,
  };
  const usable = items.some((i) => i.kind !== 'error' && i.kind !== 'invalid');
  const errorFrame = items.find((i) => i.kind === 'error');
  const task = streamTask(items, taskId, h.redactor);
  const summary = [
    `${method}: ${items.length} event(s), ${streamEndText(stream.end, s.timeoutMs, CLOSE_GRACE_MS)}`,
    task?.rawState ? `task ${task.id ?? '?'} last ${task.rawState}` : '',
    errorFrame ? `error event ${errorFrame.seq}: ${errorText(errorFrame.error)}` : '',
    countText(findings),
  ]
    .filter(Boolean)
    .join('; ');
  const message = [...items].reverse().find((i) => i.kind === 'message')?.message;
  return {
    operation: op,
    method,
    generation: g,
    binding: h.binding,
    ok: usable,
    outcome: usable ? 'stream' : errorFrame ? 'error' : 'invalid',
    summary: h.redactor.text(summary),
    task,
    message: message ? messageSummary(message, h.redactor) : undefined,
    error: errorFrame?.error ? redactError(errorFrame.error, h.redactor) : undefined,
    frames,
    stream,
    exchanges: exchangesOf(s.events),
    findings,
    durationMs: Math.max(0, host.now() - s.started),
    events: s.events,
  };
}
