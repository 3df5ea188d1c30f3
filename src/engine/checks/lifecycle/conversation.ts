/**
 * Conversation checks: a paused task takes the client's answer, get returns the history (bounded by historyLength),
 * and a new message in an existing context stays in it.
 */
import type { Evidence } from '../../model/check';
import type { TaskState } from '../../model/events';
import type { CallOutcome } from '../../protocol/dialect';
import { isA2AError } from '../../protocol/errors';
import type { TaskView } from '../../protocol/shapes';
import { isInterrupted, isTerminal } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContextWith } from '../context';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip } from '../define';
import { brokenCallVerdict, contentTypeRefusal, rateLimited } from '../setups/outcomes';
import { completedRun, emitState, firstSkillRun, isObserved, readBack, runEvidence, skillInput, skillRuns } from '../setups/tasks';
import { contextOfTask, graded, historyMessageIds, listTasks } from './shared';

interface AnswerSeen {
  /** How the stored task shows our answer was processed, if it does. */
  processed?: string;
  task?: TaskView;
  broken?: CallOutcome;
  evidence: Evidence[];
}

/**
 * Follows a task after an answer to its question until it shows the answer was processed: it left input-required
 * (working, finished in any state: a refusal is an answer too), or asked again with a new status (timestamp or
 * message changed), or our message is in its history. Gives up after a short while (the budget, at most 15 s).
 */
async function followAnswer(
  ctx: CheckContextWith<'dialect'>,
  taskId: string,
  lane: string,
  before: TaskView,
  messageId: string,
  last: TaskState | undefined,
): Promise<AnswerSeen> {
  const started = ctx.http.host.now();
  const deadline = started + Math.min(ctx.taskTimeoutMs, 15_000);
  let delay = 150;
  let seen: TaskView | undefined;
  const evidence: Evidence[] = [];
  for (;;) {
    await ctx.http.host.sleep(delay, ctx.http.signal).catch(() => undefined);
    delay = Math.min(delay * 2, 1000);
    const g = await readBack(ctx, taskId, lane, 20);
    if (g.kind !== 'task') return { broken: g, evidence };
    emitState(ctx, lane, { source: 'get', at: ctx.http.host.now(), task: g.task, exchangeId: g.http.exchangeId }, last);
    last = g.task.state;
    seen = g.task;
    const st = g.task.state;
    const note = (why: string): AnswerSeen => {
      evidence.push(exchangeEvidence(g.http, 'read back'));
      return { processed: why, task: g.task, evidence };
    };
    if (isTerminal(st, ctx.generation)) return note(`it ended ${g.task.rawState}`);
    if (st !== 'input-required' && st !== 'auth-required') return note(`it resumed (${g.task.rawState})`);
    if (historyMessageIds(g.task).includes(messageId)) return note(`our message is in its history, and it asks again (${g.task.rawState})`);
    if (g.task.timestamp && g.task.timestamp !== before.timestamp)
      return note(`its status changed (timestamp ${before.timestamp ?? 'none'} → ${g.task.timestamp}), asking again`);
    if (g.task.statusMessageId !== before.statusMessageId || g.task.statusText !== before.statusText) return note('it asks again with a new status message');
    if ((g.task.history?.length ?? 0) > (before.history?.length ?? 0) && before.history !== undefined)
      return note(`its history grew (${before.history.length} → ${g.task.history?.length})`);
    if (ctx.http.host.now() >= deadline || ctx.http.signal.aborted) {
      evidence.push(exchangeEvidence(g.http, 'read back: unchanged'));
      return { task: seen, evidence };
    }
  }
}

