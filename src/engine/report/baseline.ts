import type { Report, ReportComparison } from '../model/report';
import { reportResults } from './build';
import { compareRuns, regressionsOf, sameAgent, type ChangeKind, type ComparedRun, type LevelMove } from './compare';

/**
 * A report compared with a baseline report (the CLI's `--baseline`, a fleet run's `--baseline-dir`), as the
 * report's optional `comparison` section. The rules are compare.ts's, the dashboard history's: fixed,
 * regressed, new failure, not applicable, ... keyed by check id; the gate fails on `regressionsOf`.
 *
 * @example
 * const report = { ...current, comparison: compareWithBaseline(previous, current) };
 * if (report.comparison.verdict === 'regressed') process.exitCode = 1;
 */
export function compareWithBaseline(baseline: Report, current: Report): ReportComparison {
  const c = compareRuns(comparedRun(baseline), comparedRun(current));
  const regressions = regressionsOf(c);
  const improved = c.levelMove === 'up' || c.levelMove === 'assessed' || c.counts.fixed > 0;
  return {
    baseline: {
      runId: baseline.runId,
      testDate: baseline.testDate,
      agentUrl: baseline.agentUrl,
      toolVersion: baseline.tool.version,
      level: baseline.conformanceLevel,
      ...(baseline.notAssessed ? { notAssessed: baseline.notAssessed.reason } : {}),
      provisional: baseline.provisional,
    },
    sameAgent: sameAgent(baseline, current),
    levelMove: c.levelMove,
    summary: c.summary,
    counts: c.counts,
    changes: c.changes,
    regressions,
    verdict: regressions.length ? 'regressed' : improved ? 'improved' : 'unchanged',
  };
}

/** One side of a comparison, from a report. */
const comparedRun = (r: Report): ComparedRun => ({
  level: r.conformanceLevel,
  ...(r.notAssessed ? { notAssessed: r.notAssessed.reason } : {}),
  provisional: r.provisional,
  results: reportResults(r),
});

// The report model's enums (model/report.ts) and compare.ts's types must name the same kinds and moves.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const kindsAgree: Same<ReportComparison['changes'][number]['kind'], ChangeKind> = true;
const movesAgree: Same<ReportComparison['levelMove'], LevelMove> = true;
void kindsAgree;
void movesAgree;
