import { CATEGORY_KEYS, type CheckResult } from '../model/check';
import type { RunEvent } from '../model/events';
import { SCHEMA_VERSION, type Categories, type Report, type Summary } from '../model/report';
import { applyEvents, initialRunState, resultsOf, type RunState } from '../state/run-state';
import { computeLevel, type LevelVerdict } from './level';
import { timingOf } from './timing';

export { timingOf } from './timing';

export const TOOL = { name: 'a2a-interop', version: '0.1.0' } as const;

export function summarize(results: readonly CheckResult[]): Summary {
  const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
  const notRun = results.filter((r) => r.status === 'skip' && r.skipKind === 'not-run').length;
  return {
    total: results.length,
    passed: count('pass'),
    failed: count('fail'),
    advisories: count('advisory'),
    skipped: count('skip') - notRun,
    errors: count('error'),
    notRun,
  };
}

export function groupByCategory(results: readonly CheckResult[]): Categories {
  const out: Categories = { agentCard: [], lifecycle: [], streaming: [], errorHandling: [], interop: [], security: [] };
  for (const r of results) out[CATEGORY_KEYS[r.category]].push(r);
  return out;
}

/** The level of a run's folded state (live or finished): the one rule the report, the dashboard and history use. */
export function verdictOf(state: RunState): LevelVerdict {
  return computeLevel(resultsOf(state), {
    runComplete: state.status === 'completed',
    runStatus: state.status === 'idle' ? 'running' : state.status,
    selected: state.options?.only,
    agent: state.targets.agent,
    credentialsGiven: !!state.options && state.options.credentials !== 'none',
  });
}

const str = (v: unknown, fallback: string) => (typeof v === 'string' && v.trim() ? v : fallback);

/**
 * The report of a run, from its folded state. `events` (already redacted by the engine) are embedded
 * when given, so the report replays in the dashboard.
 */
export function buildReport(state: RunState, events?: readonly RunEvent[]): Report {
  const results = resultsOf(state);
  const target = state.targets.agent;
  const card = (target?.normalizedCard ?? {}) as { name?: unknown; version?: unknown };
  const runStatus = state.status === 'idle' ? 'running' : state.status;
  const verdict = verdictOf(state);
  const startedAt = state.startedAt ?? 0;
  const finishedAt = state.finishedAt;
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: state.tool ?? { ...TOOL },
    runId: state.runId ?? 'unknown',
    agentUrl: state.agentUrl ?? '',
    agentName: str(card.name, '(unknown)'),
    agentVersion: str(card.version, '(unknown)'),
    peerUrl: state.peerUrl,
    testDate: new Date(startedAt).toISOString(),
    finishedAt: finishedAt !== undefined ? new Date(finishedAt).toISOString() : undefined,
    durationMs: Math.max(0, (finishedAt ?? startedAt) - startedAt),
    runStatus,
    protocol: {
      generation: target?.generation ?? null,
      binding: target?.binding ?? null,
      endpointUrl: target?.endpointUrl ?? null,
      evidence: target?.evidence ?? [],
    },
    summary: summarize(results),
    categories: groupByCategory(results),
    conformanceLevel: verdict.level,
    notAssessed: verdict.notAssessed,
    provisional: verdict.provisional,
    levelReason: verdict.reason,
    options: state.options ?? { timeoutMs: 0, credentials: 'none' },
    targets: [state.targets.agent, state.targets.peer].filter((t) => t !== undefined),
    timing: timingOf(state),
    events: events ? [...events] : undefined,
  };
}

/** Every result of a report, in category order. */
export const reportResults = (r: Report): CheckResult[] => [
  ...r.categories.agentCard,
  ...r.categories.lifecycle,
  ...r.categories.streaming,
  ...r.categories.errorHandling,
  ...r.categories.interop,
  ...r.categories.security,
];

/**
 * The run state behind a saved report, so one viewer shows live runs and opened reports alike.
 * Replays the embedded events when present; otherwise rebuilds checks and targets from the results.
 */
export function stateFromReport(report: Report): RunState {
  if (report.events?.length) return applyEvents(initialRunState(), report.events);
  const at = Date.parse(report.testDate) || 0;
  const events: RunEvent[] = [
    {
      type: 'run-started',
      at,
      runId: report.runId,
      agentUrl: report.agentUrl,
      peerUrl: report.peerUrl,
      options: report.options,
      tool: report.tool,
    },
    ...report.targets.map((target): RunEvent => ({ type: 'target-resolved', at, target })),
    ...reportResults(report).map((result): RunEvent => ({ type: 'check-finished', at, result })),
  ];
  if (report.runStatus !== 'running') {
    events.push({ type: 'run-finished', at: at + report.durationMs, status: report.runStatus });
  }
  return applyEvents(initialRunState(), events);
}
