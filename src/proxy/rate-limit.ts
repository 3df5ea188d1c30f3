/**
 * Rate limiting for a hosted proxy, keyed on the client (socket address in Node, CF-Connecting-IP on
 * Workers). A token bucket per key; memory is bounded (oldest keys are dropped first).
 * On Workers each isolate keeps its own buckets, so the limit is per isolate: a floor, not a quota.
 */
export interface RateLimiter {
  /** Takes one token for `key`; `ok: false` with the seconds until a token is available otherwise. */
  take(key: string): { ok: true } | { ok: false; retryAfterSec: number };
}

export interface RateLimitOptions {
  /** Requests allowed per window (also the burst size). */
  limit: number;
  windowMs: number;
  now?: () => number;
  /** Keys remembered at most (default 10 000). */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createRateLimiter(opts: RateLimitOptions): RateLimiter {
  const now = opts.now ?? (() => Date.now());
  const maxKeys = opts.maxKeys ?? 10_000;
  const perMs = opts.limit / opts.windowMs;
  const buckets = new Map<string, Bucket>();
  return {
    take(key) {
      const t = now();
      let b = buckets.get(key);
      if (b) {
        buckets.delete(key); // re-insert below: Map order doubles as least-recently-used order
        b.tokens = Math.min(opts.limit, b.tokens + (t - b.at) * perMs);
        b.at = t;
      } else {
        b = { tokens: opts.limit, at: t };
        if (buckets.size >= maxKeys) {
          const oldest = buckets.keys().next();
          if (!oldest.done) buckets.delete(oldest.value);
        }
      }
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSec: Math.max(1, Math.ceil((1 - b.tokens) / perMs / 1000)) };
    },
  };
}
