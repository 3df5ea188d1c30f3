/**
 * The agent's side of a conversation, judged as the console session judges it: a plain answer with the operation's
 * parser and `outcomeFindings`, a stream frame by frame (`frameFindings`) and as a sequence at its end
 * (`judgeStream`), task states across exchanges with the session's task memory. The tap only supplies what it
 * relayed: the bytes the agent sent, their timing, and how the stream ended.
 */
import type { HttpResult } from '../http/client';
import { finish } from '../http/exchange';
import { terminalChangeFinding, type Finding } from '../judges';
import type { Binding, Generation } from '../model/check';
import type { CallOutcome, Operation, StreamItem, StreamRun } from '../protocol/dialect';
import { parseRest, parseRpc, parseStreamEvent, type Speaker } from '../protocol/parse';
import { CLOSE_GRACE_MS, endsWait, frameFindings, isFinalItem, judgeStream, outcomeFindings, sessionOperationOf, type TaskMemory } from '../session';
import { notAStreamFinding } from '../judges';
import type { BodyEnd, BodySeen, SseSeen } from './body';

export interface AnswerContext {
  generation: Generation;
  binding: Binding;
  /** The object shapes answers take (v0.3 HTTP+JSON in the JSON-RPC object style: JSONRPC). */
  shapeBinding: Binding;
  operation: Operation;
  exchangeId: string;
  url: string;
  rpcId?: string | number;
  /** get / cancel / subscribe: the task asked about; send: the task continued. */
  taskId?: string;
  /** Legacy sends: the task id the client chose. */
  clientTaskId?: string;
  /** When the request reached the tap and when the response head came back. */
  startedAt: number;
  headersAt: number;
  status: number;
  headers: Headers;
  memory: TaskMemory;
}

/** A task state the agent showed, for the conversation's memory. */
export interface TaskShown {
  taskId: string;
  state?: StreamItem['state'];
  rawState?: string;
  contextId?: string;
}

const speaker = (c: AnswerContext): Speaker => ({ generation: c.generation, binding: c.binding, shapeBinding: c.shapeBinding });

function httpResult(c: AnswerContext, seen: BodySeen, endedAt: number, error?: string): HttpResult {
  return finish({
    exchangeId: c.exchangeId,
    url: c.url,
    responded: true,
    status: c.status,
    headers: c.headers,
    contentType: c.headers.get('content-type') ?? '',
    text: seen.text,
    bytes: seen.bytes,
    truncated: seen.truncated,
    bom: seen.bom,
    invalidUtf8: seen.invalidUtf8,
    ...(error && { error: { source: 'network', code: 'reset', message: error, blame: 'agent' } }),
    startedAt: c.startedAt,
    headersAt: c.headersAt,
    endedAt,
  });
}

function observe(c: AnswerContext, t: TaskShown, source: string, frame?: number): Finding | undefined {
  if (!t.state || t.rawState === undefined) return undefined;
  const moved = c.memory.observe(t.taskId, t.state, t.rawState, source);
  if (!moved) return undefined;
  return terminalChangeFinding(c.generation, [`task ${t.taskId}: ${moved.from.rawState} → ${t.rawState} (${moved.from.source} then ${source})`], {
    exchangeId: c.exchangeId,
    ...(frame !== undefined && { frame }),
  });
}

export interface PlainJudgement {
  outcome: CallOutcome;
  findings: Finding[];
  tasks: TaskShown[];
}

/** A plain (not streamed) answer, judged as the console judges the same operation's answer. */
export function judgePlainAnswer(c: AnswerContext, seen: BodySeen, endedAt: number, end: BodyEnd): PlainJudgement {
  const http = httpResult(c, seen, endedAt, end === 'error' ? (seen.error ?? 'the connection broke off') : undefined);
  const streamOp = c.operation === 'stream' || c.operation === 'subscribe';
  const parseOp: Operation = streamOp ? 'send' : c.operation;
  const outcome = c.binding === 'HTTP+JSON' ? parseRest(speaker(c), http, parseOp) : parseRpc(speaker(c), http, c.rpcId ?? '', parseOp);
  const op = sessionOperationOf(c.operation);
  let findings: Finding[];
  if (seen.truncated) findings = [];
  else if (streamOp) {
    // A streaming method answered without a stream: the error is judged for what it says; anything else is not a stream.
    findings = outcomeFindings(c.generation, op, outcome).filter((f) => outcome.kind === 'transport' || f.rule !== 'answer');
    if (outcome.kind !== 'error' && outcome.kind !== 'transport') {
      const f = notAStreamFinding(c.generation, c.operation as 'stream' | 'subscribe', http);
      if (f) findings.push(f);
    }
  } else {
    findings = outcomeFindings(c.generation, op, outcome, {
      ...(c.taskId && { taskId: c.taskId }),
      ...(c.clientTaskId && { clientTaskId: c.clientTaskId }),
    });
  }
  const tasks: TaskShown[] = [];
  if (outcome.kind === 'task' && outcome.task.id) {
    const t = { taskId: outcome.task.id, state: outcome.task.state, rawState: outcome.task.rawState, contextId: outcome.task.contextId };
    tasks.push(t);
    const moved = observe(c, t, `${c.operation} answer`);
    if (moved) findings.push(moved);
  }
  return { outcome, findings, tasks };
}