export const lifecycleMultiTurn = defineCheck({
  id: 'lifecycle.multi-turn',
  title: "A task paused in input-required processes the client's answer in the same task",
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
  requires: ['task-run'],
  run: async (ctx) => {
    // The first test task seen paused in input-required, as soon as one is (not after the slowest skill's).
    const paused = await firstSkillRun(ctx, (r) => isObserved(r) && r.final?.state === 'input-required' && !!r.final.id);
    const t = paused?.final;
    const taskId = t?.id;
    if (!paused || !t || !taskId)
      return skip(
        'No test task paused in input-required, so multi-turn could not be exercised.',
        'not-applicable',
        (await skillRuns(ctx)).filter(isObserved).map(runEvidence),
      );
    const d = ctx.dialect;
    const lane = paused.lane;
    const evidence = [runEvidence(paused)];
    const weak: string[] = [];
    // Where the task stands before our answer: state, status timestamp and message, history.
    const base = await readBack(ctx, taskId, lane, 20);
    let before: TaskView = base.kind === 'task' ? base.task : t;
    let last: TaskState | undefined = before.state;
    // Answer (at most twice: some agents ask more than one question), then read the task back: the stored task,
    // not the answer to the send, shows whether our message was processed.
    for (let round = 1; round <= 2; round++) {
      const answer = round === 1 ? 'Here is the extra input you asked for: yes, go ahead.' : 'Yes. Please continue with sensible defaults.';
      const messageId = ctx.uuid();
      const follow = await d.send(ctx.http, {
        text: answer,
        lane,
        checkId: ctx.checkId,
        taskId,
        contextId: t.contextId,
        messageId,
        returnImmediately: true,
        timeoutMs: ctx.taskTimeoutMs,
      });
      evidence.push(exchangeEvidence(follow.http, `answer ${round}`));
      if (follow.kind === 'task') {
        emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: follow.task, exchangeId: follow.http.exchangeId }, last);
        if (follow.task.id !== taskId) weak.push(`answer ${round} was answered with task ${follow.task.id}, not ${taskId} (no sentence forbids it)`);
        else last = follow.task.state;
      } else if (follow.kind !== 'message') {
        return brokenCallVerdict(ctx, follow, 'answering the input-required task', { waits: true });
      }
      const seen = await followAnswer(ctx, taskId, lane, before, messageId, last);
      evidence.push(...seen.evidence);
      if (seen.broken) return brokenCallVerdict(ctx, seen.broken, 'reading the task back after the answer');
      last = seen.task?.state ?? last;
      if (seen.processed && seen.task) {
        const how = seen.processed;
        return graded(
          [],
          weak,
          evidence,
          `Task ${taskId} processed answer ${round}: ${how}.`,
          'No sentence requires the answer to come back in the same task.',
        );
      }
      if (seen.task) before = seen.task;
    }
    return fail(
      `Task ${taskId} stayed ${last ?? 'input-required'} after two answers in the same task and context, with nothing changed (same status timestamp and message, our messages not in its history): the answers look ignored.`,
      evidence,
    );
  },
});

export const lifecycleHistory = defineCheck({
  id: 'lifecycle.history',
  title: 'get returns the messages of a task in its history',
  category: 'lifecycle',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.3.1 TaskQueryParams.historyLength',
    'v0.2': 'v0.2.6 §7.3.1 TaskQueryParams.historyLength',
    'v0.3': 'v0.3.0 §7.3.1 TaskQueryParams.historyLength',
    'v1.0': 'v1.0.1 §3.7 Messages and Artifacts',
  },
  recommendation:
    'Keep the messages of a task in Task.history and return the most recent ones on get when historyLength asks for them. @a2a-js/sdk and a2a-python store history when the task store does.',
  requires: ['task-run'],
  run: async (ctx) => {
    const r = await completedRun(ctx);
    if (!r?.final?.id) return skip('No task finished, so there is no history to read.', 'precondition');
    const id = r.final.id;
    const full = await readBack(ctx, id, r.lane, 100);
    if (full.kind !== 'task') return brokenCallVerdict(ctx, full, 'get with historyLength 100');
    const evidence = [exchangeEvidence(full.http, 'historyLength=100')];
    if (!full.task.history?.length) {
      return fail(
        `get with historyLength=100 returned ${full.task.history ? 'an empty history' : 'no history'} for task ${id}, which has exchanged at least our message.`,
        evidence,
      );
    }
    return pass(`History of task ${id} has ${full.task.history.length} message(s).`, evidence);
  },
});

