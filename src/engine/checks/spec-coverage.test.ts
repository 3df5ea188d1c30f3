import { describe, expect, it } from 'vitest';
import { sampleCard } from '../../testing/fake-host';
import { judgeCard } from '../api';
import { GENERATIONS, type Obligation } from '../model/check';
import { CHECK_SPECS, type GenerationSpec, type Keyword } from '../spec';
import { ALL_CHECKS, CHECK_CATALOG } from './index';
import { obligationFor, requirementFor } from './define';

/**
 * The strength of a generation's requirement, read from its sentences with RFC 2119 / RFC 8174 written out here (an
 * oracle independent of spec/types.ts levelOf): MUST, MUST NOT, REQUIRED, SHALL, SHALL NOT and a field the schema or
 * proto marks required are absolute requirements; SHOULD, SHOULD NOT and RECOMMENDED recommendations; MAY, OPTIONAL
 * and descriptive text (none) give advice only. A level override stands only with a note (a contradiction).
 */
const RFC2119: Record<Keyword, Obligation> = {
  MUST: 'MUST',
  'MUST NOT': 'MUST',
  REQUIRED: 'MUST',
  SHALL: 'MUST',
  'SHALL NOT': 'MUST',
  'required-field': 'MUST',
  SHOULD: 'SHOULD',
  'SHOULD NOT': 'SHOULD',
  RECOMMENDED: 'SHOULD',
  MAY: 'MAY',
  OPTIONAL: 'MAY',
  none: 'MAY',
};
function expectedStrength(spec: GenerationSpec): Obligation {
  if (spec.level) {
    expect(spec.note, 'a level override says why').toBeTruthy();
    return spec.level;
  }
  const strengths = spec.sentences.map((s) => RFC2119[s.keyword]);
  return strengths.includes('MUST') ? 'MUST' : strengths.includes('SHOULD') ? 'SHOULD' : 'MAY';
}

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

  it('judges with the strength its quoted keywords give (RFC 2119 read independently), and carries the quotes into results', () => {
    for (const c of ALL_CHECKS) {
      for (const g of GENERATIONS) {
        const spec = CHECK_SPECS[c.id]?.[g];
        if (!spec) continue;
        expect(obligationFor(c, g), `${c.id} ${g}`).toBe(expectedStrength(spec));
        const req = requirementFor(c, g);
        expect(
          req?.sentences.map((s) => s.quote),
          `${c.id} ${g}`,
        ).toEqual(spec.sentences.map((s) => s.quote));
      }
    }
  });

  it('the results of a run carry that strength, per generation (card checks judged on sample cards)', async () => {
    for (const g of ['legacy', 'v0.3', 'v1.0'] as const) {
      const { results, generation } = await judgeCard(sampleCard(g));
      expect(generation).toBe(g);
      expect(results.length).toBeGreaterThan(10);
      for (const r of results) {
        const spec = CHECK_SPECS[r.id]?.[g];
        if (spec) expect(r.level, `${r.id} ${g}`).toBe(expectedStrength(spec));
      }
    }
  });

  it("a check's headline level (catalogue, CLI, UI) is the strength of the newest generation it applies to", () => {
    const newestFirst = ['v1.0', 'v0.3', 'v0.2', 'legacy'] as const;
    const wrong = CHECK_CATALOG.flatMap((c) => {
      const spec = newestFirst.map((g) => CHECK_SPECS[c.id]?.[g]).find((x) => x !== undefined);
      return spec && expectedStrength(spec) !== c.level ? [`${c.id}: headline ${c.level}, its newest sentences say ${expectedStrength(spec)}`] : [];
    });
    expect(wrong).toEqual([]);
    // Not vacuous: the catalogue holds all three strengths.
    expect(new Set(CHECK_CATALOG.map((c) => c.level))).toEqual(new Set(['MUST', 'SHOULD', 'MAY']));
  });
});
