/**
 * The suite's sequence rules for a stream, event by event: what ends a stream, the findings of one frame alone
 * (streaming.framing), and those of the sequence (first event, one task and context, terminal states that stay,
 * nothing after the final event, artifact chunks, the end of the stream), as the streaming checks judge them.
 */
import type { SseIgnoredLine } from '../http/client';
import type { Generation } from '../model/check';
import type { CallOutcome, StreamItem, StreamRun } from '../protocol/dialect';
import { BUDGET_ENDS } from '../checks/fixtures/stream';
import { isTerminal } from '../protocol/states';
import { defined, finding } from './rules';
import type { SessionFinding } from './types';

/**
 * What ends a stream, as the suite's stream fixture decides it: `isFinalItem` (nothing may follow: v1.0 a terminal
 * Task/status, before v1.0 final: true, any generation a Message or an error) and `endsWait` (that, or a terminal or
 * interrupted state: what a client waits for).
 */
export { isFinalItem, endsTest as endsWait } from '../checks/fixtures/stream';

/** Findings of one frame on its own: framing, envelope and payload shape (streaming.framing), error bodies. */
export function frameFindings(g: Generation, it: StreamItem, exchangeId?: string): SessionFinding[] {
  const o = { frame: it.seq, exchangeId };
  return defined([
    ...it.problems.map((p) => finding(g, 'streaming.framing', 'framing', p, { ...o, level: 'MUST' })),
    ...(it.notes ?? []).map((p) => finding(g, 'streaming.framing', 'framing', p, { ...o, level: 'advisory' })),
    ...(it.kind === 'error' ? (it.error?.problems ?? []).map((p) => finding(g, 'errors.shape', 'error-shape', p, { ...o, level: 'MUST' })) : []),
  ]);
}

/**
 * An ignored SSE line that carried content (a byte order mark or JSON punctuation before the field name, or a
 * misspelled "data"): its data is lost for every client. Other ignored lines are legal SSE (streaming.framing).
 */
