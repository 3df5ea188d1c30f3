import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { syntheticRun } from '../testing/fixtures/events';
import { RunArchive } from './db';
import { RunRecorder } from './recorder';

let n = 0;
const archives: RunArchive[] = [];
const fresh = () => {
  const a = new RunArchive(`test-db-${++n}-${Date.now()}`);
  archives.push(a);
  return a;
};
afterEach(() => archives.splice(0).forEach((a) => a.close()));

describe('run archive and recorder', () => {
  it('appends a run in batches while it progresses; a new connection (a reload) reads every event written', async () => {
    const name = `reload-${Date.now()}`;
    const a = new RunArchive(name);
    const events = syntheticRun({ runId: 'r1', targetEvents: 2000, finish: null });
    const rec = new RunRecorder(a, { maxBatch: 100, intervalMs: 10_000 });
    events.forEach((e) => rec.push(e));
    await rec.flush();
    a.close();
    const b = new RunArchive(name); // what the page sees after a reload
    archives.push(b);
    const stored = await b.events('r1');
    expect(stored).toEqual(events);
    const meta = await b.get('r1');
    expect(meta?.status).toBe('running');
    expect(meta?.eventCount).toBe(events.length);
    expect(meta?.summary.total).toBeGreaterThan(0);
  });

  it('closeAbandoned marks a cut-off run interrupted, keeps its partial results, and leaves finished runs alone', async () => {
    const a = fresh();
    const cut = syntheticRun({ runId: 'cut', finish: null, startAt: 1000 });
    const done = syntheticRun({ runId: 'done', startAt: 5000 });
    await a.replace(cut, 'live');
    await a.replace(done, 'live');
    const closed = await a.closeAbandoned(99_999_999);
    expect(closed.map((m) => m.runId)).toEqual(['cut']);
    const meta = await a.get('cut');
    expect(meta?.status).toBe('interrupted');
    // An interrupted run has no level (not a provisional one): it is stored as stopped.
    expect(meta?.level).toBeNull();
    expect(meta?.notAssessed).toBe('stopped');
    expect(meta?.summary.total).toBe(cut.filter((e) => e.type === 'check-finished').length);
    const ev = await a.events('cut');
    expect(ev.at(-1)).toMatchObject({ type: 'run-finished', status: 'interrupted' });
    expect((await a.get('done'))?.status).toBe('completed');
    expect(await a.closeAbandoned(99_999_999)).toEqual([]);
  });

  it('closeAbandoned leaves alone a run another tab is still running', async () => {
    const a = fresh();
    await a.replace(syntheticRun({ runId: 'elsewhere', finish: null }), 'live');
    expect(await a.closeAbandoned(Date.now(), undefined, async (id) => id === 'elsewhere')).toEqual([]);
    expect((await a.get('elsewhere'))?.status).toBe('running');
  });

  it('lists newest first, deletes a run with its events', async () => {
    const a = fresh();
    await a.replace(syntheticRun({ runId: 'old', startAt: 1000 }), 'live');
    await a.replace(syntheticRun({ runId: 'new', startAt: 9000, flawed: true }), 'imported');
    const list = await a.list();
    expect(list.map((m) => m.runId)).toEqual(['new', 'old']);
    expect(list[0]).toMatchObject({ level: 'minimal', origin: 'imported', agentName: 'Synthetic Echo Agent' });
    await a.delete('new');
    expect((await a.list()).map((m) => m.runId)).toEqual(['old']);
    expect(await a.events('new')).toEqual([]);
  });
});
