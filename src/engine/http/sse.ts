import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { PROXY_STREAM_ERROR_COMMENT } from '../model/proxy';
import { truncate } from '../util/json';
import { readBody } from './body';
import type { HttpContext } from './context';
import { emitResponse, finish, openResponse, withPoliteRetry, type HttpRequest, type HttpResult, type PartialResult } from './exchange';
import { ABORTED, abortPromise, classifyFetchError, type Deadline } from './transport-errors';

export interface SseMessage extends EventSourceMessage {
  seq: number;
  at: number;
}

export type StreamEndReason =
  | 'closed' // the agent ended the stream
  | 'stopped' // our consumer asked to stop (e.g. closing mid-task on purpose)
  | 'timeout' // the total budget ran out while the stream was still open
  | 'idle' // no bytes for limits.streamIdleTimeoutMs
  | 'limit' // too many events
  | 'oversize' // one event (or line) larger than limits.maxBodyBytes: we stopped reading
  | 'error' // transport failure mid-stream (reset, proxy marker)
  | 'not-stream'; // the response was not text/event-stream (body read as a normal response)

export interface StreamOutcome {
  /** The response head (and, for non-stream responses, the body). */
  result: HttpResult;
  reason: StreamEndReason;
  events: number;
  /** Milliseconds from the request to the first event. */
  firstEventMs?: number;
  /** Gaps between consecutive events, ms. */
  gapsMs: number[];
  /** The proxy marked the end of the stream as its own failure. */
  proxyCut: boolean;
  /** Comment lines and retry fields seen (allowed by the SSE format; counted for evidence). */
  comments: number;
  retries: number[];
  /** Messages of the first lines the SSE parser ignored (at most 20; see `ignoredLines`). */
  parseErrors: string[];
  /**
   * Lines the SSE parser ignored, as WHATWG says a client must (unknown field names, a non-numeric retry):
   * legal SSE in themselves; the check decides whether one of them carried data that was lost. At most 20.
   */
  ignoredLines: SseIgnoredLine[];
  /** How many lines were ignored in all (`ignoredLines` keeps only the first ones). */
  ignoredLineCount: number;
}

/** A line the SSE parser ignored (WHATWG "Otherwise, the field is ignored" / an unusable retry value). */
export interface SseIgnoredLine {
  type: 'unknown-field' | 'invalid-retry';
  /** The field name as written (before the first colon). */
  field: string;
  value: string;
  /** The whole line, bounded. */
  line: string;
}

/**
 * Folds CRLF and lone CR line ends to LF across chunk boundaries (WHATWG SSE allows all three). The parser
 * holds a trailing CR back waiting for a possible LF and never flushes it, so a CR-only stream would lose its
 * last event and deliver every other one a chunk late; normalising first avoids both.
 */
export function lineEndNormalizer(): (text: string) => string {
  let pendingCr = false;
  return (text) => {
    if (!text) return text;
    let s = text;
    if (pendingCr && s.charCodeAt(0) === 10) s = s.slice(1);
    if (!s) {
      pendingCr = false;
      return s;
    }
    pendingCr = s.charCodeAt(s.length - 1) === 13;
    return s.indexOf('\r') === -1 ? s : s.replace(/\r\n?/g, '\n');
  };
}

export interface StreamRequest extends HttpRequest {
  /** Short description of an event for the timeline, e.g. `status-update working`. */
  summarize?: (m: EventSourceMessage) => string | undefined;
  /** Our own early stop (e.g. a grace period after the final event ran out): ends with reason `stopped`. */
  stopSignal?: AbortSignal;
}

type OnEvent = (m: SseMessage) => 'stop' | void;

/**
 * Opens an SSE stream and hands each parsed event to `onEvent` (return `'stop'` to close early).
 * Bounded by the total budget (`timeoutMs`), an idle timeout and an event count; never throws.
 * Events split across chunks, BOMs, comments and retry fields are handled by eventsource-parser.
 */
export async function stream(ctx: HttpContext, req: StreamRequest, onEvent: OnEvent): Promise<StreamOutcome> {
  // As for exchanges: a rate-limited agent that says when to come back gets one polite retry; a second 429 stands.
  const limited = (o: StreamOutcome) => (o.reason === 'not-stream' ? o.result : undefined);
  const first = await withPoliteRetry(ctx, () => streamNow(ctx, req, onEvent), limited);
  // As for exchanges: an OAuth token the agent no longer takes gets one retry with a new token (both recorded).
  const refused = first.reason === 'not-stream' && first.result.status === 401;
  const renewed = refused && ctx.auth ? await ctx.auth.retry(req.headers, first.result.startedAt) : undefined;
  return renewed ? withPoliteRetry(ctx, () => streamNow(ctx, { ...req, headers: renewed }, onEvent), limited) : first;
}

