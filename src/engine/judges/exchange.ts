/**
 * Judges of single answers (send, get, cancel, list, push configs): encoding, envelope, shapes, ids, the blocking
 * wait. Each finding names the check that judges the same rule in a run and takes that check's strength in the
 * generation spoken (finding.ts); the checks call the same functions, so a run and a console session say the same.
 * Shapes, envelopes and error bodies come from protocol/shapes.ts through the dialect's parsers. The sequence rules
 * of streams are in stream.ts.
 */
import type { HttpResult } from '../http/client';
import type { Generation } from '../model/check';
import type { CallOutcome } from '../protocol/dialect';
import type { ShapeFinding, TaskView } from '../protocol/shapes';
import { isInterrupted, isTerminal } from '../protocol/states';
import type { TaskState } from '../model/events';
import { defined, finding, type Finding, type FindingOpts } from './finding';

/** The operations a console session performs, one exchange (or one stream) each. */
export type ExchangeOperation = 'send' | 'stream' | 'get' | 'cancel' | 'subscribe' | 'list' | 'push-set' | 'push-get' | 'push-list' | 'push-delete' | 'raw';

/** RFC 8259 §9: a parser MAY limit nesting; a deep answer is legal JSON that some clients refuse (lifecycle.shape). */
const envelopeLevel = (p: string): 'MUST' | 'advisory' => (/^the answer nests JSON \d+ levels deep/.test(p) ? 'advisory' : 'MUST');

/** The check that judges whether an operation's answer is what it returns. */
const OP_CHECK: Record<ExchangeOperation, string> = {
  send: 'lifecycle.send',
  stream: 'streaming.content-type',
  get: 'lifecycle.get',
  cancel: 'lifecycle.cancel',
  subscribe: 'streaming.resubscribe',
  list: 'lifecycle.list',
  'push-set': 'lifecycle.push-config',
  'push-get': 'lifecycle.push-config',
  'push-list': 'lifecycle.push-config',
  'push-delete': 'lifecycle.push-config',
  raw: 'lifecycle.shape',
};

/** The shape findings of a Task or Message as parsed (protocol/shapes.ts), under `checkId` (lifecycle.shape). */
export function viewFindings(
  g: Generation,
  v: { problems: readonly string[]; findings?: readonly ShapeFinding[] },
  o: FindingOpts = {},
  checkId = 'lifecycle.shape',
): Finding[] {
  const all = v.findings ?? v.problems.map((problem) => ({ problem, level: 'MUST' as const }));
  return defined(all.map((f) => finding(g, checkId, 'shape', f.problem, { ...o, level: f.level })));
}

/** The envelope of an answer (JSON-RPC 2.0 §5, nesting): lifecycle.shape. */
export function envelopeFindings(g: Generation, problems: readonly string[], exchangeId?: string): Finding[] {
  return defined(problems.map((p) => finding(g, 'lifecycle.shape', 'envelope', p, { exchangeId, level: envelopeLevel(p) })));
}

/** Legacy tasks/send answered with a Message (lifecycle.send): the legacy protocol always returns a Task. */
export function legacySendMessage(g: Generation, exchangeId?: string): Finding | undefined {
  if (g !== 'legacy') return undefined;
  return finding(g, 'lifecycle.send', 'answer', 'tasks/send returned a Message; the legacy protocol always returns a Task.', { exchangeId });
}

/** Legacy: the answer must echo the task id the client chose (TaskSendParams.id; lifecycle.send). */
export function clientIdNotEchoed(g: Generation, got: string | undefined, chosen: string | undefined, exchangeId?: string): Finding | undefined {
  if (g !== 'legacy' || !chosen || got === undefined || got === chosen) return undefined;
  return finding(g, 'lifecycle.send', 'ids', `tasks/send returned task id "${got}", not the id the client chose ("${chosen}")`, { exchangeId });
}

/** An answer about task `asked` that is about another task (`label`: the call, e.g. "tasks/get"): lifecycle.get / lifecycle.cancel. */
export function wrongTask(
  g: Generation,
  checkId: string,
  label: string,
  asked: string | undefined,
  got: string | undefined,
  exchangeId?: string,
): Finding | undefined {
  if (!asked || got === asked) return undefined;
  return finding(g, checkId, 'ids', `${label} returned task id ${JSON.stringify(got)} for ${JSON.stringify(asked)}`, { exchangeId });
}

