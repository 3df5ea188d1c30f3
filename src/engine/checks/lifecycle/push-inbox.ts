/**
 * What the push delivery checks share: a running task with a push config pointing at the host's webhook inbox,
 * the deliveries it received (each also put on the timeline, as an exchange on the `push inbox` lane), and how a
 * delivery is read per generation (v1.0: a StreamResponse; before: the Task object).
 */
import type { Evidence, Generation } from '../../model/check';
import type { TaskState } from '../../model/events';
import { PUSH_INBOX_LANE, type InboxDelivery, type InboxLease } from '../../model/inbox';
import type { HttpResult } from '../../http/client';
import type { CallOutcome } from '../../protocol/dialect';
import { isA2AError } from '../../protocol/errors';
import { isInterrupted, isTerminal, normalizeState } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContextWith } from '../context';
import { exchangeEvidence, ev, refusedForCredentials, skip, toolLimit, type Verdict } from '../define';
import { brokenCallVerdict, errText, rateLimited } from '../setups/outcomes';
import { firstSkillRun, readBack, runningCandidates, skillInput, startRunningTask } from '../setups/tasks';
import { roundTrip } from '../windows';

/** Longest wait for the terminal delivery once the config is set (the task's own budget may be lower). */
export const DELIVERY_WAIT_MS = 10_000;
/** A state the task stays in until someone acts: terminal, or interrupted (input-required, auth-required). */
export const isSettled = (s: TaskState | undefined, g: Generation): boolean => isTerminal(s, g) || isInterrupted(s);

/** Deliveries judged (and put on the timeline) per task at most. */
const MAX_JUDGED = 50;

/** Between reads of the task while waiting for it to finish: 50 ms at first (an agent that answers at once), x1.5, at most 500 ms. */
const POLL = { firstMs: 50, maxMs: 500 } as const;

