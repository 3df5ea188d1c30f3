/**
 * The push delivery checks against the test agent, which really POSTs to the run's webhook inbox (the Node host's
 * in-process inbox on 127.0.0.1): clean agents pass on every generation, each delivery defect fails its check,
 * deliveries are on the timeline with the credentials masked, and a host without an inbox skips saying why.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../../hosts/node';
import type { DefectName } from '../../../testing/defect-agent/defects';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent/index';
import type { PermittedName } from '../../../testing/defect-agent/permitted';
import type { CheckResult } from '../../model/check';
import type { RunEvent } from '../../model/events';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';
import { PUSH_WEBHOOK_URL } from './push-config';

const PUSH = ['lifecycle.push-config', 'lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-order', 'lifecycle.push-after-delete'];

const agents: RunningDefectAgent[] = [];
afterAll(() => Promise.all(agents.map((a) => a.close())));

type Target = { generation: 'legacy' | 'v0.2' | 'v0.3' | 'v1.0'; binding?: 'JSONRPC' | 'HTTP+JSON' };

async function run(target: Target, o: { defects?: DefectName[]; permitted?: PermittedName[]; inbox?: false; slowTaskMs?: number } = {}) {
  const agent = await startDefectAgent({
    ...target,
    defects: o.defects,
    permitted: o.permitted,
    slowTaskMs: o.slowTaskMs ?? 300,
    stepMs: 10,
    features: { push: true },
  });
  agents.push(agent);
  const events: RunEvent[] = [];
  const report = await runConformance(
    createNodeHost(o.inbox === false ? { inbox: false } : {}),
    { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), timeoutMs: 5000, only: PUSH },
    (e) => events.push(e),
  );
  await agent.close();
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { byId, events, report };
}

const statuses = (byId: Record<string, CheckResult>) => Object.fromEntries(PUSH.map((id) => [id, byId[id]?.status]));

describe('push delivery against the test agent', () => {
  it('a clean agent passes every push check on v1.0 (both bindings), v0.3 and v0.2; legacy has no delete', async () => {
    const targets: Target[] = [{ generation: 'v1.0' }, { generation: 'v1.0', binding: 'HTTP+JSON' }, { generation: 'v0.3' }, { generation: 'v0.2' }];
    // Five runs at once: a slow task long enough to still be running when its config is set on a busy machine.
    const [legacy, ...runs] = await Promise.all([run({ generation: 'legacy' }, { slowTaskMs: 900 }), ...targets.map((t) => run(t, { slowTaskMs: 900 }))]);
    for (const { byId } of runs) {
      expect(statuses(byId), JSON.stringify(Object.values(byId).map((r) => [r.id, r.message]))).toEqual(Object.fromEntries(PUSH.map((id) => [id, 'pass'])));
      expect(byId['lifecycle.push-delivery']?.message).toMatch(/completed/i);
      // The race-free path: the config is set (and deleted) while a task waits for our input.
      expect(byId['lifecycle.push-after-delete']?.message).toMatch(/paused in input-required/);
    }
    expect(statuses(legacy?.byId ?? {})).toMatchObject({ 'lifecycle.push-delivery': 'pass', 'lifecycle.push-auth': 'pass', 'lifecycle.push-order': 'pass' });
    expect(legacy?.byId['lifecycle.push-after-delete']?.status).toBe('skip');
  });

  it('v1.0 defects fail their own check (MUST), and deliveries are on the timeline with credentials masked', async () => {
    const { byId, events } = await run({ generation: 'v1.0' }, { defects: ['push-wrong-shape', 'push-no-token', 'push-after-delete'] });
    expect(byId['lifecycle.push-delivery']).toMatchObject({ status: 'fail' });
    expect(byId['lifecycle.push-delivery']?.message).toMatch(/bare Task/);
    expect(byId['lifecycle.push-auth']).toMatchObject({ status: 'fail' });
    expect(byId['lifecycle.push-auth']?.message).toMatch(/without an Authorization header/);
    expect(byId['lifecycle.push-after-delete']).toMatchObject({ status: 'fail' });
    const inbox = events.filter((e) => e.type === 'http-request' && e.lane === 'push inbox');
    expect(inbox.length).toBeGreaterThan(0);
    const sent = events.filter((e) => e.type === 'http-request' && /PushNotificationConfig/.test(e.request.body ?? ''));
    expect(sent.length).toBeGreaterThan(0);
    // Neither the config's token/credentials nor the inbox address leak into any event.
    const all = JSON.stringify(events);
    expect(all).not.toMatch(/\/inbox\/[0-9a-f]{32}/);
    expect(all).not.toMatch(/a2a-interop-[0-9a-f]{8}-/);
  });

  it('out-of-order deliveries are an advisory (no sentence orders webhook calls); retries stay clean', async () => {
    const bad = await run({ generation: 'v1.0' }, { defects: ['push-out-of-order'] });
    expect(bad.byId['lifecycle.push-order']).toMatchObject({ status: 'advisory' });
    expect(bad.byId['lifecycle.push-order']?.message).toMatch(/after the terminal/);
    const retries = await run({ generation: 'v0.3' }, { permitted: ['push-retries'] });
    expect(statuses(retries.byId)).toEqual(Object.fromEntries(PUSH.map((id) => [id, 'pass'])));
  });

  it('v0.3: a v1.0-shaped payload and a missing token are advisories (examples only before v1.0)', async () => {
    const { byId } = await run({ generation: 'v0.3' }, { defects: ['push-wrong-shape', 'push-no-token'] });
    expect(byId['lifecycle.push-delivery']).toMatchObject({ status: 'advisory' });
    expect(byId['lifecycle.push-delivery']?.message).toMatch(/StreamResponse/);
    expect(byId['lifecycle.push-auth']).toMatchObject({ status: 'advisory' });
  });

  it('without an inbox the delivery checks skip saying why; push-config still runs with its fixed URL', async () => {
    const { byId, events } = await run({ generation: 'v1.0' }, { inbox: false });
    expect(byId['lifecycle.push-config']?.status).toBe('pass');
    expect(events.some((e) => e.type === 'http-request' && (e.request.body ?? '').includes(PUSH_WEBHOOK_URL))).toBe(true);
    for (const id of PUSH.slice(1)) {
      expect(byId[id]).toMatchObject({ status: 'skip', skipKind: 'tool-limit' });
      expect(byId[id]?.message).toMatch(/no webhook inbox/);
    }
  });
});
