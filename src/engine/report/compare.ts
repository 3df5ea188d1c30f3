import type { CheckResult, CheckStatus, SkipKind } from '../model/check';
import type { ConformanceLevel, NotAssessedReason } from '../model/report';

/**
 * How two runs differ, check by check (keyed by the stable check id), and in one line. Pure: the History
 * page draws it, and the CLI's `--baseline` gate will judge with it.
 *
 * The rules, from the status in the earlier run (`before`) to the later one (`after`):
 * - `fixed`: fail -> pass or advisory (a required failure is gone and the check still judged the agent)
 * - `regressed`: pass or advisory -> fail
 * - `new-failure`: skip, error or absent -> fail (a required failure the earlier run could not see)
 * - `not-applicable`: anything -> skip. Not a regression: the check did not judge the agent this time
 *   (the feature is no longer declared, a precondition failed, ...; `skipKind` says which)
 * - `tool-error`: anything -> error (our tool or proxy failed: never the agent's doing)
 * - `advisory`: pass <-> advisory, or skip/error/absent -> advisory (never changes the level)
 * - `now-judged`: skip, error or absent -> pass
 * - `removed`: the check is not in the later run (another tool version, or `--only`)
 */
export type ChangeKind = 'fixed' | 'regressed' | 'new-failure' | 'not-applicable' | 'tool-error' | 'advisory' | 'now-judged' | 'removed';

export type ComparedStatus = CheckStatus | 'absent';

export interface CheckChange {
  id: string;
  title: string;
  before: ComparedStatus;
  after: ComparedStatus;
  kind: ChangeKind;
  /** Why the later run skipped it, when `after` is `skip`. */
  skipKind?: SkipKind;
}

/** One side of a comparison: its verdict (level null = not assessed) and its results. */
export interface ComparedRun {
  level: ConformanceLevel | null;
  notAssessed?: NotAssessedReason;
  provisional?: boolean;
  results: readonly Pick<CheckResult, 'id' | 'test' | 'status' | 'skipKind'>[];
}

/** How the level moved: `up`/`down`/`same` between two levels; `assessed`/`unassessed` when one side has none. */
export type LevelMove = 'up' | 'down' | 'same' | 'assessed' | 'unassessed' | 'both-unassessed';

export interface Comparison {
  before: { level: ConformanceLevel | null; notAssessed?: NotAssessedReason; provisional: boolean };
  after: { level: ConformanceLevel | null; notAssessed?: NotAssessedReason; provisional: boolean };
  levelMove: LevelMove;
  /** Changed checks only, most serious first (regressed, new-failure, fixed, ...), then by id. */
  changes: CheckChange[];
  counts: Record<ChangeKind, number>;
  /** `minimal → partial · 2 fixed · 0 regressed · 7 not applicable` (other kinds only when they occur). */
  summary: string;
}

const LEVEL_RANK: Record<ConformanceLevel, number> = { 'non-conformant': 0, minimal: 1, partial: 2, full: 3 };

/** Display order of the kinds: what a reader (or a gate) must see first. */
const CHANGE_KINDS: readonly ChangeKind[] = ['regressed', 'new-failure', 'fixed', 'not-applicable', 'tool-error', 'advisory', 'now-judged', 'removed'];

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  fixed: 'fixed',
  regressed: 'regressed',
  'new-failure': 'new failure',
  'not-applicable': 'not applicable',
  'tool-error': 'tool error',
  advisory: 'advisory',
  'now-judged': 'now judged',
  removed: 'removed',
};

/** The kind of a status change; undefined when the status did not change. */
export function changeKind(before: ComparedStatus, after: ComparedStatus): ChangeKind | undefined {
  if (before === after) return undefined;
  if (after === 'absent') return 'removed';
  if (after === 'skip') return 'not-applicable';
  if (after === 'error') return 'tool-error';
  if (after === 'fail') return before === 'pass' || before === 'advisory' ? 'regressed' : 'new-failure';
  // after is pass or advisory
  if (before === 'fail') return 'fixed';
  if (after === 'advisory' || before === 'advisory') return 'advisory';
  return 'now-judged';
}

/** Checks whose status differs between two runs, most serious first. */
export function compareResults(before: ComparedRun['results'], after: ComparedRun['results']): CheckChange[] {
  const a = new Map(before.map((r) => [r.id, r]));
  const b = new Map(after.map((r) => [r.id, r]));
  const out: CheckChange[] = [];
  for (const id of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(id);
    const y = b.get(id);
    const sb: ComparedStatus = x?.status ?? 'absent';
    const sa: ComparedStatus = y?.status ?? 'absent';
    const kind = changeKind(sb, sa);
    if (!kind) continue;
    out.push({ id, title: y?.test ?? x?.test ?? id, before: sb, after: sa, kind, ...(sa === 'skip' && y?.skipKind ? { skipKind: y.skipKind } : {}) });
  }
  const order = (k: ChangeKind) => CHANGE_KINDS.indexOf(k);
  return out.sort((p, q) => order(p.kind) - order(q.kind) || p.id.localeCompare(q.id));
}

