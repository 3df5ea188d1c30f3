import type { Evidence } from '../model/check';
import type { TaskState } from '../model/events';
import type { CallOutcome, Dialect } from '../protocol/dialect';
import type { TaskView } from '../protocol/shapes';
import { isInterrupted, isTerminal } from '../protocol/states';
import { ev, exchangeEvidence, skip, transportVerdict, type CheckContext, type Verdict } from './define';

/** One observation of a task: what the agent said its state was, when and through which call. */
export interface Observation {
  source: 'send' | 'get' | 'cancel' | 'stream' | 'subscribe';
  at: number;
  task: TaskView;
  exchangeId: string;
}

export interface TaskRun {
  skillId?: string;
  text: string;
  lane: string;
  /** The id we chose (legacy tasks/send lets the client pick the task id). */
  clientTaskId?: string;
  send: CallOutcome;
  /** Every answer to a get, including errors. */
  gets: CallOutcome[];
  observations: Observation[];
  final?: TaskView;
  outcome: 'terminal' | 'interrupted' | 'timeout' | 'failed-call' | 'message' | 'no-task';
  /** The call that broke the run (send or a get). */
  brokenCall?: CallOutcome;
  startedAt: number;
  endedAt: number;
}

const NEUTRAL_TEXT = 'Hello from a2a-interop: this is a protocol conformance test message.';

/** The message text for a skill: its first example (the card's own words), else a neutral text. */
export function skillText(ctx: CheckContext, skillId?: string): string {
  const s = ctx.card.skills.find((x) => x.id === skillId);
  const ex = s?.examples.find((e) => e.trim().length > 0);
  return ex ?? NEUTRAL_TEXT;
}

export function emitState(ctx: CheckContext, lane: string, o: Observation, last?: TaskState) {
  if (!o.task.id || !o.task.state) return;
  if (o.task.state === last) return;
  ctx.http.emit({
    type: 'task-state',
    at: o.at,
    lane,
    taskId: o.task.id,
    state: o.task.state,
    rawState: o.task.rawState ?? String(o.task.state),
    source: o.source,
  });
}

/**
 * Sends `text` as a new task and polls `get` with backoff until the task is terminal or interrupted
 * or the per-task budget runs out (seed 001 steps 2.1-2.2). Always does at least one `get`,
 * so "basic send + get" is exercised even for agents that answer synchronously.
 */
export async function runTask(
  ctx: CheckContext,
  d: Dialect,
  a: { text: string; skillId?: string; lane: string; returnImmediately?: boolean; taskId?: string; contextId?: string; historyLength?: number },
): Promise<TaskRun> {
  const startedAt = ctx.http.host.now();
  const clientTaskId = d.generation === 'legacy' ? (a.taskId ?? ctx.uuid()) : a.taskId;
  const send = await d.send(ctx.http, {
    text: a.text,
    lane: a.lane,
    checkId: ctx.checkId,
    taskId: clientTaskId,
    contextId: a.contextId,
    returnImmediately: a.returnImmediately,
    historyLength: a.historyLength,
    timeoutMs: ctx.taskTimeoutMs,
  });
  const run: TaskRun = { skillId: a.skillId, text: a.text, lane: a.lane, clientTaskId, send, gets: [], observations: [], outcome: 'no-task', startedAt, endedAt: startedAt };
  let last: TaskState | undefined;
  const observe = (source: Observation['source'], o: CallOutcome) => {
    if (o.kind !== 'task') return;
    const obs: Observation = { source, at: ctx.http.host.now(), task: o.task, exchangeId: o.http.exchangeId };
    run.observations.push(obs);
    emitState(ctx, a.lane, obs, last);
    last = o.task.state;
    run.final = o.task;
  };
  if (send.kind === 'message') {
    run.outcome = 'message';
    run.endedAt = ctx.http.host.now();
    return run;
  }
  if (send.kind !== 'task') {
    run.outcome = 'failed-call';
    run.brokenCall = send;
    run.endedAt = ctx.http.host.now();
    return run;
  }
  observe('send', send);
  const id = send.task.id;
  if (!id) {
    run.outcome = 'no-task';
    run.endedAt = ctx.http.host.now();
    return run;
  }
  const deadline = startedAt + ctx.taskTimeoutMs;
  let delay = 200;
  for (;;) {
    const st = run.final?.state;
    const settled = isTerminal(st, d.generation) || isInterrupted(st);
    if (run.gets.length > 0 && settled) {
      run.outcome = isTerminal(st, d.generation) ? 'terminal' : 'interrupted';
      break;
    }
    if (ctx.http.host.now() >= deadline) {
      run.outcome = 'timeout';
      break;
    }
    // The first get comes at once when the send already settled; otherwise poll with backoff.
    if (!(run.gets.length === 0 && settled)) {
      try {
        await ctx.http.host.sleep(Math.min(delay, Math.max(0, deadline - ctx.http.host.now())), ctx.http.signal);
      } catch {
        run.outcome = 'timeout';
        break;
      }
      delay = Math.min(delay * 2, 2000);
    }
    const g = await d.get(ctx.http, { id, lane: a.lane, checkId: ctx.checkId, historyLength: a.historyLength });
    run.gets.push(g);
    if (g.kind !== 'task') {
      run.outcome = 'failed-call';
      run.brokenCall = g;
      break;
    }
    observe('get', g);
  }
  run.endedAt = ctx.http.host.now();
  return run;
}

