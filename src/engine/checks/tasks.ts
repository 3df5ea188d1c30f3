import type { HttpResult } from '../http/client';
import type { Binding, Evidence, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import type { CallOutcome, Dialect } from '../protocol/dialect';
import type { InputPart } from '../protocol/input';
import type { TaskView } from '../protocol/shapes';
import { acceptedInputModes, buildInput, type MessageInput } from '../protocol/input';
import { isInterrupted, isTerminal } from '../protocol/states';
import { acceptedOutputModes } from '../runner/target';
import { ev, exchangeEvidence, fail, skip, TIMEOUT_KNOB, toolLimit, transportVerdict, type CheckContext, type Verdict } from './define';

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
  /** The send asked to return at once (v1.0 returnImmediately, v0.2/v0.3 blocking:false; legacy always blocks). */
  returnImmediately: boolean;
  send: CallOutcome;
  /** Every answer to a get, including errors. */
  gets: CallOutcome[];
  /** A first get answered TaskNotFound for the task just created: kept here, and asked once more after 300 ms. */
  notFoundRetries?: CallOutcome[];
  observations: Observation[];
  final?: TaskView;
  /**
   * - `refused-input`: the agent refused a content type the skill does not declare and this tool could not
   *   produce one it does: a correct refusal, not a failure;
   * - `refused-declared-input`: the agent refused our input although it is in a media type the skill (or the card)
   *   declares: card modes are descriptive and A2A has no skill selection, so an advisory, not a failure;
   * - `timeout`: our per-task budget ended (the task was still running, or a blocking send had not answered).
   */
  outcome: 'terminal' | 'interrupted' | 'timeout' | 'failed-call' | 'message' | 'no-task' | 'refused-input' | 'refused-declared-input';
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
 * defaultInputModes): text when text is accepted, else JSON data, an image, audio, a PDF ... (see protocol/input.ts),
 * with the output modes to accept: the skill's own outputModes and the card's defaults.
 */
export function skillInput(ctx: CheckContext, skillId?: string): MessageInput {
  const s = ctx.card.skills.find((x) => x.id === skillId);
  return {
    ...buildInput(skillText(ctx, skillId), acceptedInputModes(s?.inputModes, ctx.card.defaultInputModes)),
    acceptedOutputModes: acceptedOutputModes(ctx.card, s?.outputModes),
  };
}

/** The skill most checks exercise: the first selected one whose input this tool can produce. */
export function primarySkill(ctx: CheckContext): string | undefined {
  return ctx.skills.find((id) => !skillInput(ctx, id).unsupported) ?? ctx.skills[0];
}

/** An error message that names a content/media type (how a generic validation error says what it refused). */
const NAMES_CONTENT_TYPE = /content[\s_-]?type|media[\s_-]?type|mime[\s_-]?type|\bmime\b|input[\s_-]?mode|output[\s_-]?mode|unsupported (file|part|format)/i;

/**
 * Whether an error answer refuses our input (or the output we accept) as a content type the agent does not
 * support (docs/spec-review/lifecycle.md X1.1):
 * - `explicit`: ContentTypeNotSupported -32005 (every generation; legacy §8.2 "SHOULD use these codes"); reason
 *   CONTENT_TYPE_NOT_SUPPORTED (v1.0.1 REST); HTTP 415 (v1.0.0 table); in v1.0 a validation error (-32602, REST
 *   400 INVALID_ARGUMENT) that names the content type (§3.3.2 lists "unsupported content type" among validation
 *   errors); in v0.3 REST a 4xx naming it;
 * - `possible`: v0.3 REST, any other 4xx with an error body (v0.3 has no status table: §3.2.3 only says
 *   "appropriate HTTP status codes"). Accepted only when our input is in a type the skill does not declare.
 */
export function contentTypeRefusal(o: CallOutcome, generation: Generation, binding: Binding | undefined): 'explicit' | 'possible' | undefined {
  if (o.kind !== 'error') return undefined;
  const e = o.error;
  const status = o.http.status;
  if (e.code === -32005 || e.reason === 'CONTENT_TYPE_NOT_SUPPORTED' || status === 415) return 'explicit';
  const names = NAMES_CONTENT_TYPE.test(e.message);
  if (generation === 'v1.0' && e.code === -32602 && names) return 'explicit';
  if (binding === 'HTTP+JSON' && status >= 400 && status < 500) {
    if (generation === 'v1.0') return status === 400 && names && (e.reason === undefined || e.status === 'INVALID_ARGUMENT' || e.reason === 'INVALID_ARGUMENT') ? 'explicit' : undefined;
    if (generation === 'v0.3' && ![401, 403, 404, 405, 408, 429].includes(status)) return names ? 'explicit' : 'possible';
  }
  return undefined;
}

