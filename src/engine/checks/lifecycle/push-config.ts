/**
 * lifecycle.push-config: push notification configs can be set, read back, listed and deleted when the card declares push.
 */
import type { Evidence, Generation } from '../../model/check';
import type { CallOutcome } from '../../protocol/dialect';
import { isA2AError } from '../../protocol/errors';
import { isTerminal } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContext, CheckContextWith } from '../context';
import { defineCheck, exchangeEvidence, refusedForCredentials, skip, toolLimit, type Verdict } from '../define';
import { brokenCallVerdict, errText, rateLimited } from '../setups/outcomes';
import { readBack, startRunningTask } from '../setups/tasks';
import { graded } from './shared';

/**
 * The webhook URL the push-config check registers when the host has no inbox (or the agent refuses the inbox's
 * address). An https URL on a public, resolvable host, so an agent that
 * validates webhook URLs against SSRF (v1.0.1 §13.2: scheme, private and loopback ranges, DNS) accepts it;
 * example.com is reserved for documentation (RFC 2606) and its server ignores what it is sent, so no third party
 * receives the test task's notifications. We never listen there: the check judges the config answers; delivery is push-delivery.ts's, through the inbox.
 */
export const PUSH_WEBHOOK_URL = 'https://example.com/a2a-interop/push-webhook';

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A config answer read per generation: its url and id, and what is wrong with its shape. */
function readConfig(v: unknown, g: Generation, rest: boolean, taskId: string): { url?: string; id?: string; hard: string[]; weak: string[] } {
  const hard: string[] = [];
  const weak: string[] = [];
  if (!isRecord(v)) return { hard: [`the answer is not a push notification config object (got ${JSON.stringify(v)?.slice(0, 60) ?? 'nothing'})`], weak };
  if (g === 'v1.0') {
    let flat: Record<string, unknown> = v;
    if (typeof v.url !== 'string' && isRecord(v.pushNotificationConfig) && typeof v.pushNotificationConfig.url === 'string') {
      weak.push(
        'the config is nested as {"pushNotificationConfig": {…}} (the §3.1.7 text says PushNotificationConfig; the proto returns the flat TaskPushNotificationConfig)',
      );
      flat = v.pushNotificationConfig;
    }
    if (typeof flat.url !== 'string') hard.push('"url" is missing (REQUIRED in TaskPushNotificationConfig)');
    const id = str(flat.id) ?? str(v.id);
    if (!id) weak.push('the config carries no "id", so it cannot be read back or deleted by id');
    const tid = str(v.taskId) ?? str(flat.taskId);
    if (tid !== undefined && tid !== taskId) hard.push(`"taskId" ${tid} names another task than ${taskId}`);
    return { url: str(flat.url), id, hard, weak };
  }
  const inner = isRecord(v.pushNotificationConfig) ? v.pushNotificationConfig : undefined;
  if (!inner) hard.push('"pushNotificationConfig" is missing (required)');
  else if (typeof inner.url !== 'string') hard.push('"pushNotificationConfig.url" is missing (required)');
  if (g === 'legacy') {
    if (typeof v.id !== 'string') hard.push('"id" (the task id) is missing (required)');
    else if (v.id !== taskId) hard.push(`"id" ${v.id} names another task than ${taskId}`);
    return { url: str(inner?.url), hard, weak };
  }
  const name = str(v.name);
  if (name !== undefined && !name.startsWith(`tasks/${taskId}/`)) hard.push(`"name" ${name} names another task than ${taskId}`);
  if (typeof v.taskId === 'string') {
    if (v.taskId !== taskId) hard.push(`"taskId" ${v.taskId} names another task than ${taskId}`);
  } else if (!(rest && g === 'v0.3' && name !== undefined)) hard.push('"taskId" is missing (required)');
  const id = str(inner?.id) ?? (name !== undefined ? name.split('/').pop() : undefined);
  return { url: str(inner?.url), id, hard, weak };
}

/** The configs of a list answer: v0.x an array, v1.0 and v0.3 REST {configs} (absent = none); undefined if unreadable. */
function listedConfigs(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isRecord(v)) return v.configs === undefined ? [] : Array.isArray(v.configs) ? v.configs : undefined;
  return undefined;
}

