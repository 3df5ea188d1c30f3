import { Suspense } from 'react';
import { CardView } from '../features/card';
import { ChartsPanel } from '../features/charts';
import { ExportButtons } from '../features/reports';
import { FailedTests, LevelSummary, ResultsTable } from '../features/results';
import { Timeline, WireInspector } from '../features/timeline';

/** One viewer for live runs, saved runs and opened reports: it shows whatever run store it is given. */
export function RunViewer() {
  return (
    <div className="run-viewer">
      <LevelSummary />
      <ExportButtons />
      <FailedTests />
      <ResultsTable />
      <div className="timeline-grid">
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