export const lifecycleHistoryLength = defineCheck({
  id: 'lifecycle.history-length',
  title: 'get returns no more history messages than historyLength asks for',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §7.3.1 TaskQueryParams.historyLength',
    'v0.2': 'v0.2.6 §7.3.1 TaskQueryParams.historyLength',
    'v0.3': 'v0.3.0 §7.3.1 TaskQueryParams.historyLength',
    'v1.0': 'v1.0.1 §3.2.4 History Length Semantics',
  },
  recommendation:
    'Return at most historyLength of the most recent messages (fewer is fine); in v1.0 omit history entirely for historyLength 0. Never read 0 as "unlimited" in v1.0.',
  requires: ['task-runs'],
  run: async (ctx) => {
    const runs = ctx.taskRuns;
    // A task with at least two messages in its history, so that a bound of 1 is observable.
    const candidates = runs.filter((r) => r.final?.id && (isTerminal(r.final.state, ctx.generation) || isInterrupted(r.final.state))).slice(0, 4);
    const tried: Evidence[] = [];
    let chosen: { id: string; lane: string; size: number } | undefined;
    for (const r of candidates) {
      const id = r.final?.id;
      if (!id) continue;
      const big = await readBack(ctx, id, r.lane, 100);
      const unset = await readBack(ctx, id, r.lane);
      const sizes = [big, unset].map((o) => (o.kind === 'task' ? (o.task.history?.length ?? 0) : 0));
      tried.push(ev(`task ${id}`, `history at historyLength=100: ${sizes[0]}, without historyLength: ${sizes[1]}`, { exchangeId: big.http.exchangeId }));
      const size = Math.max(...sizes);
      if (size >= 2) {
        chosen = { id, lane: r.lane, size };
        break;
      }
    }
    if (!chosen)
      return skip(
        'No test task showed two or more history messages, so a bound of 1 cannot be observed (history too short to test the bound).',
        'precondition',
        tried,
      );
    const { id, lane, size } = chosen;
    const one = await readBack(ctx, id, lane, 1);
    if (one.kind !== 'task') return brokenCallVerdict(ctx, one, 'get with historyLength 1');
    const evidence = [...tried, exchangeEvidence(one.http, 'historyLength=1')];
    const hard: string[] = [];
    const weak: string[] = [];
    const n1 = one.task.history?.length ?? 0;
    if (n1 > 1) hard.push(`get with historyLength=1 returned ${n1} history messages (the task has ${size}; at most 1 asked for)`);
    if (ctx.generation === 'v1.0') {
      // v1.0 §3.2.4: 0 means no history (SHOULD omit the field; any message breaks the MUST NOT). Never sent
      // below v1.0: the v0.3 proto reads 0 as "unlimited".
      const zero = await readBack(ctx, id, lane, 0);
      if (zero.kind !== 'task') return brokenCallVerdict(ctx, zero, 'get with historyLength 0');
      evidence.push(exchangeEvidence(zero.http, 'historyLength=0'));
      const h = zero.task.history;
      if (h?.length) hard.push(`get with historyLength=0 returned ${h.length} history message(s) (MUST NOT return more than 0)`);
      // An empty list is what ProtoJSON reads as an unset repeated field: no message is returned, only the
      // "SHOULD be omitted" wording is not followed. A remark, never a failure of the MUST.
      else if (h) weak.push('get with historyLength=0 returned "history": [] (§3.2.4: the history field SHOULD be omitted)');
    }
    return graded(
      hard,
      weak,
      evidence,
      `Task ${id} has ${size} history messages; historyLength=1 returned ${n1}${ctx.generation === 'v1.0' ? ', historyLength=0 none' : ''}.`,
      'In ProtoJSON an empty repeated field is the same as an absent one: "history": [] returns no message, as historyLength 0 asks; only the SHOULD to omit the field is not followed.',
    );
  },
});

