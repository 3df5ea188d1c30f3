/**
 * The exit code of `a2a-interop run` and the one-line reason printed on stderr whenever it is not 0.
 *
 * | code | when |
 * |---|---|
 * | 0 | the gate passed (`--fail-on level`: the level meets `--min-level` and, with `--baseline`, nothing regressed; `regression`: nothing regressed; `never`) |
 * | 1 | the gate failed: below `--min-level`, not assessed, or regressed against `--baseline` (whichever `--fail-on` asks about); with `--only` (no level): a selected check failed |
 * | 2 | usage error, unreadable `--baseline`, or our tool failed (never a verdict on the agent) |
 * | 130 / 143 | interrupted (SIGINT / SIGTERM): partial reports written, marked incomplete |
 */
import { meetsLevel, type ConformanceLevel, type Report } from '../engine';

export const FAIL_ON = ['level', 'regression', 'never'] as const;
export type FailOn = (typeof FAIL_ON)[number];

export const isFailOn = (s: unknown): s is FailOn => typeof s === 'string' && (FAIL_ON as readonly string[]).includes(s);

export interface GateOptions {
  failOn: FailOn;
  minLevel: ConformanceLevel;
  /** The `--baseline` path, for the reason line. */
  baselinePath?: string;
}

export interface GateOutcome {
  code: 0 | 1 | 2;
  /** One line for stderr (`a2a-interop: exit 1: …`), set whenever `code` is not 0. */
  reason?: string;
}

/** Longest reason line; the reports hold the rest. */
const REASON_MAX = 500;

const line = (code: number, why: string) => {
  const text = `a2a-interop: exit ${code}: ${why.replace(/\s*\n\s*/g, ' ').trim()}`;
  return text.length > REASON_MAX ? `${text.slice(0, REASON_MAX - 1)}…` : text;
};

const list = (items: readonly string[], max = 3) =>
  items.length <= max ? items.join('; ') : `${items.slice(0, max).join('; ')}; and ${items.length - max} more`;

/**
 * Decides the exit code of a finished run. Our own failures come first (exit 2 whatever `--fail-on` says: they
 * are no verdict on the agent); then the gate `--fail-on` names.
 */
export function gate(report: Report, o: GateOptions): GateOutcome {
  if (report.runStatus === 'errored' || report.notAssessed?.reason === 'tool-failure')
    return { code: 2, reason: line(2, `our tool failed, not a verdict on the agent: ${report.notAssessed?.message ?? report.levelReason}`) };
  const s = report.summary;
  if (!report.notAssessed && s.errors > 0) {
    const ids = Object.values(report.categories)
      .flat()
      .filter((r) => r.status === 'error')
      .map((r) => r.id);
    return {
      code: 2,
      reason: line(2, `${s.errors} check(s) could not be verified because our tool failed (${list(ids)}); not a verdict on the agent`),
    };
  }
  if (o.failOn === 'never') return { code: 0 };
  const c = report.comparison;
  const regressed = c?.verdict === 'regressed';
  const regressionReason = () =>
    line(1, `regressed against the baseline${o.baselinePath ? ` ${o.baselinePath}` : ''}: ${c?.regressions.length ? list(c.regressions) : c?.summary}`);
  if (o.failOn === 'regression') return regressed ? { code: 1, reason: regressionReason() } : { code: 0 };
  // --only: the selected checks' results, no level; the gate is "none of them failed" (--min-level does not apply).
  if (report.notAssessed?.reason === 'selected-checks') {
    if (s.failed > 0) {
      const failed = Object.values(report.categories)
        .flat()
        .filter((r) => r.status === 'fail')
        .map((r) => r.id);
      return { code: 1, reason: line(1, `${s.failed} selected check(s) failed (${list(failed)}); no level for a run of selected checks`) };
    }
    return regressed ? { code: 1, reason: regressionReason() } : { code: 0 };
  }
  // --fail-on level: the level against --min-level, and with a baseline any regression too.
  if (report.notAssessed)
    return { code: 1, reason: line(1, `not assessed (${report.notAssessed.reason}): ${report.notAssessed.message.replace(/^Not assessed:\s*/i, '')}`) };
  if (regressed) return { code: 1, reason: regressionReason() };
  if (!meetsLevel(report.conformanceLevel, o.minLevel))
    return {
      code: 1,
      reason: line(1, `level ${report.conformanceLevel ?? 'not assessed'} is below --min-level ${o.minLevel}: ${report.levelReason}`),
    };
  return { code: 0 };
}

/** What `run-many` and `merge` gate on: one row per agent of the fleet summary. */
export interface FleetGateRow {
  key: string;
  meetsMinLevel: boolean;
  levelLabel: string;
  trend?: { status: string; verdict?: string };
}

/**
 * The exit code of a fleet and its one-line reason: `level`: an agent below `--min-level` (not assessed, not run,
 * stopped at the deadline included) or regressed against `--baseline-dir`; `regression`: only a regression; `never`: 0.
 */
export function fleetGate(rows: readonly FleetGateRow[], failOn: FailOn, minLevel: ConformanceLevel): GateOutcome {
  if (failOn === 'never') return { code: 0 };
  const regressed = rows.filter((r) => r.trend?.status === 'compared' && r.trend.verdict === 'regressed').map((r) => r.key);
  const below = failOn === 'level' ? rows.filter((r) => !r.meetsMinLevel).map((r) => `${r.key}: ${r.levelLabel}`) : [];
  if (!regressed.length && !below.length) return { code: 0 };
  const parts = [
    ...(below.length ? [`${below.length} agent(s) below --min-level ${minLevel} (${list(below)})`] : []),
    ...(regressed.length ? [`${regressed.length} regressed against --baseline-dir (${list(regressed)})`] : []),
  ];
  return { code: 1, reason: line(1, parts.join('; ')) };
}
