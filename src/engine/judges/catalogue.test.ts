import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from '../checks';
import { GENERATIONS } from '../model/check';
import { CHECK_SPECS, levelOf, RULE_SPECS } from '../spec';
import * as exchange from './exchange';
import * as list from './list';
import * as rules from './rules';
import * as stream from './stream';
import * as streamEnding from './stream-ending';
import { JUDGES, judgeObligation } from './catalogue';

/** Every judge module's exports, by name. */
const judges: Record<string, unknown> = { ...exchange, ...list, ...rules, ...stream, ...streamEnding };

describe('the judges catalogue: every judge names checks that exist, with their strength per generation', () => {
  const ids = new Set(ALL_CHECKS.map((c) => c.id));
  it('names exported judges, checks of the manifest with spec data, and shared rules of RULE_SPECS', () => {
    for (const [name, j] of Object.entries(JUDGES)) {
      expect(typeof judges[name], name).toBe('function');
      expect(j.checks.length, name).toBeGreaterThan(0);
      for (const id of j.checks) {
        expect(ids.has(id), `${name}: ${id}`).toBe(true);
        expect(CHECK_SPECS[id], `${name}: ${id}`).toBeDefined();
      }
      if ('rule' in j) expect(RULE_SPECS[j.rule], name).toBeDefined();
    }
  });

  it("a judge's obligation is its check's in each generation (MAY as advisory), or its rule's; none for a check it does not judge", () => {
    for (const g of GENERATIONS) {
      const spec = CHECK_SPECS['streaming.first-event']?.[g];
      const want = spec ? (levelOf(spec) === 'MAY' ? 'advisory' : levelOf(spec)) : undefined;
      expect(judgeObligation('firstEventFinding', 'streaming.first-event', g), g).toBe(want);
      const rule = RULE_SPECS['terminal-final'][g];
      expect(judgeObligation('streamTransitionFindings', 'lifecycle.transitions', g), g).toBe(
        rule ? (levelOf(rule) === 'MAY' ? 'advisory' : levelOf(rule)) : 'MUST',
      );
    }
    expect(judgeObligation('firstEventFinding', 'lifecycle.send', 'v1.0')).toBeUndefined();
    // streaming.closes is a rule of the releases before v1.0 only.
    expect(judgeObligation('streamCloses', 'streaming.closes', 'v1.0')).toBeUndefined();
    expect(judgeObligation('streamCloses', 'streaming.closes', 'v0.3')).toBeDefined();
  });
});
