import { describe, expect, it } from 'vitest';
import { GENERATIONS } from '../model/check';
import { CHECK_SPECS, levelOf } from '../spec';
import { ALL_CHECKS } from './index';
import { obligationFor, requirementFor } from './define';

/**
 * Every check says, for every generation it applies to, which sentence(s) of that generation's specification it
 * enforces; the strength it judges with comes from them. A check without them cannot tell a user why it failed.
 */
describe('every check is traced to the spec', () => {
  it('has quoted sentences for at least one generation', () => {
    const missing = ALL_CHECKS.filter((c) => !CHECK_SPECS[c.id] || !Object.values(CHECK_SPECS[c.id]!).some((g) => g?.sentences.length)).map((c) => c.id);
    expect(missing).toEqual([]);
  });

  it('has at least one sentence for every generation it applies to', () => {
    const empty = ALL_CHECKS.flatMap((c) =>
      GENERATIONS.filter((g) => CHECK_SPECS[c.id]?.[g] !== undefined && !CHECK_SPECS[c.id]![g]!.sentences.length).map((g) => `${c.id} ${g}`),
    );
    expect(empty).toEqual([]);
  });

  it('has no spec entry for a check id that does not exist', () => {
    const ids = new Set(ALL_CHECKS.map((c) => c.id));
    expect(Object.keys(CHECK_SPECS).filter((id) => !ids.has(id))).toEqual([]);
  });

  it('judges with the strength of the generation spoken, and carries the quotes into results', () => {
    for (const c of ALL_CHECKS) {
      for (const g of GENERATIONS) {
        const spec = CHECK_SPECS[c.id]?.[g];
        if (!spec) continue;
        expect(obligationFor(c, g), `${c.id} ${g}`).toBe(levelOf(spec));
        const req = requirementFor(c, g);
        expect(
          req?.sentences.map((s) => s.quote),
          `${c.id} ${g}`,
        ).toEqual(spec.sentences.map((s) => s.quote));
      }
    }
  });

  it("a check's headline level is the one of the newest generation it applies to", () => {
    const wrong = ALL_CHECKS.flatMap((c) => {
      const newest = [...GENERATIONS].reverse().find((g) => CHECK_SPECS[c.id]?.[g]);
      return newest && obligationFor(c, newest) !== c.level ? [`${c.id}: headline ${c.level}, ${newest} says ${obligationFor(c, newest)}`] : [];
    });
    expect(wrong).toEqual([]);
  });
});
