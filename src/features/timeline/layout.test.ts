import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { buildTimeline, NO_TIMELINE_FILTER, pct } from './layout';

describe('timeline layout', () => {
  const s = applyEvents(initialRunState(), syntheticRun({ targetEvents: 10_000 }));
  it('has one lane per test task with every exchange, SSE event and task state, sorted by time within a lane', () => {
    const m = buildTimeline(s);
    const lanes = m.rows.filter((r) => r.kind === 'lane');
    expect(lanes.map((l) => l.lane)).toEqual(s.lanes);
    expect(m.itemCount).toBe(s.exchangeOrder.length + s.sse.length + s.taskStates.length);
    expect(m.rows.length).toBe(m.itemCount + lanes.length);
    let lane = '';
    let last = -Infinity;
    for (const r of m.rows) {
      if (r.kind === 'lane') {
        lane = r.lane;
        last = -Infinity;
        continue;
      }
      expect(r.lane).toBe(lane);
      expect(r.start).toBeGreaterThanOrEqual(last);
      last = r.start;
    }
    expect(m.t0).toBe(s.startedAt);
    expect(m.t1).toBeGreaterThan(m.t0);
  });
  it('collapsing a lane hides its items but keeps the header with the count', () => {
    const lane = s.lanes.find((l) => l.startsWith('streaming'))!;
    const m = buildTimeline(s, new Set([lane]));
    const header = m.rows.find((r) => r.kind === 'lane' && r.lane === lane);
    expect(header).toMatchObject({ collapsed: true });
    expect(m.rows.some((r) => r.kind !== 'lane' && r.lane === lane)).toBe(false);
    expect(header && header.kind === 'lane' ? header.items : 0).toBeGreaterThan(1000);
  });
  it('marks transport failures by blame and maps time to a clamped percentage', () => {
    const withError = applyEvents(s, [
      { type: 'http-request', at: s.finishedAt! + 1, exchangeId: 'xe', lane: 'L', request: { method: 'GET', url: 'http://a/x', headers: {}, bodySize: 0 } },
      {
        type: 'http-response',
        at: s.finishedAt! + 2,
        exchangeId: 'xe',
        error: { source: 'proxy', code: 'connect_failed', message: 'm', blame: 'unknown' },
        timings: { startedAt: s.finishedAt! + 1, endedAt: s.finishedAt! + 2 },
      },
    ]);
    const row = buildTimeline(withError).rows.find((r) => r.key === 'xe');
    expect(row).toMatchObject({ tone: 'tool', detail: expect.stringContaining('proxy connect_failed') });
    expect(pct(5, 0, 10)).toBe(50);
    expect(pct(-5, 0, 10)).toBe(0);
    expect(pct(50, 0, 10)).toBe(100);
  });
  it('filters by check, kind and status; lanes left empty by a filter are dropped', () => {
    const flawed = applyEvents(initialRunState(), syntheticRun({ flawed: true }));
    const all = buildTimeline(flawed);
    const checkId = flawed.exchanges[flawed.exchangeOrder.find((id) => flawed.exchanges[id]?.checkId?.startsWith('streaming'))!]!.checkId!;
    const one = buildTimeline(flawed, new Set(), { ...NO_TIMELINE_FILTER, check: checkId });
    const items = one.rows.filter((r) => r.kind !== 'lane');
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((r) => r.checkId === checkId)).toBe(true);
    expect(one.itemCount).toBeLessThan(all.itemCount);
    const sseOnly = buildTimeline(flawed, new Set(), { ...NO_TIMELINE_FILTER, kinds: new Set(['sse']) });
    expect(sseOnly.rows.filter((r) => r.kind !== 'lane').every((r) => r.kind === 'sse')).toBe(true);
    expect(sseOnly.rows.filter((r) => r.kind === 'lane').every((l) => l.kind === 'lane' && l.items > 0)).toBe(true);
    const withError = applyEvents(flawed, [
      {
        type: 'http-request',
        at: flawed.finishedAt! + 1,
        exchangeId: 'xe',
        lane: 'L',
        request: { method: 'GET', url: 'http://a/x', headers: {}, bodySize: 0 },
      },
      {
        type: 'http-response',
        at: flawed.finishedAt! + 2,
        exchangeId: 'xe',
        error: { source: 'proxy', code: 'connect_failed', message: 'm', blame: 'tool' },
        timings: { startedAt: flawed.finishedAt! + 1, endedAt: flawed.finishedAt! + 2 },
      },
    ]);
    const tool = buildTimeline(withError, new Set(), { ...NO_TIMELINE_FILTER, status: 'tool' });
    expect(tool.rows.flatMap((r) => (r.kind === 'lane' ? [] : [r.key]))).toEqual(['xe']);
    const ok = buildTimeline(withError, new Set(), { ...NO_TIMELINE_FILTER, status: 'ok' });
    expect(ok.itemCount).toBe(all.itemCount);
  });
  it('labels an exchange by its JSON-RPC method first, then HTTP method and path', () => {
    const row = buildTimeline(s).rows.find((r) => r.kind === 'exchange' && r.label.includes('POST'));
    expect(row && row.kind === 'exchange' ? row.label : '').toMatch(/^[\w/]+ · POST \//);
  });
});
