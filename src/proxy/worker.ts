/**
 * Cloudflare Workers entry: the same handler in hosted mode, upstream through the Workers fetch.
 * Deployed Workers cannot reach private addresses or IP literals (the platform refuses them), so the
 * resolved-address check happens there; the handler still refuses private literals and localhost
 * names itself, and every redirect hop.
 *
 * Configuration (wrangler.jsonc `vars`):
 * - ALLOWED_ORIGINS: comma-separated dashboard origins allowed to use the proxy (exact match).
 * - RATE_LIMIT_PER_MINUTE: requests per client (CF-Connecting-IP) per minute, per isolate (default 600).
 * - CONNECT_TIMEOUT_MS / FIRST_BYTE_TIMEOUT_MS / IDLE_TIMEOUT_MS: upstream timeouts.
 * - MAX_OPEN_PER_CLIENT (default 32, per isolate) / MAX_STREAM_SECONDS (default 900): open requests per client, and
 *   how long one response body (a stream) is relayed; 0 turns either off.
 * - UNSAFE_ALLOW_TARGETS: `ip:port` pairs reachable despite the public-only rule. For local tests
 *   under workerd only; never set it in a deployment.
 */
import { UpstreamError, classifyUpstreamError } from './errors.js';
import { PROXY_VERSION, createProxyHandler, type ProxyHandler, type UpstreamFetch } from './handler.js';
import { defaultAddressPolicy } from './policy.js';

export interface Env {
  ALLOWED_ORIGINS?: string;
  ALLOWED_HOSTS?: string;
  RATE_LIMIT_PER_MINUTE?: string;
  CONNECT_TIMEOUT_MS?: string;
  FIRST_BYTE_TIMEOUT_MS?: string;
  IDLE_TIMEOUT_MS?: string;
  MAX_OPEN_PER_CLIENT?: string;
  MAX_STREAM_SECONDS?: string;
  UNSAFE_ALLOW_TARGETS?: string;
}

declare const FixedLengthStream: (new (length: number) => TransformStream<Uint8Array, Uint8Array>) | undefined;

/** Upstream through the Workers runtime's fetch (no redirects followed; the handler re-validates hops). */
export const workersUpstream: UpstreamFetch = async (u) => {
  let body: BodyInit | null = u.body as BodyInit | null;
  if (u.body instanceof ReadableStream && u.bodyLength !== undefined && typeof FixedLengthStream === 'function') {
    // Keep the client's Content-Length instead of switching to chunked encoding.
    const fixed = new FixedLengthStream(u.bodyLength);
    u.body.pipeTo(fixed.writable).catch(() => undefined);
    body = fixed.readable;
  }
  let res: Response;
  try {
    res = await fetch(u.url.href, { method: u.method, headers: u.headers, body, redirect: 'manual', signal: u.signal });
  } catch (e) {
    const reason: unknown = u.signal.aborted ? u.signal.reason : undefined;
    if (reason instanceof UpstreamError) throw reason;
    throw classifyUpstreamError(e);
  }
  // The runtime decodes gzip/brotli bodies itself (and keeps Content-Encoding as information).
  const enc = (res.headers.get('content-encoding') ?? '').trim().toLowerCase();
  return { status: res.status, statusText: res.statusText, headers: res.headers, body: res.body, decoded: enc === 'gzip' || enc === 'br' };
};

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const num = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : undefined);

export function createWorkerHandler(env: Env, upstream: UpstreamFetch = workersUpstream): ProxyHandler {
  const unsafe = new Set(list(env.UNSAFE_ALLOW_TARGETS));
  const base = defaultAddressPolicy('hosted');
  const perMinute = num(env.RATE_LIMIT_PER_MINUTE);
  const timeouts: { connectMs?: number; firstByteMs?: number; idleMs?: number } = {};
  if (num(env.CONNECT_TIMEOUT_MS) !== undefined) timeouts.connectMs = num(env.CONNECT_TIMEOUT_MS);
  if (num(env.FIRST_BYTE_TIMEOUT_MS) !== undefined) timeouts.firstByteMs = num(env.FIRST_BYTE_TIMEOUT_MS);
  if (num(env.IDLE_TIMEOUT_MS) !== undefined) timeouts.idleMs = num(env.IDLE_TIMEOUT_MS);
  const limits: { maxOpenPerClient?: number; maxStreamMs?: number } = {};
  const open = num(env.MAX_OPEN_PER_CLIENT);
  const streamSeconds = num(env.MAX_STREAM_SECONDS);
  if (open !== undefined) limits.maxOpenPerClient = open;
  if (streamSeconds !== undefined) limits.maxStreamMs = streamSeconds * 1000;
  return createProxyHandler({
    mode: 'hosted',
    upstream,
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    allowedHosts: list(env.ALLOWED_HOSTS),
    addressPolicy: unsafe.size ? (address, port) => unsafe.has(`${address}:${port}`) || base(address, port) : base,
    rateLimit: perMinute !== undefined ? { limit: perMinute, windowMs: 60_000 } : undefined,
    timeouts,
    limits,
    version: PROXY_VERSION,
  });
}

let cached: { env: Env; handler: ProxyHandler } | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (!cached || cached.env !== env) cached = { env, handler: createWorkerHandler(env) };
    return cached.handler(request, { clientAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
