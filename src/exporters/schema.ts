import { z } from 'zod';
import { Binding, Category, CheckResult, CheckStatus, Evidence, Generation, Obligation, Tier } from '../engine/model/check';
import { HeaderMap, HttpRequestInfo, HttpResponseInfo, RunEvent, RunOptionsPublic, TargetInfo, TaskState, TransportError } from '../engine/model/events';
import { ConformanceLevel, Report, SCHEMA_VERSION, Summary } from '../engine/model/report';

/** Where the generated schema lives in the repository (and, via Vite's public dir, at `/report.schema.json` on the site). */
export const REPORT_SCHEMA_PATH = 'public/report.schema.json';

/**
 * The JSON Schema of a saved report, generated from the zod schema (never written by hand).
 * It describes what `loadReport` accepts for the current version (`io: 'input'`: fields with defaults
 * may be left out). The model's named sub-schemas (CheckResult, RunEvent, ...) go to `$defs`.
 */
export function reportJsonSchema(): Record<string, unknown> {
  // Named definitions (instead of `__schema0`), registered here so the model files stay untouched.
  const names = z.registry<{ id: string }>();
  const named = {
    CheckResult,
    CheckStatus,
    Evidence,
    Category,
    Obligation,
    Tier,
    Generation,
    Binding,
    Summary,
    ConformanceLevel,
    RunEvent,
    RunOptionsPublic,
    TargetInfo,
    TaskState,
    HttpRequestInfo,
    HttpResponseInfo,
    TransportError,
    HeaderMap,
  };
  for (const [id, schema] of Object.entries(named)) names.add(schema, { id });
  const generated = z.toJSONSchema(Report, {
    io: 'input',
    reused: 'inline',
    target: 'draft-2020-12',
    metadata: names,
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title: `a2a-interop conformance report, schemaVersion ${SCHEMA_VERSION}`,
    description:
      'A report written by a2a-interop (JSON export or CLI --format json). Generated from the zod schema in ' +
      'src/engine/model/report.ts by src/exporters/write-schema.ts; do not edit by hand. Older schema versions ' +
      'are migrated when a report is opened, so they do not validate against this file.',
    ...rest,
  };
}

/** The exact text of `public/report.schema.json`. */
export const reportJsonSchemaText = (): string => `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
