import { Suspense, useMemo } from 'react';
import { CardView } from '../features/card';
import { ChartsPanel } from '../features/charts';
import { ExportButtons } from '../features/reports';
import { FailedTests, NotAssessedMessage, ResultsTable, VerdictCard, useNotAssessedOutcome } from '../features/results';
import { Timeline, WireInspector } from '../features/timeline';
import { useRunResults, useRunSelector } from '../lib/run-store';

const SECTIONS = [
  ['failed-heading', 'Failed tests'],
  ['results-heading', 'Results'],
  ['timeline-section', 'Timeline'],
  ['charts-heading', 'Charts'],
  ['card-heading', 'Agent card'],
] as const;

/** In-page links to the parts of a long run view (the page stays one document: nothing is hidden). */
function JumpNav() {
  const status = useRunSelector((s) => s.run.status);
  const results = useRunResults();
  const failing = useMemo(() => results.some((r) => r.status === 'fail'), [results]);
  if (status === 'idle') return null;
  return (
    <nav className="jump-nav" aria-label="Jump to">
      {failing ? (
        <a
          href="#failed-heading"
          className="skip-to-failure"
          onClick={(e) => {
            // The first failure's own button (it opens its evidence), not just its section.
            const first = document.querySelector<HTMLElement>('table.failed-table .row-toggle');
            if (!first) return;
            e.preventDefault();
            first.scrollIntoView({ block: 'center' });
            first.focus({ preventScroll: true });
          }}
        >
          Skip to first failure
        </a>
      ) : null}
      {SECTIONS.filter(([id]) => id !== 'failed-heading' || failing).map(([id, label]) => (
        <a
          key={id}
          href={`#${id}`}
          onClick={(e) => {
            const el = document.getElementById(id);
            if (!el) return;
            e.preventDefault();
            el.scrollIntoView({ block: 'start' });
            if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
            el.focus({ preventScroll: true });
          }}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}

/**
 * One viewer for live runs, saved runs and opened reports: it shows whatever run store it is given.
 * Results first: the verdict, then the failures and the results (beside the verdict at 1400 px and wider),
 * then the timeline with the wire inspector (beside it when wide, a full-height side pane otherwise).
 */
export function RunViewer({ onEdit, onRetry }: { onEdit?: () => void; onRetry?: () => void } = {}) {
  const idle = useRunSelector((s) => s.run.status === 'idle');
  const notAssessed = useNotAssessedOutcome();
  if (idle) return null;
  if (notAssessed) {
    // Never exercised (nothing listening, not an agent, credentials, our failure): a message, not a report.
    return (
      <div className="run-viewer run-viewer-message">
        <NotAssessedMessage outcome={notAssessed} onEdit={onEdit} onRetry={onRetry}>
          <ExportButtons only={['json']} />
        </NotAssessedMessage>
      </div>
    );
  }
  return (
    <div className="run-viewer">
      <div className="run-top">
        <div className="run-summary">
          <VerdictCard>
            <JumpNav />
          </VerdictCard>
          <ExportButtons />
        </div>
        <div className="run-results">
          <FailedTests />
          <ResultsTable />
        </div>
      </div>
      <div className="timeline-grid" id="timeline-section">
        <Timeline />
        <WireInspector />
      </div>
      <Suspense fallback={<p>Loading charts…</p>}>
        <ChartsPanel />
      </Suspense>
      <CardView />
    </div>
  );
}
