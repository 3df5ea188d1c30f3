// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveProvider } from '../../lib/archive-context';
import { RunArchive } from '../../lib/db';
import type { Report, RunOptions } from '../../lib/engine';
import { RunSession, RunSessionProvider } from '../../lib/run-session';
import { createRunStore, RunStoreProvider } from '../../lib/run-store';
import { settingsStore } from '../../lib/settings-store';
import { RunForm } from './run-form';

afterEach(cleanup);
// The machine is shared: IndexedDB and the run session can take more than Testing Library's default second.
configure({ asyncUtilTimeout: 10_000 });
beforeEach(() => {
  settingsStore.getState().update({ rememberCredentials: false });
  window.history.replaceState(null, '', '/');
});

let n = 0;
/** The form with a session whose runner records what it was asked to run and finishes at once. */
function setup() {
  const started: RunOptions[] = [];
  const store = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  const archive = new RunArchive(`run-form-${++n}-${Date.now()}`);
  const session = new RunSession({
    store,
    archive,
    run: (_host, options, emit) => {
      started.push(options);
      const at = Date.now();
      emit({
        type: 'run-started',
        at,
        runId: `form-${n}`,
        agentUrl: options.agentUrl,
        options: { timeoutMs: options.timeoutMs ?? 60_000, credentials: 'none' },
        tool: { name: 'a2a-interop', version: '0' },
      });
      emit({ type: 'run-finished', at: at + 1, status: 'completed' });
      return Promise.resolve({} as Report);
    },
    createHost: () => ({}) as never,
    hostSettings: () => ({ mode: 'proxy' }),
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ArchiveProvider value={archive}>
        <RunSessionProvider value={session}>
          <RunStoreProvider value={store}>
            <RunForm />
          </RunStoreProvider>
        </RunSessionProvider>
      </ArchiveProvider>
    </QueryClientProvider>,
  );
  return { started };
}

const pickBearer = () => fireEvent.change(screen.getByLabelText('Credential type'), { target: { value: 'bearer' } });

describe('run form', () => {
  it('remembers a typed credential only while "Remember credentials" is on', () => {
    setup();
    pickBearer();
    fireEvent.change(screen.getByLabelText('Bearer token'), { target: { value: 'tok-not-remembered' } });
    expect(settingsStore.getState().credentials).toBeUndefined();

    act(() => settingsStore.getState().update({ rememberCredentials: true }));
    fireEvent.change(screen.getByLabelText('Bearer token'), { target: { value: 'tok-remembered' } });
    expect(settingsStore.getState().credentials).toEqual({ kind: 'bearer', token: 'tok-remembered' });

    // Back to no credentials: nothing is remembered any more.
    fireEvent.change(screen.getByLabelText('Credential type'), { target: { value: 'none' } });
    expect(settingsStore.getState().credentials).toBeUndefined();
  });

  it('a field error moves focus to that field and starts nothing', () => {
    const { started } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:9/a2a' } });
    fireEvent.change(screen.getByLabelText('Peer agent URL (optional)'), { target: { value: 'not a url' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run conformance' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Peer agent URL (optional)'));
    expect(started).toEqual([]);
  });

  it('a deep link with run=1 starts one run with the linked agent and drops run=1 from the address', async () => {
    window.history.replaceState(null, '', '/?agent=http%3A%2F%2F127.0.0.1%3A9%2Fa2a&run=1');
    const { started } = setup();
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]?.agentUrl).toBe('http://127.0.0.1:9/a2a');
    expect(window.location.search).toBe('?agent=http%3A%2F%2F127.0.0.1%3A9%2Fa2a');
    // The form collapsed to the run bar; the run is not started a second time by the address change.
    expect(await screen.findByRole('button', { name: 'Edit the run setup' })).toBeTruthy();
    expect(started).toHaveLength(1);
  });
});
