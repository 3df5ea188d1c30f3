/**
 * The webhook inbox as one Web-standard `fetch(Request) => Response` handler (like src/proxy), mounted by the local
 * server (`npm start`) and by the CLI's ephemeral inbox:
 * - `POST <base>/inbox` (dashboard only: needs the `X-A2A-Interop` header) opens an address: 201 {token, url};
 * - `POST .../inbox/<token>` is a delivery from an agent: recorded (body capped, secrets masked), 200; unknown 404;
 * - `GET .../inbox/<token>/deliveries?after=<seq>&waitMs=<ms>` (dashboard) long-polls for deliveries after `after`;
 * - `DELETE .../inbox/<token>` (dashboard) forgets the address.
 * The inbox never makes an outgoing request, so it cannot be used as a relay; in hosted mode the proxy's refusal of
 * private targets is unchanged. Anything before `/inbox/` in the path is ignored, so a forwarder that keeps its own
 * prefix (a `--webhook-url` with a path) still reaches it.
 *
 * Strangers can reach it, so it applies the proxy's client policy (`access`): the Host must be one the server answers
 * to (DNS rebinding), a foreign Origin is refused everywhere and a hosted inbox opens addresses only for the
 * dashboard's origins, and each client address has a rate limit. What it keeps is bounded by the store's budgets
 * (store.ts); bodies are read at most `maxConcurrentReads` at a time, `maxConcurrentReadsPerClient` per client address. Refusals say why: 403 (policy), 413 (body too
 * large), 429 (rate, or this client's open addresses), 503 (every address in use, or too many bodies arriving).
 */
import type { InboxExpectation } from '../engine/model/inbox';
import { PROXY_CLIENT_HEADER } from '../engine/model/proxy';
import { classifyOrigin, isAllowedLocalHost, matchesHostList, type ProxyMode } from '../proxy/policy';
import { createRateLimiter, type RateLimitOptions, type RateLimiter } from '../proxy/rate-limit';
import { InboxStore, TOKEN_PATTERN, type InboxLimits } from './store';

/** Who may use the inbox: the same policy as the proxy's (src/proxy/handler.ts). */
export interface InboxAccess {
  mode: ProxyMode;
  /** Dashboard origins besides the page's own (exact). */
  allowedOrigins?: readonly string[];
  /** Host names answered to (local mode: loopback names always; hosted: only these when given). */
  allowedHosts?: readonly string[];
  /** Requests per client address (hosted default 600 a minute; local default off). */
  rateLimit?: RateLimiter | RateLimitOptions | false;
}

export interface InboxRequestInfo {
  /** The sender's address: the rate-limit and per-client key. */
  clientAddress?: string;
}

export interface InboxHandlerOptions {
  store?: InboxStore;
  limits?: Partial<InboxLimits>;
  /**
   * The public base URL addresses are given under (`<base>/inbox/<token>`); default the origin the dashboard's
   * request came to (right for agents on this machine).
   */
  publicBaseUrl?: string;
  /** How long a delivery's body may take to arrive, ms (default 10 s). */
  bodyTimeoutMs?: number;
  /** The client policy; default none (the CLI's own listener, in-process tests). */
  access?: InboxAccess;
  /** Delivery bodies read at once (default 256); one more is answered 503. */
  maxConcurrentReads?: number;
  /** Delivery bodies read at once from one client address (default 8): slow bodies from one sender cannot take every slot. */
  maxConcurrentReadsPerClient?: number;
}

export type InboxHandler = ((req: Request, info?: InboxRequestInfo) => Promise<Response>) & { store: InboxStore };

const ROUTE = /(?:^|\/)inbox(?:\/([^/]+)(\/deliveries)?)?\/?$/;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
  });

/** True when the path is one of the inbox's (for adapters deciding whether to hand a request over). */
export function isInboxPath(pathname: string): boolean {
  return pathname === '/inbox' || pathname.startsWith('/inbox/');
}