/** A content-type refusal (explicit or, on v0.3 REST, possible): see contentTypeRefusal. */
export function isContentTypeRefusal(o: CallOutcome, generation: Generation, binding: Binding | undefined): boolean {
  return contentTypeRefusal(o, generation, binding) !== undefined;
}

/**
 * TaskNotFound: -32001 on JSON-RPC; HTTP 404 on REST (v1.0 reason TASK_NOT_FOUND; v0.3 has no status table, 404 is
 * the natural answer).
 */
export function isTaskNotFound(o: CallOutcome, ctx: Pick<CheckContext, 'dialect'>): boolean {
  if (o.kind !== 'error') return false;
  if (ctx.dialect?.isRest) return o.http.status === 404 || o.error.reason === 'TASK_NOT_FOUND';
  return o.error.code === -32001;
}

/** No answer within our budget (the request timed out on our side). */
export const timedOut = (o: CallOutcome): boolean => o.kind === 'transport' && o.http.error?.source === 'timeout';

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

export interface RunTaskArgs {
  text: string;
  parts?: InputPart[];
  input?: MessageInput;
  skillId?: string;
  lane: string;
  returnImmediately?: boolean;
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** Default: the input's (skill's) accepted output modes, else the card's. */
  acceptedOutputModes?: string[];
  messageId?: string;
}

/**
 * Sends `text` as a new task and polls `get` with backoff until the task is terminal or interrupted
 * or the per-task budget runs out (seed 001 steps 2.1-2.2). Always does at least one `get`,
 * so "basic send + get" is exercised even for agents that answer synchronously. A first get answering TaskNotFound
 * is asked again after 300 ms (eventual consistency). (A 429 with a short Retry-After is retried by the HTTP client.)
 */
export async function runTask(ctx: CheckContext, d: Dialect, a: RunTaskArgs): Promise<TaskRun> {
  const startedAt = ctx.http.host.now();
  const clientTaskId = d.generation === 'legacy' ? (a.taskId ?? ctx.uuid()) : a.taskId;
  const returnImmediately = !!a.returnImmediately && d.generation !== 'legacy';
  const send = await d.send(ctx.http, {
    text: a.text,
    parts: a.parts ?? a.input?.parts,
    lane: a.lane,
    checkId: ctx.checkId,
    taskId: clientTaskId,
    contextId: a.contextId,
    returnImmediately: a.returnImmediately,
    historyLength: a.historyLength,
    acceptedOutputModes: a.acceptedOutputModes ?? a.input?.acceptedOutputModes,
    messageId: a.messageId,
    timeoutMs: ctx.taskTimeoutMs,
  });
  const run: TaskRun = { skillId: a.skillId, text: a.text, input: a.input, lane: a.lane, clientTaskId, returnImmediately, send, gets: [], observations: [], outcome: 'no-task', startedAt, endedAt: startedAt };
  let last: TaskState | undefined;
  const observe = (source: Observation['source'], o: CallOutcome) => {
    if (o.kind !== 'task') return;
    const obs: Observation = { source, at: ctx.http.host.now(), task: o.task, exchangeId: o.http.exchangeId };
    run.observations.push(obs);
    emitState(ctx, a.lane, obs, last);
    last = o.task.state;
    run.final = o.task;
  };
  const end = (outcome: TaskRun['outcome'], broken?: CallOutcome) => {
    run.outcome = outcome;
    if (broken) run.brokenCall = broken;
    run.endedAt = ctx.http.host.now();
    return run;
  };
  if (send.kind === 'message') return end('message');
  if (send.kind !== 'task') {
    const refusal = a.input ? contentTypeRefusal(send, d.generation, d.binding) : undefined;
    if (refusal && a.input?.unsupported) return end('refused-input');
    if (refusal === 'explicit') return end('refused-declared-input', send);
    // No answer within our budget: a send that waits for the task (blocking) outlived it. Not the agent's fault.
    if (timedOut(send)) return end('timeout', send);
    return end('failed-call', send);
  }
  observe('send', send);
  const id = send.task.id;
  if (!id) return end('no-task');
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
    const getOnce = () => d.get(ctx.http, { id, lane: a.lane, checkId: ctx.checkId, historyLength: a.historyLength });
    let g = await getOnce();
    if (run.gets.length === 0 && isTaskNotFound(g, ctx)) {
      // A store may not show a task the instant it was created: ask once more before judging.
      (run.notFoundRetries ??= []).push(g);
      await ctx.http.host.sleep(300, ctx.http.signal).catch(() => undefined);
      g = await getOnce();
    }
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

/**
 * All skill runs of this run (one test task per selected skill, bounded concurrency), made once. The sends ask to
 * return at once (v1.0 returnImmediately, v0.2/v0.3 blocking:false) and the task is polled: a task longer than
 * our budget then ends as a tool limit, never as a send without answer. Blocking is judged by lifecycle.blocking.
 */
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
        runs[i] = await runTask(ctx, d, { text: input.text, input, skillId, lane: `task: ${skillId ?? 'message'}`, returnImmediately: true });
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
    const run = await runTask(ctx, ctx.dialect!, { text: model.text, input: model.input, skillId: model.skillId, lane: `task: ${key}`, returnImmediately: true });
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
  if (runs.length && runs.every((r) => r.outcome === 'timeout')) {
    return toolLimit(`No test task finished within our ${ctx.taskTimeoutMs} ms budget, so there is no ${what}. To judge it, ${TIMEOUT_KNOB}.`, runs.map(runEvidence));
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
  /** The input sent. */
  input?: MessageInput;
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
    const input = skillInput(ctx, skillId);
    const send = await d.send(ctx.http, {
      ...input,
      lane,
      checkId: ctx.checkId,
      returnImmediately: true,
      taskId: d.generation === 'legacy' ? ctx.uuid() : undefined,
      timeoutMs: ctx.taskTimeoutMs,
    });
    if (send.kind === 'task') emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: send.task, exchangeId: send.http.exchangeId });
    const running = send.kind === 'task' && !!send.task.id && (send.task.state === 'submitted' || send.task.state === 'working');
    last = { send, lane, skillId, index, running, input };
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

