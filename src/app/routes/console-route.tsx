import { useCallback } from 'react';
import { ConsoleController, ConsolePage, ConsoleProvider } from '../../features/console';
import { Timeline, WireInspector } from '../../features/timeline';
import { useArchive } from '../../lib/archive-context';
import { openConsoleSession } from '../../lib/console-adapter';
import { consoleArchive } from '../../lib/console-db';
import { findExchange } from '../../lib/console-link';
import { createRunStore, RunStoreProvider, useRunStoreHandle } from '../../lib/run-store';
import { settingsStore } from '../../lib/settings-store';

// One console per page load, loaded with this route: its session, calls and timeline survive leaving the page.
const timelineStore = createRunStore();
const controller = new ConsoleController({
  open: (input) => {
    const s = settingsStore.getState();
    return openConsoleSession({ mode: s.mode, proxyUrl: s.proxyUrl, allowInsecureCredentials: s.allowInsecureCredentials }, input);
  },
  timeline: timelineStore,
  save: (r) => consoleArchive().put(r),
});

/** The console (loaded lazily, app.tsx): the run views' timeline and wire inspector show its exchanges. */
export function ConsoleRoute() {
  const live = useRunStoreHandle();
  const archive = useArchive();
  const resolveExchange = useCallback(
    (exchangeId: string, runId?: string) => {
      const s = live.store.getState();
      return findExchange(exchangeId, runId, { live: { runId: s.run.runId, agentUrl: s.run.agentUrl, events: s.events }, archive });
    },
    [live, archive],
  );
  return (
    <ConsoleProvider controller={controller} archive={consoleArchive()}>
      <RunStoreProvider value={timelineStore}>
        <ConsolePage timeline={<Timeline />} inspector={<WireInspector />} resolveExchange={resolveExchange} />
      </RunStoreProvider>
    </ConsoleProvider>
  );
}
