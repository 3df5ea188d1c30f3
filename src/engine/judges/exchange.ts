/**
 * The suite's rules applied to single exchanges: every finding names the check that judges the same rule in a run
 * and takes that check's strength in the generation spoken (src/engine/spec). Shapes, envelopes and error bodies
 * come from protocol/shapes.ts through the dialect's parsers; ids, states and transitions follow the lifecycle
 * checks. The sequence rules of streams (event order, end of stream, frame by frame) are in stream-rules.ts.
 */
import type { HttpResult } from '../http/client';
import type { Generation } from '../model/check';
import type { CallOutcome } from '../protocol/dialect';
import type { ShapeFinding } from '../protocol/shapes';
import { isInterrupted, isTerminal } from '../protocol/states';
import { CHECK_SPECS, levelOf, refOf } from '../spec';
import type { SessionFinding, SessionOperation } from './types';

interface FindingOpts {
  /** The strength the rule itself carries (a shape finding's); `advisory` always wins. */
  level?: SessionFinding['level'];
  frame?: number;
  exchangeId?: string;
}

/**
 * A finding under `checkId`'s rule, at the strength its sentences give it in generation `g` (MAY is advisory).
 * Undefined when the check does not apply to `g` and no strength was given: the rule is not part of that generation.
 */
export function finding(g: Generation, checkId: string, rule: SessionFinding['rule'], message: string, o: FindingOpts = {}): SessionFinding | undefined {
  const spec = CHECK_SPECS[checkId]?.[g];
  let level: SessionFinding['level'] | undefined;
  if (o.level === 'advisory') level = 'advisory';
  else if (spec) {
    const l = levelOf(spec);
    level = l === 'MAY' ? 'advisory' : l;
  } else level = o.level;
  if (!level) return undefined;
  const f: SessionFinding = { level, checkId, rule, message };
  if (o.frame !== undefined) f.frame = o.frame;
  if (o.exchangeId) f.exchangeId = o.exchangeId;
  if (spec?.sentences.length) f.specRef = refOf(spec);
  return f;
}

export const defined = <T>(xs: (T | undefined)[]): T[] => xs.filter((x): x is T => x !== undefined);

/** RFC 8259 §9: a parser MAY limit nesting; a deep answer is legal JSON that some clients refuse (lifecycle.shape). */
const envelopeLevel = (p: string): 'MUST' | 'advisory' => (/^the answer nests JSON \d+ levels deep/.test(p) ? 'advisory' : 'MUST');

/** The check that judges whether an operation's answer is what it returns. */
const OP_CHECK: Record<SessionOperation, string> = {
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

function shapeFindings(
  g: Generation,
  fs: readonly ShapeFinding[] | undefined,
  texts: readonly string[],
  o: FindingOpts,
  checkId = 'lifecycle.shape',
): SessionFinding[] {
  const all = fs ?? texts.map((problem) => ({ problem, level: 'MUST' as const }));
  return defined(all.map((f) => finding(g, checkId, 'shape', f.problem, { ...o, level: f.level })));
}

/** UTF-8 without a byte order mark: v1.0 §14.1.1 with RFC 8259 §8.1 (MUST); v0.x only through JSON-RPC 2.0 (advisory). */
export function encodingFindings(g: Generation, h: HttpResult): SessionFinding[] {
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
}

/** Findings about a non-streaming answer (send, get, cancel, list). */
export function outcomeFindings(g: Generation, op: SessionOperation, o: CallOutcome, expect: OutcomeExpectation = {}): SessionFinding[] {
  const x = { exchangeId: o.http.exchangeId };
  const out: SessionFinding[] = [];
  const push = (f: SessionFinding | undefined) => {
    if (f) out.push(f);
  };
  if (o.kind === 'transport') {
    const e = o.http.error;
    // A dropped connection, a redirect loop or oversized headers are the agent's; silence within our budget is not
    // judged (a slow agent is not a broken one) and a refused connection is nobody's known fault.
    if (e && e.blame === 'agent' && e.source !== 'timeout') push(finding(g, OP_CHECK[op], 'transport', e.message, { ...x, level: 'MUST' }));
    return out;
  }
  out.push(...encodingFindings(g, o.http));
  for (const p of o.envelopeProblems) push(finding(g, 'lifecycle.shape', 'envelope', p, { ...x, level: envelopeLevel(p) }));
  switch (o.kind) {
    case 'invalid':
      push(
        finding(
          g,
          OP_CHECK[op],
          'answer',
          `${o.http.status >= 500 ? `The agent failed with HTTP ${o.http.status}: ` : 'The answer is not what the operation returns: '}${o.reason}`,
          { ...x, level: 'MUST' },
        ),
      );
      break;
    case 'error':
      out.push(...defined(o.error.problems.map((p) => finding(g, 'errors.shape', 'error-shape', p, { ...x, level: 'MUST' }))));
      break;
    case 'message':
      out.push(...shapeFindings(g, o.message.findings, o.message.problems, x));
      if (op === 'send' && g === 'legacy')
        push(finding(g, 'lifecycle.send', 'answer', 'tasks/send returned a Message; the legacy protocol always returns a Task.', x));
      break;
    case 'task': {
      const t = o.task;
      out.push(...shapeFindings(g, t.findings, t.problems, x));
      if ((op === 'get' || op === 'cancel') && expect.taskId && t.id !== undefined && t.id !== expect.taskId) {
        push(finding(g, OP_CHECK[op], 'ids', `${op} of task ${JSON.stringify(expect.taskId)} returned task ${JSON.stringify(t.id)}`, x));
      }
      if (op === 'send' && expect.clientTaskId && t.id !== undefined && t.id !== expect.clientTaskId) {
        push(finding(g, 'lifecycle.send', 'ids', `tasks/send returned task id "${t.id}", not the id the client chose ("${expect.clientTaskId}")`, x));
      } else if (op === 'send' && expect.taskId && t.id !== undefined && t.id !== expect.taskId) {
        push(
          finding(g, 'lifecycle.multi-turn', 'ids', `the message named task ${expect.taskId} and was answered with task ${t.id} (no sentence forbids it)`, {
            ...x,
            level: 'advisory',
          }),
        );
      }
      if (op === 'send' && expect.blocking && t.state && !isTerminal(t.state, g) && !isInterrupted(t.state)) {
        push(
          finding(
            g,
            'lifecycle.blocking',
            'state',
            `The blocking send answered with task ${t.id ?? '?'} still ${t.rawState}: ${g === 'v1.0' ? 'v1.0.1 §3.2.2 says the operation MUST wait until the task reaches a terminal or interrupted state, but §3.1.1 says it MUST return immediately (a contradiction: advice)' : 'blocking: true asks the server to wait until the task is finished'}.`,
            // v1.0 contradicts itself on waiting (the suite's lifecycle.blocking: an advisory); v0.x only describes it.
            { ...x, level: 'advisory' },
          ),
        );
      }
      break;
    }
    case 'ok':
      break;
  }
  return out;
}
