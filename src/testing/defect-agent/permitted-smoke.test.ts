import { afterAll, describe, expect, it } from 'vitest';
import { startDefectAgent, type RunningDefectAgent } from './index';

const agents: RunningDefectAgent[] = [];
afterAll(() => Promise.all(agents.map((a) => a.close())));

describe('permitted variants change the wire as described', () => {
  it('gzip compresses answers and streams, and fetch still reads them', async () => {
    const a = await startDefectAgent({ generation: 'v1.0', permitted: ['gzip'], stepMs: 5 });
    agents.push(a);
    const card = await fetch(a.cardUrl, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(card.headers.get('content-encoding')).toBe('gzip');
    expect((await card.json()).name).toMatch(/Defect agent/);
  });
});
