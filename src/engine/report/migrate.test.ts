import { describe, expect, it } from 'vitest';
import { reportResults } from './build';
import { Report, SCHEMA_VERSION } from '../model/report';
import { sampleReport, schemaV0Report } from '../../testing/fixtures/reports';
import { UNKNOWN_VERSION, describeVersion, detectVersion, migrateReport } from './migrate';

describe('migrateReport', () => {
  it('migrates a schemaVersion 0 report (seed ConformanceReport) to a valid current report', () => {
    const { report, from } = migrateReport(schemaV0Report());
    expect(from).toBe(0);
    const parsed = Report.safeParse(report);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const r = parsed.data!;
    expect(r.schemaVersion).toBe(SCHEMA_VERSION);
    expect(r.agentName).toBe('Legacy Agent');
    expect(r.testDate).toBe('2025-05-20T08:30:00.000Z');
    // The recorded level is kept; the summary is recounted and gains `errors`.
    expect(r.conformanceLevel).toBe('minimal');
    expect(r.summary).toEqual({ total: 5, passed: 2, failed: 2, advisories: 0, skipped: 1, errors: 0, notRun: 0 });
    expect(r.durationMs).toBe(12 + 340 + 210);
    expect(r.categories.lifecycle.map((c) => [c.id, c.test, c.status, c.tier])).toEqual([
      ['v0.lifecycle.task-submit', 'task-submit', 'pass', 'core'],
      ['v0.lifecycle.task-cancel', 'task-cancel', 'fail', 'core'],
    ]);
    expect(r.categories.streaming[0]).toMatchObject({ message: 'No final event received', duration_ms: 0, level: 'MUST', evidence: [] });
    expect(r.categories.agentCard[0]?.tier).toBe('card');
    expect(r.protocol.generation).toBeNull();
    expect(r.runStatus).toBe('completed');
  });

  it('gives results with the same test name unique ids', () => {
    const v0 = schemaV0Report() as { categories: { lifecycle: unknown[] } };
    v0.categories.lifecycle.push({ test: 'task-submit', category: 'lifecycle', status: 'pass' });
    const r = Report.parse(migrateReport(v0).report);
    const ids = r.categories.lifecycle.map((c) => c.id);
    expect(ids).toEqual(['v0.lifecycle.task-submit', 'v0.lifecycle.task-cancel', 'v0.lifecycle.task-submit-2']);
  });

  it('keeps invalid v0 content for validation to report, instead of inventing it', () => {
    const v0 = schemaV0Report() as { categories: { agentCard: { status: string }[] } };
    v0.categories.agentCard[0]!.status = 'maybe';
    const parsed = Report.safeParse(migrateReport(v0).report);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['categories', 'agentCard', 0, 'status']);
  });

  it('migrates a schemaVersion 1 report: the old info tier (browser readiness) becomes advisory, its failures advisories', () => {
    const v2 = sampleReport();
    const cors = {
      id: 'interop.cors.card',
      test: 'cors',
      category: 'interop',
      status: 'fail',
      level: 'MAY',
      tier: 'info',
      message: 'no CORS',
      duration_ms: 1,
      evidence: [],
    };
    const v1 = {
      ...v2,
      schemaVersion: 1,
      categories: { ...v2.categories, interop: [cors, { ...cors, id: 'interop.cors.rpc', status: 'pass' }] },
      summary: { total: 0, passed: 0, failed: 9, skipped: 0, errors: 0 },
    };
    const { report, from } = migrateReport(v1);
    expect(from).toBe(1);
    const parsed = Report.safeParse(report);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const r = parsed.data!;
    expect(r.schemaVersion).toBe(2);
    expect(r.categories.interop.map((c) => [c.id, c.status, c.tier])).toEqual([
      ['interop.cors.card', 'advisory', 'advisory'],
      ['interop.cors.rpc', 'pass', 'advisory'],
    ]);
    expect(r.summary.advisories).toBe(1);
    expect(r.summary.failed).toBe(reportResults(r).filter((x) => x.status === 'fail').length);
    expect(r.conformanceLevel).toBe(v2.conformanceLevel);
  });

  it('returns current reports unchanged (same object)', () => {
    const current = sampleReport();
    const { report, from } = migrateReport(current);
    expect(from).toBe(SCHEMA_VERSION);
    expect(report).toBe(current);
  });

  it('leaves unknown and newer versions alone and says why', () => {
    for (const raw of [null, 42, 'text', [], { hello: 1 }, { schemaVersion: '1' }, { schemaVersion: 1.5 }]) {
      expect(migrateReport(raw)).toEqual({ report: raw, from: UNKNOWN_VERSION });
      expect(describeVersion(raw)).toMatch(/^(Not a report|Not an a2a-interop report|Unknown schemaVersion)/);
    }
    const newer = { schemaVersion: SCHEMA_VERSION + 1 };
    expect(migrateReport(newer)).toEqual({ report: newer, from: SCHEMA_VERSION + 1 });
    expect(describeVersion(newer)).toMatch(/newer than this tool reads/);
    expect(describeVersion(sampleReport())).toBeUndefined();
    expect(detectVersion(schemaV0Report())).toBe(0);
  });
});
