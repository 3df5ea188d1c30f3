/**
 * Error checks on tasks: an unknown task id (get, or a message naming it), a cancel of a finished or canceled task,
 * a message to a finished task, and (v1.0) a message whose contextId differs from its task's.
 */
import type { CallOutcome } from '../../protocol/dialect';
import { JSONRPC_CODE, LEGACY_DOCUMENT_CODES } from '../../protocol/errors';
import type { TaskView } from '../../protocol/shapes';
import { isTerminal } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContextWith } from '../context';
import { defineCheck, exchangeEvidence, fail, pass, refusedForCredentials, skip, type Verdict } from '../define';
import { canceledTaskId } from '../setups/cancel';
import { unknownTaskId } from '../setups/probe-ids';
import {
  answered,
  crashVerdict,
  expectError,
  isClientError,
  malformedIdVerdict,
  only,
  probeIs,
  sendProbe,
  type Probe,
  type RestExpect,
} from '../setups/probes';
import { firstSkillRun, noFinishedTask, ownFinishedRun, primarySkill, runningCandidates, runTask, skillInput, startRunningTask } from '../setups/tasks';
import { terminalChanged } from '../../judges/rules';
import { answeredState, isRefusal, isSuccess, outcomeNotFound, PROBES, readBack, readBackEvidence, V1_UNSUPPORTED } from './shared';

/** v0.x HTTP+JSON statuses for TaskNotCancelable (no table: v1.0's 400, or v1.0.0's 409); another 4xx is an advisory. */
const V0_CANCEL_STATUSES: RestExpect = {
  pass: only(400, 409),
  expected: 'HTTP 400 or 409',
  advisory: (s) =>
    isClientError(s) && s !== 404
      ? `v0.x has no HTTP mapping table: HTTP ${s} refuses the cancel, though 400 or 409 is what servers customarily send.`
      : undefined,
};

/** Cancels a task that is already terminal; the judgement of the code (the callers judge the effects). */
async function cancelFinished(ctx: CheckContextWith<'dialect'>, name: string, id: string, stateName: string): Promise<{ v: Verdict; p: Probe; what: string }> {
  const what = `Cancel of ${stateName} task ${id}`;
  // HTTP+JSON: the id travels in the path, the body is empty (CancelTaskRequest's other fields).
  const p = await sendProbe(ctx, name, () => ctx.dialect.request('cancel', { id }, { id }, {}));
  const skipped = refusedForCredentials(ctx, p.http);
  if (skipped) return { v: skipped, p, what };
  const v = expectError(ctx, p, what, 'TaskNotCancelable', { rest: ctx.generation === 'v1.0' ? undefined : V0_CANCEL_STATUSES });
  return { v, p, what };
}

export const errorsTaskNotFound = defineCheck({
  id: 'errors.task-not-found',
  title: `get of a task that does not exist gives TaskNotFound (${JSONRPC_CODE.TaskNotFound}, HTTP 404)`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${JSONRPC_CODE.TaskNotFound} TaskNotFoundError)`,
    'v0.2': 'v0.2.6 §8.2',
    'v0.3': 'v0.3.0 §8.2',
    'v1.0': 'v1.0.1 §3.1.3, §3.3.2, §5.4 (TaskNotFound / 404 / gRPC NOT_FOUND), §10.6',
  },
  recommendation: `When the task store has no such id, answer TaskNotFoundError ${JSONRPC_CODE.TaskNotFound} (v1.0 HTTP+JSON: 404, gRPC: NOT_FOUND, each with ErrorInfo reason TASK_NOT_FOUND) rather than null, an empty task or a 500.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const p = await PROBES['task-not-found'](ctx);
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const what = `Get of an unknown task (${p.taskId?.id ?? '?'})`;
    return malformedIdVerdict(ctx, p, expectError(ctx, p, what, 'TaskNotFound'));
  },
});

