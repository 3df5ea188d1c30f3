/**
 * A session with one agent: one exchange at a time, judged as it happens. The dashboard's console and the MCP
 * tools use it to send a message (blocking or streaming), get, cancel or subscribe to a task, and list tasks
 * (v1.0). Each call returns its exchanges (redacted), what the answer means, and the findings of the judges the
 * suite's checks use (src/engine/judges), frame by frame for streams.
 *
 * @example
 * const open = await openSession(host, { agentUrl: 'http://127.0.0.1:4173/demo/v03' });
 * if (open.ok) {
 *   const r = await open.session.stream({ text: 'Write a haiku about interoperability' });
 *   for (const f of r.frames) console.log(f.seq, f.kind, f.rawState, f.findings.map((x) => x.message));
 * }
 */
import type { NormalizedCard } from '../card/normalize';
import { exchange, type HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { RunEvent, TaskState } from '../model/events';
import type { Operation } from '../protocol/operations';
import type { CallOutcome, Dialect } from '../protocol/dialect';
import { taskView, type TaskView } from '../protocol/shapes';
import { acceptedOutputModes } from '../target';
import { boundedClone, isRecord, truncate } from '../util/json';
import { fillCredentials, fillQueryCredentials, inferOperation, rawStream, type RawRequest } from './raw';
import { listPageFindings, notFoundAfterSeen, outcomeFindings, terminalChangeFinding, viewFindings, type OutcomeExpectation } from '../judges';
import { isA2AError } from '../protocol/errors';
import { readStream, type CallScope, type StreamHost } from './stream';
import { countText, errorText, exchangesOf, messageSummary, redactDeep, redactError, taskSummary } from './summary';
import { extensionHeaderName } from '../protocol/extensions';
import type { CallOptions, SendOptions, SessionFinding, SessionOperation, SessionResult, SessionTarget, TaskMemoryLike } from './types';

/** Default budget of one call (a stream: until it ends), ms. */
const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/** A caller's mistake (a skill the card does not declare, an operation the generation lacks): not the agent's. */
export class SessionInputError extends Error {
  override name = 'SessionInputError';
}

/** The protocol operation of each session operation (`raw` is none). */
const WIRE_OP: Record<Exclude<SessionOperation, 'raw'>, Operation> = {
  send: 'send',
  stream: 'stream',
  get: 'get',
  cancel: 'cancel',
  subscribe: 'subscribe',
  list: 'list',
  'push-set': 'pushSet',
  'push-get': 'pushGet',
  'push-list': 'pushList',
  'push-delete': 'pushDelete',
};
const SESSION_OP: Partial<Record<Operation, SessionOperation>> = Object.fromEntries(Object.entries(WIRE_OP).map(([k, v]) => [v, k as SessionOperation]));

/** The session operation a protocol operation is (the tap names a client's call with it); `raw` when it has none (the extended card). */
export const sessionOperationOf = (op: Operation): SessionOperation => SESSION_OP[op] ?? 'raw';

/** One agent, one interface: see openSession. Calls may run at once (a cancel while a stream is open). */
export class Session {
  readonly generation: Generation;
  private lanes = 0;

  readonly binding: Binding;

  constructor(
    private readonly base: HttpContext,
    private readonly dialect: Dialect,
    private readonly card: NormalizedCard,
    readonly target: SessionTarget,
    readonly memory: TaskMemoryLike,
    /**
     * The credential headers and query parameters (to fill in masked values of a re-sent request), and the
     * extensions the card requires (activated on every message, with those a call asks for: SendOptions.extensions).
     */
    private readonly auth: { headers: Record<string, string>; query: Record<string, string>; requiredExtensions?: readonly string[] } = {
      headers: {},
      query: {},
    },
  ) {
    this.generation = dialect.generation;
    this.binding = dialect.binding;
  }

  /** The operation as spelled on the wire (`SendMessage`, `POST /v1/message:send`, …). */
  describe(op: SessionOperation, id?: string, configId?: string): string {
    return op === 'raw' ? 'request' : this.dialect.describe(WIRE_OP[op], id, configId);
  }

  /** Sends one message and waits for the answer (blocking by default). */
  async send(o: SendOptions): Promise<SessionResult> {
    const s = this.scope(o);
    const d = this.dialect;
    const g = this.generation;
    const args = this.sendArgs(o, s);
    const blocking = o.blocking ?? true;
    const res = await d.send(s.ctx, { ...args.send, blocking, returnImmediately: !blocking });
    const expect: OutcomeExpectation = { taskId: o.taskId, clientTaskId: args.clientTaskId, blocking: blocking && g !== 'legacy' };
    return this.finish(s, 'send', this.describe('send'), res, outcomeFindings(g, 'send', res, expect));
  }

  /** Sends one message on the streaming method and reads the stream to its end (or our budget). */
  async stream(o: SendOptions): Promise<SessionResult> {
    const s = this.scope(o);
    const args = this.sendArgs(o, s);
    return readStream(
      this.streamHost(),
      s,
      'stream',
      o,
      (stopSignal, onItem) => this.dialect.streamSend(s.ctx, { ...args.send, stopSignal }, onItem),
      undefined,
      args.clientTaskId,
    );
  }

  /** Gets a task (historyLength as given). */
  async get(o: CallOptions & { taskId: string; historyLength?: number }): Promise<SessionResult> {
    const s = this.scope(o);
    // What this session saw of the task before the get: a TaskNotFound for it is then judged as lifecycle.get does.
    const seen = this.memory.last?.(o.taskId);
    const res = await this.dialect.get(s.ctx, { id: o.taskId, historyLength: o.historyLength, lane: s.lane, timeoutMs: s.timeoutMs });
    const method = this.describe('get', o.taskId);
    const findings = outcomeFindings(this.generation, 'get', res, { taskId: o.taskId });
    if (seen && isA2AError(res, 'TaskNotFound', this.generation)) {
      const gone = notFoundAfterSeen(this.generation, method, o.taskId, seen, { exchangeId: res.http.exchangeId });
      if (gone) findings.push(gone);
    }
    return this.finish(s, 'get', method, res, findings);
  }

  /** Cancels a task. */
  async cancel(o: CallOptions & { taskId: string }): Promise<SessionResult> {
    const s = this.scope(o);
    const res = await this.dialect.cancel(s.ctx, { id: o.taskId, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'cancel', this.describe('cancel', o.taskId), res, outcomeFindings(this.generation, 'cancel', res, { taskId: o.taskId }));
  }

  /** Subscribes to a task's updates (resubscribe; v1.0 SubscribeToTask) and reads them until the task ends. */
  async subscribe(o: CallOptions & { taskId: string }): Promise<SessionResult> {
    const s = this.scope(o);
    return readStream(
      this.streamHost(),
      s,
      'subscribe',
      o,
      (stopSignal, onItem) => this.dialect.subscribe(s.ctx, { id: o.taskId, lane: s.lane, timeoutMs: s.timeoutMs, stopSignal }, onItem),
      o.taskId,
    );
  }

  /** Lists tasks (v1.0 ListTasks), optionally of one context, one page. */
  async list(o: CallOptions & { contextId?: string; pageSize?: number; pageToken?: string } = {}): Promise<SessionResult> {
    if (this.generation !== 'v1.0') throw new SessionInputError(`Listing tasks exists in A2A v1.0 only; this agent speaks ${this.generation}.`);
    const s = this.scope(o);
    const d = this.dialect;
    const res = await d.list(s.ctx, { contextId: o.contextId, pageSize: o.pageSize, pageToken: o.pageToken, lane: s.lane, timeoutMs: s.timeoutMs });
    const findings = outcomeFindings(this.generation, 'list', res);
    const views =
      res.kind === 'ok' && isRecord(res.value) && Array.isArray(res.value.tasks)
        ? res.value.tasks.slice(0, 50).map((t, i) => taskView(this.generation, d.shapeBinding, t, `tasks[${i}]`))
        : [];
    for (const v of views) findings.push(...viewFindings(this.generation, v, { exchangeId: res.http.exchangeId }));
    if (res.kind === 'ok') {
      // The page itself, as lifecycle.list judges it (§3.1.4: nextPageToken always present, newest first, the
      // context filter honoured, no artifacts unless asked).
      findings.push(...listPageFindings(this.generation, res.value, o.contextId, res.http.exchangeId, res.envelopeProblems));
    }
    const result = this.finish(s, 'list', this.describe('list'), res, findings);
    if (views.length) result.tasks = views.map((v) => taskSummary(v, this.base.redactor));
    return result;
  }

  /** Creates a push notification config for a task (the token is masked in everything returned). */
  async pushSet(o: CallOptions & { taskId: string; url: string; token?: string }): Promise<SessionResult> {
    if (o.token) this.base.redactor.addSecret(o.token);
    const s = this.scope(o);
    const res = await this.dialect.pushSet(s.ctx, { taskId: o.taskId, url: o.url, token: o.token, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'push-set', this.describe('push-set', o.taskId), res, outcomeFindings(this.generation, 'push-set', res));
  }

  /** Reads a push notification config of a task back (`configId`: v0.2+; legacy tasks have one). */
  async pushGet(o: CallOptions & { taskId: string; configId?: string }): Promise<SessionResult> {
    const s = this.scope(o);
    const res = await this.dialect.pushGet(s.ctx, { taskId: o.taskId, configId: o.configId, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'push-get', this.describe('push-get', o.taskId, o.configId), res, outcomeFindings(this.generation, 'push-get', res));
  }

  /** Lists a task's push notification configs (v0.2+). */
  async pushList(o: CallOptions & { taskId: string }): Promise<SessionResult> {
    if (this.generation === 'legacy') throw new SessionInputError('The legacy protocol has no push notification config list (one config per task: get it).');
    const s = this.scope(o);
    const res = await this.dialect.pushList(s.ctx, { taskId: o.taskId, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'push-list', this.describe('push-list', o.taskId), res, outcomeFindings(this.generation, 'push-list', res));
  }

  /** Deletes a push notification config (v0.2+). */
  async pushDelete(o: CallOptions & { taskId: string; configId: string }): Promise<SessionResult> {
    if (this.generation === 'legacy') throw new SessionInputError('The legacy protocol cannot delete push notification configs.');
    const s = this.scope(o);
    const res = await this.dialect.pushDelete(s.ctx, { taskId: o.taskId, configId: o.configId, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'push-delete', this.describe('push-delete', o.taskId, o.configId), res, outcomeFindings(this.generation, 'push-delete', res));
  }

  /**
   * Sends a request as given (a run's exchange, edited): to this agent's endpoint origin only, masked credentials
   * filled in from the session's. The answer is judged as the operation the request performs (its JSON-RPC method
   * or REST route; a streaming one is read as a stream); a request that is no known operation (a probe) has its
   * answer judged for envelope and error shape only.
   */
  async raw(o: CallOptions & RawRequest): Promise<SessionResult> {
    const d = this.dialect;
    if (this.binding === 'GRPC')
      throw new SessionInputError('This session speaks gRPC: an HTTP request cannot be re-sent on it; connect to a JSON-RPC or HTTP+JSON interface.');
    let url: URL;
    try {
      url = new URL(o.url);
    } catch {
      throw new SessionInputError(`${JSON.stringify(o.url.slice(0, 200))} is not an absolute URL.`);
    }
    const endpoint = new URL(d.endpointUrl);
    if (url.origin !== endpoint.origin) {
      throw new SessionInputError(`This session talks to ${endpoint.origin}; the request goes to ${url.origin}. Connect to that agent to send it.`);
    }
    const req: RawRequest = {
      method: o.method.toUpperCase(),
      url: fillQueryCredentials(url.toString(), this.auth.query),
      headers: fillCredentials(o.headers, this.auth.headers),
      body: o.body,
    };
    // A credential typed into the request (not one of the session's) is masked like them in everything returned.
    for (const [name, value] of Object.entries(req.headers)) {
      if (!value || this.base.redactor.headers({ [name]: value })[name] === value) continue;
      this.base.redactor.addSecret(value);
      const token = /^[A-Za-z][\w-]*\s+(\S{4,})$/.exec(value)?.[1];
      if (token) this.base.redactor.addSecret(token);
    }
    const restBaseUrl = d.operationUrl('send').slice(0, -'/message:send'.length);
    const inferred = inferOperation(this.generation, this.binding, restBaseUrl, req);
    const op = inferred.op;
    const s = this.scope(o);
    // The envelope compares ids strictly; a request may use a number (JSON-RPC allows both).
    const rpcId = inferred.rpcId === undefined || inferred.rpcId === null ? undefined : (inferred.rpcId as string);
    if (op === 'stream' || op === 'subscribe') {
      return readStream(
        this.streamHost(),
        s,
        op,
        o,
        (stop, onItem) => rawStream(s.ctx, d, req, { rpcId, lane: s.lane, timeoutMs: s.timeoutMs, stopSignal: stop }, onItem),
        op === 'subscribe' ? inferred.taskId : undefined,
      );
    }
    const http = await exchange(s.ctx, { ...req, lane: s.lane, timeoutMs: s.timeoutMs });
    const parseAs: Operation = op ?? 'get';
    const res: CallOutcome = this.binding === 'HTTP+JSON' ? d.parseRest(http, parseAs) : d.parseRpc(http, rpcId as string, parseAs);
    const sessionOp: SessionOperation = op ? (SESSION_OP[op] ?? 'raw') : 'raw';
    const all = outcomeFindings(this.generation, sessionOp, res, { taskId: inferred.taskId });
    // No known operation: what the answer should be is unknown, so only its envelope and error shape are judged.
    const findings = op && SESSION_OP[op] ? all : all.filter((f) => f.rule === 'envelope' || f.rule === 'error-shape' || f.rule === 'transport');
    const result = this.finish(s, sessionOp, `${req.method} ${url.pathname}${op ? ` (${d.describe(op, inferred.taskId)})` : ''}`, res, findings);
    if (!op && res.kind === 'invalid')
      result.summary = this.base.redactor.text(`${result.method}: HTTP ${http.status}; ${findings.length ? `${findings.length} finding(s)` : 'no findings'}.`);
    return result;
  }

  // ---------------------------------------------------------------- internals

  private scope(o: CallOptions): CallScope {
    const events: RunEvent[] = [];
    let last: string | undefined;
    const signals = [this.base.signal, ...(o.signal ? [o.signal] : [])];
    const signal = signals.length > 1 ? AbortSignal.any(signals) : this.base.signal;
    const ctx: HttpContext = {
      ...this.base,
      signal,
      emit: (e) => {
        if (e.type === 'http-request') last = e.exchangeId;
        if (events.length < 5_000 || e.type === 'http-response') events.push(e);
        try {
          o.onEvent?.(e);
        } catch {
          /* a failing consumer must not break the call */
        }
      },
    };
    return {
      ctx,
      events,
      lane: `console #${++this.lanes}`,
      started: this.base.host.now(),
      timeoutMs: Math.max(1, o.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS),
      lastExchange: () => last,
    };
  }

  private sendArgs(o: SendOptions, s: CallScope) {
    const g = this.generation;
    const skill = o.skill === undefined ? undefined : this.card.skills.find((k) => k.id === o.skill);
    if (o.skill !== undefined && !skill) {
      const ids = this.card.skills.map((k) => k.id).slice(0, 20);
      throw new SessionInputError(
        `The card declares no skill ${JSON.stringify(o.skill)}${ids.length ? `; its skills are ${ids.join(', ')}` : ' (it lists no skills)'}.`,
      );
    }
    // Legacy: the client picks the task id (TaskSendParams.id), and the answer must echo it.
    const clientTaskId = g === 'legacy' ? (o.taskId ?? this.base.host.randomUUID()) : undefined;
    const accepted = o.acceptedOutputModes ?? (skill ? acceptedOutputModes(this.card, skill.outputModes) : undefined);
    return {
      clientTaskId,
      send: {
        text: o.text,
        lane: s.lane,
        timeoutMs: s.timeoutMs,
        taskId: clientTaskId ?? o.taskId,
        contextId: o.contextId,
        historyLength: o.historyLength,
        acceptedOutputModes: accepted,
        parts: o.parts,
        metadata: o.metadata,
        headers: extensionHeaders(g, [...(this.auth.requiredExtensions ?? []), ...(o.extensions ?? [])]),
      },
    };
  }
  /** What reading a stream needs from this session. */
  private streamHost(): StreamHost {
    return {
      generation: this.generation,
      binding: this.binding,
      dialect: this.dialect,
      streamingDeclared: this.card.capabilities.streaming === true,
      redactor: this.base.redactor,
      host: this.base.host,
      describe: (op, id) => this.describe(op, id),
      finish: (s, op, method, res, findings) => this.finish(s, op, method, res, findings),
      observe: (taskId, state, rawState, source, exchangeId, frame) => this.observe(taskId, state, rawState, source, exchangeId, frame),
      emitState: (s, op, taskId, state, rawState) => emitTaskState(s, op, this.base.host.now(), taskId, state, rawState),
    };
  }

  private finish(s: CallScope, op: SessionOperation, method: string, res: CallOutcome, findings: SessionFinding[]): SessionResult {
    const g = this.generation;
    const r = this.base.redactor;
    const result: SessionResult = {
      operation: op,
      method,
      generation: g,
      binding: this.binding,
      ok: res.kind === 'task' || res.kind === 'message' || res.kind === 'ok',
      outcome: res.kind,
      summary: '',
      frames: [],
      exchanges: exchangesOf(s.events),
      findings,
      durationMs: Math.max(0, this.base.host.now() - s.started),
      events: s.events,
    };
    let what: string;
    switch (res.kind) {
      case 'task': {
        result.task = taskSummary(res.task, r);
        if (res.task.id && res.task.state && res.task.rawState !== undefined) {
          const t = this.observe(res.task.id, res.task.state, res.task.rawState, method, res.http.exchangeId);
          if (t) findings.push(t);
          emitTaskState(s, op, this.base.host.now(), res.task.id, res.task.state, res.task.rawState);
        }
        what = `task ${res.task.id ?? '(no id)'} in state ${res.task.rawState ?? '(none)'}`;
        break;
      }
      case 'message':
        result.message = messageSummary(res.message, r);
        what = `a Message${res.message.text ? `: "${truncate(res.message.text, 200)}"` : ''}`;
        break;
      case 'ok':
        result.value = redactDeep(boundedClone(res.value, { maxDepth: 12, maxNodes: 3_000, maxString: 4_000 }), r);
        what = 'a result';
        break;
      case 'error':
        result.error = redactError(res.error, r);
        what = `an error: ${errorText(res.error)}${res.http.status ? ` (HTTP ${res.http.status})` : ''}`;
        break;
      case 'invalid':
        what = `something the operation does not return (${truncate(res.reason, 300)})`;
        break;
      case 'transport':
        what = `no answer: ${res.http.error?.message ?? 'the request failed'}`;
        break;
    }
    const head = res.kind === 'transport' ? `${method} got ${what}` : `${method} answered with ${what} after ${result.durationMs} ms`;
    result.summary = r.text(`${head}; ${countText(findings)}.`);
    for (const f of findings) f.message = r.text(f.message);
    return result;
  }

  /** Records a task state; a finding when a terminal state seen earlier changed (lifecycle.transitions). */
  private observe(
    taskId: string,
    state: NonNullable<TaskView['state']>,
    rawState: string,
    source: string,
    exchangeId: string,
    frame?: number,
  ): SessionFinding | undefined {
    const moved = this.memory.observe(taskId, state, rawState, source);
    if (!moved) return undefined;
    return terminalChangeFinding(this.generation, [`task ${taskId}: ${moved.from.rawState} → ${rawState} (${moved.from.source} then ${source})`], {
      exchangeId,
      frame,
    });
  }
}

/** The timeline source of a task state seen in an operation's answer (the run's `task-state` event; none for configs and lists). */
const STATE_SOURCE: Partial<Record<SessionOperation, 'send' | 'get' | 'cancel' | 'stream' | 'subscribe'>> = {
  send: 'send',
  stream: 'stream',
  get: 'get',
  cancel: 'cancel',
  subscribe: 'subscribe',
  raw: 'send',
};

/** Tells the call's listeners (and its events) the state a task was seen in, as a run's task-state event does. */
function emitTaskState(s: CallScope, op: SessionOperation, at: number, taskId: string, state: TaskState, rawState: string): void {
  const source = STATE_SOURCE[op];
  if (source) s.ctx.emit({ type: 'task-state', at, lane: s.lane, taskId, state, rawState, source });
}

/** The header activating `uris` in generation `g` (none when empty or legacy): the card's required ones first, then those asked for. */
function extensionHeaders(g: SessionResult['generation'], uris: readonly string[] | undefined): Record<string, string> | undefined {
  const name = extensionHeaderName(g);
  const list = [...new Set((uris ?? []).map((u) => u.trim()).filter(Boolean))];
  return name && list.length ? { [name]: list.join(',') } : undefined;
}
