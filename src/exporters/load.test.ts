import { describe, expect, it } from 'vitest';
import { HOSTILE_BEARER_TOKEN, sampleReport, schemaV0Report } from '../testing/fixtures/reports';
import { MAX_REPORT_CHARS, MAX_REPORT_DEPTH, exceedsDepth, loadReport } from './load';

const fail = (text: string) => {
  const r = loadReport(text);
  expect(r.ok).toBe(false);
  return r.ok ? '' : r.error;
};

describe('loadReport', () => {
  it('opens a current report (a UTF-8 BOM is tolerated)', () => {
    const report = sampleReport();
    const r = loadReport(`\uFEFF${JSON.stringify(report)}`);
    expect(r).toEqual({ ok: true, report: JSON.parse(JSON.stringify(report)) });
  });

  it('migrates a schemaVersion 0 report and says so', () => {
    const r = loadReport(JSON.stringify(schemaV0Report()));
    expect(r.ok && r.migratedFrom).toBe(0);
    expect(r.ok && r.report.schemaVersion).toBe(2);
    expect(r.ok && r.report.summary.failed).toBe(2);
  });

  it('explains what is wrong, in words a user can act on', () => {
    expect(fail('')).toBe('The file is empty.');
    expect(fail('  \n ')).toBe('The file is empty.');
    expect(fail('{"agentName": ')).toMatch(/^The file is not valid JSON: /);
    expect(fail('[1,2]')).toBe('Not a report: expected a JSON object, got an array.');
    expect(fail('"text"')).toBe('Not a report: expected a JSON object, got string.');
    expect(fail('{"hello":1}')).toMatch(/^Not an a2a-interop report: no schemaVersion/);
    expect(fail('{"schemaVersion":"1"}')).toBe('Unknown schemaVersion "1": expected a whole number up to 2.');
    expect(fail(JSON.stringify({ ...sampleReport(), schemaVersion: 3 }))).toBe(
      'This report has schemaVersion 3, newer than this tool reads (2). Update a2a-interop to open it.',
    );
    const broken = { ...sampleReport(), conformanceLevel: 'excellent', summary: { total: -1, passed: 0, failed: 0, skipped: 0, errors: 0 } };
    const error = fail(JSON.stringify(broken));
    expect(error).toMatch(/^Not a valid a2a-interop report: /);
    expect(error).toContain('summary.total:');
    expect(error).toContain('conformanceLevel:');
    const v0 = schemaV0Report() as { agentUrl?: unknown };
    v0.agentUrl = 42;
    expect(fail(JSON.stringify(v0))).toMatch(/^Not a valid a2a-interop report \(migrated from schemaVersion 0\): agentUrl: /);
  });

  it('lists at most five problems', () => {
    const r = { ...sampleReport(), runId: 1, agentUrl: 2, agentName: 3, agentVersion: 4, testDate: 5, durationMs: 'x', runStatus: 7 };
    expect(fail(JSON.stringify(r))).toMatch(/; and 2 more problems\.$/);
  });

  it('refuses huge and absurdly deep input quickly, without throwing', () => {
    const t0 = performance.now();
    expect(fail(' '.repeat(MAX_REPORT_CHARS + 1))).toBe('The file is 64.0 MB; reports up to 64.0 MB can be opened.');
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    expect(fail(deep)).toBe(`The JSON is nested more than ${MAX_REPORT_DEPTH} levels deep, which no report is.`);
    const deepCard = JSON.stringify({
      ...sampleReport(),
      targets: [{ role: 'agent', inputUrl: 'x', attempts: [], rawCard: JSON.parse(`${'{"a":'.repeat(200)}1${'}'.repeat(200)}`) }],
    });
    expect(fail(deepCard)).toMatch(/nested more than/);
    // About 0.7 s on the loaded 2-core machine; parsing 64 MB or recursing a million levels instead takes far longer
    // (or throws). A generous bound so load alone cannot fail it.
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it('masks credentials in the reports it opens', () => {
    const report = sampleReport();
    report.events!.push({ type: 'log', at: 1, level: 'info', message: `Authorization: Bearer ${HOSTILE_BEARER_TOKEN}` });
    const r = loadReport(JSON.stringify(report));
    expect(r.ok).toBe(true);
    expect(JSON.stringify(r.ok && r.report)).not.toContain(HOSTILE_BEARER_TOKEN);
  });

  it('exceedsDepth counts container levels iteratively', () => {
    expect(exceedsDepth({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(exceedsDepth({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(exceedsDepth('flat', 0)).toBe(false);
  });
});
