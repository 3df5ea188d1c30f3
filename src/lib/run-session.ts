import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { Credentials, Host, RunEvent, RunOptions } from './engine';
import type { RunArchive } from './db';
import type { HostSettings, RunFn } from './engine-adapter';
import { RunRecorder } from './recorder';
import type { RunStoreHandle } from './run-store';

/** What the Run form hands over. Credentials stay in memory (see settings for "Remember credentials"). */
export interface RunInput {
  agentUrl: string;
  peerUrl?: string;
  credentials: Credentials;
  timeoutMs: number;
  skills?: string[];
  /** Trusted public keys for card signatures (a JWKS, parsed). */
  jwks?: unknown;
}

export interface SessionState {
  phase: 'idle' | 'running' | 'stopping';
  /** Check id being re-run, if any. */
  rerunning: string | null;
  /** The last failure of the session itself (not of the agent). */
  error: string | null;
}

export interface SessionDeps {
  store: RunStoreHandle;
  archive: RunArchive;
  run: RunFn;
  createHost(settings: HostSettings): Host;
  hostSettings(): HostSettings;
  now?: () => number;
  newId?: () => string;
  /** How long Stop waits for the runner to wind down before closing the run itself. */
  stopGraceMs?: number;
  /** Awaited before a run records anything (the app's start-up restore of interrupted runs). */
  ready?: Promise<unknown>;
  /** Called with the run id when a run starts, and a promise that settles when it ends (run-lock.ts). */
  onRunActive?: (runId: string, done: Promise<unknown>) => void;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Runs the suite for the dashboard: feeds the engine's events to the run store (folded per frame)
 * and to the recorder (IndexedDB, in batches), stops cleanly, and re-runs single checks.
 */
export class RunSession {
  readonly state: StoreApi<SessionState> = createStore<SessionState>()(() => ({ phase: 'idle', rerunning: null, error: null }));
  private abort: AbortController | null = null;
  private lastInput: RunInput | null = null;
  /** Run id of the last run started here: its credentials (in memory) are reused by Re-run. */
  private lastRunId: string | null = null;
  private rerunCount = 0;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly deps: SessionDeps) {
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? (() => crypto.randomUUID());
  }

  get input(): RunInput | null {
    return this.lastInput;
  }

  /** Starts a run; resolves when it has ended and everything is saved. */
  async start(input: RunInput): Promise<void> {
    if (this.state.getState().phase !== 'idle') return;
    const { store, archive } = this.deps;
    this.lastInput = input;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    this.state.setState({ phase: 'running', error: null });
    await this.deps.ready?.catch(() => undefined);
    store.reset();
    let markDone: () => void = () => undefined;
    const done = new Promise<void>((r) => (markDone = r));
    const recorder = new RunRecorder(archive, { onError: (e) => this.state.setState({ error: `Saving the run failed: ${message(e)}` }) });
    let started = false;
    let finished = false;
    let detached = false;
    const emit = (e: RunEvent) => {
      if (detached) return;
      if (e.type === 'run-started') {
        started = true;
        this.lastRunId = e.runId;
        this.deps.onRunActive?.(e.runId, done);
      }
      if (e.type === 'run-finished') finished = true;
      store.enqueue(e);
      recorder.push(e);
    };
    const settings = this.deps.hostSettings();
    const options: RunOptions = {
      agentUrl: input.agentUrl,
      peerUrl: input.peerUrl || undefined,
      credentials: input.credentials,
      timeoutMs: input.timeoutMs,
      skills: input.skills,
      jwks: input.jwks,
      signal,
      transport: settings.mode,
    };
    const run = this.deps.run(this.deps.createHost(settings), options, emit);
    run.catch(() => undefined); // handled below; this only keeps a late rejection after Stop from going unhandled
    // Stop: the runner normally ends with run-finished: interrupted; if it does not within the grace
    // period, the run is closed here so the partial result is kept either way.
    const stopped = new Promise<'stopped'>((resolve) => {
      signal.addEventListener('abort', () => setTimeout(() => resolve('stopped'), this.deps.stopGraceMs ?? 3000), { once: true });
    });
    try {
      const outcome = await Promise.race([run.then(() => 'done' as const), stopped]);
      if (outcome === 'stopped' && !finished) {
        emit({ type: 'run-finished', at: this.now(), status: 'interrupted', error: 'Stopped by the user.' });
      }
    } catch (e) {
      if (!started) {
        emit({
          type: 'run-started',
          at: this.now(),
          runId: this.newId(),
          agentUrl: input.agentUrl,
          peerUrl: input.peerUrl || undefined,
          options: { timeoutMs: input.timeoutMs, credentials: input.credentials.kind, transport: settings.mode },
          tool: { name: 'a2a-interop', version: '0.1.0' },
        });
      }
      if (!finished) {
        emit({
          type: 'run-finished',
          at: this.now(),
          status: signal.aborted ? 'interrupted' : 'errored',
          error: `Our tool failed: ${message(e)}`,
        });
      }
    } finally {
      if (!finished && started) emit({ type: 'run-finished', at: this.now(), status: signal.aborted ? 'interrupted' : 'completed' });
      detached = true;
      store.flush();
      await recorder.flush();
      markDone();
      this.abort = null;
      this.state.setState({ phase: 'idle' });
    }
  }

