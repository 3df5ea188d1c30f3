import type { HttpResult } from '../http/client';
import type { Evidence } from '../model/check';
import type { TaskState } from '../model/events';
import type { CallOutcome, Dialect } from '../protocol/dialect';
import type { InputPart } from '../protocol/input';
import type { TaskView } from '../protocol/shapes';
import { acceptedInputModes, buildInput, type MessageInput } from '../protocol/input';
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
  /** The input sent, when built from the skill's accepted media types. */
  input?: MessageInput;
  lane: string;
  /** The id we chose (legacy tasks/send lets the client pick the task id). */
  clientTaskId?: string;
  send: CallOutcome;
  /** Every answer to a get, including errors. */
  gets: CallOutcome[];
  observations: Observation[];
  final?: TaskView;
  /**
   * `refused-input`: the agent refused a content type the skill does not declare and this tool could not
   * produce one it does: a correct refusal, not a failure.
   */
  outcome: 'terminal' | 'interrupted' | 'timeout' | 'failed-call' | 'message' | 'no-task' | 'refused-input';
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

/**
 * The test message for a skill, in a media type the skill accepts (its inputModes, else the card's
 * defaultInputModes): text when text is accepted, else JSON data, an image, audio, a PDF ... (see protocol/input.ts).
 */
export function skillInput(ctx: CheckContext, skillId?: string): MessageInput {
  const s = ctx.card.skills.find((x) => x.id === skillId);
  return buildInput(skillText(ctx, skillId), acceptedInputModes(s?.inputModes, ctx.card.defaultInputModes));
}

/** The skill most checks exercise: the first selected one whose input this tool can produce. */
export function primarySkill(ctx: CheckContext): string | undefined {
  return ctx.skills.find((id) => !skillInput(ctx, id).unsupported) ?? ctx.skills[0];
}

/**
 * The agent refused the input as a content type it does not support: ContentTypeNotSupported (-32005) on
 * JSON-RPC; on HTTP+JSON reason CONTENT_TYPE_NOT_SUPPORTED, HTTP 415 (v1.0.0) or 400/415 naming it.
 */