export function lostData(l: SseIgnoredLine): boolean {
  if (l.type !== 'unknown-field') return false;
  return /^[\uFEFF{}[\]"\s,]/.test(l.field) || /data/i.test(l.field);
}

export interface StreamJudgement {
  /** Findings that belong to one frame (sequence rules), by seq. */
  byFrame: Map<number, SessionFinding[]>;
  /** Findings about the stream as a whole (end of stream, encoding, lost lines). */
  stream: SessionFinding[];
}

export interface StreamFacts {
  op: 'stream' | 'subscribe';
  /** Index in items of the final event (-1: none) and of the event that ended the wait (-1: none). */
  finalIndex: number;
  endIndex: number;
  /** The agent closed the stream by itself. */
  closed: boolean;
  /** The task read back after our budget ended the stream with no end event. */
  readBack?: CallOutcome;
  /** subscribe: the task subscribed to. */
  taskId?: string;
  closeGraceMs: number;
}

/**
 * The sequence rules of a stream: first event (v1.0 a Task), one task and context, terminal states that stay,
 * nothing after the final event (v1.0: one final Task snapshot allowed), artifact chunks that reassemble, and the
 * end of the stream (final: true before v1.0, closing at a terminal state in v1.0).
 */
export function judgeStream(g: Generation, run: StreamRun, f: StreamFacts): StreamJudgement {
  const byFrame = new Map<number, SessionFinding[]>();
  const stream: SessionFinding[] = [];
  const x = run.result.exchangeId;
  const at = (seq: number, fd: SessionFinding | undefined) => {
    if (!fd) return;
    byFrame.set(seq, [...(byFrame.get(seq) ?? []), fd]);
  };
  const whole = (fd: SessionFinding | undefined) => {
    if (fd) stream.push(fd);
  };
  const items = run.items;
  if (run.result.invalidUtf8)
    whole(
      finding(g, 'streaming.framing', 'framing', 'The stream is not valid UTF-8 (SSE streams MUST be UTF-8; clients replace or reject the bytes)', {
        level: 'MUST',
        exchangeId: x,
      }),
    );
  const lost = run.ignoredLines.filter(lostData);
  if (lost.length) {
    whole(
      finding(
        g,
        'streaming.framing',
        'framing',
        `${lost.length} line(s) are not SSE fields (e.g. ${JSON.stringify(lost[0]!.line)}): clients ignore such lines, so their content is lost`,
        { level: 'MUST', exchangeId: x },
      ),
    );
  }

  // First event: v1.0 a task stream starts with the Task (§3.1.2; SubscribeToTask §3.1.6).
  const first = items[0];
  if (first && g === 'v1.0' && first.kind !== 'task' && first.kind !== 'message' && first.kind !== 'error' && first.kind !== 'invalid') {
    at(
      first.seq,
      f.op === 'stream'
        ? finding(
            g,
            'streaming.first-event',
            'event-order',
            `The first event is a ${first.kind === 'status' ? 'status update' : 'artifact update'}, but a v1.0 task stream MUST begin with the Task object (§3.1.2).`,
            { frame: first.seq, exchangeId: x },
          )
        : finding(
            g,
            'streaming.resubscribe',
            'event-order',
            `SubscribeToTask sent a ${first.kind} first; v1.0 §3.1.6: the operation MUST return a Task object as the first event.`,
            { frame: first.seq, exchangeId: x },
          ),
    );
  }

  // One task and one context per stream (streaming.consistency; a subscription carries only its task).
  const taskOf = (i: StreamItem) => i.taskId ?? i.task?.id;
  const ctxOf = (i: StreamItem) => i.contextId ?? i.task?.contextId;
  const firstTask = f.taskId ?? items.map(taskOf).find(Boolean);
  const firstCtx = items.map(ctxOf).find(Boolean);
  for (const it of items) {
    const t = taskOf(it);
    const c = ctxOf(it);
    if (t && firstTask && t !== firstTask) {
      at(
        it.seq,
        f.op === 'subscribe'
          ? finding(g, 'streaming.resubscribe', 'ids', `The subscription to task ${firstTask} carried an event of another task (${t}).`, {
              frame: it.seq,
              exchangeId: x,
            })
          : finding(g, 'streaming.consistency', 'ids', `This event is about task ${t}, the stream about ${firstTask}.`, { frame: it.seq, exchangeId: x }),
      );
    } else if (c && firstCtx && c !== firstCtx) {
      at(it.seq, finding(g, 'streaming.consistency', 'ids', `This event is in context ${c}, the stream in ${firstCtx}.`, { frame: it.seq, exchangeId: x }));
    }
  }

  // A terminal state does not change (lifecycle.transitions), per task.
  const lastState = new Map<string, StreamItem>();
  for (const it of items) {
    if (!it.state) continue;
    const key = taskOf(it) ?? '?';
    const prev = lastState.get(key);
    if (prev?.state && prev.state !== it.state && isTerminal(prev.state, g)) {
      at(
        it.seq,
        finding(
          g,
          'lifecycle.transitions',
          'transition',
          `Task ${key} went from ${prev.rawState} (event ${prev.seq}) to ${it.rawState}: a terminal state does not change.`,
          { frame: it.seq, exchangeId: x },
        ),
      );
    }
    lastState.set(key, it);
  }

  // Nothing after the final event (v1.0: one final Task snapshot may follow, §11.7).
  if (f.finalIndex >= 0) {
    const final = items[f.finalIndex]!;
    let after = items.slice(f.finalIndex + 1);
    if (g === 'v1.0' && final.kind !== 'message' && after[0]?.kind === 'task' && isTerminal(after[0].state, g)) after = after.slice(1);
    for (const it of after) {
      at(
        it.seq,
        finding(
          g,
          'streaming.after-final',
          'event-order',
          `This event arrived after the final one (${final.kind}${final.rawState ? ` ${final.rawState}` : ''}${final.final ? ', final: true' : ''}, event ${final.seq}).`,
          { frame: it.seq, exchangeId: x },
        ),
      );
    }
  }

  // Artifact chunks reassemble: append only to a started artifact, nothing after lastChunk.
  const seen = new Map<string, { closed: boolean }>();
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
      if (!cur)
        at(
          it.seq,
          finding(g, 'streaming.artifacts', 'event-order', `This chunk appends to artifact ${key}, which was never started.`, { frame: it.seq, exchangeId: x }),
        );
      else if (cur.closed)
        at(
          it.seq,
          finding(g, 'streaming.artifacts', 'event-order', `This chunk appends to artifact ${key} after its lastChunk.`, { frame: it.seq, exchangeId: x }),
        );
    } else seen.set(key, { closed: false });
    if (it.artifact?.lastChunk) seen.set(key, { closed: true });
  }

  whole(endOfStream(g, run, f));
  return { byFrame, stream };
}

