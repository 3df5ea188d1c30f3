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

/** A counting semaphore: at most `n` holders at once, FIFO. */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly n: number) {}
  async acquire(): Promise<() => void> {
    if (this.active >= this.n) await new Promise<void>((r) => this.waiting.push(r));
    else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
