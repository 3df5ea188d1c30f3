/**
 * What the proxy lets through: targets, addresses, headers and clients. Pure functions, shared by the
 * handler (every hop), the Node transport (every resolved address, at connect time) and the UI.
 */
import ipaddr from 'ipaddr.js';
import { PROXY_CLIENT_HEADER, PROXY_FORWARD_HEADERS_HEADER, PROXY_REDIRECT_HEADER } from '../engine/model/proxy.js';

export type ProxyMode = 'local' | 'hosted';

/** Decides whether the proxy may connect to `address` (an IP literal) on `port`. */
export type AddressPolicy = (address: string, port: number) => boolean;

// ---------------------------------------------------------------------------------------------
// Targets

export type TargetCheck = { ok: true; url: URL } | { ok: false; reason: string };

/** Parses the `url` query value: absolute http(s) URL, no userinfo, host decided by WHATWG parsing. */
export function parseTarget(raw: string | null | undefined): TargetCheck {
  if (raw === null || raw === undefined || raw === '') return { ok: false, reason: 'The `url` query parameter is missing.' };
  if (raw.length > 8192) return { ok: false, reason: 'The target URL is longer than 8192 characters.' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'The target is not an absolute URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `Only http and https targets are allowed (got ${url.protocol.slice(0, 20)}).` };
  }
  if (url.username || url.password) {
    return { ok: false, reason: 'Credentials in the URL (user:password@) are not allowed; send them as headers.' };
  }
  if (!url.hostname) return { ok: false, reason: 'The target URL has no host.' };
  url.hash = '';
  return { ok: true, url };
}

export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** The hostname without IPv6 brackets. */
export function bareHost(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/** `ipaddr.js` range of an address, IPv4-mapped IPv6 folded to IPv4; undefined when not an IP. */
export function addressRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  try {
    return ipaddr.process(address).range();
  } catch {
    return undefined;
  }
}

export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.startsWith('[') ? host.slice(1, -1) : host);
}

/**
 * IPv6 that ipaddr.js calls `unicast` but is not global unicast: everything outside 2000::/3 (IANA's global unicast
 * space; it leaves out ::/96 IPv4-compatible addresses such as `::7f00:1`, which is how WHATWG URL parsing spells
 * `[::127.0.0.1]`, and every other reserved block), and 2001::/23 (IETF protocol assignments: Teredo, benchmarking,
 * ORCHID, AMT, AS112, ...).
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NOT_GLOBAL_V6 = ['2001::/23', '3fff::/20'].map((c) => ipaddr.parseCIDR(c));

/** Public unicast only: no loopback, private, link-local, CGNAT, ULA, multicast, reserved, 6to4/NAT64/Teredo, ::/96. */
export function isPublicUnicast(address: string): boolean {
  if (addressRange(address) !== 'unicast') return false;
  const a = ipaddr.process(address);
  if (a.kind() === 'ipv4') return true;
  return a.match(GLOBAL_UNICAST_V6) && !NOT_GLOBAL_V6.some((c) => a.match(c));
}

/**
 * Ports browsers refuse to fetch (Fetch standard "bad port" list); a hosted proxy refuses them too so
 * it cannot be used to talk SMTP, IRC and friends.
 */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137,
  139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

export function defaultAddressPolicy(mode: ProxyMode): AddressPolicy {
  if (mode === 'local') return () => true;
  return (address, port) => isPublicUnicast(address) && !BAD_PORTS.has(port);
}

/** `localhost`, `*.localhost` (RFC 6761) with or without the trailing dot. */
export function isLocalhostName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Checks a target (first request or redirect hop) before any connection. IP literals are checked
 * here (Node does not call `lookup` for them); names are checked again on every resolved address.
 */
