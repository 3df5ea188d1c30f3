/**
 * The proxy's configuration, its defaults and the transport contract (UpstreamFetch) its adapters implement
 * (node-upstream.ts for Node, fetch for Workers). The handler itself is in handler.ts, which re-exports all of this.
 */
import type { AddressPolicy, ProxyMode } from './policy.js';
import type { RateLimitOptions, RateLimiter } from './rate-limit.js';

export const PROXY_VERSION = '0.1.0';

export interface ProxyTimeouts {
  /** DNS + TCP + TLS. */
  connectMs: number;
  /** Connected until the response head arrives. */
  firstByteMs: number;
  /** Silence allowed between two body chunks (streams have no total limit). */
  idleMs: number;
}

export interface ProxyLimits {
  maxRequestBytes: number;
  /**
   * Bytes of a request body kept to resend it on a 307/308 redirect; dropped once the response head arrives. A larger
   * body streams through but a redirect that would resend it is refused (`redirect_blocked`).
   */
  maxReplayBytes: number;
  /** Replay copies of all requests together (bodies whose response head has not arrived yet); beyond, not kept. */
  maxReplayTotalBytes: number;
  /** Proxied requests one client may have open at once, response bodies (streams) included; 0 = no limit. */
  maxOpenPerClient: number;
  /** Longest a response body (an SSE stream) is relayed, ms; 0 = no limit. */
  maxStreamMs: number;
  /** Decoded bytes of a non-stream response. `text/event-stream` bodies are not limited (idle timeout only). */
  maxResponseBytes: number;
  maxRedirects: number;
}

// The engine's own budgets (30 s by default) are shorter, so the engine, which knows the check, times out first.
export const PROXY_DEFAULT_TIMEOUTS: ProxyTimeouts = { connectMs: 10_000, firstByteMs: 120_000, idleMs: 120_000 };
export const PROXY_DEFAULT_LIMITS: ProxyLimits = {
  maxRequestBytes: 5 * 1024 * 1024,
  maxReplayBytes: 1024 * 1024,
  maxReplayTotalBytes: 64 * 1024 * 1024,
  maxOpenPerClient: 0,
  maxStreamMs: 0,
  maxResponseBytes: 16 * 1024 * 1024,
  maxRedirects: 5,
};
export const PROXY_DEFAULT_RATE_LIMIT: RateLimitOptions = { limit: 600, windowMs: 60_000 };
/** What a hosted proxy adds to PROXY_DEFAULT_LIMITS: strangers share its memory and sockets. */
export const PROXY_HOSTED_LIMITS: Pick<ProxyLimits, 'maxOpenPerClient' | 'maxStreamMs'> = { maxOpenPerClient: 32, maxStreamMs: 15 * 60_000 };

/** One upstream request, one hop (the handler follows redirects itself). */
export interface UpstreamRequest {
  url: URL;
  method: string;
  headers: Headers;
  body: ReadableStream<Uint8Array> | Uint8Array | null;
  /** Content-Length the client declared (or of a replayed body); undefined means chunked. */
  bodyLength?: number;
  signal: AbortSignal;
  timeouts: ProxyTimeouts;
}

export interface UpstreamResponse {
  /** As received (may be outside 200..599 for hostile agents). */
  status: number;
  statusText?: string;
  headers: Headers;
  body: ReadableStream<Uint8Array> | null;
  /** The transport already removed the Content-Encoding (Workers' fetch does). */
  decoded?: boolean;
}

/**
 * The transport. Throws `UpstreamError` (or any error, classified by `classifyUpstreamError`) when no
 * response head arrives. Must not follow redirects. Node checks every resolved address at connect time.
 */
export type UpstreamFetch = (req: UpstreamRequest) => Promise<UpstreamResponse>;

export interface ProxyConfig {
  mode: ProxyMode;
  upstream: UpstreamFetch;
  /** The transport enforces connect and first-byte timeouts itself (Node); otherwise the handler bounds both. */
  upstreamEnforcesTimeouts?: boolean;
  /** SPA origins allowed cross-origin (exact match); they get CORS headers. Same-origin needs no entry. */
  allowedOrigins?: readonly string[];
  /** Extra Host names accepted (local mode always accepts loopback and localhost); `.example.com` matches subdomains. */
  allowedHosts?: readonly string[];
  /** Overrides which addresses may be reached (default: anything locally, public unicast when hosted). */
  addressPolicy?: AddressPolicy;
  timeouts?: Partial<ProxyTimeouts>;
  limits?: Partial<ProxyLimits>;
  /** Hosted default: 600 requests a minute per client; local default: off. */
  rateLimit?: RateLimiter | RateLimitOptions | false;
  version?: string;
  /** Monotonic clock for Server-Timing, ms. */
  now?: () => number;
}

export interface ProxyRequestInfo {
  /** The client's address, the rate-limit key (socket address in Node, CF-Connecting-IP on Workers). */
  clientAddress?: string;
}

export type ProxyHandler = (req: Request, info?: ProxyRequestInfo) => Promise<Response>;
