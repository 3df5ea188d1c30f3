/**
 * Console sessions kept in this browser (IndexedDB via idb, its own database like the registry's): the calls of
 * each session with their judged results and the engine's events (already redacted: credentials never reach
 * here), so a session survives a reload and can be opened, exported or deleted from history.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { SessionTarget } from './console-adapter';
import type { Binding, Generation, RunEvent } from './engine';

/** One console session as saved. `Call` is the console's call record (src/features/console). */
export interface ConsoleRecord<Call = unknown> {
  id: string;
  agentUrl: string;
  agentName?: string;
  generation?: Generation;
  binding?: Binding;
  startedAt: number;
  updatedAt: number;
  target: SessionTarget | null;
  calls: Call[];
  events: RunEvent[];
  /** Required (MUST/SHOULD) findings across the calls. */
  findings: number;
}

/** What the history list shows of a session, without its calls and events. */
export interface ConsoleSummary {
  id: string;
  agentUrl: string;
  agentName?: string;
  generation?: Generation;
  binding?: Binding;
  startedAt: number;
  updatedAt: number;
  calls: number;
  findings: number;
}

interface ConsoleSchema extends DBSchema {
  sessions: { key: string; value: ConsoleRecord & { callCount: number }; indexes: { updatedAt: number } };
}

const CONSOLE_DB_NAME = 'a2a-interop-console';
/** Sessions kept; the oldest are dropped when a new one is saved. */
export const MAX_SESSIONS = 100;

export class ConsoleArchive {
  private dbp: Promise<IDBPDatabase<ConsoleSchema>> | null = null;
  constructor(readonly name = CONSOLE_DB_NAME) {}

  private db(): Promise<IDBPDatabase<ConsoleSchema>> {
    this.dbp ??= openDB<ConsoleSchema>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('sessions', { keyPath: 'id' }).createIndex('updatedAt', 'updatedAt');
      },
    });
    return this.dbp;
  }

  /** Saves (replaces) a session and drops the oldest beyond MAX_SESSIONS. */
  async put(r: ConsoleRecord): Promise<void> {
    const db = await this.db();
    const tx = db.transaction('sessions', 'readwrite');
    await tx.store.put({ ...r, callCount: r.calls.length });
    const count = await tx.store.count();
    if (count > MAX_SESSIONS) {
      let extra = count - MAX_SESSIONS;
      for (let cur = await tx.store.index('updatedAt').openCursor(); cur && extra > 0; cur = await cur.continue()) {
        if (cur.value.id !== r.id) {
          await cur.delete();
          extra--;
        }
      }
    }
    await tx.done;
  }

  async get(id: string): Promise<ConsoleRecord | undefined> {
    const r = await (await this.db()).get('sessions', id);
    if (!r) return undefined;
    const { callCount: _count, ...record } = r;
    return record;
  }

  /** Newest first. */
  async list(): Promise<ConsoleSummary[]> {
    const db = await this.db();
    const out: ConsoleSummary[] = [];
    // A cursor reads one record at a time; only the summary fields are kept.
    for (let cur = await db.transaction('sessions').store.index('updatedAt').openCursor(null, 'prev'); cur; cur = await cur.continue()) {
      const v = cur.value;
      out.push({
        id: v.id,
        agentUrl: v.agentUrl,
        agentName: v.agentName,
        generation: v.generation,
        binding: v.binding,
        startedAt: v.startedAt,
        updatedAt: v.updatedAt,
        calls: v.callCount,
        findings: v.findings,
      });
    }
    return out;
  }

  async delete(id: string): Promise<void> {
    await (await this.db()).delete('sessions', id);
  }

  close(): void {
    void this.dbp?.then((db) => db.close());
    this.dbp = null;
  }
}

let shared: ConsoleArchive | null = null;
/** The app's one console archive (the console page and the History page's list share it). */
export function consoleArchive(): ConsoleArchive {
  shared ??= new ConsoleArchive();
  return shared;
}
