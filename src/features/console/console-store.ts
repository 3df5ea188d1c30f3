/**
 * The console's state and what changes it: one session with one agent at a time, the calls made on it (each with
 * its frames as they arrive and its judged result), the tasks seen, and the engine's events fed to a run store so
 * the timeline and wire inspector of a run show the session too. Framework-free (zustand vanilla): the page reads
 * it with selectors, tests drive it with a fake session.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ConsoleOpen, ConsoleOpenInput, ConsoleSession, RawRequest, SessionFrame, SessionResult } from '../../lib/console-adapter';
import { isSessionInputError } from '../../lib/console-adapter';
import type { ConsoleRecord } from '../../lib/console-db';
import type { Credentials, RunEvent } from '../../lib/engine';
import type { ComposeDraft, SendRequest } from './compose';
import { callContent, frameTaskContent, type TaskContent } from '../../lib/engine';
import {
  draftOfSend,
  initialConsoleState as initial,
  MAX_CALLS,
  MAX_EVENTS,
  MAX_FRAMES,
  type CallOp,
  type ConsoleCall,
  type ConsoleDeps,
  type ConsoleState,
  type ConsoleTask,
  type RawDraft,
  type StoredResult,
} from './console-state';

export type { ConsoleCall, ConsoleDeps, ConsoleState, ConsoleTask, RawDraft } from './console-state';
export { MAX_EVENTS } from './console-state';

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
const quote = (s: string, max = 60) => JSON.stringify(s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** Drives one console: see the file comment. */
export class ConsoleController {
  readonly store: StoreApi<ConsoleState> = createStore<ConsoleState>()(initial);
  private session: ConsoleSession | null = null;
  private credentials: Credentials = { kind: 'none' };
  private readonly inflight = new Map<string, AbortController>();
  private connectAbort: AbortController | null = null;
  private callSeq = 0;
  /** Bumped when the page changes session (connect, reset, a saved session): late answers of the old one are dropped. */
  private epoch = 0;
  private events: RunEvent[] = [];
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: ConsoleDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  get state(): ConsoleState {
    return this.store.getState();
  }

  /** The credentials of the open session (in memory only), for Copy as cURL with credentials. */
  get sessionCredentials(): Credentials {
    return this.credentials;
  }

  get hasSession(): boolean {
    return this.session !== null;
  }

  /** What this build of the engine offers beyond send/get/cancel/subscribe/list. */
  get supports(): { push: boolean; raw: boolean } {
    // A gRPC session has no HTTP request to re-send (the engine refuses it too: SessionInputError).
    return { push: typeof this.session?.pushSet === 'function', raw: typeof this.session?.raw === 'function' && this.session.binding !== 'GRPC' };
  }

  setDraft(patch: Partial<ComposeDraft>): void {
    this.store.setState((s) => ({ draft: { ...s.draft, ...patch } }));
  }

  setEditor(editor: RawDraft | null): void {
    this.store.setState({ editor });
  }

  dismissError(): void {
    this.store.setState({ error: null });
  }

  /** Opens a session on the agent (discovery as in a run). A new session: the previous one's calls go to history. */
  async connect(input: { agentUrl: string; credentials: Credentials; prefer?: ConsoleOpenInput['prefer'] }): Promise<boolean> {
    this.closeSession();
    this.epoch++;
    const abort = new AbortController();
    this.connectAbort = abort;
    const id = this.newId();
    const startedAt = this.now();
    this.credentials = input.credentials;
    this.events = [];
    this.store.setState({
      ...initial(),
      draft: this.state.draft,
      editor: this.state.editor,
      phase: 'connecting',
      sessionId: id,
      agentUrl: input.agentUrl,
      startedAt,
    });
    const t = this.deps.timeline;
    t.reset();
    this.timeline([
      {
        type: 'run-started',
        at: startedAt,
        runId: id,
        agentUrl: input.agentUrl,
        options: { timeoutMs: this.deps.callTimeoutMs ?? 30_000, credentials: input.credentials.kind, ...(input.prefer && { prefer: input.prefer }) },
        tool: { name: 'a2a-interop console', version: '1' },
      },
    ]);
    let open: ConsoleOpen;
    try {
      open = await this.deps.open({ agentUrl: input.agentUrl, credentials: input.credentials, prefer: input.prefer, signal: abort.signal });
    } catch (e) {
      if (this.connectAbort !== abort) return false;
      this.store.setState({ phase: 'idle', error: `The console could not open a session: ${message(e)}` });
      return false;
    }
    if (this.connectAbort !== abort) return false;
    this.connectAbort = null;
    this.timeline(open.events);
    if (!open.ok) {
      this.store.setState({ phase: 'unavailable', target: open.target, unavailable: open.unavailable });
      return false;
    }
    this.session = open.session;
    this.store.setState({ phase: 'open', target: open.target, unavailable: null });
    await this.persist();
    return true;
  }

