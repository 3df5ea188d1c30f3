import { z } from 'zod';

/**
 * The five report categories of the conformance procedure (docs/conformance-procedure.md#categories), plus the
 * security review. Auth checks live in `error-handling` (procedure step 4.5); browser readiness and two-agent checks
 * in `interop`. `security` is informational: its findings are shown apart and never change the conformance level
 * (report/level.ts leaves the category out; `isInformational`).
 */
export const CATEGORIES = ['agent-card', 'lifecycle', 'streaming', 'error-handling', 'interop', 'security'] as const;
export const Category = z.enum(CATEGORIES);
export type Category = z.infer<typeof Category>;

/** Report keys for each category, as in the procedure's ConformanceReport (docs/conformance-procedure.md#report-shape). */
export const CATEGORY_KEYS = {
  'agent-card': 'agentCard',
  lifecycle: 'lifecycle',
  streaming: 'streaming',
  'error-handling': 'errorHandling',
  interop: 'interop',
  security: 'security',
} as const satisfies Record<Category, string>;
export type CategoryKey = (typeof CATEGORY_KEYS)[Category];

/** Categories whose results are informational: shown, counted apart, never part of the conformance level. */
export const INFORMATIONAL_CATEGORIES: readonly Category[] = ['security'];
export const isInformational = (r: { category: Category }): boolean => INFORMATIONAL_CATEGORIES.includes(r.category);

/**
 * RFC 2119 strength (MUST / SHOULD / MAY) of the requirement a check verifies: its *obligation*. In code "level"
 * means the conformance level (`ConformanceLevel`); only the report's JSON keeps the field name `level` for a
 * check's obligation (schema compatibility).
 */
export const Obligation = z.enum(['MUST', 'SHOULD', 'MAY']);
export type Obligation = z.infer<typeof Obligation>;

/**
 * Protocol generations seen in the wild.
 * - `legacy`: the original Google A2A (`tasks/send`, card at `/.well-known/agent.json`, `type` discriminators)
 * - `v0.2`, `v0.3`: `message/send`, `kind` discriminators (v0.3 moved the card to `agent-card.json`)
 * - `v1.0`: PascalCase methods, `supportedInterfaces`, `A2A-Version` header, `TASK_STATE_*` enums
 */
export const GENERATIONS = ['legacy', 'v0.2', 'v0.3', 'v1.0'] as const;
export const Generation = z.enum(GENERATIONS);
export type Generation = z.infer<typeof Generation>;

export const Binding = z.enum(['JSONRPC', 'HTTP+JSON', 'GRPC']);
export type Binding = z.infer<typeof Binding>;

/**
 * Status of one check.
 * - `pass` / `fail`: the agent met / did not meet a MUST or SHOULD of the generation it speaks
 * - `advisory`: the agent did not do what the check looks for, but nothing stronger than MAY (or passages that
 *   contradict each other) stands behind it in that generation: shown, never lowers the level
 * - `skip`: the check could not apply (optional feature not declared, precondition not met); always with a reason
 * - `error`: OUR tool (or the proxy) failed; never counted against the agent
 */
export const CheckStatus = z.enum(['pass', 'fail', 'advisory', 'skip', 'error']);
export type CheckStatus = z.infer<typeof CheckStatus>;

/** Spec reference per generation, e.g. `{ 'v1.0': 'v1.0.1 §3.1.1 SendMessage' }`. */
export const SpecRefs = z.partialRecord(Generation, z.string());
export type SpecRefs = z.infer<typeof SpecRefs>;

