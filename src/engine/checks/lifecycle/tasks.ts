/**
 * Lifecycle checks on the test tasks of the run: a send creates a task, get returns it, it settles, its states and
 * ids are plausible, and tasks and messages have the shape of the generation.
 */
import type { Evidence } from '../../model/check';
import { isA2AError } from '../../protocol/errors';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip } from '../define';
import {
  clientIdNotEchoed,
  createdTaskFindings,
  encodingFindings,
  envelopeFindings,
  getWithoutState,
  legacySendMessage,
  notFoundAfterSeen,
  viewFindings,
  wrongTask,
} from '../../judges/exchange';
import { taskTimedOut, terminalChangeFinding, terminalChanged, terminalChanges, type StateSeen } from '../../judges/rules';
import { cancelFixture } from '../setups/cancel';
import { brokenCallVerdict, declaredInputRefused } from '../setups/outcomes';
import { streamFixture } from '../setups/stream';
import { describeRun, runEvidence, skillRuns } from '../setups/tasks';
import { DECLARED_WHY, GET, graded, SEND, STATES, UNKNOWN_WHY } from './shared';

export const lifecycleSend = defineCheck({
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
  requires: ['dialect'],
  run: async (ctx) => {
    const d = ctx.dialect;
    const all = await skillRuns(ctx);
    // A skill that accepts only media types this tool cannot produce rightly refuses our text: not judged.
    const refused = all.filter((r) => r.outcome === 'refused-input');
    // A refusal of a declared media type is an advisory (docs/spec-review/lifecycle.md X1.2): card modes are descriptive.
    const declared = all.filter((r) => r.outcome === 'refused-declared-input');
    const runs = all.filter((r) => !refused.includes(r) && !declared.includes(r));
    const [basic] = runs;
    if (!basic) {
      const [first] = declared;
      if (first?.input) {
        return declaredInputRefused(
          `${d.describe('send')} to skill ${first.skillId ?? '(none)'}`,
          first.input,
          first.send,
          declared.map((r) => exchangeEvidence(r.send.http, `skill ${r.skillId}`)),
        );
      }
      return skip(
        `Every selected skill accepts only media types this tool cannot produce, and the agent correctly refused our text with ContentTypeNotSupported (${refused.map((r) => r.skillId).join(', ')}).`,
        'precondition',
        refused.map(runEvidence),
      );
    }
    const s = basic.send;
    const evidence = [
      exchangeEvidence(s.http, `${d.describe('send')} response`),
      ev('message sent', basic.input ? `${basic.input.text} (${basic.input.mediaType})` : basic.text),
    ];
    if (refused.length)
      evidence.push(
        ...refused.map((r) => ev(`skill ${r.skillId}`, `correctly refused our text: ${r.input?.unsupported ?? ''}`, { exchangeId: r.send.http.exchangeId })),
      );
    const weak: string[] = declared.map(
      (r) =>
        `skill ${r.skillId} refused our ${r.input?.mediaType ?? ''} input as an unsupported content type although it declares that media type (input modes are descriptive)`,
    );
    evidence.push(...declared.map((r) => exchangeEvidence(r.send.http, `skill ${r.skillId}: declared input refused`)));
    if (s.kind === 'message') {
      const legacy = legacySendMessage(ctx.generation, s.http.exchangeId);
      if (legacy) return fail(legacy.message, evidence);
      return graded(
        [],
        weak,
        evidence,
        'The agent replied with a Message (a message-only agent): allowed, but checks that need a task will skip.',
        DECLARED_WHY,
      );
    }
    if (s.kind !== 'task') return brokenCallVerdict(ctx, s, d.describe('send'), { input: basic.input, waits: true });
    const t = s.task;
    // The judge the console uses for a created task too (id, state; "unknown" an advisory).
    const [created] = createdTaskFindings(ctx.generation, t, s.http.exchangeId);
    if (!t.id) return fail(created?.message ?? 'The returned Task has no id.', evidence);
    const notEchoed = clientIdNotEchoed(ctx.generation, t.id, basic.clientTaskId, s.http.exchangeId);
    if (notEchoed) {
      return fail(`${notEchoed.message}.`, evidence, 'In the legacy protocol the client picks the task id (TaskSendParams.id); echo it back.');
    }
    if (!t.state) return fail(created?.message ?? `The initial state ${JSON.stringify(t.rawState)} is not a task state.`, evidence);
    const note = created?.level === 'advisory' ? created.message : undefined;
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
      } else evidence.push(ev(`skill ${r.skillId} not judged`, v.message));
    }
    if (hard.length)
      return fail(`The first skill's task was created, but ${hard.length} other skill(s) failed to start: ${hard.slice(0, 3).join('; ')}.`, evidence);
    const why = [note ? UNKNOWN_WHY : '', declared.length ? DECLARED_WHY : '', ...otherWhy].filter(Boolean).join(' ');
    return graded([], weak, evidence, `Task ${t.id} created in state ${t.rawState}.`, why);
  },
});