/** A rate limit (HTTP 429) that outlived our polite retry: our limit, not a protocol answer. */
export function rateLimited(o: CallOutcome, what: string): Verdict | undefined {
  if (o.http.status !== 429 || !o.http.responded) return undefined;
  const after = o.http.headers.get('retry-after');
  return toolLimit(
    `${what}: the agent answered HTTP 429 Too Many Requests${after ? ` (Retry-After: ${after.slice(0, 40)})` : ''}, so this could not be exercised. No A2A release forbids rate limiting, so this is not judged. To judge it, allow the test client more requests (a conformance run makes a few dozen within a minute), select fewer skills, or run again later.`,
    [exchangeEvidence(o.http)],
  );
}

export interface BrokenCallOptions {
  /** The input sent: a refusal of its content type is judged against the skill's declared modes. */
  input?: MessageInput;
  /** The call waits for the task (a blocking send): no answer within our budget is a tool limit. */
  waits?: boolean;
}

/** Verdict for a call that should have produced a task but did not. */
export function brokenCallVerdict(ctx: CheckContext, o: CallOutcome, what: string, opts: BrokenCallOptions = {}): Verdict {
  const blocked = authBlocked(ctx, o);
  if (blocked) return blocked;
  const limited = rateLimited(o, what);
  if (limited) return limited;
  if (o.kind === 'transport' && opts.waits && timedOut(o)) {
    return toolLimit(`${what}: no answer within our ${ctx.taskTimeoutMs} ms budget. A send may run the task before it answers (many agents do, even when asked to return at once), and no release bounds how long a task runs, so this is not judged. To judge it, ${TIMEOUT_KNOB}.`, [exchangeEvidence(o.http)]);
  }
  if (o.kind === 'transport') return transportVerdict(o.http, what);
  const evidence: Evidence[] = [exchangeEvidence(o.http)];
  const refusal = opts.input ? contentTypeRefusal(o, ctx.generation, ctx.binding) : undefined;
  if (refusal && opts.input?.unsupported) {
    return skip(`${what}: the agent refused our input as a content type it does not support, which is right: ${opts.input.unsupported}`, 'precondition', evidence);
  }
  if (refusal === 'explicit' && opts.input) return declaredInputRefused(what, opts.input, o, evidence);
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

/** The advisory for a content-type refusal of input in a declared media type (X1.2). */
export function declaredInputRefused(what: string, input: MessageInput, o: CallOutcome, evidence: Evidence[] = [exchangeEvidence(o.http)]): Verdict {
  const err = o.kind === 'error' ? ` (${o.error.code ?? `HTTP ${o.http.status}`} ${o.error.message.slice(0, 160)})` : '';
  return {
    ...fail(
      `${what}: the agent refused our ${input.mediaType} input as an unsupported content type${err}, although the skill (or the card's defaults) declares ${input.mediaType}.`,
      evidence,
      'If the skill accepts this media type, route it to that skill; otherwise list only the media types it accepts in inputModes.',
    ),
    advisory: `Input modes describe what a skill accepts ("Supported media types for input"); no sentence obliges an agent to accept every declared type, and A2A has no skill selection (the agent may route our message to another skill).`,
  };
}

export function describeRun(r: TaskRun): string {
  const states = r.observations.map((o) => `${o.source}:${o.task.rawState ?? '?'}`).join(' → ');
  return `${r.skillId ? `skill ${r.skillId}` : 'message'}: ${states || r.outcome} (${r.endedAt - r.startedAt} ms)`;
}

export const runEvidence = (r: TaskRun): Evidence => ev(`task ${r.final?.id ?? r.clientTaskId ?? '?'} (${r.lane})`, describeRun(r), { exchangeId: r.send.http.exchangeId });
