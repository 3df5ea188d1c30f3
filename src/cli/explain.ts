/**
 * `a2a-interop explain <check-id>` and `a2a-interop checks --format`: what a check enforces, generation by
 * generation, with the sentences it is traced to. Pure functions over the catalogue and the spec data.
 */
import { CHECK_CATALOG, unknownCheckIds } from '../engine/checks';
import { obligationFor, tierFor } from '../engine/checks/define';
import { windowsOf } from '../engine/checks/windows';
import { GENERATIONS, type CheckInfo, type Generation } from '../engine/model/check';
import { CHECK_SPECS, GENERATION_DOC, SPEC_DOCS, levelOf, refOf } from '../engine/spec';

const KEYWORD_WORDS: Record<string, string> = { 'required-field': 'required field', none: 'no requirement word' };

/** One generation's view of a check, or undefined when the check does not apply to it. */
export function checkInGeneration(c: CheckInfo, g: Generation) {
  const spec = CHECK_SPECS[c.id]?.[g];
  if (!spec) return undefined;
  return {
    generation: g,
    release: SPEC_DOCS[GENERATION_DOC[g]].title,
    level: levelOf(spec),
    tier: tierFor(c, g),
    reference: refOf(spec),
    note: spec.note,
    sentences: spec.sentences.map((s) => ({ doc: SPEC_DOCS[s.doc].title, section: s.section, keyword: s.keyword, quote: s.quote, url: SPEC_DOCS[s.doc].url })),
  };
}

/** The catalogue as data: every check with its levels and sentences per generation. */
export function catalog() {
  return CHECK_CATALOG.map((c) => ({
    id: c.id,
    title: c.title,
    category: c.category,
    level: c.level,
    recommendation: c.recommendation,
    generations: GENERATIONS.map((g) => checkInGeneration(c, g)).filter((x) => x !== undefined),
  }));
}

/** Check ids close to `id` (same prefix, or containing it), for "did you mean". */
/** Check ids close to an unknown one (the engine's one rule for every door that takes ids). */
export function suggest(id: string): string[] {
  return unknownCheckIds([id])[0]?.suggestions ?? [];
}

/** Plain-text explanation of one check; undefined when there is no such check. */
export function explainCheck(id: string): string | undefined {
  const c = CHECK_CATALOG.find((x) => x.id === id);
  if (!c) return undefined;
  const out: string[] = [`${c.id}: ${c.title}`, `category: ${c.category}`, ''];
  for (const g of GENERATIONS) {
    const v = checkInGeneration(c, g);
    if (!v) {
      out.push(`${g}: does not apply`, '');
      continue;
    }
    const judged = v.level === 'MAY' ? 'a failure is an advisory (never lowers the level)' : `a failure counts (${v.tier} tier)`;
    out.push(`${g} (${v.release}): ${v.level}: ${judged}`);
    for (const s of v.sentences) out.push(`  ${s.doc} ${s.section} [${KEYWORD_WORDS[s.keyword] ?? s.keyword}]`, `    "${s.quote}"`);
    if (v.note) out.push(`  note: ${v.note}`);
    out.push('');
  }
  const windows = windowsOf(c.id);
  if (windows.length) {
    out.push('observation windows (sized per run from what it measured; each run reports the lengths used in its timing section):');
    for (const w of windows) out.push(`  ${w.name}: watches that ${w.watches}; ${w.sizing}; ${w.floorMs}-${w.ceilingMs} ms`);
    out.push('');
  }
  out.push(`fix: ${c.recommendation}`);
  return `${out.join('\n')}\n`;
}

/** The catalogue as Markdown: one table row per check and generation. */
export function catalogMarkdown(): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = ['# a2a-interop checks', '', '| Check | Category | legacy | v0.2 | v0.3 | v1.0 | Title |', '|---|---|---|---|---|---|---|'];
  for (const c of catalog()) {
    const lv = (g: Generation) => c.generations.find((x) => x.generation === g)?.level ?? '—';
    lines.push(`| \`${c.id}\` | ${c.category} | ${lv('legacy')} | ${lv('v0.2')} | ${lv('v0.3')} | ${lv('v1.0')} | ${esc(c.title)} |`);
  }
  lines.push('', 'MUST and SHOULD failures count against the level; MAY means a failure is an advisory. `a2a-interop explain <id>` quotes the sentences.', '');
  return lines.join('\n');
}

/** Levels per generation for the text listing: `MUST/MUST/SHOULD/-`. */
export const levelsLine = (c: CheckInfo) => GENERATIONS.map((g) => (CHECK_SPECS[c.id]?.[g] ? obligationFor(c, g) : '-')).join('/');
