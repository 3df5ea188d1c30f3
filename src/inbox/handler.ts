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
 */
import type { InboxExpectation } from '../engine/model/inbox';
import { PROXY_CLIENT_HEADER } from '../engine/model/proxy';
import { InboxStore, TOKEN_PATTERN, type InboxLimits } from './store';

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
}

export type InboxHandler = ((req: Request) => Promise<Response>) & { store: InboxStore };

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

  const handler = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const m = ROUTE.exec(url.pathname);
    if (!m) return json(404, { error: 'not an inbox route' });
    const [, token, reads] = m;
    const fromDashboard = req.headers.get(PROXY_CLIENT_HEADER) === '1';
    if (token === undefined) {
      if (req.method !== 'POST') return json(405, { error: 'POST opens an inbox' }, { allow: 'POST' });
      if (!fromDashboard) return json(403, { error: `opening an inbox needs the ${PROXY_CLIENT_HEADER} header` });
      const body = await readCapped(req, 4096, bodyTimeoutMs);
      const expect = parseExpectation(body.bytes);
      const t = store.create(expect);
      if (!t) return json(503, { error: 'too many open inboxes; try again later' }, { 'retry-after': '60' });
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
      return json(200, { deliveries: fresh(), open: store.has(token) });
    }
    if (req.method === 'DELETE') {
      if (!fromDashboard) return json(403, { error: `closing an inbox needs the ${PROXY_CLIENT_HEADER} header` });
      store.delete(token);
      return new Response(null, { status: 204 });
    }
    if (req.method !== 'POST') return json(405, { error: 'deliveries are POSTed' }, { allow: 'POST' });
    const body = await readCapped(req, store.limits.maxReadBytes, bodyTimeoutMs);
    store.receive(token, { method: req.method, headers: req.headers, body: body.bytes, bodySize: body.size, truncated: body.truncated });
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

/** Reads at most `max` bytes of the body within `timeoutMs`; a longer body is cut (`truncated`) and cancelled. */
export async function readCapped(req: Request, max: number, timeoutMs: number): Promise<{ bytes: Uint8Array; size: number; truncated: boolean }> {
  if (!req.body) return { bytes: new Uint8Array(), size: 0, truncated: false };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  const timer = setTimeout(() => {
    truncated = true;
    reader.cancel('slow body').catch(() => undefined);
  }, timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = max - size;
      if (value.byteLength > room) {
        if (room > 0) chunks.push(value.subarray(0, room));
        size = max;
        truncated = true;
        await reader.cancel('too large').catch(() => undefined);
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    truncated = true;
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let o = 0;
  for (const c of chunks) {
    bytes.set(c, o);
    o += c.byteLength;
  }
  return { bytes, size, truncated };
}
