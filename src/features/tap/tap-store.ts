/**
 * The Tap page's state (a zustand vanilla store, like the console's): the agent URL and fault toggles, the open tap,
 * its events as they arrive (folded once per animation frame), and the two-agent demo. The run views' timeline gets
 * the same events as run events through `timeline` (a run store composed in src/app).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { TapEvent, TapExchangeStart, TapFaults, TapReport } from '../../engine/tap/types';
import { animationFrameScheduler, createFrameBatcher, type Scheduler } from '../../lib/frame-batcher';
import type { RunStoreHandle } from '../../lib/run-store';
import type { EventsStatus, OpenTap, OrchestratorReply, TapApi, TapHandle } from './tap-api';
import { tapRunFinished, tapRunStarted, toRunEvents } from './tap-model';

/** Events kept in the page (the tap keeps its own bounded record; this is the view's budget). */
const MAX_VIEW_EVENTS = 5_000;

/** What the demo asks agent A twice at once: a slow task beside a quick one, so the two are open together on B. */
export const DEMO_QUESTIONS = ['Prepare the slow report', 'Write a haiku about interoperability'] as const;

export interface DemoState {
  status: 'idle' | 'running' | 'done' | 'error';
  peerId?: string;
  replies: (OrchestratorReply & { question: string })[];
  error?: string;
}

export interface TapState {
  phase: 'idle' | 'starting' | 'open' | 'stopping' | 'closed';
  agentUrl: string;
  faults: TapFaults;
  tap: TapHandle | null;
  events: TapEvent[];
  /** Events the page let go of to stay within MAX_VIEW_EVENTS. */
  droppedEvents: number;
  connection: EventsStatus;
  error: string | null;
  /** The report as it stood when the tap was stopped (the server forgets a stopped tap). */
  finalReport: TapReport | null;
  /** Judge the two-agent checks (the client is agent A): on for the demo, or when the user says so. */
  twoAgents: boolean;
  demo: DemoState;
}

export interface TapDeps {
  api: TapApi;
  timeline: RunStoreHandle;
  schedule?: Scheduler;
  now?: () => number;
}