export const lifecycleContext = defineCheck({
  id: 'lifecycle.context',
  title: 'A new message in an existing context keeps that contextId (or is refused)',
  category: 'lifecycle',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { 'v0.2': 'v0.2.6 §6.4 Message.contextId', 'v0.3': 'v0.3.0 §6.4 Message.contextId', 'v1.0': 'v1.0.1 §3.4.1 Context Identifier Semantics' },
  recommendation:
    'When a message carries a contextId, create the new task in that context (or reject the contextId if it is not acceptable); do not silently start a new context.',
  requires: ['task-run'],
  run: async (ctx) => {
    const r = await completedRun(ctx);
    const done = r?.final;
    const contextId = done ? contextOfTask(done) : undefined;
    if (!r || !done || !contextId) return skip('No finished task with a contextId to continue (neither the task nor its messages name one).', 'precondition');
    const d = ctx.dialect;
    const lane = ctx.lane('context');
    // The skill's own input (an image-only skill gets its image again), in the existing context.
    const input = r.input ?? skillInput(ctx, r.skillId);
    const next = await d.send(ctx.http, {
      ...input,
      text: input.text,
      contextId,
      lane,
      checkId: ctx.checkId,
      returnImmediately: true,
      timeoutMs: ctx.taskTimeoutMs,
    });
    const evidence = [exchangeEvidence(next.http, `send in context ${contextId}`)];
    const v1 = ctx.generation === 'v1.0';
    if (next.kind === 'message') {
      if (next.message.contextId === contextId) return pass(`The reply message stays in context ${contextId}.`, evidence);
      if (next.message.contextId === undefined) {
        return {
          ...fail(`The reply message carries no contextId, so whether it stayed in context ${contextId} cannot be seen.`, evidence),
          advisory: 'Message.contextId is optional; only a proto comment says it "must be provided" (lowercase).',
        };
      }
      return fail(
        `The reply message is in context ${next.message.contextId}, not ${contextId}${v1 ? ' (§3.4.1: an agent that cannot accept the contextId MUST reject the request and MUST NOT generate a new one)' : ''}.`,
        evidence,
      );
    }
    if (next.kind === 'error') {
      const blocked = refusedForCredentials(ctx, next.http) ?? rateLimited(next, 'Sending a message with an existing contextId');
      if (blocked) return blocked;
      const crash = next.http.status >= 500 || isA2AError(next, 'InternalError');
      // A refusal of our content type is not a refusal of the context: judged as such (skip or advisory).
      if (crash || contentTypeRefusal(next, ctx.generation, ctx.binding) === 'explicit')
        return brokenCallVerdict(ctx, next, 'sending a message with an existing contextId', { input });
      const err = `${next.error.code ?? `HTTP ${next.http.status}`} ${next.error.message.slice(0, 160)}`;
      if (v1) return pass(`The agent refused the client-provided contextId with an error (${err}), which v1.0.1 §3.4.1 permits.`, evidence);
      return {
        ...fail(`The agent refused a message in its own context ${contextId} (${err}).`, evidence),
        advisory: `Keeping a client-sent contextId is described, not required, in ${ctx.generation}.`,
      };
    }
    if (next.kind !== 'task') return brokenCallVerdict(ctx, next, 'sending a message with an existing contextId', { input, waits: true });
    emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: next.task, exchangeId: next.http.exchangeId });
    if (contextOfTask(next.task) !== undefined && contextOfTask(next.task) !== contextId) {
      return fail(
        `The new task got contextId ${JSON.stringify(contextOfTask(next.task))} instead of ${contextId}${v1 ? ' (§3.4.1: MUST NOT generate a new contextId; reject the request instead)' : ''}.`,
        evidence,
      );
    }
    const hard: string[] = [];
    const weak: string[] = [];
    if (next.task.id === done.id) weak.push(`the message created no new task: it reused the finished task ${next.task.id}`);
    // Observed, not trusted: the stored task's context.
    let stored = contextOfTask(next.task);
    if (next.task.id) {
      const back = await readBack(ctx, next.task.id, lane);
      if (back.kind === 'task') {
        evidence.push(exchangeEvidence(back.http, 'read back'));
        stored = contextOfTask(back.task) ?? stored;
        if (back.task.contextId !== undefined && back.task.contextId !== contextId)
          hard.push(`task ${next.task.id} is stored in context ${back.task.contextId}, not ${contextId}`);
      }
      if (v1) {
        const listed = await listTasks(ctx, lane, { contextId, pageSize: 100 });
        if (listed.kind === 'ok' && isRecord(listed.value) && Array.isArray(listed.value.tasks)) {
          const ids = new Set(listed.value.tasks.map((x) => (isRecord(x) ? x.id : undefined)));
          const missing = [done.id, next.task.id].filter((x) => !ids.has(x));
          if (missing.length) weak.push(`ListTasks with contextId ${contextId} does not list ${missing.join(', ')}`);
          evidence.push(exchangeEvidence(listed.http, 'ListTasks in the context'));
        }
      }
    }
    if (stored === undefined) weak.push(`neither the answer nor the stored task carries a contextId, so the context cannot be seen`);
    return graded(
      hard,
      weak,
      evidence,
      `New task ${next.task.id} in the same context ${contextId} (read back).`,
      'No sentence requires a new task per message, a contextId on every Task (v1.0: not REQUIRED) or ListTasks to show them.',
    );
  },
});
