// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ArchiveProvider } from '../../lib/archive-context';
import { RunArchive } from '../../lib/db';
import type { RunEvent } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { HistoryPage } from './history-page';

afterEach(cleanup);
// The machine is shared: IndexedDB and the card checks can take more than the default second.
configure({ asyncUtilTimeout: 10_000 });

const V03 = 'http://127.0.0.1:9999/a2a';
const OTHER = 'http://127.0.0.1:9998/other';
const day = (d: number) => Date.UTC(2026, 9, d, 9);

let n = 0;
async function setup(runs: RunEvent[][]) {
  const archive = new RunArchive(`history-ui-${++n}-${Date.now()}`);
  for (const events of runs) await archive.replace(events, 'imported');
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ArchiveProvider value={archive}>
        <HistoryPage />
      </ArchiveProvider>
    </QueryClientProvider>,
  );
  const table = await screen.findByRole('table', { name: 'Past runs' });
  return { archive, table };
}

/** The skip event of a run that no longer declares a feature: resubscribe is then not applicable. */
function withSkip(events: RunEvent[], id: string): RunEvent[] {
  return events.map((e) =>
    e.type === 'check-finished' && e.result.id === id
      ? { ...e, result: { ...e.result, status: 'skip', skipKind: 'not-applicable', message: 'Not declared.' } }
      : e,
  );
}

const rows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);

describe('history page', () => {
  it('lists runs with their level as a chip, not assessed included', async () => {
    const unreachable: RunEvent[] = [
      {
        type: 'run-started',
        at: day(3),
        runId: 'na',
        agentUrl: 'http://127.0.0.1:9',
        options: { timeoutMs: 1000, credentials: 'none' },
        tool: { name: 'a2a-interop', version: '0.1.0' },
      },
      {
        type: 'target-resolved',
        at: day(3),
        target: { role: 'agent', inputUrl: 'http://127.0.0.1:9', attempts: [], evidence: [], error: 'Could not connect (ECONNREFUSED).', reach: 'unreachable' },
      },
      { type: 'run-finished', at: day(3) + 5, status: 'completed' },
    ];
    const { table } = await setup([syntheticRun({ runId: 'a', startAt: day(1), flawed: true }), unreachable]);
    const [first, second] = rows(table);
    expect(within(first!).getByText(/^not assessed/).className).toBe('level-chip level-chip-not-assessed');
    expect(within(first!).getByText(/^not assessed/).textContent).toBe('not assessed (unreachable)');
    expect(within(second!).getByText('minimal').className).toBe('level-chip level-chip-minimal');
  });

  it('compares two runs of one agent: summary line, pass -> skip is "not applicable", fixes listed, no agent warning', async () => {
    const before = syntheticRun({ runId: 'before', startAt: day(1), flawed: true });
    const after = withSkip(
      syntheticRun({ runId: 'after', startAt: day(2), flawed: true, statuses: { 'errors.task-not-found': 'pass' } }),
      'streaming.resubscribe',
    );
    const { table } = await setup([before, after]);
    for (const box of within(table).getAllByRole('checkbox')) fireEvent.click(box);
    fireEvent.click(screen.getByRole('button', { name: 'Compare selected runs' }));
    const summary = await screen.findByRole('status', { name: 'Comparison summary' });
    expect(summary.textContent).toBe('minimal → minimal · 1 fixed · 0 regressed · 1 not applicable');
    const changed = screen.getByRole('table', { name: 'Changed checks' });
    const cells = rows(changed).map((r) => [
      within(r).getByRole('rowheader').querySelector('.check-id')?.textContent,
      ...within(r)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ]);
    expect(cells).toEqual([
      ['errors.task-not-found', 'fail', 'pass', 'fixed'],
      ['streaming.resubscribe', 'pass', 'skipped', 'not applicable (feature not declared)'],
    ]);
    expect(screen.queryByText('These runs are of different agents.')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Comparison' })).toBe(document.activeElement);
  });

  it("warns when the two runs are of different agents and offers the later agent's previous run", async () => {
    const { table } = await setup([
      syntheticRun({ runId: 'v03-old', startAt: day(1), agentUrl: V03, flawed: true }),
      syntheticRun({ runId: 'other', startAt: day(2), agentUrl: OTHER }),
      syntheticRun({ runId: 'v03-new', startAt: day(3), agentUrl: `${V03}/` }),
    ]);
    // Newest first: v03-new, other, v03-old. Pick "other" and "v03-new".
    const [newest, middle] = rows(table);
    fireEvent.click(within(newest!).getByRole('checkbox'));
    fireEvent.click(within(middle!).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Compare selected runs' }));
    const warning = await screen.findByText('These runs are of different agents.');
    const note = warning.closest('[role="note"]') as HTMLElement;
    expect(note.textContent).toContain(`The earlier run tested ${OTHER}, the later one ${V03}/`);
    fireEvent.click(within(note).getByRole('button', { name: "Compare with this agent's previous run" }));
    await waitFor(() => expect(screen.queryByText('These runs are of different agents.')).toBeNull());
    // Same agent now (a trailing slash is the same URL): the flawed run was fixed.
    expect(screen.getByRole('status', { name: 'Comparison summary' }).textContent).toMatch(/^minimal → full · \d+ fixed · 0 regressed · 0 not applicable$/);
  });

  it('offers "Compare with previous" only on runs that have an earlier run of the same agent', async () => {
    const { table } = await setup([
      syntheticRun({ runId: 'one', startAt: day(1), flawed: true }),
      syntheticRun({ runId: 'two', startAt: day(2) }),
      syntheticRun({ runId: 'else', startAt: day(3), agentUrl: OTHER }),
    ]);
    const buttons = within(table).getAllByRole('button', { name: /^Compare with previous run of this agent: / });
    expect(buttons).toHaveLength(1);
    expect(buttons[0]!.closest('tr')?.textContent).toContain('full');
    fireEvent.click(buttons[0]!);
    const summary = await screen.findByRole('status', { name: 'Comparison summary' });
    expect(summary.textContent).toMatch(/^minimal → full · [1-9]\d* fixed · 0 regressed · 0 not applicable$/);
  });
});