export const lifecycleGet = defineCheck({
  id: 'lifecycle.get',
  title: 'Getting the task returns it with the same id and a legal state',
  category: 'lifecycle',
  level: 'MUST',
  tier: 'basic',
  critical: true,
  phase: 'suite',
  specRefs: GET,
  recommendation:
    'Keep created tasks in a task store and answer get with the stored Task (the same id). @a2a-js/sdk: InMemoryTaskStore or a DatabaseTaskStore; a2a-python: InMemoryTaskStore.',
  requires: ['task-runs'],
  run: (ctx) => {
    const runs = ctx.taskRuns;
    const d = ctx.dialect;
    const hard: string[] = [];
    const weak: string[] = [];
    const evidence: Evidence[] = [];
    let judged = 0;
    for (const r of runs) {
      const sent = r.observations[0].task.id;
      if (!sent) continue;
      // The state the task had before each get (the send's answer, then each get's).
      let before = r.observations[0].task;
      for (const g of r.gets) {
        judged++;
        const what = `${d.describe('get', sent)} (${r.skillId ? `skill ${r.skillId}` : 'message'})`;
        if (g.kind === 'task') {
          const other = wrongTask(ctx.generation, 'lifecycle.get', what, sent, g.task.id, g.http.exchangeId);
          if (other) {
            hard.push(other.message);
            evidence.push(exchangeEvidence(g.http));
          } else {
            const stateless = getWithoutState(ctx.generation, what, g.task, g.http.exchangeId);
            if (stateless) {
              hard.push(stateless.message);
              evidence.push(exchangeEvidence(g.http));
            }
          }
          before = g.task;
          continue;
        }
        if (isA2AError(g, 'TaskNotFound')) {
          // The console's judge of the same answer (src/engine/judges/exchange.ts): purged when finished, else a failure.
          const gone = notFoundAfterSeen(ctx.generation, what, sent, before, { retried: !!r.notFoundRetries?.length, exchangeId: g.http.exchangeId });
          if (gone) (gone.level === 'advisory' ? weak : hard).push(gone.message);
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
    return graded(
      hard,
      weak,
      evidence,
      `${judged} get(s) of ${runs.length} task(s) returned the task asked for, each in a legal state.`,
      'A finished task may be purged: the error table allows TaskNotFound for a task "already completed and purged".',
    );
  },
});

export const lifecycleTerminal = defineCheck({
  id: 'lifecycle.terminal',
  title: 'Each test task reaches a terminal or interrupted state within the per-task timeout',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: STATES,
  recommendation:
    'Make every task end: publish a final status (completed, failed, canceled, rejected) or pause in input-required/auth-required. A task that stays "working" forever usually means the executor returned without a final status event, or threw and swallowed the error.',
  requires: ['task-runs'],
  run: (ctx) => {
    const runs = ctx.taskRuns;
    const bad = runs.filter((r) => r.outcome !== 'terminal' && r.outcome !== 'interrupted');
    const evidence = runs.map(runEvidence);
    const late = bad.filter((r) => r.outcome === 'timeout');
    if (late.length) {
      // The procedure's per-task timeout (Timeouts T2): a task that reaches no terminal state within it fails.
      return taskTimedOut(
        `${late.length} of ${runs.length} test task(s) reached no terminal state within the per-task timeout of ${ctx.taskTimeoutMs / 1000} s (${late.map((r) => `${r.skillId ?? 'message'}: still ${r.final?.rawState ?? 'without an answer'}`).join(', ')}).`,
        evidence,
      );
    }
    const broken = bad[0];
    if (broken) {
      if (broken.outcome === 'no-task') return skip('The created tasks have no id, so they cannot be followed (see lifecycle.send).', 'precondition', evidence);
      // A get that broke is lifecycle.get's finding; judging it here again would count one defect twice.
      return skip(
        `A task could not be followed to its end (${describeRun(broken)}): the call that broke is judged by lifecycle.get.`,
        'precondition',
        evidence,
      );
    }
    const settled = `${runs.length} task(s) settled: ${runs.map((r) => `${r.skillId ?? 'message'}=${r.final?.rawState}`).join(', ')}.`;
    if (runs.length && !runs.some((r) => r.outcome === 'terminal')) {
      // Verification V2 wants a task to complete; the spec lets a task pause for input (and the multi-turn check
      // answers it): the spec wins, the procedure's wish is an advisory.
      return {
        ...fail(`No test task reached a terminal state: every one paused (${settled})`, evidence),
        advisory:
          'The conformance procedure wants at least one task to complete its lifecycle (Verification V2), but every release lets a task pause in input-required or auth-required; lifecycle.multi-turn answers such a task.',
      };
    }
    return pass(settled, evidence);
  },
});

export const lifecycleTransitions = defineCheck({
  id: 'lifecycle.transitions',
  title: 'State transitions are plausible: a terminal state does not change',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: { legacy: 'v0.1.0 §6.3 TaskState', 'v0.2': 'v0.2.6 §6.3', 'v0.3': 'v0.3.0 §6.3 TaskState', 'v1.0': 'v1.0.1 §4.1.3 TaskState (terminal states)' },
  recommendation:
    'Never change the state of a task after it reached completed, failed, canceled or rejected; a new request on a finished task must create a new task or be refused.',
  requires: ['task-runs'],
  run: async (ctx) => {
    const runs = ctx.taskRuns;
    const problems: string[] = [];
    const sequences: { label: string; states: StateSeen[] }[] = runs.map((r) => ({
      label: `task ${r.final?.id ?? '?'}`,
      states: r.observations.map((o) => ({ state: o.task.state, raw: o.task.rawState, source: o.source })),
    }));
    // The cancel lane: the answer and the read-backs show whether a canceled task stays canceled.
    const c = await cancelFixture(ctx);
    if (c.observations.length > 1) {
      sequences.push({
        label: `canceled task ${c.observations[0]?.task.id ?? '?'}`,
        states: c.observations.map((o) => ({ state: o.task.state, raw: o.task.rawState, source: o.source })),
      });
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
      problems.push(...terminalChanges(seq.states, ctx.generation).map((c) => `${seq.label}: ${c}`));
    }
    const evidence = [
      ...runs.map(runEvidence),
      ...sequences.slice(runs.length).map((q) => ev(q.label, q.states.map((x) => `${x.source}:${x.raw}`).join(' → '))),
    ];
    const changed = terminalChangeFinding(ctx.generation, problems);
    return changed
      ? terminalChanged(changed.message, evidence)
      : pass(`${count} observed states in ${sequences.length} sequence(s); no terminal state changed.`, evidence);
  },
});

export const lifecycleTaskIdStable = defineCheck({
  id: 'lifecycle.task-id-stable',
  title: 'The task id stays the same across calls, and new tasks get distinct ids',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: { legacy: 'v0.1.0 §6.1 Task', 'v0.2': 'v0.2.6 §6.1 Task', 'v0.3': 'v0.3.0 §6.1 Task', 'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics' },
  recommendation: 'Return the same task id (and contextId) for a task in every answer; clients key their state on it.',
  requires: ['task-runs'],
  run: (ctx) => {
    const runs = ctx.taskRuns;
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
      "No sentence requires a task to keep its contextId in every answer (v1.0: Task.contextId is not REQUIRED; legacy: sessionId is the client's).",
    );
  },
});

export const lifecycleShape = defineCheck({
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
  requires: ['dialect'],
  run: async (ctx) => {
    const runs = await skillRuns(ctx);
    const g = ctx.generation;
    const problems = new Map<string, { exchangeId: string; level: 'MUST' | 'advisory' }>();
    const add = (p: string, exchangeId: string, level: 'MUST' | 'advisory') => {
      if (!problems.has(p) && problems.size < 60) problems.set(p, { exchangeId, level });
    };
    // One judge per rule (src/engine/judges/exchange.ts), as the console judges each answer: envelope, shapes, encoding.
    const addAll = (fs: { message: string; level: string; exchangeId?: string }[], exchangeId: string) => {
      for (const f of fs) add(f.message, f.exchangeId ?? exchangeId, f.level === 'advisory' ? 'advisory' : 'MUST');
    };
    for (const r of runs) {
      addAll(envelopeFindings(g, r.send.envelopeProblems), r.send.http.exchangeId);
      if (r.send.kind === 'message') addAll(viewFindings(g, r.send.message), r.send.http.exchangeId);
      for (const o of r.observations) addAll(viewFindings(g, o.task), o.exchangeId);
      for (const x of r.gets) addAll(envelopeFindings(g, x.envelopeProblems), x.http.exchangeId);
      // UTF-8 without a byte order mark: v1.0 §14.1.1 with RFC 8259 §8.1 (MUST); v0.x cite JSON-RPC 2.0 and
      // through it RFC 4627, which has no such rule: an advisory there.
      for (const h of [r.send.http, ...r.gets.map((x) => x.http)]) addAll(encodingFindings(g, h), h.exchangeId);
    }
    if (!runs.some((r) => r.send.kind === 'task' || r.send.kind === 'message')) return skip('No task or message was returned to judge.', 'precondition');
    const all = [...problems];
    const hard = all.filter(([, x]) => x.level === 'MUST').map(([p]) => p);
    const weak = all.filter(([, x]) => x.level !== 'MUST').map(([p]) => p);
    const evidence: Evidence[] = [...all.filter(([, x]) => x.level === 'MUST'), ...all.filter(([, x]) => x.level !== 'MUST')]
      .slice(0, 20)
      .map(([p, x]) => ev(x.level === 'MUST' ? 'problem' : 'not required', p, { exchangeId: x.exchangeId }));
    if (hard.length) {
      return fail(
        `${hard.length} shape problem(s): ${hard.slice(0, 3).join('; ')}.${weak.length ? ` Also ${weak.length} finding(s) the ${ctx.generation} specification does not require (see evidence).` : ''}`,
        evidence,
      );
    }
    if (weak.length) {
      return {
        ...fail(`${weak.length} finding(s) the ${ctx.generation} specification does not require: ${weak.slice(0, 3).join('; ')}.`, evidence),
        advisory: `Each is backed by a description, an optional schema format or a SHOULD for the receiver (v1.0 §5.7: receivers SHOULD ignore unrecognized fields), not by a requirement on the agent.`,
      };
    }
    return pass(`Every task and message returned is valid for ${ctx.generation}${ctx.binding ? ` ${ctx.binding}` : ''}.`);
  },
});