  /** Ends the session (stops what is still reading). The calls stay shown and saved. */
  disconnect(): void {
    this.closeSession();
    if (this.state.phase === 'open' || this.state.phase === 'connecting') this.store.setState({ phase: this.state.calls.length ? 'saved' : 'idle' });
  }

  private closeSession() {
    this.connectAbort?.abort();
    this.connectAbort = null;
    for (const a of this.inflight.values()) a.abort();
    this.inflight.clear();
    this.session = null;
  }

  /** Stops reading a call's answer (a stream that goes on): our side only, the task is not canceled. */
  stop(callId: string): void {
    const a = this.inflight.get(callId);
    if (!a) return;
    this.patchCall(callId, { stopped: true });
    a.abort();
  }

  // ---------------------------------------------------------------- operations

  send(req: SendRequest): Promise<ConsoleCall | undefined> {
    const op: CallOp = req.stream ? 'stream' : 'send';
    const what = req.text;
    const mode = req.stream ? 'streaming' : req.blocking ? 'blocking' : 'non-blocking';
    const title = `${req.taskId ? `Answer task ${req.taskId}` : req.contextId ? `Continue context ${req.contextId}` : 'Send'} (${mode}): ${quote(what)}`;
    const input: Record<string, unknown> = { ...req };
    return this.call(op, title, input, (s, o) => {
      const args = {
        ...o,
        text: req.text,
        parts: req.parts,
        skill: req.skill,
        taskId: req.taskId,
        contextId: req.contextId,
        historyLength: req.historyLength,
        blocking: req.blocking,
        acceptedOutputModes: req.acceptedOutputModes,
        metadata: req.metadata,
        extensions: req.extensions,
      };
      return req.stream ? s.stream(args) : s.send(args);
    });
  }

  get(taskId: string, historyLength?: number) {
    return this.call('get', `Get task ${taskId}${historyLength !== undefined ? ` (historyLength ${historyLength})` : ''}`, { taskId, historyLength }, (s, o) =>
      s.get({ ...o, taskId, historyLength }),
    );
  }

  cancel(taskId: string) {
    return this.call('cancel', `Cancel task ${taskId}`, { taskId }, (s, o) => s.cancel({ ...o, taskId }));
  }

  subscribe(taskId: string) {
    return this.call('subscribe', `Subscribe to task ${taskId}`, { taskId }, (s, o) => s.subscribe({ ...o, taskId }));
  }

  list(q: { contextId?: string; pageSize?: number; pageToken?: string } = {}) {
    const bits = [q.contextId && `context ${q.contextId}`, q.pageSize !== undefined && `${q.pageSize} per page`, q.pageToken && 'next page'].filter(Boolean);
    return this.call('list', `List tasks${bits.length ? ` (${bits.join(', ')})` : ''}`, { ...q }, (s, o) => s.list({ ...o, ...q }));
  }

  push(
    op: 'push-set' | 'push-get' | 'push-list' | 'push-delete',
    a: { taskId: string; url?: string; token?: string; configId?: string },
  ): Promise<ConsoleCall | undefined> {
    const titles = { 'push-set': 'Set push config', 'push-get': 'Get push config', 'push-list': 'List push configs', 'push-delete': 'Delete push config' };
    // The token is a secret the agent echoes back: it is masked in what is kept (the engine redacts it on the wire).
    const input = { taskId: a.taskId, ...(a.url && { url: a.url }), ...(a.token && { token: '[REDACTED]' }), ...(a.configId && { configId: a.configId }) };
    return this.call(op, `${titles[op]} of task ${a.taskId}${a.configId ? ` (${a.configId})` : ''}`, input, (s, o) => {
      const missing = () => Promise.reject(new Error('This build of the engine has no push-config calls in sessions.'));
      switch (op) {
        case 'push-set':
          return s.pushSet ? s.pushSet({ ...o, taskId: a.taskId, url: a.url ?? '', token: a.token }) : missing();
        case 'push-get':
          return s.pushGet ? s.pushGet({ ...o, taskId: a.taskId, configId: a.configId }) : missing();
        case 'push-list':
          return s.pushList ? s.pushList({ ...o, taskId: a.taskId }) : missing();
        case 'push-delete':
          return s.pushDelete ? s.pushDelete({ ...o, taskId: a.taskId, configId: a.configId ?? '' }) : missing();
      }
    });
  }

