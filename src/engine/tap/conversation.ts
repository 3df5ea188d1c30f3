/**
 * What the tap remembers of a conversation, to judge follow-ups: message ids the client used, the tasks the agent
 * answered with (state, context, when they asked for input and whether the client answered), streams a fault
 * dropped and what the client did next. Bounded: the oldest entries are forgotten.
 */
import type { ConversationView } from '../judges/client';
import type { Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { TaskMemory } from '../session';

export interface TaskSeen {
  state?: TaskState;
  rawState?: string;
  contextId?: string;
  /** When it asked for input (input-required) and no client message has named it since. */
  waitingSince?: number;
  /** The exchange where it asked for input. */
  waitingExchange?: string;
}

export interface DroppedStream {
  exchangeId: string;
  taskId?: string;
  at: number;
  /** The client came back for the task (a resubscribe or a read) after the drop. */
  followedUp: boolean;
}

const MAX_TASKS = 2_000;
const MAX_MESSAGE_IDS = 10_000;
const MAX_DROPS = 200;

export class Conversation implements ConversationView {
  private readonly messageIds = new Set<string>();
  private readonly tasks = new Map<string, TaskSeen>();
  readonly drops: DroppedStream[] = [];
  /** Transitions across exchanges (a terminal state that changes), judged as a console session judges them. */
  readonly memory: TaskMemory;
  requiredExtensions: readonly string[] = [];

  constructor(generation?: Generation) {
    this.memory = new TaskMemory(generation, MAX_TASKS);
  }

  messageIdSeen(id: string): boolean {
    return this.messageIds.has(id);
  }

  useMessageId(id: string): void {
    this.messageIds.add(id);
    if (this.messageIds.size > MAX_MESSAGE_IDS) {
      const first = this.messageIds.values().next();
      if (!first.done) this.messageIds.delete(first.value);
    }
  }

  task(id: string): TaskSeen | undefined {
    return this.tasks.get(id);
  }

  waitingForInput(contextId: string): string[] {
    return [...this.tasks.entries()].filter(([, t]) => t.contextId === contextId && t.waitingSince !== undefined).map(([id]) => id);
  }

  /** The agent showed a task in a state (an answer or a stream event). */
  observeTask(id: string, state: TaskState | undefined, rawState: string | undefined, contextId: string | undefined, at: number, exchangeId: string): void {
    const prev = this.tasks.get(id);
    this.tasks.delete(id);
    const next: TaskSeen = { ...prev };
    if (state) {
      next.state = state;
      next.rawState = rawState;
    }
    if (contextId) next.contextId = contextId;
    if (state === 'input-required') {
      if (prev?.state !== 'input-required' || next.waitingSince === undefined) {
        next.waitingSince = at;
        next.waitingExchange = exchangeId;
      }
    } else if (state) {
      delete next.waitingSince;
      delete next.waitingExchange;
    }
    this.tasks.set(id, next);
    while (this.tasks.size > MAX_TASKS) {
      const first = this.tasks.keys().next();
      if (first.done) break;
      this.tasks.delete(first.value);
    }
  }

  /** The client sent a message naming a task (it answered, whatever the agent does next). */
  clientNamedTask(id: string): void {
    const t = this.tasks.get(id);
    if (t) {
      delete t.waitingSince;
      delete t.waitingExchange;
    }
  }

  /** The client asked about a task (get, subscribe): a follow-up after a dropped stream. */
  clientFollowedUp(id: string | undefined): void {
    for (const d of this.drops) if (!d.followedUp && (!d.taskId || d.taskId === id)) d.followedUp = true;
  }

  dropped(d: Omit<DroppedStream, 'followedUp'>): void {
    this.drops.push({ ...d, followedUp: false });
    if (this.drops.length > MAX_DROPS) this.drops.shift();
  }

  /** Tasks still waiting for the client's input. */
  waiting(): { taskId: string; since: number; exchangeId?: string; contextId?: string }[] {
    return [...this.tasks.entries()]
      .filter(([, t]) => t.waitingSince !== undefined)
      .map(([taskId, t]) => ({ taskId, since: t.waitingSince!, exchangeId: t.waitingExchange, contextId: t.contextId }));
  }
}