export function levelMove(before: ConformanceLevel | null, after: ConformanceLevel | null): LevelMove {
  if (!before && !after) return 'both-unassessed';
  if (!before) return 'assessed';
  if (!after) return 'unassessed';
  const d = LEVEL_RANK[after] - LEVEL_RANK[before];
  return d > 0 ? 'up' : d < 0 ? 'down' : 'same';
}

/** The summary line's order; the first three are always shown ("0 regressed" is news too). */
const SUMMARY_ALWAYS: readonly ChangeKind[] = ['fixed', 'regressed', 'not-applicable'];
const SUMMARY_KINDS: readonly ChangeKind[] = ['fixed', 'regressed', 'new-failure', 'not-applicable', 'tool-error', 'advisory', 'now-judged', 'removed'];
const PLURAL: Partial<Record<ChangeKind, [string, string]>> = {
  'new-failure': ['new failure', 'new failures'],
  'tool-error': ['tool error', 'tool errors'],
  advisory: ['advisory change', 'advisory changes'],
};
const countText = (k: ChangeKind, n: number) => `${n} ${PLURAL[k]?.[n === 1 ? 0 : 1] ?? CHANGE_LABELS[k]}`;

const levelText = (r: { level: ConformanceLevel | null; provisional?: boolean }) =>
  `${r.level ?? 'not assessed'}${r.level && r.provisional ? ' (provisional)' : ''}`;

/** Compares two runs: the later one (`after`) against the earlier one (`before`, the baseline). */
export function compareRuns(before: ComparedRun, after: ComparedRun): Comparison {
  const changes = compareResults(before.results, after.results);
  const counts = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
  for (const c of changes) counts[c.kind]++;
  const shown = SUMMARY_KINDS.filter((k) => SUMMARY_ALWAYS.includes(k) || counts[k] > 0);
  const parts = [`${levelText(before)} → ${levelText(after)}`, ...shown.map((k) => countText(k, counts[k]))];
  const side = (r: ComparedRun) => ({ level: r.level, provisional: Boolean(r.provisional), ...(r.notAssessed ? { notAssessed: r.notAssessed } : {}) });
  return { before: side(before), after: side(after), levelMove: levelMove(before.level, after.level), changes, counts, summary: parts.join(' · ') };
}

/**
 * Why the later run is worse than the baseline, for a CI gate (empty: not worse). A lower level, a run that
 * could no longer be assessed, and every required failure the baseline did not have (regressed or new).
 * Checks that became not applicable, tool errors and advisories never fail the gate.
 */
export function regressionsOf(c: Comparison): string[] {
  const out: string[] = [];
  if (c.levelMove === 'down') out.push(`The level went down: ${c.before.level} → ${c.after.level}.`);
  if (c.levelMove === 'unassessed') out.push(`The agent could not be assessed (${c.after.notAssessed ?? 'no level'}); the baseline was ${c.before.level}.`);
  for (const x of c.changes) {
    if (x.kind === 'regressed') out.push(`${x.id} regressed: ${x.before} → fail.`);
    if (x.kind === 'new-failure') out.push(`${x.id} fails (${x.before === 'absent' ? 'not in the baseline' : `${x.before} in the baseline`}).`);
  }
  return out;
}

/**
 * The key two runs share when they are of the same agent: the URL as given, without credentials, query,
 * fragment, a trailing slash or a well-known card path, host in lower case. Not a URL: the trimmed text.
 */
export function agentKey(agentUrl: string): string {
  const raw = agentUrl.trim();
  try {
    const u = new URL(raw);
    const path = u.pathname.replace(/\/\.well-known\/(agent-card|agent)\.json$/i, '').replace(/\/+$/, '');
    return `${u.protocol}//${u.host.toLowerCase()}${path}`;
  } catch {
    return raw;
  }
}

export const sameAgent = (a: { agentUrl: string }, b: { agentUrl: string }): boolean => agentKey(a.agentUrl) === agentKey(b.agentUrl);

/** The latest run of the same agent that started before `run` (runs in any order); undefined when none. */
export function previousRunOf<T extends { runId: string; agentUrl: string; startedAt: number }>(runs: readonly T[], run: T): T | undefined {
  const key = agentKey(run.agentUrl);
  let best: T | undefined;
  for (const r of runs) {
    if (r.runId === run.runId || r.startedAt > run.startedAt || agentKey(r.agentUrl) !== key) continue;
    if (r.startedAt === run.startedAt && r.runId > run.runId) continue;
    if (!best || r.startedAt > best.startedAt || (r.startedAt === best.startedAt && r.runId > best.runId)) best = r;
  }
  return best;
}
