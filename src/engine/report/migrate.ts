import { CATEGORIES, CATEGORY_KEYS, type Category, type CheckResult, type Tier } from '../model/check';
import { SCHEMA_VERSION } from '../model/report';
import { isRecord } from '../util/json';
import { summarize } from './build';

/**
 * Upgrades saved reports of older schema versions to the current one (Playwright's traceModernizer idea).
 *
 * The chain, one step per version; `migrateReport` applies the steps from the report's version up:
 * - **0 → 1**: the procedure's `ConformanceReport` (docs/conformance-procedure.md#report-shape): no `schemaVersion`, results are
 *   `{ test, category, status: pass|fail|skip, message?, duration_ms? }`. Version 1 adds ids, levels and tiers
 *   per result, the `error` status and `summary.errors`, protocol, run status, provenance and the event log.
 *   Results get ids `v0.<category>.<slug of test>`, level `MUST`, a tier from their category; the recorded
 *   `conformanceLevel` is kept as it was (not recomputed: v0 results lack the levels and tiers it needs).
 *
 * - **1 → 2**: advisories and honest outcomes. Results of the old `info` tier (browser readiness: outside A2A)
 *   become tier `advisory`, and their failures status `advisory`; `summary.advisories` is added and `failed`
 *   recounted; `conformanceLevel` may now be null with `notAssessed` (a v1 report always had a level: kept).
 *
 * When the shape changes: bump `SCHEMA_VERSION` in model/report.ts, add `N: migrateNtoN1` to `STEPS`
 * and a test with a version-N report.
 *
 * Never throws. Input that is not a report object, or has an unknown or newer version, is returned
 * unchanged; the caller's zod validation then says what is wrong (see `describeVersion`).
 */
export function migrateReport(raw: unknown): { report: unknown; from: number } {
  const from = detectVersion(raw);
  if (from < 0 || from >= SCHEMA_VERSION) return { report: raw, from };
  let report = raw;
  for (let v = from; v < SCHEMA_VERSION; v++) {
    const step = STEPS[v];
    if (!step) return { report: raw, from };
    report = step(report);
  }
  return { report, from };
}

/** Returned by `detectVersion` when the input is not a report object or its `schemaVersion` is not a whole number. */
export const UNKNOWN_VERSION = -1;

/**
 * The schema version of a parsed report: its `schemaVersion`, or 0 for reports in the procedure's shape
 * (an object with `categories` and `agentUrl` but no `schemaVersion`), else `UNKNOWN_VERSION`.
 */
export function detectVersion(raw: unknown): number {
  if (!isRecord(raw)) return UNKNOWN_VERSION;
  const v = raw.schemaVersion;
  if (v === undefined) return 'categories' in raw && 'agentUrl' in raw ? 0 : UNKNOWN_VERSION;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : UNKNOWN_VERSION;
}

/** Why a report of this version cannot be read, or undefined when it can (after migration). */
export function describeVersion(raw: unknown): string | undefined {
  if (!isRecord(raw)) return `Not a report: expected a JSON object, got ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}.`;
  const v = detectVersion(raw);
  if (v === UNKNOWN_VERSION) {
    return 'schemaVersion' in raw
      ? `Unknown schemaVersion ${JSON.stringify(raw.schemaVersion)?.slice(0, 40)}: expected a whole number up to ${SCHEMA_VERSION}.`
      : 'Not an a2a-interop report: no schemaVersion, and not a seed ConformanceReport (agentUrl + categories) either.';
  }
  if (v > SCHEMA_VERSION) {
    return `This report has schemaVersion ${v}, newer than this tool reads (${SCHEMA_VERSION}). Update a2a-interop to open it.`;
  }
  return undefined;
}

type Step = (report: unknown) => unknown;

const STEPS: Record<number, Step> = {
  0: migrate0to1,
  1: migrate1to2,
};

function migrate1to2(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const all: CheckResult[] = [];
  let categories: unknown = raw.categories;
  if (isRecord(raw.categories)) {
    const out: Record<string, unknown> = {};
    for (const [key, list] of Object.entries(raw.categories)) {
      out[key] = Array.isArray(list)
        ? list.map((r) => {
            if (!isRecord(r) || r.tier !== 'info') return r;
            return { ...r, tier: 'advisory', status: r.status === 'fail' ? 'advisory' : r.status };
          })
        : list;
      if (Array.isArray(out[key])) all.push(...((out[key] as unknown[]).filter(isRecord) as unknown as CheckResult[]));
    }
    categories = out;
  }
  return { ...raw, schemaVersion: 2, categories, summary: isRecord(raw.summary) ? { ...raw.summary, ...summarize(all) } : raw.summary };
}

/** Tier a v0 result gets from its category: the card tier for the card, core for MUSTs of the lifecycle and errors. */
const V0_TIER: Record<Category, Tier> = {
  'agent-card': 'card',
  lifecycle: 'core',
  'error-handling': 'core',
  streaming: 'optional',
  interop: 'optional',
  security: 'advisory',
};

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'test';

function migrate0to1(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const used = new Set<string>();
  const uniqueId = (base: string) => {
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
  const migrateResult = (r: unknown, fallbackCategory: Category): unknown => {
    if (!isRecord(r)) return r;
    const category = (CATEGORIES as readonly unknown[]).includes(r.category) ? (r.category as Category) : fallbackCategory;
    const test = typeof r.test === 'string' ? r.test : String(r.test ?? '');
    return {
      id: uniqueId(`v0.${category}.${slug(test)}`),
      test,
      category,
      status: r.status,
      level: 'MUST',
      tier: V0_TIER[category],
      message: typeof r.message === 'string' ? r.message : '',
      duration_ms: typeof r.duration_ms === 'number' && r.duration_ms >= 0 ? r.duration_ms : 0,
      evidence: [],
    };
  };

  const oldCategories = isRecord(raw.categories) ? raw.categories : undefined;
  let categories: unknown = raw.categories;
  const all: unknown[] = [];
  if (oldCategories) {
    const out: Record<string, unknown> = {};
    for (const category of CATEGORIES) {
      const key = CATEGORY_KEYS[category];
      const list = oldCategories[key] ?? [];
      out[key] = Array.isArray(list) ? list.map((r) => migrateResult(r, category)) : list;
      if (Array.isArray(out[key])) all.push(...(out[key] as unknown[]));
    }
    categories = out;
  }
  // Recount: v0 summaries have no `errors`, and the results are what the report stands on.
  // Every migrated result is a record with a numeric duration_ms (migrateResult); summarize reads only `status`.
  const results = all.filter(isRecord) as unknown as CheckResult[];
  const durationMs = results.reduce((sum, r) => sum + r.duration_ms, 0);
  const testDate = typeof raw.testDate === 'string' ? raw.testDate : '';

  return {
    schemaVersion: 1 as number,
    tool: { name: 'unknown (schemaVersion 0 report)', version: 'unknown' },
    runId: `v0-${testDate || 'undated'}`,
    agentUrl: raw.agentUrl,
    agentName: raw.agentName,
    agentVersion: raw.agentVersion,
    testDate: raw.testDate,
    durationMs,
    runStatus: 'completed',
    protocol: {
      generation: null,
      binding: null,
      endpointUrl: null,
      evidence: ['Migrated from a schemaVersion 0 report, which does not record the protocol generation or binding.'],
    },
    summary: summarize(results),
    categories,
    conformanceLevel: raw.conformanceLevel,
    provisional: false,
    levelReason: 'Level as recorded in the schemaVersion 0 report (not recomputed: v0 results carry no requirement levels).',
    options: { timeoutMs: 0, credentials: 'none' },
    targets: [],
  };
}