async function streamNow(ctx: HttpContext, req: StreamRequest, onEvent: OnEvent): Promise<StreamOutcome> {
  const { id, r, dl, res } = await openResponse(ctx, req);
  const out: Omit<StreamOutcome, 'result'> = {
    reason: 'closed',
    events: 0,
    gapsMs: [],
    proxyCut: false,
    comments: 0,
    retries: [],
    parseErrors: [],
    ignoredLines: [],
    ignoredLineCount: 0,
  };
  let isStream = false;
  try {
    if (!res) {
      out.reason = 'error';
      return { ...out, result: finish(r) };
    }
    isStream = /^\s*text\/event-stream/i.test(r.contentType);
    if (!isStream || !res.body) {
      // Not a stream: read it as a normal (bounded) body so the check can show what came instead.
      Object.assign(r, await readBody(ctx, res, req.maxBytes ?? ctx.limits.maxBodyBytes, dl));
      out.reason = 'not-stream';
      r.endedAt = ctx.host.now();
      return { ...out, result: finish(r) };
    }
    await readEvents(ctx, req, res.body, { id, r, dl, out, onEvent });
    if (out.proxyCut && out.reason === 'closed') {
      out.reason = 'error';
      r.error = {
        source: 'proxy',
        code: 'stream_cut',
        message: 'The proxy ended the stream because the connection to the agent failed.',
        blame: 'unknown',
      };
    }
    r.endedAt = ctx.host.now();
    return { ...out, result: finish(r) };
  } finally {
    dl.cancel();
    emitResponse(ctx, r, isStream);
  }
}

interface Reading {
  id: string;
  r: PartialResult;
  dl: Deadline;
  out: Omit<StreamOutcome, 'result'>;
  onEvent: OnEvent;
}

/** Feeds the body to the SSE parser until the agent closes it, a budget ends, or the consumer stops. */
async function readEvents(ctx: HttpContext, req: StreamRequest, body: ReadableStream<Uint8Array>, { id, r, dl, out, onEvent }: Reading): Promise<void> {
  let last: number | undefined;
  let stop = false;
  const startedAt = r.startedAt;
  const parser = createParser({
    maxBufferSize: ctx.limits.maxBodyBytes,
    onEvent: (m) => {
      if (stop) return;
      const at = ctx.host.now();
      out.events++;
      if (out.firstEventMs === undefined) out.firstEventMs = at - startedAt;
      if (last !== undefined) out.gapsMs.push(at - last);
      last = at;
      const seq = out.events;
      ctx.emit({
        type: 'sse-event',
        at,
        exchangeId: id,
        lane: req.lane,
        seq,
        event: m.event,
        id: m.id,
        data: ctx.redactor.text(truncate(m.data, 8192)),
        summary: safeSummary(req.summarize, m),
      });
      if (onEvent({ ...m, seq, at }) === 'stop') {
        stop = true;
        out.reason = 'stopped';
      } else if (out.events >= ctx.limits.maxStreamEvents) {
        stop = true;
        out.reason = 'limit';
      }
    },
    onComment: (c) => {
      out.comments++;
      if (`: ${c.trim()}`.startsWith(PROXY_STREAM_ERROR_COMMENT)) out.proxyCut = true;
    },
    onRetry: (ms) => out.retries.push(ms),
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') {
        // Our limit, not a framing defect: stop reading (the parser cannot go on after this).
        stop = true;
        out.reason = 'oversize';
        return;
      }
      out.ignoredLineCount++;
      if (out.parseErrors.length < 20) out.parseErrors.push(e.message);
      if (out.ignoredLines.length < 20 && (e.type === 'unknown-field' || e.type === 'invalid-retry')) {
        out.ignoredLines.push({
          type: e.type,
          field: e.field ?? (e.type === 'invalid-retry' ? 'retry' : ''),
          value: truncate(e.value ?? '', 200),
          line: truncate(e.line ?? '', 300),
        });
      }
    },
  });
  const normalize = lineEndNormalizer();
  const reader = body.getReader();
  const decoder = new TextDecoder();
  // SSE is UTF-8 only; the lenient decoder feeds the parser, a strict one notices invalid bytes (once).
  let strict: TextDecoder | undefined = new TextDecoder('utf-8', { fatal: true });
  const checkUtf8 = (bytes?: Uint8Array) => {
    try {
      strict?.decode(bytes, { stream: bytes !== undefined });
    } catch {
      r.invalidUtf8 = true;
      strict = undefined;
    }
  };
  const aborted = abortPromise(dl.signal);
  const stopped = new Promise<'stopped'>((resolve) => {
    if (req.stopSignal?.aborted) resolve('stopped');
    else req.stopSignal?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  try {
    while (!stop) {
      const idle = new AbortController();
      const idleTimer = ctx.host.sleep(ctx.limits.streamIdleTimeoutMs, idle.signal).then(
        () => 'idle' as const,
        () => 'cancelled' as const,
      );
      const next = await Promise.race([reader.read(), aborted, idleTimer, stopped]);
      idle.abort();
      if (next === 'idle') {
        out.reason = 'idle';
        break;
      }
      if (next === 'stopped') {
        out.reason = 'stopped';
        break;
      }
      if (next === 'cancelled') continue;
      if (next.done) {
        checkUtf8();
        parser.feed(normalize(decoder.decode()));
        break;
      }
      r.bytes += next.value.byteLength;
      checkUtf8(next.value);
      parser.feed(normalize(decoder.decode(next.value, { stream: true })));
    }
  } catch (e) {
    if (dl.timedOut()) out.reason = 'timeout';
    else if (ctx.signal.aborted) {
      out.reason = 'error';
      r.error = { ...ABORTED };
    } else {
      out.reason = 'error';
      r.error = classifyFetchError(e, dl, ctx, 'body');
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

function safeSummary(f: StreamRequest['summarize'], m: EventSourceMessage): string | undefined {
  if (!f) return undefined;
  try {
    return f(m);
  } catch {
    return undefined;
  }
}