/** Whether a listed config is ours (by id, else by url). */
function isOurConfig(c: unknown, id: string | undefined, url: string): boolean {
  if (!isRecord(c)) return false;
  const inner = isRecord(c.pushNotificationConfig) ? c.pushNotificationConfig : c;
  const cid = str(inner.id) ?? str(c.id) ?? str(c.name)?.split('/').pop();
  return id !== undefined && cid !== undefined ? cid === id : inner.url === url;
}

/** Our webhook URL refused as invalid (v1.0.1 §13.2 SSRF/allowlist validation): InvalidParams, or REST 400 INVALID_ARGUMENT. */
function webhookRefused(o: CallOutcome, ctx: CheckContext): boolean {
  if (o.kind !== 'error') return false;
  if (isA2AError(o, 'InvalidParams')) return true;
  return (
    !!ctx.dialect?.isRest &&
    o.http.status === 400 &&
    (o.error.reason === undefined || o.error.reason === 'INVALID_ARGUMENT') &&
    (o.error.status === undefined || o.error.status === 'INVALID_ARGUMENT')
  );
}

/**
 * lifecycle.push-config (docs/spec-review/lifecycle.md, push-config): on a task that is still running, set a config
 * (url + token), read it back, list it, delete it, then check it is gone and that a second delete does not crash.
 * Legacy has only set and get. MUST findings fail; what a generation only describes (v0.x: the methods are optional
 * and capabilities descriptive) is an advisory.
 */
async function pushConfigCheck(ctx: CheckContextWith<'dialect'>): Promise<Verdict> {
  const lane = ctx.lane('push config');
  const started = await startRunningTask(ctx, 'push config', 0, lane);
  if (!started) return skip('No task could be started to attach a push config to.', 'precondition');
  const s = started.send;
  const blocked = refusedForCredentials(ctx, s.http);
  if (blocked) return blocked;
  if (s.kind === 'message') return skip('The agent replied with a Message; there is no task to attach a push config to.', 'not-applicable');
  if (s.kind !== 'task') return brokenCallVerdict(ctx, s, 'starting a task for the push config', { input: started.input });
  if (!s.task.id) return skip('The task has no id, so no push config can be attached (see lifecycle.send).', 'precondition', [exchangeEvidence(s.http)]);
  const taskId = s.task.id;
  const token = `a2a-interop-${ctx.uuid()}`;
  ctx.http.redactor.addSecret(token);
  // The run's webhook inbox when the host has one (its address masked in what is recorded), else the fixed URL.
  const lease = await ctx.http.host.inbox?.open({ expect: { token }, signal: ctx.http.signal }).catch(() => undefined);
  ctx.http.redactor.addSecret(lease && /\/inbox\/([0-9a-f]{32})/.exec(lease.url)?.[1]);
  try {
    return await pushConfigOn(ctx, taskId, token, lease?.url ?? PUSH_WEBHOOK_URL, lane, s, !!lease);
  } finally {
    await lease?.close();
  }
}

