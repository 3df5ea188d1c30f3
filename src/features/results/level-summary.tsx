import { useMemo } from 'react';
import { summarize, verdictOf } from '../../lib/engine';
import { useRunResults, useRunSelector } from '../../lib/run-store';

const RUN_STATUS_TEXT: Record<string, string> = {
  idle: 'No run yet',
  running: 'Running…',
  completed: 'Completed',
  interrupted: 'Interrupted: partial results',
  errored: 'Errored: our tool failed during the run',
};

/** The conformance level (role status, named "Conformance level"), the run status and the counts. */
export function LevelSummary() {
  const status = useRunSelector((s) => s.run.status);
  const error = useRunSelector((s) => s.run.error);
  const results = useRunResults();
  const run = useRunSelector((s) => s.run);
  const { verdict, summary } = useMemo(() => ({ verdict: verdictOf(run), summary: summarize(results) }), [run, results]);
  const notice = useRunSelector((s) => s.notice);
  const agent = useRunSelector((s) => s.run.targets.agent);
  const agentUrl = useRunSelector((s) => s.run.agentUrl);
  const startedAt = useRunSelector((s) => s.run.startedAt);
  if (status === 'idle') return null;
  const card = (agent?.normalizedCard ?? {}) as { name?: unknown; version?: unknown };
  const running = status === 'running';
  return (
    <section className="level-summary" aria-label="Verdict">
      <div className={`level level-${verdict.level ?? 'not-assessed'}`} role="status" aria-label="Conformance level">
        <span className="level-name">{verdict.level ?? 'not assessed'}</span>
        {verdict.provisional ? <span className="level-provisional"> (provisional)</span> : null}
        {running ? <span className="level-so-far"> so far</span> : null}
      </div>
      <p className="level-agent" aria-label="Agent under test">
        <strong>{typeof card.name === 'string' && card.name ? card.name : agentUrl ?? 'Agent'}</strong>
        {typeof card.version === 'string' && card.version ? <span> {card.version}</span> : null}
        {agent?.generation ? <span> · A2A {agent.generation}</span> : null}
        {agent?.binding ? <span> · {agent.binding}</span> : null}
        {startedAt ? <span> · {new Date(startedAt).toLocaleString()}</span> : null}
      </p>
      <p className="level-reason">{verdict.reason}</p>
      <p className="run-status">
        Run: <strong>{RUN_STATUS_TEXT[status] ?? status}</strong>
        {error ? <span className="run-error"> ({error})</span> : null}
      </p>
      {notice ? <p className="run-notice">{notice}</p> : null}
      <dl className="counts" aria-label="Counts">
        <div>
          <dt>Total</dt>
          <dd>{summary.total}</dd>
        </div>
        <div>
          <dt>Passed</dt>
          <dd>{summary.passed}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{summary.failed}</dd>
        </div>
        <div>
          <dt>Advisories</dt>
          <dd>{summary.advisories}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{summary.skipped}</dd>
        </div>
        <div>
          <dt>Tool errors</dt>
          <dd>{summary.errors}</dd>
        </div>
      </dl>
    </section>
  );
}