export const errorsCancelTerminal = defineCheck({
  id: 'errors.cancel-terminal',
  title: `Canceling a completed task gives TaskNotCancelable (${JSONRPC_CODE.TaskNotCancelable}) and leaves the task as it was`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${JSONRPC_CODE.TaskNotCancelable} TaskNotCancelableError)`,
    'v0.2': 'v0.2.6 §8.2',
    'v0.3': 'v0.3.0 §8.2',
    'v1.0': 'v1.0.1 §3.1.5, §5.4 (HTTP 400 in v1.0.1, 409 in v1.0.0; gRPC FAILED_PRECONDITION), §10.6',
  },
  recommendation: `Guard terminal states: a cancel of a completed, failed or rejected task must answer TaskNotCancelableError ${JSONRPC_CODE.TaskNotCancelable} (HTTP+JSON: 400, or 409 per v1.0.0; gRPC: FAILED_PRECONDITION with reason TASK_NOT_CANCELABLE), never a 500 and never a silently "canceled" completed task.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const r = await ownFinishedRun(ctx, 'cancel-terminal');
    const t = r?.final;
    const id = t?.id;
    if (!t || !id) return noFinishedTask(ctx, 'terminal task to cancel');
    const { v, p, what } = await cancelFinished(ctx, 'cancel-terminal', id, t.rawState ?? 'finished');
    if (v.status === 'skip' || v.status === 'error' || v.critical) return v;
    // Observed, not trusted: a terminal state is final, whatever the answer said.
    const after = await readBack(ctx, id);
    const evidence = [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')];
    const got = answeredState(ctx, p);
    const changedTo =
      (got?.state && got.state !== t.state ? got.raw : undefined) ?? (after.kind === 'task' && after.task.state !== t.state ? after.task.rawState : undefined);
    if (changedTo) {
      return terminalChanged(
        `${what}: the ${t.rawState} task became ${changedTo}. A terminal state is final: the cancel rewrote finished work instead of being refused with TaskNotCancelable.`,
        evidence,
        { critical: true },
      );
    }
    if (got)
      return fail(
        `${what}: the agent returned the unchanged ${t.rawState} task as a success instead of refusing with TaskNotCancelable (${JSONRPC_CODE.TaskNotCancelable}).`,
        evidence,
      );
    return { ...v, evidence };
  },
});

export const errorsCancelTwice = defineCheck({
  id: 'errors.cancel-twice',
  title: 'Canceling an already canceled task gives TaskNotCancelable (v1.0 also permits TaskNotFound, or idempotent success)',
  category: 'error-handling',
  level: 'MAY',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${JSONRPC_CODE.TaskNotCancelable})`,
    'v0.2': 'v0.2.6 §8.2',
    'v0.3': 'v0.3.0 §8.2',
    'v1.0': 'v1.0.1 §3.1.5, §3.3.1 Idempotency, §10.6',
  },
  recommendation: `Answer a cancel of a task that is already canceled with TaskNotCancelableError ${JSONRPC_CODE.TaskNotCancelable} (HTTP+JSON 400; gRPC FAILED_PRECONDITION). In v1.0 the specification also calls cancel idempotent (§3.3.1) and lets a duplicate return TaskNotFoundError once the task was purged; pick one behaviour and document it. Never change the state of a canceled task.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const canceled = await canceledTaskId(ctx);
    if (!canceled) return skip('No task was canceled in this run (see lifecycle.cancel), so there is none to cancel again.', 'precondition');
    const { v, p, what } = await cancelFinished(ctx, 'cancel-canceled', canceled, 'canceled');
    if (v.status === 'skip' || v.status === 'error' || v.critical) return v;
    const after = await readBack(ctx, canceled);
    const evidence = [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')];
    const got = answeredState(ctx, p);
    const changedTo =
      (got?.state && got.state !== 'canceled' ? got.raw : undefined) ??
      (after.kind === 'task' && after.task.state !== 'canceled' ? after.task.rawState : undefined);
    if (changedTo) {
      return terminalChanged(`${what}: the canceled task became ${changedTo}. A terminal state is final, whatever a duplicate cancel answers.`, evidence, {
        critical: true,
      });
    }
    if (v.status === 'pass') return { ...v, evidence };
    if (ctx.generation === 'v1.0') {
      if (got)
        return pass(
          `${what}: the agent returned the canceled task again; v1.0.1 §3.3.1 makes cancel idempotent ("multiple cancellation requests have the same effect").`,
          evidence,
        );
      if (probeIs(ctx, p, 'TaskNotFound')) return pass(`${what}: TaskNotFound, which v1.0.1 §3.3.1 permits for a canceled and purged task.`, evidence);
      return {
        ...v,
        evidence,
        advisory:
          'v1.0.1 §3.3.1 calls cancel idempotent (a duplicate may return the task, or TaskNotFound once purged) while §3.1.5 lists TaskNotCancelable for a canceled task: nothing else is named, but the release contradicts itself here.',
      };
    }
    if (probeIs(ctx, p, 'TaskNotFound') && outcomeNotFound(after))
      return pass(`${what}: TaskNotFound, and a get finds no such task either (it was purged).`, evidence);
    if (got) {
      return fail(
        `${what}: the agent returned the canceled task as a success instead of refusing with TaskNotCancelable (${JSONRPC_CODE.TaskNotCancelable}); before v1.0 there is no idempotency rule and the §8.2 TaskNotCancelableError row names "canceled".`,
        evidence,
      );
    }
    return { ...v, evidence };
  },
});