/** A delivery as read for the checks. */
export interface ReadDelivery {
  d: InboxDelivery;
  /** The shape problem, when the body is not the generation's payload. */
  shape?: string;
  /** A weaker problem (a shape the generation only shows in an example). */
  weak?: string;
  taskId?: string;
  state?: TaskState;
  rawState?: string;
  /** v1.0: which StreamResponse member (`task`, `statusUpdate`, ...); before: `task` or the event kind. */
  kind?: string;
  exchangeId?: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const STREAM_MEMBERS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** Reads one delivery's body per generation; pure. */
export function readDelivery(g: Generation, d: InboxDelivery, taskId: string): Omit<ReadDelivery, 'd' | 'exchangeId'> {
  let v: unknown;
  try {
    v = JSON.parse(d.body);
  } catch {
    return { shape: d.truncated ? `the body was over our limit (${d.bodySize} bytes) and could not be read` : 'the body is not JSON' };
  }
  if (!isRecord(v)) return { shape: `the body is not a JSON object (${JSON.stringify(v)?.slice(0, 60)})` };
  if (g === 'v1.0') {
    const present = STREAM_MEMBERS.filter((k) => v[k] !== undefined);
    if (present.length !== 1) {
      const status = isRecord(v.status) ? v.status : undefined;
      const looksLikeTask = typeof v.id === 'string' && status !== undefined;
      return {
        shape:
          present.length === 0
            ? `the body is not a StreamResponse (none of task, message, statusUpdate, artifactUpdate)${looksLikeTask ? ': it is a bare Task, the pre-1.0 payload' : ''}`
            : `the body carries ${present.join(' and ')}: a StreamResponse has exactly one`,
        ...(looksLikeTask && { taskId: str(v.id), rawState: str(status?.state), state: normalizeState(status?.state) }),
      };
    }
    const kind = present[0] ?? 'task';
    const inner = v[kind];
    if (!isRecord(inner)) return { kind, shape: `"${kind}" is not an object` };
    const tid = kind === 'task' ? str(inner.id) : str(inner.taskId);
    const status = isRecord(inner.status) ? inner.status : undefined;
    const rawState = str(status?.state);
    const out = { kind, taskId: tid, rawState, state: normalizeState(rawState) };
    if (tid !== taskId) return { ...out, shape: tid === undefined ? `"${kind}" names no task id` : `"${kind}" names task ${tid}, not ${taskId}` };
    if ((kind === 'task' || kind === 'statusUpdate') && out.state === undefined)
      return { ...out, shape: `"${kind}.status.state" is ${rawState === undefined ? 'missing' : `"${rawState}", not a TaskState`}` };
    return out;
  }
  // legacy, v0.2, v0.3: the Task object (the releases' push example; legacy: "SHOULD include taskId and status").
  const member = STREAM_MEMBERS.find((k) => isRecord(v[k]));
  if (member && v.id === undefined) return { kind: member, shape: `the body is a v1.0 StreamResponse ({"${member}": …}), not the ${g} Task object` };
  const kind = str(v.kind) ?? 'task';
  const tid = kind === 'task' ? (str(v.id) ?? str(v.taskId)) : str(v.taskId);
  const status = isRecord(v.status) ? v.status : undefined;
  const rawState = str(status?.state);
  const out = { kind, taskId: tid, rawState, state: normalizeState(rawState) };
  if (tid !== taskId) return { ...out, shape: tid === undefined ? 'the body names no task id' : `the body names task ${tid}, not ${taskId}` };
  if (!status || out.state === undefined)
    return { ...out, shape: `"status.state" is ${rawState === undefined ? 'missing' : `"${rawState}", not a TaskState`}` };
  if (kind !== 'task') return { ...out, weak: `the body is a ${kind} event, where the ${g} example sends the Task object` };
  return out;
}

/** Puts a delivery on the timeline (an exchange on the `push inbox` lane: the agent's POST and our answer). */
function emitDelivery(ctx: CheckContextWith<'dialect'>, lease: InboxLease, d: InboxDelivery, lane: string): string {
  const http = ctx.http;
  const id = http.newId('x');
  http.emit({
    type: 'http-request',
    at: d.at,
    exchangeId: id,
    checkId: ctx.checkId,
    lane,
    request: {
      method: d.method,
      url: http.redactor.url(lease.url),
      headers: http.redactor.headers(d.headers),
      body: http.redactor.text(d.body.slice(0, http.limits.previewBytes)),
      bodySize: d.bodySize,
    },
  });
  http.emit({
    type: 'http-response',
    at: d.at,
    exchangeId: id,
    response: { status: d.truncated ? 413 : 200, headers: { 'content-type': 'application/json' }, bodySize: 0, truncated: false, stream: false },
    timings: { startedAt: d.at, headersAt: d.at, endedAt: d.at },
  });
  return id;
}

/** Evidence of one delivery: its exchange on the timeline, the state it carries and the credentials it came with. */
export const deliveryEvidence = (r: ReadDelivery, label = `delivery #${r.d.seq}`): Evidence =>
  ev(
    label,
    `${r.d.method} ${r.kind ?? 'body'}${r.rawState ? ` ${r.rawState}` : ''} (token ${r.d.token}, Authorization ${r.d.authorization})\n${r.d.body.slice(0, 600)}`,
    r.exchangeId ? { exchangeId: r.exchangeId } : undefined,
  );

/** Why no inbox can help, per host: a Verdict to return. */
function noInboxVerdict(): Verdict {
  return skip(
    'This host has no webhook inbox, so push deliveries cannot be received. The CLI hosts one on 127.0.0.1 (or --webhook-url for an agent elsewhere); the dashboard uses the one of its local server (npm start).',
    'tool-limit',
  );
}

const hostOf = (u: string | undefined) => {
  try {
    return u ? new URL(u).hostname.replace(/^\[|\]$/g, '') : '';
  } catch {
    return '';
  }
};
const isLoopback = (h: string) => h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1';
const isPrivate = (h: string) => isLoopback(h) || /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|fc|fd)/i.test(h) || h.endsWith('.local');

/** When the agent probably cannot reach the inbox (a loopback inbox and a remote agent, a public inbox and a private agent). */
export function reachabilityDoubt(inboxUrl: string, agentUrl: string | undefined): string | undefined {
  const ih = hostOf(inboxUrl);
  const ah = hostOf(agentUrl);
  if (isLoopback(ih) && ah && !isLoopback(ah))
    return `our inbox listens on this machine (${ih}) and the agent at ${ah} is elsewhere, so it cannot reach it: give a public address that forwards to the inbox (CLI --webhook-url; a self-hosted dashboard: INBOX_PUBLIC_URL), or run the agent locally`;
  if (!isPrivate(ih) && ah && isPrivate(ah))
    return `the agent is on a private network (${ah}) and our inbox is public (${ih}): the agent may have no route to it; use the CLI or the local dashboard (npm start) on the agent's network`;
  return undefined;
}

export interface PushSession {
  lease: InboxLease;
  taskId: string;
  lane: string;
  evidence: Evidence[];
  token: string;
  /** The Authorization value asked for (v1.0 only). */
  authorization?: string;
  configId?: string;
  set: CallOutcome;
  /** Index of the skill among the running candidates (-1: the paused task). */
  index: number;
  /** The task was paused in input-required when the config was set (and `ready` ran), then resumed by our answer. */
  paused?: boolean;
  /** The slowest round trip of this session's own calls so far (sizes its windows: src/engine/checks/windows.ts). */
  slowestMs: number;
}

/**
 * Starts a running task, opens an inbox address and sets a push config (url, token, and for v1.0 a Bearer
 * `authentication`) on it. A Verdict when that cannot be done (the caller returns it).
 */
