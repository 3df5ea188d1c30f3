/** The request editor's text (headers as lines) to a request and back. Pure. */
import type { RawRequest } from '../../lib/console-adapter';
import type { HttpRequestInfo } from '../../lib/engine';
import type { RawDraft } from './console-store';

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the browser or our proxy set; an edited request never sends them itself. */
const HOP = new Set(['content-length', 'host', 'connection', 'x-a2a-interop', 'x-proxy-forward-headers', 'accept-encoding', 'origin', 'referer', 'user-agent']);

export function parseHeaderLines(text: string): { ok: true; headers: Record<string, string> } | { ok: false; error: string } {
  const headers: Record<string, string> = {};
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (!line) continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!HEADER_NAME.test(name)) return { ok: false, error: `Header line ${i + 1} is not "Name: value": ${JSON.stringify(line.slice(0, 80))}.` };
    if (HOP.has(name.toLowerCase())) continue;
    headers[name] = line.slice(colon + 1).trim();
  }
  return { ok: true, headers };
}

/** The editor's draft as a request to send, or what is wrong with it (and which field). */
export function rawRequestOf(d: RawDraft): { ok: true; request: RawRequest } | { ok: false; error: string; field: 'url' | 'headers' | 'body' } {
  let url: URL;
  try {
    url = new URL(d.url.trim());
  } catch {
    return { ok: false, error: 'The request URL is not an absolute URL.', field: 'url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, error: 'The request URL must be http(s).', field: 'url' };
  const h = parseHeaderLines(d.headers);
  if (!h.ok) return { ok: false, error: h.error, field: 'headers' };
  const hasBody = d.method !== 'GET' && d.method !== 'HEAD';
  if (!hasBody && d.body.trim()) return { ok: false, error: `A ${d.method} request has no body: clear it or choose POST.`, field: 'body' };
  return { ok: true, request: { method: d.method, url: url.toString(), headers: h.headers, ...(hasBody && { body: d.body }) } };
}

/** An exchange's request as the editor shows it: headers as lines (proxy hop headers dropped), the body pretty-printed. */
export function draftOf(req: HttpRequestInfo, source: string): RawDraft {
  const headers = Object.entries(req.headers)
    .filter(([k]) => !HOP.has(k.toLowerCase()))
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
  let body = req.body ?? '';
  try {
    if (body.trim().startsWith('{')) body = JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    /* not JSON: as recorded */
  }
  return { source, method: req.method, url: req.url, headers, body };
}
