import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostileReport, sampleReport } from '../testing/fixtures/reports';
import { exportReport } from './index';
import { REPORT_SCHEMA_PATH, reportJsonSchemaText } from './schema';

const committed = () => readFileSync(join(__dirname, '..', '..', REPORT_SCHEMA_PATH), 'utf8');

describe('public/report.schema.json', () => {
  it('is exactly what the generator writes (regenerate: npx tsx src/exporters/write-schema.ts > public/report.schema.json)', () => {
    expect(committed()).toBe(reportJsonSchemaText());
  });

  it('is a 2020-12 JSON Schema with named definitions for the model types', () => {
    const schema = JSON.parse(committed()) as { $schema: string; title: string; $defs: Record<string, unknown>; required: string[] };
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.title).toBe('a2a-interop conformance report, schemaVersion 2');
    expect(Object.keys(schema.$defs)).toEqual(expect.arrayContaining(['CheckResult', 'RunEvent', 'TargetInfo', 'Summary']));
    expect(Object.keys(schema.$defs).filter((k) => k.startsWith('__'))).toEqual([]);
    expect(schema.required).toEqual(expect.arrayContaining(['schemaVersion', 'agentUrl', 'summary', 'categories', 'conformanceLevel']));
  });

  it('accepts the JSON exports and rejects broken reports (checked by a validator built from the file alone)', () => {
    const validator = z.fromJSONSchema(JSON.parse(committed()) as Parameters<typeof z.fromJSONSchema>[0]);
    for (const report of [sampleReport(), hostileReport()]) {
      const exported = JSON.parse(exportReport(report, 'json').file.body) as Record<string, unknown>;
      const result = validator.safeParse(exported);
      expect(result.success, JSON.stringify(result.error?.issues.slice(0, 3))).toBe(true);
      expect(validator.safeParse({ ...exported, conformanceLevel: 'excellent' }).success).toBe(false);
      expect(validator.safeParse({ ...exported, schemaVersion: 3 }).success).toBe(false);
      const { summary: _summary, ...withoutSummary } = exported;
      expect(validator.safeParse(withoutSummary).success).toBe(false);
    }
  });
});
