import type { TaskState } from '../model/events';
import { isTerminal } from '../protocol/states';
import type { Generation } from '../model/check';
import type { TaskMemoryLike } from './types';

interface Seen {
  state: TaskState;
  rawState: string;
  source: string;
}

/**
 * The states seen of each task across the calls of a session (and, when handed to the next session, across
 * sessions on the same agent), so a terminal state that changes between two calls is seen
 * (lifecycle.transitions: a terminal state does not change). Bounded: the oldest tasks are forgotten.
 */
export class TaskMemory implements TaskMemoryLike {
  private readonly tasks = new Map<string, Seen>();

  constructor(
    private readonly generation?: Generation,
    private readonly maxTasks = 500,
  ) {}

  /** Records a state; returns the earlier terminal state it departs from, when it does. */
  observe(taskId: string, state: TaskState, rawState: string, source: string): { from: { rawState: string; source: string } } | undefined {
    const prev = this.tasks.get(taskId);
    this.tasks.delete(taskId);
    // A terminal state stays recorded: a later different state is a departure each time it is seen.
    const keep = prev && isTerminal(prev.state, this.generation) && prev.state !== state ? prev : { state, rawState, source };
    this.tasks.set(taskId, keep);
    while (this.tasks.size > this.maxTasks) {
      const oldest = this.tasks.keys().next();
      if (oldest.done) break;
      this.tasks.delete(oldest.value);
    }
    if (prev && prev.state !== state && isTerminal(prev.state, this.generation)) return { from: { rawState: prev.rawState, source: prev.source } };
    return undefined;
  }

  /** The last state recorded for a task (a terminal one stays). */
  last(taskId: string): { state: TaskState; rawState: string; source: string } | undefined {
    const s = this.tasks.get(taskId);
    return s ? { ...s } : undefined;
  }
}
