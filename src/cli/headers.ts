/**
 * `--header` (repeatable): which header carries the run's credential and which are plain extra headers. The
 * credential is the one header a redactor knows as sensitive (Authorization, X-API-Key, Cookie, …), or the only
 * header given; the suite probes the agent without it (auth checks) and masks its value everywhere. Extra headers
 * (a tenant, a routing key) go on every request to the agent's origin, never to another origin. Two sensitive
 * headers are refused: one credential per run.
 */
import { Redactor, type Credentials } from '../engine';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` -> [name, value], or a sentence saying what is wrong. */
export function parseHeader(h: string): [string, string] | string {
  const i = h.indexOf(':');
  if (i <= 0) return `--header needs "Name: value", got ${JSON.stringify(h)}`;
  const name = h.slice(0, i).trim();
  if (!HEADER_NAME.test(name)) return `--header name ${JSON.stringify(name)} is not a valid header name`;
  const value = h.slice(i + 1).trim();
  if (/[\r\n\0]/.test(value)) return `--header ${name}: the value cannot contain line breaks or NUL`;
  return [name, value];
}

/** The credential among `headers` and the other headers, or a sentence saying why the set is refused. */
export function splitCliHeaders(headers: readonly [string, string][]): { credentials: Credentials; extra: Record<string, string> } | string {
  const seen = new Set<string>();
  for (const [name] of headers) {
    if (seen.has(name.toLowerCase())) return `--header ${name} is given twice`;
    seen.add(name.toLowerCase());
  }
  const probe = new Redactor();
  const sensitive = headers.filter(([name]) => probe.isSensitiveHeader(name));
  if (sensitive.length > 1)
    return `One credential header per run (got ${sensitive.map(([n]) => n).join(', ')}); other --header values are sent as given, so they must not be credentials`;
  const chosen = sensitive[0] ?? (headers.length === 1 ? headers[0] : undefined);
  const extra = Object.fromEntries(headers.filter((h) => h !== chosen));
  if (!chosen) return { credentials: { kind: 'none' }, extra };
  const [name, value] = chosen;
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  if (name.toLowerCase() === 'authorization' && bearer?.[1]) return { credentials: { kind: 'bearer', token: bearer[1] }, extra };
  return { credentials: { kind: 'header', name, value }, extra };
}

/** A fetch that adds `extra` to every request to `origin` (unless the request sets the header itself). */
export function fetchWithExtraHeaders(f: typeof fetch, extra: Record<string, string>, origin: string): typeof fetch {
  if (!Object.keys(extra).length) return f;
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    let sameOrigin = false;
    try {
      sameOrigin = new URL(url).origin === origin;
    } catch {
      /* not a URL: no extra headers */
    }
    if (!sameOrigin) return f(input, init);
    const h = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const [k, v] of Object.entries(extra)) if (!h.has(k)) h.set(k, v);
    return f(input, { ...init, headers: h });
  };
}
