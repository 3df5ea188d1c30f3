/**
 * The engine's Host in the browser. `proxy` mode sends every request through the CORS proxy
 * (`/proxy?url=<target>` on the same origin by default, or a hosted proxy); `direct` mode calls fetch
 * as is, for agents that allow CORS (a CORS refusal surfaces as a TypeError the engine classifies).
 *
 * @example
 * const host = createBrowserHost({ mode: 'proxy' });
 * const health = await checkProxyHealth('/proxy'); // { ok: true, mode: 'local' }
 */
import {
  PROXY_CLIENT_HEADER,
  PROXY_ERROR_HEADER,
  PROXY_FORWARD_HEADERS_HEADER,
  PROXY_PREFLIGHT_PATH,
  PROXY_REDIRECT_HEADER,
  type PreflightDiagnostic,
} from '../engine/model/proxy';
import { isAbortError, timerSleep, type Host, type PreflightRequest, type PreflightResult } from '../engine/ports';
import { createBridgeTransport } from '../grpc/bridge-client';
import { createRemoteInbox } from '../inbox/client';
import { problemResponse } from '../proxy/errors';
import { FORWARD_REQUEST_HEADERS } from '../proxy/policy';

export { explainTarget } from '../proxy/explain';

export interface BrowserHostOptions {
  mode: 'proxy' | 'direct';
  /** The proxy endpoint; default the same origin's `/proxy`. */
  proxyUrl?: string;
  /** Injected fetch (tests); default the global one. */
  fetch?: typeof fetch;
  /**
   * Where the push webhook inbox lives (the server that mounts /inbox): default the dashboard's own server when the
   * proxy is on the same origin (a relative proxy URL); `false` for none (the push delivery checks then skip).
   */
  inboxBaseUrl?: string | false;
  /**
   * The local server's gRPC bridge (src/grpc/bridge.ts): default `/grpc-bridge` beside the inbox (the dashboard's own
   * server); `false` for none (gRPC interfaces are then not testable). A hosted server refuses it: gRPC needs the
   * local server.
   */
  grpcBridgeUrl?: string | false;
  /**
   * Credentials may go over plain HTTP to hosts other than this machine (the settings' local-testing switch; engine
   * http/insecure.ts). Default off: https or loopback only.
   */
  allowInsecureCredentials?: boolean;
}

/** The inbox base for a proxy URL: '' (same origin) for a relative one such as `/proxy`; none for another origin. */
export function inboxBaseFor(proxyUrl: string): string | undefined {
  const base = proxyUrl.split('?')[0] ?? '';
  if (!base.startsWith('/') || base.startsWith('//')) return undefined;
  return base.replace(/\/+$/, '').replace(/\/proxy$/, '');
}

const DEFAULT_PROXY_URL = '/proxy';

/** `${proxyUrl}?url=<encoded target>` (keeps an existing query on the proxy URL). */
export function proxiedUrl(proxyUrl: string, target: string): string {
  const base = proxyUrl.replace(/\/+$/, '') || DEFAULT_PROXY_URL;
  return `${base}${base.includes('?') ? '&' : '?'}url=${encodeURIComponent(target)}`;
}

const FORWARDED = new Set<string>(FORWARD_REQUEST_HEADERS);
// The browser sets these itself or the proxy ignores them; they are not declared for forwarding.
const NOT_DECLARED = new Set(['content-length', PROXY_CLIENT_HEADER, PROXY_FORWARD_HEADERS_HEADER, PROXY_REDIRECT_HEADER]);

export function createBrowserHost(opts: BrowserHostOptions): Host {
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const proxyUrl = opts.proxyUrl ?? DEFAULT_PROXY_URL;
  const inboxBase = opts.inboxBaseUrl === undefined ? inboxBaseFor(proxyUrl) : opts.inboxBaseUrl || undefined;
  const sameOrigin = inboxBaseFor(proxyUrl);
  const grpcBridge = opts.grpcBridgeUrl === undefined ? (sameOrigin === undefined ? undefined : `${sameOrigin}/grpc-bridge`) : opts.grpcBridgeUrl || undefined;
  const base = {
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID,
    transport: opts.mode,
    ...(opts.allowInsecureCredentials && { allowInsecureCredentials: true }),
    ...(inboxBase !== undefined && { inbox: createRemoteInbox({ baseUrl: inboxBase, fetch: doFetch }) }),
    ...(grpcBridge !== undefined && { grpc: createBridgeTransport({ url: grpcBridge, fetch: doFetch }) }),
  } satisfies Omit<Host, 'fetch'>;
  if (opts.mode === 'direct') return { ...base, fetch: (url, init) => doFetch(url, init) };
  return {
    ...base,
    preflight: (req) => proxyPreflight(doFetch, proxyUrl, req),
    async fetch(url, init) {
      const headers = new Headers(init.headers);
      headers.set(PROXY_CLIENT_HEADER, '1');
      // Extra headers the engine sends (the API-key header a card names) must be declared to the proxy.
      const extra = [...headers.keys()].filter((n) => !FORWARDED.has(n) && !NOT_DECLARED.has(n));
      if (extra.length) headers.set(PROXY_FORWARD_HEADERS_HEADER, extra.join(', '));
      const proxied = proxiedUrl(proxyUrl, url);
      try {
        return await doFetch(proxied, {
          ...init,
          headers,
          // No dashboard cookies to the proxy, and no browser login prompt on an agent's 401.
          credentials: 'omit',
          cache: 'no-store',
          redirect: 'follow',
        });
      } catch (e) {
        if (init.signal?.aborted || isAbortError(e)) throw e;
        // The proxy itself did not answer: a proxy-made error, never the agent's fault.
        return unreachable(proxyUrl, e);
      }
    },
  };
}