/** A stream, frame by frame, then as a whole when it ends. */
export class StreamJudge {
  private readonly items: StreamItem[] = [];
  private finalIndex = -1;
  private endIndex = -1;
  private finalAt?: number;
  private firstAt?: number;
  private lastAt?: number;
  private readonly gaps: number[] = [];
  private readonly seenHere = new Set<string>();

  constructor(private readonly c: AnswerContext) {}

  /** One event: the item it is, what it shows of a task, and the findings of the frame alone. */
  frame(m: SseSeen): { item: StreamItem; findings: Finding[]; task?: TaskShown } {
    const g = this.c.generation;
    const item = parseStreamEvent(speaker(this.c), { seq: m.seq, at: m.at, event: m.event, id: m.id, data: m.data }, this.c.rpcId);
    if (this.items.length < 5_000) this.items.push(item);
    if (this.firstAt === undefined) this.firstAt = m.at;
    if (this.lastAt !== undefined && this.gaps.length < 5_000) this.gaps.push(m.at - this.lastAt);
    this.lastAt = m.at;
    if (this.finalIndex < 0 && isFinalItem(g, item)) {
      this.finalIndex = item.seq - 1;
      this.finalAt = m.at;
      if (this.endIndex < 0) this.endIndex = this.finalIndex;
    } else if (this.endIndex < 0 && endsWait(g, item)) this.endIndex = item.seq - 1;
    const findings = frameFindings(g, item, this.c.exchangeId);
    const id = item.taskId ?? item.task?.id;
    let task: TaskShown | undefined;
    if (id) {
      task = { taskId: id, state: item.state, rawState: item.rawState, contextId: item.contextId ?? item.task?.contextId };
      // Across exchanges only the first state this stream shows of a task (within the stream judgeStream judges it).
      const moved = observe(this.c, task, `${this.c.operation} event ${item.seq}`, item.seq);
      if (moved && !this.seenHere.has(id)) findings.push(moved);
      this.seenHere.add(id);
    }
    return { item, findings, task };
  }

  /** The sequence rules, once the stream ended. What the client or a fault did to the stream is never the agent's. */
  end(how: BodyEnd, seen: BodySeen, endedAt: number): Finding[] {
    const reason: StreamRun['reason'] = how === 'closed' ? 'closed' : how === 'error' ? 'error' : 'stopped';
    const run: StreamRun = {
      result: httpResult(this.c, seen, endedAt, how === 'error' ? (seen.error ?? 'the connection broke off') : undefined),
      reason,
      events: seen.events,
      ...(this.firstAt !== undefined && { firstEventMs: this.firstAt - this.c.startedAt }),
      gapsMs: this.gaps,
      proxyCut: false,
      comments: 0,
      retries: [],
      parseErrors: [],
      ignoredLines: seen.ignoredLines,
      ignoredLineCount: seen.ignoredLineCount,
      items: this.items,
    };
    const op = this.c.operation === 'subscribe' ? 'subscribe' : 'stream';
    // The client hung up: within the grace after the final event the close is not judged (nobody waited for it).
    const clientLeftEarly = how === 'client-closed' && (this.finalAt === undefined || endedAt - this.finalAt < CLOSE_GRACE_MS);
    const judged = judgeStream(this.c.generation, run, {
      op,
      finalIndex: this.finalIndex,
      endIndex: this.endIndex,
      closed: how === 'closed',
      closeGraceMs: how === 'client-closed' && this.finalAt !== undefined ? endedAt - this.finalAt : CLOSE_GRACE_MS,
      ...(this.c.taskId && op === 'subscribe' && { taskId: this.c.taskId }),
      ...(this.c.clientTaskId && { taskId: this.c.clientTaskId }),
      endWords:
        how === 'closed'
          ? 'closed'
          : how === 'client-closed'
            ? 'was closed by the client'
            : how === 'fault'
              ? 'was cut by the tap (fault injection)'
              : 'broke off',
    });
    const frameFindingsAll = [...judged.byFrame.values()].flat();
    const whole = judged.stream.filter((f) => f.rule !== 'end-of-stream' || (how !== 'fault' && !clientLeftEarly));
    return [...frameFindingsAll, ...whole];
  }
}

/** One finding per card check the served card fails (or only advises on), as `judgeCard` judges a card in hand. */
export async function cardFindings(card: unknown, cardUrl: string): Promise<Finding[]> {
  const { judgeCard } = await import('../api');
  const j = await judgeCard(card, { cardUrl });
  return j.results
    .filter((r) => r.status === 'fail' || r.status === 'advisory')
    .map((r) => ({
      level: r.status === 'advisory' || r.level === 'MAY' ? ('advisory' as const) : r.level,
      checkId: r.id,
      rule: 'shape' as const,
      message: r.message,
      ...(r.specRef && { specRef: r.specRef }),
      ...(r.requirement?.sentences[0] && { quote: r.requirement.sentences[0].quote }),
      ...(r.recommendation && { recommendation: r.recommendation }),
    }));
}