async function openPushSessionFrom(ctx: CheckContextWith<'dialect'>, label: string, from: number, lane: string): Promise<PushSession | Verdict> {
  if (!ctx.http.host.inbox) return noInboxVerdict();
  const started = await startRunningTask(ctx, label, from, lane);
  if (!started) return skip('No task could be started to attach a push config to.', 'precondition');
  const s = started.send;
  const blocked = refusedForCredentials(ctx, s.http);
  if (blocked) return blocked;
  if (s.kind === 'message') return skip('The agent replied with a Message; there is no task to be notified about.', 'not-applicable');
  if (s.kind !== 'task') return brokenCallVerdict(ctx, s, 'starting a task for push delivery', { input: started.input });
  if (!s.task.id) return skip('The task has no id (see lifecycle.send).', 'precondition', [exchangeEvidence(s.http)]);
  if (!started.running)
    return skip(`No test task was still running after the send (it was ${s.task.state}), so no state change was left to deliver.`, 'precondition', [
      exchangeEvidence(s.http),
    ]);
  return configure(ctx, s.task.id, s.http, lane, started.index);
}

/** Opens an inbox address and sets a push config for `taskId` on it (url, token; v1.0 also Bearer authentication). */
async function configure(ctx: CheckContextWith<'dialect'>, taskId: string, started: HttpResult, lane: string, index: number): Promise<PushSession | Verdict> {
  const inbox = ctx.http.host.inbox;
  if (!inbox) return noInboxVerdict();
  const d = ctx.dialect;
  const g = ctx.generation;
  const token = `a2a-interop-${ctx.uuid()}`;
  const credentials = ctx.uuid().replace(/-/g, '');
  const authorization = g === 'v1.0' ? `Bearer ${credentials}` : undefined;
  ctx.http.redactor.addSecret(token).addSecret(credentials);
  let lease: InboxLease;
  try {
    lease = await inbox.open({ expect: { token, authorization }, signal: ctx.http.signal });
  } catch (e) {
    return toolLimit(
      `No webhook inbox address could be opened (${e instanceof Error ? e.message : String(e)}), so push deliveries cannot be received. The dashboard's inbox is its local server's (npm start); the CLI hosts its own.`,
    );
  }
  const path = /\/inbox\/([0-9a-f]{32})/.exec(lease.url)?.[1];
  ctx.http.redactor.addSecret(path);
  const evidence: Evidence[] = [exchangeEvidence(started, 'task started')];
  const opts = { lane, checkId: ctx.checkId };
  let set = await d.pushSet(ctx.http, { taskId, url: lease.url, token, ...(authorization && { authentication: { scheme: 'Bearer', credentials } }), ...opts });
  if (g === 'v0.3' && d.isRest && set.kind === 'error' && set.http.status === 400)
    set = await d.pushSet(ctx.http, { taskId, url: lease.url, token, restBody: 'config', ...opts });
  evidence.push(exchangeEvidence(set.http, d.describe('pushSet', taskId)));
  if (set.kind !== 'ok') {
    await lease.close();
    const pre = refusedForCredentials(ctx, set.http) ?? rateLimited(set, 'setting the push config');
    if (pre) return pre;
    if (set.kind === 'error' && (isA2AError(set, 'InvalidParams') || (d.isRest && set.http.status === 400))) {
      const doubt = reachabilityDoubt(lease.url, ctx.endpointUrl);
      return toolLimit(
        `The agent refused our webhook URL (${errText(set)}). Agents SHOULD validate webhook URLs (v1.0.1 §13.2)${doubt ? `, and ${doubt}` : '; a loopback address is often refused: give a public address that forwards to the inbox (CLI --webhook-url)'}.`,
        evidence,
      );
    }
    return skip(`The push config could not be set (${errText(set)}); lifecycle.push-config judges that.`, 'precondition', evidence);
  }
  const body = isRecord(set.value) ? set.value : {};
  const inner = isRecord(body.pushNotificationConfig) ? body.pushNotificationConfig : body;
  const configId = str(inner.id) ?? str(body.id) ?? str(body.name)?.split('/').pop();
  const slowestMs = Math.max(roundTrip(started), roundTrip(set.http));
  return { lease, taskId, lane, evidence, token, authorization, configId: g === 'legacy' ? undefined : configId, set, index, slowestMs };
}

/**
 * The race-free way: a task of a skill that pauses in input-required (found by the run's skill tasks) waits for us,
 * so its config is set (and `ready` runs, e.g. a delete) while nothing can happen; then we answer and it resumes:
 * every update after that is the agent's to deliver. Undefined when no skill pauses (or this task did not).
 */
