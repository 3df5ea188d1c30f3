/** Request parameters, checked and made generation-neutral (invalid ones are -32602 / 400 with the field named). */
import { parseMessage } from './dialect';
import { E } from './errors';
import { isObj, type AgentState, type Json } from './state';
import type { IMessage } from './tasks';

/** Validated send parameters, generation-neutral. */
export interface SendReq {
  message: IMessage;
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** false: return as soon as the task exists. */
  blocking: boolean;
  /** A streaming send. */
  stream?: boolean;
}

export function optInt(v: unknown, field: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw E.invalidParams(`${field} must be a non-negative integer`, field);
  return v;
}

export function parseSend(s: AgentState, params: Json): SendReq {
  const { gen, findTask } = s;
  if (gen === 'legacy') {
    if (typeof params.id !== 'string' || params.id === '') throw E.invalidParams('params.id (the task id) is required', 'id');
    const pm = parseMessage(gen, params.message);
    if (typeof pm === 'string') throw E.invalidParams(pm, 'message');
    const existing = findTask(params.id);
    const sessionId = typeof params.sessionId === 'string' && params.sessionId ? params.sessionId : undefined;
    return {
      message: pm.message,
      taskId: params.id,
      contextId: existing ? existing.contextId : sessionId,
      historyLength: optInt(params.historyLength, 'historyLength'),
      blocking: true,
    };
  }
  const pm = parseMessage(gen, params.message);
  if (typeof pm === 'string') throw E.invalidParams(pm, 'message');
  const cfg = params.configuration;
  if (cfg !== undefined && cfg !== null && !isObj(cfg)) throw E.invalidParams('configuration must be an object', 'configuration');
  const c = (cfg ?? {}) as Json;
  const blocking = gen === 'v1.0' ? c.returnImmediately !== true : c.blocking !== false;
  return {
    message: pm.message,
    taskId: pm.taskId,
    contextId: pm.contextId,
    historyLength: optInt(c.historyLength, 'configuration.historyLength'),
    blocking,
  };
}

export function idParam(params: Json, field = 'id'): string {
  const id = params[field];
  if (typeof id !== 'string' || id.trim() === '') throw E.invalidParams(`params.${field} must be a non-empty string`, field);
  return id;
}
