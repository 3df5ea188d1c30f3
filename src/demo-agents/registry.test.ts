import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../testing/defect-agent';
import { DEMO_AGENTS } from './index';

describe('DEMO_AGENTS registry', () => {
  it('has unique ids and paths under /demo/<id>', () => {
    expect(new Set(DEMO_AGENTS.map((a) => a.id)).size).toBe(DEMO_AGENTS.length);
    for (const a of DEMO_AGENTS) expect(a.path).toBe(`/demo/${a.id}`);
  });

  it('describes each agent completely', () => {
    for (const a of DEMO_AGENTS) {
      expect(a.bindings[0]).toBe('JSONRPC');
      expect(['full', 'partial', 'minimal', 'non-conformant']).toContain(a.expectedLevel);
      expect(a.expectedLevelWhy.length).toBeGreaterThan(40);
      expect(a.cardPath).toBe(a.generation === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json');
      expect(a.delaysMs).toMatchObject({ quick: 150, slow: 1500, input: 100, fail: 50, plain: 0 });
      for (const d of a.defects) expect(d.description).toBe(DEFECTS[d.name]);
    }
    expect(DEMO_AGENTS.find((a) => a.id === 'flawed')!.defects.map((d) => d.name)).toContain('card-capabilities-array');
  });

  it('builds agents whose card and endpoint URLs are absolute and under the mount', () => {
    for (const a of DEMO_AGENTS) {
      const m = a.create({ basePath: a.path, publicUrl: `http://127.0.0.1:9999${a.path}` });
      expect(m.cardUrl).toBe(`http://127.0.0.1:9999${a.path}${a.cardPath}`);
      expect(m.url).toBe(`http://127.0.0.1:9999${a.path}${a.endpointPath}`);
      void m.close();
    }
  });
});
