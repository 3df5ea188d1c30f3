import { reportResults, type Report, type RunEvent } from '../../lib/engine';

/**
 * The event log behind a report: its embedded events when present, otherwise events rebuilt from
 * the results (the same reconstruction stateFromReport uses), so history and viewers get one shape.
 */
export function eventsFromReport(report: Report): RunEvent[] {
  if (report.events?.length) return report.events;
  const at = Date.parse(report.testDate) || 0;
  const events: RunEvent[] = [
    { type: 'run-started', at, runId: report.runId, agentUrl: report.agentUrl, peerUrl: report.peerUrl, options: report.options, tool: report.tool },
    ...report.targets.map((target): RunEvent => ({ type: 'target-resolved', at, target })),
    ...reportResults(report).map((result): RunEvent => ({ type: 'check-finished', at, result })),
  ];
  if (report.runStatus !== 'running') events.push({ type: 'run-finished', at: at + report.durationMs, status: report.runStatus });
  return events;
}
