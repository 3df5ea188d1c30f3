import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { compareWithBaseline } from '../engine/report/baseline';
import { HOSTILE_TEXT, conformantReport } from '../testing/fixtures/reports';
import { COMPARISON_MAX_ROWS } from './comparison';
import { exportReport } from './index';

function changed(r: Report, edit: (x: CheckResult) => void, level = r.conformanceLevel): Report {
  const copy = structuredClone(r);
  for (const list of Object.values(copy.categories)) for (const x of list) edit(x);
  return { ...copy, conformanceLevel: level };
}

describe('the Markdown report with a baseline (a pull-request comment)', () => {
  it('puts the comparison first: verdict and summary line, why the gate fails, then the table', () => {
    const before = conformantReport();
    const after = changed(before, (x) => void (x.id === 'lifecycle.cancel' && (x.status = 'fail')), 'partial');
    const md = exportReport({ ...after, comparison: compareWithBaseline(before, after) }, 'markdown').file.body;
    const lines = md.split('\n');
    expect(lines[2]).toBe('## Compared with the baseline');
    expect(lines[4]).toBe('❌ **Regressed** · full → partial · 0 fixed · 1 regressed · 0 not applicable');
    expect(md).toContain('- The level went down: full → partial.');
    expect(md).toContain(
      '| Check | Before | After | Change |\n| --- | --- | --- | --- |\n| CancelTask cancels a working task (lifecycle.cancel) | pass | fail | regressed |',
    );
    // The rest of the report follows.
    expect(md.indexOf('## Compared with the baseline')).toBeLessThan(md.indexOf('## Summary'));
  });

  it('an improvement reads as improved; no comparison, no section', () => {
    const after = conformantReport();
    const before = changed(after, (x) => void (x.id === 'lifecycle.cancel' && (x.status = 'fail')), 'partial');
    const md = exportReport({ ...after, comparison: compareWithBaseline(before, after) }, 'markdown').file.body;
    expect(md).toContain('✅ **Improved** · partial → full · 1 fixed · 0 regressed · 0 not applicable');
    expect(exportReport(after, 'markdown').file.body).not.toContain('Compared with the baseline');
  });

  it('escapes titles and ids from the reports, and caps the table', () => {
    const before = conformantReport();
    const many = structuredClone(before);
    many.categories.interop = Array.from({ length: COMPARISON_MAX_ROWS + 5 }, (_, i) => ({
      ...before.categories.lifecycle[0]!,
      id: `x.${i}|<b>`,
      test: `Title ${HOSTILE_TEXT}`,
      status: 'fail' as const,
      category: 'interop' as const,
    }));
    const comparison = compareWithBaseline(before, many);
    // 105 new failures, and the interop check the copy no longer has (removed).
    expect(comparison.changes).toHaveLength(COMPARISON_MAX_ROWS + 6);
    const md = exportReport({ ...many, comparison }, 'markdown').file.body;
    const section = md.slice(md.indexOf('## Compared'), md.indexOf('## Summary'));
    expect(section).not.toContain('<script>');
    expect(section).not.toMatch(/[^\\]\|<b>/);
    expect(section).toContain('And 6 more changed checks');
    expect(section.split('\n').filter((l) => l.startsWith('| Title')).length).toBe(COMPARISON_MAX_ROWS);
  });

  it('the HTML report shows the comparison after the first screen, escaped', () => {
    const before = conformantReport();
    const after = changed(
      before,
      (x) => void (x.id === 'lifecycle.cancel' && ((x.status = 'fail'), (x.test = `<script>x</script> ${HOSTILE_TEXT}`))),
      'partial',
    );
    const html = exportReport({ ...after, comparison: compareWithBaseline(before, after) }, 'html').file.body;
    const section = html.slice(html.indexOf('<section aria-labelledby="h-comparison">'), html.indexOf('<section class="pb" aria-labelledby="h-failed">'));
    expect(section).toContain('<h2 id="h-comparison">Compared with the baseline</h2>');
    expect(section).toContain('<p><strong>Regressed</strong> · full → partial · 0 fixed · 1 regressed · 0 not applicable</p>');
    expect(section).toMatch(
      /<td>&#60;script&#62;x&#60;\/script&#62; [\s\S]*<code>lifecycle\.cancel<\/code><\/td><td>pass<\/td><td>fail<\/td><td>regressed<\/td>/,
    );
    expect(section).not.toContain('<script>');
    expect(exportReport(after, 'html').file.body).not.toContain('h-comparison');
  });
});