export const errorsMessageToTerminal = defineCheck({
  id: 'errors.message-to-terminal',
  title: `A message to a finished task is refused (v1.0: UnsupportedOperation ${JSONRPC_CODE.UnsupportedOperation}) and leaves the task as it was`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: `v0.1.0 §8.2 (${LEGACY_DOCUMENT_CODES.InvalidTaskState} InvalidTaskStateError, document only)`,
    'v0.2': 'v0.2.6 §7.1',
    'v0.3': 'v0.3.0 §7.1',
    'v1.0': 'v1.0.1 §3.1.1, §5.4 (UnsupportedOperationError; gRPC FAILED_PRECONDITION), §10.6',
  },
  recommendation: `Refuse messages that target a task in a terminal state: v1.0 requires UnsupportedOperationError (${JSONRPC_CODE.UnsupportedOperation}; HTTP+JSON 400, gRPC FAILED_PRECONDITION, reason UNSUPPORTED_OPERATION); earlier versions any error. Leave the task untouched (no history entry, no restart) and create a new task in the same context instead.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const r = await ownFinishedRun(ctx, 'message-to-terminal');
    const t = r?.final;
    const id = t?.id;
    if (!t || !id) return noFinishedTask(ctx, 'terminal task to message');
    const marker = `One more thing, please (a2a-interop ${ctx.uuid().slice(0, 8)}).`;
    const params = ctx.dialect.sendParams({ text: marker, taskId: id, contextId: t.contextId });
    const what = `A message to ${t.rawState} task ${id}`;
    const p = await sendProbe(ctx, 'message-to-terminal', () => ctx.dialect.request('send', params));
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const crash = crashVerdict(ctx, p, what);
    if (crash) return crash;
    let v: Verdict;
    let after: CallOutcome | undefined;
    if (ctx.generation === 'v1.0') {
      v = expectError(ctx, p, what, 'UnsupportedOperation', {
        rpc: {
          hints: {
            [JSONRPC_CODE.InvalidParams]:
              'a2a-python\'s DefaultRequestHandler answers InvalidParams ("Task … is in terminal state"); v1.0.1 §3.1.1 names UnsupportedOperationError.',
          },
        },
      });
      if (v.status === 'fail' && probeIs(ctx, p, 'TaskNotFound')) {
        after = await readBack(ctx, id);
        if (outcomeNotFound(after))
          return skip(
            `${what} got TaskNotFound, and a get finds no such task either: it was purged, so a message to a terminal task could not be exercised.`,
            'precondition',
            [...(v.evidence ?? []), ...readBackEvidence(after, 'read back')],
          );
        v = fail(`${what}: TaskNotFound, although a get still returns the task; v1.0.1 §3.1.1 names UnsupportedOperationError for a terminal task.`, [
          ...(v.evidence ?? []),
          ...readBackEvidence(after, 'read back'),
        ]);
      }
    } else {
      const evidence = [exchangeEvidence(p.http)];
      v = isRefusal(ctx, p) ? pass(`${what} was refused (${answered(p)}).`, evidence) : fail(`${what} was accepted: ${answered(p)}.`, evidence);
    }
    if (!isRefusal(ctx, p)) return v;
    // Observed, not trusted: an error answer plus a silent append or restart is still a failure.
    after ??= await readBack(ctx, id);
    if (after.kind !== 'task') return v;
    const evidence = [...(v.evidence ?? []).filter((e) => e.label !== 'read back'), exchangeEvidence(after.http, 'read back')];
    if (after.task.state !== t.state) {
      return terminalChanged(
        `${what} was answered with an error, but reading the task back shows it changed from ${t.rawState} to ${after.task.rawState}: a terminal state is final.`,
        evidence,
        { critical: true },
      );
    }
    const messageId = isRecord(params.message) && typeof params.message.messageId === 'string' ? params.message.messageId : undefined;
    const history = JSON.stringify(after.task.history ?? []);
    if (history.includes(marker) || (messageId && history.includes(messageId))) {
      return fail(
        `${what} was answered with an error, but reading the task back shows our message in its history: the refused message was still appended.`,
        evidence,
      );
    }
    return { ...v, evidence };
  },
});

export const errorsUnknownTaskMessage = defineCheck({
  id: 'errors.unknown-task-message',
  title: `A message naming a task that does not exist gives TaskNotFound (${JSONRPC_CODE.TaskNotFound}, HTTP 404)`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    'v0.2': `v0.2.6 §8.2 (${JSONRPC_CODE.TaskNotFound})`,
    'v0.3': `v0.3.0 §8.2 (${JSONRPC_CODE.TaskNotFound})`,
    'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics, §5.4, §10.6',
  },
  recommendation: `When message.taskId names no task, answer TaskNotFoundError ${JSONRPC_CODE.TaskNotFound} (HTTP+JSON: 404, gRPC: NOT_FOUND, reason TASK_NOT_FOUND) instead of creating a task, ignoring the id or answering another error. Task ids are server-generated: a client names one only to continue that task.`,
  requires: ['dialect'],
  run: async (ctx) => {
    if (ctx.generation === 'legacy')
      return skip('Legacy clients choose task ids: tasks/send with a new id creates the task (v0.1.0 §7.1.1).', 'not-applicable');
    const taskId = await unknownTaskId(ctx);
    const input = skillInput(ctx, primarySkill(ctx));
    const params = ctx.dialect.sendParams({ text: input.text, parts: input.parts, taskId: taskId.id });
    const p = await sendProbe(ctx, 'unknown-task-message', () => ({ ...ctx.dialect.request('send', params), taskId }));
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const what = `A message with taskId ${taskId.id} (no such task)`;
    let v = expectError(ctx, p, what, 'TaskNotFound');
    if (v.status === 'fail' && isSuccess(ctx, p)) {
      const st = answeredState(ctx, p);
      v = fail(
        `${what} was accepted (${st?.raw ? `a Task in state ${st.raw}` : answered(p)}): the agent created a task or ignored the taskId instead of answering TaskNotFound.`,
        v.evidence,
      );
    }
    v = malformedIdVerdict(ctx, p, v);
    if (v.status !== 'pass') return v;
    // Observed: the refusal created no task under the client's id.
    const after = await readBack(ctx, taskId.id);
    if (after.kind === 'task')
      return fail(`${what} was refused with TaskNotFound, yet a get now returns a task with that id: one was created under the client's id.`, [
        ...(v.evidence ?? []),
        exchangeEvidence(after.http, 'read back'),
      ]);
    return { ...v, evidence: [...(v.evidence ?? []), exchangeEvidence(after.http, 'read back: still not found')] };
  },
});

