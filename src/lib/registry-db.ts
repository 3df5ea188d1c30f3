/**
 * The agent registry (docs/architecture.md, "Registry") in this browser: registered agents and the mapper log in IndexedDB (via
 * idb), and the registry's reach into the engine (the card mapper, and the card checks run on an exported
 * card without any network). The registry page imports engine code from here, as the run views do from
 * engine.ts / engine-adapter.ts; the runner and checks load only when a card is checked.
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type StoreNames } from 'idb';
import { RegistryAgent, type MapperLogEntry } from '../engine/card/mapper';
import type { CheckResult } from '../engine/model/check';

export { cardSkill, exportCard, importCard, logEntry, MAPPER_ID, RegistryAgent, RegistryEndpoint, synthesizeId } from '../engine/card/mapper';
export type { MapperLogEntry } from '../engine/card/mapper';

/**
 * A mapper log entry as the registry keeps it: the mapper's entry plus how it went. `failed`: nothing was
 * imported (e.g. no card at the URL; `agent` is then `–`); `warnings`: done, with the mapper's notes or the
 * card checks the exported card fails. Older entries have neither field (they were all `ok`).
 */
export interface RegistryLogEntry extends MapperLogEntry {
  outcome?: 'ok' | 'failed' | 'warnings';
  notes?: string[];
}

/** Notes kept per log entry, and characters per note: a hostile card can produce thousands. */
export const MAX_LOG_NOTES = 20;
export const MAX_NOTE_CHARS = 500;

/** An entry with its notes bounded (MAX_LOG_NOTES, MAX_NOTE_CHARS; the count of the rest is kept). */
function boundedEntry(entry: RegistryLogEntry): RegistryLogEntry {
  if (!entry.notes) return { ...entry };
  const cut = (n: string) => (n.length > MAX_NOTE_CHARS ? `${n.slice(0, MAX_NOTE_CHARS - 1)}…` : n);
  const notes = entry.notes.slice(0, MAX_LOG_NOTES).map(cut);
  if (entry.notes.length > MAX_LOG_NOTES) notes.push(`${entry.notes.length - MAX_LOG_NOTES} more`);
  return { ...entry, notes };
}

/** One registered agent with its bookkeeping (the agent itself is the mapper's `RegistryAgent`). */
export interface StoredAgent {
  id: string;
  agent: RegistryAgent;
  /** Epoch ms. */
  createdAt: number;
  updatedAt: number;
}

interface RegistrySchema extends DBSchema {
  agents: { key: string; value: StoredAgent; indexes: { updatedAt: number } };
  log: { key: number; value: RegistryLogEntry; indexes: { when: string } };
}

/** Its own database: the run archive's (`a2a-interop`) schema and version stay untouched. */
const REGISTRY_DB_NAME = 'a2a-interop-registry';
/** The mapper log keeps this many entries; older ones are dropped as new ones arrive. */
export const MAX_LOG_ENTRIES = 1000;