/** Whether a state is one a task may be in right after creation, per generation (docs/spec-review/lifecycle.md X6); `unknown` is an advisory. */
function initialStateNote(t: Pick<TaskView, 'state' | 'rawState'>, g: Generation): string | undefined {
  if (t.state !== 'unknown') return undefined;
  return g === 'v1.0'
    ? `the initial state ${t.rawState} is the proto's zero value ("unknown or indeterminate"): it says nothing about the task`
    : `the initial state ${t.rawState} is in the ${g} state enum but says nothing about the task`;
}

/**
 * The Task a send created (lifecycle.send): it has an id and a task state; the enum's "unknown" says nothing about
 * it (an advisory). In the order the check reports them: the first is the failure.
 */
export function createdTaskFindings(g: Generation, t: Pick<TaskView, 'id' | 'state' | 'rawState'>, exchangeId?: string): Finding[] {
  if (!t.id) return defined([finding(g, 'lifecycle.send', 'ids', 'The returned Task has no id.', { exchangeId })]);
  if (!t.state) return defined([finding(g, 'lifecycle.send', 'state', `The initial state ${JSON.stringify(t.rawState)} is not a task state.`, { exchangeId })]);
  const note = initialStateNote(t, g);
  return note ? defined([finding(g, 'lifecycle.send', 'state', note, { exchangeId, level: 'advisory' })]) : [];
}

/**
 * A get answered TaskNotFound for a task the client had seen (lifecycle.get): one it last saw unfinished must still
 * be there (a failure); a finished one may have been purged, as the error table allows ("already completed and
 * purged"; an advisory). `label` names the call, `before` the state last seen of the task.
 */
export function notFoundAfterSeen(
  g: Generation,
  label: string,
  taskId: string,
  before: { state?: TaskState; rawState?: string },
  o: { retried?: boolean; exchangeId?: string } = {},
): Finding | undefined {
  if (isTerminal(before.state, g))
    return finding(
      g,
      'lifecycle.get',
      'answer',
      `${label} answered TaskNotFound for a task that had already finished (${before.rawState}): the error table allows "already completed and purged", and no release sets a retention time`,
      { exchangeId: o.exchangeId, level: 'advisory' },
    );
  return finding(
    g,
    'lifecycle.get',
    'answer',
    `${label} answered TaskNotFound for task ${taskId}, which it had just reported ${before.rawState ?? 'created'}${o.retried ? ' (asked again after 300 ms)' : ''}`,
    { exchangeId: o.exchangeId },
  );
}

/** A get answered with a Task whose state is not a task state of the generation (lifecycle.get). */
export function getWithoutState(g: Generation, label: string, t: Pick<TaskView, 'state' | 'rawState'>, exchangeId?: string): Finding | undefined {
  if (t.state) return undefined;
  return finding(g, 'lifecycle.get', 'state', `${label} returned no task state (${JSON.stringify(t.rawState)})`, { exchangeId });
}

/** Why an unfinished answer to a v1.0 blocking send is an advisory (spec data note of lifecycle.blocking). */
export const BLOCKING_CONTRADICTION =
  'v1.0.1 contradicts itself on waiting: §3.2.2 (and the proto) say a blocking send MUST wait for a terminal or interrupted state, while §3.1.1 says SendMessage "MUST return immediately with either task information or response message" and §3.3.3 that operations return immediately.';

/**
 * A blocking send answered with a task neither finished nor paused (lifecycle.blocking). v1.0 contradicts itself on
 * waiting (an advisory: BLOCKING_CONTRADICTION); v0.x describes blocking without a requirement word (the spec data).
 */
export function blockingUnsettled(g: Generation, t: Pick<TaskView, 'id' | 'state' | 'rawState'>, exchangeId?: string, tookMs?: number): Finding | undefined {
  if (isTerminal(t.state, g) || isInterrupted(t.state)) return undefined;
  const v1 = g === 'v1.0';
  return finding(
    g,
    'lifecycle.blocking',
    'state',
    `The blocking send answered${tookMs === undefined ? '' : ` after ${tookMs} ms`} with task ${t.id ?? '?'} still ${t.rawState}: ${v1 ? 'v1.0.1 §3.2.2 says the operation MUST wait until the task reaches a terminal or interrupted state' : 'blocking: true asks the server to wait until the task is finished'}.`,
    { exchangeId, ...(v1 && { level: 'advisory' as const }) },
  );
}

/**
 * A transport failure in words (the run's transportVerdict and the session alike): `what` the call was doing. Only a
 * failure that is the agent's (blame agent) is judged; silence within our budget and our own failures are not.
 */
export function transportFailureMessage(r: Pick<HttpResult, 'error' | 'responded'>, what: string): string {
  const e = r.error;
  return `${e?.source !== 'timeout' ? 'Transport failure' : r.responded ? 'Incomplete answer' : 'No answer'} while ${what}: ${e?.message ?? 'the request failed'}`;
}

