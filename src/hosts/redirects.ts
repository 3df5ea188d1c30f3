/**
 * Redirects followed the way the proxy follows them (src/proxy/handler.ts): credentials belong to the origin they
 * were given for. Node's fetch drops Authorization and Cookie on a cross-origin redirect but forwards every other
 * header, so an API key (X-API-Key, or whatever header a card names) would reach the host an agent redirects to.
 * Here a hop to another origin keeps only headers that never carry a credential.
 */

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that say how to talk A2A and nothing about who is calling: kept across origins. */
const CROSS_ORIGIN_SAFE = new Set([
  'accept',
  'accept-language',
  'accept-encoding',
  'cache-control',
  'content-type',
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'last-event-id',
  'user-agent',
]);

/** Headers fetch itself removes on a cross-origin redirect (Fetch: "HTTP-redirect fetch", step 13), or computes. */
const FETCH_DROPS = new Set(['authorization', 'cookie', 'proxy-authorization', 'content-length', 'host']);

const MAX_REDIRECTS = 20;

/** `f`, but following redirects itself (at most 20, like fetch) and dropping credential headers on a change of origin. */
export function withOriginBoundCredentials(f: typeof fetch): (url: string, init: RequestInit) => Promise<Response> {
  return async (first, init) => {
    if (init.redirect === 'manual' || init.redirect === 'error') return f(first, init);
    // Nothing fetch would forward that carries a credential: let fetch follow (one call, no per-hop round trips).
    if (![...new Headers(init.headers).keys()].some((name) => !CROSS_ORIGIN_SAFE.has(name) && !FETCH_DROPS.has(name))) return f(first, init);
    let url = first;
    let method = (init.method ?? 'GET').toUpperCase();
    let headers = new Headers(init.headers);
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const res = await f(url, { ...init, method, headers, body, redirect: 'manual' });
      const location = REDIRECT_STATUSES.has(res.status) ? res.headers.get('location') : null;
      if (location === null) return res;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return res;
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') return res;
      await res.body?.cancel().catch(() => undefined);
      // The same words as fetch's own error, so the engine reports a loop as the agent's (transport-errors.ts).
      if (hop >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
      if (next.origin !== new URL(url).origin) headers = new Headers([...headers].filter(([name]) => CROSS_ORIGIN_SAFE.has(name.toLowerCase())));
      if ((res.status === 303 && method !== 'GET' && method !== 'HEAD') || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
        headers.delete('content-length');
      }
      url = next.href;
    }
  };
}