export function isContentTypeRefusal(o: CallOutcome): boolean {
  if (o.kind !== 'error') return false;
  if (o.error.code === -32005) return true;
  if (o.error.reason === 'CONTENT_TYPE_NOT_SUPPORTED') return true;
  return o.http.status === 415;
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
  a: { text: string; parts?: InputPart[]; input?: MessageInput; skillId?: string; lane: string; returnImmediately?: boolean; taskId?: string; contextId?: string; historyLength?: number },
): Promise<TaskRun> {
  const startedAt = ctx.http.host.now();
  const clientTaskId = d.generation === 'legacy' ? (a.taskId ?? ctx.uuid()) : a.taskId;
  const send = await d.send(ctx.http, {
    text: a.text,
    parts: a.parts ?? a.input?.parts,
    lane: a.lane,
    checkId: ctx.checkId,
    taskId: clientTaskId,
    contextId: a.contextId,
    returnImmediately: a.returnImmediately,
    historyLength: a.historyLength,
    timeoutMs: ctx.taskTimeoutMs,
  });
  const run: TaskRun = { skillId: a.skillId, text: a.text, input: a.input, lane: a.lane, clientTaskId, send, gets: [], observations: [], outcome: 'no-task', startedAt, endedAt: startedAt };
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
  if (send.kind !== 'task' && a.input?.unsupported && isContentTypeRefusal(send)) {
    run.outcome = 'refused-input';
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
  // Poll quickly at first (tasks often settle within a second), then back off to at most 1 s.
  let delay = 100;
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
      delay = Math.min(Math.round(delay * 1.5), 1000);
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
        const input = skillInput(ctx, skillId);
        runs[i] = await runTask(ctx, d, { text: input.text, input, skillId, lane: `task: ${skillId ?? 'message'}` });
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

/**
 * A finished task of one's own, for checks that may change it (a buggy agent may revive or cancel a
 * finished task): the skill that completed fastest in the skill runs is run again in a fresh task,
 * so checks running at the same time never share a task they could disturb.
 */
export function ownFinishedRun(ctx: CheckContext, key: string): Promise<TaskRun | undefined> {
  return ctx.fixture(`own-finished:${key}`, async () => {
    const runs = await skillRuns(ctx);
    const done = runs
      .filter((r) => r.final?.id && isTerminal(r.final.state, ctx.generation))
      .sort((a, b) => Number(b.final?.state === 'completed') - Number(a.final?.state === 'completed') || a.endedAt - a.startedAt - (b.endedAt - b.startedAt));
    const model = done[0];
    if (!model) return undefined;
    const run = await runTask(ctx, ctx.dialect!, { text: model.text, input: model.input, skillId: model.skillId, lane: `task: ${key}` });
    return run.final?.id && isTerminal(run.final.state, ctx.generation) ? run : undefined;
  });
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

export interface RunningTask {
  /** The answer to the send that started it (or the last attempt when none stayed running). */
  send: CallOutcome;
  lane: string;
  skillId?: string;
  /** Index of the skill used among the candidates; pass `index + 1` to try the next one. */
  index: number;
  /** The task is still submitted/working after the send returned. */
  running: boolean;
}

/** Skills tried when a running task is needed: the selected ones (at most 4), or a neutral message. */
export const runningCandidates = (ctx: CheckContext): (string | undefined)[] => {
  if (!ctx.skills.length) return [undefined];
  const usable = ctx.skills.filter((id) => !skillInput(ctx, id).unsupported);
  return (usable.length ? usable : ctx.skills).slice(0, 4);
};

/**
 * Starts a task that is still running when the send returns (returnImmediately / blocking:false), trying the
 * candidate skills in turn from `from`: our black-box way to get a task to cancel or resubscribe to, without
 * waiting for the skill runs. A message-only, refused or failed send ends the search at once.
 */
export async function startRunningTask(
  ctx: CheckContext,
  label: string,
  from = 0,
  lane = ctx.lane(label),
  candidates: (string | undefined)[] = runningCandidates(ctx),
): Promise<RunningTask | undefined> {
  const d = ctx.dialect!;
  let last: RunningTask | undefined;
  for (let index = from; index < candidates.length; index++) {
    const skillId = candidates[index];
    const send = await d.send(ctx.http, {
      ...skillInput(ctx, skillId),
      lane,
      checkId: ctx.checkId,
      returnImmediately: true,
      taskId: d.generation === 'legacy' ? ctx.uuid() : undefined,
      timeoutMs: ctx.taskTimeoutMs,
    });
    if (send.kind === 'task') emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: send.task, exchangeId: send.http.exchangeId });
    const running = send.kind === 'task' && !!send.task.id && (send.task.state === 'submitted' || send.task.state === 'working');
    last = { send, lane, skillId, index, running };
    if (running || send.kind !== 'task' || !send.task.id) return last;
  }
  return last;
}

/**
 * Candidates for a task that should run a little and then finish (not pause for input): skills whose test task
 * ended terminal, quickest first; skills that paused or failed to start come last.
 */
export async function finishingCandidates(ctx: CheckContext): Promise<(string | undefined)[]> {
  const runs = await skillRuns(ctx);
  const terminal = runs.filter((r) => r.outcome === 'terminal').sort((a, b) => a.endedAt - a.startedAt - (b.endedAt - b.startedAt));
  const rest = runs.filter((r) => !terminal.includes(r));
  return [...terminal, ...rest].map((r) => r.skillId).slice(0, 4);
}

/** The skill whose task stayed running after a non-blocking send (shared: found once per run). */
export function runningSkill(ctx: CheckContext): Promise<string | undefined> {
  return ctx.fixture('running-skill', async () => {
    const r = await startRunningTask(ctx, 'probe running task');
    return r?.running ? r.skillId : ctx.skills[0];
  });
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
  return refusedForCredentials(ctx, o.http);
}

/**
 * A 401/403 says nothing about the check: without credentials the agent wants some, with credentials it refused
 * them (we cannot tell wrong credentials from a wrong agent). Skip, saying what is missing.
 */
export function refusedForCredentials(ctx: CheckContext, http: HttpResult): Verdict | undefined {
  const s = http.status;
  if (s !== 401 && s !== 403) return undefined;
  if (ctx.credentials.kind === 'none') {
    const challenge = http.headers.get('www-authenticate');
    return skip(`The agent answered HTTP ${s}: it requires credentials${challenge ? ` (WWW-Authenticate: ${challenge.slice(0, 120)})` : ''}. Enter them to run this check.`, 'credentials', [exchangeEvidence(http)]);
  }
  return skip(`The agent refused the credentials given (HTTP ${s}). Check they are valid and sent where the card says.`, 'credentials', [exchangeEvidence(http)]);
}

/** Verdict for a call that should have produced a task but did not. */
export function brokenCallVerdict(ctx: CheckContext, o: CallOutcome, what: string): Verdict {
  const blocked = authBlocked(ctx, o);
  if (blocked) return blocked;
  if (o.kind === 'transport') return transportVerdict(o.http, what);
  const evidence: Evidence[] = [exchangeEvidence(o.http)];
  if (o.http.status === 429) {
    const after = o.http.headers.get('retry-after');
    return {
      status: 'fail',
      message: `${what}: the agent refused with HTTP 429 Too Many Requests${after ? ` (Retry-After: ${after.slice(0, 40)})` : ''}; it rate-limits a single test client, so this could not be exercised.`,
      evidence,
      recommendation: 'Allow a conformance run (a few dozen requests within a minute) or raise the rate limit for the test client; send Retry-After with 429 so clients can back off.',
    };
  }
  if (o.kind === 'error') {
    const crash = o.http.status >= 500;
    // An answer that is also malformed (e.g. both "result" and "error") says so: the error may be an artifact of it.
    const malformed = o.envelopeProblems.length ? ` The answer is also malformed: ${o.envelopeProblems.slice(0, 2).join('; ')}.` : '';
    return {
      status: 'fail',
      critical: crash,
      message: `${what}: the agent answered with an error (${o.error.code ?? o.error.status ?? ''} ${o.error.message}${crash ? `, HTTP ${o.http.status}` : ''}).${malformed}`,
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
