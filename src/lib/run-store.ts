import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { applyEvents, initialRunState, type CheckResult, type CheckRunState, type RunEvent, type RunState } from './engine';
import { animationFrameScheduler, createFrameBatcher, type Scheduler } from './frame-batcher';

/** Where the viewed run comes from: a run in this tab, a run from history, or a report file. */
export type RunSource = 'live' | 'history' | 'report';

export interface RunStoreState {
  run: RunState;
  source: RunSource;
  /** Timeline item opened in the wire inspector (exchange id, or `state:<index>` for a task-state marker). */
  selected: string | null;
  /** A short note shown above the results, e.g. "interrupted by a page reload". */
  notice: string | null;
  /** Every event folded so far, in order (for reports and exports). */
  events: RunEvent[];
  /** Bumped by `reveal`: the wire inspector scrolls into view and takes focus. */
  revealSeq: number;
  /** The check whose evidence revealed the selected item (the inspector links back to it). */
  revealedFrom: string | null;
  /** A check to bring to the user (the inspector's link back to its check); `seq` changes on every request. */
  checkFocus: { id: string; seq: number } | null;
  /** Outcome of the last re-run of each check in this view: status before and after. */
  reruns: Record<string, RerunOutcome>;
}

/** What a re-run changed: `before` and `after` are check statuses (`after` null when the re-run gave no result). */
export interface RerunOutcome {
  before: CheckRunState['status'] | null;
  after: CheckRunState['status'] | null;
  seq: number;
}

export interface RunStoreHandle {
  store: StoreApi<RunStoreState>;
  /** Queues engine events; they are folded with applyEvents once per animation frame. */
  enqueue(e: RunEvent): void;
  enqueueMany(es: readonly RunEvent[]): void;
  /** Folds whatever is queued right now. */
  flush(): void;
  /** Replaces the run (opening a saved run or report); drops queued events. */
  load(events: readonly RunEvent[], source: RunSource, notice?: string | null): void;
  reset(): void;
  select(id: string | null): void;
  /** Selects an item and brings the wire inspector to the user (evidence links); `fromCheck`: the check it is evidence of. */
  reveal(id: string, fromCheck?: string): void;
  /** Brings a check's result row to the user (opened, scrolled to, focused). */
  showCheck(id: string): void;
  /** Records what a re-run of `checkId` changed (see RunSession.rerun). */
  recordRerun(checkId: string, before: RerunOutcome['before'], after: RerunOutcome['after']): void;
  setNotice(n: string | null): void;
}

export function createRunStore(schedule: Scheduler = animationFrameScheduler): RunStoreHandle {
  const store = createStore<RunStoreState>()(() => ({
    run: initialRunState(),
    source: 'live',
    selected: null,
    notice: null,
    events: [],
    revealSeq: 0,
    revealedFrom: null,
    checkFocus: null,
    reruns: {},
  }));
  let seq = 0;
  const batcher = createFrameBatcher<RunEvent>((batch) => {
    const s = store.getState();
    // One applyEvents per frame: collections are copied once per batch, not per event.
    const events = s.events;
    for (const e of batch) events.push(e);
    store.setState({ run: applyEvents(s.run, batch), events });
  }, schedule);
  return {
    store,
    enqueue: (e) => batcher.push(e),
    enqueueMany: (es) => batcher.pushMany(es),
    flush: () => batcher.flush(),
    load(events, source, notice = null) {
      batcher.cancel();
      store.setState({ run: applyEvents(initialRunState(), events), events: [...events], source, selected: null, notice, checkFocus: null, reruns: {} });
    },
    reset() {
      batcher.cancel();
      store.setState({ run: initialRunState(), events: [], source: 'live', selected: null, notice: null, checkFocus: null, reruns: {} });
    },
    select: (id) => store.setState({ selected: id, revealedFrom: null }),
    reveal: (id, fromCheck) => store.setState((s) => ({ selected: id, revealSeq: s.revealSeq + 1, revealedFrom: fromCheck ?? null })),
    showCheck: (id) => store.setState({ checkFocus: { id, seq: ++seq } }),
    recordRerun: (checkId, before, after) => store.setState((s) => ({ reruns: { ...s.reruns, [checkId]: { before, after, seq: ++seq } } })),
    setNotice: (notice) => store.setState({ notice }),
  };
}

const RunStoreContext = createContext<RunStoreHandle | null>(null);

/** Provides the run a subtree shows: the live run, a saved run or an opened report. */
export function RunStoreProvider({ value, children }: { value: RunStoreHandle; children: ReactNode }) {
  return createElement(RunStoreContext.Provider, { value }, children);
}

export function useRunStoreHandle(): RunStoreHandle {
  const h = useContext(RunStoreContext);
  if (!h) throw new Error('useRunStoreHandle outside RunStoreProvider');
  return h;
}

/** Reads one slice of the run store; re-renders only when that slice changes. */
export function useRunSelector<T>(selector: (s: RunStoreState) => T): T {
  return useStore(useRunStoreHandle().store, selector);
}

/**
 * The finished results, re-rendering only when one of them changes (applyEvents copies the
 * collections each batch but keeps unchanged entries, so a shallow compare sees through it).
 */
export function useRunResults(): CheckResult[] {
  return useRunSelector(
    useShallow((s: RunStoreState) => {
      const out: CheckResult[] = [];
      for (const id of s.run.checkOrder) {
        const r = s.run.checks[id]?.result;
        if (r) out.push(r);
      }
      return out;
    }),
  );
}

/** Every check (running or finished) in start order, shallow-compared like useRunResults. */
export function useRunChecks(): CheckRunState[] {
  return useRunSelector(useShallow((s: RunStoreState) => s.run.checkOrder.map((id) => s.run.checks[id]).filter((c): c is CheckRunState => c !== undefined)));
}
