import { PROXY_ERROR_HEADER, type ProxyErrorCode, type ProxyProblem } from '../engine/model/proxy.js';
import { SENSITIVE_QUERY_PARAM } from '../engine/model/secrets.js';

/** HTTP status of a proxy-made response, per error code. */
export const PROXY_ERROR_STATUS: Record<ProxyErrorCode, number> = {
  bad_target: 400,
  target_blocked: 403,
  origin_not_allowed: 403,
  request_too_large: 413,
  response_too_large: 502,
  rate_limited: 429,
  stream_limit: 429,
  dns_failed: 502,
  connect_failed: 502,
  tls_failed: 502,
  upstream_reset: 502,
  redirect_blocked: 502,
  too_many_redirects: 502,
  upstream_timeout: 504,
  proxy_unreachable: 502,
};

const TITLES: Record<ProxyErrorCode, string> = {
  bad_target: 'The target URL is not acceptable',
  target_blocked: 'The target address is not allowed by this proxy',
  origin_not_allowed: 'This client may not use the proxy',
  request_too_large: 'The request body is larger than the proxy allows',
  response_too_large: 'The agent sent a response larger than the proxy allows',
  rate_limited: 'Too many requests through the proxy',
  stream_limit: "The proxy's limit on open requests or stream time was reached",
  dns_failed: "The agent's host name did not resolve",
  connect_failed: 'The proxy could not connect to the agent',
  tls_failed: 'The TLS handshake with the agent failed',
  upstream_reset: 'The agent closed the connection before answering',
  redirect_blocked: 'The proxy refused to follow a redirect',
  too_many_redirects: 'The agent redirected too many times',
  upstream_timeout: 'The agent did not answer in time',
  proxy_unreachable: 'The proxy could not be reached',
};

/**
 * A failure the upstream transport (Node sockets, Workers fetch) or the handler itself attributes to
 * a proxy error code. Thrown by `UpstreamFetch` implementations; anything else is classified by
 * `classifyUpstreamError`.
 */
export class UpstreamError extends Error {
  readonly code: ProxyErrorCode;
  constructor(code: ProxyErrorCode, message: string) {
    super(message);
    this.name = 'UpstreamError';
    this.code = code;
  }
}

const SENSITIVE_QUERY = SENSITIVE_QUERY_PARAM;

/** The URL with userinfo removed and credential-like query values masked (same names as the engine's Redactor). */
export function redactUrl(u: URL | string): string {
  let url: URL;
  try {
    url = new URL(String(u));
  } catch {
    return '';
  }
  url.username = '';
  url.password = '';
  for (const key of [...url.searchParams.keys()]) {
    if (SENSITIVE_QUERY.test(key)) url.searchParams.set(key, '[REDACTED]');
  }
  return url.href;
}

/**
 * A proxy-made response: `X-Proxy-Error: <code>` plus an RFC 9457 problem body. The detail is
 * written by the proxy; agent-supplied text is never echoed except the (redacted) target URL.
 */
export function problemResponse(code: ProxyErrorCode, detail: string, opts: { target?: URL | string; status?: number; headers?: HeadersInit } = {}): Response {
  const status = opts.status ?? PROXY_ERROR_STATUS[code];
  const body: ProxyProblem = {
    type: `urn:a2a-interop:proxy-error:${code}`,
    title: TITLES[code],
    status,
    detail,
    code,
  };
  if (opts.target !== undefined) {
    const t = redactUrl(opts.target);
    if (t) body.target = t;
  }
  const headers = new Headers(opts.headers);
  headers.set('content-type', 'application/problem+json; charset=utf-8');
  headers.set(PROXY_ERROR_HEADER, code);
  headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
  return new Response(JSON.stringify(body), { status, headers });
}

const TLS_CODES =
  /^(?:EPROTO|ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(?:VERIFY|GET)_|ERR_OSSL_|HOSTNAME_MISMATCH)/;

function errorCodeOf(e: unknown): { code: string; message: string } {
  const err = e as { code?: unknown; message?: unknown; cause?: { code?: unknown; message?: unknown } } | null;
  const code = String(err?.code ?? err?.cause?.code ?? '');
  const message = [err?.message, err?.cause?.message].filter((m) => typeof m === 'string' && m).join(': ');
  return { code, message };
}

/**
 * Maps a transport failure before response headers to a proxy error. Knows Node's socket error codes
 * and the messages Workers' fetch uses; the fallback is `connect_failed` (could not reach the agent).
 */
export function classifyUpstreamError(e: unknown): UpstreamError {
  if (e instanceof UpstreamError) return e;
  const { code, message } = errorCodeOf(e);
  const text = message || code || 'network error';
  if (/^(?:ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NODATA|EAI_NONAME)$/.test(code) || /getaddrinfo|DNS|resolve host/i.test(message)) {
    return new UpstreamError('dns_failed', `DNS lookup failed (${text}).`);
  }
  if (/^(?:ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ETIMEDOUT|ENETDOWN)$/.test(code)) {
    return new UpstreamError('connect_failed', `Could not connect (${text}).`);
  }
  if (TLS_CODES.test(code) || /\b(?:TLS|SSL|certificate)\b/i.test(message)) {
    return new UpstreamError('tls_failed', `TLS failed (${text}).`);
  }
  if (
    /^(?:ECONNRESET|EPIPE|ECONNABORTED|UND_ERR_SOCKET)$/.test(code) ||
    /^HPE_/.test(code) ||
    /hang up|connection (?:lost|reset|closed)|terminated/i.test(message)
  ) {
    return new UpstreamError('upstream_reset', `The connection closed before a complete response head (${text}).`);
  }
  if (/refused|unreachable|connect/i.test(message)) return new UpstreamError('connect_failed', `Could not connect (${text}).`);
  return new UpstreamError('connect_failed', `The request to the agent failed (${text}).`);
}
