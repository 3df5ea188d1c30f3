import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { RunEvent, TransportError } from '../model/events';
import { PROXY_ERROR_HEADER, PROXY_STREAM_ERROR_COMMENT, PROXY_UPSTREAM_STATUS_HEADER, proxyErrorBlame } from '../model/proxy';
import type { Host } from '../ports';
import { isAbortError } from '../ports';
import type { Redactor } from '../redact';
import { safeJsonParse, truncate, type JsonParse } from '../util/json';

/** Budgets that keep hostile agents (huge bodies, endless streams, silence) from hanging or sinking a run. */
export interface Limits {
  /** Maximum bytes read from a non-stream body; the rest is discarded and the result marked truncated. */
  maxBodyBytes: number;
  /** Bytes of a body kept in the event log (the wire inspector's preview). */
  previewBytes: number;
  /** Default budget for one non-stream exchange, headers and body. */
  requestTimeoutMs: number;
  /** Silence allowed between two chunks of a stream. */
  streamIdleTimeoutMs: number;
  /** SSE events read from one stream before we stop reading. */
  maxStreamEvents: number;
  /** Requests in flight at once (browsers allow 6 connections per origin; streams count). */
  maxConcurrentRequests: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxBodyBytes: 5 * 1024 * 1024,
  previewBytes: 64 * 1024,
  requestTimeoutMs: 30_000,
  streamIdleTimeoutMs: 30_000,
  maxStreamEvents: 2_000,
  maxConcurrentRequests: 6,
};

/** A counting semaphore: at most `n` holders at once, FIFO. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly n: number) {}
  async acquire(): Promise<() => void> {
    if (this.active >= this.n) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

/** What the HTTP layer needs from a run. */
export interface HttpContext {
  host: Host;
  /** The run's abort signal (user pressed Stop). */
  signal: AbortSignal;
  emit(e: RunEvent): void;
  redactor: Redactor;
  newId(prefix: string): string;
  limits: Limits;
  /** Bounds requests in flight (see Limits.maxConcurrentRequests); absent means unbounded. */
  slots?: Semaphore;
  /** Origins that have answered at least once in this run (an agent that never answered was never reached). */
  answered?: Set<string>;
}

/** The origin of a URL, or the URL itself when it does not parse. */
export const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

export interface HttpRequest {
  method: string;
  url: string;
  headers?: Record<string, string>;
  body?: string;
  /** Timeline lane (one per test task). */
  lane: string;
  checkId?: string;
  /** Budget for the whole exchange; default `limits.requestTimeoutMs`. */
  timeoutMs?: number;
  maxBytes?: number;
}

export interface HttpResult {
  exchangeId: string;
  /** The request URL (unredacted: never put it in evidence as it is; use the redactor). */
  url: string;
  /** No response, and nothing at this origin had answered in this run before: the agent was never reached. */
  neverReached?: boolean;
  /** A response (any status) arrived from the agent. False for transport failures and proxy-made responses. */
  responded: boolean;
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  bytes: number;
  truncated: boolean;
  /** The body started with a UTF-8 byte order mark. */
  bom: boolean;
  /** The body was not valid UTF-8 (decoded with replacement characters). */
  invalidUtf8: boolean;
  error?: TransportError;
  startedAt: number;
  headersAt?: number;
  endedAt: number;
  json(): JsonParse;
}

interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  cancel(): void;
}

/** An abort signal that fires on the run's abort or after `ms` (timed with the host's sleep, so fake timers work). */
function deadline(ctx: HttpContext, ms: number): Deadline {
  const ctl = new AbortController();
  const timer = new AbortController();
  let timedOut = false;
  const onRunAbort = () => ctl.abort(ctx.signal.reason);
  if (ctx.signal.aborted) ctl.abort(ctx.signal.reason);
  else ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  ctx.host.sleep(ms, timer.signal).then(
    () => {
      timedOut = true;
      const e = new Error(`timed out after ${ms} ms`);
      e.name = 'TimeoutError';
      ctl.abort(e);
    },
    () => undefined,
  );
  return {
    signal: ctl.signal,
    timedOut: () => timedOut,
    cancel: () => {
      timer.abort();
      ctx.signal.removeEventListener('abort', onRunAbort);
    },
  };
}

/** Rejects when `signal` aborts; used to bound reads on bodies that ignore the fetch signal. */
function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => {
      const e = new Error('aborted');
      e.name = 'AbortError';
      reject(e);
    };
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

