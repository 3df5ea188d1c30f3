import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ConsoleArchive, MAX_SESSIONS, type ConsoleRecord } from './console-db';

const archives: ConsoleArchive[] = [];
let n = 0;
const fresh = () => {
  const a = new ConsoleArchive(`console-test-${++n}-${Date.now()}`);
  archives.push(a);
  return a;
};
afterEach(() => archives.splice(0).forEach((a) => a.close()));

const record = (id: string, updatedAt: number, calls = 1): ConsoleRecord => ({
  id,
  agentUrl: `http://127.0.0.1:1/${id}`,
  agentName: `Agent ${id}`,
  generation: 'v1.0',
  binding: 'JSONRPC',
  startedAt: updatedAt - 5,
  updatedAt,
  target: null,
  calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i + 1}` })),
  events: [{ type: 'log', at: 1, level: 'info', message: 'hi' }],
  findings: 2,
});

describe('console archive', () => {
  it('saves, replaces, lists newest first and survives a new connection (a reload)', async () => {
    const a = fresh();
    await a.put(record('s1', 100));
    await a.put(record('s2', 200, 3));
    await a.put(record('s1', 300, 2));
    const again = new ConsoleArchive(a.name);
    archives.push(again);
    const list = await again.list();
    expect(list.map((s) => [s.id, s.calls, s.findings])).toEqual([
      ['s1', 2, 2],
      ['s2', 3, 2],
    ]);
    const got = await again.get('s2');
    expect(got?.calls).toHaveLength(3);
    expect(got?.events[0]).toMatchObject({ type: 'log' });
    expect(got && 'callCount' in got).toBe(false);
    await again.delete('s2');
    expect((await again.list()).map((s) => s.id)).toEqual(['s1']);
    expect(await again.get('nope')).toBeUndefined();
  });

  it(`keeps the newest ${MAX_SESSIONS} sessions`, async () => {
    const a = fresh();
    for (let i = 0; i < MAX_SESSIONS + 3; i++) await a.put(record(`s${i}`, 1000 + i));
    const list = await a.list();
    expect(list).toHaveLength(MAX_SESSIONS);
    expect(list.at(-1)!.id).toBe('s3');
    expect(list[0]!.id).toBe(`s${MAX_SESSIONS + 2}`);
  });
});