/** An answer that is not what the operation returns (not a Task, not a page, …): `what` names the call. */
export const invalidAnswerMessage = (what: string, reason: string) => `${what}: ${reason}`;

/** UTF-8 without a byte order mark: v1.0 §14.1.1 with RFC 8259 §8.1 (MUST); v0.x only through JSON-RPC 2.0 (advisory). */
export function encodingFindings(g: Generation, h: HttpResult): Finding[] {
  const v1 = g === 'v1.0';
  const level = v1 ? 'MUST' : 'advisory';
  return defined([
    h.invalidUtf8
      ? finding(g, 'lifecycle.shape', 'shape', `the response body is not valid UTF-8${v1 ? ' (v1.0.1 §14.1.1: UTF-8 MUST be used)' : ''}`, {
          level,
          exchangeId: h.exchangeId,
        })
      : undefined,
    h.bom
      ? finding(g, 'lifecycle.shape', 'shape', `the response body starts with a UTF-8 byte order mark${v1 ? ' (RFC 8259 §8.1: MUST NOT be added)' : ''}`, {
          level,
          exchangeId: h.exchangeId,
        })
      : undefined,
  ]);
}

export interface OutcomeExpectation {
  /** get / cancel: the task asked for. send: the task being continued. */
  taskId?: string;
  /** Legacy send: the id the client chose, which the answer must echo. */
  clientTaskId?: string;
  /** The send asked to block until the task finishes or pauses. */
  blocking?: boolean;
  /** How the call is named in an ids finding (default: the operation). */
  label?: string;
}

/** Findings about a non-streaming answer (send, get, cancel, list). */
export function outcomeFindings(g: Generation, op: ExchangeOperation, o: CallOutcome, expect: OutcomeExpectation = {}): Finding[] {
  const x = { exchangeId: o.http.exchangeId };
  const out: Finding[] = [];
  const push = (f: Finding | undefined) => {
    if (f) out.push(f);
  };
  if (o.kind === 'transport') {
    const e = o.http.error;
    // A dropped connection, a redirect loop or oversized headers are the agent's; silence within our budget is not
    // judged (a slow agent is not a broken one) and a refused connection is nobody's known fault.
    if (e && e.blame === 'agent' && e.source !== 'timeout')
      push(finding(g, OP_CHECK[op], 'transport', transportFailureMessage(o.http, expect.label ?? `calling ${op}`), { ...x, level: 'MUST' }));
    return out;
  }
  out.push(...encodingFindings(g, o.http));
  out.push(...envelopeFindings(g, o.envelopeProblems, o.http.exchangeId));
  switch (o.kind) {
    case 'invalid':
      push(finding(g, OP_CHECK[op], 'answer', invalidAnswerMessage(expect.label ?? `The answer to ${op}`, o.reason), { ...x, level: 'MUST' }));
      break;
    case 'error':
      out.push(...defined(o.error.problems.map((p) => finding(g, 'errors.shape', 'error-shape', p, { ...x, level: 'MUST' }))));
      break;
    case 'message':
      out.push(...viewFindings(g, o.message, x));
      if (op === 'send') push(legacySendMessage(g, o.http.exchangeId));
      break;
    case 'task': {
      const t = o.task;
      out.push(...viewFindings(g, t, x));
      const other = op === 'get' || op === 'cancel' ? wrongTask(g, OP_CHECK[op], expect.label ?? op, expect.taskId, t.id, o.http.exchangeId) : undefined;
      if (other) push(other);
      else if (op === 'get') push(getWithoutState(g, expect.label ?? op, t, o.http.exchangeId));
      const chosen = op === 'send' ? clientIdNotEchoed(g, t.id, expect.clientTaskId, o.http.exchangeId) : undefined;
      if (chosen) push(chosen);
      else if (op === 'send' && !expect.clientTaskId && expect.taskId && t.id !== undefined && t.id !== expect.taskId) {
        push(
          finding(g, 'lifecycle.multi-turn', 'ids', `the message named task ${expect.taskId} and was answered with task ${t.id} (no sentence forbids it)`, {
            ...x,
            level: 'advisory',
          }),
        );
      }
      // A new task (not the continuation of one): created with an id and a task state.
      if (op === 'send' && !expect.taskId) out.push(...createdTaskFindings(g, t, o.http.exchangeId));
      if (op === 'send' && expect.blocking) push(blockingUnsettled(g, t, o.http.exchangeId));
      break;
    }
    case 'ok':
      break;
  }
  return out;
}
