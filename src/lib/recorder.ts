import { applyEvents, initialRunState, type RunEvent, type RunState } from './engine';
import { metaOf, type RunArchive, type RunMeta } from './db';

export interface RecorderOptions {
  /** Write at most this often (ms). */
  intervalMs?: number;
  /** Write as soon as this many events are queued. */
  maxBatch?: number;
  origin?: RunMeta['origin'];
  onError?: (e: unknown) => void;
}

/**
 * Persists a run while it progresses: events are appended to IndexedDB in batches (every
 * `intervalMs` or `maxBatch` events, and at the end), each batch with the run's current summary.
 * It keeps its own fold of the events for the summary, so it does not depend on the UI's frames.
 */
export class RunRecorder {
  private queue: RunEvent[] = [];
  private state: RunState = initialRunState();
  private count = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private chain: Promise<void> = Promise.resolve();
  private readonly intervalMs: number;
  private readonly maxBatch: number;

  constructor(
    private readonly archive: RunArchive,
    private readonly opts: RecorderOptions = {},
  ) {
    this.intervalMs = opts.intervalMs ?? 200;
    this.maxBatch = opts.maxBatch ?? 500;
  }

  /** Starts from events already stored (a re-run appends to an existing run). */
  seed(events: readonly RunEvent[]): void {
    this.state = applyEvents(initialRunState(), events);
    this.count = events.length;
  }

  push(e: RunEvent): void {
    this.queue.push(e);
    if (this.queue.length >= this.maxBatch || e.type === 'run-finished' || e.type === 'run-started') void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Writes what is queued; resolves when every write so far is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      this.state = applyEvents(this.state, batch);
      this.count += batch.length;
      const meta = metaOf(this.state, this.opts.origin ?? 'live', this.count);
      this.chain = this.chain.then(() => this.archive.append(meta, batch)).catch((e: unknown) => this.opts.onError?.(e));
    }
    return this.chain;
  }
}
