/**
 * The contract between the CORS proxy (src/proxy) and the engine: how the proxy says "this response
 * was made by me, not by the agent". Responses that reached the agent carry `X-Proxy-Upstream-Status`;
 * responses the proxy made itself carry `X-Proxy-Error: <code>` and an `application/problem+json` body.
 */
export const PROXY_ERROR_HEADER = 'x-proxy-error';
export const PROXY_UPSTREAM_STATUS_HEADER = 'x-proxy-upstream-status';
/** Custom header the dashboard sends so the local proxy can refuse drive-by requests from other pages. */
export const PROXY_CLIENT_HEADER = 'x-a2a-interop';
/** SSE comment the proxy writes before ending a stream it had to cut (upstream reset, idle timeout). */
export const PROXY_STREAM_ERROR_COMMENT = ': x-proxy-error';
/**
 * Request header naming extra headers the proxy should forward (comma-separated), e.g. the API-key
 * header a card declares (`X-My-Key`). Names on the proxy's deny list (cookies, Origin, forwarding,
 * hop-by-hop) are never forwarded, declared or not.
 */
export const PROXY_FORWARD_HEADERS_HEADER = 'x-proxy-forward-headers';
/** Wire-log headers on responses that reached the agent: what actually crossed the proxy. */
export const PROXY_UPSTREAM_URL_HEADER = 'x-proxy-upstream-url';
export const PROXY_REDIRECTS_HEADER = 'x-proxy-redirects';
/** Names (never values) of the request headers the proxy forwarded upstream, comma-separated. */
export const PROXY_SENT_HEADERS_HEADER = 'x-proxy-sent-headers';
/**
 * Request header (never forwarded): `same-origin` asks the proxy not to follow a redirect to another origin
 * (`redirect_blocked` instead). The OAuth client sets it on token requests, whose body may carry the client secret.
 */
export const PROXY_REDIRECT_HEADER = 'x-proxy-redirect';

export const PROXY_ERROR_CODES = [
  'bad_target',
  'target_blocked',
  'origin_not_allowed',
  'request_too_large',
  'response_too_large',
  'rate_limited',
  /** The proxy's own budget for one client's open requests or one stream's lifetime ran out: never the agent's fault. */
  'stream_limit',
  'dns_failed',
  'connect_failed',
  'tls_failed',
  'upstream_reset',
  'redirect_blocked',
  'too_many_redirects',
  'upstream_timeout',
  /** Made by the browser host, not the proxy: the proxy itself could not be reached (not running, wrong URL). */
  'proxy_unreachable',
] as const;
export type ProxyErrorCode = (typeof PROXY_ERROR_CODES)[number];

/**
 * Who is to blame when the proxy reports `code`. `agent`: the proxy reached the agent and the agent
 * misbehaved (reset, never answered, sent too much); `tool`: the proxy refused or was misconfigured;
 * `unknown`: the agent could not be reached at all (down, wrong address, or a network between).
 */
export function proxyErrorBlame(code: string): 'agent' | 'tool' | 'unknown' {
  switch (code) {
    case 'upstream_reset':
    case 'upstream_timeout':
    case 'response_too_large':
    case 'too_many_redirects':
      return 'agent';
    case 'dns_failed':
    case 'connect_failed':
    case 'tls_failed':
      return 'unknown';
    default:
      return 'tool';
  }
}

/** RFC 9457 problem details body of a proxy-made response. */
export interface ProxyProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProxyErrorCode;
  /** The target URL, credentials in the query redacted. */
  target?: string;
}

/**
 * Diagnostic endpoint of the proxy: `GET /proxy/preflight?url=<target>&method=POST&headers=a,b` sends a CORS
 * preflight (OPTIONS with `Origin: PREFLIGHT_ORIGIN` and the Access-Control-Request-* headers) to the target
 * and answers `{ status, headers }` with the target's Access-Control-* response headers. It lets the dashboard
 * measure browser readiness, which a page cannot do by hand (browsers forbid setting Origin).
 */
export const PROXY_PREFLIGHT_PATH = '/proxy/preflight';
/** The origin a browser-readiness preflight presents: a web app somewhere else. */
export const PREFLIGHT_ORIGIN = 'https://dashboard.a2a-interop.example';

export interface PreflightDiagnostic {
  status: number;
  headers: Record<string, string>;
}
