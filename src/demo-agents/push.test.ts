/**
 * The SDK demo agents deliver push notifications through the SDK's DefaultPushNotificationSender: the run's inbox
 * receives them and the push checks judge them (what the SDKs do differently from the spec is pinned here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportResults } from '../engine/report/build';
import { runConformance } from '../engine/runner/run';
import type { RunOptions } from '../engine/runner/options';
import { createNodeHost } from '../hosts/node';
import { startServer, type RunningServer } from '../server/main';
import { isLoopbackWebhook, loopbackOnly } from './push';

const PUSH = ['lifecycle.push-config', 'lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-order', 'lifecycle.push-after-delete'];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 400, stepMs: 10 });
});
afterAll(() => server?.close());

async function push(agent: string, prefer?: RunOptions['prefer']) {
  const report = await runConformance(createNodeHost(), { agentUrl: `${server.url}/demo/${agent}`, timeoutMs: 8000, only: PUSH, prefer }, () => {});
  const results = reportResults(report);
  return {
    statuses: Object.fromEntries(results.map((r) => [r.id, r.status])),
    detail: results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n'),
    byId: Object.fromEntries(results.map((r) => [r.id, r])),
  };
}

describe('demo agents: push through the SDK', () => {
  it('both SDKs pass every push check: 0.3.14 POSTs the Task with the token header, 1.3.0 a StreamResponse with Authorization', async () => {
    const [v03, v1] = await Promise.all([push('v03'), push('v1')]);
    expect(v03.statuses, v03.detail).toEqual(Object.fromEntries(PUSH.map((id) => [id, 'pass'])));
    expect(v1.statuses, v1.detail).toEqual(Object.fromEntries(PUSH.map((id) => [id, 'pass'])));
  });

  it('SDK deviation (pinned): 1.3.0 sends v1.0 StreamResponses to a config set through its v0.3 compat interface (an advisory in v0.3)', async () => {
    const { byId, detail } = await push('v1', { protocolVersion: '0.3' });
    expect(byId['lifecycle.push-delivery']?.status, detail).toBe('advisory');
    expect(byId['lifecycle.push-delivery']?.message).toMatch(/v1\.0 StreamResponse .*not the v0\.3 Task object/);
    expect(byId['lifecycle.push-auth']?.status, detail).toBe('pass');
    expect(byId['lifecycle.push-after-delete']?.status, detail).toBe('pass');
  });

  it('the sender only sees loopback webhooks (a demo agent never POSTs to the internet)', async () => {
    expect(isLoopbackWebhook('http://127.0.0.1:9/inbox/x')).toBe(true);
    expect(isLoopbackWebhook('http://localhost/x')).toBe(true);
    expect(isLoopbackWebhook('https://example.com/a2a-interop/push-webhook')).toBe(false);
    expect(isLoopbackWebhook('http://127.0.0.1.evil.example/')).toBe(false);
    const store = {
      load: async () => [{ url: 'http://127.0.0.1:1/a' }, { url: 'https://example.com/b' }],
      loadWithMetadata: async () => [{ config: { url: 'https://example.com/b' } }],
      other: () => 'kept',
    };
    const seen = loopbackOnly(store);
    expect(await seen.load()).toEqual([{ url: 'http://127.0.0.1:1/a' }]);
    expect(await seen.loadWithMetadata()).toEqual([]);
    expect(seen.other()).toBe('kept');
  });
});
