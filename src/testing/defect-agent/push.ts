/**
 * Push notifications (features.push): configs set, get, list, delete per generation, the webhook URL check, and
 * delivery: each status change of a task is POSTed to its configs (v1.0 a StreamResponse {"statusUpdate"}, before
 * the Task object) with the token (X-A2A-Notification-Token) and the config's authentication (Authorization),
 * one at a time per task. Deliveries go to loopback webhooks only: the test agent never calls out of the machine.
 */
import { randomUUID } from 'node:crypto';
import { renderStatusEvent, renderTask } from './dialect';
import { E } from './errors';
import { idParam } from './params';
import { isObj, type AgentState, type Json } from './state';
import { TERMINAL, type IStatus, type ITask } from './tasks';

interface PushCfg {
  id: string;
  url: string;
  token?: string;
  authentication?: unknown;
}

export type PushConfigs = ReturnType<typeof createPushConfigs>;

export function createPushConfigs(s: AgentState) {
  const { gen, has, permits, requireTask } = s;
  const pushConfigs = new Map<string, Map<string, PushCfg>>();
  /** Defect push-after-delete: every config ever set, deleted or not, still receives deliveries. */
  const everSet = new Map<string, Map<string, PushCfg>>();
  const watched = new Set<string>();
  const chains = new Map<string, Promise<void>>();

  const LOOPBACK = /^https?:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?\//i;

  /** The body of one delivery: the generation's payload, or the other generation's with defect push-wrong-shape. */
  function payload(t: ITask, st: IStatus): Json {
    const f = s.flags();
    const wrong = has('push-wrong-shape');
    const asV1 = gen === 'v1.0' ? !wrong : wrong;
    if (asV1) return renderStatusEvent('v1.0', t, st, undefined, f);
    return renderTask(gen === 'v1.0' ? 'v0.3' : gen, { ...t, status: st }, f, s.historyPolicy(0));
  }

  async function post(c: PushCfg, body: Json): Promise<void> {
    if (!LOOPBACK.test(c.url)) return;
    const headers: Record<string, string> = { 'Content-Type': gen === 'v1.0' ? 'application/a2a+json' : 'application/json' };
    if (!has('push-no-token')) {
      if (c.token) headers['X-A2A-Notification-Token'] = c.token;
      const a = isObj(c.authentication) ? c.authentication : undefined;
      const scheme = typeof a?.scheme === 'string' ? a.scheme : Array.isArray(a?.schemes) && typeof a.schemes[0] === 'string' ? a.schemes[0] : undefined;
      if (scheme && typeof a?.credentials === 'string') headers.Authorization = `${scheme} ${a.credentials}`;
    }
    const times = permits('push-retries') ? 2 : 1;
    for (let i = 0; i < times; i++) {
      await fetch(c.url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) })
        .then((r) => r.body?.cancel())
        .catch(() => undefined);
    }
  }

  /** Queues the deliveries of one status change after the task's earlier ones (in order, one at a time). */
  function deliver(t: ITask, st: IStatus): void {
    const targets = [...((has('push-after-delete') ? everSet : pushConfigs).get(t.id)?.values() ?? [])];
    if (!targets.length) return;
    const bodies = [payload(t, st)];
    // Defect push-out-of-order: the terminal state goes out first, then a stale "working".
    if (has('push-out-of-order') && TERMINAL.has(st.state)) bodies.push(payload(t, { ...st, state: 'working' }));
    const prev = chains.get(t.id) ?? Promise.resolve();
    const next = prev.then(async () => {
      for (const b of bodies) await Promise.all(targets.map((c) => post(c, b)));
    });
    chains.set(t.id, next);
    void next.finally(() => {
      if (chains.get(t.id) === next) chains.delete(t.id);
    });
  }

  function watch(taskId: string): void {
    if (watched.has(taskId)) return;
    watched.add(taskId);
    s.engine.subscribe(taskId, (e) => {
      if (e.type === 'status') deliver(e.task, { ...e.status });
    });
  }

  /** A config as the generation spells it: legacy/v0.x {taskId|id, pushNotificationConfig}, v1.0 flat. */
  function renderPush(taskId: string, c: PushCfg): Json {
    const url = has('push-config-wrong-url') ? `${c.url.replace(/\/+$/, '')}/v2` : c.url;
    const token = c.token && permits('push-token-masked') ? '****' : c.token;
    const inner: Json = { url, ...(token ? { token } : {}), ...(c.authentication ? { authentication: c.authentication } : {}) };
    if (gen === 'v1.0') return { id: c.id, taskId, ...inner };
    if (gen === 'legacy') return { id: taskId, pushNotificationConfig: inner };
    return { taskId, pushNotificationConfig: { id: c.id, ...inner } };
  }

  function storePush(taskId: string, cfg: unknown): Json {
    requireTask(taskId);
    if (!isObj(cfg) || typeof cfg.url !== 'string' || !/^https?:\/\//.test(cfg.url))
      throw E.invalidParams('the push config needs an absolute http(s) url', 'url');
    const c: PushCfg = {
      id: typeof cfg.id === 'string' && cfg.id ? cfg.id : randomUUID(),
      url: cfg.url,
      ...(typeof cfg.token === 'string' ? { token: cfg.token } : {}),
      ...(cfg.authentication !== undefined ? { authentication: cfg.authentication } : {}),
    };
    let m = pushConfigs.get(taskId);
    if (!m) pushConfigs.set(taskId, (m = new Map()));
    if (gen === 'legacy') m.clear();
    m.set(c.id, c);
    let all = everSet.get(taskId);
    if (!all) everSet.set(taskId, (all = new Map()));
    all.set(c.id, c);
    watch(requireTask(taskId).id);
    return renderPush(taskId, c);
  }

  function findPush(taskId: string, configId?: string): Json {
    requireTask(taskId);
    const m = pushConfigs.get(taskId);
    const c = configId ? m?.get(configId) : m?.values().next().value;
    if (!c) throw E.invalidParams(`no push notification config ${configId ?? ''} for task ${taskId}`, 'id');
    return renderPush(taskId, c);
  }

  function listPush(taskId: string): Json[] {
    requireTask(taskId);
    return [...(pushConfigs.get(taskId)?.values() ?? [])].map((c) => renderPush(taskId, c));
  }

  function deletePush(taskId: string, configId: string): void {
    requireTask(taskId);
    const m = pushConfigs.get(taskId);
    if (permits('push-second-delete-not-found') && gen !== 'legacy' && !m?.has(configId)) {
      throw E.invalidParams(`no push notification config ${configId.slice(0, 80)} for task ${taskId.slice(0, 80)}`, 'id');
    }
    if (has('push-config-not-deleted')) return;
    m?.delete(configId);
  }

  function pushRpc(op: 'pushSet' | 'pushGet' | 'pushList' | 'pushDelete', p: Json): unknown {
    if (gen === 'v1.0') {
      const taskId = idParam(p, 'taskId');
      if (op === 'pushSet') return storePush(taskId, p);
      if (op === 'pushGet') return findPush(taskId, idParam(p));
      if (op === 'pushList') return { configs: listPush(taskId), nextPageToken: '' };
      deletePush(taskId, idParam(p));
      return {};
    }
    if (op === 'pushSet') return storePush(gen === 'legacy' ? idParam(p) : idParam(p, 'taskId'), p.pushNotificationConfig);
    const taskId = idParam(p);
    if (op === 'pushGet') return findPush(taskId, typeof p.pushNotificationConfigId === 'string' ? p.pushNotificationConfigId : undefined);
    if (op === 'pushList') return listPush(taskId);
    deletePush(taskId, idParam(p, 'pushNotificationConfigId'));
    return null;
  }

  /** Permitted push-url-validation: the webhook URL is validated before anything else (v1.0.1 §13.2). */
  function validateWebhook(cfg: Json): void {
    if (!permits('push-url-validation')) return;
    const u = typeof cfg.url === 'string' ? cfg.url : '';
    let host = '';
    try {
      host = new URL(u).hostname;
    } catch {
      /* not a URL */
    }
    if (!host || /(^|\.)(invalid|localhost|test|example)$/i.test(host) || /^(127\.|10\.|192\.168\.)/.test(host)) {
      throw E.invalidParams(`webhook URL ${u.slice(0, 120)} is not allowed (it must resolve to a public address)`, 'url');
    }
  }

  return { storePush, findPush, listPush, deletePush, pushRpc, validateWebhook };
}