function headerRecord(ctx: HttpContext, h: Record<string, string> | undefined): Record<string, string> {
  return ctx.redactor.headers(h);
}

function classifyFetchError(e: unknown, dl: Deadline, ctx: HttpContext, phase: 'connect' | 'body'): TransportError {
  if (dl.timedOut()) {
    return {
      source: 'timeout',
      code: phase === 'connect' ? 'no_response' : 'body_timeout',
      message:
        phase === 'connect'
          ? 'The agent did not answer within the time budget.'
          : 'The agent stopped sending the body before it was complete (time budget exceeded).',
      blame: 'agent',
    };
  }
  if (ctx.signal.aborted || isAbortError(e)) {
    return { source: 'abort', code: 'aborted', message: 'The run was stopped.', blame: 'tool' };
  }
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const causeCode = err?.cause?.code ?? '';
  const detail = [err?.message, err?.cause?.message].filter(Boolean).join(': ');
  // Agent misbehaviour that fetch reports as a generic failure: say what it was, and whose fault.
  if (/redirect count exceeded|too many redirects/i.test(detail)) {
    return { source: 'network', code: 'redirect_loop', message: `The agent redirected too many times, probably in a loop (${detail}).`, blame: 'agent' };
  }
  if (/HEADERS_OVERFLOW|header overflow/i.test(causeCode + detail)) {
    return {
      source: 'network',
      code: 'headers_too_large',
      message: `The agent's response headers are larger than HTTP clients accept (Node and most proxies stop at 16 KB) (${detail}).`,
      blame: 'agent',
    };
  }
  if (phase === 'body' || /ECONNRESET|UND_ERR_SOCKET|EPIPE|terminated/i.test(causeCode + detail)) {
    return {
      source: 'network',
      code: 'reset',
      message: `The connection was reset by the agent (${detail || 'socket closed'}).`,
      blame: 'agent',
    };
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(causeCode)) {
    return { source: 'network', code: 'dns_failed', message: `The agent's host name did not resolve (${detail}).`, blame: 'unknown' };
  }
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/.test(causeCode)) {
    return { source: 'network', code: 'connect_failed', message: `Could not connect to the agent (${detail}).`, blame: 'unknown' };
  }
  return {
    source: 'network',
    code: 'fetch_failed',
    message: `The request could not be completed (${detail || 'network error'}). In a browser without the proxy this is usually CORS.`,
    blame: 'unknown',
  };
}

async function proxyError(res: Response): Promise<TransportError> {
  const code = res.headers.get(PROXY_ERROR_HEADER) ?? 'proxy_error';
  let detail = '';
  try {
    const body = safeJsonParse(truncate(await res.text(), 8192));
    if (body.ok && typeof body.value === 'object' && body.value) {
      const v = body.value as { detail?: unknown; title?: unknown };
      detail = String(v.detail ?? v.title ?? '');
    }
  } catch {
    /* the problem body is informational */
  }
  return {
    source: 'proxy',
    code,
    message: `The proxy could not complete the request (${code}${detail ? `: ${detail}` : ''}).`,
    blame: proxyErrorBlame(code),
  };
}

/** The agent's status: the proxy relays statuses a Response cannot carry (e.g. 999) as 502 plus this header. */
function upstreamStatus(res: Response): number {
  const h = res.headers.get(PROXY_UPSTREAM_STATUS_HEADER);
  const n = h && /^\d{3}$/.test(h.trim()) ? Number(h) : NaN;
  return Number.isFinite(n) ? n : res.status;
}

function decode(bytes: Uint8Array): { text: string; bom: boolean; invalidUtf8: boolean } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), bom, invalidUtf8: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), bom, invalidUtf8: true };
  }
}

const emptyResult = (id: string, startedAt: number, url: string): Omit<HttpResult, 'json'> => ({
  exchangeId: id,
  url,
  responded: false,
  status: 0,
  headers: new Headers(),
  contentType: '',
  text: '',
  bytes: 0,
  truncated: false,
  bom: false,
  invalidUtf8: false,
  startedAt,
  endedAt: startedAt,
});

function finish(partial: Omit<HttpResult, 'json'>): HttpResult {
  let parsed: JsonParse | undefined;
  return {
    ...partial,
    json: () => (parsed ??= partial.text ? safeJsonParse(partial.text) : { ok: false, error: 'empty body' }),
  };
}

