/**
 * The browser's webhook inbox (Host.inbox): addresses opened on the dashboard's server (`POST /inbox`) and read by
 * long-polling `GET /inbox/<token>/deliveries` while the lease is open. Web-standard only.
 *
 * @example
 * const inbox = createRemoteInbox({ baseUrl: '' }); // the same origin as the dashboard
 * const lease = await inbox.open({ expect: { token } });
 */
import type { InboxDelivery, InboxLease, WebhookInbox } from '../engine/model/inbox';
import { PROXY_CLIENT_HEADER } from '../engine/model/proxy';
import { waitUntil } from './store';

export interface RemoteInboxOptions {
  /** Origin (and path prefix) of the server that mounts /inbox; '' is the page's own origin. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Long-poll wait per request, ms (default 20 s; the server caps it). */
  pollMs?: number;
}

const isDelivery = (v: unknown): v is InboxDelivery =>
  typeof v === 'object' && v !== null && typeof (v as { seq?: unknown }).seq === 'number' && typeof (v as { body?: unknown }).body === 'string';

export function createRemoteInbox(opts: RemoteInboxOptions = {}): WebhookInbox {
  const doFetch: typeof fetch = opts.fetch ?? ((i, init) => globalThis.fetch(i, init));
  const base = (opts.baseUrl ?? '').replace(/\/+$/, '');
  const headers = { [PROXY_CLIENT_HEADER]: '1' };
  return {
    async open({ expect, signal } = {}): Promise<InboxLease> {
      const res = await doFetch(`${base}/inbox`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ expect: expect ?? {} }),
        credentials: 'omit',
        cache: 'no-store',
        signal,
      });
      const body = (await res.json().catch(() => null)) as { token?: unknown; url?: unknown; error?: unknown } | null;
      if (res.status !== 201 || typeof body?.token !== 'string' || typeof body.url !== 'string') {
        throw new Error(`the dashboard server could not open a webhook inbox (HTTP ${res.status}${typeof body?.error === 'string' ? `: ${body.error}` : ''})`);
      }
      const token = body.token;
      const got: InboxDelivery[] = [];
      const listeners = new Set<() => void>();
      const stop = new AbortController();
      void (async () => {
        let failures = 0;
        let busy = 0;
        while (!stop.signal.aborted && failures < 5 && busy < 30) {
          const after = got.at(-1)?.seq ?? 0;
          try {
            const r = await doFetch(`${base}/inbox/${token}/deliveries?after=${after}&waitMs=${opts.pollMs ?? 20_000}`, {
              headers,
              credentials: 'omit',
              cache: 'no-store',
              signal: stop.signal,
            });
            if (r.status === 404) break;
            if (r.status === 429 || r.status === 503) {
              // The server's budgets (rate limit, too many bodies at once): wait as asked (at most 10 s), then read again.
              await r.body?.cancel().catch(() => undefined);
              busy++;
              const wait = Math.min(10_000, Math.max(200, (Number(r.headers.get('retry-after')) || 1) * 1000));
              await new Promise((done) => setTimeout(done, wait));
              continue;
            }
            busy = 0;
            const v = (await r.json()) as { deliveries?: unknown };
            const fresh = Array.isArray(v.deliveries) ? v.deliveries.filter(isDelivery).filter((d) => d.seq > after) : [];
            got.push(...fresh);
            failures = 0;
            if (fresh.length) for (const l of [...listeners]) l();
          } catch {
            if (stop.signal.aborted) break;
            failures++;
            await new Promise((r) => setTimeout(r, 200 * failures));
          }
        }
      })();
      const subscribe = (fn: () => void) => {
        listeners.add(fn);
        return () => listeners.delete(fn);
      };
      return {
        url: body.url,
        deliveries: () => got.slice(),
        waitFor: (until, ms, sig) => waitUntil(() => got.slice(), until, subscribe, ms, sig),
        async close() {
          if (stop.signal.aborted) return;
          stop.abort();
          await doFetch(`${base}/inbox/${token}`, { method: 'DELETE', headers, credentials: 'omit' }).catch(() => undefined);
        },
      };
    },
  };
}
