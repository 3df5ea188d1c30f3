/**
 * The seed's two-agent checks (conformance procedure step 5.5, docs/conformance-procedure.md: P1, P2, P4), judged
 * from what a tap observed between agent A (the client) and agent B (the agent behind the tap): A discovers B's card,
 * A sends B a task, B answers it, and tasks sent at once stay apart. Pure: a list of tap events in, verdicts out, so
 * the Tap page, the CLI's report and the tests judge the same way.
 *
 * B -> A (P3) needs a tap in front of A: it is not judged here.
 */
import { PROCEDURE } from '../spec/data/procedure';
import type { SpecSentence } from '../spec/types';
import { normalizeState } from '../protocol/states';
import type { TaskState } from '../model/events';
import { isRecord, safeJsonParse } from '../util/json';
import type { TapEvent, TapExchangeEnd, TapExchangeStart, TapFinding, TapSide } from './types';

export type TwoAgentCheckId = 'two-agent.card' | 'two-agent.send' | 'two-agent.answer' | 'two-agent.concurrent';

/** One two-agent check's verdict. `not-observed`: the conversation so far shows nothing to judge it by. */
export interface TwoAgentResult {
  id: TwoAgentCheckId;
  title: string;
  status: 'pass' | 'fail' | 'advisory' | 'not-observed';
  /** Who the result is about: A (the client) or B (the agent). */
  side: TapSide;
  /** One sentence with the evidence. */
  message: string;
  /** The exchanges it is based on (`x1`, …). */
  exchanges: string[];
  specRef: string;
  quote: string;
  recommendation: string;
}

const ref = (s: SpecSentence) => `Conformance procedure, ${s.section} (step 5.5)`;

/** The operations that create or continue a task: JSON-RPC methods of every generation, HTTP+JSON routes. */
const SEND_OPERATION = /^(message\/(send|stream)|tasks\/send(Subscribe)?|Send(Streaming)?Message)$|message:(send|stream)$/;
export const isSendOperation = (operation: string) => SEND_OPERATION.test(operation.trim());
const isCardOperation = (operation: string) => operation === 'card';

