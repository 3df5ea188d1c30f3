import { z } from 'zod';
import { Binding, CheckResult, Generation } from './check';
import { RunEvent, RunOptionsPublic, TargetInfo } from './events';

/** Bump when the report shape changes, and add a migration in report/migrate.ts. */
export const SCHEMA_VERSION = 1;

export const ConformanceLevel = z.enum(['full', 'partial', 'minimal', 'non-conformant']);
export type ConformanceLevel = z.infer<typeof ConformanceLevel>;

export const Summary = z.object({
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  /** Results where our tool (or its proxy) failed. */
  errors: z.number().int().nonnegative(),
});
export type Summary = z.infer<typeof Summary>;

export const Categories = z.object({
  agentCard: z.array(CheckResult),
  lifecycle: z.array(CheckResult),
  streaming: z.array(CheckResult),
  errorHandling: z.array(CheckResult),
  interop: z.array(CheckResult),
});
export type Categories = z.infer<typeof Categories>;

/**
 * The conformance report: seed 001's ConformanceReport (step 5.1) plus protocol, run status,
 * provenance and, optionally, the full event log so a saved report replays in the dashboard.
 */
export const Report = z.object({
  schemaVersion: z.literal(SCHEMA_VERSION),
  tool: z.object({ name: z.string(), version: z.string() }),
  runId: z.string(),
  agentUrl: z.string(),
  agentName: z.string(),
  agentVersion: z.string(),
  peerUrl: z.string().optional(),
  /** ISO 8601 start time of the run. */
  testDate: z.string(),
  finishedAt: z.string().optional(),
  durationMs: z.number().nonnegative(),
  runStatus: z.enum(['completed', 'interrupted', 'errored', 'running']),
  protocol: z.object({
    generation: Generation.nullable(),
    binding: Binding.nullable(),
    endpointUrl: z.string().nullable(),
    evidence: z.array(z.string()),
  }),
  summary: Summary,
  categories: Categories,
  conformanceLevel: ConformanceLevel,
  /** True when our tool erred (results with status `error`) or the run was interrupted: the level may change. */
  provisional: z.boolean(),
  /** One sentence: why this level. */
  levelReason: z.string(),
  options: RunOptionsPublic,
  targets: z.array(TargetInfo).default([]),
  /** Every event of the run (redacted), for replay. Optional: exports may leave it out. */
  events: z.array(RunEvent).optional(),
});
export type Report = z.infer<typeof Report>;
