import { z } from 'zod';
import { Binding, CheckResult, Generation, SkipKind } from './check';
import { ObservationWindowUse, RunEvent, RunOptionsPublic, TargetInfo } from './events';

/** Bump when the report shape changes, and add a migration in report/migrate.ts. */
export const SCHEMA_VERSION = 2;

export const ConformanceLevel = z.enum(['full', 'partial', 'minimal', 'non-conformant']);
export type ConformanceLevel = z.infer<typeof ConformanceLevel>;

/**
 * Why a run produced no level: the agent was never assessed, so it is not graded (never "non-conformant").
 * - `invalid-url`: the URL given is not an absolute http(s) URL
 * - `unreachable`: nothing answered at the URL (or at the endpoint its card declares)
 * - `not-a2a`: something answered, but no agent card was found at the well-known paths
 * - `credentials-required`: the agent refused us (401/403) and no credentials were given
 * - `credentials-rejected`: the agent refused the credentials that were given
 * - `untestable`: the card declares only interfaces this tool cannot call (e.g. gRPC)
 * - `tool-limit`: our time or size budget ended before the agent answered (the message names the option to raise)
 * - `tool-failure`: our tool or its proxy failed before the agent could be assessed
 * - `stopped`: the run was stopped (by the user, Ctrl-C, SIGTERM) before it completed: a partial run has no level
 * - `selected-checks`: only some checks were run (`--only`, a re-run): their results stand, but no agent level
 */
export const NotAssessedReason = z.enum([
  'invalid-url',
  'unreachable',
  'not-a2a',
  'credentials-required',
  'credentials-rejected',
  'untestable',
  'tool-limit',
  'tool-failure',
  'stopped',
  'selected-checks',
]);
export type NotAssessedReason = z.infer<typeof NotAssessedReason>;
/**
 * Reasons of a run that judged the agent but gives no level (stopped, selected checks): its results stand, so it is
 * shown as "no level", not as "not assessed". The one list every door reads.
 */
export const JUDGED_WITHOUT_LEVEL: readonly NotAssessedReason[] = ['stopped', 'selected-checks'];
export const judgedWithoutLevel = (reason: NotAssessedReason | undefined): boolean => reason !== undefined && JUDGED_WITHOUT_LEVEL.includes(reason);
export const NotAssessed = z.object({ reason: NotAssessedReason, message: z.string() });
export type NotAssessed = z.infer<typeof NotAssessed>;

export const Summary = z.object({
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  /** Failures of a MUST or SHOULD of the generation (required failures). */
  failed: z.number().int().nonnegative(),
  /** Results with nothing stronger than MAY behind them: shown apart, never lower the level. */
  advisories: z.number().int().nonnegative().default(0),
  /** Skipped checks that were judged not to apply or could not be verified (never the checks a stopped run did not reach). */
  skipped: z.number().int().nonnegative(),
  /** Results where our tool (or its proxy) failed. */
  errors: z.number().int().nonnegative(),
  /** Checks a stopped run never ran (skipKind `not-run`): neither passed nor skipped. Absent in older reports. */
  notRun: z.number().int().nonnegative().default(0),
});
export type Summary = z.infer<typeof Summary>;

export const Categories = z.object({
  agentCard: z.array(CheckResult),
  lifecycle: z.array(CheckResult),
  streaming: z.array(CheckResult),
  errorHandling: z.array(CheckResult),
  interop: z.array(CheckResult),
  /** The security review (informational, never part of the level); absent in reports made before it existed. */
  security: z.array(CheckResult).default([]),
});
export type Categories = z.infer<typeof Categories>;

/** How a check's status changed against a baseline run (the rules: src/engine/report/compare.ts). */
export const ChangeKind = z.enum(['fixed', 'regressed', 'new-failure', 'not-applicable', 'tool-error', 'advisory', 'now-judged', 'removed']);
export const ComparedStatus = z.enum(['pass', 'fail', 'advisory', 'skip', 'error', 'absent']);