export const errorsContextMismatch = defineCheck({
  id: 'errors.context-mismatch',
  title: "A message whose contextId differs from its task's is rejected and leaves the task as it was (v1.0)",
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §3.4.3 Multi-Turn Conversation Patterns' },
  recommendation: `When a message names an existing task and a contextId other than that task's, reject it with an error (e.g. InvalidParams ${JSONRPC_CODE.InvalidParams}, HTTP 400, gRPC INVALID_ARGUMENT) before touching the task: do not append it to the history, resume the task or move it to the new context.`,
  requires: ['dialect'],
  run: async (ctx) => {
    if (ctx.generation !== 'v1.0') return skip('Only v1.0 requires rejecting a mismatching contextId (§3.4.3).', 'not-applicable');
    const targets: { task: TaskView; id: string; paused: boolean; label: string }[] = [];
    // A task paused in input-required is the cleanest target (it waits for exactly such a message): start our own,
    // modelled on the first test task seen paused (not after the slowest skill's).
    const pausedModel = await firstSkillRun(ctx, (r) => r.outcome === 'interrupted' && !!r.final?.id);
    let lastSkip: Verdict = skip('No task of this run stayed non-terminal long enough to send it a mismatching message.', 'precondition');
    if (pausedModel) {
      const own = await runTask(ctx, ctx.dialect, {
        text: pausedModel.text,
        input: pausedModel.input,
        skillId: pausedModel.skillId,
        lane: ctx.lane('context-mismatch'),
      });
      if (own.outcome === 'interrupted' && own.final?.id)
        targets.push({ task: own.final, id: own.final.id, paused: true, label: `task ${own.final.id} (${own.final.rawState})` });
    }
    const candidates = runningCandidates(ctx);
    let from = 0;
    for (let attempt = 0; attempt < 5; attempt++) {
      let target = targets.shift();
      if (!target) {
        const started = await startRunningTask(ctx, 'context-mismatch', from, undefined, candidates);
        if (!started) return lastSkip;
        from = started.index + 1;
        if (started.send.kind !== 'task' || !started.send.task.id) {
          const refused = refusedForCredentials(ctx, started.send.http);
          if (refused) return refused;
          if (started.send.kind === 'message')
            return skip('The agent replies with Messages only (no tasks), so there is no task to send a mismatching contextId to.', 'not-applicable');
          return skip('Could not start a task to send a mismatching contextId to.', 'precondition', [exchangeEvidence(started.send.http)]);
        }
        if (!started.running) {
          lastSkip = skip(`The tasks finished (${started.send.task.rawState}) before a mismatching message could be sent.`, 'precondition', [
            exchangeEvidence(started.send.http),
          ]);
          if (from >= candidates.length) return lastSkip;
          continue;
        }
        target = { task: started.send.task, id: started.send.task.id, paused: false, label: `running task ${started.send.task.id}` };
      }
      const t = target.task;
      const id = target.id;
      const otherContext = ctx.uuid();
      const marker = `a2a-interop context-mismatch probe ${otherContext.slice(0, 8)}`;
      const params = ctx.dialect.sendParams({ text: marker, taskId: id, contextId: otherContext });
      const what = `A message to ${target.label} (contextId ${t.contextId ?? '?'}) with contextId ${otherContext}`;
      const p = await sendProbe(ctx, `context-mismatch-${attempt}`, () => ctx.dialect.request('send', params));
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const crash = crashVerdict(ctx, p, what);
      if (crash) return crash;
      const after = await readBack(ctx, id);
      const evidence = [exchangeEvidence(p.http), ...readBackEvidence(after, 'read back')];
      if (!isRefusal(ctx, p)) {
        return fail(
          `${what} was accepted (${answered(p)}); v1.0.1 §3.4.3: agents MUST reject messages whose contextId differs from that of the referenced task.`,
          evidence,
        );
      }
      const afterTask = after.kind === 'task' ? after.task : undefined;
      // Refused because the task finished meanwhile? Then it says nothing about the contextId.
      if (afterTask && isTerminal(afterTask.state, ctx.generation) && !target.paused && V1_UNSUPPORTED(ctx, p)) {
        lastSkip = skip(
          `${what} was refused with ${answered(p)}, but the task had meanwhile finished (${afterTask.rawState}): the refusal may be for the terminal state.`,
          'precondition',
          evidence,
        );
        if (from >= candidates.length) return lastSkip;
        continue;
      }
      if (afterTask) {
        if (afterTask.contextId !== undefined && t.contextId !== undefined && afterTask.contextId !== t.contextId) {
          return fail(`${what} was refused (${answered(p)}), but reading the task back shows its contextId changed to ${afterTask.contextId}.`, evidence);
        }
        const history = JSON.stringify(afterTask.history ?? []);
        if (history.includes(marker))
          return fail(`${what} was refused (${answered(p)}), but reading the task back shows the message in its history.`, evidence);
        if (target.paused && afterTask.state !== t.state) {
          return fail(
            `${what} was refused (${answered(p)}), but the task moved from ${t.rawState} to ${afterTask.rawState}: the rejected message resumed it.`,
            evidence,
          );
        }
      }
      return pass(`${what} was rejected (${answered(p)})${afterTask ? '; the task is unchanged' : ''}.`, evidence);
    }
    return lastSkip;
  },
});
