/** Push notification configs (features.push): set, get, list, delete per generation, and the webhook URL check. */
import { randomUUID } from 'node:crypto';
import { E } from './errors';
import { idParam } from './params';
import { isObj, type AgentState, type Json } from './state';

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