function emitRequest(ctx: HttpContext, id: string, req: HttpRequest, at: number) {
  ctx.emit({
    type: 'http-request',
    at,
    exchangeId: id,
    checkId: req.checkId,
    lane: req.lane,
    request: {
      method: req.method,
      url: ctx.redactor.url(req.url),
      headers: headerRecord(ctx, req.headers),
      body: req.body === undefined ? undefined : ctx.redactor.text(truncate(req.body, ctx.limits.previewBytes)),
      bodySize: req.body === undefined ? 0 : new TextEncoder().encode(req.body).length,
    },
  });
}

function emitResponse(ctx: HttpContext, r: Omit<HttpResult, 'json'>, stream = false) {
  if (r.responded) ctx.answered?.add(originOf(r.url));
  else if (ctx.answered && !ctx.answered.has(originOf(r.url))) r.neverReached = true;
  ctx.emit({
    type: 'http-response',
    at: r.endedAt,
    exchangeId: r.exchangeId,
    response: r.responded
      ? {
          status: r.status,
          headers: ctx.redactor.headers(r.headers),
          body: stream ? undefined : ctx.redactor.text(truncate(r.text, ctx.limits.previewBytes)),
          bodySize: r.bytes,
          truncated: r.truncated,
          stream,
        }
      : undefined,
    error: r.error,
    timings: { startedAt: r.startedAt, headersAt: r.headersAt, endedAt: r.endedAt },
  });
}

/**
 * One request/response exchange, recorded as `http-request` / `http-response` events.
 * Never throws: every failure becomes `result.error`, classified so that our own failures are
 * never blamed on the agent.
 */
export async function exchange(ctx: HttpContext, req: HttpRequest): Promise<HttpResult> {
  const first = await withSlot(ctx, () => exchangeNow(ctx, req));
  // A rate-limited agent that says when to come back gets one polite retry (both exchanges are recorded);
  // a second 429 stands and is judged.
  const wait = first.status === 429 ? retryAfterMs(first.headers.get('retry-after'), ctx.host.now()) : undefined;
  if (wait === undefined || wait > MAX_RETRY_AFTER_MS || ctx.signal.aborted) return first;
  try {
    await ctx.host.sleep(wait, ctx.signal);
  } catch {
    return first;
  }
  return withSlot(ctx, () => exchangeNow(ctx, req));
}

/** Longest Retry-After we honour with a retry; longer ones are reported as they are. */
export const MAX_RETRY_AFTER_MS = 5_000;

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined if unusable. */
export function retryAfterMs(v: string | null, now: number): number | undefined {
  if (!v) return undefined;
  const t = v.trim();
  if (/^\d{1,6}$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

async function withSlot<T>(ctx: HttpContext, fn: () => Promise<T>): Promise<T> {
  const release = ctx.slots ? await ctx.slots.acquire() : undefined;
  try {
    return await fn();
  } finally {
    release?.();
  }
}

async function exchangeNow(ctx: HttpContext, req: HttpRequest): Promise<HttpResult> {
  const id = ctx.newId('x');
  const startedAt = ctx.host.now();
  emitRequest(ctx, id, req, startedAt);
  const dl = deadline(ctx, req.timeoutMs ?? ctx.limits.requestTimeoutMs);
  const r = emptyResult(id, startedAt, req.url);
  try {
    let res: Response;
    try {
      res = await Promise.race([
        ctx.host.fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: dl.signal, redirect: 'follow' }),
        abortPromise(dl.signal),
      ]);
    } catch (e) {
      r.error = classifyFetchError(e, dl, ctx, 'connect');
      r.endedAt = ctx.host.now();
      return finish(r);
    }
    r.headersAt = ctx.host.now();
    if (res.headers.get(PROXY_ERROR_HEADER)) {
      r.error = await proxyError(res);
      r.endedAt = ctx.host.now();
      return finish(r);
    }
    r.responded = true;
    r.status = upstreamStatus(res);
    r.headers = res.headers;
    r.contentType = res.headers.get('content-type') ?? '';
    const max = req.maxBytes ?? ctx.limits.maxBodyBytes;
    Object.assign(r, await readBody(ctx, res, max, dl));
    r.endedAt = ctx.host.now();
    return finish(r);
  } finally {
    dl.cancel();
    emitResponse(ctx, r);
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    const n = Math.min(c.byteLength, size - off);
    out.set(c.subarray(0, n), off);
    off += n;
    if (off >= size) break;
  }
  return out;
}

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

/**
 * Opens an SSE stream and hands each parsed event to `onEvent` (return `'stop'` to close early).
 * Bounded by the total budget (`timeoutMs`), an idle timeout and an event count; never throws.
 * Events split across chunks, BOMs, comments and retry fields are handled by eventsource-parser.
 */
