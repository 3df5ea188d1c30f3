/** What the lifecycle check files share: spec references, graded verdicts, task helpers and ListTasks. */
import type { Evidence } from '../../model/check';
import type { CallOutcome } from '../../protocol/dialect';
import type { TaskView } from '../../protocol/shapes';
import { isRecord } from '../../util/json';
import type { CheckContextWith } from '../context';
import { fail, pass, type Verdict } from '../verdict';

export const SEND = {
  legacy: 'v0.1.0 §7.1 tasks/send',
  'v0.2': 'v0.2.6 §7.1 message/send',
  'v0.3': 'v0.3.0 §7.1 message/send',
  'v1.0': 'v1.0.1 §3.1.1 SendMessage',
};
export const GET = { legacy: 'v0.1.0 §7.3 tasks/get', 'v0.2': 'v0.2.6 §7.3 tasks/get', 'v0.3': 'v0.3.0 §7.3 tasks/get', 'v1.0': 'v1.0.1 §3.1.3 GetTask' };
export const CANCEL = {
  legacy: 'v0.1.0 §7.4 tasks/cancel',
  'v0.2': 'v0.2.6 §7.4 tasks/cancel',
  'v0.3': 'v0.3.0 §7.4 tasks/cancel',
  'v1.0': 'v1.0.1 §3.1.5 CancelTask',
};
export const STATES = { legacy: 'v0.1.0 §6.3 TaskState', 'v0.2': 'v0.2.6 §6.3 TaskState', 'v0.3': 'v0.3.0 §6.3 TaskState', 'v1.0': 'v1.0.1 §4.1.3 TaskState' };

/**
 * A verdict from findings of two strengths: fails on the MUST/SHOULD ones (`hard`), an advisory when only weaker
 * ones remain (`weak`), else `ok`. The message says which is which.
 */
export function graded(hard: string[], weak: string[], evidence: Evidence[], ok: string, why: string, recommendation?: string): Verdict {
  if (hard.length) {
    const also = weak.length ? ` Also (not required): ${weak.slice(0, 3).join('; ')}.` : '';
    return fail(`${hard.slice(0, 4).join('; ')}.${also}`, evidence, recommendation);
  }
  if (weak.length) return { ...fail(`${weak.slice(0, 4).join('; ')}.`, evidence, recommendation), advisory: why };
  return pass(ok, evidence);
}

export const DECLARED_WHY =
  'Input modes describe what a skill accepts ("Supported media types for input"); no sentence obliges an agent to accept every declared type, and A2A has no skill selection.';
export const UNKNOWN_WHY = "A state of the generation's enum: no sentence forbids it as a first state.";

/** The ids of messages in a task's history (to see whether our answer was recorded). */
export const historyMessageIds = (t: TaskView): string[] =>
  (t.history ?? []).map((m) => (isRecord(m) && typeof m.messageId === 'string' ? m.messageId : undefined)).filter((x): x is string => !!x);

/** The artifacts of a task, counted (absent = 0). */
export const artifactCount = (t: TaskView) => t.artifacts?.length ?? 0;

/**
 * The context of a task: its contextId, else (v1.0 does not require Task.contextId) the contextId its status
 * message or its history messages carry.
 */
export function contextOfTask(t: TaskView): string | undefined {
  if (t.contextId) return t.contextId;
  const raw = t.raw;
  if (!isRecord(raw)) return undefined;
  const fromMessage = (m: unknown) => (isRecord(m) && typeof m.contextId === 'string' && m.contextId ? m.contextId : undefined);
  const status = isRecord(raw.status) ? raw.status : undefined;
  return fromMessage(status?.message) ?? (Array.isArray(raw.history) ? raw.history.map(fromMessage).find(Boolean) : undefined);
}

export interface ListParams {
  contextId?: string;
  pageSize?: number;
  pageToken?: string;
}

/** ListTasks over the binding in use (JSON-RPC params, or the REST query), with the interface's tenant (§8.3.2). */
export function listTasks(ctx: CheckContextWith<'dialect'>, lane: string, p: ListParams): Promise<CallOutcome> {
  return ctx.dialect.list(ctx.http, { ...p, lane, checkId: ctx.checkId });
}