export function createInboxHandler(opts: InboxHandlerOptions = {}): InboxHandler {
  const store = opts.store ?? new InboxStore(opts.limits);
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? 10_000;
  const maxReads = opts.maxConcurrentReads ?? 256;
  const access = opts.access;
  // Per sender only where senders differ: on a local server (or the CLI's inbox) every agent posts from loopback, and
  // a 503 there loses a delivery the agent will not resend (the SDK's push sender does not retry).
  const maxReadsPerClient = opts.maxConcurrentReadsPerClient ?? (access?.mode === 'hosted' ? 8 : maxReads);
  const readingBy = new Map<string, number>();
  const rateOpt = access ? (access.rateLimit ?? (access.mode === 'hosted' ? { limit: 600, windowMs: 60_000 } : false)) : false;
  const limiter: RateLimiter | undefined = rateOpt === false ? undefined : 'take' in rateOpt ? rateOpt : createRateLimiter(rateOpt);
  let reading = 0;

  /** The proxy's Host, Origin and rate policy; a refusal, or undefined when the request may go on. */
  const refused = (req: Request, url: URL, client: string, opening: boolean): Response | undefined => {
    if (!access) return undefined;
    const host = req.headers.get('host') ?? url.host;
    const hosts = access.allowedHosts ?? [];
    const hostOk =
      access.mode === 'local' ? isAllowedLocalHost(host, hosts) : hosts.length === 0 || (!!host && matchesHostList(host.replace(/:\d+$/, ''), hosts));
    if (!hostOk) return json(403, { error: `the Host ${JSON.stringify(host.slice(0, 80))} is not one this server answers to (DNS rebinding)` });
    const origin = classifyOrigin(req.headers.get('origin'), host, access.allowedOrigins ?? []);
    if (origin === 'foreign') return json(403, { error: 'requests from another origin are refused' });
    if (opening && access.mode === 'hosted' && origin === 'none')
      return json(403, { error: "a hosted inbox opens addresses only for the dashboard's origins" });
    if (limiter) {
      const v = limiter.take(client);
      if (!v.ok) return json(429, { error: `too many requests from this client; retry in ${v.retryAfterSec} s` }, { 'retry-after': String(v.retryAfterSec) });
    }
    return undefined;
  };
  const drop = async (req: Request, res: Response) => {
    await req.body?.cancel().catch(() => undefined);
    return res;
  };

  const handler = async (req: Request, info: InboxRequestInfo = {}): Promise<Response> => {
    const url = new URL(req.url);
    const m = ROUTE.exec(url.pathname);
    if (!m) return drop(req, json(404, { error: 'not an inbox route' }));
    const [, token, reads] = m;
    const client = info.clientAddress ?? 'unknown';
    const no = refused(req, url, client, token === undefined);
    if (no) return drop(req, no);
    const fromDashboard = req.headers.get(PROXY_CLIENT_HEADER) === '1';
    if (token === undefined) {
      if (req.method !== 'POST') return drop(req, json(405, { error: 'POST opens an inbox' }, { allow: 'POST' }));
      if (!fromDashboard) return drop(req, json(403, { error: `opening an inbox needs the ${PROXY_CLIENT_HEADER} header` }));
      const body = await readCapped(req, 4096, bodyTimeoutMs);
      const expect = parseExpectation(body.bytes);
      const opened = store.open(expect, client);
      if (!opened.ok)
        return opened.reason === 'client'
          ? json(
              429,
              { error: `this client already has ${store.limits.maxInboxesPerClient} open inboxes; close one or wait for one to expire` },
              { 'retry-after': '60' },
            )
          : json(503, { error: `every inbox address (${store.limits.maxInboxes}) is in use; try again later` }, { 'retry-after': '60' });
      const t = opened.token;
      const base = (opts.publicBaseUrl ?? url.origin).replace(/\/+$/, '');
      return json(201, { token: t, url: `${base}/inbox/${t}` });
    }
    if (!TOKEN_PATTERN.test(token) || !store.has(token)) {
      await req.body?.cancel().catch(() => undefined);
      return json(404, { error: 'no such inbox' });
    }
    if (reads) {
      if (req.method !== 'GET') return json(405, { error: 'GET reads deliveries' }, { allow: 'GET' });
      if (!fromDashboard) return json(403, { error: `reading an inbox needs the ${PROXY_CLIENT_HEADER} header` });
      const after = Math.max(0, Number(url.searchParams.get('after')) || 0);
      const waitMs = Math.min(store.limits.maxWaitMs, Math.max(0, Number(url.searchParams.get('waitMs')) || 0));
      const fresh = () => store.since(token, after) ?? [];
      if (!fresh().length && waitMs > 0) await waitForChange(store, token, waitMs, req.signal);
      return json(200, { deliveries: fresh(), open: store.has(token), dropped: store.droppedFrom(token) ?? 0 });
    }
    if (req.method === 'DELETE') {
      if (!fromDashboard) return json(403, { error: `closing an inbox needs the ${PROXY_CLIENT_HEADER} header` });
      store.delete(token);
      return new Response(null, { status: 204 });
    }
    if (req.method !== 'POST') return drop(req, json(405, { error: 'deliveries are POSTed' }, { allow: 'POST' }));
    const mine = readingBy.get(client) ?? 0;
    if (reading >= maxReads || mine >= maxReadsPerClient)
      return drop(
        req,
        json(
          503,
          { error: `too many deliveries arriving at once${mine >= maxReadsPerClient ? ' from this client' : ''}; retry shortly` },
          { 'retry-after': '1' },
        ),
      );
    reading++;
    readingBy.set(client, mine + 1);
    let body: Awaited<ReturnType<typeof readCapped>>;
    try {
      body = await readCapped(req, store.limits.maxReadBytes, bodyTimeoutMs, store.limits.maxBodyBytes);
    } finally {
      reading--;
      const left = (readingBy.get(client) ?? 1) - 1;
      if (left > 0) readingBy.set(client, left);
      else readingBy.delete(client);
    }
    store.receive(token, {
      method: req.method,
      headers: req.headers,
      body: body.bytes,
      bodySize: body.size,
      truncated: body.truncated || body.size > body.bytes.byteLength,
    });
    if (body.truncated) return json(413, { error: `body over ${store.limits.maxReadBytes} bytes (kept the first ${store.limits.maxBodyBytes})` });
    return json(200, { received: true });
  };
  return Object.assign(handler, { store });
}

