import { useMemo } from 'react';
import { computeLevel, resultsOf, summarize } from '../../engine';
import { useRunSelector } from '../../lib/run-store';

const RUN_STATUS_TEXT: Record<string, string> = {
  idle: 'No run yet',
  running: 'Running…',
  completed: 'Completed',
  interrupted: 'Interrupted: partial results',
  errored: 'Errored: our tool failed during the run',
};

/** The conformance level (role status, named "Conformance level"), the run status and the counts. */
export function LevelSummary() {
  const run = useRunSelector((s) => s.run);
  const { verdict, summary } = useMemo(() => {
    const results = resultsOf(run);
    return { verdict: computeLevel(results, run.status === 'completed'), summary: summarize(results) };
  }, [run]);
  const notice = useRunSelector((s) => s.notice);
  if (run.status === 'idle') return null;
  const running = run.status === 'running';
  return (
    <section className="level-summary" aria-label="Verdict">
      <div className={`level level-${verdict.level}`} role="status" aria-label="Conformance level">
        <span className="level-name">{verdict.level}</span>
        {verdict.provisional ? <span className="level-provisional"> (provisional)</span> : null}
        {running ? <span className="level-so-far"> so far</span> : null}
      </div>
      <p className="level-reason">{verdict.reason}</p>
      <p className="run-status">
        Run: <strong>{RUN_STATUS_TEXT[run.status] ?? run.status}</strong>
        {run.error ? <span className="run-error"> ({run.error})</span> : null}
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
