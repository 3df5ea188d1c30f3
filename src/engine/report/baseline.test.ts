import { describe, expect, it } from 'vitest';
import { conformantReport, unreachableReport } from '../../testing/fixtures/reports';
import type { CheckResult } from '../model/check';
import { Report } from '../model/report';
import { compareWithBaseline } from './baseline';

/** A copy of `r` with one check's status changed (and the level, when given). */
function withStatus(r: Report, id: string, status: CheckResult['status'], level = r.conformanceLevel): Report {
  const copy = structuredClone(r);
  for (const list of Object.values(copy.categories)) for (const x of list) if (x.id === id) x.status = status;
  return { ...copy, conformanceLevel: level, runId: `${r.runId}-b` };
}

describe('compareWithBaseline', () => {
  it('the same run twice: unchanged, nothing to report', () => {
    const c = compareWithBaseline(conformantReport(), conformantReport());
    expect(c).toMatchObject({ verdict: 'unchanged', levelMove: 'same', sameAgent: true, regressions: [], changes: [] });
    expect(c.summary).toBe('full → full · 0 fixed · 0 regressed · 0 not applicable');
  });

  it('an injected regression: the check and the lower level are named, verdict regressed', () => {
    const before = conformantReport();
    const after = withStatus(before, 'lifecycle.cancel', 'fail', 'partial');
    const c = compareWithBaseline(before, after);
    expect(c.verdict).toBe('regressed');
    expect(c.levelMove).toBe('down');
    expect(c.changes).toEqual([{ id: 'lifecycle.cancel', title: 'CancelTask cancels a working task', before: 'pass', after: 'fail', kind: 'regressed' }]);
    expect(c.regressions).toEqual(['The level went down: full → partial.', 'lifecycle.cancel regressed: pass → fail.']);
    expect(c.baseline).toMatchObject({ runId: before.runId, level: 'full', toolVersion: before.tool.version, provisional: false });
  });

  it('an improvement: fixed, level up, verdict improved (the gate passes)', () => {
    const after = conformantReport();
    const before = withStatus(after, 'lifecycle.cancel', 'fail', 'partial');
    const c = compareWithBaseline(before, after);
    expect(c).toMatchObject({ verdict: 'improved', levelMove: 'up', regressions: [] });
    expect(c.counts.fixed).toBe(1);
  });

  it('a check that became not applicable never fails the gate', () => {
    const before = conformantReport();
    const c = compareWithBaseline(before, withStatus(before, 'interop.cors.preflight', 'skip'));
    expect(c.verdict).toBe('unchanged');
    expect(c.counts['not-applicable']).toBe(1);
  });

  it('an agent that can no longer be assessed is a regression; another agent is flagged', () => {
    const c = compareWithBaseline(conformantReport(), unreachableReport());
    expect(c.verdict).toBe('regressed');
    expect(c.levelMove).toBe('unassessed');
    expect(c.sameAgent).toBe(false);
    expect(c.regressions[0]).toMatch(/could not be assessed \(unreachable\); the baseline was full/);
  });

  it('a report with a comparison validates; one without still does (backward compatible)', () => {
    const before = conformantReport();
    const after = withStatus(before, 'lifecycle.cancel', 'fail', 'partial');
    const report = { ...after, comparison: compareWithBaseline(before, after) };
    expect(Report.parse(JSON.parse(JSON.stringify(report))).comparison?.verdict).toBe('regressed');
    expect(Report.parse(JSON.parse(JSON.stringify(before))).comparison).toBeUndefined();
  });
});
