/**
 * Generation-neutral task engine: behaviours run on timers and publish events to listeners.
 * The wire layer (handler.ts + dialect.ts) renders tasks and events for one generation.
 */
import { randomUUID } from 'node:crypto';
import { FAIL_REASON, HAIKU_LINES, INPUT_QUESTION, type Behaviour, behaviourFor } from './skills';

export type State = 'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'canceled' | 'failed' | 'rejected';

export const TERMINAL: ReadonlySet<State> = new Set(['completed', 'canceled', 'failed', 'rejected']);
export const INTERRUPTED: ReadonlySet<State> = new Set(['input-required', 'auth-required']);

export interface IPart {
  text?: string;
  data?: unknown;
  file?: { name?: string; mimeType?: string; bytes?: string; uri?: string };
}

export interface IMessage {
  messageId: string;
  role: 'user' | 'agent';
  parts: IPart[];
  taskId?: string;
  contextId?: string;
}

export interface IArtifact {
  artifactId: string;
  name: string;
  /** Accumulated text of all chunks so far. */
  text: string;
}

export interface IStatus {
  state: State;
  message?: IMessage;
  timestamp: string;
}

export interface ITask {
  id: string;
  contextId: string;
  status: IStatus;
  history: IMessage[];
  artifacts: IArtifact[];
  behaviour: TaskBehaviour;
  /** Milliseconds since epoch of the last status change (ListTasks ordering and filters). */
  updatedAt: number;
}

export type TaskEvent =
  { type: 'status'; task: ITask; status: IStatus } | { type: 'artifact'; task: ITask; artifact: IArtifact; chunk: string; append: boolean; lastChunk: boolean };

/** A skill behaviour, plus the ones only permitted variants add: `auth` pauses in auth-required, `rejected` is refused at creation. */
export type TaskBehaviour = Behaviour | 'auth' | 'rejected';

/** What happens to an answer to an input-required task. */
export type AnswerMode = 'resume' | 'ask-again' | 'drop';

export interface EngineOptions {
  stepMs: number;
  slowTaskMs: number;
  /** Behaviour switches the engine honours (the rest are wire-level). */
  neverFinish: () => boolean;
  goBackwards: () => boolean;
  cancelIgnored: () => boolean;
  /** Defect cancel-reverts: a cancel is answered canceled, but the work runs on and the task ends completed. */
  cancelReverts?: () => boolean;
  /** Permitted variant skip-working: plain and slow tasks go from submitted straight to their end. */
  skipWorking?: () => boolean;
  /** The behaviour a message asks for (default: behaviourFor). */
  classify?: (text: string) => TaskBehaviour;
  /** Task ids (default: UUIDs). */
  newTaskId?: () => string;
  /** Context ids for new contexts (default: UUIDs). */
  newContextId?: () => string;
}

export function textOf(m: IMessage): string {
  return m.parts.map((p) => p.text ?? '').join(' ');
}

export class TaskEngine {
  readonly tasks = new Map<string, ITask>();
  private readonly listeners = new Map<string, Set<(e: TaskEvent) => void>>();
  private readonly timers = new Map<string, Set<ReturnType<typeof setTimeout>>>();
  private closed = false;

  constructor(private readonly opts: EngineOptions) {}

  create(id: string | undefined, contextId: string | undefined, message: IMessage): ITask {
    const taskId = id ?? this.opts.newTaskId?.() ?? randomUUID();
    const ctx = contextId ?? this.opts.newContextId?.() ?? randomUUID();
    const user: IMessage = { ...message, taskId, contextId: ctx };
    const behaviour = (this.opts.classify ?? behaviourFor)(textOf(message));
    const now = Date.now();
    const task: ITask = {
      id: taskId,
      contextId: ctx,
      status: { state: behaviour === 'rejected' ? 'rejected' : 'submitted', timestamp: new Date(now).toISOString() },
      history: [user],
      artifacts: [],
      behaviour,
      updatedAt: now,
    };
    if (behaviour === 'rejected') {
      task.status.message = agentText(task, 'This request is refused: the gate stays closed.');
      task.history.push(task.status.message);
    }
    this.tasks.set(taskId, task);
    // Start on the next tick so callers can subscribe and see `submitted` first.
    if (behaviour !== 'rejected') this.later(task, 0, () => this.run(task));
    return task;
  }

  /** A follow-up user message to an existing (interrupted, or restarted terminal) task. */
  continueTask(task: ITask, message: IMessage, mode: AnswerMode = 'resume'): void {
    if (mode === 'drop') return;
    task.history.push({ ...message, taskId: task.id, contextId: task.contextId });
    if (mode === 'ask-again') {
      // The agent asks again (a new input-required status).
      this.later(task, 0, () => this.setState(task, 'input-required', agentText(task, INPUT_QUESTION)));
      return;
    }
    if (task.status.state === 'input-required') {
      this.later(task, 0, () => {
        this.setState(task, 'working');
        this.later(task, this.opts.stepMs, () =>
          this.finish(task, 'completed', agentText(task, `Booked for ${textOf(message).trim() || 'the day you chose'}.`)),
        );
      });
    } else {
      // A restarted terminal task (defect message-to-terminal-accepted): run its behaviour again.
      task.artifacts = [];
      this.later(task, 0, () => this.run(task));
    }
  }

