/**
 * An exchange's request as a curl command (the wire inspector's and the console's Copy as cURL). Credentials stay
 * masked as recorded unless the user asks for them.
 */
import type { Credentials, Exchange } from './engine';
import { REDACTED } from './engine';

/** One shell word, single-quoted (POSIX sh). */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Request headers curl sets itself, or that only make sense for the browser/proxy hop. */
const CURL_SKIP = new Set(['content-length', 'host', 'connection', 'x-a2a-interop', 'x-proxy-forward-headers']);

/** The credential value that replaces a redacted header, when the user asked for it. */
function unmask(name: string, value: string, creds: Credentials | undefined): string {
  if (!creds || !value.includes(REDACTED)) return value;
  switch (creds.kind) {
    case 'bearer':
      return name === 'authorization' ? value.split(REDACTED).join(creds.token) : value;
    case 'api-key':
    case 'header':
      return !creds.name || creds.name.toLowerCase() === name ? value.split(REDACTED).join(creds.value) : value;
    default:
      return value;
  }
}

/**
 * The request of an exchange as a curl command. Credentials stay masked (`[REDACTED]`, as recorded)
 * unless `credentials` is given: then the masked values are replaced by them.
 */
export function toCurl(x: Pick<Exchange, 'request' | 'response'>, credentials?: Credentials): string {
  const { method, url, headers, body } = x.request;
  const parts = ['curl', '-sS'];
  if (x.response?.stream || /text\/event-stream/i.test(headers.accept ?? headers.Accept ?? '')) parts.push('-N');
  if (method === 'HEAD') parts.push('-I');
  else if (method !== 'GET' || body) parts.push('-X', method);
  let target = url;
  if (credentials?.kind === 'api-key' && url.includes(encodeURIComponent(REDACTED)))
    target = url.split(encodeURIComponent(REDACTED)).join(encodeURIComponent(credentials.value));
  parts.push(shellQuote(target));
  for (const [k, v] of Object.entries(headers)) {
    const name = k.toLowerCase();
    if (CURL_SKIP.has(name)) continue;
    parts.push('-H', shellQuote(`${k}: ${unmask(name, v, credentials)}`));
  }
  if (body !== undefined && body !== '') parts.push('--data-raw', shellQuote(body));
  return parts.join(' ');
}
