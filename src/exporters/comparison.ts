import type { ReportComparison } from '../engine/model/report';
import { CHANGE_LABELS } from '../engine/report/compare';
import { formatDate } from './common';
import { esc } from './svg';

/** Rows of the comparison table; the rest are counted in a last line (a PR comment stays readable). */
export const COMPARISON_MAX_ROWS = 100;

const VERDICT_WORDS: Record<ReportComparison['verdict'], string> = {
  regressed: '❌ **Regressed**',
  improved: '✅ **Improved**',
  unchanged: '➖ **No regression**',
};

const SKIP_WHY: Record<string, string> = {
  'not-applicable': 'not applicable',
  precondition: 'precondition not met',
  'tool-limit': 'our budget ran out',
  credentials: 'credentials needed',
  unreachable: 'endpoint unreachable',
};

/**
 * The comparison with the baseline as Markdown for a pull-request comment: the verdict and the summary line
 * first, why the gate failed (if it did), then one table row per changed check, most serious first.
 * Every string from a report (ids, titles, URLs) goes through `mdText` (markdown.ts's, passed in: no import cycle).
 */
export function comparisonMarkdown(c: ReportComparison, mdText: (s: string, max?: number) => string): string[] {
  const lines = ['## Compared with the baseline', ''];
  lines.push(`${VERDICT_WORDS[c.verdict]} · ${mdText(c.summary, 500)}`, '');
  const b = c.baseline;
  lines.push(`Baseline: run ${mdText(b.runId, 100)} of ${mdText(formatDate(b.testDate), 100)} (a2a-interop ${mdText(b.toolVersion, 50)}).`, '');
  if (!c.sameAgent) lines.push(`> **Different agent.** The baseline is a run of ${mdText(b.agentUrl, 500)}: the comparison may mean little.`, '');
  if (c.regressions.length) {
    lines.push('Why the gate fails:', '');
    for (const r of c.regressions.slice(0, COMPARISON_MAX_ROWS)) lines.push(`- ${mdText(r, 600)}`);
    if (c.regressions.length > COMPARISON_MAX_ROWS) lines.push(`- and ${c.regressions.length - COMPARISON_MAX_ROWS} more`);
    lines.push('');
  }
  if (!c.changes.length) {
    lines.push('No check changed status.', '');
    return lines;
  }
  lines.push('| Check | Before | After | Change |', '| --- | --- | --- | --- |');
  for (const x of c.changes.slice(0, COMPARISON_MAX_ROWS)) {
    const after = x.after === 'skip' && x.skipKind ? `skip (${SKIP_WHY[x.skipKind] ?? mdText(x.skipKind, 40)})` : x.after;
    lines.push(`| ${mdText(x.title, 300)} (${mdText(x.id, 200)}) | ${x.before} | ${after} | ${CHANGE_LABELS[x.kind]} |`);
  }
  if (c.changes.length > COMPARISON_MAX_ROWS)
    lines.push('', `And ${c.changes.length - COMPARISON_MAX_ROWS} more changed checks (the JSON report lists them all).`);
  lines.push('');
  return lines;
}

const VERDICT_TEXT: Record<ReportComparison['verdict'], string> = { regressed: 'Regressed', improved: 'Improved', unchanged: 'No regression' };

/** The comparison with the baseline as an HTML section (the HTML report's, after the first screen). Text escaped. */
export function comparisonHtml(c: ReportComparison): string {
  const b = c.baseline;
  const cut = (s: string, max: number) => esc(s.length > max ? `${s.slice(0, max - 1)}…` : s);
  const out = [
    '<section aria-labelledby="h-comparison">',
    '<h2 id="h-comparison">Compared with the baseline</h2>',
    `<p><strong>${VERDICT_TEXT[c.verdict]}</strong> · ${cut(c.summary, 500)}</p>`,
    `<p>Baseline: run ${cut(b.runId, 100)} of ${cut(formatDate(b.testDate), 100)} (a2a-interop ${cut(b.toolVersion, 50)}).</p>`,
  ];
  if (!c.sameAgent)
    out.push(
      `<p><strong>Different agent.</strong> The baseline is a run of <span class="url">${cut(b.agentUrl, 500)}</span>: the comparison may mean little.</p>`,
    );
  if (c.regressions.length)
    out.push(
      `<ul>${c.regressions
        .slice(0, COMPARISON_MAX_ROWS)
        .map((r) => `<li>${cut(r, 600)}</li>`)
        .join('')}</ul>`,
    );
  if (c.changes.length) {
    out.push(
      '<table class="results">',
      '<thead><tr><th scope="col">Check</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Change</th></tr></thead>',
      '<tbody>',
      ...c.changes
        .slice(0, COMPARISON_MAX_ROWS)
        .map(
          (x) =>
            `<tr><td>${cut(x.title, 300)} <code>${cut(x.id, 200)}</code></td><td>${x.before}</td><td>${x.after}${x.after === 'skip' && x.skipKind ? ` (${esc(SKIP_WHY[x.skipKind] ?? x.skipKind)})` : ''}</td><td>${CHANGE_LABELS[x.kind]}</td></tr>`,
        ),
      '</tbody>',
      '</table>',
    );
    if (c.changes.length > COMPARISON_MAX_ROWS)
      out.push(`<p>And ${c.changes.length - COMPARISON_MAX_ROWS} more changed checks (the JSON report lists them all).</p>`);
  } else {
    out.push('<p>No check changed status.</p>');
  }
  out.push('</section>');
  return out.join('\n');
}