export async function stream(
  ctx: HttpContext,
  req: StreamRequest,
  onEvent: (m: SseMessage) => 'stop' | void,
): Promise<StreamOutcome> {
  const first = await withSlot(ctx, () => streamNow(ctx, req, onEvent));
  // As for exchanges: a rate-limited agent that says when to come back gets one polite retry; a second 429 stands.
  const wait = first.reason === 'not-stream' && first.result.status === 429 ? retryAfterMs(first.result.headers.get('retry-after'), ctx.host.now()) : undefined;
  if (wait === undefined || wait > MAX_RETRY_AFTER_MS || ctx.signal.aborted) return first;
  try {
    await ctx.host.sleep(wait, ctx.signal);
  } catch {
    return first;
  }
  return withSlot(ctx, () => streamNow(ctx, req, onEvent));
}

async function streamNow(
  ctx: HttpContext,
  req: StreamRequest,
  onEvent: (m: SseMessage) => 'stop' | void,
): Promise<StreamOutcome> {
  const id = ctx.newId('x');
  const startedAt = ctx.host.now();
  emitRequest(ctx, id, req, startedAt);
  const dl = deadline(ctx, req.timeoutMs ?? ctx.limits.requestTimeoutMs);
  const r = emptyResult(id, startedAt, req.url);
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
    let res: Response;
    try {
      res = await Promise.race([
        ctx.host.fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: dl.signal }),
        abortPromise(dl.signal),
      ]);
    } catch (e) {
      r.error = classifyFetchError(e, dl, ctx, 'connect');
      out.reason = 'error';
      r.endedAt = ctx.host.now();
      return { ...out, result: finish(r) };
    }
    r.headersAt = ctx.host.now();
    if (res.headers.get(PROXY_ERROR_HEADER)) {
      r.error = await proxyError(res);
      out.reason = 'error';
      r.endedAt = ctx.host.now();
      return { ...out, result: finish(r) };
    }
    r.responded = true;
    r.status = upstreamStatus(res);
    r.headers = res.headers;
    r.contentType = res.headers.get('content-type') ?? '';
    isStream = /^\s*text\/event-stream/i.test(r.contentType);
    if (!isStream || !res.body) {
      // Not a stream: read it as a normal (bounded) body so the check can show what came instead.
      Object.assign(r, await readBody(ctx, res, req.maxBytes ?? ctx.limits.maxBodyBytes, dl));
      out.reason = 'not-stream';
      r.endedAt = ctx.host.now();
      return { ...out, result: finish(r) };
    }
    let last: number | undefined;
    let stop = false;
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
          out.ignoredLines.push({ type: e.type, field: e.field ?? (e.type === 'invalid-retry' ? 'retry' : ''), value: truncate(e.value ?? '', 200), line: truncate(e.line ?? '', 300) });
        }
      },
    });
    const normalize = lineEndNormalizer();
    const reader = res.body.getReader();
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
        r.error = { source: 'abort', code: 'aborted', message: 'The run was stopped.', blame: 'tool' };
      } else {
        out.reason = 'error';
        r.error = classifyFetchError(e, dl, ctx, 'body');
      }
    } finally {
      reader.cancel().catch(() => undefined);
    }
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

function safeSummary(f: StreamRequest['summarize'], m: EventSourceMessage): string | undefined {
  if (!f) return undefined;
  try {
    return f(m);
  } catch {
    return undefined;
  }
}

/** Reads at most `max` bytes of a body, bounded by the deadline; never throws. */
async function readBody(
  ctx: HttpContext,
  res: Response,
  max: number,
  dl: Deadline,
): Promise<Pick<HttpResult, 'text' | 'bom' | 'invalidUtf8' | 'bytes' | 'truncated' | 'error'>> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  let error: TransportError | undefined;
  if (res.body) {
    const reader = res.body.getReader();
    const aborted = abortPromise(dl.signal);
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), aborted]);
        if (done) break;
        const room = max - total;
        if (value.byteLength > room) {
          if (room > 0) chunks.push(value.subarray(0, room));
          total += value.byteLength;
          truncated = true;
          break;
        }
        chunks.push(value);
        total += value.byteLength;
      }
    } catch (e) {
      error = classifyFetchError(e, dl, ctx, 'body');
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }
  return { ...decode(concat(chunks, Math.min(total, max))), bytes: total, truncated, error };
}