  /**
   * Plays a recorded run back through the live store at its recorded pace, compressed to about
   * `durationMs` (watching a saved run unfold; also how the dashboard benchmark pushes 10,000
   * events through the live path). Nothing is sent to any agent and nothing is saved again.
   */
  async replay(events: readonly RunEvent[], durationMs = 5000): Promise<void> {
    if (this.state.getState().phase !== 'idle' || !events.length) return;
    const { store } = this.deps;
    this.abort = new AbortController();
    const signal = this.abort.signal;
    store.reset();
    store.setNotice('Replay of a saved run: nothing is sent to the agent.');
    this.state.setState({ phase: 'running', error: null });
    const t0 = events[0]!.at;
    const span = Math.max(1, events[events.length - 1]!.at - t0);
    const factor = durationMs / span;
    const start = this.now();
    let i = 0;
    try {
      while (i < events.length && !signal.aborted) {
        const elapsed = this.now() - start;
        while (i < events.length && (events[i]!.at - t0) * factor <= elapsed) store.enqueue(events[i++]!);
        if (i < events.length) await new Promise((r) => setTimeout(r, 16));
      }
      if (signal.aborted && !events.slice(0, i).some((e) => e.type === 'run-finished')) {
        store.enqueue({ type: 'run-finished', at: events[Math.max(0, i - 1)]!.at, status: 'interrupted', error: 'Replay stopped.' });
      }
    } finally {
      store.flush();
      this.abort = null;
      this.state.setState({ phase: 'idle' });
    }
  }

  /** Aborts the running run; the partial result is kept and marked interrupted. */
  stop(): void {
    if (!this.abort) return;
    this.state.setState({ phase: 'stopping' });
    this.abort.abort(new DOMException('Stopped by the user', 'AbortError'));
  }

  /**
   * Runs one check again (`only: [checkId]`) against the run shown in `target` and merges the new
   * result into it: exchange ids are renamed so the earlier attempt stays in the timeline, and the
   * merged events are appended to the saved run.
   */
  async rerun(target: RunStoreHandle, checkId: string, credentials?: Credentials): Promise<void> {
    const s = this.state.getState();
    if (s.phase !== 'idle' || s.rerunning) return;
    const run = target.store.getState().run;
    if (!run.agentUrl || !run.runId) return;
    const prefix = `r${++this.rerunCount}-`;
    this.state.setState({ rerunning: checkId, error: null });
    const existing = target.store.getState().events.slice();
    const before = run.checks[checkId]?.status ?? null;
    const recorder = new RunRecorder(this.deps.archive, {
      origin: target.store.getState().source === 'report' ? 'imported' : 'live',
      onError: (e) => this.state.setState({ error: `Saving the re-run failed: ${message(e)}` }),
    });
    recorder.seed(existing);
    let finished = false;
    const emit = (e: RunEvent) => {
      const m = mergeableEvent(e, checkId, prefix);
      if (!m) return;
      if (m.type === 'check-finished') finished = true;
      target.enqueue(m);
      recorder.push(m);
    };
    const settings = this.deps.hostSettings();
    const creds =
      credentials ??
      (this.lastInput && (run.runId === this.lastRunId || run.agentUrl === this.lastInput.agentUrl) ? this.lastInput.credentials : { kind: 'none' as const });
    try {
      await this.deps.run(
        this.deps.createHost(settings),
        {
          agentUrl: run.agentUrl,
          peerUrl: run.peerUrl,
          credentials: creds,
          timeoutMs: run.options?.timeoutMs ?? 60_000,
          skills: run.options?.skills,
          only: [checkId],
          transport: settings.mode,
        },
        emit,
      );
    } catch (e) {
      this.state.setState({ error: `Re-running ${checkId} failed in our tool: ${message(e)}` });
    } finally {
      target.flush();
      target.recordRerun(checkId, before, finished ? (target.store.getState().run.checks[checkId]?.status ?? null) : null);
      await recorder.flush();
      this.state.setState({ rerunning: null });
    }
  }
}

/**
 * An event of a re-run, made fit to merge into the original run: run-level events are dropped,
 * results of other checks (dependencies the runner ran first) are dropped, exchange ids are prefixed.
 */
export function mergeableEvent(e: RunEvent, checkId: string, prefix: string): RunEvent | null {
  switch (e.type) {
    case 'run-started':
    case 'run-finished':
    case 'target-resolved':
    case 'log':
      return null;
    case 'check-started':
      // Dropped for the re-run check too: its row, its evidence and the counts keep the earlier result (with a
      // spinner) until the new result lands, instead of leaving the failures for the time of the re-run.
      return null;
    case 'check-finished':
      return e.result.id === checkId
        ? {
            ...e,
            result: {
              ...e.result,
              evidence: e.result.evidence.map((ev) => (ev.exchangeId ? { ...ev, exchangeId: prefix + ev.exchangeId } : ev)),
            },
          }
        : null;
    case 'http-request':
    case 'http-response':
    case 'sse-event':
      return { ...e, exchangeId: prefix + e.exchangeId };
    case 'task-state':
      return e;
  }
}

const SessionContext = createContext<RunSession | null>(null);

export function RunSessionProvider({ value, children }: { value: RunSession; children: ReactNode }) {
  return createElement(SessionContext.Provider, { value }, children);
}

export function useRunSession(): RunSession {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useRunSession outside RunSessionProvider');
  return s;
}

export function useSessionState<T>(selector: (s: SessionState) => T): T {
  return useStore(useRunSession().state, selector);
}
