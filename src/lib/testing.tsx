import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { RunEvent } from './engine';
import { RunArchive } from './db';
import { RunSession, RunSessionProvider } from './run-session';
import { createRunStore, RunStoreProvider, type RunStoreHandle } from './run-store';
import { ArchiveProvider } from './archive-context';

/** Providers around a component under test, with a run store already holding `events`. */
export function withRun(events: readonly RunEvent[], ui: ReactNode): { element: ReactNode; handle: RunStoreHandle } {
  const handle = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  handle.load(events, 'report');
  const archive = new RunArchive(`ui-test-${Math.random()}`);
  const session = new RunSession({
    store: handle,
    archive,
    run: () => Promise.reject(new Error('no runner in component tests')),
    createHost: () => {
      throw new Error('no host in component tests');
    },
    hostSettings: () => ({ mode: 'proxy' }),
  });
  const element = (
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ArchiveProvider value={archive}>
        <RunSessionProvider value={session}>
          <RunStoreProvider value={handle}>{ui}</RunStoreProvider>
        </RunSessionProvider>
      </ArchiveProvider>
    </QueryClientProvider>
  );
  return { element, handle };
}
