/** Budgets that keep hostile agents (huge bodies, endless streams, silence) from hanging or sinking a run. */
export interface Limits {
  /** Maximum bytes read from a non-stream body; the rest is discarded and the result marked truncated. */
  maxBodyBytes: number;
  /** Bytes of a body kept in the event log (the wire inspector's preview). */
  previewBytes: number;
  /** Default budget for one non-stream exchange, headers and body. */
  requestTimeoutMs: number;
  /** Silence allowed between two chunks of a stream. */
  streamIdleTimeoutMs: number;
  /** SSE events read from one stream before we stop reading. */
  maxStreamEvents: number;
  /** Requests in flight at once (browsers allow 6 connections per origin; streams count). */
  maxConcurrentRequests: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxBodyBytes: 5 * 1024 * 1024,
  previewBytes: 64 * 1024,
  requestTimeoutMs: 30_000,
  streamIdleTimeoutMs: 30_000,
  maxStreamEvents: 2_000,
  maxConcurrentRequests: 6,
};

/**
 * A counting semaphore: at most `n` holders at once. Waiters are served in order, urgent ones first: a request whose
 * timing is part of what a check observes (a cancel that must land while its task still runs, a read inside an
 * observation window) must not queue behind bulk work started at the same moment.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly urgent: (() => void)[] = [];
  constructor(private readonly n: number) {}
  async acquire(priority: 'urgent' | 'normal' = 'normal'): Promise<() => void> {
    if (this.active >= this.n) await new Promise<void>((r) => (priority === 'urgent' ? this.urgent : this.waiting).push(r));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.urgent.shift() ?? this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
