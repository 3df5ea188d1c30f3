import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import {
  applyEvents,
  initialRunState,
  verdictOf,
  resultsOf,
  summarize,
  type ConformanceLevel,
  type NotAssessedReason,
  type RunEvent,
  type RunState,
  type Summary,
} from './engine';

/** One past run as the History page lists it. Stored apart from the (large) event log. */
export interface RunMeta {
  runId: string;
  agentUrl: string;
  peerUrl?: string;
  agentName?: string;
  startedAt: number;
  finishedAt?: number;
  status: RunState['status'];
  /** null: the agent was not assessed (notAssessed says why). */
  level: ConformanceLevel | null;
  notAssessed?: NotAssessedReason;
  provisional: boolean;
  summary: Summary;
  eventCount: number;
  /** `live`: recorded in this browser; `imported`: opened from a report file. */
  origin: 'live' | 'imported';
}

interface ArchiveSchema extends DBSchema {
  runs: { key: string; value: RunMeta; indexes: { startedAt: number } };
  /** Event batches, appended as the run progresses: a reload loses at most the batch in flight. */
  events: { key: number; value: { runId: string; events: RunEvent[] }; indexes: { runId: string } };
}

const DB_NAME = 'a2a-interop';

/** The summary row of a run, from its folded state. */
export function metaOf(state: RunState, origin: RunMeta['origin'], eventCount: number): RunMeta {
  const results = resultsOf(state);
  const verdict = verdictOf(state);
  const card = (state.targets.agent?.normalizedCard ?? state.targets.agent?.rawCard) as { name?: unknown } | undefined;
  return {
    runId: state.runId ?? 'unknown',
    agentUrl: state.agentUrl ?? '',
    peerUrl: state.peerUrl,
    agentName: typeof card?.name === 'string' ? card.name.slice(0, 200) : undefined,
    startedAt: state.startedAt ?? 0,
    finishedAt: state.finishedAt,
    status: state.status,
    level: verdict.level,
    notAssessed: verdict.notAssessed?.reason,
    provisional: verdict.provisional,
    summary: summarize(results),
    eventCount,
    origin,
  };
}

/** Run history in IndexedDB (via idb). Every method is safe to call concurrently. */
export class RunArchive {
  private dbp: Promise<IDBPDatabase<ArchiveSchema>> | null = null;
  constructor(private readonly name = DB_NAME) {}

  private db(): Promise<IDBPDatabase<ArchiveSchema>> {
    this.dbp ??= openDB<ArchiveSchema>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('runs', { keyPath: 'runId' }).createIndex('startedAt', 'startedAt');
        db.createObjectStore('events', { autoIncrement: true }).createIndex('runId', 'runId');
      },
    });
    return this.dbp;
  }

  async putMeta(meta: RunMeta): Promise<void> {
    await (await this.db()).put('runs', meta);
  }

  /** Appends a batch of events and the run's current summary in one transaction. */
  async append(meta: RunMeta, events: readonly RunEvent[]): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['runs', 'events'], 'readwrite');
    if (events.length) void tx.objectStore('events').add({ runId: meta.runId, events: [...events] });
    void tx.objectStore('runs').put(meta);
    await tx.done;
  }

  async get(runId: string): Promise<RunMeta | undefined> {
    return (await this.db()).get('runs', runId);
  }

  /** Newest first. */
  async list(): Promise<RunMeta[]> {
    const all = await (await this.db()).getAllFromIndex('runs', 'startedAt');
    return all.reverse();
  }

  async events(runId: string): Promise<RunEvent[]> {
    const batches = await (await this.db()).getAllFromIndex('events', 'runId', runId);
    return batches.flatMap((b) => b.events);
  }

  async delete(runId: string): Promise<void> {
    const db = await this.db();
    const tx = db.transaction(['runs', 'events'], 'readwrite');
    const idx = tx.objectStore('events').index('runId');
    for (let cur = await idx.openKeyCursor(IDBKeyRange.only(runId)); cur; cur = await cur.continue()) {
      await tx.objectStore('events').delete(cur.primaryKey);
    }
    await tx.objectStore('runs').delete(runId);
    await tx.done;
  }

  /** Replaces a run with the given events (importing a report). */
  async replace(events: readonly RunEvent[], origin: RunMeta['origin']): Promise<RunMeta> {
    const state = applyEvents(initialRunState(), events);
    const meta = metaOf(state, origin, events.length);
    await this.delete(meta.runId);
    await this.append(meta, events);
    return meta;
  }

  /**
   * Runs still marked `running` were cut off (the page was reloaded or closed mid-run): closes each
   * with a `run-finished: interrupted` event so they show as interrupted with their partial results.
   * Returns the metas it closed.
   */
  async closeAbandoned(
    now: number,
    reason = 'The page was reloaded or closed during the run.',
    /** True when another tab is still running this run (see run-lock.ts); such runs are left alone. */
    isAlive: (runId: string) => Promise<boolean> = async () => false,
  ): Promise<RunMeta[]> {
    const closed: RunMeta[] = [];
    for (const meta of await this.list()) {
      if (meta.status !== 'running' || (await isAlive(meta.runId))) continue;
      const events = await this.events(meta.runId);
      const last = events.reduce((m, e) => Math.max(m, e.at), meta.startedAt);
      const end: RunEvent = { type: 'run-finished', at: Math.min(now, last + 1) || now, status: 'interrupted', error: reason };
      const state = applyEvents(applyEvents(initialRunState(), events), [end]);
      const next = metaOf(state, meta.origin, events.length + 1);
      await this.append(next, [end]);
      closed.push(next);
    }
    return closed;
  }

  close(): void {
    void this.dbp?.then((db) => db.close());
    this.dbp = null;
  }
}
