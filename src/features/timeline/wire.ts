import type { Exchange, HeaderMap, SseRecord } from '../../lib/engine';

/**
 * Pure helpers of the wire inspector: which response headers are the agent's and which our CORS proxy
 * added or changed (src/proxy/handler.ts `respond` and policy.ts `filterResponseHeaders`), and the
 * exchange as a cURL command or JSON.
 */

export interface HeaderLine {
  name: string;
  value: string;
  /** Why the line is in its group, e.g. "renamed by our proxy from x-upstream-vary". */
  note?: string;
}

export interface SplitHeaders {
  /** What the agent sent, as it sent it (renamed headers restored, proxy additions removed). */
  agent: HeaderLine[];
  /** What our proxy added or set. */
  proxy: HeaderLine[];
  /** The response crossed our proxy (it carries X-Proxy-Upstream-Status or X-Proxy-Error). */
  viaProxy: boolean;
}

const UPSTREAM_PREFIX = 'x-upstream-';
/** The proxy's own markers (x-proxy-upstream-status, -url, -redirects, -sent-headers, x-proxy-error). */
const PROXY_PREFIX = 'x-proxy-';
/** Set (replacing any value of the agent's) on every relayed response. */
const PROXY_SET: Record<string, string> = {
  'x-accel-buffering': 'set by our proxy (no buffering of streams)',
  'x-content-type-options': 'set by our proxy; any value of the agent’s is replaced',
};
/** The proxy appends `default-src 'none'; sandbox` so an agent's body never renders as a page of ours. */
const PROXY_CSP = "default-src 'none'; sandbox";
const PROXY_TIMING = /^proxy;dur=/i;

/** Splits a comma-joined header value into its members (commas inside quotes kept). */
function members(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of value) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() || out.length) out.push(cur.trim());
  return out.filter((m) => m !== '');
}

/**
 * The agent's response headers apart from what our proxy added. `dashboardOrigin` is this page's origin:
 * an `access-control-allow-origin` equal to it with `access-control-expose-headers: *` is the proxy's CORS
 * answer to the dashboard, not the agent's.
 */
export function splitHeaders(headers: HeaderMap, dashboardOrigin?: string): SplitHeaders {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v] as const));
  const viaProxy = lower.has('x-proxy-upstream-status') || lower.has('x-proxy-error');
  if (!viaProxy) return { agent: [...lower].map(([name, value]) => ({ name, value })), proxy: [], viaProxy };
  const renamed = [...lower.keys()].some((k) => k.startsWith(`${UPSTREAM_PREFIX}access-control-`));
  const proxyCors =
    renamed ||
    (dashboardOrigin !== undefined && lower.get('access-control-allow-origin') === dashboardOrigin && lower.get('access-control-expose-headers') === '*');
  const agent: HeaderLine[] = [];
  const proxy: HeaderLine[] = [];
  for (const [name, value] of lower) {
    if (name.startsWith(PROXY_PREFIX)) {
      proxy.push({ name, value });
    } else if (name.startsWith(UPSTREAM_PREFIX)) {
      agent.push({ name: name.slice(UPSTREAM_PREFIX.length), value, note: `renamed by our proxy to ${name} so the browser does not act on it` });
    } else if (name.startsWith('access-control-') && proxyCors) {
      proxy.push({ name, value, note: 'our proxy’s CORS answer to this dashboard' });
    } else if (PROXY_SET[name]) {
      proxy.push({ name, value, note: PROXY_SET[name] });
    } else if (name === 'content-security-policy' || name === 'server-timing' || name === 'vary') {
      // The proxy appended one member at the end; whatever comes before it is the agent's.
      const list = members(value);
      const isProxys = (m: string, i: number) =>
        i === list.length - 1 && (name === 'vary' ? m.toLowerCase() === 'origin' : name === 'server-timing' ? PROXY_TIMING.test(m) : m === PROXY_CSP);
      const theirs = list.filter((m, i) => !isProxys(m, i));
      const ours = list.filter(isProxys);
      if (theirs.length) agent.push({ name, value: theirs.join(', ') });
      if (ours.length) proxy.push({ name, value: ours.join(', '), note: 'appended by our proxy' });
    } else {
      agent.push({ name, value });
    }
  }
  return { agent, proxy, viaProxy };
}

// The cURL builder is shared with the console (src/lib/curl.ts).
export { shellQuote, toCurl } from '../../lib/curl';

/** The exchange (and its SSE events) as pretty JSON: what the inspector shows, already redacted. */
export function exchangeJson(x: Exchange, events: readonly SseRecord[]): string {
  return JSON.stringify(
    {
      id: x.id,
      checkId: x.checkId,
      lane: x.lane,
      request: x.request,
      response: x.response,
      error: x.error,
      timings: x.timings,
      sseEvents: events.length ? events.map(({ seq, at, event, id, data }) => ({ seq, at, event, id, data })) : undefined,
    },
    null,
    2,
  );
}

export { operationOf } from '../../lib/operation';
