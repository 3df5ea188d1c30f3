import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECK_SPECS, CLIENT_SPECS, KEYWORDS, normalizeSpecText, SPEC_DOCS, type SpecDoc, type SpecSentence } from './index';

/**
 * Every quoted sentence must be real: found verbatim (after normalizeSpecText) in the document it names, and
 * carrying the keyword it claims. Every source is in the repository: the A2A releases at spec/a2a/<version>/, the
 * standards A2A builds on (JSON-RPC 2.0, RFCs, WHATWG, OIDC) as excerpts at spec/standards/<doc>.txt (each file says
 * where it comes from and that it holds only the passages quoted), the conformance procedure in docs/.
 */
const ROOT = resolve(__dirname, '../../..');
/** The file a sentence is quoted from. */
function sourceFile(s: Pick<SpecSentence, 'doc' | 'file'>): string {
  if (s.doc.startsWith('a2a-')) return resolve(ROOT, 'spec/a2a', s.doc.replace(/^a2a-/, ''), s.file ?? 'specification.md');
  if (s.doc === 'procedure') return resolve(ROOT, 'docs/conformance-procedure.md');
  return resolve(ROOT, 'spec/standards', `${s.doc}.txt`);
}
const docs = new Map<string, string>();
function docText(s: SpecSentence): string | undefined {
  const path = sourceFile(s);
  if (!docs.has(path)) docs.set(path, existsSync(path) ? normalizeSpecText(readFileSync(path, 'utf8')) : '');
  return docs.get(path) || undefined;
}

// The client rules the conversation tap judges (src/engine/judges/client.ts) are quoted the same way.
const all = Object.entries({ ...CHECK_SPECS, ...CLIENT_SPECS }).flatMap(([id, spec]) =>
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
  it('every other quote (JSON-RPC 2.0, RFCs, WHATWG, OIDC, the conformance procedure) is found verbatim in its vendored source', () => {
    const others = all.filter(({ s }) => !s.doc.startsWith('a2a-'));
    expect(others.length).toBeGreaterThan(100);
    const missing = others
      .filter(({ s }) => {
        const text = docText(s);
        return !text || !text.includes(normalizeSpecText(s.quote));
      })
      .map(({ where, s }) => `${where}: ${relative(ROOT, sourceFile(s))}: "${s.quote.slice(0, 120)}"`);
    expect(missing).toEqual([]);
  });
  it('every vendored standard names its source and says it is an excerpt', () => {
    const quoted = new Set(all.map(({ s }) => s.doc).filter((d) => !d.startsWith('a2a-') && d !== 'procedure'));
    for (const doc of quoted) {
      const path = sourceFile({ doc: doc as SpecDoc });
      expect(existsSync(path), relative(ROOT, path)).toBe(true);
      const head = readFileSync(path, 'utf8').split('\n').slice(0, 8).join('\n');
      expect(head, doc).toContain(`Source: ${SPEC_DOCS[doc as SpecDoc].url.replace(/#.*$/, '').replace(/\/$/, '')}`);
      expect(head, doc).toMatch(/EXCERPTS/);
    }
  });
  it('the test can fail: a quote changed by one word is not found', () => {
    const sample = all.find(({ s }) => s.doc === 'json-rpc-2.0' && s.quote.includes('MUST'))!;
    const text = docText(sample.s)!;
    expect(text.includes(normalizeSpecText(sample.s.quote))).toBe(true);
    expect(text.includes(normalizeSpecText(sample.s.quote.replace(/MUST/, 'SHOULD')))).toBe(false);
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