/** The end of the stream (streaming.terminal, streaming.closes), as the checks judge it. */
function endOfStream(g: Generation, run: StreamRun, f: StreamFacts): SessionFinding | undefined {
  const items = run.items;
  const x = { exchangeId: run.result.exchangeId };
  const end = items[f.endIndex];
  const final = items[f.finalIndex];
  const lastState = [...items].reverse().find((i) => i.state)?.rawState ?? 'none';
  if (items.some((i) => i.kind === 'error') && (!final || final.kind === 'error')) return undefined; // a refusal, not an end-of-stream defect
  if (!end) {
    if (run.reason === 'error') {
      const e = run.result.error;
      if (e && (e.blame === 'tool' || e.source === 'abort')) return undefined;
      return finding(
        g,
        'streaming.terminal',
        'end-of-stream',
        `The stream broke off before the task ended (${e?.message ?? 'transport error'}; last state ${lastState}).`,
        x,
      );
    }
    if (BUDGET_ENDS.has(run.reason) || run.reason === 'stopped') {
      const rb = f.readBack;
      if (rb?.kind === 'task' && isTerminal(rb.task.state, g)) {
        return finding(
          g,
          'streaming.terminal',
          'end-of-stream',
          `The task reached ${rb.task.rawState} (read back), but the stream neither delivered that nor closed (last streamed state ${lastState}).`,
          x,
        );
      }
      return undefined; // still running when our budget ended: not judged
    }
    if (run.reason !== 'closed') return undefined;
    if (!items.length)
      return finding(g, 'streaming.framing', 'end-of-stream', 'The stream ended without any event: a task stream carries at least the task.', {
        ...x,
        level: 'MUST',
      });
    if (g === 'v1.0')
      return finding(
        g,
        'streaming.terminal',
        'end-of-stream',
        `The stream closed without reaching a terminal or interrupted state (last state ${lastState}): a v1.0 task stream ends at a terminal state (§3.1.2).`,
        x,
      );
    return finding(g, 'streaming.terminal', 'end-of-stream', `The stream closed (last state ${lastState}) and no status update had "final": true.`, x);
  }
  const ended = f.closed || run.reason === 'error';
  if (end.kind === 'message') {
    if (g === 'v1.0' && !ended)
      return finding(
        g,
        'streaming.terminal',
        'end-of-stream',
        `The stream carried a Message but did not close within ${f.closeGraceMs} ms (§3.1.2: exactly one Message, then close).`,
        { ...x, frame: end.seq },
      );
    return undefined;
  }
  if (g === 'v1.0') {
    if (final) {
      return ended
        ? undefined
        : finding(
            g,
            'streaming.terminal',
            'end-of-stream',
            `The stream reached ${final.rawState} but did not close within ${f.closeGraceMs} ms; v1.0 §3.1.2: the stream MUST close when the task reaches a terminal state.`,
            { ...x, frame: final.seq },
          );
    }
    if (ended || end.state === 'auth-required') return undefined;
    return finding(
      g,
      'streaming.terminal',
      'end-of-stream',
      `The stream reached ${end.rawState} and stayed open; v1.0 requires closing at terminal states only (§3.1.2, §3.1.6), §11.7 describes closing here too.`,
      { ...x, frame: end.seq, level: 'advisory' },
    );
  }
  if (final) {
    return f.closed
      ? undefined
      : finding(g, 'streaming.closes', 'end-of-stream', `The stream was still open ${f.closeGraceMs} ms after the final event.`, { ...x, frame: final.seq });
  }
  if (end.kind === 'task') return undefined; // a Task in a terminal or interrupted state ends the stream for SDK clients
  if (isTerminal(end.state, g))
    return finding(g, 'streaming.terminal', 'end-of-stream', `A terminal status (${end.rawState}) arrived but no event had "final": true.`, {
      ...x,
      frame: end.seq,
    });
  if (!f.closed) return undefined; // paused and open: nothing before v1.0 requires closing there
  return finding(
    g,
    'streaming.terminal',
    'end-of-stream',
    `The stream closed at ${end.rawState} without any event having "final": true (no sentence says when an interrupted state must carry it).`,
    { ...x, frame: end.seq, level: 'advisory' },
  );
}
