/** The bounded summary run_a2a_conformance returns, and the report files beside it. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { reportResults, type CheckResult, type Report } from '../engine';
import { hostileReport, sampleReport, HOSTILE_BEARER_TOKEN } from '../testing/fixtures/reports';
import { boundedSummary, SUMMARY_MAX_CHARS, writeReports } from './summary';

const size = (v: object) => JSON.stringify(v, null, 2).length;

/** The sample report with `n` long required failures (a worst case: every check failed, verbose messages). */
function manyFailures(n: number): Report {
  const r = sampleReport();
  const model = r.categories.lifecycle[0]!;
  const failures: CheckResult[] = Array.from({ length: n }, (_, i) => ({
    ...model,
    id: `lifecycle.synthetic-${i}`,
    status: 'fail',
    message: `Failure ${i}: ${'the agent answered something else than the specification says '.repeat(20)}`,
    recommendation: 'Change the handler so that it does what the quoted sentence says. '.repeat(10),
  }));
  return { ...r, categories: { ...r.categories, lifecycle: failures }, summary: { ...r.summary, failed: n } };
}

const dir = mkdtempSync(join(tmpdir(), 'a2a-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('boundedSummary', () => {
  it('keeps every failure (with its sentence and fix) when they fit', () => {
    const r = sampleReport();
    const v = boundedSummary({ report: r, files: { json: '/x/a.json' } }) as { failures: { check: string }[]; more_failures?: string };
    const failed = Object.values(r.categories)
      .flat()
      .filter((x) => x.status === 'fail' || x.status === 'error');
    expect(v.failures.map((f) => f.check).sort()).toEqual(failed.map((f) => f.id).sort());
    expect(v.more_failures).toBeUndefined();
    expect(size(v)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
  });

  it('stays under 8,000 characters with 93 long failures, and says how many it left out', () => {
    const r = manyFailures(93);
    expect(JSON.stringify(r).length).toBeGreaterThan(100_000);
    const v = boundedSummary({ report: r, files: { json: '/x/a.json', sarif: '/x/a.sarif' } }) as {
      failures: { check: string; message: string; fix: string }[];
      more_failures: string;
      report_files: object;
    };
    expect(size(v)).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(v.failures.length).toBeGreaterThanOrEqual(3);
    // The first failures in the report's order (card and core checks come first), not a sample.
    const order = reportResults(r)
      .filter((x) => x.status === 'fail')
      .map((x) => x.id);
    expect(v.failures.map((f) => f.check)).toEqual(order.slice(0, v.failures.length));
    expect(v.failures.find((f) => f.check === 'lifecycle.synthetic-0')!.fix.length).toBeGreaterThan(20);
    const total = reportResults(r).filter((x) => x.status === 'fail' || x.status === 'error').length;
    expect(total).toBeGreaterThan(93);
    expect(v.more_failures).toBe(`${total - v.failures.length} more failure(s) in the report file`);
    expect(v.report_files).toEqual({ json: '/x/a.json', sarif: '/x/a.sarif' });
  });
});

describe('writeReports', () => {
  it('writes JSON and the asked format under the exporters’ names, through the redactor', () => {
    const r = hostileReport();
    const { files } = writeReports(dir, r, 'markdown', (t) => t.split('Welcome').join('[masked]'));
    expect(Object.keys(files).sort()).toEqual(['json', 'markdown']);
    for (const f of Object.values(files)) {
      expect(f.startsWith(dir)).toBe(true);
      expect(f.slice(dir.length + 1)).toMatch(/^a2a-report-[a-z0-9-]+-\d{8}-\d{6}\.(json|md)$/);
      expect(readFileSync(f, 'utf8')).not.toContain(HOSTILE_BEARER_TOKEN);
    }
    expect(JSON.parse(readFileSync(files.json!, 'utf8')).events).toBeUndefined();
  });

  it('creates its folder for this user only, and refuses a link in place of the folder', () => {
    const own = join(dir, 'own');
    writeReports(own, sampleReport(), 'json');
    expect(statSync(own).mode & 0o777).toBe(0o700);
    const target = mkdtempSync(join(tmpdir(), 'a2a-summary-target-'));
    const link = join(dir, 'link');
    symlinkSync(target, link);
    try {
      expect(() => writeReports(link, sampleReport(), 'json')).toThrow(/is not a directory \(a link\?\)/);
      expect(readdirSync(target)).toEqual([]);
    } finally {
      rmSync(target, { recursive: true, force: true });
    }
  });
});