  /** Re-sends a request (loaded from a run's exchange, edited). */
  raw(req: RawRequest, source: string) {
    return this.call('raw', `Re-send ${req.method} ${shortUrl(req.url)} (${source})`, { method: req.method, url: req.url, body: req.body, source }, (s, o) =>
      s.raw ? s.raw({ ...o, ...req }) : Promise.reject(new Error('This build of the engine cannot re-send raw requests.')),
    );
  }

  /** Prepares the composer to answer a task (input-required): same task and context. */
  answer(taskId: string): void {
    const t = this.state.tasks[taskId];
    this.store.setState((s) => ({
      draft: { ...s.draft, target: 'continue', taskId, contextId: t?.contextId ?? '', text: '' },
      composeFocus: s.composeFocus + 1,
    }));
  }

  /** Loads an earlier send back into the composer. */
  editAgain(callId: string): void {
    const c = this.state.calls.find((x) => x.id === callId);
    if (!c || (c.op !== 'send' && c.op !== 'stream')) return;
    this.store.setState((s) => ({ draft: draftOfSend(c.input as Partial<SendRequest>), composeFocus: s.composeFocus + 1 }));
  }

  /** Shows a saved session (from history): its calls, tasks and timeline; calls need a new connection. */
  loadSaved(r: ConsoleRecord<ConsoleCall>): void {
    this.closeSession();
    this.epoch++;
    this.events = [...r.events];
    this.deps.timeline.load(r.events, 'history');
    const base: ConsoleState = {
      ...initial(),
      draft: this.state.draft,
      phase: 'saved',
      sessionId: r.id,
      agentUrl: r.agentUrl,
      startedAt: r.startedAt,
      target: r.target,
      calls: r.calls,
    };
    this.store.setState(base);
    for (const c of r.calls) if (c.result) this.absorb(c.id, c.result, c.startedAt);
  }

  /** Clears the page for a new session (the current one stays in history). */
  reset(): void {
    this.closeSession();
    this.epoch++;
    this.events = [];
    this.deps.timeline.reset();
    this.store.setState({ ...initial(), draft: this.state.draft });
  }

  // ---------------------------------------------------------------- internals

  private async call(
    op: CallOp,
    title: string,
    input: Record<string, unknown>,
    run: (
      s: ConsoleSession,
      o: { signal: AbortSignal; timeoutMs?: number; onFrame: (f: SessionFrame) => void; onEvent: (e: RunEvent) => void },
    ) => Promise<SessionResult>,
  ): Promise<ConsoleCall | undefined> {
    const s = this.session;
    if (!s) {
      this.store.setState({ error: 'Connect to an agent first.' });
      return undefined;
    }
    const id = `c${++this.callSeq}`;
    const startedAt = this.now();
    const call: ConsoleCall = { id, op, title, input, startedAt, status: 'running', frames: [] };
    this.store.setState((st) => ({ calls: [...st.calls, call].slice(-MAX_CALLS), error: null }));
    const abort = new AbortController();
    this.inflight.set(id, abort);
    const epoch = this.epoch;
    const current = () => this.epoch === epoch;
    let liveEvents = false;
    const onEvent = (e: RunEvent) => {
      if (!current()) return;
      liveEvents = true;
      this.timeline([e]);
    };
    const onFrame = (f: SessionFrame) => {
      if (!current()) return;
      this.store.setState((st) => ({ calls: st.calls.map((c) => (c.id === id && c.frames.length < MAX_FRAMES ? { ...c, frames: [...c.frames, f] } : c)) }));
      // The task as it streams: its state in the task list, its artifacts as they grow (the engine's task-state
      // events put it on the timeline).
      if (f.taskId) this.liveTask(id, f, startedAt);
    };
    try {
      const result = await run(s, { signal: abort.signal, timeoutMs: this.deps.callTimeoutMs, onFrame, onEvent });
      if (!current()) return undefined;
      if (!liveEvents) this.timeline(result.events);
      const { events: _events, ...stored } = result;
      const kept: StoredResult = { ...stored, frames: stored.frames.slice(0, MAX_FRAMES) };
      this.patchCall(id, { status: 'done', result: kept, frames: kept.frames });
      this.absorb(id, kept, startedAt);
    } catch (e) {
      if (!current()) return undefined;
      const text = isSessionInputError(e) ? message(e) : `The console failed on its side (not the agent's fault): ${message(e)}`;
      this.patchCall(id, { status: 'error', error: text });
    } finally {
      this.inflight.delete(id);
    }
    await this.persist();
    return this.state.calls.find((c) => c.id === id);
  }