async function pushConfigOn(
  ctx: CheckContextWith<'dialect'>,
  taskId: string,
  token: string,
  hookUrl: string,
  lane: string,
  s: Extract<CallOutcome, { kind: 'task' }>,
  inbox: boolean,
): Promise<Verdict> {
  const d = ctx.dialect;
  const g = ctx.generation;
  const v1 = g === 'v1.0';
  let webhook = hookUrl;
  const hard: string[] = [];
  const weak: string[] = [];
  const evidence: Evidence[] = [exchangeEvidence(s.http, 'task started')];
  // A refusal or a missing effect: MUST in v1.0 (§3.1.7-§3.1.10), described only before.
  const miss = (m: string) => (v1 ? hard : weak).push(m);
  const stillRunning = async () => {
    const b = await readBack(ctx, taskId, lane);
    return b.kind === 'task' && !isTerminal(b.task.state, g);
  };
  const opts = { lane, checkId: ctx.checkId };
  const setWhat = d.describe('pushSet', taskId);

  let set = await d.pushSet(ctx.http, { taskId, url: webhook, token, ...opts });
  if (g === 'v0.3' && d.isRest && set.kind === 'error' && set.http.status === 400) {
    // The v0.3 proto's body is the config itself; the §7.5 document shows {config: …}: try that form too.
    evidence.push(exchangeEvidence(set.http, `${setWhat} ({name, pushNotificationConfig})`));
    set = await d.pushSet(ctx.http, { taskId, url: webhook, token, restBody: 'config', ...opts });
  }
  evidence.push(exchangeEvidence(set.http, setWhat));
  if (set.kind !== 'ok') {
    const pre = refusedForCredentials(ctx, set.http) ?? rateLimited(set, setWhat);
    if (pre) return pre;
    if (inbox && webhookRefused(set, ctx)) {
      // Our inbox's (loopback) address refused: the fixed public URL still lets the config methods be judged.
      webhook = PUSH_WEBHOOK_URL;
      set = await d.pushSet(ctx.http, { taskId, url: webhook, token, ...opts });
      evidence.push(exchangeEvidence(set.http, setWhat));
    }
  }
  if (set.kind !== 'ok') {
    const pre = refusedForCredentials(ctx, set.http) ?? rateLimited(set, setWhat);
    if (pre) return pre;
    if (webhookRefused(set, ctx)) {
      return toolLimit(
        `The agent refused our webhook URL ${webhook} as invalid (${errText(set)}). Agents SHOULD validate webhook URLs (v1.0.1 §13.2), and this tool has no other URL to offer, so push configs could not be exercised. To judge them, allow that URL for the test run, or give a public webhook address that forwards to our inbox (CLI --webhook-url).`,
        evidence,
      );
    }
    const v = brokenCallVerdict(ctx, set, `${setWhat} on an agent that declares push notifications`);
    if (v.status !== 'fail') return { ...v, evidence };
    if (v1) return { ...v, evidence };
    return {
      ...v,
      evidence,
      advisory: `The push config methods are ${g === 'v0.3' ? 'optional (v0.3.0 §11.1.3 "MAY implement")' : 'described, not required,'} in ${g}, and capabilities are descriptive.`,
    };
  }
  const c = readConfig(set.value, g, d.isRest, taskId);
  // The JSON-RPC envelope of each answer (JSON-RPC 2.0 §5: the request id echoed, one of result/error).
  const envelope = (o: CallOutcome, what: string) => hard.push(...o.envelopeProblems.map((x) => `${what} answer: ${x}`));
  envelope(set, 'set');
  hard.push(...c.hard.map((x) => `set answer: ${x}`));
  weak.push(...c.weak.map((x) => `set answer: ${x}`));
  if (c.url !== undefined && c.url !== webhook) hard.push(`set answer: url ${JSON.stringify(c.url)} is not the one sent (${webhook})`);
  const configId = c.id;

  const get = await d.pushGet(ctx.http, { taskId, configId, ...opts });
  evidence.push(exchangeEvidence(get.http, 'get'));
  if (get.kind === 'ok') {
    envelope(get, 'get');
    const gc = readConfig(get.value, g, d.isRest, taskId);
    hard.push(...gc.hard.map((x) => `get answer: ${x}`));
    weak.push(...gc.weak.filter((x) => !c.weak.includes(x)).map((x) => `get answer: ${x}`));
    if (gc.url !== undefined && gc.url !== webhook) hard.push(`get answer: url ${JSON.stringify(gc.url)} is not the one set (${webhook})`);
  } else {
    const pre = refusedForCredentials(ctx, get.http) ?? rateLimited(get, 'reading the push config back');
    if (pre) return pre;
    const running = await stillRunning();
    if (v1 && running)
      hard.push(
        `get right after set failed (${errText(get)}) while the task is still running (§3.1.7: the configuration MUST persist until task completion or explicit deletion)`,
      );
    else weak.push(`get right after set failed (${errText(get)})${running ? '' : ' after the task had finished (kept "until task completion")'}`);
  }

  if (g !== 'legacy') {
    const list = await d.pushList(ctx.http, { taskId, ...opts });
    evidence.push(exchangeEvidence(list.http, d.pushMethod('list', taskId)));
    if (list.kind !== 'ok') miss(`list failed (${errText(list)})`);
    else {
      envelope(list, 'list');
      const configs = listedConfigs(list.value);
      if (!configs) miss(`the list answer is not a list of configs (${JSON.stringify(list.value)?.slice(0, 80)})`);
      else if (!configs.some((x) => isOurConfig(x, configId, webhook))) {
        if (await stillRunning())
          miss(`the list does not show the config just set${v1 ? ' (§3.1.9: MUST return all active push notification configurations)' : ''}`);
        else weak.push('the list does not show the config just set (the task had finished)');
      }
    }
    if (!configId) weak.push('the set answer carries no config id, so delete was not exercised');
    else {
      const del = await d.pushDelete(ctx.http, { taskId, configId, ...opts });
      evidence.push(exchangeEvidence(del.http, d.pushMethod('delete', taskId, configId)));
      if (del.kind !== 'ok') miss(`delete failed (${errText(del)})`);
      else {
        envelope(del, 'delete');
        const after = await d.pushGet(ctx.http, { taskId, configId, ...opts });
        evidence.push(exchangeEvidence(after.http, 'get after delete'));
        if (after.kind === 'ok') miss(`get after delete still returns the config${v1 ? ' (§3.1.8: MUST fail if the configuration does not exist)' : ''}`);
        const list2 = await d.pushList(ctx.http, { taskId, ...opts });
        const configs2 = list2.kind === 'ok' ? listedConfigs(list2.value) : undefined;
        if (configs2?.some((x) => isOurConfig(x, configId, webhook))) {
          evidence.push(exchangeEvidence(list2.http, 'list after delete'));
          miss(`the list still shows the config after delete${v1 ? ' (§3.1.9: only active configurations)' : ''}`);
        }
        // Idempotent (§3.1.10): a second delete has the same effect; a not-found error is fine, a crash is not.
        const again = await d.pushDelete(ctx.http, { taskId, configId, ...opts });
        if (again.kind === 'transport' || again.http.status >= 500) {
          evidence.push(exchangeEvidence(again.http, 'second delete'));
          miss(
            `a second delete of the same config answered ${again.kind === 'transport' ? 'nothing' : `HTTP ${again.http.status}`}${v1 ? ' (§3.1.10: delete MUST be idempotent)' : ''}`,
          );
        }
      }
    }
  }
  return graded(
    hard,
    weak,
    evidence,
    `Push config${configId ? ` ${configId}` : ''} set on running task ${taskId}, read back${g !== 'legacy' ? ', listed, deleted and gone' : ''}: every answer has the ${g} shape and our url.`,
    v1
      ? 'A nested config answer follows the §3.1.7 text (the proto says flat); a config without id, or missing after the task finished, breaks no requirement.'
      : `The push config methods are ${g === 'v0.3' ? 'optional (v0.3.0 §11.1.3 "MAY implement")' : 'described, not required,'} in ${g}: their effects are not required.`,
  );
}

export const lifecyclePushConfig = defineCheck({
  id: 'lifecycle.push-config',
  title: 'Push notification configs can be set, read back, listed and deleted when the card declares push',
  category: 'lifecycle',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.5 tasks/pushNotification/set, §7.6 get',
    'v0.2': 'v0.2.6 §7.5-§7.8 tasks/pushNotificationConfig/set, get, list, delete',
    'v0.3': 'v0.3.0 §7.5-§7.8 tasks/pushNotificationConfig/set, get, list, delete',
    'v1.0': 'v1.0.1 §3.1.7-§3.1.10 Push Notification Config operations',
  },
  recommendation:
    'When capabilities.pushNotifications is true, accept a push config for a task, return it as stored (same url, with its id), and answer get, list and delete consistently. @a2a-js/sdk: pass an InMemoryPushNotificationStore and DefaultPushNotificationSender to DefaultRequestHandler.',
  requires: ['push'],
  run: (ctx) => pushConfigCheck(ctx),
});
