import type { Evidence } from '../model/check';
import type { CallOutcome } from '../protocol/dialect';
import type { TaskState } from '../model/events';
import { isInterrupted, isTerminal, legalTransition, LEGAL_INITIAL } from '../protocol/states';
import { streamFixture } from './streaming';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, TIMEOUT_KNOB, toolLimit, type CheckContext, type CheckDef, type Verdict } from './define';
import {
  authBlocked,
  brokenCallVerdict,
  completedRun,
  describeRun,
  emitState,
  needDialect,
  runEvidence,
  skillRuns,
  runningCandidates,
  startRunningTask,
  type RunningTask,
  type TaskRun,
} from './tasks';

const SEND = {
  legacy: 'v0.1.0 §7.1 tasks/send',
  'v0.2': 'v0.2.6 §7.1 message/send',
  'v0.3': 'v0.3.0 §7.1 message/send',
  'v1.0': 'v1.0.1 §3.1.1 SendMessage',
};
const GET = { legacy: 'v0.1.0 §7.3 tasks/get', 'v0.2': 'v0.2.6 §7.3 tasks/get', 'v0.3': 'v0.3.0 §7.3 tasks/get', 'v1.0': 'v1.0.1 §3.1.3 GetTask' };
const CANCEL = { legacy: 'v0.1.0 §7.4 tasks/cancel', 'v0.2': 'v0.2.6 §7.4 tasks/cancel', 'v0.3': 'v0.3.0 §7.4 tasks/cancel', 'v1.0': 'v1.0.1 §3.1.5 CancelTask' };
const STATES = { legacy: 'v0.1.0 §6.3 TaskState', 'v0.2': 'v0.2.6 §6.3 TaskState', 'v0.3': 'v0.3.0 §6.3 TaskState', 'v1.0': 'v1.0.1 §4.1.3 TaskState' };

/** Skips when the agent answers with Messages only: checks that need a task cannot run. */
async function withTaskRuns(ctx: CheckContext, body: (runs: TaskRun[]) => Verdict | Promise<Verdict>): Promise<Verdict> {
  const pre = needDialect(ctx);
  if (pre) return pre;
  const runs = await skillRuns(ctx);
  const blocked = runs.map((r) => authBlocked(ctx, r.send)).find(Boolean);
  if (blocked) return blocked;
  const withTask = runs.filter((r) => r.observations.length > 0);
  if (!withTask.length) {
    if (runs.some((r) => r.outcome === 'message')) {
      return skip('The agent replied with a Message instead of a Task (a message-only agent), so there is no task to check.', 'not-applicable', runs.map(runEvidence));
    }
    return skip('No test task could be created (see lifecycle.send).', 'precondition', runs.map(runEvidence));
  }
  return body(withTask);
}