/** One piece of evidence: what we saw, shown next to the verdict. `value` is already truncated and redacted. */
export const Evidence = z.object({
  label: z.string(),
  value: z.string(),
  /** Id of the HTTP exchange this came from, to open it in the wire inspector. */
  exchangeId: z.string().optional(),
  /** JSON pointer (or dotted path) into the agent card, for card checks. */
  path: z.string().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

/** The static description of a check: stable across runs, never derived from agent data. */
export interface CheckInfo {
  /** Stable, dotted, lowercase id, e.g. `card.skills.required-fields`. Never renamed once shipped. */
  readonly id: string;
  /** A requirement sentence: what a conforming agent does. */
  readonly title: string;
  readonly category: Category;
  /**
   * The strength in the newest generation the check applies to. The strength that judges a run is the one of
   * the generation spoken (`obligationFor`), from the quoted sentences in src/engine/spec/data.
   */
  readonly level: Obligation;
  /** Where the requirement is written, per generation. A generation with no entry means "not applicable". */
  readonly specRefs: SpecRefs;
  /** Default fix advice: what to change, where in the spec, and where the fix usually lives in the official SDKs. */
  readonly recommendation: string;
  /** Marks the checks whose failure is a critical defect (server crash, broken basic lifecycle). */
  readonly critical?: boolean;
  /** Which conformance-level tier the check belongs to (see level.ts). Defaults by category/level. */
  readonly tier?: Tier;
}

/**
 * Tiers used by the conformance level (docs/conformance-procedure.md#levels; see report/level.ts and the README table):
 * - `card`: the card is valid (MUST-level card checks)
 * - `basic`: a basic send + get works
 * - `core`: the core task lifecycle (MUST-level lifecycle checks: terminal states, transitions, cancel, ...)
 * - `optional`: every other MUST or SHOULD: error handling, streaming, auth, declared optional features
 * - `advisory`: nothing stronger than MAY behind it (or outside A2A, e.g. browser readiness / CORS); shown,
 *   never affects the level
 */
export const Tier = z.enum(['card', 'basic', 'core', 'optional', 'advisory']);
export type Tier = z.infer<typeof Tier>;

export const SkipKind = z.enum(['not-applicable', 'precondition', 'tool-limit', 'credentials', 'unreachable', 'not-run']);
export type SkipKind = z.infer<typeof SkipKind>;

/** A quoted sentence of a specification, as carried in results (see src/engine/spec/types.ts). */
export const QuotedSentence = z.object({
  /** e.g. `A2A v1.0.1`, `JSON-RPC 2.0`. */
  doc: z.string(),
  section: z.string(),
  quote: z.string(),
  keyword: z.string(),
  url: z.string().optional(),
});
export type QuotedSentence = z.infer<typeof QuotedSentence>;

export const Requirement = z.object({
  /** The specification release judged against, e.g. `A2A v1.0.1`. */
  release: z.string(),
  sentences: z.array(QuotedSentence),
  note: z.string().optional(),
});
export type Requirement = z.infer<typeof Requirement>;

/** The outcome of one check in one run. Shaped after the procedure's ConformanceResult, extended (docs/conformance-procedure.md#report-shape). */
export const CheckResult = z.object({
  id: z.string(),
  test: z.string(),
  category: Category,
  status: CheckStatus,
  level: Obligation,
  tier: Tier,
  message: z.string(),
  duration_ms: z.number().nonnegative(),
  recommendation: z.string().optional(),
  evidence: z.array(Evidence).default([]),
  specRef: z.string().optional(),
  critical: z.boolean().optional(),
  /** Set when the result is `error` and the proxy (not our engine) failed: the proxy's error code. */
  proxyError: z.string().optional(),
  /**
   * For `skip`: `not-applicable` (feature not declared, other generation) never blocks `full`;
   * `precondition` (could not set up the situation to test) means the requirement stayed unverified;
   * `tool-limit` (our time or size budget ended first: the message names the option to raise) likewise;
   * `credentials` (the agent refused us for lack of credentials, or refused the ones given);
   * `unreachable` (the endpoint accepted no connection);
   * `not-run` (the run was stopped before the check ran or finished: nothing was judged, never counted as skipped).
   */
  skipKind: SkipKind.optional(),
  /** For `advisory`: why this is not a failure (the generation says only MAY, or two passages contradict each other). */
  advisoryReason: z.string().optional(),
  /** The sentence(s) of the generation's specification the check enforces, quoted. */
  requirement: Requirement.optional(),
});
export type CheckResult = z.infer<typeof CheckResult>;