/** What one answer (a JSON body or an SSE frame's data) says: a task, a message, an event about a task, or an error. */
export interface AnswerInfo {
  kind: 'task' | 'message' | 'event' | 'error' | 'unknown';
  taskId?: string;
  contextId?: string;
  state?: TaskState;
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

function fromObject(o: Record<string, unknown>): AnswerInfo {
  // v1.0 wrappers (SendMessageResponse / StreamResponse): { task }, { message }, { statusUpdate }, { artifactUpdate }.
  for (const [key, kind] of [
    ['task', 'task'],
    ['message', 'message'],
    ['msg', 'message'],
    ['statusUpdate', 'event'],
    ['artifactUpdate', 'event'],
  ] as const) {
    const inner = o[key];
    if (isRecord(inner)) return { ...fromObject(inner), kind };
  }
  const status = isRecord(o.status) ? o.status : undefined;
  const kindField = str(o.kind);
  const kind: AnswerInfo['kind'] =
    kindField === 'task' || (!kindField && status && str(o.id))
      ? 'task'
      : kindField === 'message' || (!kindField && str(o.messageId) && (Array.isArray(o.parts) || Array.isArray(o.content)))
        ? 'message'
        : kindField === 'status-update' || kindField === 'artifact-update' || str(o.taskId)
          ? 'event'
          : 'unknown';
  const taskId = kind === 'task' ? str(o.id) : str(o.taskId);
  // Legacy (v0.1) names the conversation `sessionId`.
  const contextId = str(o.contextId) ?? str(o.sessionId);
  const state = normalizeState(status?.state);
  return { kind, ...(taskId ? { taskId } : {}), ...(contextId ? { contextId } : {}), ...(state ? { state } : {}) };
}

/** Reads an answer body or frame data (a JSON-RPC response, or an HTTP+JSON body); never throws. */
export function answerInfo(text: string | undefined): AnswerInfo {
  if (!text) return { kind: 'unknown' };
  const parsed = safeJsonParse(text);
  if (!parsed.ok || !isRecord(parsed.value)) return { kind: 'unknown' };
  const v = parsed.value;
  if ('error' in v && v.error !== undefined && v.error !== null) return { kind: 'error' };
  if (v.jsonrpc !== undefined) return isRecord(v.result) ? fromObject(v.result) : { kind: 'unknown' };
  // google.rpc.Status (HTTP+JSON errors) and the v0.3 SDK's {code, message}.
  if (typeof v.code === 'number' && typeof v.message === 'string' && !('parts' in v)) return { kind: 'error' };
  return fromObject(v);
}

/**
 * The ids a send request names (JSON-RPC params or an HTTP+JSON body): the task it continues (`message.taskId`),
 * the context, the message id, and the legacy client-chosen id of a new task (`params.id`).
 */
export function requestIds(body: string | undefined): { taskId?: string; contextId?: string; messageId?: string; clientTaskId?: string } {
  const parsed = body ? safeJsonParse(body) : undefined;
  if (!parsed?.ok || !isRecord(parsed.value)) return {};
  const v = parsed.value;
  const params = isRecord(v.params) ? v.params : v.jsonrpc === undefined ? v : undefined;
  if (!params) return {};
  const m = isRecord(params.message) ? params.message : isRecord(params.request) ? params.request : undefined;
  const taskId = str(m?.taskId);
  const contextId = str(m?.contextId) ?? str(params.sessionId);
  const messageId = str(m?.messageId);
  const clientTaskId = str(params.id);
  return { ...(taskId ? { taskId } : {}), ...(contextId ? { contextId } : {}), ...(messageId ? { messageId } : {}), ...(clientTaskId ? { clientTaskId } : {}) };
}

interface Observed {
  start: TapExchangeStart;
  end?: TapExchangeEnd;
  frames: string[];
  findings: TapFinding[];
}

function collect(events: readonly TapEvent[]): Observed[] {
  const byId = new Map<string, Observed>();
  const order: Observed[] = [];
  const findings: TapFinding[] = [];
  for (const e of events) {
    if (e.kind === 'exchange-start') {
      const o: Observed = { start: e, frames: [], findings: [] };
      byId.set(e.id, o);
      order.push(o);
    } else if (e.kind === 'exchange-end') {
      const o = byId.get(e.id);
      if (o) o.end = e;
    } else if (e.kind === 'sse-frame') byId.get(e.id)?.frames.push(e.data);
    else if (e.kind === 'finding') findings.push(e.finding);
  }
  for (const f of findings) byId.get(f.exchangeId)?.findings.push(f);
  return order;
}

/** How a send was answered: the task (or message) it produced, or why it was not answered, and whose fault that is. */
export interface SendOutcome {
  id: string;
  answered: boolean;
  /** Not answered because of the tap itself (an injected fault, our failure) or the client (went away): nobody's fault here. */
  excused?: string;
  problem?: string;
  info: AnswerInfo;
  /** Task ids seen in the answer (a stream may name its task in every event). */
  taskIds: string[];
  contextIds: string[];
}

const serious = (f: TapFinding) => f.side === 'client' && (f.level === 'MUST' || f.level === 'SHOULD');

/** How a send was answered; a request that broke a client rule may be refused (an error answer is then no fault of B). */
function sendOutcome(o: Observed): SendOutcome {
  const out = rawOutcome(o);
  const broken = [...new Set(o.findings.filter(serious).map((f) => f.checkId))];
  return !out.answered && !out.excused && broken.length ? { ...out, excused: `A's request breaking ${broken.join(', ')}` } : out;
}

function rawOutcome(o: Observed): SendOutcome {
  const id = o.start.id;
  const end = o.end;
  const base = { id, taskIds: [] as string[], contextIds: [] as string[] };
  if (!end) return { ...base, answered: false, problem: 'no answer yet', excused: 'still open', info: { kind: 'unknown' } };
  if (end.error) {
    const excused =
      end.error.code === 'fault'
        ? 'a fault the tap injected'
        : end.error.code === 'tool'
          ? 'a failure of the tap itself'
          : end.error.code === 'client-closed'
            ? 'the client went away'
            : undefined;
    return { ...base, answered: false, problem: `${end.error.code}: ${end.error.message}`, ...(excused ? { excused } : {}), info: { kind: 'unknown' } };
  }
  const infos = end.stream ? o.frames.map(answerInfo) : [answerInfo(end.body)];
  const taskIds = [...new Set(infos.map((i) => i.taskId).filter((x): x is string => !!x))];
  const contextIds = [...new Set(infos.map((i) => i.contextId).filter((x): x is string => !!x))];
  const status = end.status ?? 0;
  const first = infos.find((i) => i.kind !== 'unknown') ?? { kind: 'unknown' as const };
  if (status < 200 || status >= 300) return { ...base, taskIds, contextIds, answered: false, problem: `HTTP ${status}`, info: first };
  if (infos.some((i) => i.kind === 'error')) return { ...base, taskIds, contextIds, answered: false, problem: 'an error answer', info: { kind: 'error' } };
  if (first.kind === 'unknown') {
    const what = end.stream ? `a stream of ${o.frames.length} event(s) with no task or message` : 'a body that is no task or message';
    return { ...base, taskIds, contextIds, answered: false, problem: what, info: first };
  }
  const last = [...infos].reverse().find((i) => i.state);
  return { ...base, taskIds, contextIds, answered: true, info: { ...first, ...(last?.state ? { state: last.state } : {}) } };
}

const list = (xs: readonly string[], max = 4) => (xs.length > max ? `${xs.slice(0, max).join(', ')} and ${xs.length - max} more` : xs.join(', '));

function judgeCard(all: Observed[], sends: Observed[]): TwoAgentResult {
  const s = PROCEDURE.twoAgentDiscover;
  const base = {
    id: 'two-agent.card' as const,
    title: "A discovers B's card",
    specRef: ref(s),
    quote: s.quote,
    recommendation: "Have agent A read agent B's card (its well-known URL) through the tap before calling B, and serve B's card there.",
  };
  const cards = all.filter((o) => isCardOperation(o.start.operation));
  const firstSend = sends[0];
  const ok = cards.find((o) => o.end && !o.end.error && (o.end.status ?? 0) >= 200 && (o.end.status ?? 0) < 300);
  if (ok) {
    const before = !firstSend || ok.start.seq < firstSend.start.seq;
    return {
      ...base,
      side: 'client',
      status: 'pass',
      message: `A read B's card through the tap (${ok.start.id}: ${ok.start.method} ${ok.start.url}, HTTP ${ok.end?.status})${firstSend ? (before ? `, before its first task (${firstSend.start.id})` : `, after its first task (${firstSend.start.id})`) : ''}.`,
      exchanges: [ok.start.id],
    };
  }
  const failed = cards.filter((o) => o.end);
  if (failed.length) {
    const f = failed[0]!;
    const why = f.end?.error ? `${f.end.error.code}: ${f.end.error.message}` : `HTTP ${f.end?.status}`;
    const ours = f.end?.error && ['fault', 'tool', 'client-closed'].includes(f.end.error.code);
    return {
      ...base,
      side: 'agent',
      status: ours ? 'not-observed' : 'fail',
      message: `A asked for B's card ${failed.length} time(s) and got no card (${f.start.id}: ${why})${ours ? ', not because of B' : ''}.`,
      exchanges: failed.map((o) => o.start.id),
    };
  }
  if (sends.length) {
    return {
      ...base,
      side: 'client',
      status: 'advisory',
      message: `A sent B ${sends.length} task(s) (${list(sends.map((o) => o.start.id))}) without reading B's card through the tap: it was configured with B's endpoint (or a cached card). The spec allows a card configured directly (A2A v1.0.1 §8.2), so this is an advisory.`,
      exchanges: sends.map((o) => o.start.id),
    };
  }
  return { ...base, side: 'client', status: 'not-observed', message: 'A has not asked for B’s card yet.', exchanges: [] };
}

function judgeSend(sends: Observed[]): TwoAgentResult {
  const s = PROCEDURE.twoAgentSend;
  const base = {
    id: 'two-agent.send' as const,
    title: 'A sends B a task',
    side: 'client' as const,
    specRef: ref(s),
    quote: s.quote,
    recommendation: "Fix A's client so its requests follow the generation B's card speaks (the client findings say what is wrong).",
  };
  if (!sends.length) return { ...base, status: 'not-observed', message: 'A has not sent B a task yet.', exchanges: [] };
  const clean = sends.filter((o) => !o.findings.some(serious));
  if (clean.length) {
    const rest = sends.length - clean.length;
    return {
      ...base,
      status: 'pass',
      message: `A sent B ${sends.length} task request(s) (${list(sends.map((o) => `${o.start.id} ${o.start.operation}`))})${rest ? `; ${rest} of them with client findings` : ', none with a client finding'}.`,
      exchanges: sends.map((o) => o.start.id),
    };
  }
  const ids = [...new Set(sends.flatMap((o) => o.findings.filter(serious).map((f) => f.checkId)))];
  return {
    ...base,
    status: 'fail',
    message: `Every task request A sent B (${list(sends.map((o) => o.start.id))}) breaks a rule of the protocol B speaks: ${list(ids)}.`,
    exchanges: sends.map((o) => o.start.id),
  };
}

function judgeAnswer(sends: Observed[], outcomes: SendOutcome[]): TwoAgentResult {
  const s = PROCEDURE.twoAgentSend;
  const base = {
    id: 'two-agent.answer' as const,
    title: 'B answers',
    side: 'agent' as const,
    specRef: ref(s),
    quote: s.quote,
    recommendation: "Make B answer every task request with a task or a message (the agent findings say what is wrong with B's answers).",
  };
  const settled = outcomes.filter((o) => o.answered || !o.excused);
  if (!settled.length) {
    const excused = outcomes.filter((o) => o.excused && o.excused !== 'still open');
    const pending = outcomes.length - excused.length;
    const why = excused.length ? `${excused.length} not answered because of ${list([...new Set(excused.map((o) => o.excused!))])}` : '';
    const message = !sends.length ? 'No task was sent to B yet.' : [why, pending ? `${pending} still waiting for B` : ''].filter(Boolean).join('; ') + '.';
    return { ...base, status: 'not-observed', message: message.charAt(0).toUpperCase() + message.slice(1), exchanges: outcomes.map((o) => o.id) };
  }
  const bad = settled.filter((o) => !o.answered);
  if (bad.length) {
    return {
      ...base,
      status: 'fail',
      message: `B did not answer ${bad.length} of ${settled.length} task request(s): ${list(bad.map((o) => `${o.id} (${o.problem})`))}.`,
      exchanges: bad.map((o) => o.id),
    };
  }
  const what = settled.map((o) => `${o.id}: ${o.info.kind}${o.info.state ? ` ${o.info.state}` : ''}`);
  return { ...base, status: 'pass', message: `B answered ${settled.length} task request(s) (${list(what)}).`, exchanges: settled.map((o) => o.id) };
}

const endOf = (o: Observed) => (o.end ? o.end.at : Infinity);
const overlaps = (a: Observed, b: Observed) => a.start.at < endOf(b) && b.start.at < endOf(a);

/** The sends that were open at the same time as at least one other (a sweep over start times: n log n). */
function openTogether(xs: readonly Observed[]): Observed[] {
  const sorted = [...xs].sort((a, b) => a.start.at - b.start.at);
  const out: Observed[] = [];
  let maxEnd = -Infinity;
  for (let i = 0; i < sorted.length; i++) {
    const x = sorted[i]!;
    const next = sorted[i + 1];
    // An earlier send still open when x started, or the next send started before x ended.
    if (maxEnd > x.start.at || (next && next.start.at < endOf(x))) out.push(x);
    maxEnd = Math.max(maxEnd, endOf(x));
  }
  return out;
}

/** Pairs of sends sharing a key and open at the same time (groups are small; each is capped). */
function sharing(xs: readonly Observed[], key: (o: Observed) => string | undefined): [Observed, Observed, string][] {
  const groups = new Map<string, Observed[]>();
  for (const o of xs) {
    const k = key(o);
    if (k === undefined) continue;
    const g = groups.get(k);
    if (g) g.push(o);
    else groups.set(k, [o]);
  }
  const out: [Observed, Observed, string][] = [];
  for (const [k, g] of groups) {
    if (g.length < 2) continue;
    const capped = g.slice(0, 50);
    for (let i = 0; i < capped.length; i++)
      for (let j = i + 1; j < capped.length; j++) if (overlaps(capped[i]!, capped[j]!)) out.push([capped[i]!, capped[j]!, k]);
  }
  return out;
}

function judgeConcurrent(sends: Observed[], outcomes: Map<string, SendOutcome>): TwoAgentResult {
  const s = PROCEDURE.twoAgentConcurrent;
  const base = {
    id: 'two-agent.concurrent' as const,
    title: 'Concurrent tasks do not interfere',
    specRef: ref(s),
    quote: s.quote,
    recommendation:
      'Keep per-task state keyed by task id, create a new task (and context) for every new request, and never let one request read or write another one’s task.',
  };
  const ids = new Map(sends.map((o) => [o.start.id, requestIds(o.start.body)] as const));
  const req = (o: Observed) => ids.get(o.start.id) ?? {};
  const out = (o: Observed) => outcomes.get(o.start.id);
  // New tasks only (a request naming a task continues it, on purpose), open at the same time as another one.
  const together = openTogether(sends.filter((o) => !req(o).taskId));
  if (!together.length) {
    return { ...base, side: 'agent', status: 'not-observed', message: 'A has not had two new tasks open with B at the same time yet.', exchanges: [] };
  }
  const problems: { side: TapSide; text: string; ids: string[] }[] = [];
  const pair = (side: TapSide, [a, b]: [Observed, Observed, string], text: string) => problems.push({ side, text, ids: [a.start.id, b.start.id] });
  for (const p of sharing(together, (o) => req(o).messageId))
    pair('client', p, `A sent ${p[0].start.id} and ${p[1].start.id} at once with the same messageId ${p[2]}`);
  for (const p of sharing(together, (o) => req(o).clientTaskId))
    pair('client', p, `A started ${p[0].start.id} and ${p[1].start.id} at once with the same task id ${p[2]}`);
  const answered = together.filter((o) => out(o)?.answered);
  const sameClientTask = (a: Observed, b: Observed) => !!req(a).clientTaskId && req(a).clientTaskId === req(b).clientTaskId;
  // One key per answer: an answer naming several tasks is its own problem below.
  for (const p of sharing(answered, (o) => out(o)?.taskIds[0]))
    if (!sameClientTask(p[0], p[1]))
      pair('agent', p, `B answered ${p[0].start.id} and ${p[1].start.id}, two new tasks sent at once, with the same task ${p[2]}`);
  // Without a context named by A, each new task gets its own context; a context A named must be kept.
  for (const p of sharing(
    answered.filter((o) => !req(o).contextId),
    (o) => out(o)?.contextIds[0],
  ))
    pair('agent', p, `B put ${p[0].start.id} and ${p[1].start.id}, sent at once without a context, in the same context ${p[2]}`);
  for (const x of answered) {
    const r = req(x);
    const o = out(x)!;
    const other = r.contextId ? o.contextIds.find((c) => c !== r.contextId) : undefined;
    if (other) problems.push({ side: 'agent', text: `B answered ${x.start.id} (context ${r.contextId}) in context ${other}`, ids: [x.start.id] });
    if (o.taskIds.length > 1)
      problems.push({ side: 'agent', text: `B's answer to ${x.start.id} names ${o.taskIds.length} tasks (${list(o.taskIds)})`, ids: [x.start.id] });
  }
  const unique = [...new Map(problems.map((p) => [p.text, p])).values()];
  if (unique.length) {
    const side: TapSide = unique.some((p) => p.side === 'agent') ? 'agent' : 'client';
    return {
      ...base,
      side,
      status: 'fail',
      message: `${list(
        unique.map((p) => p.text),
        3,
      )}.`,
      exchanges: [...new Set(unique.flatMap((p) => p.ids))],
    };
  }
  const involved = together.map((o) => o.start.id);
  const done = openTogether(answered);
  if (!done.length) {
    return {
      ...base,
      side: 'agent',
      status: 'not-observed',
      message: `${involved.length} tasks were open at once (${list(involved)}), but B has not answered both of any pair yet.`,
      exchanges: involved,
    };
  }
  const answeredIds = done.map((o) => o.start.id);
  const tasks = done.map((o) => `${o.start.id} -> ${out(o)?.taskIds[0] ?? out(o)?.info.kind ?? '?'}`);
  return {
    ...base,
    side: 'agent',
    status: 'pass',
    message: `${answeredIds.length} tasks sent at once (${list(answeredIds)}) were answered separately: ${list(tasks)}, no task or context shared.`,
    exchanges: answeredIds,
  };
}

/** The four two-agent checks over a tap's events (A = the tap's client, B = the agent behind it). */
export function judgeTwoAgents(events: readonly TapEvent[]): TwoAgentResult[] {
  const all = collect(events);
  const sends = all.filter((o) => isSendOperation(o.start.operation));
  const outcomes = new Map(sends.map((o) => [o.start.id, sendOutcome(o)] as const));
  return [judgeCard(all, sends), judgeSend(sends), judgeAnswer(sends, [...outcomes.values()]), judgeConcurrent(sends, outcomes)];
}
