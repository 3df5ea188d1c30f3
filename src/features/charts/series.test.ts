import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { firstEventByOperation, latencyByOperation } from './charts-panel';

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