/**
 * The report compared with a baseline report (CLI `--baseline`, fleet `--baseline-dir`): built by
 * report/baseline.ts from report/compare.ts, the same rules as the dashboard's history. Optional: reports
 * without a baseline (and every older report) have none.
 */
export const ReportComparison = z.object({
  baseline: z.object({
    runId: z.string(),
    testDate: z.string(),
    agentUrl: z.string(),
    toolVersion: z.string(),
    level: ConformanceLevel.nullable(),
    notAssessed: NotAssessedReason.optional(),
    provisional: z.boolean(),
  }),
  /** False when the baseline is a run of another agent (URLs differ): the comparison is shown with a warning. */
  sameAgent: z.boolean(),
  levelMove: z.enum(['up', 'down', 'same', 'assessed', 'unassessed', 'both-unassessed']),
  /** `minimal → partial · 2 fixed · 0 regressed · 7 not applicable`. */
  summary: z.string(),
  counts: z.record(ChangeKind, z.number().int().nonnegative()),
  /** Changed checks only, most serious first. */
  changes: z.array(
    z.object({ id: z.string(), title: z.string(), before: ComparedStatus, after: ComparedStatus, kind: ChangeKind, skipKind: SkipKind.optional() }),
  ),
  /** Why the run is worse than the baseline (a lower level, every regressed or new failure); empty: not worse. */
  regressions: z.array(z.string()),
  /** `regressed` when `regressions` is not empty; `improved` when the level rose or a failure was fixed; else `unchanged`. */
  verdict: z.enum(['regressed', 'improved', 'unchanged']),
});
export type ReportComparison = z.infer<typeof ReportComparison>;

/** One check on the critical path: times from the run's start. */
export const TimedCheck = z.object({
  id: z.string(),
  startedAtMs: z.number().nonnegative(),
  finishedAtMs: z.number().nonnegative(),
  durationMs: z.number().nonnegative(),
});
export type TimedCheck = z.infer<typeof TimedCheck>;

/**
 * Where a run's wall time went: time to verdict, the checks that finished last (they decided the wall time; checks
 * waiting on one shared fixture finish together), the observation window that held the last of them when one did,
 * and every observation window the run used (src/engine/checks/windows.ts), with when it ended.
 */
export const Timing = z.object({
  /** Run start to verdict (the same as durationMs for a finished run). */
  timeToVerdictMs: z.number().nonnegative(),
  /** The checks that finished last, last first (at most 3). */
  criticalPath: z.array(TimedCheck),
  /** One sentence: which check, or which window of it, decided the wall time. */
  decidedBy: z.string(),
  /** The window that ended last among those the last check depends on, when it held that check. */
  decidingWindow: z.string().optional(),
  windows: z.array(ObservationWindowUse.extend({ endedAtMs: z.number().nonnegative() })),
});
export type Timing = z.infer<typeof Timing>;

/**
 * The conformance report: the procedure's ConformanceReport (docs/conformance-procedure.md#report-shape) plus protocol, run status,
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
  /** The level; null when the agent was not assessed (see `notAssessed`). */
  conformanceLevel: ConformanceLevel.nullable(),
  /** Set when the agent could not be assessed: why, in one sentence with what to do. */
  notAssessed: NotAssessed.optional(),
  /** True when our tool erred (results with status `error`) or the run was interrupted: the level may change. */
  provisional: z.boolean(),
  /** One sentence: why this level. */
  levelReason: z.string(),
  options: RunOptionsPublic,
  targets: z.array(TargetInfo).default([]),
  /** Where the wall time went (critical path, observation windows). Optional: older reports have none. */
  timing: Timing.optional(),
  /** Set when the run was compared with a baseline report (`--baseline`). Optional: older reports have none. */
  comparison: ReportComparison.optional(),
  /** Every event of the run (redacted), for replay. Optional: exports may leave it out. */
  events: z.array(RunEvent).optional(),
});
export type Report = z.infer<typeof Report>;