  cancel(task: ITask, afterMs = 0): void {
    if (this.opts.cancelIgnored()) return;
    if (this.opts.cancelReverts?.()) {
      // The answer says canceled, but the worker was never told: its timers run on, and when its work would have
      // ended it publishes its result over the canceled state (a slow task: slowTaskMs after it started).
      const work = this.timers.get(task.id);
      this.timers.delete(task.id);
      this.setState(task, 'canceled', agentText(task, 'Canceled at your request.'));
      if (work) this.timers.set(task.id, work);
      return;
    }
    if (afterMs > 0) {
      // Asynchronous cancellation: the work stops a little later.
      this.clearTimers(task.id);
      this.later(task, afterMs, () => this.setState(task, 'canceled', agentText(task, 'Canceled at your request.')));
      return;
    }
    this.clearTimers(task.id);
    this.setState(task, 'canceled', agentText(task, 'Canceled at your request.'));
  }

  /** Rewrites a terminal task to canceled (defect cancel-completed-succeeds). */
  forceCancel(task: ITask): void {
    this.clearTimers(task.id);
    this.setState(task, 'canceled');
  }

  subscribe(taskId: string, fn: (e: TaskEvent) => void): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
    };
  }

  /** Resolves when `pred(task)` holds (checked after every event), or on `signal` abort. */
  waitFor(task: ITask, pred: (t: ITask) => boolean, signal?: AbortSignal): Promise<void> {
    if (pred(task) || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        unsub();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const unsub = this.subscribe(task.id, () => {
        if (pred(task)) done();
      });
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  close(): void {
    this.closed = true;
    for (const id of [...this.timers.keys()]) this.clearTimers(id);
    this.listeners.clear();
  }

  private run(task: ITask): void {
    const { stepMs, slowTaskMs } = this.opts;
    if (!(this.opts.skipWorking?.() && (task.behaviour === 'plain' || task.behaviour === 'slow'))) this.setState(task, 'working');
    if (this.opts.goBackwards()) {
      this.setState(task, 'submitted');
      this.setState(task, 'working');
    }
    if (this.opts.neverFinish()) return;
    switch (task.behaviour) {
      case 'quick': {
        const artifact: IArtifact = { artifactId: `${task.id}-haiku`, name: 'haiku', text: '' };
        task.artifacts = [artifact];
        // Each chunk schedules the next: separate timers of different durations can fire out of order
        // when the event loop is busy, which would reorder (and so break) the artifact chunks.
        const step = (i: number) =>
          this.later(task, stepMs, () => {
            const line = HAIKU_LINES[i]!;
            const chunk = i === 0 ? line : `\n${line}`;
            artifact.text += chunk;
            const lastChunk = i === HAIKU_LINES.length - 1;
            this.emit(task, { type: 'artifact', task, artifact, chunk, append: i > 0, lastChunk });
            if (lastChunk) this.finish(task, 'completed', agentText(task, 'Here is your haiku.'));
            else step(i + 1);
          });
        step(0);
        return;
      }
      case 'slow':
        this.later(task, slowTaskMs, () => {
          task.artifacts = [{ artifactId: `${task.id}-report`, name: 'report', text: 'The slow report is ready.' }];
          const artifact = task.artifacts[0]!;
          this.emit(task, { type: 'artifact', task, artifact, chunk: artifact.text, append: false, lastChunk: true });
          this.finish(task, 'completed', agentText(task, 'Report done.'));
        });
        return;
      case 'input':
        this.later(task, stepMs, () => this.setState(task, 'input-required', agentText(task, INPUT_QUESTION)));
        return;
      case 'fail':
        this.later(task, stepMs, () => this.finish(task, 'failed', agentText(task, FAIL_REASON)));
        return;
      case 'auth':
        this.later(task, stepMs, () => this.setState(task, 'auth-required', agentText(task, 'Please sign in to your calendar first.')));
        return;
      case 'rejected':
        return;
      case 'plain': {
        const reply = `You said: ${textOf(task.history[task.history.length - 1]!).slice(0, 200)}`;
        task.artifacts = [{ artifactId: `${task.id}-reply`, name: 'reply', text: reply }];
        const artifact = task.artifacts[0]!;
        this.emit(task, { type: 'artifact', task, artifact, chunk: reply, append: false, lastChunk: true });
        this.finish(task, 'completed', agentText(task, reply));
        return;
      }
    }
  }

  private finish(task: ITask, state: State, message: IMessage): void {
    this.setState(task, state, message);
  }

  private setState(task: ITask, state: State, message?: IMessage): void {
    if (message) task.history.push(message);
    // One clock reading for both, so that ListTasks order (updatedAt) and the status timestamps agree.
    const now = Date.now();
    task.status = { state, timestamp: new Date(now).toISOString(), ...(message ? { message } : {}) };
    task.updatedAt = now;
    this.emit(task, { type: 'status', task, status: task.status });
    if (TERMINAL.has(state)) this.clearTimers(task.id);
  }

  private emit(task: ITask, e: TaskEvent): void {
    for (const fn of [...(this.listeners.get(task.id) ?? [])]) {
      try {
        fn(e);
      } catch {
        // A broken listener (closed socket) must not stop the task.
      }
    }
  }

  private later(task: ITask, ms: number, fn: () => void): void {
    if (this.closed) return;
    let set = this.timers.get(task.id);
    if (!set) this.timers.set(task.id, (set = new Set()));
    const t = setTimeout(() => {
      set.delete(t);
      fn();
    }, ms);
    set.add(t);
  }

  private clearTimers(taskId: string): void {
    for (const t of this.timers.get(taskId) ?? []) clearTimeout(t);
    this.timers.delete(taskId);
  }
}

function agentText(task: ITask, text: string): IMessage {
  return { messageId: randomUUID(), role: 'agent', parts: [{ text }], taskId: task.id, contextId: task.contextId };
}
