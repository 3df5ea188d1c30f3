import type { RunEvent } from '../model/events';
import type { Host } from '../ports';
import { Redactor } from '../redact';
import { DEFAULT_LIMITS, Semaphore, type Limits } from './limits';

/** What the HTTP layer needs from a run. */
export interface HttpContext {
  host: Host;
  /** The run's abort signal (user pressed Stop). */
  signal: AbortSignal;
  emit(e: RunEvent): void;
  redactor: Redactor;
  newId(prefix: string): string;
  limits: Limits;
  /** Bounds requests in flight (see Limits.maxConcurrentRequests); absent means unbounded. */
  slots?: Semaphore;
  /** 'urgent': this context's requests take the next free slot before ordinary ones waiting (see `urgent`). */
  priority?: 'urgent' | 'normal';
  /** Origins that have answered at least once in this run (an agent that never answered was never reached). */
  answered?: Set<string>;
  /** Keeps an OAuth access token fresh on the requests that carry it (src/engine/auth); absent: headers go as given. */
  auth?: RequestAuth;
}

/** A credential that can go stale (an OAuth access token): refreshed before a request, renewed once after a 401. */
export interface RequestAuth {
  /** The headers to send: a token of ours that has expired is replaced by a fresh one; other headers are untouched. */
  prepare(headers: Record<string, string> | undefined): Promise<Record<string, string> | undefined>;
  /** After a 401 to a request sent at `sentAt` with `headers`: headers with a newer token to retry once, or undefined. */
  retry(headers: Record<string, string> | undefined, sentAt: number): Promise<Record<string, string> | undefined>;
}

export interface HttpContextOptions {
  /** Stops every request (default: never). */
  signal?: AbortSignal;
  /** Receives the `http-request` / `http-response` / `sse-event` events (default: dropped). */
  emit?: (e: RunEvent) => void;
  /** Masks credentials in what is emitted (default: a fresh Redactor, which masks well-known secret names only). */
  redactor?: Redactor;
  /** Overrides of DEFAULT_LIMITS. */
  limits?: Partial<Limits>;
  /**
   * Requests in flight at once: a number bounds them (at least 1); `true` takes `limits.maxConcurrentRequests`;
   * absent leaves them unbounded.
   */
  concurrency?: number | true;
  /** Remember which origins answered, so a request to one that never did is reported as "never reached". */
  trackAnswered?: boolean;
  /** Put between the kind prefix and the counter of exchange ids (e.g. `preview-` gives `xpreview-1`). */
  idPrefix?: string;
}

/** The one place an HttpContext is made (a run, a card preview, a single exchange). */
export function createHttpContext(host: Host, o: HttpContextOptions = {}): HttpContext {
  let seq = 0;
  const limits = { ...DEFAULT_LIMITS, ...o.limits };
  const tag = o.idPrefix ?? '';
  return {
    host,
    signal: o.signal ?? new AbortController().signal,
    emit: o.emit ?? (() => undefined),
    redactor: o.redactor ?? new Redactor(),
    newId: (prefix) => `${prefix}${tag}${++seq}`,
    limits,
    ...(o.concurrency !== undefined && { slots: new Semaphore(Math.max(1, o.concurrency === true ? limits.maxConcurrentRequests : o.concurrency)) }),
    ...(o.trackAnswered && { answered: new Set<string>() }),
  };
}

/** The origin of a URL, or the URL itself when it does not parse. */
export const originOf = (url: string): string => {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
};

/**
 * The same context whose requests go first when the slots are taken: for requests whose timing a check observes
 * (the cancel of a task that must still be running, reads inside an observation window), not for bulk work.
 */
export const urgent = (ctx: HttpContext): HttpContext => (ctx.priority === 'urgent' ? ctx : { ...ctx, priority: 'urgent' });

/** The same check or session context with its requests marked urgent (see `urgent`). */
export const withUrgentHttp = <T extends { readonly http: HttpContext }>(x: T): T => ({ ...x, http: urgent(x.http) });

/** Runs `fn` holding one of the context's request slots (when it bounds them). */
export async function withSlot<T>(ctx: HttpContext, fn: () => Promise<T>): Promise<T> {
  const release = ctx.slots ? await ctx.slots.acquire(ctx.priority) : undefined;
  try {
    return await fn();
  } finally {
    release?.();
  }
}