export const lifecycleChecks: CheckDef[] = [
  defineCheck({
    id: 'lifecycle.send',
    title: 'Sending a message returns a Task with an id and a legal initial state (or a Message)',
    category: 'lifecycle',
    level: 'MUST',
    tier: 'basic',
    critical: true,
    phase: 'suite',
    specRefs: SEND,
    recommendation:
      'Answer the send method with the created Task (id, contextId, status.state submitted/working/…) or, for a stateless reply, a Message. Generate the task id on the server (v0.2+); in @a2a-js/sdk the AgentExecutor must publish a task or message event first.',
    run: async (ctx) => {
      const pre = needDialect(ctx);
      if (pre) return pre;
      const all = await skillRuns(ctx);
      // A skill that accepts only media types this tool cannot produce rightly refuses our text: not judged.
      const refused = all.filter((r) => r.outcome === 'refused-input');
      const runs = all.filter((r) => r.outcome !== 'refused-input');
      if (!runs.length) {
        return skip(
          `Every selected skill accepts only media types this tool cannot produce, and the agent correctly refused our text with ContentTypeNotSupported (${refused.map((r) => r.skillId).join(', ')}).`,
          'precondition',
          refused.map(runEvidence),
        );
      }
      const basic = runs[0]!;
      const s = basic.send;
      const evidence = [exchangeEvidence(s.http, `${ctx.dialect!.describe('send')} response`), ev('message sent', basic.input ? `${basic.input.text} (${basic.input.mediaType})` : basic.text)];
      if (refused.length) evidence.push(...refused.map((r) => ev(`skill ${r.skillId}`, `correctly refused our text: ${r.input?.unsupported ?? ''}`, { exchangeId: r.send.http.exchangeId })));
      if (s.kind === 'message') {
        if (ctx.generation === 'legacy') return fail('tasks/send returned a Message; the legacy protocol always returns a Task.', evidence);
        return pass('The agent replied with a Message (a message-only agent): allowed, but checks that need a task will skip.', evidence);
      }
      if (s.kind !== 'task') return brokenCallVerdict(ctx, s, `${ctx.dialect!.describe('send')}`);
      const t = s.task;
      if (!t.id) return fail('The returned Task has no id.', evidence);
      if (ctx.generation === 'legacy' && basic.clientTaskId && t.id !== basic.clientTaskId) {
        return fail(`tasks/send returned task id "${t.id}", not the id the client chose ("${basic.clientTaskId}").`, evidence, 'In the legacy protocol the client picks the task id (TaskSendParams.id); echo it back.');
      }
      if (!t.state || !LEGAL_INITIAL.has(t.state)) return fail(`The initial state ${JSON.stringify(t.rawState)} is not a legal task state.`, evidence);
      const others = runs.slice(1).filter((r) => r.send.kind !== 'task' && r.send.kind !== 'message');
      if (others.length) {
        return fail(`The first skill's task was created, but ${others.length} other skill(s) failed to start: ${others.map((r) => r.skillId).join(', ')}.`, [...evidence, ...others.map(runEvidence)]);
      }
      return pass(`Task ${t.id} created in state ${t.rawState}.`, evidence);
    },
  }),
  defineCheck({
    id: 'lifecycle.get',
    title: 'Getting the task returns it with the same id and a legal state',
    category: 'lifecycle',
    level: 'MUST',
    tier: 'basic',
    critical: true,
    phase: 'suite',
    specRefs: GET,
    recommendation: 'Keep created tasks in a task store and answer get with the stored Task (the same id). @a2a-js/sdk: InMemoryTaskStore or a DatabaseTaskStore; a2a-python: InMemoryTaskStore.',
    run: (ctx) =>
      withTaskRuns(ctx, (runs) => {
        const r = runs[0]!;
        const g = r.gets[0];
        if (!g) return skip('No get was made (the task could not be created).', 'precondition');
        if (g.kind !== 'task') return brokenCallVerdict(ctx, g, `${ctx.dialect!.describe('get')} of a task just created`);
        const evidence = [exchangeEvidence(g.http)];
        const sent = r.observations[0]!.task.id;
        if (g.task.id !== sent) return fail(`Get returned task id ${JSON.stringify(g.task.id)} for ${JSON.stringify(sent)}.`, evidence);
        if (!g.task.state) return fail(`Get returned no legal state (${JSON.stringify(g.task.rawState)}).`, evidence);
        return pass(`Get returned task ${sent} in state ${g.task.rawState}.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.terminal',
    title: 'Each test task reaches a terminal or interrupted state within the time budget',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: STATES,
    recommendation:
      'Make every task end: publish a final status (completed, failed, canceled, rejected) or pause in input-required/auth-required. A task that stays "working" forever usually means the executor returned without a final status event, or threw and swallowed the error.',
    run: (ctx) =>
      withTaskRuns(ctx, (runs) => {
        const bad = runs.filter((r) => r.outcome !== 'terminal' && r.outcome !== 'interrupted');
        const evidence = runs.map(runEvidence);
        if (!bad.length) return pass(`${runs.length} task(s) settled: ${runs.map((r) => `${r.skillId ?? 'message'}=${r.final?.rawState}`).join(', ')}.`, evidence);
        const broken = bad.find((r) => r.outcome !== 'timeout');
        if (!broken) {
          // Still working when our budget ended: a long task is not a broken one. Not judged.
          return toolLimit(
            `${bad.length} task(s) were still ${bad.map((r) => r.final?.rawState ?? '?').join(', ')} when our ${ctx.taskTimeoutMs} ms budget ended, so whether they settle was not seen. To judge it, ${TIMEOUT_KNOB}.`,
            evidence,
          );
        }
        if (broken.outcome === 'no-task') return skip('The created tasks have no id, so they cannot be followed (see lifecycle.send).', 'precondition', evidence);
        return broken.brokenCall ? brokenCallVerdict(ctx, broken.brokenCall, `polling task ${broken.final?.id ?? ''}`) : fail(`A task could not be followed: ${describeRun(broken)}.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.transitions',
    title: 'State transitions are legal: terminal states are final, nothing returns to submitted',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §6.3 TaskState', 'v0.2': 'v0.2.6 §6.3', 'v0.3': 'v0.3.0 §6.3 TaskState', 'v1.0': 'v1.0.1 §4.1.3 TaskState (terminal states)' },
    recommendation: 'Never change the state of a task after it reached completed, failed, canceled or rejected; a new request on a finished task must create a new task or be refused.',
    run: (ctx) =>
      withTaskRuns(ctx, async (runs) => {
        const problems: string[] = [];
        const sequences: { label: string; states: { state?: TaskState; raw?: string; source: string }[] }[] = runs.map((r) => ({
          label: `task ${r.final?.id ?? '?'}`,
          states: r.observations.map((o) => ({ state: o.task.state, raw: o.task.rawState, source: o.source })),
        }));
        // Polling sees only snapshots; the stream shows every transition, so judge it too.
        if (ctx.card.capabilities.streaming) {
          const f = await streamFixture(ctx);
          const items = f.run.items.filter((i) => i.state);
          if (items.length) sequences.push({ label: `streamed task ${items[0]!.taskId ?? '?'}`, states: items.map((i) => ({ state: i.state, raw: i.rawState, source: `stream event ${i.seq}` })) });
        }
        let count = 0;
        for (const seq of sequences) {
          count += seq.states.length;
          for (let i = 1; i < seq.states.length; i++) {
            const a = seq.states[i - 1]!;
            const b = seq.states[i]!;
            if (a.state && b.state && !legalTransition(a.state, b.state, ctx.generation)) {
              problems.push(`${seq.label}: ${a.raw} → ${b.raw} (${a.source} then ${b.source})`);
            }
          }
        }
        const evidence = [...runs.map(runEvidence), ...sequences.slice(runs.length).map((q) => ev(q.label, q.states.map((x) => x.raw).join(' → ')))];
        return problems.length ? fail(`Illegal transition(s): ${problems.slice(0, 3).join('; ')}.`, evidence) : pass(`${count} observed states, all transitions legal.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.task-id-stable',
    title: 'The task id and context id stay the same across calls',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §6.1 Task', 'v0.2': 'v0.2.6 §6.1 Task', 'v0.3': 'v0.3.0 §6.1 Task', 'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics' },
    recommendation: 'Return the same task id (and contextId) for a task in every answer; clients key their state on it.',
    run: (ctx) =>
      withTaskRuns(ctx, (runs) => {
        const problems: string[] = [];
        for (const r of runs) {
          const ids = new Set(r.observations.map((o) => o.task.id));
          const ctxs = new Set(r.observations.map((o) => o.task.contextId).filter((x) => x !== undefined));
          if (ids.size > 1) problems.push(`task ids changed: ${[...ids].join(' → ')}`);
          if (ctxs.size > 1) problems.push(`context ids changed: ${[...ctxs].join(' → ')}`);
        }
        const created = runs.map((r) => r.observations[0]?.task.id).filter(Boolean);
        if (new Set(created).size < created.length) problems.push(`two different tasks got the same id (${created.join(', ')})`);
        return problems.length ? fail(`Identifiers are unstable: ${problems.join('; ')}.`, runs.map(runEvidence)) : pass(`${created.length} task(s), ids stable and distinct.`);
      }),
  }),
  defineCheck({
    id: 'lifecycle.shape',
    title: 'Tasks and messages have the shape the schema of the generation gives',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §6 Protocol Data Objects (a2a.json)',
      'v0.2': 'v0.2.6 §6 (a2a.json: kind discriminators, contextId)',
      'v0.3': 'v0.3.0 §6 (a2a.json)',
      'v1.0': 'v1.0.1 §4.1 Core Objects, §5.5 JSON naming, §5.6.1 Timestamps (a2a.proto)',
    },
    recommendation:
      'Emit objects exactly as the schema/proto of your generation defines them: v0.2/v0.3 need "kind" ("task", "message", "text"…), contextId and lowercase kebab states; v1.0 has no "kind", uses "TASK_STATE_*" and "ROLE_*" enums and UTC timestamps ending in Z. Mixing generations (e.g. v1.0 enums in a v0.3 response) breaks strict clients.',
    run: async (ctx) => {
      const pre = needDialect(ctx);
      if (pre) return pre;
      const runs = await skillRuns(ctx);
      const problems = new Map<string, string>();
      const add = (p: string, exchangeId: string) => {
        if (!problems.has(p) && problems.size < 40) problems.set(p, exchangeId);
      };
      for (const r of runs) {
        for (const p of r.send.envelopeProblems) add(p, r.send.http.exchangeId);
        if (r.send.kind === 'message') r.send.message.problems.forEach((p) => add(p, r.send.http.exchangeId));
        for (const o of r.observations) o.task.problems.forEach((p) => add(p, o.exchangeId));
        for (const g of r.gets) g.envelopeProblems.forEach((p) => add(p, g.http.exchangeId));
        // JSON is UTF-8 without a byte order mark (RFC 8259 §8.1); decoding hides both, strict clients do not.
        for (const h of [r.send.http, ...r.gets.map((g) => g.http)]) {
          if (h.invalidUtf8) add('the response body is not valid UTF-8', h.exchangeId);
          if (h.bom) add('the response body starts with a UTF-8 byte order mark (RFC 8259 §8.1: MUST NOT be added)', h.exchangeId);
        }
      }
      if (!runs.some((r) => r.send.kind === 'task' || r.send.kind === 'message')) return skip('No task or message was returned to judge.', 'precondition');
      const evidence: Evidence[] = [...problems].slice(0, 20).map(([p, x]) => ev('problem', p, { exchangeId: x }));
      return problems.size
        ? fail(`${problems.size} shape problem(s): ${[...problems.keys()].slice(0, 3).join('; ')}.`, evidence)
        : pass(`Every task and message returned is valid for ${ctx.generation}${ctx.binding ? ` ${ctx.binding}` : ''}.`);
    },
  }),
  defineCheck({
    id: 'lifecycle.cancel',
    title: 'Cancel answers with the canceled task, or TaskNotCancelable',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: CANCEL,
    recommendation:
      'On cancel, stop the work and return the Task in state canceled (or return TaskNotCancelable, -32002, when it cannot be stopped). In @a2a-js/sdk implement AgentExecutor.cancelTask and publish a canceled status; never answer with an internal error.',
    run: async (ctx) => {
      const pre = needDialect(ctx);
      if (pre) return pre;
      const c = await cancelFixture(ctx);
      return c.verdict;
    },
  }),
  defineCheck({
    id: 'lifecycle.cancel.effective',
    title: 'A running task can be canceled',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: CANCEL,
    recommendation: 'Support cancellation of running work: check for cancellation between steps of the executor, and publish a final canceled status (seed procedure step 2.3).',
    run: async (ctx) => {
      const pre = needDialect(ctx);
      if (pre) return pre;
      const c = await cancelFixture(ctx);
      return c.effective;
    },
  }),
  defineCheck({
    id: 'lifecycle.multi-turn',
    title: 'A task paused in input-required resumes when the client answers in the same task',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §6.3 (input-required), §7.1 (tasks/send on the same task id)',
      'v0.2': 'v0.2.6 §9.4 Multi-Turn Interaction',
      'v0.3': 'v0.3.0 §9.4 Multi-Turn Interaction',
      'v1.0': 'v1.0.1 §3.4.3 Multi-Turn Conversation Patterns, §6.3',
    },
    recommendation:
      'When a task is in input-required, accept a message with the same taskId (and contextId) and continue that task; do not create a new task or reject it. In @a2a-js/sdk the RequestContext of the follow-up carries the existing task.',
    run: (ctx) =>
      withTaskRuns(ctx, async (runs) => {
        const paused = runs.find((r) => r.final?.state === 'input-required' && r.final.id);
        if (!paused) return skip('No test task paused in input-required, so multi-turn could not be exercised.', 'not-applicable', runs.map(runEvidence));
        const d = ctx.dialect!;
        const t = paused.final!;
        const taskId = t.id!;
        const lane = paused.lane;
        const evidence = [runEvidence(paused)];
        // Answer (at most twice: some agents ask more than one question), then follow the task until it settles.
        let last: TaskState | undefined = 'input-required';
        for (let round = 1; round <= 2; round++) {
          const answer = round === 1 ? 'Here is the extra input you asked for: yes, go ahead.' : 'Yes. Please continue with sensible defaults.';
          const follow = await d.send(ctx.http, { text: answer, lane, checkId: ctx.checkId, taskId: t.id, contextId: t.contextId, timeoutMs: ctx.taskTimeoutMs });
          evidence.push(exchangeEvidence(follow.http, `answer ${round}`));
          if (follow.kind !== 'task') return brokenCallVerdict(ctx, follow, 'answering the input-required task');
          emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: follow.task, exchangeId: follow.http.exchangeId }, last);
          last = follow.task.state;
          if (follow.task.id !== t.id) return fail(`The answer created task ${follow.task.id} instead of resuming ${t.id}.`, evidence);
          let state = follow.task.state;
          // Moved on if the answer or any later look shows it working/finished. A non-blocking answer may
          // still report input-required while the agent has not processed it: keep looking for a while.
          let resumed = state !== 'input-required' && state !== 'auth-required';
          const started = ctx.http.host.now();
          const deadline = started + Math.min(ctx.taskTimeoutMs, 15_000);
          const patience = 1500;
          while (!isTerminal(state, ctx.generation) && ctx.http.host.now() < deadline && (resumed ? state !== 'input-required' && state !== 'auth-required' : ctx.http.host.now() - started < patience)) {
            await ctx.http.host.sleep(resumed ? 300 : 150, ctx.http.signal).catch(() => undefined);
            const g = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
            if (g.kind !== 'task') return brokenCallVerdict(ctx, g, 'following the resumed task');
            emitState(ctx, lane, { source: 'get', at: ctx.http.host.now(), task: g.task, exchangeId: g.http.exchangeId }, last);
            last = g.task.state;
            state = g.task.state;
            if (state !== 'input-required' && state !== 'auth-required') resumed = true;
          }
          if (state === 'completed') return pass(`Task ${t.id} resumed after answer ${round} and completed.`, evidence);
          if (state === 'failed' || state === 'rejected' || state === 'canceled') return fail(`After the answer the task ended ${state}.`, evidence);
          if (resumed) return pass(`Task ${t.id} resumed after answer ${round} (answer returned ${follow.task.rawState}, now ${state}).`, evidence);
        }
        return fail(`Task ${t.id} stayed input-required after two answers in the same task and context: the answers were ignored.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.history',
    title: 'get returns the task history and respects historyLength',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §7.3 TaskQueryParams.historyLength (stateTransitionHistory)',
      'v0.2': 'v0.2.6 §7.3.1 TaskQueryParams.historyLength',
      'v0.3': 'v0.3.0 §7.3.1 TaskQueryParams.historyLength',
      'v1.0': 'v1.0.1 §3.2.4 History Length Semantics',
    },
    recommendation:
      'Keep the messages of a task in Task.history and return at most historyLength of the most recent ones on get (v1.0: 0 means omit history; unset means no limit). @a2a-js/sdk and a2a-python store history when the task store does.',
    run: (ctx) =>
      withTaskRuns(ctx, async () => {
        const r = await completedRun(ctx);
        if (!r?.final?.id) return skip('No task finished, so there is no history to read.', 'precondition');
        const d = ctx.dialect!;
        const id = r.final.id;
        const full = await d.get(ctx.http, { id, historyLength: 100, lane: r.lane, checkId: ctx.checkId });
        if (full.kind !== 'task') return brokenCallVerdict(ctx, full, 'get with historyLength 100');
        const one = await d.get(ctx.http, { id, historyLength: 1, lane: r.lane, checkId: ctx.checkId });
        if (one.kind !== 'task') return brokenCallVerdict(ctx, one, 'get with historyLength 1');
        const evidence = [exchangeEvidence(full.http, 'historyLength=100'), exchangeEvidence(one.http, 'historyLength=1')];
        const promised = ctx.generation === 'legacy' && ctx.card.capabilities.stateTransitionHistory;
        if (!full.task.history?.length) {
          return fail(`get with historyLength=100 returned ${full.task.history ? 'an empty history' : 'no history'}${promised ? ' although the card declares stateTransitionHistory' : ''}.`, evidence);
        }
        if ((one.task.history?.length ?? 0) > 1) {
          return fail(`get with historyLength=1 returned ${one.task.history!.length} history entries (at most 1 expected).`, evidence);
        }
        return pass(`History has ${full.task.history.length} message(s); historyLength=1 returned ${one.task.history?.length ?? 0}.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.context',
    title: 'A new message in an existing context keeps that contextId',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v0.2': 'v0.2.6 §6.4 Message.contextId', 'v0.3': 'v0.3.0 §6.4 Message.contextId', 'v1.0': 'v1.0.1 §3.4.1 Context Identifier Semantics' },
    recommendation: 'When a message carries a contextId, create the new task in that context (or reject the contextId if it is not acceptable); do not silently start a new context.',
    run: (ctx) =>
      withTaskRuns(ctx, async () => {
        const r = await completedRun(ctx);
        const contextId = r?.final?.contextId;
        if (!r || !contextId) return skip('No finished task with a contextId to continue.', 'precondition');
        const lane = ctx.lane('context');
        const next = await ctx.dialect!.send(ctx.http, { text: r.text, contextId, lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs });
        if (next.kind === 'message') {
          return next.message.contextId === undefined || next.message.contextId === contextId
            ? pass(`The reply message stays in context ${contextId}.`, [exchangeEvidence(next.http)])
            : fail(`The reply message is in context ${next.message.contextId}, not ${contextId}.`, [exchangeEvidence(next.http)]);
        }
        if (next.kind !== 'task') return brokenCallVerdict(ctx, next, 'sending a message with an existing contextId');
        emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: next.task, exchangeId: next.http.exchangeId });
        if (next.task.contextId !== contextId) return fail(`The new task got contextId ${JSON.stringify(next.task.contextId)} instead of ${contextId}.`, [exchangeEvidence(next.http)]);
        if (next.task.id === r.final!.id) return fail(`The message created no new task: it reused the finished task ${next.task.id}.`, [exchangeEvidence(next.http)]);
        return pass(`New task ${next.task.id} in the same context ${contextId}.`, [exchangeEvidence(next.http)]);
      }),
  }),
  defineCheck({
    id: 'lifecycle.list',
    title: 'ListTasks lists the tasks just created, with a nextPageToken',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.1.4 List Tasks' },
    recommendation: 'Implement ListTasks: return visible tasks newest first, always include nextPageToken ("" on the last page), and omit artifacts unless includeArtifacts is set.',
    run: (ctx) =>
      withTaskRuns(ctx, async (runs) => {
        const d = ctx.dialect!;
        const lane = ctx.lane('list');
        const created = runs.map((r) => r.observations[0]?.task.id).filter((x): x is string => !!x);
        const res = d.isRest ? d.parseRest(await d.rawRest(ctx.http, 'GET', '/tasks?pageSize=100', undefined, { lane, checkId: ctx.checkId }), 'list') : await listRpc(ctx, lane);
        if (res.kind === 'error' && (res.error.code === -32601 || res.http.status === 404 || res.http.status === 405)) {
          return fail('ListTasks is not implemented (method not found).', [exchangeEvidence(res.http)]);
        }
        if (res.kind !== 'ok') return brokenCallVerdict(ctx, res, 'ListTasks');
        const v = res.value as { tasks?: unknown; nextPageToken?: unknown };
        const problems: string[] = [];
        if (!v || !Array.isArray(v.tasks)) problems.push('the result has no "tasks" list');
        if (typeof v?.nextPageToken !== 'string') problems.push('"nextPageToken" is missing (MUST be present, "" on the last page)');
        const listed = new Set(Array.isArray(v?.tasks) ? v.tasks.map((t) => (t as { id?: unknown })?.id) : []);
        const missing = created.filter((id) => !listed.has(id));
        if (missing.length && listed.size < 100) problems.push(`created task(s) not listed: ${missing.join(', ')}`);
        return problems.length ? fail(`ListTasks: ${problems.join('; ')}.`, [exchangeEvidence(res.http)]) : pass(`ListTasks lists ${listed.size} task(s) including the ${created.length} created.`, [exchangeEvidence(res.http)]);
      }),
  }),
  defineCheck({
    id: 'lifecycle.push-config',
    title: 'Push notification config can be set for a task when the card declares push',
    category: 'lifecycle',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §7.5 tasks/pushNotification/set',
      'v0.2': 'v0.2.6 §7.5 tasks/pushNotificationConfig/set',
      'v0.3': 'v0.3.0 §7.5 tasks/pushNotificationConfig/set',
      'v1.0': 'v1.0.1 §3.1.7 Create Push Notification Config',
    },
    recommendation: 'When capabilities.pushNotifications is true, accept push config for a task and return the stored config (with its id). @a2a-js/sdk: pass an InMemoryPushNotificationStore and DefaultPushNotificationSender to DefaultRequestHandler.',
    run: (ctx) => {
      if (!ctx.card.capabilities.pushNotifications) return skip('The card does not declare pushNotifications (see errors.push-not-supported).', 'not-applicable');
      return withTaskRuns(ctx, async (runs) => {
        const id = runs[0]!.observations[0]!.task.id!;
        const res = await ctx.dialect!.pushSet(ctx.http, { taskId: id, url: 'https://webhook.a2a-interop.invalid/push', lane: runs[0]!.lane, checkId: ctx.checkId });
        if (res.kind === 'ok') return pass('The push config was accepted.', [exchangeEvidence(res.http)]);
        return brokenCallVerdict(ctx, res, `${ctx.dialect!.describe('pushSet', id)} on an agent that declares push notifications`);
      });
    },
  }),
];

async function listRpc(ctx: CheckContext, lane: string): Promise<CallOutcome> {
  const d = ctx.dialect!;
  const { http, id } = await d.rpc(ctx.http, 'list', { pageSize: 100 }, { lane, checkId: ctx.checkId });
  return d.parseRpc(http, id, 'list');
}

interface CancelResult {
  verdict: Verdict;
  effective: Verdict;
  /** A task this run canceled, for errors.cancel-terminal. */
  canceledTaskId?: string;
}

/** The id of a task the cancel check canceled, if it got that far. */
export async function canceledTaskId(ctx: CheckContext): Promise<string | undefined> {
  return (await cancelFixture(ctx)).canceledTaskId;
}

/** Starts a task that is still running, cancels it at once, follows it (seed step 2.3). */
export function cancelFixture(ctx: CheckContext): Promise<CancelResult> {
  return ctx.fixture('cancel', async (): Promise<CancelResult> => {
    const lane = ctx.lane('cancel');
    let result: (CancelResult & { finishedFirst?: boolean }) | undefined;
    // Quick tasks may finish before the cancel lands: then try the next skill (at most 4).
    for (let from = 0; from < runningCandidates(ctx).length; ) {
      const started = await startRunningTask(ctx, 'cancel', from, lane);
      if (!started) break;
      result = await cancelOnce(ctx, started, lane);
      if (!result.finishedFirst) return result;
      from = started.index + 1;
    }
    return result ?? { verdict: skip('No task could be started to cancel.', 'precondition'), effective: skip('No task could be started to cancel.', 'precondition') };
  });
}

async function cancelOnce(ctx: CheckContext, started: RunningTask, lane: string): Promise<CancelResult & { finishedFirst?: boolean }> {
  const d = ctx.dialect!;
  const { send } = started;
  const blocked = authBlocked(ctx, send);
  if (blocked) return { verdict: blocked, effective: blocked };
  if (send.kind !== 'task' || !send.task.id) {
    const v =
      send.kind === 'message'
        ? skip('The agent replied with a Message; there is no task to cancel.', 'not-applicable')
        : send.kind === 'task'
          ? skip('The task has no id, so it cannot be canceled (see lifecycle.send).', 'precondition', [exchangeEvidence(send.http)])
          : brokenCallVerdict(ctx, send, 'starting a task to cancel');
    return { verdict: v, effective: v };
  }
  const wasRunning = !isTerminal(send.task.state, ctx.generation);
  const c = await d.cancel(ctx.http, { id: send.task.id, lane, checkId: ctx.checkId });
  const evidence = [exchangeEvidence(send.http, 'task started'), exchangeEvidence(c.http, `${d.describe('cancel', send.task.id)} response`)];
  if (c.kind === 'error') {
    const notCancelable = isNotCancelable(c, ctx);
    if (!notCancelable) return cancelFailed(ctx, c, send.task.id, lane, evidence);
    // Did it finish in between? Then refusing was right and cancellation could not be exercised.
    const after = await d.get(ctx.http, { id: send.task.id, lane, checkId: ctx.checkId });
    if (after.kind === 'task') evidence.push(exchangeEvidence(after.http, 'state after the refusal'));
    const finishedMeanwhile = after.kind === 'task' && isTerminal(after.task.state, ctx.generation);
    return {
      verdict: pass('The agent declined with TaskNotCancelable, which the spec allows.', evidence),
      effective:
        wasRunning && !finishedMeanwhile
          ? fail(`The task was ${after.kind === 'task' ? after.task.rawState : send.task.rawState} but the agent refused to cancel it (TaskNotCancelable).`, evidence)
          : skip(`The task had already finished (${after.kind === 'task' ? after.task.rawState : send.task.rawState}) when cancel arrived, so cancellation could not be exercised.`, 'precondition', evidence),
      finishedFirst: finishedMeanwhile || !wasRunning,
    };
  }
  if (c.kind !== 'task') return cancelFailed(ctx, c, send.task.id, lane, evidence);
  emitState(ctx, lane, { source: 'cancel', at: ctx.http.host.now(), task: c.task, exchangeId: c.http.exchangeId });
  let final = c.task;
  // Cancellation may complete asynchronously: follow the task for a few seconds.
  for (let i = 0; i < 10 && final.state !== 'canceled' && !isTerminal(final.state, ctx.generation) && !isInterrupted(final.state); i++) {
    await ctx.http.host.sleep(300, ctx.http.signal).catch(() => undefined);
    const g = await d.get(ctx.http, { id: send.task.id, lane, checkId: ctx.checkId });
    if (g.kind !== 'task') break;
    emitState(ctx, lane, { source: 'get', at: ctx.http.host.now(), task: g.task, exchangeId: g.http.exchangeId }, final.state);
    final = g.task;
    evidence.push(exchangeEvidence(g.http, 'followed'));
  }
  if (final.state === 'canceled') {
    const ok = pass(`Task ${send.task.id} went ${send.task.rawState} → ${final.rawState}.`, evidence);
    return { verdict: ok, effective: ok, canceledTaskId: send.task.id };
  }
  if (isTerminal(final.state, ctx.generation)) {
    const msg = `Cancel was answered with the task in ${final.rawState}, not canceled; a task that can no longer be canceled should get TaskNotCancelable (-32002).`;
    return { verdict: fail(msg, evidence), effective: wasRunning ? fail(msg, evidence) : skip(`The task had already finished (${send.task.rawState}) when cancel arrived.`, 'precondition') };
  }
  const msg = `After cancel the task stayed ${final.rawState} for 3 s.`;
  return { verdict: fail(msg, evidence), effective: fail(msg, evidence) };
}

/**
 * The cancel call failed (wrong error, 5xx, not JSON, no answer). If the task had finished before the cancel
 * landed, that is errors.cancel-terminal's business: report `finishedFirst` so another task is tried.
 */
async function cancelFailed(ctx: CheckContext, c: CallOutcome, taskId: string, lane: string, evidence: Evidence[]): Promise<CancelResult & { finishedFirst?: boolean }> {
  const d = ctx.dialect!;
  const now = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
  if (now.kind === 'task' && isTerminal(now.task.state, ctx.generation)) {
    const v = skip(`The task finished (${now.task.rawState}) before the cancel landed.`, 'precondition', evidence);
    return { verdict: v, effective: v, finishedFirst: true };
  }
  return { verdict: brokenCallVerdict(ctx, c, d.describe('cancel', taskId)), effective: skip('Cancel failed (see lifecycle.cancel).', 'precondition') };
}

/** TaskNotCancelable: -32002 on JSON-RPC; HTTP 400 (v1.0.1) or 409 (v1.0.0) with reason TASK_NOT_CANCELABLE on REST. */
export function isNotCancelable(o: Extract<CallOutcome, { kind: 'error' }>, ctx: CheckContext): boolean {
  if (ctx.dialect?.isRest) {
    return (o.http.status === 400 || o.http.status === 409) && (o.error.reason === undefined || o.error.reason === 'TASK_NOT_CANCELABLE');
  }
  return o.error.code === -32002;
}