/** The proxy's base (`/proxy` of `/proxy?x=y`), for its sub-paths. */
const proxyBase = (proxyUrl: string) => (proxyUrl.split('?')[0] ?? '').replace(/\/+$/, '') || DEFAULT_PROXY_URL;

/**
 * Browser readiness through the proxy: a page cannot send a CORS preflight by hand (Origin is a forbidden
 * header), so the proxy's diagnostic endpoint sends it and reports the target's Access-Control-* headers.
 */
async function proxyPreflight(doFetch: typeof fetch, proxyUrl: string, req: PreflightRequest): Promise<PreflightResult> {
  const base = proxyBase(proxyUrl);
  const path = base.endsWith('/proxy') ? `${base.slice(0, -'/proxy'.length)}${PROXY_PREFLIGHT_PATH}` : `${base}/preflight`;
  const q = new URLSearchParams({ url: req.url, method: req.method, headers: req.headers.join(',') });
  try {
    const res = await doFetch(`${path}?${q}`, { headers: { [PROXY_CLIENT_HEADER]: '1' }, credentials: 'omit', cache: 'no-store', signal: req.signal });
    const code = res.headers.get(PROXY_ERROR_HEADER);
    if (code) {
      let detail = '';
      try {
        detail = String(((await res.json()) as { detail?: unknown }).detail ?? '');
      } catch {
        /* informational */
      }
      const blame =
        code === 'upstream_reset' || code === 'upstream_timeout'
          ? 'agent'
          : code === 'connect_failed' || code === 'dns_failed' || code === 'tls_failed'
            ? 'unknown'
            : 'tool';
      return { ok: false, error: `the proxy reported ${code}${detail ? `: ${detail}` : ''}`, blame };
    }
    if (!res.ok) return { ok: false, error: `the proxy's preflight endpoint answered HTTP ${res.status} (an older proxy?)`, blame: 'tool' };
    const d = (await res.json()) as PreflightDiagnostic;
    return { ok: true, status: d.status, headers: d.headers ?? {} };
  } catch (e) {
    if (isAbortError(e)) throw e;
    return { ok: false, error: `the proxy could not be reached (${e instanceof Error ? e.message : String(e)})`, blame: 'tool' };
  }
}

function unreachable(proxyUrl: string, e: unknown): Response {
  return problemResponse(
    'proxy_unreachable',
    `No answer from the proxy at ${proxyUrl} (${e instanceof Error ? e.message : String(e)}). Is the dashboard server running, or is the proxy URL setting right?`,
  );
}

export interface ProxyHealth {
  ok: boolean;
  mode?: string;
  version?: string;
  error?: string;
}

/** Asks `${proxyUrl}/health`; never throws. */
export async function checkProxyHealth(
  proxyUrl: string = DEFAULT_PROXY_URL,
  opts: { fetch?: typeof fetch; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ProxyHealth> {
  const doFetch: typeof fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const url = `${(proxyUrl.split('?')[0] ?? '').replace(/\/+$/, '') || DEFAULT_PROXY_URL}/health`;
  const signals = [AbortSignal.timeout(opts.timeoutMs ?? 5_000), ...(opts.signal ? [opts.signal] : [])];
  try {
    const res = await doFetch(url, {
      headers: { [PROXY_CLIENT_HEADER]: '1' },
      credentials: 'omit',
      cache: 'no-store',
      signal: AbortSignal.any(signals),
    });
    const code = res.headers.get(PROXY_ERROR_HEADER);
    if (code) return { ok: false, error: `The proxy refused the health check (${code}).` };
    if (!res.ok) return { ok: false, error: `The proxy health check answered HTTP ${res.status}.` };
    const body = (await res.json()) as unknown;
    if (typeof body !== 'object' || body === null || (body as { ok?: unknown }).ok !== true) {
      return { ok: false, error: `${url} did not answer like the a2a-interop proxy.` };
    }
    const b = body as { mode?: unknown; version?: unknown };
    return {
      ok: true,
      mode: typeof b.mode === 'string' ? b.mode : undefined,
      version: typeof b.version === 'string' ? b.version : undefined,
    };
  } catch (e) {
    if (isAbortError(e)) return { ok: false, error: `No answer from ${url} in time.` };
    return { ok: false, error: `The proxy at ${url} could not be reached (${e instanceof Error ? e.message : String(e)}).` };
  }
}

function randomUUID(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // Outside secure contexts randomUUID is missing; build a v4 UUID from getRandomValues.
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
