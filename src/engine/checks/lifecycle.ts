import type { Evidence, Generation } from '../model/check';
import type { CallOutcome } from '../protocol/dialect';
import type { TaskView } from '../protocol/shapes';
import type { TaskState } from '../model/events';
import { isInterrupted, isTerminal } from '../protocol/states';
import { isRecord } from '../util/json';
import { cancelFixture } from './fixtures/cancel';
import { streamFixture } from './fixtures/stream';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip, TIMEOUT_KNOB, toolLimit, type CheckContext, type CheckDef, type Verdict } from './define';
import { brokenCallVerdict, contentTypeRefusal, declaredInputRefused, errText, isTaskNotFound, rateLimited } from './fixtures/outcomes';
import {
  completedRun,
  describeRun,
  emitState,
  readBack,
  runEvidence,
  runningSkill,
  skillInput,
  skillRuns,
  startRunningTask,
  type TaskRun,
} from './fixtures/tasks';
import { needDialect } from './preconditions';

const SEND = {
  legacy: 'v0.1.0 §7.1 tasks/send',
  'v0.2': 'v0.2.6 §7.1 message/send',
  'v0.3': 'v0.3.0 §7.1 message/send',
  'v1.0': 'v1.0.1 §3.1.1 SendMessage',
};
const GET = { legacy: 'v0.1.0 §7.3 tasks/get', 'v0.2': 'v0.2.6 §7.3 tasks/get', 'v0.3': 'v0.3.0 §7.3 tasks/get', 'v1.0': 'v1.0.1 §3.1.3 GetTask' };
const CANCEL = { legacy: 'v0.1.0 §7.4 tasks/cancel', 'v0.2': 'v0.2.6 §7.4 tasks/cancel', 'v0.3': 'v0.3.0 §7.4 tasks/cancel', 'v1.0': 'v1.0.1 §3.1.5 CancelTask' };
const STATES = { legacy: 'v0.1.0 §6.3 TaskState', 'v0.2': 'v0.2.6 §6.3 TaskState', 'v0.3': 'v0.3.0 §6.3 TaskState', 'v1.0': 'v1.0.1 §4.1.3 TaskState' };

/**
 * The webhook URL the push-config check registers. An https URL on a public, resolvable host, so an agent that
 * validates webhook URLs against SSRF (v1.0.1 §13.2: scheme, private and loopback ranges, DNS) accepts it;
 * example.com is reserved for documentation (RFC 2606) and its server ignores what it is sent, so no third party
 * receives the test task's notifications. We never listen there: the check judges the config answers, not delivery.
 */
export const PUSH_WEBHOOK_URL = 'https://example.com/a2a-interop/push-webhook';

/**
 * A verdict from findings of two strengths: fails on the MUST/SHOULD ones (`hard`), an advisory when only weaker
 * ones remain (`weak`), else `ok`. The message says which is which.
 */
function graded(hard: string[], weak: string[], evidence: Evidence[], ok: string, why: string, recommendation?: string): Verdict {
  if (hard.length) {
    const also = weak.length ? ` Also (not required): ${weak.slice(0, 3).join('; ')}.` : '';
    return fail(`${hard.slice(0, 4).join('; ')}.${also}`, evidence, recommendation);
  }
  if (weak.length) return { ...fail(`${weak.slice(0, 4).join('; ')}.`, evidence, recommendation), advisory: why };
  return pass(ok, evidence);
}

const DECLARED_WHY =
  'Input modes describe what a skill accepts ("Supported media types for input"); no sentence obliges an agent to accept every declared type, and A2A has no skill selection.';
const UNKNOWN_WHY = 'A state of the generation\'s enum: no sentence forbids it as a first state.';

/** Skips when the agent answers with Messages only: checks that need a task cannot run. */
async function withTaskRuns(ctx: CheckContext, body: (runs: TaskRun[]) => Verdict | Promise<Verdict>): Promise<Verdict> {
  const pre = needDialect(ctx);
  if (pre) return pre;
  const runs = await skillRuns(ctx);
  const blocked = runs.map((r) => refusedForCredentials(ctx, r.send.http)).find(Boolean);
  if (blocked) return blocked;
  const withTask = runs.filter((r) => r.observations.length > 0);
  if (!withTask.length) {
    if (runs.some((r) => r.outcome === 'message')) {
      return skip('The agent replied with a Message instead of a Task (a message-only agent), so there is no task to check.', 'not-applicable', runs.map(runEvidence));
    }
    const limited = runs.map((r) => rateLimited(r.send, 'Creating a test task')).find(Boolean);
    if (limited) return limited;
    if (runs.length && runs.every((r) => r.outcome === 'timeout')) {
      return toolLimit(`No test task answered within our ${ctx.taskTimeoutMs} ms budget, so there is no task to check. To judge it, ${TIMEOUT_KNOB}.`, runs.map(runEvidence));
    }
    return skip('No test task could be created (see lifecycle.send).', 'precondition', runs.map(runEvidence));
  }
  return body(withTask);
}

/** Whether a state is one a task may be in right after creation, per generation (X6); `unknown` is an advisory. */
function initialStateNote(t: TaskView, g: Generation): string | undefined {
  if (t.state !== 'unknown') return undefined;
  return g === 'v1.0'
    ? `the initial state ${t.rawState} is the proto's zero value ("unknown or indeterminate"): it says nothing about the task`
    : `the initial state ${t.rawState} is in the ${g} state enum but says nothing about the task`;
}

/** The ids of messages in a task's history (to see whether our answer was recorded). */
const historyMessageIds = (t: TaskView): string[] =>
  (t.history ?? []).map((m) => (isRecord(m) && typeof m.messageId === 'string' ? m.messageId : undefined)).filter((x): x is string => !!x);

