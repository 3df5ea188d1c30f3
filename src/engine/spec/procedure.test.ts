import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_SPECS, normalizeSpecText, RULE_SPECS, type CheckSpec, type SpecSentence } from './index';
import { PROCEDURE } from './data/procedure';

/**
 * The conformance procedure is an obligation source beside the spec: every sentence quoted from it is found verbatim in
 * docs/conformance-procedure.md (the English rendering of seed 001's pass criteria), and the shared rules' A2A quotes
 * are found in the release they name, like every check's (quotes.test.ts).
 */
const ROOT = resolve(__dirname, '../../..');
const page = normalizeSpecText(readFileSync(resolve(ROOT, 'docs/conformance-procedure.md'), 'utf8'));
const a2a = new Map<string, string>();
function a2aText(s: SpecSentence): string {
  const path = resolve(ROOT, 'spec/a2a', s.doc.replace(/^a2a-/, ''), s.file ?? 'specification.md');
  if (!a2a.has(path)) a2a.set(path, existsSync(path) ? normalizeSpecText(readFileSync(path, 'utf8')) : '');
  return a2a.get(path)!;
}
const sentencesOf = (specs: Readonly<Record<string, CheckSpec>>) =>
  Object.entries(specs).flatMap(([id, spec]) => Object.entries(spec).flatMap(([g, gs]) => (gs?.sentences ?? []).map((s) => ({ where: `${id} ${g}`, s }))));

describe('the conformance procedure as an obligation source', () => {
  it('every procedure sentence is on docs/conformance-procedure.md, verbatim, in the table row it names', () => {
    const quoted = [...Object.values(PROCEDURE), ...sentencesOf(CHECK_SPECS).map((x) => x.s), ...sentencesOf(RULE_SPECS).map((x) => x.s)].filter(
      (s) => s.doc === 'procedure',
    );
    expect(quoted.length).toBeGreaterThan(10);
    const missing = quoted.filter((s) => !page.includes(`| ${s.section.split(' ').pop()} | ${normalizeSpecText(s.quote)} |`)).map((s) => `${s.section}: ${s.quote}`);
    expect(missing).toEqual([]);
  });
  it("every shared rule's A2A quote is verbatim in the release it names", () => {
    const missing = sentencesOf(RULE_SPECS)
      .filter(({ s }) => s.doc.startsWith('a2a-') && !a2aText(s).includes(normalizeSpecText(s.quote)))
      .map(({ where, s }) => `${where}: ${s.quote.slice(0, 100)}`);
    expect(missing).toEqual([]);
  });
  it('every rule speaks of every generation, and the procedure stands behind each one where the spec has no requirement word', () => {
    for (const [rule, spec] of Object.entries(RULE_SPECS)) {
      for (const g of ['legacy', 'v0.2', 'v0.3', 'v1.0'] as const) {
        const gs = (spec as CheckSpec)[g];
        expect(gs, `${rule} ${g}`).toBeDefined();
        const specWords = gs!.sentences.filter((s) => s.doc !== 'procedure' && !['none', 'MAY'].includes(s.keyword));
        if (!specWords.length) expect(gs!.sentences.some((s) => s.doc === 'procedure' && s.keyword !== 'none'), `${rule} ${g}`).toBe(true);
        expect(gs!.note, `${rule} ${g} says why its strength is what it is`).toBeTruthy();
      }
    }
  });
});
