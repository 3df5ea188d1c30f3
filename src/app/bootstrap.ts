import { RunArchive } from '../lib/db';
import { createHost, runSuite } from '../lib/engine-adapter';
import { createQueryClient } from '../lib/query-client';
import { holdRunLock, isRunAlive } from '../lib/run-lock';
import { RunSession } from '../lib/run-session';
import { createRunStore } from '../lib/run-store';
import { settingsStore } from '../lib/settings-store';
import type { AppDeps } from './app';

/** Wires the app's long-lived objects. */
export function createAppDeps(): AppDeps {
  const archive = new RunArchive();
  const liveStore = createRunStore();
  let restored: () => void = () => undefined;
  const ready = new Promise<void>((r) => (restored = r));
  const session = new RunSession({
    ready,
    onRunActive: holdRunLock,
    store: liveStore,
    archive,
    run: runSuite,
    createHost,
    hostSettings: () => {
      const s = settingsStore.getState();
      return { mode: s.mode, proxyUrl: s.proxyUrl, allowInsecureCredentials: s.allowInsecureCredentials };
    },
  });
  const deps: AppDeps = { queryClient: createQueryClient(), archive, liveStore, session };
  // Runs wait for the restore below, so a run started by a deep link is never mistaken for a cut-off one.
  // IndexedDB can stall (a blocked upgrade in another tab): runs never wait more than 3 s for it.
  void restoreInterrupted(deps).finally(restored);
  setTimeout(restored, 3000);
  return deps;
}

/**
 * After a reload mid-run: closes the cut-off run as interrupted and shows it in the Run view with
 * its partial results. Failures (IndexedDB unavailable) only cost the restore.
 */
async function restoreInterrupted(deps: AppDeps): Promise<void> {
  try {
    const closed = await deps.archive.closeAbandoned(Date.now(), undefined, isRunAlive);
    const latest = closed.sort((a, b) => b.startedAt - a.startedAt)[0];
    if (!latest) return;
    const events = await deps.archive.events(latest.runId);
    if (deps.session.state.getState().phase !== 'idle' || deps.liveStore.store.getState().run.status !== 'idle') return;
    deps.liveStore.load(events, 'history', 'This run was interrupted when the page was reloaded or closed; the results recorded until then are shown.');
  } catch (e) {
    console.warn('Could not restore the interrupted run', e);
  }
}