export function checkTargetAllowed(url: URL, mode: ProxyMode, policy: AddressPolicy): string | undefined {
  const host = bareHost(url);
  const port = portOf(url);
  if (isIpLiteral(host)) {
    if (!policy(host, port)) {
      const range = addressRange(host) ?? 'unknown';
      return mode === 'hosted'
        ? `A hosted proxy only reaches public unicast addresses; ${host} is ${range !== 'unicast' ? `a ${range} address` : isPublicUnicast(host) ? `on a refused port (${port})` : 'a reserved address (not global unicast)'}.`
        : `The address ${host} (port ${port}) is not allowed by this proxy.`;
    }
    return undefined;
  }
  if (mode === 'hosted' && isLocalhostName(host)) {
    return `A hosted proxy does not reach ${host}: localhost names always mean the proxy's own machine.`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Headers

/** Request headers forwarded upstream (the allowlist); anything else needs an explicit declaration. */
export const FORWARD_REQUEST_HEADERS = [
  'accept',
  'content-type',
  'authorization',
  'x-api-key',
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'last-event-id',
] as const;

/** Headers dropped when a redirect changes the origin (credentials). Declared API-key headers are added. */
export const CREDENTIAL_HEADERS = ['authorization', 'x-api-key'];

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/** Never forwarded upstream, even when declared: cookies, client identity, forwarding, hop-by-hop, framing. */
function isDeniedRequestHeader(name: string): boolean {
  const n = name.toLowerCase();
  return (
    HOP_BY_HOP.has(n) ||
    n === 'cookie' ||
    n === 'cookie2' ||
    n === 'host' ||
    n === 'origin' ||
    n === 'referer' ||
    n === 'forwarded' ||
    n === 'via' ||
    n === 'x-real-ip' ||
    n === 'true-client-ip' ||
    n === 'content-length' ||
    n === 'content-encoding' ||
    n === 'accept-encoding' ||
    n === 'expect' ||
    n === 'user-agent' ||
    n === 'priority' ||
    n === PROXY_CLIENT_HEADER ||
    n.startsWith('x-forwarded-') ||
    n.startsWith('x-proxy-') ||
    n.startsWith('proxy-') ||
    n.startsWith('sec-') ||
    n.startsWith('cf-') ||
    n.startsWith('access-control-')
  );
}

/** Header names listed in a Connection header (hop-by-hop for this message). */
function connectionTokens(h: Headers): Set<string> {
  return new Set(
    (h.get('connection') ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}

/** A lower-case header name token (RFC 9110), at most 64 characters. */
export const HEADER_NAME_TOKEN = /^[!#$%&'*+.^_`|~0-9a-z-]{1,64}$/;
const MAX_DECLARED = 8;

/** The extra header names a client declared in `X-Proxy-Forward-Headers` that the proxy accepts. */
export function declaredForwardHeaders(headers: Headers): string[] {
  const raw = headers.get(PROXY_FORWARD_HEADERS_HEADER);
  if (!raw) return [];
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const n = part.trim().toLowerCase();
    if (!HEADER_NAME_TOKEN.test(n) || isDeniedRequestHeader(n) || out.includes(n)) continue;
    if ((FORWARD_REQUEST_HEADERS as readonly string[]).includes(n)) continue;
    out.push(n);
    if (out.length >= MAX_DECLARED) break;
  }
  return out;
}

/** Builds the upstream request headers from the client's: allowlist plus declared names, nothing else. */
export function forwardRequestHeaders(incoming: Headers, declared: string[], userAgent: string): Headers {
  const out = new Headers();
  // Headers the client marked hop-by-hop through its own Connection header are not forwarded either.
  const connectionListed = connectionTokens(incoming);
  for (const name of [...FORWARD_REQUEST_HEADERS, ...declared]) {
    if (connectionListed.has(name)) continue;
    const v = incoming.get(name);
    if (v !== null) out.set(name, v);
  }
  // Ask for identity so bodies arrive byte for byte (and size limits count real bytes).
  out.set('accept-encoding', 'identity');
  out.set('user-agent', userAgent);
  return out;
}

/**
 * Response headers passed back to the client: everything the agent sent except cookies, hop-by-hop
 * and framing headers, headers that would act on the dashboard's origin, and upstream `X-Proxy-*`
 * (only this proxy speaks for the proxy). Upstream CORS headers are renamed when `renameCors`.
 */
export function filterResponseHeaders(upstream: Headers, opts: { renameCors: boolean }): Headers {
  const out = new Headers();
  const connectionListed = connectionTokens(upstream);
  upstream.forEach((value, key) => {
    const n = key.toLowerCase();
    if (HOP_BY_HOP.has(n) || connectionListed.has(n)) return;
    if (n === 'set-cookie' || n === 'set-cookie2') return;
    if (n.startsWith('x-proxy-')) return;
    // Would act on the proxy's (= the dashboard's) origin rather than on the agent's.
    if (n === 'clear-site-data' || n === 'strict-transport-security' || n === 'alt-svc' || n === 'service-worker-allowed') return;
    if (n === 'content-length' || n === 'content-encoding') return; // set by the handler, which knows about decoding
    if (n.startsWith('access-control-')) {
      if (opts.renameCors) out.append(`x-upstream-${n}`, value);
      else out.append(n, value);
      return;
    }
    out.append(n, value);
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Clients

/** Hostnames a local proxy answers to: loopback literals, `localhost`, and configured ones. */
export function isAllowedLocalHost(hostHeader: string | null, allowedHosts: readonly string[]): boolean {
  if (!hostHeader) return false;
  let hostname: string;
  try {
    const u = new URL(`http://${hostHeader}`);
    if (u.host !== hostHeader.toLowerCase() && u.host !== hostHeader.toLowerCase().replace(/:80$/, '')) return false;
    hostname = u.hostname;
  } catch {
    return false;
  }
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (isLocalhostName(bare)) return true;
  if (ipaddr.isValid(bare) && addressRange(bare) === 'loopback') return true;
  return matchesHostList(bare, allowedHosts);
}

/** `name` is in `list`; entries starting with a dot also match their subdomains (as Vite's allowedHosts). */
export function matchesHostList(name: string, list: readonly string[]): boolean {
  const n = name.toLowerCase();
  return list.some((h) => {
    const a = h.toLowerCase();
    return a.startsWith('.') ? n === a.slice(1) || n.endsWith(a) : n === a;
  });
}

export type OriginVerdict = 'none' | 'same' | 'allowed' | 'foreign';

/**
 * Classifies the request's Origin: absent, same origin as the proxy (by Host header), one of the
 * configured SPA origins (exact match), or foreign.
 */
export function classifyOrigin(origin: string | null, hostHeader: string | null, allowedOrigins: readonly string[]): OriginVerdict {
  if (origin === null) return 'none';
  if (allowedOrigins.includes(origin)) return 'allowed';
  if (origin === 'null' || !hostHeader) return 'foreign';
  try {
    const o = new URL(origin);
    if (o.origin !== origin) return 'foreign';
    return o.host === hostHeader.toLowerCase() ? 'same' : 'foreign';
  } catch {
    return 'foreign';
  }
}

export const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD';

/** A Content-Length a client or an agent declared, when it is a plain decimal (anything else: chunked, unknown). */
export function parseContentLength(v: string | null): number | undefined {
  if (v === null || !/^\s*\d{1,15}\s*$/.test(v)) return undefined;
  return Number(v.trim());
}

/** The CORS preflight answer: the methods we relay and the request headers we would forward. */
export function preflightHeaders(req: Request, cors: Headers): Headers {
  const h = new Headers(cors);
  h.delete('access-control-expose-headers');
  h.set('access-control-allow-methods', ALLOW_METHODS);
  const requested = (req.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((n) => HEADER_NAME_TOKEN.test(n))
    .filter((n) => n === PROXY_CLIENT_HEADER || n === PROXY_FORWARD_HEADERS_HEADER || n === PROXY_REDIRECT_HEADER || !isDeniedRequestHeader(n))
    .slice(0, 32);
  if (requested.length) h.set('access-control-allow-headers', requested.join(', '));
  h.set('access-control-max-age', '600');
  h.append('vary', 'Access-Control-Request-Method, Access-Control-Request-Headers');
  return h;
}