/** All skill runs of this run (one test task per selected skill, bounded concurrency), made once. */
export function skillRuns(ctx: CheckContext): Promise<TaskRun[]> {
  return ctx.fixture('tasks:skills', async () => {
    const d = ctx.dialect!;
    const skills = ctx.skills.length ? ctx.skills : [undefined];
    const runs: TaskRun[] = new Array(skills.length);
    let next = 0;
    const worker = async () => {
      while (next < skills.length) {
        const i = next++;
        const skillId = skills[i];
        runs[i] = await runTask(ctx, d, { text: skillText(ctx, skillId), skillId, lane: `task: ${skillId ?? 'message'}` });
      }
    };
    await Promise.all([worker(), worker()]);
    return runs;
  });
}

/** A task that reached `completed`, for checks that need a finished task. */
export async function completedRun(ctx: CheckContext): Promise<TaskRun | undefined> {
  const runs = await skillRuns(ctx);
  return runs.find((r) => r.final?.state === 'completed' && r.final.id) ?? runs.find((r) => isTerminal(r.final?.state, ctx.generation) && r.final?.id);
}

/** Skip verdict for checks that need a finished task when there is none: not applicable for message-only agents. */
export async function noFinishedTask(ctx: CheckContext, what: string): Promise<Verdict> {
  const runs = await skillRuns(ctx);
  const blocked = runs.map((r) => authBlocked(ctx, r.send)).find(Boolean);
  if (blocked) return blocked;
  if (runs.length && runs.every((r) => r.outcome === 'message')) {
    return skip(`The agent replies with Messages only (no tasks), so there is no ${what}.`, 'not-applicable');
  }
  return skip(`No test task finished, so there is no ${what}.`, 'precondition', runs.map(runEvidence));
}

/** The skill whose task took longest to finish: our best black-box guess at a task that stays running. */
export async function slowestSkill(ctx: CheckContext): Promise<{ skillId?: string; ms: number }> {
  const runs = await skillRuns(ctx);
  let best: { skillId?: string; ms: number } = { skillId: runs[0]?.skillId, ms: -1 };
  for (const r of runs) {
    if (r.outcome !== 'terminal' || r.final?.state !== 'completed') continue;
    const ms = r.endedAt - r.startedAt;
    if (ms > best.ms) best = { skillId: r.skillId, ms };
  }
  return best;
}

/**
 * Common preconditions of checks that talk to the agent: a testable binding, and calls that are not
 * refused for lack of credentials the user did not give.
 */
export function needDialect(ctx: CheckContext): Verdict | undefined {
  if (!ctx.dialect) {
    if (ctx.detection.untestable) return skip(ctx.detection.untestable, 'precondition');
    return skip('No usable agent card, so the agent cannot be called.', 'precondition');
  }
  return undefined;
}

export function authBlocked(ctx: CheckContext, o: CallOutcome): Verdict | undefined {
  const s = o.http.status;
  if ((s === 401 || s === 403) && ctx.credentials.kind === 'none') {
    return skip(`The agent answered HTTP ${s}: it requires credentials. Enter them to run this check.`, 'precondition', [exchangeEvidence(o.http)]);
  }
  return undefined;
}

/** Verdict for a call that should have produced a task but did not. */
export function brokenCallVerdict(ctx: CheckContext, o: CallOutcome, what: string): Verdict {
  const blocked = authBlocked(ctx, o);
  if (blocked) return blocked;
  if (o.kind === 'transport') return transportVerdict(o.http, what);
  const evidence: Evidence[] = [exchangeEvidence(o.http)];
  if (o.kind === 'error') {
    const crash = o.http.status >= 500;
    return {
      status: 'fail',
      critical: crash,
      message: `${what}: the agent answered with an error (${o.error.code ?? o.error.status ?? ''} ${o.error.message}${crash ? `, HTTP ${o.http.status}` : ''}).`,
      evidence,
    };
  }
  if (o.kind === 'invalid') return { status: 'fail', critical: o.http.status >= 500, message: `${what}: ${o.reason}`, evidence };
  return { status: 'fail', message: `${what}: unexpected ${o.kind}.`, evidence };
}

export function describeRun(r: TaskRun): string {
  const states = r.observations.map((o) => `${o.source}:${o.task.rawState ?? '?'}`).join(' → ');
  return `${r.skillId ? `skill ${r.skillId}` : 'message'}: ${states || r.outcome} (${r.endedAt - r.startedAt} ms)`;
}

export const runEvidence = (r: TaskRun): Evidence => ev(`task ${r.final?.id ?? r.clientTaskId ?? '?'} (${r.lane})`, describeRun(r), { exchangeId: r.send.http.exchangeId });
