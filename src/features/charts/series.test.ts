import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { firstEventByOperation, labelWidthFor, latencyByOperation, msTicks, tickMs } from './charts-panel';

describe('chart series by operation', () => {
  const run = applyEvents(initialRunState(), syntheticRun({ flawed: true }));

  it('labels latency by operation (JSON-RPC method or HTTP method and path), never by exchange id', () => {
    const ops = latencyByOperation(run);
    expect(ops.length).toBeGreaterThan(1);
    expect(ops.map((o) => o.operation)).toContain('GET /.well-known/agent-card.json');
    expect(ops.some((o) => o.operation === 'message/send')).toBe(true);
    expect(ops.every((o) => !/^x\d+$/.test(o.operation))).toBe(true);
    expect(ops.reduce((n, o) => n + o.count, 0)).toBe(run.exchangeOrder.filter((id) => run.exchanges[id]?.timings.endedAt).length);
    for (const o of ops) expect(o.max).toBeGreaterThanOrEqual(o.p50);
  });

  it('gives the time to the first SSE event per streaming operation', () => {
    const first = firstEventByOperation(run);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((f) => f.streams > 0 && f.max >= f.p50)).toBe(true);
  });
});

describe('chart axes (issue 25 item 9)', () => {
  it('ticks are round steps from 0 to at least the largest value', () => {
    expect(msTicks(474, 5)).toEqual([0, 100, 200, 300, 400, 500]);
    expect(msTicks(1234, 3)).toEqual([0, 500, 1000, 1500]);
    expect(msTicks(37, 5)).toEqual([0, 10, 20, 30, 40]);
    expect(msTicks(2600, 5)).toEqual([0, 1000, 2000, 3000]);
    expect(msTicks(0, 5)).toEqual([0, 1]);
    for (const [max, n] of [
      [7, 3],
      [999, 5],
      [12_345, 3],
      [88, 5],
    ] as const) {
      const t = msTicks(max, n);
      expect(t.at(-1)).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(n + 2);
      const steps = new Set(t.slice(1).map((v, i) => Math.round((v - t[i]!) * 1000)));
      expect(steps.size).toBe(1);
    }
  });
  it('tick labels are short', () => {
    expect([0, 250, 1000, 1500, 12_000].map(tickMs)).toEqual(['0', '250 ms', '1 s', '1.5 s', '12 s']);
  });
  it('label columns fit the longest label, narrower on a phone', () => {
    expect(labelWidthFor(['tasks/get', 'message/stream'], false)).toBeGreaterThanOrEqual(14 * 7);
    expect(labelWidthFor(['x'.repeat(30)], false)).toBeLessThanOrEqual(264);
    expect(labelWidthFor(['x'.repeat(30)], true)).toBeLessThanOrEqual(142);
  });
});
