/**
 * Queues items and hands them over in one batch per animation frame (Vitest UI and Playwright's
 * trace viewer coalesce live updates the same way). The scheduler is injectable for tests and for
 * environments without requestAnimationFrame.
 */
export type Scheduler = (cb: () => void) => () => void;

export const animationFrameScheduler: Scheduler = (cb) => {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(() => cb());
    // Hidden tabs pause rAF; a timer fallback keeps the store (and thus the persisted summary) moving.
    const t = setTimeout(() => {
      cancelAnimationFrame(id);
      cb();
    }, 250);
    return () => {
      cancelAnimationFrame(id);
      clearTimeout(t);
    };
  }
  const t = setTimeout(cb, 16);
  return () => clearTimeout(t);
};

export interface FrameBatcher<T> {
  push(item: T): void;
  pushMany(items: readonly T[]): void;
  /** Delivers what is queued now (e.g. before reading the state at the end of a run). */
  flush(): void;
  /** Drops what is queued and cancels the pending frame. */
  cancel(): void;
  readonly pending: number;
}

export function createFrameBatcher<T>(deliver: (batch: T[]) => void, schedule: Scheduler = animationFrameScheduler): FrameBatcher<T> {
  let queue: T[] = [];
  let cancelFrame: (() => void) | null = null;
  const run = () => {
    cancelFrame = null;
    if (!queue.length) return;
    const batch = queue;
    queue = [];
    deliver(batch);
  };
  const arm = () => {
    if (!cancelFrame) {
      let fired = false;
      const cancel = schedule(() => {
        if (fired) return;
        fired = true;
        run();
      });
      if (!fired) cancelFrame = cancel;
    }
  };
  return {
    push(item) {
      queue.push(item);
      arm();
    },
    pushMany(items) {
      for (const i of items) queue.push(i);
      if (items.length) arm();
    },
    flush() {
      cancelFrame?.();
      run();
    },
    cancel() {
      cancelFrame?.();
      cancelFrame = null;
      queue = [];
    },
    get pending() {
      return queue.length;
    },
  };
}