const initial = (): TapState => ({
  phase: 'idle',
  agentUrl: '',
  faults: {},
  tap: null,
  events: [],
  droppedEvents: 0,
  connection: 'ended',
  error: null,
  finalReport: null,
  twoAgents: false,
  demo: { status: 'idle', replies: [] },
});

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class TapController {
  readonly store: StoreApi<TapState>;
  private unsubscribe: (() => void) | null = null;
  private starts = new Map<string, TapExchangeStart>();
  private seen = new Set<number>();
  private readonly batcher;
  private readonly now: () => number;

  constructor(private readonly deps: TapDeps) {
    this.store = createStore<TapState>()(initial);
    this.now = deps.now ?? Date.now;
    this.batcher = createFrameBatcher<TapEvent>((batch) => this.fold(batch), deps.schedule ?? animationFrameScheduler);
  }

  get state(): TapState {
    return this.store.getState();
  }

  setAgentUrl(agentUrl: string): void {
    this.store.setState({ agentUrl });
  }

  setTwoAgents(on: boolean): void {
    this.store.setState({ twoAgents: on });
  }

  dismissError(): void {
    this.store.setState({ error: null });
  }

  /** Changes the fault toggles; an open tap gets them at once. */
  async setFaults(faults: TapFaults): Promise<void> {
    this.store.setState({ faults });
    const tap = this.state.tap;
    if (!tap || this.state.phase !== 'open') return;
    try {
      await this.deps.api.setFaults(tap.id, faults);
    } catch (e) {
      this.store.setState({ error: `The faults could not be changed: ${message(e)}` });
    }
  }

  /** Starts a tap in front of `agentUrl` (closing the one open), and follows its events. */
  async start(agentUrl = this.state.agentUrl): Promise<TapHandle | null> {
    const url = agentUrl.trim();
    if (!url) {
      this.store.setState({ error: 'Give the URL of the agent to put the tap in front of.' });
      return null;
    }
    if (this.state.tap) await this.stop();
    this.batcher.cancel();
    this.starts = new Map();
    this.seen = new Set();
    this.store.setState({ phase: 'starting', agentUrl: url, error: null, events: [], droppedEvents: 0, finalReport: null, tap: null });
    let tap: TapHandle;
    try {
      tap = await this.deps.api.start(url, this.state.faults);
    } catch (e) {
      this.store.setState({ phase: 'idle', error: `The tap could not start: ${message(e)}` });
      return null;
    }
    this.follow(tap, url);
    return tap;
  }

  /** Follows a tap already open on the server (started before a reload, or elsewhere): its events are replayed. */
  async attach(tap: OpenTap): Promise<void> {
    if (this.state.tap?.id === tap.id && this.state.phase === 'open') return;
    if (this.state.tap && this.state.phase === 'open') await this.stop();
    this.batcher.cancel();
    this.starts = new Map();
    this.seen = new Set();
    this.store.setState({ agentUrl: tap.agentUrl, error: null, events: [], droppedEvents: 0, finalReport: null });
    this.follow({ id: tap.id, url: tap.url }, tap.agentUrl);
  }

  private follow(tap: TapHandle, agentUrl: string): void {
    this.deps.timeline.reset();
    this.deps.timeline.enqueue(tapRunStarted(tap.id, agentUrl, this.now()));
    this.store.setState({ phase: 'open', tap });
    this.unsubscribe = this.deps.api.subscribe(
      tap.id,
      (e) => this.batcher.push(e),
      (connection) => this.store.setState({ connection }),
    );
  }

  /** Stops the tap: its report is kept for the exports, the conversation stays on screen. */
  async stop(): Promise<void> {
    const tap = this.state.tap;
    if (!tap) return;
    this.store.setState({ phase: 'stopping' });
    const report = await this.deps.api.report(tap.id).catch(() => null);
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.batcher.flush();
    try {
      await this.deps.api.stop(tap.id);
    } catch (e) {
      this.store.setState({ error: `The tap did not stop cleanly: ${message(e)}` });
    }
    this.deps.timeline.enqueue(tapRunFinished(this.now()));
    this.store.setState({ phase: 'closed', finalReport: report, connection: 'ended' });
  }

  /** The report now: the server's while the tap is open, the one kept at stop after. */
  async report(): Promise<TapReport | null> {
    const { tap, phase, finalReport } = this.state;
    if (tap && phase === 'open') return this.deps.api.report(tap.id);
    return finalReport;
  }

  /**
   * The two-agent demo: a tap in front of agent B (a demo agent), then the demo orchestrator (agent A) asked two
   * questions at once, each to be forwarded to the tap's URL; the page shows A -> B as it happens.
   */
  async runDemo(peer: { id: string; baseUrl: string }, orchestratorUrl: string): Promise<void> {
    this.store.setState({ twoAgents: true, demo: { status: 'running', peerId: peer.id, replies: [] } });
    const tap = await this.start(peer.baseUrl);
    if (!tap) {
      this.store.setState({ demo: { status: 'error', peerId: peer.id, replies: [], error: this.state.error ?? 'The tap did not start.' } });
      return;
    }
    try {
      const replies = await Promise.all(
        DEMO_QUESTIONS.map(async (q) => ({ question: q, ...(await this.deps.api.ask(orchestratorUrl, `ask ${tap.url}: ${q}`)) })),
      );
      this.store.setState({ demo: { status: 'done', peerId: peer.id, replies } });
    } catch (e) {
      this.store.setState({ demo: { status: 'error', peerId: peer.id, replies: [], error: `The orchestrator could not be asked: ${message(e)}` } });
    }
  }

  private fold(batch: TapEvent[]): void {
    const fresh = batch.filter((e) => !this.seen.has(e.seq));
    if (!fresh.length) return;
    for (const e of fresh) {
      this.seen.add(e.seq);
      if (e.kind === 'exchange-start') this.starts.set(e.id, e);
    }
    this.deps.timeline.enqueueMany(fresh.flatMap((e) => toRunEvents(e, this.starts)));
    const s = this.state;
    let events = [...s.events, ...fresh];
    let dropped = s.droppedEvents;
    if (events.length > MAX_VIEW_EVENTS) {
      dropped += events.length - MAX_VIEW_EVENTS;
      events = events.slice(events.length - MAX_VIEW_EVENTS);
    }
    this.store.setState({ events, droppedEvents: dropped });
  }

  /** Leaving for good (tests): stops listening; an open tap stays open on the server until stopped. */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.batcher.cancel();
  }
}