/** The registry store. Every method is safe to call concurrently; writes validate with `RegistryAgent`. */
export class RegistryDb {
  private dbp: Promise<IDBPDatabase<RegistrySchema>> | null = null;
  constructor(
    readonly name = REGISTRY_DB_NAME,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private db(): Promise<IDBPDatabase<RegistrySchema>> {
    this.dbp ??= openDB<RegistrySchema>(this.name, 1, {
      upgrade(db) {
        db.createObjectStore('agents', { keyPath: 'id' }).createIndex('updatedAt', 'updatedAt');
        db.createObjectStore('log', { autoIncrement: true }).createIndex('when', 'when');
      },
    });
    return this.dbp;
  }

  /** Most recently updated first. Records that no longer parse (written by a newer or broken build) are left out. */
  async list(): Promise<StoredAgent[]> {
    const all = await (await this.db()).getAllFromIndex('agents', 'updatedAt');
    return all.reverse().flatMap((s) => {
      const p = RegistryAgent.safeParse(s.agent);
      return p.success ? [{ ...s, agent: p.data }] : [];
    });
  }

  async get(id: string): Promise<StoredAgent | undefined> {
    const s = await (await this.db()).get('agents', id);
    if (!s) return undefined;
    const p = RegistryAgent.safeParse(s.agent);
    return p.success ? { ...s, agent: p.data } : undefined;
  }

  /** Adds or replaces an agent (keyed by its id), optionally with a mapper log entry in the same transaction. */
  async put(agentIn: RegistryAgent, entry?: RegistryLogEntry): Promise<StoredAgent> {
    const agent = RegistryAgent.parse(agentIn);
    const db = await this.db();
    const tx = db.transaction(['agents', 'log'], 'readwrite');
    const agents = tx.objectStore('agents');
    const prev = await agents.get(agent.id);
    const at = this.now();
    const stored: StoredAgent = { id: agent.id, agent, createdAt: prev?.createdAt ?? at, updatedAt: Math.max(at, (prev?.updatedAt ?? 0) + 1) };
    await agents.put(stored);
    if (entry) await appendLog(tx.objectStore('log'), entry);
    await tx.done;
    return stored;
  }

  async delete(id: string): Promise<void> {
    await (await this.db()).delete('agents', id);
  }

  /** Records an export or import (or a failed one). */
  async addLog(entry: RegistryLogEntry): Promise<void> {
    const tx = (await this.db()).transaction('log', 'readwrite');
    await appendLog(tx.store, entry);
    await tx.done;
  }

  /** Newest first. */
  async log(): Promise<RegistryLogEntry[]> {
    const db = await this.db();
    const out: RegistryLogEntry[] = [];
    for (let cur = await db.transaction('log').store.openCursor(null, 'prev'); cur; cur = await cur.continue()) out.push(cur.value);
    return out;
  }

  close(): void {
    void this.dbp?.then((db) => db.close());
    this.dbp = null;
  }
}

type LogStore = IDBPObjectStore<RegistrySchema, ArrayLike<StoreNames<RegistrySchema>>, 'log', 'readwrite'>;

async function appendLog(store: LogStore, entry: RegistryLogEntry): Promise<void> {
  await store.add(boundedEntry(entry));
  let extra = (await store.count()) - MAX_LOG_ENTRIES;
  // Oldest first (auto-increment keys).
  for (let cur = extra > 0 ? await store.openCursor() : null; cur && extra > 0; extra--) {
    await cur.delete();
    cur = await cur.continue();
  }
}

/** The checks that judge how a card is served rather than what it says: meaningless on a card we made. */
export { SERVING_CHECKS } from '../engine/api';

export interface CardVerdicts {
  /** Card checks that judged the card (pass, fail or tool error). */
  judged: number;
  passed: number;
  failures: Pick<CheckResult, 'id' | 'test' | 'status' | 'level' | 'message' | 'recommendation'>[];
  /** Checks that did not apply to this card (e.g. no signatures). */
  skipped: number;
  /** The generation the engine read the card as (a v1.0-shaped card whose interfaces are all 0.3 reads as v0.3); `unknown` when undecided. */
  generation: string;
}

/** The engine's card checks (content only; see SERVING_CHECKS) on `card`, without any network (engine `judgeCard`). */
export async function checkCard(card: Record<string, unknown>, signal?: AbortSignal): Promise<CardVerdicts> {
  const { judgeCard } = await import('../engine/api');
  const judgement = await judgeCard(card, { signal });
  const generation = judgement.generation;
  // The security review is informational: it is not part of "passes every card check".
  const results = judgement.results.filter((r) => r.category !== 'security');
  const judged = results.filter((r) => r.status !== 'skip');
  return {
    judged: judged.length,
    passed: judged.filter((r) => r.status === 'pass').length,
    failures: judged
      .filter((r) => r.status !== 'pass')
      .map(({ id, test, status, level, message, recommendation }) => ({ id, test, status, level, message, recommendation })),
    skipped: results.length - judged.length,
    generation: generation ?? 'unknown',
  };
}
