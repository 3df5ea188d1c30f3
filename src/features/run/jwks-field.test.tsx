// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveProvider } from '../../lib/archive-context';
import { RunArchive } from '../../lib/db';
import type { Report, RunOptions } from '../../lib/engine';
import { RunSession, RunSessionProvider } from '../../lib/run-session';
import { createRunStore, RunStoreProvider } from '../../lib/run-store';
import { parseJwks } from './jwks-field';
import { RunForm } from './run-form';

afterEach(cleanup);
// The machine is shared: IndexedDB and the run session can take more than Testing Library's default second.
configure({ asyncUtilTimeout: 10_000 });

/** The run form with a runner that records the options it was given and finishes at once. */
function setup() {
  const started: RunOptions[] = [];
  const store = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  const archive = new RunArchive(`jwks-field-${Date.now()}-${Math.random()}`);
  const session = new RunSession({
    store,
    archive,
    run: (_host, options, emit) => {
      started.push(options);
      const at = Date.now();
      emit({
        type: 'run-started',
        at,
        runId: 'jwks',
        agentUrl: options.agentUrl,
        options: { timeoutMs: 60_000, credentials: 'none' },
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

const JWKS = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'x', y: 'y' }] };

describe('trusted signing keys in the run form', () => {
  it('a pasted JWKS goes to the run as RunOptions.jwks', async () => {
    const { started } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:9/a2a' } });
    fireEvent.change(screen.getByLabelText("JWKS to verify the card's signatures"), { target: { value: JSON.stringify(JWKS) } });
    fireEvent.click(screen.getByRole('button', { name: 'Run conformance' }));
    await waitFor(() => expect(started).toHaveLength(1));
    expect(started[0]?.jwks).toEqual(JWKS);
  });

  it('a private key or a non-JWKS is refused under the field and starts nothing', () => {
    const { started } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:9/a2a' } });
    const field = screen.getByLabelText("JWKS to verify the card's signatures");
    fireEvent.change(field, { target: { value: JSON.stringify({ keys: [{ ...JWKS.keys[0], d: 'secret' }] }) } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Run conformance' }));
    expect(started).toEqual([]);
    expect(screen.getAllByText(/holds a private key/).length).toBeGreaterThan(0);
  });

  it('parseJwks: empty is none; JSON that is not a key set is an error', () => {
    expect(parseJwks('  ')).toEqual({ ok: true, value: undefined });
    expect(parseJwks('{').ok).toBe(false);
    expect(parseJwks('{"keys": []}')).toMatchObject({ ok: false, error: expect.stringMatching(/not a JWKS/) });
  });
});
