// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunMeta } from '../../lib/db';
import type { Report } from '../../lib/engine';
import { checkCard, RegistryDb, type RegistryAgent } from '../../lib/registry-db';
import { conformantReport, sampleReport } from '../../testing/fixtures/reports';
import type { FleetTarget } from './fleet-run';
import { RegistryPage, type RegistryDeps } from './registry-page';

afterEach(cleanup);
configure({ asyncUtilTimeout: 10_000 });

let n = 0;
const agent = (id: string, name: string, url: string): RegistryAgent =>
  ({ id, version: '1.0.0', name, endpoints: [{ protocol: 'a2a', url, priority: 0 }] }) as unknown as RegistryAgent;

async function setup(history: RunMeta[] = []) {
  const db = new RegistryDb(`registry-fleet-${++n}-${Date.now()}`);
  await db.put(agent('agent:a', 'Agent A', 'https://a.example/a2a'));
  await db.put(agent('agent:b', 'Agent B', 'https://b.example/a2a'));
  const downloads: { filename: string; mimeType: string; body: string }[] = [];
  const ran: string[] = [];
  const deps: RegistryDeps = {
    db,
    discover: async () => {
      throw new Error('not used');
    },
    checkCard,
    download: (filename, mimeType, body) => downloads.push({ filename, mimeType, body }),
    runs: async () => history,
    runAgent: async (t: FleetTarget): Promise<Report> => {
      ran.push(t.url);
      return { ...(t.key === 'agent:b' ? sampleReport() : conformantReport()), agentUrl: t.url };
    },
  };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RegistryPage deps={deps} />
    </QueryClientProvider>,
  );
  return { downloads, ran };
}

const fleet = () => screen.getByRole('region', { name: 'Fleet run' });

describe('registry: fleet run', () => {
  it('Run all runs every agent, shows agents x categories with levels over time, and exports the run-many summary', async () => {
    const past = { runId: 'old-1', agentUrl: 'https://a.example/a2a', startedAt: 1, status: 'completed', level: 'partial', provisional: false } as RunMeta;
    const { downloads, ran } = await setup([past]);
    const run = await within(fleet()).findByRole('button', { name: 'Run all (2)' });
    fireEvent.click(run);
    await waitFor(() => expect(within(fleet()).getByRole('status', { name: 'Fleet status' }).textContent).toMatch(/^Fleet run finished: full 1/));
    expect(ran.sort()).toEqual(['https://a.example/a2a', 'https://b.example/a2a']);
    const table = within(fleet()).getByRole('table', { name: 'Fleet results' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Agent A', 'Agent B']);
    expect(within(rows[0]!).getAllByRole('cell')[0]!.textContent).toBe('full');
    expect(within(rows[0]!).getByRole('list', { name: 'Levels over time of Agent A' }).textContent).toBe('partial');
    fireEvent.click(within(fleet()).getByRole('button', { name: 'Export summary.json' }));
    const summary = JSON.parse(downloads.at(-1)!.body) as { kind: string; agents: { key: string; level: string | null }[] };
    expect(summary.kind).toBe('a2a-interop-fleet-summary');
    expect(summary.agents.map((a) => a.key)).toEqual(['agent:a', 'agent:b']);
    fireEvent.click(within(fleet()).getByRole('button', { name: 'Export summary.html' }));
    expect(downloads.at(-1)).toMatchObject({ filename: 'summary.html', mimeType: 'text/html' });
  });

  it('runs only the agents left ticked, at most "Agents at once" at a time', async () => {
    const { ran } = await setup();
    fireEvent.click(await within(fleet()).findByRole('checkbox', { name: 'Agent B' }));
    fireEvent.change(within(fleet()).getByRole('spinbutton', { name: 'Agents at once' }), { target: { value: '99' } });
    expect((within(fleet()).getByRole('spinbutton', { name: 'Agents at once' }) as HTMLInputElement).value).toBe('6');
    fireEvent.click(within(fleet()).getByRole('button', { name: 'Run selected (1)' }));
    await waitFor(() => expect(within(fleet()).getByRole('status', { name: 'Fleet status' }).textContent).toMatch(/^Fleet run finished/));
    expect(ran).toEqual(['https://a.example/a2a']);
  });
});