/** The artifacts of a task, counted (absent = 0). */
const artifactCount = (t: TaskView) => t.artifacts?.length ?? 0;

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
      const d = ctx.dialect!;
      const all = await skillRuns(ctx);
      // A skill that accepts only media types this tool cannot produce rightly refuses our text: not judged.
      const refused = all.filter((r) => r.outcome === 'refused-input');
      // A refusal of a declared media type is an advisory (X1.2): card modes are descriptive.
      const declared = all.filter((r) => r.outcome === 'refused-declared-input');
      const runs = all.filter((r) => !refused.includes(r) && !declared.includes(r));
      if (!runs.length) {
        if (declared.length) {
          const first = declared[0]!;
          return declaredInputRefused(`${d.describe('send')} to skill ${first.skillId ?? '(none)'}`, first.input!, first.send, declared.map((r) => exchangeEvidence(r.send.http, `skill ${r.skillId}`)));
        }
        return skip(
          `Every selected skill accepts only media types this tool cannot produce, and the agent correctly refused our text with ContentTypeNotSupported (${refused.map((r) => r.skillId).join(', ')}).`,
          'precondition',
          refused.map(runEvidence),
        );
      }
      const basic = runs[0]!;
      const s = basic.send;
      const evidence = [exchangeEvidence(s.http, `${d.describe('send')} response`), ev('message sent', basic.input ? `${basic.input.text} (${basic.input.mediaType})` : basic.text)];
      if (refused.length) evidence.push(...refused.map((r) => ev(`skill ${r.skillId}`, `correctly refused our text: ${r.input?.unsupported ?? ''}`, { exchangeId: r.send.http.exchangeId })));
      const weak: string[] = declared.map((r) => `skill ${r.skillId} refused our ${r.input?.mediaType ?? ''} input as an unsupported content type although it declares that media type (input modes are descriptive)`);
      evidence.push(...declared.map((r) => exchangeEvidence(r.send.http, `skill ${r.skillId}: declared input refused`)));
      if (s.kind === 'message') {
        if (ctx.generation === 'legacy') return fail('tasks/send returned a Message; the legacy protocol always returns a Task.', evidence);
        return graded([], weak, evidence, 'The agent replied with a Message (a message-only agent): allowed, but checks that need a task will skip.', DECLARED_WHY);
      }
      if (s.kind !== 'task') return brokenCallVerdict(ctx, s, d.describe('send'), { input: basic.input, waits: true });
      const t = s.task;
      if (!t.id) return fail('The returned Task has no id.', evidence);
      if (ctx.generation === 'legacy' && basic.clientTaskId && t.id !== basic.clientTaskId) {
        return fail(`tasks/send returned task id "${t.id}", not the id the client chose ("${basic.clientTaskId}").`, evidence, 'In the legacy protocol the client picks the task id (TaskSendParams.id); echo it back.');
      }
      if (!t.state) return fail(`The initial state ${JSON.stringify(t.rawState)} is not a task state.`, evidence);
      const note = initialStateNote(t, ctx.generation);
      if (note) weak.push(note);
      // Other skills: the same rules (content type, budget, rate limit, credentials) before blaming the agent.
      const hard: string[] = [];
      const otherWhy: string[] = [];
      for (const r of runs.slice(1)) {
        if (r.send.kind === 'task' || r.send.kind === 'message') continue;
        const v = brokenCallVerdict(ctx, r.send, `skill ${r.skillId ?? '(none)'}: ${d.describe('send')}`, { input: r.input, waits: true });
        evidence.push(runEvidence(r));
        if (v.status === 'fail' && !v.advisory) hard.push(v.message);
        else if (v.status === 'fail') {
          weak.push(v.message);
          if (v.advisory && !otherWhy.includes(v.advisory)) otherWhy.push(v.advisory);
        }
        else evidence.push(ev(`skill ${r.skillId} not judged`, v.message));
      }
      if (hard.length) return fail(`The first skill's task was created, but ${hard.length} other skill(s) failed to start: ${hard.slice(0, 3).join('; ')}.`, evidence);
      const why = [note ? UNKNOWN_WHY : '', declared.length ? DECLARED_WHY : '', ...otherWhy].filter(Boolean).join(' ');
      return graded([], weak, evidence, `Task ${t.id} created in state ${t.rawState}.`, why);
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
        const d = ctx.dialect!;
        const hard: string[] = [];
        const weak: string[] = [];
        const evidence: Evidence[] = [];
        let judged = 0;
        for (const r of runs) {
          const sent = r.observations[0]!.task.id;
          if (!sent) continue;
          // The state the task had before each get (the send's answer, then each get's).
          let before = r.observations[0]!.task;
          for (const g of r.gets) {
            judged++;
            const what = `${d.describe('get', sent)} (${r.skillId ? `skill ${r.skillId}` : 'message'})`;
            if (g.kind === 'task') {
              if (g.task.id !== sent) {
                hard.push(`${what} returned task id ${JSON.stringify(g.task.id)} for ${JSON.stringify(sent)}`);
                evidence.push(exchangeEvidence(g.http));
              } else if (!g.task.state) {
                hard.push(`${what} returned no task state (${JSON.stringify(g.task.rawState)})`);
                evidence.push(exchangeEvidence(g.http));
              }
              before = g.task;
              continue;
            }
            if (isTaskNotFound(g, ctx)) {
              const retried = r.notFoundRetries?.length ? ' (asked again after 300 ms)' : '';
              if (isTerminal(before.state, ctx.generation)) {
                weak.push(`${what} answered TaskNotFound for a task that had already finished (${before.rawState}): the error table allows "already completed and purged", and no release sets a retention time`);
              } else {
                hard.push(`${what} answered TaskNotFound for task ${sent}, which it had just reported ${before.rawState ?? 'created'}${retried}`);
              }
              evidence.push(exchangeEvidence(g.http));
              continue;
            }
            const v = brokenCallVerdict(ctx, g, what);
            if (v.status !== 'fail') {
              if (judged === 1) return v;
              evidence.push(ev('not judged', v.message));
              continue;
            }
            (v.advisory ? weak : hard).push(v.message.replace(/\.$/, ''));
            evidence.push(...(v.evidence ?? []));
          }
        }
        if (!judged) return skip('No get was made (the task could not be created).', 'precondition', runs.map(runEvidence));
        if (!hard.length && !weak.length) evidence.push(...runs.slice(0, 3).map(runEvidence));
        return graded(hard, weak, evidence, `${judged} get(s) of ${runs.length} task(s) returned the task asked for, each in a legal state.`, 'A finished task may be purged: the error table allows TaskNotFound for a task "already completed and purged".');
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
        // A get that broke is lifecycle.get's finding; judging it here again would count one defect twice.
        return skip(`A task could not be followed to its end (${describeRun(broken)}): the call that broke is judged by lifecycle.get.`, 'precondition', evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.transitions',
    title: 'State transitions are plausible: a terminal state does not change',
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
        // The cancel lane: the answer and the read-backs show whether a canceled task stays canceled.
        const c = await cancelFixture(ctx);
        if (c.observations.length > 1) {
          sequences.push({ label: `canceled task ${c.observations[0]!.task.id ?? '?'}`, states: c.observations.map((o) => ({ state: o.task.state, raw: o.task.rawState, source: o.source })) });
        }
        // Polling sees only snapshots; the stream shows every transition, so judge it too (one sequence per task).
        if (ctx.card.capabilities.streaming) {
          const f = await streamFixture(ctx);
          const byTask = new Map<string, typeof f.run.items>();
          for (const i of f.run.items.filter((x) => x.state)) {
            const k = i.taskId ?? '?';
            byTask.set(k, [...(byTask.get(k) ?? []), i]);
          }
          for (const [taskId, items] of byTask) {
            sequences.push({ label: `streamed task ${taskId}`, states: items.map((i) => ({ state: i.state, raw: i.rawState, source: `stream event ${i.seq}` })) });
          }
        }
        let count = 0;
        for (const seq of sequences) {
          count += seq.states.length;
          for (let i = 1; i < seq.states.length; i++) {
            const a = seq.states[i - 1]!;
            const b = seq.states[i]!;
            // The only transition any release speaks of: out of a terminal state ("can't be restarted"). The
            // others (back to submitted, working <-> input-required, straight to completed) are all legal.
            if (a.state && b.state && a.state !== b.state && isTerminal(a.state, ctx.generation)) {
              problems.push(`${seq.label}: ${a.raw} → ${b.raw} (${a.source} then ${b.source})`);
            }
          }
        }
        const evidence = [...runs.map(runEvidence), ...sequences.slice(runs.length).map((q) => ev(q.label, q.states.map((x) => `${x.source}:${x.raw}`).join(' → ')))];
        return problems.length
          ? fail(`A terminal state changed: ${problems.slice(0, 3).join('; ')}.`, evidence)
          : pass(`${count} observed states in ${sequences.length} sequence(s); no terminal state changed.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.task-id-stable',
    title: 'The task id stays the same across calls, and new tasks get distinct ids',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §6.1 Task', 'v0.2': 'v0.2.6 §6.1 Task', 'v0.3': 'v0.3.0 §6.1 Task', 'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics' },
    recommendation: 'Return the same task id (and contextId) for a task in every answer; clients key their state on it.',
    run: (ctx) =>
      withTaskRuns(ctx, (runs) => {
        const hard: string[] = [];
        const weak: string[] = [];
        for (const r of runs) {
          const ids = new Set(r.observations.map((o) => o.task.id));
          const ctxs = new Set(r.observations.map((o) => o.task.contextId).filter((x) => x !== undefined));
          if (ids.size > 1) hard.push(`task ids changed: ${[...ids].join(' → ')}`);
          if (ctxs.size > 1) weak.push(`context ids changed: ${[...ctxs].join(' → ')}`);
        }
        const created = runs.map((r) => r.observations[0]?.task.id).filter(Boolean);
        if (new Set(created).size < created.length) hard.push(`two different tasks got the same id (${created.join(', ')})`);
        return graded(
          hard.map((p) => `Identifiers are unstable: ${p}`),
          weak.map((p) => `The context changed within one task: ${p}`),
          runs.map(runEvidence),
          `${created.length} task(s), ids stable and distinct.`,
          'No sentence requires a task to keep its contextId in every answer (v1.0: Task.contextId is not REQUIRED; legacy: sessionId is the client\'s).',
        );
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
      const v1 = ctx.generation === 'v1.0';
      const problems = new Map<string, { exchangeId: string; level: 'MUST' | 'advisory' }>();
      const add = (p: string, exchangeId: string, level: 'MUST' | 'advisory') => {
        if (!problems.has(p) && problems.size < 60) problems.set(p, { exchangeId, level });
      };
      // RFC 8259 §9: a parser MAY limit nesting; a deep answer is legal JSON that some clients refuse.
      const envelopeLevel = (p: string): 'MUST' | 'advisory' => (/^the answer nests JSON \d+ levels deep/.test(p) ? 'advisory' : 'MUST');
      const addView = (v: { problems: string[]; findings?: { problem: string; level: 'MUST' | 'advisory' }[] }, exchangeId: string) => {
        for (const f of v.findings ?? v.problems.map((problem) => ({ problem, level: 'MUST' as const }))) add(f.problem, exchangeId, f.level);
      };
      for (const r of runs) {
        for (const p of r.send.envelopeProblems) add(p, r.send.http.exchangeId, envelopeLevel(p));
        if (r.send.kind === 'message') addView(r.send.message, r.send.http.exchangeId);
        for (const o of r.observations) addView(o.task, o.exchangeId);
        for (const g of r.gets) g.envelopeProblems.forEach((p) => add(p, g.http.exchangeId, envelopeLevel(p)));
        // UTF-8 without a byte order mark: v1.0 §14.1.1 with RFC 8259 §8.1 (MUST); v0.x cite JSON-RPC 2.0 and
        // through it RFC 4627, which has no such rule: an advisory there.
        for (const h of [r.send.http, ...r.gets.map((g) => g.http)]) {
          if (h.invalidUtf8) add(`the response body is not valid UTF-8${v1 ? ' (v1.0.1 §14.1.1: UTF-8 MUST be used)' : ''}`, h.exchangeId, v1 ? 'MUST' : 'advisory');
          if (h.bom) add(`the response body starts with a UTF-8 byte order mark${v1 ? ' (RFC 8259 §8.1: MUST NOT be added)' : ''}`, h.exchangeId, v1 ? 'MUST' : 'advisory');
        }
      }
      if (!runs.some((r) => r.send.kind === 'task' || r.send.kind === 'message')) return skip('No task or message was returned to judge.', 'precondition');
      const all = [...problems];
      const hard = all.filter(([, x]) => x.level === 'MUST').map(([p]) => p);
      const weak = all.filter(([, x]) => x.level !== 'MUST').map(([p]) => p);
      const evidence: Evidence[] = [...all.filter(([, x]) => x.level === 'MUST'), ...all.filter(([, x]) => x.level !== 'MUST')]
        .slice(0, 20)
        .map(([p, x]) => ev(x.level === 'MUST' ? 'problem' : 'not required', p, { exchangeId: x.exchangeId }));
      if (hard.length) {
        return fail(`${hard.length} shape problem(s): ${hard.slice(0, 3).join('; ')}.${weak.length ? ` Also ${weak.length} finding(s) the ${ctx.generation} specification does not require (see evidence).` : ''}`, evidence);
      }
      if (weak.length) {
        return {
          ...fail(`${weak.length} finding(s) the ${ctx.generation} specification does not require: ${weak.slice(0, 3).join('; ')}.`, evidence),
          advisory: `Each is backed by a description, an optional schema format or a SHOULD for the receiver (v1.0 §5.7: receivers SHOULD ignore unrecognized fields), not by a requirement on the agent.`,
        };
      }
      return pass(`Every task and message returned is valid for ${ctx.generation}${ctx.binding ? ` ${ctx.binding}` : ''}.`);
    },
  }),
  defineCheck({
    id: 'lifecycle.cancel',
    title: 'Cancel answers with the task (in whatever state the attempt left it), or TaskNotCancelable / TaskNotFound',
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
    title: 'A running task can be canceled, and stays canceled (read back)',
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
    title: 'A task paused in input-required processes the client\'s answer in the same task',
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
          const follow = await d.send(ctx.http, { text: answer, lane, checkId: ctx.checkId, taskId, contextId: t.contextId, messageId, returnImmediately: true, timeoutMs: ctx.taskTimeoutMs });
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
            return graded([], weak, evidence, `Task ${taskId} processed answer ${round}: ${how}.`, 'No sentence requires the answer to come back in the same task.');
          }
          if (seen.task) before = seen.task;
        }
        return fail(
          `Task ${taskId} stayed ${last ?? 'input-required'} after two answers in the same task and context, with nothing changed (same status timestamp and message, our messages not in its history): the answers look ignored.`,
          evidence,
        );
      }),
  }),
  defineCheck({
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
    run: (ctx) =>
      withTaskRuns(ctx, async () => {
        const r = await completedRun(ctx);
        if (!r?.final?.id) return skip('No task finished, so there is no history to read.', 'precondition');
        const id = r.final.id;
        const full = await readBack(ctx, id, r.lane, 100);
        if (full.kind !== 'task') return brokenCallVerdict(ctx, full, 'get with historyLength 100');
        const evidence = [exchangeEvidence(full.http, 'historyLength=100')];
        if (!full.task.history?.length) {
          return fail(`get with historyLength=100 returned ${full.task.history ? 'an empty history' : 'no history'} for task ${id}, which has exchanged at least our message.`, evidence);
        }
        return pass(`History of task ${id} has ${full.task.history.length} message(s).`, evidence);
      }),
  }),
  defineCheck({
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
    run: (ctx) =>
      withTaskRuns(ctx, async (runs) => {
        // A task with at least two messages in its history, so that a bound of 1 is observable.
        const candidates = runs.filter((r) => r.final?.id && (isTerminal(r.final.state, ctx.generation) || isInterrupted(r.final.state))).slice(0, 4);
        const tried: Evidence[] = [];
        let chosen: { id: string; lane: string; size: number } | undefined;
        for (const r of candidates) {
          const id = r.final!.id!;
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
        if (!chosen) return skip('No test task showed two or more history messages, so a bound of 1 cannot be observed (history too short to test the bound).', 'precondition', tried);
        const { id, lane, size } = chosen;
        const one = await readBack(ctx, id, lane, 1);
        if (one.kind !== 'task') return brokenCallVerdict(ctx, one, 'get with historyLength 1');
        const evidence = [...tried, exchangeEvidence(one.http, 'historyLength=1')];
        const hard: string[] = [];
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
          else if (h) hard.push('get with historyLength=0 returned "history": [] (§3.2.4: the history field SHOULD be omitted)');
        }
        return hard.length
          ? fail(`${hard.join('; ')}.`, evidence)
          : pass(`Task ${id} has ${size} history messages; historyLength=1 returned ${n1}${ctx.generation === 'v1.0' ? ', historyLength=0 none' : ''}.`, evidence);
      }),
  }),
  defineCheck({
    id: 'lifecycle.context',
    title: 'A new message in an existing context keeps that contextId (or is refused)',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v0.2': 'v0.2.6 §6.4 Message.contextId', 'v0.3': 'v0.3.0 §6.4 Message.contextId', 'v1.0': 'v1.0.1 §3.4.1 Context Identifier Semantics' },
    recommendation: 'When a message carries a contextId, create the new task in that context (or reject the contextId if it is not acceptable); do not silently start a new context.',
    run: (ctx) =>
      withTaskRuns(ctx, async () => {
        const r = await completedRun(ctx);
        const contextId = r?.final ? contextOfTask(r.final) : undefined;
        if (!r || !contextId) return skip('No finished task with a contextId to continue (neither the task nor its messages name one).', 'precondition');
        const d = ctx.dialect!;
        const lane = ctx.lane('context');
        // The skill's own input (an image-only skill gets its image again), in the existing context.
        const input = r.input ?? skillInput(ctx, r.skillId);
        const next = await d.send(ctx.http, { ...input, text: input.text, contextId, lane, checkId: ctx.checkId, returnImmediately: true, timeoutMs: ctx.taskTimeoutMs });
        const evidence = [exchangeEvidence(next.http, `send in context ${contextId}`)];
        const v1 = ctx.generation === 'v1.0';
        if (next.kind === 'message') {
          if (next.message.contextId === contextId) return pass(`The reply message stays in context ${contextId}.`, evidence);
          if (next.message.contextId === undefined) {
            return { ...fail(`The reply message carries no contextId, so whether it stayed in context ${contextId} cannot be seen.`, evidence), advisory: 'Message.contextId is optional; only a proto comment says it "must be provided" (lowercase).' };
          }
          return fail(`The reply message is in context ${next.message.contextId}, not ${contextId}${v1 ? ' (§3.4.1: an agent that cannot accept the contextId MUST reject the request and MUST NOT generate a new one)' : ''}.`, evidence);
        }
        if (next.kind === 'error') {
          const blocked = refusedForCredentials(ctx, next.http) ?? rateLimited(next, 'Sending a message with an existing contextId');
          if (blocked) return blocked;
          const crash = next.http.status >= 500 || next.error.code === -32603;
          // A refusal of our content type is not a refusal of the context: judged as such (skip or advisory).
          if (crash || contentTypeRefusal(next, ctx.generation, ctx.binding) === 'explicit') return brokenCallVerdict(ctx, next, 'sending a message with an existing contextId', { input });
          const err = `${next.error.code ?? `HTTP ${next.http.status}`} ${next.error.message.slice(0, 160)}`;
          if (v1) return pass(`The agent refused the client-provided contextId with an error (${err}), which v1.0.1 §3.4.1 permits.`, evidence);
          return { ...fail(`The agent refused a message in its own context ${contextId} (${err}).`, evidence), advisory: `Keeping a client-sent contextId is described, not required, in ${ctx.generation}.` };
        }
        if (next.kind !== 'task') return brokenCallVerdict(ctx, next, 'sending a message with an existing contextId', { input, waits: true });
        emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: next.task, exchangeId: next.http.exchangeId });
        if (contextOfTask(next.task) !== undefined && contextOfTask(next.task) !== contextId) {
          return fail(`The new task got contextId ${JSON.stringify(contextOfTask(next.task))} instead of ${contextId}${v1 ? ' (§3.4.1: MUST NOT generate a new contextId; reject the request instead)' : ''}.`, evidence);
        }
        const hard: string[] = [];
        const weak: string[] = [];
        if (next.task.id === r.final!.id) weak.push(`the message created no new task: it reused the finished task ${next.task.id}`);
        // Observed, not trusted: the stored task's context.
        let stored = contextOfTask(next.task);
        if (next.task.id) {
          const back = await readBack(ctx, next.task.id, lane);
          if (back.kind === 'task') {
            evidence.push(exchangeEvidence(back.http, 'read back'));
            stored = contextOfTask(back.task) ?? stored;
            if (back.task.contextId !== undefined && back.task.contextId !== contextId) hard.push(`task ${next.task.id} is stored in context ${back.task.contextId}, not ${contextId}`);
          }
          if (v1) {
            const listed = await listTasks(ctx, lane, { contextId, pageSize: 100 });
            if (listed.kind === 'ok' && isRecord(listed.value) && Array.isArray(listed.value.tasks)) {
              const ids = new Set(listed.value.tasks.map((x) => (isRecord(x) ? x.id : undefined)));
              const missing = [r.final!.id!, next.task.id].filter((x) => !ids.has(x));
              if (missing.length) weak.push(`ListTasks with contextId ${contextId} does not list ${missing.join(', ')}`);
              evidence.push(exchangeEvidence(listed.http, 'ListTasks in the context'));
            }
          }
        }
        if (stored === undefined) weak.push(`neither the answer nor the stored task carries a contextId, so the context cannot be seen`);
        return graded(hard, weak, evidence, `New task ${next.task.id} in the same context ${contextId} (read back).`, 'No sentence requires a new task per message, a contextId on every Task (v1.0: not REQUIRED) or ListTasks to show them.');
      }),
  }),
  defineCheck({
    id: 'lifecycle.list',
    title: 'ListTasks lists the tasks of a context, newest first, with a nextPageToken',
    category: 'lifecycle',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { 'v1.0': 'v1.0.1 §3.1.4 List Tasks' },
    recommendation: 'Implement ListTasks: filter by contextId, return visible tasks newest first (by status timestamp), always include nextPageToken ("" on the last page), and omit artifacts unless includeArtifacts is set.',
    run: (ctx) =>
      withTaskRuns(ctx, async (runs) => {
        const lane = ctx.lane('list');
        const ours = runs.map((r) => r.observations[0]!.task).find((t) => t.id && t.contextId) ?? runs[0]!.observations[0]!.task;
        const hard: string[] = [];
        const weak: string[] = [];
        const evidence: Evidence[] = [];
        const calls: { params: ListParams; label: string }[] = ours.contextId ? [{ params: { contextId: ours.contextId, pageSize: 10 }, label: `contextId ${ours.contextId}` }] : [];
        calls.push({ params: { pageSize: 100 }, label: 'unfiltered' });
        let pages = 0;
        for (const call of calls) {
          let token: string | undefined;
          for (let page = 1; page <= (call.params.contextId ? 1 : 3); page++) {
            const res = await listTasks(ctx, lane, { ...call.params, ...(token && { pageToken: token }) });
            evidence.push(exchangeEvidence(res.http, `ListTasks ${call.label}${page > 1 ? ` page ${page}` : ''}`));
            if (res.kind !== 'ok') {
              if (pages === 0 && notImplemented(res)) {
                return {
                  ...fail('ListTasks is not implemented (method not found).', evidence),
                  advisory: 'Only the lowercase "must support" of v1.0.1 §3.1 asks for ListTasks, a sentence that also lists capability-gated operations; the a2a-tck has no requirement to implement it either.',
                };
              }
              return brokenCallVerdict(ctx, res, `ListTasks (${call.label})`);
            }
            pages++;
            const p = judgeListPage(res.value, call.params.contextId);
            hard.push(...p.hard.map((x) => `${call.label}: ${x}`));
            weak.push(...p.weak.map((x) => `${call.label}: ${x}`));
            if (call.params.contextId && ours.id && p.ids && !p.ids.includes(ours.id) && !p.nextPageToken) {
              hard.push(`${call.label}: our task ${ours.id}, created in that context with the same credentials, is not listed`);
            }
            token = p.nextPageToken;
            if (!token) break;
          }
        }
        return graded(
          hard,
          weak,
          evidence,
          `ListTasks answered ${pages} page(s): filtered by context and unfiltered, newest first, with nextPageToken.`,
          'Stock ProtoJSON omits empty lists and zero numbers, which the REQUIRED marking of tasks, pageSize and totalSize contradicts (§5.7 also says required arrays must not be empty).',
        );
      }),
  }),
  defineCheck({
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
    run: async (ctx) => {
      if (!ctx.card.capabilities.pushNotifications) return skip('The card does not declare pushNotifications (see errors.push-not-supported).', 'not-applicable');
      const pre = needDialect(ctx);
      if (pre) return pre;
      return pushConfigCheck(ctx);
    },
  }),
  defineCheck({
    id: 'lifecycle.blocking',
    title: 'A blocking send returns only once the task is finished or paused (or with a Message)',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: {
      'v0.2': 'v0.2.6 MessageSendConfiguration.blocking',
      'v0.3': 'v0.3.0 MessageSendConfiguration.blocking',
      'v1.0': 'v1.0.1 §3.2.2 SendMessageConfiguration (returnImmediately)',
    },
    recommendation:
      'Unless the client sets returnImmediately (v1.0) or blocking:false (v0.x), wait until the task is completed, failed, canceled, rejected or paused for input before answering, and answer with the task as stored then (all its artifacts).',
    run: (ctx) =>
      withTaskRuns(ctx, async () => {
        const d = ctx.dialect!;
        const v1 = ctx.generation === 'v1.0';
        // The skill whose task stayed running after a non-blocking send: on it, blocking is observable.
        const skillId = await runningSkill(ctx);
        const input = skillInput(ctx, skillId);
        const lane = ctx.lane('blocking');
        const started = ctx.http.host.now();
        const res = await d.send(ctx.http, { ...input, lane, checkId: ctx.checkId, taskId: ctx.generation === 'legacy' ? ctx.uuid() : undefined, blocking: v1 ? undefined : true, timeoutMs: ctx.taskTimeoutMs });
        const took = ctx.http.host.now() - started;
        const how = v1 ? 'SendMessage without returnImmediately (blocking is the default)' : `${d.describe('send')} with configuration.blocking: true`;
        const evidence = [exchangeEvidence(res.http, `${how}, answered after ${took} ms`)];
        if (res.kind === 'message') return pass(`The agent answered the blocking send with a Message after ${took} ms (blocking applies to tasks only).`, evidence);
        if (res.kind !== 'task') {
          if (!v1 && res.kind === 'error' && !refusedForCredentials(ctx, res.http) && res.http.status !== 429 && res.http.status < 500) {
            const v = brokenCallVerdict(ctx, res, `A blocking ${d.describe('send')}`, { input });
            if (v.status !== 'fail') return v;
            return { ...v, advisory: ctx.generation === 'v0.3' ? 'v0.3.0 MessageSendConfiguration.blocking: "The server may reject this if the task is long-running."' : 'blocking is described, not required, in v0.2.6.' };
          }
          return brokenCallVerdict(ctx, res, `A blocking ${d.describe('send')} (skill ${skillId ?? 'none'})`, { input, waits: true });
        }
        const t = res.task;
        emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: t, exchangeId: res.http.exchangeId });
        const settled = isTerminal(t.state, ctx.generation) || isInterrupted(t.state);
        if (!settled) {
          return fail(
            `The blocking send answered after ${took} ms with task ${t.id ?? '?'} still ${t.rawState}: ${v1 ? 'v1.0.1 §3.2.2 says the operation MUST wait until the task reaches a terminal or interrupted state' : 'blocking: true asks the server to wait until the task is finished'}.`,
            evidence,
          );
        }
        if (!t.id || !isTerminal(t.state, ctx.generation)) return pass(`The blocking send returned after ${took} ms with the task ${t.rawState}.`, evidence);
        // "The response MUST include the latest task state with all artifacts": the stored task says what that was.
        const back = await readBack(ctx, t.id, lane);
        if (back.kind !== 'task') {
          evidence.push(exchangeEvidence(back.http, 'read back'));
          return pass(`The blocking send returned after ${took} ms with the task ${t.rawState} (the read-back was not possible).`, evidence);
        }
        evidence.push(exchangeEvidence(back.http, 'read back'));
        const hard: string[] = [];
        if (isTerminal(back.task.state, ctx.generation) && back.task.state !== t.state) hard.push(`the blocking answer said ${t.rawState}, but the stored task is ${back.task.rawState}`);
        if (artifactCount(back.task) > artifactCount(t)) hard.push(`the blocking answer carried ${artifactCount(t)} artifact(s), the finished task has ${artifactCount(back.task)} ("The response MUST include the latest task state with all artifacts")`);
        return hard.length ? fail(`${hard.join('; ')}.`, evidence) : pass(`The blocking send returned after ${took} ms with the task ${t.rawState} and its ${artifactCount(t)} artifact(s), as stored.`, evidence);
      }),
  }),
];

// ------------------------------------------------------------------ multi-turn

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
async function followAnswer(ctx: CheckContext, taskId: string, lane: string, before: TaskView, messageId: string, last: TaskState | undefined): Promise<AnswerSeen> {
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
    if (g.task.timestamp && g.task.timestamp !== before.timestamp) return note(`its status changed (timestamp ${before.timestamp ?? 'none'} → ${g.task.timestamp}), asking again`);
    if (g.task.statusMessageId !== before.statusMessageId || g.task.statusText !== before.statusText) return note('it asks again with a new status message');
    if ((g.task.history?.length ?? 0) > (before.history?.length ?? 0) && before.history !== undefined) return note(`its history grew (${before.history.length} → ${g.task.history?.length})`);
    if (ctx.http.host.now() >= deadline || ctx.http.signal.aborted) {
      evidence.push(exchangeEvidence(g.http, 'read back: unchanged'));
      return { task: seen, evidence };
    }
  }
}

// ------------------------------------------------------------------ list

interface ListParams {
  contextId?: string;
  pageSize?: number;
  pageToken?: string;
}

/** ListTasks over the binding in use (JSON-RPC params, or the REST query), with the interface's tenant (§8.3.2). */
async function listTasks(ctx: CheckContext, lane: string, p: ListParams): Promise<CallOutcome> {
  const d = ctx.dialect!;
  if (d.isRest) {
    const q = new URLSearchParams();
    if (p.contextId) q.set('contextId', p.contextId);
    if (p.pageSize !== undefined) q.set('pageSize', String(p.pageSize));
    if (p.pageToken) q.set('pageToken', p.pageToken);
    return d.parseRest(await d.rawRest(ctx.http, 'GET', `/tasks?${q.toString()}`, undefined, { lane, checkId: ctx.checkId }), 'list');
  }
  const tenant = ctx.detection.tenant;
  const { http, id } = await d.rpc(ctx.http, 'list', { ...p, ...(tenant && { tenant }) }, { lane, checkId: ctx.checkId });
  return d.parseRpc(http, id, 'list');
}

/** Method not found: -32601, or REST 404/405/501 (a route that does not exist). */
function notImplemented(o: CallOutcome): boolean {
  if (o.kind !== 'error') return false;
  return o.error.code === -32601 || ((o.http.status === 404 || o.http.status === 405 || o.http.status === 501) && o.error.code === undefined && o.error.reason !== 'TASK_NOT_FOUND');
}

/** One ListTasks page judged against v1.0.1 §3.1.4 and the proto (X5: MUST findings vs advisories). */
function judgeListPage(v: unknown, contextId: string | undefined): { hard: string[]; weak: string[]; ids?: string[]; nextPageToken?: string } {
  const hard: string[] = [];
  const weak: string[] = [];
  if (!isRecord(v)) return { hard: [`the result is not an object (${JSON.stringify(v)?.slice(0, 60)})`], weak };
  let tasks: unknown[] = [];
  if (v.tasks === undefined) weak.push('"tasks" is absent (ProtoJSON omits an empty list; REQUIRED in the proto)');
  else if (!Array.isArray(v.tasks)) hard.push('"tasks" is not a list');
  else tasks = v.tasks;
  if (v.nextPageToken === undefined) hard.push('"nextPageToken" is missing (§3.1.4: MUST always be present, "" on the last page)');
  else if (typeof v.nextPageToken !== 'string') hard.push('"nextPageToken" is not a string');
  for (const k of ['pageSize', 'totalSize'] as const) {
    if (v[k] === undefined) (tasks.length ? hard : weak).push(`"${k}" is absent${tasks.length ? ' (REQUIRED in the proto)' : ' (ProtoJSON omits a zero; REQUIRED in the proto)'}`);
    else if (typeof v[k] !== 'number' && !(typeof v[k] === 'string' && /^\d+$/.test(String(v[k])))) hard.push(`"${k}" is not a number`);
  }
  const ids: string[] = [];
  let prev: number | undefined;
  let unordered = false;
  const withArtifacts: string[] = [];
  const foreign: string[] = [];
  for (const t of tasks.slice(0, 200)) {
    if (!isRecord(t)) {
      hard.push('a listed task is not an object');
      continue;
    }
    const id = typeof t.id === 'string' ? t.id : '?';
    ids.push(id);
    if (t.artifacts !== undefined) withArtifacts.push(id);
    if (contextId && typeof t.contextId === 'string' && t.contextId !== contextId) foreign.push(`${id} (context ${t.contextId})`);
    const ts = isRecord(t.status) && typeof t.status.timestamp === 'string' ? Date.parse(t.status.timestamp) : NaN;
    if (!Number.isNaN(ts)) {
      if (prev !== undefined && ts > prev) unordered = true;
      prev = ts;
    }
  }
  if (withArtifacts.length) hard.push(`task(s) ${withArtifacts.slice(0, 3).join(', ')} carry "artifacts" although includeArtifacts was not set (§3.1.4: MUST be omitted entirely)`);
  if (unordered) hard.push('the tasks are not sorted by status timestamp, newest first (§3.1.4 MUST)');
  if (foreign.length) hard.push(`the contextId filter returned tasks of other contexts: ${foreign.slice(0, 3).join(', ')}`);
  return { hard, weak, ids, nextPageToken: typeof v.nextPageToken === 'string' && v.nextPageToken ? v.nextPageToken : undefined };
}

// ------------------------------------------------------------------ push notification configs

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A config answer read per generation: its url and id, and what is wrong with its shape. */
function readConfig(v: unknown, g: Generation, rest: boolean, taskId: string): { url?: string; id?: string; hard: string[]; weak: string[] } {
  const hard: string[] = [];
  const weak: string[] = [];
  if (!isRecord(v)) return { hard: [`the answer is not a push notification config object (got ${JSON.stringify(v)?.slice(0, 60) ?? 'nothing'})`], weak };
  if (g === 'v1.0') {
    let flat: Record<string, unknown> = v;
    if (typeof v.url !== 'string' && isRecord(v.pushNotificationConfig) && typeof v.pushNotificationConfig.url === 'string') {
      weak.push('the config is nested as {"pushNotificationConfig": {…}} (the §3.1.7 text says PushNotificationConfig; the proto returns the flat TaskPushNotificationConfig)');
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

/** Our webhook URL refused as invalid (v1.0.1 §13.2 SSRF/allowlist validation): -32602, or REST 400 INVALID_ARGUMENT. */
function webhookRefused(o: CallOutcome, ctx: CheckContext): boolean {
  if (o.kind !== 'error') return false;
  if (o.error.code === -32602) return true;
  return !!ctx.dialect?.isRest && o.http.status === 400 && (o.error.reason === undefined || o.error.reason === 'INVALID_ARGUMENT') && (o.error.status === undefined || o.error.status === 'INVALID_ARGUMENT');
}

/**
 * lifecycle.push-config (docs/spec-review/lifecycle.md, push-config): on a task that is still running, set a config
 * (url + token), read it back, list it, delete it, then check it is gone and that a second delete does not crash.
 * Legacy has only set and get. MUST findings fail; what a generation only describes (v0.x: the methods are optional
 * and capabilities descriptive) is an advisory.
 */
async function pushConfigCheck(ctx: CheckContext): Promise<Verdict> {
  const d = ctx.dialect!;
  const g = ctx.generation;
  const v1 = g === 'v1.0';
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

  let set = await d.pushSet(ctx.http, { taskId, url: PUSH_WEBHOOK_URL, token, ...opts });
  if (g === 'v0.3' && d.isRest && set.kind === 'error' && set.http.status === 400) {
    // The v0.3 proto's body is the config itself; the §7.5 document shows {config: …}: try that form too.
    evidence.push(exchangeEvidence(set.http, `${setWhat} ({name, pushNotificationConfig})`));
    set = await d.pushSet(ctx.http, { taskId, url: PUSH_WEBHOOK_URL, token, restBody: 'config', ...opts });
  }
  evidence.push(exchangeEvidence(set.http, setWhat));
  if (set.kind !== 'ok') {
    const pre = refusedForCredentials(ctx, set.http) ?? rateLimited(set, setWhat);
    if (pre) return pre;
    if (webhookRefused(set, ctx)) {
      return toolLimit(
        `The agent refused our webhook URL ${PUSH_WEBHOOK_URL} as invalid (${errText(set)}). Agents SHOULD validate webhook URLs (v1.0.1 §13.2), and this tool has no other URL to offer, so push configs could not be exercised. To judge them, allow that URL for the test run (this tool has no option for a webhook URL of your own yet).`,
        evidence,
      );
    }
    const v = brokenCallVerdict(ctx, set, `${setWhat} on an agent that declares push notifications`);
    if (v.status !== 'fail') return { ...v, evidence };
    if (v1) return { ...v, evidence };
    return { ...v, evidence, advisory: `The push config methods are ${g === 'v0.3' ? 'optional (v0.3.0 §11.1.3 "MAY implement")' : 'described, not required,'} in ${g}, and capabilities are descriptive.` };
  }
  const c = readConfig(set.value, g, d.isRest, taskId);
  hard.push(...c.hard.map((x) => `set answer: ${x}`));
  weak.push(...c.weak.map((x) => `set answer: ${x}`));
  if (c.url !== undefined && c.url !== PUSH_WEBHOOK_URL) hard.push(`set answer: url ${JSON.stringify(c.url)} is not the one sent (${PUSH_WEBHOOK_URL})`);
  const configId = c.id;

  const get = await d.pushGet(ctx.http, { taskId, configId, ...opts });
  evidence.push(exchangeEvidence(get.http, 'get'));
  if (get.kind === 'ok') {
    const gc = readConfig(get.value, g, d.isRest, taskId);
    hard.push(...gc.hard.map((x) => `get answer: ${x}`));
    weak.push(...gc.weak.filter((x) => !c.weak.includes(x)).map((x) => `get answer: ${x}`));
    if (gc.url !== undefined && gc.url !== PUSH_WEBHOOK_URL) hard.push(`get answer: url ${JSON.stringify(gc.url)} is not the one set (${PUSH_WEBHOOK_URL})`);
  } else {
    const pre = refusedForCredentials(ctx, get.http) ?? rateLimited(get, 'reading the push config back');
    if (pre) return pre;
    const running = await stillRunning();
    if (v1 && running) hard.push(`get right after set failed (${errText(get)}) while the task is still running (§3.1.7: the configuration MUST persist until task completion or explicit deletion)`);
    else weak.push(`get right after set failed (${errText(get)})${running ? '' : ' after the task had finished (kept "until task completion")'}`);
  }

  if (g !== 'legacy') {
    const list = await d.pushList(ctx.http, { taskId, ...opts });
    evidence.push(exchangeEvidence(list.http, d.pushMethod('list', taskId)));
    if (list.kind !== 'ok') miss(`list failed (${errText(list)})`);
    else {
      const configs = listedConfigs(list.value);
      if (!configs) miss(`the list answer is not a list of configs (${JSON.stringify(list.value)?.slice(0, 80)})`);
      else if (!configs.some((x) => isOurConfig(x, configId, PUSH_WEBHOOK_URL))) {
        if (await stillRunning()) miss(`the list does not show the config just set${v1 ? ' (§3.1.9: MUST return all active push notification configurations)' : ''}`);
        else weak.push('the list does not show the config just set (the task had finished)');
      }
    }
    if (!configId) weak.push('the set answer carries no config id, so delete was not exercised');
    else {
      const del = await d.pushDelete(ctx.http, { taskId, configId, ...opts });
      evidence.push(exchangeEvidence(del.http, d.pushMethod('delete', taskId, configId)));
      if (del.kind !== 'ok') miss(`delete failed (${errText(del)})`);
      else {
        const after = await d.pushGet(ctx.http, { taskId, configId, ...opts });
        evidence.push(exchangeEvidence(after.http, 'get after delete'));
        if (after.kind === 'ok') miss(`get after delete still returns the config${v1 ? ' (§3.1.8: MUST fail if the configuration does not exist)' : ''}`);
        const list2 = await d.pushList(ctx.http, { taskId, ...opts });
        const configs2 = list2.kind === 'ok' ? listedConfigs(list2.value) : undefined;
        if (configs2?.some((x) => isOurConfig(x, configId, PUSH_WEBHOOK_URL))) {
          evidence.push(exchangeEvidence(list2.http, 'list after delete'));
          miss(`the list still shows the config after delete${v1 ? ' (§3.1.9: only active configurations)' : ''}`);
        }
        // Idempotent (§3.1.10): a second delete has the same effect; a not-found error is fine, a crash is not.
        const again = await d.pushDelete(ctx.http, { taskId, configId, ...opts });
        if (again.kind === 'transport' || again.http.status >= 500) {
          evidence.push(exchangeEvidence(again.http, 'second delete'));
          miss(`a second delete of the same config answered ${again.kind === 'transport' ? 'nothing' : `HTTP ${again.http.status}`}${v1 ? ' (§3.1.10: delete MUST be idempotent)' : ''}`);
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
