import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_SPECS, KEYWORDS, normalizeSpecText, type SpecSentence } from './index';

/**
 * Every quoted sentence must be real: found verbatim (after normalizeSpecText) in the release it names, and
 * carrying the keyword it claims. The releases are vendored in the repository at spec/a2a/<version>/.
 */
const SPEC_ROOT = resolve(__dirname, '../../../spec/a2a');
const docs = new Map<string, string>();
function docText(s: SpecSentence): string | undefined {
  const version = s.doc.replace(/^a2a-/, '');
  const path = resolve(SPEC_ROOT, version, s.file ?? 'specification.md');
  if (!docs.has(path)) docs.set(path, existsSync(path) ? normalizeSpecText(readFileSync(path, 'utf8')) : '');
  return docs.get(path) || undefined;
}

const all = Object.entries(CHECK_SPECS).flatMap(([id, spec]) =>
  Object.entries(spec).flatMap(([g, gs]) => (gs?.sentences ?? []).map((s, i) => ({ where: `${id} ${g} #${i}`, s, gs }))),
);

describe('spec sentences', () => {
  it('every A2A quote is found verbatim in the release it names', () => {
    const missing = all
      .filter(({ s }) => s.doc.startsWith('a2a-'))
      .filter(({ s }) => {
        const text = docText(s);
        return !text || !text.includes(normalizeSpecText(s.quote));
      })
      .map(({ where, s }) => `${where}: ${s.doc}/${s.file ?? 'specification.md'}: "${s.quote.slice(0, 120)}"`);
    expect(missing).toEqual([]);
  });
  it('every sentence carries the keyword it claims', () => {
    const wrong = all
      .filter(({ s }) => {
        if (!KEYWORDS.includes(s.keyword)) return true;
        if (s.keyword === 'none') return false;
        const q = normalizeSpecText(s.quote);
        if (s.keyword === 'required-field') return !/required|REQUIRED|Yes|\bR\b/.test(q);
        return !new RegExp(`\\b${s.keyword}\\b`).test(q);
      })
      .map(({ where, s }) => `${where}: ${s.keyword} not in "${s.quote.slice(0, 120)}"`);
    expect(wrong).toEqual([]);
  });
  it('a level override always says why', () => {
    const bare = Object.entries(CHECK_SPECS).flatMap(([id, spec]) =>
      Object.entries(spec)
        .filter(([, gs]) => gs?.level && !gs.note)
        .map(([g]) => `${id} ${g}`),
    );
    expect(bare).toEqual([]);
  });
});
