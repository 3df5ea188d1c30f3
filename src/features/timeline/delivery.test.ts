import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState, type RunEvent } from '../../lib/engine';
import { deliveryLabel, PUSH_INBOX_LANE } from './delivery';
import { buildTimeline, NO_TIMELINE_FILTER } from './layout';

describe('push deliveries on the timeline', () => {
  it('names what a delivery carried, per generation, and copes with garbage', () => {
    expect(deliveryLabel('{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}')).toBe(
      'Push delivery ← statusUpdate TASK_STATE_COMPLETED',
    );
    expect(deliveryLabel('{"id":"t","kind":"task","status":{"state":"completed"}}')).toBe('Push delivery ← task completed');
    expect(deliveryLabel('<html>')).toBe('Push delivery ← (not JSON)');
    expect(deliveryLabel('[1]')).toBe('Push delivery ← (not an object)');
    expect(deliveryLabel(undefined)).toBe('Push delivery ← (not JSON)');
  });

  it('a delivery exchange on the push inbox lane is labelled as a delivery', () => {
    const at = 1000;
    const events: RunEvent[] = [
      { type: 'run-started', at, runId: 'r', agentUrl: 'http://a', options: { timeoutMs: 1, credentials: 'none' }, tool: { name: 'x', version: '1' } },
      {
        type: 'http-request',
        at,
        exchangeId: 'x1',
        checkId: 'lifecycle.push-delivery',
        lane: PUSH_INBOX_LANE,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:1/inbox/[REDACTED]',
          headers: {},
          body: '{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}',
          bodySize: 10,
        },
      },
      {
        type: 'http-response',
        at: at + 1,
        exchangeId: 'x1',
        response: { status: 200, headers: {}, bodySize: 0, truncated: false, stream: false },
        timings: { startedAt: at, endedAt: at },
      },
    ];
    const { rows } = buildTimeline(applyEvents(initialRunState(), events), new Set(), NO_TIMELINE_FILTER);
    const item = rows.find((r) => r.kind === 'exchange');
    expect(item).toMatchObject({ lane: PUSH_INBOX_LANE, label: 'Push delivery ← task TASK_STATE_WORKING', tone: 'ok' });
  });
});
