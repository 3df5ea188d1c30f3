/**
 * Cancellable pacing for the demo executors: a task waits its deliberate delays here, and a cancel wakes it
 * at once. Shared by the v1.0 and v0.3 executors (they differ only in the SDK types they publish).
 */
export class TaskPacer {
  private readonly canceled = new Set<string>();
  private readonly wakers = new Map<string, () => void>();

  /** Waits `ms` for `taskId`; resolves false when the task was canceled (then stop working on it). */
  wait(taskId: string, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(t);
        this.wakers.delete(taskId);
        resolve(!this.canceled.has(taskId));
      };
      const t = setTimeout(done, ms);
      this.wakers.set(taskId, done);
    });
  }

  /** Marks the task canceled and wakes it if it is waiting. */
  cancel(taskId: string): void {
    this.canceled.add(taskId);
    this.wakers.get(taskId)?.();
  }
}
