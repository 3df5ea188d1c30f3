/**
 * errors.grpc-status: over gRPC, A2A errors are a gRPC status with the code of the §5.4 mapping table and a
 * google.rpc.ErrorInfo in the status details, reason in UPPER_SNAKE_CASE and domain "a2a-protocol.org" (v1.0.1
 * §10.6), judged on GetTask of an unknown task and CancelTask of a task that already finished. The error checks judge
 * each error's status and reason over gRPC too (setups/probes.ts expectError); this one asks for the ErrorInfo itself.
 */
import type { Evidence } from '../../model/check';
import { ERROR_REASON, GRPC_STATUS_OF_REASON } from '../../protocol/errors';
import { A2A_ERROR_DOMAIN } from '../../protocol/grpc';
import type { CallOutcome } from '../../protocol/dialect';
import { defineCheck, exchangeEvidence, fail, pass } from '../define';
import { unknownTaskId } from '../setups/probe-ids';
import { completedRun } from '../setups/tasks';
import { transportVerdict, type Verdict } from '../verdict';

/** What is wrong with one error answer, or a verdict when it could not be judged. */
function judgeError(o: CallOutcome, what: string, reason: string): string[] | Verdict {
  if (o.kind === 'transport') return transportVerdict(o.http, what);
  if (o.kind !== 'error')
    return [`${what}: answered with ${o.kind === 'invalid' ? `something unreadable (${o.reason})` : `a result (${o.kind})`}, not the error ${reason}`];
  const e = o.error;
  const expected = GRPC_STATUS_OF_REASON[reason];
  const problems: string[] = [];
  if (e.status !== expected) problems.push(`status ${e.status ?? 'none'}, expected ${expected} (§5.4)`);
  if (!e.reason) problems.push(`no google.rpc.ErrorInfo in the status details (expected reason ${reason}, domain "${A2A_ERROR_DOMAIN}")`);
  else if (e.reason !== reason) problems.push(`ErrorInfo.reason ${e.reason}, expected ${reason}`);
  problems.push(...e.problems.filter((p) => !/must be sent with gRPC status/.test(p)));
  return problems.map((p) => `${what}: ${p}`);
}

export const errorsGrpcStatus = defineCheck({
  id: 'errors.grpc-status',
  title: 'gRPC errors carry the mapped status code and a google.rpc.ErrorInfo',
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §10.6 Error Handling, §5.4 Error Code Mappings' },
  recommendation:
    'Over gRPC, answer A2A errors with the status of the v1.0.1 §5.4 table (TaskNotFound: NOT_FOUND; TaskNotCancelable, UnsupportedOperation, PushNotificationNotSupported: FAILED_PRECONDITION; ContentTypeNotSupported: INVALID_ARGUMENT) and put a google.rpc.ErrorInfo in the status details (the grpc-status-details-bin trailer) with reason TASK_NOT_FOUND etc. and domain "a2a-protocol.org". With @a2a-js/sdk/server/grpc, throw the SDK\'s A2A errors: it maps them.',
  requires: ['grpc-binding'],
  run: async (ctx): Promise<Verdict> => {
    const d = ctx.dialect;
    const lane = ctx.lane('gRPC errors');
    const evidence: Evidence[] = [];
    const problems: string[] = [];
    // Shaped like the agent's own ids: an agent may refuse a malformed id as a validation error (v1.0.1 §3.3.2).
    const { id: unknown } = await unknownTaskId(ctx);
    const get = await d.get(ctx.http, { id: unknown, lane, checkId: ctx.checkId });
    evidence.push(exchangeEvidence(get.http, `GetTask ${unknown}`));
    const g = judgeError(get, `GetTask of an unknown task`, ERROR_REASON.TaskNotFound);
    if (!Array.isArray(g)) return g;
    problems.push(...g);
    const done = await completedRun(ctx);
    const doneId = done?.final?.id;
    if (done?.final && doneId) {
      const cancel = await d.cancel(ctx.http, { id: doneId, lane, checkId: ctx.checkId });
      evidence.push(exchangeEvidence(cancel.http, `CancelTask ${doneId} (${done.final.rawState})`));
      const c = judgeError(cancel, `CancelTask of a ${done.final.rawState} task`, ERROR_REASON.TaskNotCancelable);
      if (!Array.isArray(c)) return c;
      problems.push(...c);
    }
    const also = doneId ? ' and CancelTask of a finished task' : ' (no finished task to try CancelTask on)';
    return problems.length
      ? fail(`${problems.join('; ')}.`, evidence)
      : pass(`GetTask of an unknown task${also} answered with the mapped gRPC status and an ErrorInfo of domain ${A2A_ERROR_DOMAIN}.`, evidence);
  },
});
