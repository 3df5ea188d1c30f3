import { Suspense } from 'react';
import { CardView } from '../features/card';
import { ChartsPanel } from '../features/charts';
import { ExportButtons } from '../features/reports';
import { FailedTests, LevelSummary, ResultsTable } from '../features/results';
import { Timeline, WireInspector } from '../features/timeline';
import { useRunSelector } from '../lib/run-store';

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
  if (status === 'idle') return null;
  return (
    <nav className="jump-nav" aria-label="Jump to">
      {SECTIONS.map(([id, label]) => (
        <a key={id} href={`#${id}`} onClick={(e) => {
          const el = document.getElementById(id);
          if (!el) return;
          e.preventDefault();
          el.scrollIntoView({ block: 'start' });
          if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
          el.focus({ preventScroll: true });
        }}>
          {label}
        </a>
      ))}
    </nav>
  );
}

/** One viewer for live runs, saved runs and opened reports: it shows whatever run store it is given. */
export function RunViewer() {
  return (
    <div className="run-viewer">
      <LevelSummary />
      <JumpNav />
      <ExportButtons />
      <FailedTests />
      <ResultsTable />
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
