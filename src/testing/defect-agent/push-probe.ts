/**
 * Test helper: what the test agent POSTs to a webhook. Sets a push config (url, token, Bearer authentication) on a
 * slow task, pointing at a fresh address of an in-process inbox, and returns the deliveries received until the task
 * finished (plus a short grace for stragglers). `deleteFirst` deletes the config right after setting it.
 */
import type { InboxDelivery } from '../../engine/model/inbox';
import { createNodeInbox } from '../../inbox/node';
import type { Driver, WireJson } from './wire-client';

const PROBE_TOKEN = 'tok-push-probe';
const PROBE_CREDENTIALS = 'cred-push-probe';

export async function pushDeliveries(d: Driver, slowTaskMs: number, opts: { deleteFirst?: boolean } = {}): Promise<(InboxDelivery & { json: WireJson })[]> {
  const inbox = createNodeInbox();
  const lease = await inbox.open({ expect: { token: PROBE_TOKEN, authorization: `Bearer ${PROBE_CREDENTIALS}` } });
  try {
    const t = (await d.send('Prepare the slow report', { nonBlocking: true })).task;
    const set = await d.pushSet(t.id, { url: lease.url, token: PROBE_TOKEN, authentication: { scheme: 'Bearer', credentials: PROBE_CREDENTIALS } });
    if (opts.deleteFirst) await d.rpc('DeleteTaskPushNotificationConfig', { taskId: t.id, id: set.result.id });
    // After a delete nothing should come: wait about as long as the task runs, not for a delivery.
    await lease.waitFor((ds) => ds.some((x) => /COMPLETED|"completed"/.test(x.body)), slowTaskMs + (opts.deleteFirst ? 400 : 1500));
    await new Promise((r) => setTimeout(r, 150));
    return lease.deliveries().map((x) => ({ ...x, json: JSON.parse(x.body) as WireJson }));
  } finally {
    await lease.close();
    await inbox.close();
  }
}