async function openOnPaused(
  ctx: CheckContextWith<'dialect'>,
  lane: string,
  ready?: (s: PushSession) => Promise<Verdict | undefined>,
): Promise<PushSession | Verdict | undefined> {
  const d = ctx.dialect;
  const g = ctx.generation;
  const paused = await firstSkillRun(ctx, (r) => r.outcome === 'interrupted' && r.final?.state === 'input-required');
  if (!paused) return undefined;
  const input = paused.input ?? skillInput(ctx, paused.skillId);
  const opts = { lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs };
  const send = await d.send(ctx.http, { ...input, ...opts, returnImmediately: true, taskId: g === 'legacy' ? ctx.uuid() : undefined });
  if (send.kind !== 'task' || !send.task.id) return undefined;
  const taskId = send.task.id;
  const state = isSettled(send.task.state, g) ? send.task.state : await waitTerminal(ctx, taskId, lane, Math.min(ctx.taskTimeoutMs, DELIVERY_WAIT_MS));
  if (state !== 'input-required') return undefined;
  const s = await configure(ctx, taskId, send.http, lane, -1);
  if ('status' in s) return s;
  const early = await ready?.(s);
  if (early) {
    await s.lease.close();
    return early;
  }
  const answer = await d.send(ctx.http, {
    text: 'Here is the extra input you asked for: yes, go ahead.',
    ...opts,
    taskId,
    contextId: send.task.contextId,
    returnImmediately: true,
  });
  s.evidence.push(exchangeEvidence(answer.http, 'our answer (the task resumes)'));
  return { ...s, paused: true, slowestMs: Math.max(s.slowestMs, roundTrip(answer.http)) };
}

/**
 * `openPushSessionFrom` on the candidate skills in turn until the task is still running once its config is set (a
 * quick task may finish first: then nothing is left to deliver, and the next skill is tried; at most 4).
 * `ready` runs right after the set (e.g. a delete) and must leave the task running too.
 */
export async function openPushSession(
  ctx: CheckContextWith<'dialect'>,
  label: string,
  ready?: (s: PushSession) => Promise<Verdict | undefined>,
): Promise<PushSession | Verdict> {
  const lane = ctx.lane(label);
  if (!ctx.http.host.inbox) return noInboxVerdict();
  const onPaused = await openOnPaused(ctx, lane, ready);
  if (onPaused) return onPaused;
  let finished: Verdict | undefined;
  for (let from = 0; from < Math.max(1, runningCandidates(ctx).length);) {
    const s = await openPushSessionFrom(ctx, label, from, lane);
    if ('status' in s) return finished && s.skipKind === 'precondition' ? finished : s;
    const early = await ready?.(s);
    if (early) {
      await s.lease.close();
      return early;
    }
    const b = await readBack(ctx, s.taskId, lane);
    if (b.kind !== 'task' || !isSettled(b.task.state, ctx.generation)) return s;
    await s.lease.close();
    finished = skip(
      `Every test task had finished or paused (${b.task.state}) by the time its push config was set${ready ? ' and deleted' : ''}, so no update was left to deliver.`,
      'precondition',
      s.evidence,
    );
    from = s.index + 1;
  }
  return finished ?? skip('No task could be started to attach a push config to.', 'precondition');
}

/**
 * Reads the task until it is settled (terminal or interrupted) or `ms` passed; the last state seen. `track` (a push
 * session) keeps the slowest round trip of these reads.
 */
export async function waitTerminal(
  ctx: CheckContextWith<'dialect'>,
  taskId: string,
  lane: string,
  ms: number,
  track?: { slowestMs: number },
): Promise<TaskState | undefined> {
  const end = ctx.http.host.now() + ms;
  let state: TaskState | undefined;
  let wait: number = POLL.firstMs;
  for (;;) {
    const b = await readBack(ctx, taskId, lane);
    if (track) track.slowestMs = Math.max(track.slowestMs, roundTrip(b.http));
    if (b.kind === 'task') state = b.task.state;
    if (isSettled(state, ctx.generation) || ctx.http.host.now() >= end || ctx.http.signal.aborted) return state;
    await ctx.http.host.sleep(Math.min(wait, Math.max(0, end - ctx.http.host.now())), ctx.http.signal).catch(() => undefined);
    wait = Math.min(POLL.maxMs, Math.round(wait * 1.5));
  }
}

/** Reads and emits every delivery of a lease once (the caller keeps the list). */
export function collect(ctx: CheckContextWith<'dialect'>, s: PushSession, seen: ReadDelivery[]): ReadDelivery[] {
  for (const d of s.lease.deliveries()) {
    // A flooding agent: the first MAX_JUDGED deliveries are judged and shown, the rest ignored.
    if (seen.length >= MAX_JUDGED) break;
    if (seen.some((r) => r.d.seq === d.seq)) continue;
    seen.push({ d, ...readDelivery(ctx.generation, d, s.taskId), exchangeId: emitDelivery(ctx, s.lease, d, PUSH_INBOX_LANE) });
  }
  return seen;
}
