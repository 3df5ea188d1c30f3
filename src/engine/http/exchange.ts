import type { TransportError } from '../model/events';
import { safeJsonParse, truncate, type JsonParse } from '../util/json';
import { readBody } from './body';
import { originOf, withSlot, type HttpContext } from './context';
import { insecureCredentialError } from './insecure';
import { abortPromise, classifyFetchError, deadline, isProxyError, proxyError, upstreamStatus, type Deadline } from './transport-errors';

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
  /** `manual`: a 3xx comes back as it is (the security review follows hops itself); default `follow`. */
  redirect?: 'follow' | 'manual';
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

/** An HttpResult being filled in (`json()` is added by `finish`). */
export type PartialResult = Omit<HttpResult, 'json'>;

/** Adds the memoized `json()` reader. */
export function finish(partial: PartialResult): HttpResult {
  let parsed: JsonParse | undefined;
  return {
    ...partial,
    json: () => (parsed ??= partial.text ? safeJsonParse(partial.text) : { ok: false, error: 'empty body' }),
  };
}

/** One exchange under way: its (redacted) request is recorded, its deadline runs. */
export interface Opening {
  id: string;
  r: PartialResult;
  dl: Deadline;
  /** The response head, when the agent answered (proxy-made failures and transport errors are in `r.error`). */
  res?: Response;
}

/**
 * The one response opener of exchanges and streams: records the request, fetches within the deadline, decodes a
 * proxy-made error response and fills the response head of `r`. Never throws. The caller reads the body, then
 * calls `dl.cancel()` and `emitResponse`.
 */
export async function openResponse(ctx: HttpContext, given: HttpRequest): Promise<Opening> {
  const req = ctx.auth ? { ...given, headers: await ctx.auth.prepare(given.headers) } : given;
  const id = ctx.newId('x');
  const startedAt = ctx.host.now();
  emitRequest(ctx, id, req, startedAt);
  const dl = deadline(ctx, req.timeoutMs ?? ctx.limits.requestTimeoutMs);
  const r = emptyResult(id, startedAt, req.url);
  const insecure = insecureCredentialError(ctx, req.url, req.headers);
  if (insecure) {
    r.error = insecure;
    return { id, r, dl };
  }
  let res: Response;
  try {
    res = await Promise.race([
      ctx.host.fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: dl.signal, redirect: req.redirect ?? 'follow' }),
      abortPromise(dl.signal),
    ]);
  } catch (e) {
    r.error = classifyFetchError(e, dl, ctx, 'connect');
    r.endedAt = ctx.host.now();
    return { id, r, dl };
  }
  r.headersAt = ctx.host.now();
  if (isProxyError(res)) {
    r.error = await proxyError(res);
    r.endedAt = ctx.host.now();
    return { id, r, dl };
  }
  r.responded = true;
  r.status = upstreamStatus(res);
  r.headers = res.headers;
  r.contentType = res.headers.get('content-type') ?? '';
  return { id, r, dl, res };
}

const emptyResult = (id: string, startedAt: number, url: string): PartialResult => ({
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
      headers: ctx.redactor.headers(req.headers),
      body: req.body === undefined ? undefined : ctx.redactor.text(truncate(req.body, ctx.limits.previewBytes)),
      bodySize: req.body === undefined ? 0 : new TextEncoder().encode(req.body).length,
    },
  });
}

/** Records the response (or the failure) of an exchange; notes which origins answered (see HttpContext.answered). */
export function emitResponse(ctx: HttpContext, r: PartialResult, stream = false) {
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

/** Longest Retry-After we honour with a retry; longer ones are reported as they are. */
const MAX_RETRY_AFTER_MS = 5_000;

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from now; undefined if unusable. */
export function retryAfterMs(v: string | null, now: number): number | undefined {
  if (!v) return undefined;
  const t = v.trim();
  if (/^\d{1,6}$/.test(t)) return Number(t) * 1000;
  const at = Date.parse(t);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * Runs `attempt` in a request slot; a rate-limited agent that says when to come back (`rateLimited` gives its
 * 429 answer) gets one polite retry (both exchanges are recorded). A second 429 stands and is judged.
 */
export async function withPoliteRetry<T>(ctx: HttpContext, attempt: () => Promise<T>, rateLimited: (t: T) => HttpResult | undefined): Promise<T> {
  const first = await withSlot(ctx, attempt);
  const limited = rateLimited(first);
  const wait = limited?.status === 429 ? retryAfterMs(limited.headers.get('retry-after'), ctx.host.now()) : undefined;
  if (wait === undefined || wait > MAX_RETRY_AFTER_MS || ctx.signal.aborted) return first;
  try {
    await ctx.host.sleep(wait, ctx.signal);
  } catch {
    return first;
  }
  return withSlot(ctx, attempt);
}

/**
 * One request/response exchange, recorded as `http-request` / `http-response` events.
 * Never throws: every failure becomes `result.error`, classified so that our own failures are
 * never blamed on the agent.
 */
export async function exchange(ctx: HttpContext, req: HttpRequest): Promise<HttpResult> {
  const first = await withPoliteRetry(
    ctx,
    () => exchangeNow(ctx, req),
    (r) => r,
  );
  // An OAuth token the agent no longer takes (expired early, revoked): one retry with a new token, recorded too.
  const renewed = first.status === 401 && ctx.auth ? await ctx.auth.retry(req.headers, first.startedAt) : undefined;
  return renewed
    ? withPoliteRetry(
        ctx,
        () => exchangeNow(ctx, { ...req, headers: renewed }),
        (r) => r,
      )
    : first;
}

async function exchangeNow(ctx: HttpContext, req: HttpRequest): Promise<HttpResult> {
  const { r, dl, res } = await openResponse(ctx, req);
  try {
    if (res) {
      Object.assign(r, await readBody(ctx, res, req.maxBytes ?? ctx.limits.maxBodyBytes, dl));
      r.endedAt = ctx.host.now();
    }
    return finish(r);
  } finally {
    dl.cancel();
    emitResponse(ctx, r);
  }
}
