/** The registry's fleet run: targets, the concurrency limit, Stop, our failures, the summary and levels over time. */
import { describe, expect, it } from 'vitest';
import { FLEET_SUMMARY_KIND, FLEET_SUMMARY_VERSION, fleetMarkdown } from '../../exporters/fleet-summary';
import type { RunMeta } from '../../lib/db';
import type { Report } from '../../lib/engine';
import type { StoredAgent } from '../../lib/registry-db';
import { conformantReport, sampleReport } from '../../testing/fixtures/reports';
import { fleetSummaryOf, fleetTargets, levelHistory, runFleet, type FleetTarget } from './fleet-run';

const stored = (id: string, url: string | undefined, local?: Record<string, unknown>): StoredAgent =>
  ({
    id,
    agent: {
      id,
      version: '1',
      name: `Agent ${id}`,
      endpoints: url ? [{ protocol: 'a2a', url, priority: 0 }] : [],
      ...(local && { local }),
    },
    createdAt: 0,
    updatedAt: 0,
  }) as unknown as StoredAgent;

const reportFor = (t: FleetTarget): Report => ({ ...(t.key.endsWith('bad') ? sampleReport() : conformantReport()), agentUrl: t.url });

describe('fleetTargets', () => {
  it('every selected agent with an http(s) URL; a literal header is its credential, a ${VAR} reference is not', () => {
    const list = [
      stored('a', 'https://a.example/a2a', { headers: { Authorization: 'Bearer t0k' } }),
      stored('b', 'https://b.example/a2a', { headers: { 'X-API-Key': '${B_KEY}' } }),
      stored('c', undefined),
      stored('d', 'https://d.example/', { headers: { 'X-API-Key': 'k' } }),
    ];
    const all = fleetTargets(list);
    expect(all.targets.map((t) => [t.key, t.credentials])).toEqual([
      ['a', { kind: 'bearer', token: 't0k' }],
      ['b', { kind: 'none' }],
      ['d', { kind: 'header', name: 'X-API-Key', value: 'k' }],
    ]);
    expect(all.skipped).toEqual([{ key: 'c', why: 'no card URL and no http(s) endpoint to run' }]);
    expect(fleetTargets(list, new Set(['b'])).targets.map((t) => t.key)).toEqual(['b']);
  });
});

describe('runFleet', () => {
  const targets = Array.from({ length: 9 }, (_, i) => ({
    key: `agent-${i}${i === 4 ? '-bad' : ''}`,
    name: `A${i}`,
    url: `https://a${i}.example/`,
    credentials: { kind: 'none' } as const,
  }));

  it('runs at most `concurrency` agents at once, one row each, sorted by key', async () => {
    let now = 0;
    let peak = 0;
    const rows = await runFleet(targets, {
      concurrency: 3,
      signal: new AbortController().signal,
      run: async (t) => {
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 5));
        now--;
        return reportFor(t);
      },
    });
    expect(peak).toBe(3);
    expect(rows.map((r) => r.key)).toEqual(targets.map((t) => t.key).sort());
    expect(rows.find((r) => r.key === 'agent-0')).toMatchObject({ outcome: 'assessed', level: 'full', name: 'A0', url: 'https://a0.example/' });
    expect(rows.find((r) => r.key === 'agent-0')!.categories.lifecycle.passed).toBeGreaterThan(0);
  });

  it('our failure on one agent is its row (not assessed: tool failure); after Stop the rest are not run', async () => {
    const ctl = new AbortController();
    const rows = await runFleet(targets, {
      concurrency: 2,
      signal: ctl.signal,
      run: async (t) => {
        if (t.key === 'agent-1') throw new Error('boom');
        if (t.key === 'agent-3') ctl.abort();
        return reportFor(t);
      },
    });
    expect(rows).toHaveLength(targets.length);
    expect(rows.find((r) => r.key === 'agent-1')).toMatchObject({
      outcome: 'not-assessed',
      levelLabel: 'not assessed (tool failure)',
      message: 'Our tool failed on this agent: boom',
    });
    const notRun = rows.filter((r) => r.outcome === 'not-run');
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun[0]!.message).toBe('Stopped before this agent started.');
  });

  it('the summary is the one run-many writes (kind, version, rows), exportable as Markdown', async () => {
    const rows = await runFleet(targets.slice(0, 2), { concurrency: 4, signal: new AbortController().signal, run: async (t) => reportFor(t) });
    const s = fleetSummaryOf(rows, { timeoutMs: 60_000, wallMs: 1234.4, now: new Date(0) });
    expect(s).toMatchObject({ kind: FLEET_SUMMARY_KIND, version: FLEET_SUMMARY_VERSION, generatedAt: '1970-01-01T00:00:00.000Z', wallMs: 1234 });
    expect(s.agents.map((r) => r.key)).toEqual(['agent-0', 'agent-1']);
    expect(fleetMarkdown(s)).toMatch(/^\| A0<br>https:\/\/a0\.example\/ \| \*\*full\*\* \|/m);
  });
});

describe('levelHistory', () => {
  it("an agent's finished runs from the History, oldest first, matched by URL, at most n", () => {
    const s = stored('a', 'https://a.example/a2a');
    const run = (runId: string, agentUrl: string, startedAt: number, level: RunMeta['level'], status: RunMeta['status'] = 'completed') =>
      ({ runId, agentUrl, startedAt, level, status, provisional: false }) as RunMeta;
    const runs = [
      run('3', 'https://a.example/a2a/', 30, 'full'),
      run('1', 'https://a.example/a2a', 10, 'partial'),
      run('x', 'https://other.example/', 20, 'full'),
      run('2', 'https://A.example/a2a/.well-known/agent-card.json', 20, 'minimal'),
      run('4', 'https://a.example/a2a', 40, null, 'running'),
    ];
    expect(levelHistory(s, runs).map((r) => r.runId)).toEqual(['1', '2', '3']);
    expect(levelHistory(s, runs, 2).map((r) => r.runId)).toEqual(['2', '3']);
  });
});
