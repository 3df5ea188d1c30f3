import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleCard } from '../testing/fake-host';
import {
  checkCard,
  exportCard,
  importCard,
  logEntry,
  MAX_LOG_ENTRIES,
  MAX_LOG_NOTES,
  MAX_NOTE_CHARS,
  RegistryAgent,
  RegistryDb,
  SERVING_CHECKS,
} from './registry-db';

let n = 0;
const dbs: RegistryDb[] = [];
const fresh = (now?: () => number) => {
  const d = new RegistryDb(`registry-test-${++n}-${Date.now()}`, now);
  dbs.push(d);
  return d;
};
afterEach(() => dbs.splice(0).forEach((d) => d.close()));

const agent = (id: string, extra: Partial<RegistryAgent> = {}): RegistryAgent =>
  RegistryAgent.parse({
    id,
    version: '1.0.0',
    name: `Agent ${id}`,
    endpoints: [{ protocol: 'a2a', url: `https://${id.replace(/\W/g, '')}.example/rpc` }],
    ...extra,
  });

describe('registry store', () => {
  it('keeps agents across connections (a reload), newest update first, with created/updated times', async () => {
    let t = 1000;
    const name = `registry-reload-${Date.now()}`;
    const a = new RegistryDb(name, () => t);
    await a.put(agent('agent:a', { local: { team: 'ops', physical: { reachMm: 850 } } }));
    t = 2000;
    await a.put(agent('agent:b'));
    t = 3000;
    await a.put({ ...agent('agent:a', { local: { team: 'ops', physical: { reachMm: 850 } } }), version: '1.1.0' });
    a.close();
    const b = new RegistryDb(name, () => t);
    dbs.push(b);
    const list = await b.list();
    expect(list.map((s) => s.id)).toEqual(['agent:a', 'agent:b']);
    expect(list[0]).toMatchObject({ createdAt: 1000, updatedAt: 3000 });
    expect(list[0]!.agent.version).toBe('1.1.0');
    expect(list[0]!.agent.local).toEqual({ team: 'ops', physical: { reachMm: 850 } });
    expect((await b.get('agent:b'))?.agent.name).toBe('Agent agent:b');
    expect(await b.get('agent:none')).toBeUndefined();
  });

  it('refuses an invalid agent and deletes by id', async () => {
    const d = fresh();
    await expect(d.put({ ...agent('agent:x'), name: '' })).rejects.toThrow();
    expect(await d.list()).toEqual([]);
    await d.put(agent('agent:x'));
    await d.put(agent('agent:y'));
    await d.delete('agent:x');
    expect((await d.list()).map((s) => s.id)).toEqual(['agent:y']);
  });

  it('records imports and exports in the mapper log, newest first, with the import in the same transaction', async () => {
    const d = fresh();
    const { agent: imported, generation } = importCard(sampleCard('v0.3', 'https://v03.example'), {
      sourceUrl: 'https://v03.example/.well-known/agent-card.json',
    });
    expect(generation).toBe('v0.3');
    await d.put(imported, logEntry('import', imported, `A2A ${generation}`, 'https://v03.example/.well-known/agent-card.json', '2026-01-01T00:00:00.000Z'));
    await d.addLog(logEntry('export', imported, 'A2A v1.0', 'agent-v03-example-v03.agent-card.json', '2026-01-01T00:00:01.000Z'));
    const log = await d.log();
    expect(log.map((e) => [e.dir, e.type, e.agent, e.schema])).toEqual([
      ['export', 'A2A v1.0', `${imported.id}@1.0.0`, 'a2a-mapper.v1'],
      ['import', 'A2A v0.3', `${imported.id}@1.0.0`, 'a2a-mapper.v1'],
    ]);
    expect(log[1]!.source).toBe('https://v03.example/.well-known/agent-card.json');
    expect((await d.get(imported.id))?.agent.source?.generation).toBe('v0.3');
  });

  it('bounds the mapper log, dropping the oldest entries', async () => {
    const d = fresh();
    const a = agent('agent:many');
    for (let i = 0; i < MAX_LOG_ENTRIES + 5; i++) await d.addLog(logEntry('export', a, 'A2A v1.0', undefined, `t${String(i).padStart(5, '0')}`));
    const log = await d.log();
    expect(log).toHaveLength(MAX_LOG_ENTRIES);
    expect(log[0]!.when).toBe(`t${String(MAX_LOG_ENTRIES + 4).padStart(5, '0')}`);
    expect(log.at(-1)!.when).toBe('t00005');
  });

  it('keeps how an entry went (failed, warnings with notes), with the notes bounded', async () => {
    const d = fresh();
    const a = agent('agent:warn');
    await d.addLog({
      ...logEntry('import', a, 'A2A v1.0', 'pasted JSON', 't1'),
      outcome: 'warnings',
      notes: Array.from({ length: 50 }, (_, i) => `note ${i} ${'x'.repeat(i === 0 ? 2000 : 1)}`),
    });
    await d.addLog({
      when: 't2',
      dir: 'import',
      type: '–',
      agent: '–',
      schema: 'a2a-mapper.v1',
      source: 'https://x.example',
      outcome: 'failed',
      notes: ['No agent card found.'],
    });
    const [failed, warned] = await d.log();
    expect(failed).toMatchObject({ outcome: 'failed', notes: ['No agent card found.'], agent: '–' });
    expect(warned!.outcome).toBe('warnings');
    expect(warned!.notes).toHaveLength(MAX_LOG_NOTES + 1);
    expect(warned!.notes![0]!.length).toBe(MAX_NOTE_CHARS);
    expect(warned!.notes!.at(-1)).toBe(`${50 - MAX_LOG_NOTES} more`);
  });
});

describe('card checks on an exported card (no network)', () => {
  it('an exported card passes the content checks; the serving checks are left out', async () => {
    const card = exportCard(agent('agent:good', { description: 'A good agent', skills: [{ id: 's', name: 'S', description: 'does s', tags: ['t'] }] }));
    const v = await checkCard(card);
    expect(v.failures).toEqual([]);
    expect(v.judged).toBeGreaterThan(5);
    expect(v.passed).toBe(v.judged);
    expect(v.generation).toBe('v1.0');
  });

  it('reports the failures of a card that breaks content checks', async () => {
    const card = exportCard(agent('agent:bad', { endpoints: [], inputModes: ['not a media type'] }));
    const v = await checkCard(card);
    const ids = v.failures.map((f) => f.id);
    expect(ids).toContain('card.urls.endpoint');
    expect(ids).toContain('card.modes.media-types');
    expect(v.passed).toBeLessThan(v.judged);
    expect(ids.some((id) => SERVING_CHECKS.includes(id))).toBe(false);
    for (const f of v.failures) expect(f.message.length).toBeGreaterThan(0);
  });

  it('says when the exported card reads as another generation (every interface is a v0.3 one)', async () => {
    const card = exportCard(agent('agent:old', { endpoints: [{ protocol: 'a2a', url: 'https://old.example/rpc', priority: 0, protocolVersion: '0.3' }] }));
    const v = await checkCard(card);
    expect(v.generation).toBe('v0.3');
    expect(v.failures.map((f) => f.id)).toContain('card.required-fields');
  });
});