  /** A streamed frame's task, folded in as it arrives (state, context, artifacts so far: the engine's reading). */
  private liveTask(callId: string, f: SessionFrame, at: number) {
    this.store.setState((st) => {
      const c = frameTaskContent(st.calls.find((x) => x.id === callId)?.frames ?? [], f);
      if (!c) return {};
      const task: ConsoleTask = { artifacts: [], statusParts: [], ...st.tasks[c.id], ...c, lastCallId: callId, updatedAt: at + f.ms };
      return { tasks: { ...st.tasks, [c.id]: task }, taskOrder: [c.id, ...st.taskOrder.filter((x) => x !== c.id)] };
    });
  }

  private patchCall(id: string, patch: Partial<ConsoleCall>) {
    this.store.setState((st) => ({ calls: st.calls.map((c) => (c.id === id ? { ...c, ...patch } : c)) }));
  }

  /** Folds what a result says about tasks (state, artifacts, status message) and messages into the state (the engine reads it). */
  private absorb(callId: string, r: StoredResult, at: number) {
    const st = this.state;
    const tasks = { ...st.tasks };
    let order = st.taskOrder;
    const touch = (c: TaskContent) => {
      const prev = tasks[c.id];
      tasks[c.id] = { artifacts: [], statusParts: [], ...prev, ...c, contextId: c.contextId ?? prev?.contextId, lastCallId: callId, updatedAt: at };
      order = [c.id, ...order.filter((x) => x !== c.id)];
    };
    const content = callContent(r);
    for (const t of content.tasks) touch(t);
    const m = content.message;
    if (m?.taskId && tasks[m.taskId]) touch({ id: m.taskId });
    this.store.setState({ tasks, taskOrder: order, lastMessage: m ? { callId, parts: m.parts, text: m.text } : st.lastMessage });
  }

  private timeline(events: readonly RunEvent[]) {
    if (!events.length) return;
    const room = MAX_EVENTS - this.events.length;
    if (room <= 0) return;
    const kept = events.slice(0, room);
    this.events.push(...kept);
    this.deps.timeline.enqueueMany(kept);
  }

  /** Saves the session (calls without engine events, the events apart, bounded). Failures cost only the history. */
  private async persist() {
    const st = this.state;
    // A session is kept once something was sent: connecting alone leaves nothing worth a history entry.
    if (!this.deps.save || !st.sessionId || st.phase === 'saved' || !st.startedAt || !st.calls.length) return;
    const record: ConsoleRecord<ConsoleCall> = {
      id: st.sessionId,
      agentUrl: st.agentUrl,
      agentName: st.target?.agentName,
      generation: st.target?.testedGeneration ?? st.target?.generation,
      binding: st.target?.binding,
      startedAt: st.startedAt,
      updatedAt: this.now(),
      target: st.target,
      calls: st.calls.filter((c) => c.status !== 'running'),
      events: this.events,
      findings: st.calls.reduce((n, c) => n + (c.result?.findings.filter((f) => f.level !== 'advisory').length ?? 0), 0),
    };
    try {
      await this.deps.save(record);
      this.store.setState((s) => ({ savedSeq: s.savedSeq + 1 }));
    } catch (e) {
      this.store.setState({ error: `Saving the session to this browser's history failed: ${message(e)}` });
    }
  }
}

const shortUrl = (u: string) => {
  try {
    const x = new URL(u);
    return `${x.pathname}${x.search}`.slice(0, 80);
  } catch {
    return u.slice(0, 80);
  }
};