function parseExpectation(bytes: Uint8Array): InboxExpectation {
  try {
    const v = JSON.parse(new TextDecoder().decode(bytes)) as { expect?: { token?: unknown; authorization?: unknown } } | null;
    const e = v?.expect;
    return {
      ...(typeof e?.token === 'string' && { token: e.token }),
      ...(typeof e?.authorization === 'string' && { authorization: e.authorization }),
    };
  } catch {
    return {};
  }
}

function waitForChange(store: InboxStore, token: string, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const off = store.listen(token, done);
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Reads at most `max` bytes of the body within `timeoutMs`, keeping the first `keep` (default all it reads); a longer
 * body is cut (`truncated`) and cancelled. `size` counts what was read.
 */
async function readCapped(req: Request, max: number, timeoutMs: number, keep = max): Promise<{ bytes: Uint8Array; size: number; truncated: boolean }> {
  if (!req.body) return { bytes: new Uint8Array(), size: 0, truncated: false };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let kept = 0;
  let truncated = false;
  const timer = setTimeout(() => {
    truncated = true;
    reader.cancel('slow body').catch(() => undefined);
  }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const take = (v: Uint8Array) => {
        const room = keep - kept;
        // A copy: a view would pin the whole chunk's buffer.
        if (room > 0) chunks.push(v.byteLength > room ? v.slice(0, room) : v);
        kept += Math.min(room > 0 ? room : 0, v.byteLength);
      };
      const room = max - size;
      if (value.byteLength > room) {
        if (room > 0) take(value.subarray(0, room));
        size = max;
        truncated = true;
        await reader.cancel('too large').catch(() => undefined);
        break;
      }
      take(value);
      size += value.byteLength;
    }
  } catch {
    truncated = true;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(kept);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.byteLength;
  }
  return { bytes, size, truncated };
}
