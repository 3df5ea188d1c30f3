/** Streaming: SSE framing (line endings, multi-line data, extra fields), the sink per binding, and a task's events on a stream. */
import type { ServerResponse } from 'node:http';
import { renderArtifactEvent, renderMessage, renderStatusEvent, renderTask, wrapV03Rest } from './dialect';
import { type A2AError, E } from './errors';
import type { Operations } from './operations';
import type { SendReq } from './params';
import { KEEPALIVE_MS, MAX_STREAM_MS, type AgentState, type Json } from './state';
import { INTERRUPTED, type ITask, type TaskEvent, TERMINAL } from './tasks';

/** Where stream frames go: JSON-RPC wraps each payload in a response with the request id; REST sends it bare. */
export interface StreamSink {
  start(): void;
  event(payload: Json): void;
  /** An error event (JSON-RPC error response; HTTP+JSON google.rpc.Status). */
  error(e: A2AError): void;
  comment(text: string): void;
  end(): void;
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

export type Streaming = ReturnType<typeof createStreaming>;

export function createStreaming(s: AgentState, { startOrContinue }: Pick<Operations, 'startOrContinue'>) {
  const { gen, binding, engine, features, has, permits, flags, historyPolicy, movedId, requireTask, crashed, openResponses } = s;

  /** The line ending of SSE frames (permitted variants sse-crlf / sse-cr; LF by default). */
  const eol = () => (permits('sse-crlf') ? '\r\n' : permits('sse-cr') ? '\r' : '\n');
  let sseSeq = 0;
  /** One SSE event: `data:` lines (several when sse-multiline-data), plus comments, id, event and retry (sse-fields). */
  function sseFrame(payload: Json): string {
    const n = eol();
    const multi = permits('sse-multiline-data') || has('sse-multiline-no-prefix');
    const data = multi ? JSON.stringify(payload, null, 1).split('\n') : [JSON.stringify(payload)];
    // sse-multiline-no-prefix: "data:" on the first line only (the layout of the v0.2.6/v0.3.0 §9.3 examples).
    // sse-record-separator: a U+001E (RFC 7464 JSON text sequence) before the JSON, which SSE does not strip.
    const rs = has('sse-record-separator') ? '\u001e' : '';
    const lines = data.map((l, i) => (i > 0 && has('sse-multiline-no-prefix') ? l : `data: ${i === 0 ? rs : ''}${l}`));
    if (permits('sse-fields')) lines.unshift(': an SSE comment line, to be ignored', `id: ${++sseSeq}`, 'event: message', 'retry: 3000');
    if (permits('sse-unknown-fields')) lines.unshift('foo: bar', 'retry: soon');
    return `${lines.join(n)}${n}${n}`;
  }

  function makeSink(res: ServerResponse, frame: (payload: Json) => Json, errorFrame: (e: A2AError) => Json): StreamSink {
    openResponses.add(res);
    res.on('close', () => openResponses.delete(res));
    return {
      get closed() {
        return res.destroyed || res.writableEnded;
      },
      start() {
        if (res.headersSent) return;
        res.writeHead(200, {
          'Content-Type': has('sse-wrong-content-type') ? 'application/json' : 'text/event-stream',
          'Cache-Control': 'no-cache',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.flushHeaders();
        // sse-bom: the stream starts with a UTF-8 byte order mark, which WHATWG SSE strips.
        if (permits('sse-bom')) res.write('\uFEFF');
      },
      onClose(fn) {
        res.on('close', fn);
      },
      event(payload) {
        if (this.closed) return;
        res.write(sseFrame(frame(payload)));
      },
      error(e) {
        if (!this.closed) res.write(sseFrame(errorFrame(e)));
      },
      comment(text) {
        if (!this.closed) res.write(`: ${text}${eol()}${eol()}`);
      },
      end() {
        if (!this.closed) res.end();
      },
    };
  }

  /**
   * Streams a task's events to `sink`: first the Task (v0.x, v1.0) or the current status (legacy resubscribe),
   * then live events until a terminal or interrupted state.
   */
  function streamTask(sink: StreamSink, t: ITask, kind: 'send' | 'resubscribe'): void {
    let first = true;
    // legacy-stream-own-id: every event of a tasks/sendSubscribe stream names an id of the agent's own, one and the same.
    const ownId = gen === 'legacy' && kind === 'send' && has('legacy-stream-own-id') ? `${t.id}-own` : undefined;
    const f = () => {
      const fl = flags(ownId ?? (has('task-id-changes') && !first ? movedId(t) : undefined));
      first = false;
      return fl;
    };
    const out = (payload: Json) => sink.event(binding === 'HTTP+JSON' && gen === 'v0.3' ? wrapV03Rest(payload) : payload);
    const taskEvent = () => {
      const body = renderTask(gen, t, f(), historyPolicy());
      out(gen === 'v1.0' ? { task: body } : body);
    };
    let ended = false;
    let unsub = () => {};
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = () => {
      if (ended) return;
      ended = true;
      unsub();
      for (const x of timers) clearTimeout(x);
      clearInterval(keepalive);
      sink.end();
    };
    const keepOpen = () => {
      // Defects that never close: only comments until the client leaves (or a safety cap).
      timers.push(setTimeout(finish, MAX_STREAM_MS));
    };
    const keepalive = setInterval(() => {
      if (sink.closed) finish();
      else sink.comment('keep-alive');
    }, KEEPALIVE_MS);
    sink.onClose(() => {
      if (!ended && !isEnd(t)) {
        // The client left mid-task.
        if (has('crash-after-disconnect')) crashed.add(t.id);
        if (permits('disconnect-cancels')) engine.cancel(t);
      }
      finish();
    });

    sink.start();
    // stream-first-terminal-status (before v1.0): one event, the final status, once the task settles.
    const single = permits('stream-first-terminal-status') && gen !== 'v1.0';
    // artifact-in-task (v0.2+): the first Task waits for, and carries, the first artifact chunk of a quick task.
    let deferTask = permits('artifact-in-task') && gen !== 'legacy' && kind === 'send' && t.behaviour === 'quick' && !isEnd(t);
    if (!has('sse-first-not-task') && !single && !deferTask) {
      if (gen === 'legacy') {
        if (kind === 'resubscribe') out(renderStatusEvent(gen, t, t.status, isEnd(t), f()));
      } else taskEvent();
    }
    if (isEnd(t)) {
      if (single) out(renderStatusEvent(gen, t, t.status, true, f()));
      finishOrLinger(t.status.state);
      return;
    }
    unsub = engine.subscribe(t.id, (e: TaskEvent) => {
      if (ended) return;
      if (e.type === 'artifact') {
        if (single) return;
        if (deferTask) {
          deferTask = false;
          taskEvent();
          return;
        }
        const append = e.append || (has('artifact-append-without-start') && !e.append);
        out(renderArtifactEvent(gen, t, e.artifact, e.chunk, append, e.lastChunk, f()));
        return;
      }
      const terminal = TERMINAL.has(e.status.state);
      const final = terminal || INTERRUPTED.has(e.status.state);
      if (single) {
        if (final) {
          out(renderStatusEvent(gen, t, e.status, true, f()));
          finishOrLinger(e.status.state);
        }
        return;
      }
      if (deferTask) {
        // The Task (sent with the first chunk) carries the state; earlier status updates are folded into it.
        if (!final) return;
        deferTask = false;
        taskEvent();
      }
      if (terminal && has('sse-stall-after-complete')) {
        // The task is done, but the stream neither says so nor closes.
        unsub();
        keepOpen();
        return;
      }
      if (terminal && has('sse-error-event') && gen !== 'legacy') {
        sink.error(E.internal('The stream broke while sending the result'));
        finish();
        return;
      }
      if (final && gen === 'v1.0' && has('sse-no-final')) {
        finish();
        return;
      }
      if (terminal && permits('stream-ends-with-task') && (gen === 'v0.2' || gen === 'v0.3')) {
        // The stream ends with the Task in its terminal state (what a2a-python's clients treat as the end).
        taskEvent();
        finishOrLinger(e.status.state);
        return;
      }
      const finalFlag = gen === 'v1.0' ? undefined : final && !has('sse-no-final');
      out(renderStatusEvent(gen, t, e.status, finalFlag, f()));
      if (final) {
        if (has('sse-events-after-final')) out(renderStatusEvent(gen, t, { ...e.status, state: 'working' }, gen === 'v1.0' ? undefined : false, f()));
        if (terminal && permits('stream-task-snapshot') && gen === 'v1.0') taskEvent();
        // stream-stale-snapshot (v1.0): the Task snapshot after the terminal status still says working.
        if (terminal && has('stream-stale-snapshot') && gen === 'v1.0') {
          const body = renderTask(gen, t, f(), historyPolicy());
          out({ task: { ...body, status: { ...(body.status as Json), state: 'TASK_STATE_WORKING' } } });
        }
        finishOrLinger(e.status.state);
      }
    });
    if (has('task-never-finishes')) keepOpen();
    function finishOrLinger(state: string) {
      // stream-open-at-auth-required (v1.0): the stream stays open while the task waits for the user to sign in.
      if (has('sse-never-ends') || (state === 'auth-required' && permits('stream-open-at-auth-required') && gen === 'v1.0')) keepOpen();
      else setImmediate(finish);
    }
    function isEnd(x: ITask) {
      return TERMINAL.has(x.status.state) || INTERRUPTED.has(x.status.state);
    }
  }

  function streamingOff(): A2AError {
    return E.unsupported('This agent does not declare capabilities.streaming');
  }

  /** Streaming off: the refusal (or, with the streaming-undeclared-* defects, the wrong answer); undefined to serve. */
  function streamingOffError(): A2AError | undefined {
    if (features.streaming !== false || has('streaming-undeclared-served')) return undefined;
    if (has('streaming-undeclared-wrong-code')) return E.internal('Streaming failed');
    if (permits('no-streaming-method-not-found') && gen !== 'v1.0') return E.methodNotFound('Streaming is not available on this agent');
    return streamingOff();
  }

  /** A refusal of a streaming method: an error answer, or (sse-error-first-event, v1.0) the first and only SSE event. */
  function refuseStream(sink: StreamSink, e: A2AError): void {
    if (!(permits('sse-error-first-event') && gen === 'v1.0')) throw e;
    sink.start();
    sink.error(e);
    sink.end();
  }

  function streamSend(sink: StreamSink, p: SendReq): void {
    const off = streamingOffError();
    if (off) return refuseStream(sink, off);
    if (has('sse-error-body')) throw E.internal('The stream could not be opened');
    const r = startOrContinue({ ...p, stream: true });
    if ('message' in r) {
      sink.start();
      const m = renderMessage(gen, r.message);
      sink.event(gen === 'v1.0' || binding === 'HTTP+JSON' ? { message: m } : m);
      if (has('sse-never-ends')) setTimeout(() => sink.end(), MAX_STREAM_MS);
      else sink.end();
      return;
    }
    streamTask(sink, r.task, 'send');
  }

  function resubscribe(sink: StreamSink, id: string): void {
    const off = streamingOffError();
    if (off) return refuseStream(sink, off);
    const t = requireTask(id);
    if (TERMINAL.has(t.status.state)) {
      if (gen === 'v1.0' && !has('subscribe-terminal-replays')) {
        return refuseStream(sink, E.unsupported(`Task ${t.id} is ${t.status.state}; cannot subscribe to a terminal task`));
      }
      if (gen !== 'v1.0' && permits('subscribe-terminal-error'))
        throw E.invalidParams(`Task ${t.id} is ${t.status.state}; there is nothing to subscribe to`, 'id');
    }
    streamTask(sink, t, 'resubscribe');
  }

  return { makeSink, streamSend, resubscribe };
}
