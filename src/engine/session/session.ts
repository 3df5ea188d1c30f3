/**
 * A session with one agent: one exchange at a time, judged as it happens. The dashboard's console and the MCP
 * tools use it to send a message (blocking or streaming), get, cancel or subscribe to a task, and list tasks
 * (v1.0). Each call returns its exchanges (redacted), what the answer means, and the findings of the suite's own
 * rules (rules.ts), frame by frame for streams.
 *
 * @example
 * const open = await openSession(host, { agentUrl: 'http://127.0.0.1:4173/demo/v03' });
 * if (open.ok) {
 *   const r = await open.session.stream({ text: 'Write a haiku about interoperability' });
 *   for (const f of r.frames) console.log(f.seq, f.kind, f.rawState, f.findings.map((x) => x.message));
 * }
 */
import { acceptedOutputModes, credentialPlacement, registerSecrets } from '../runner/inspect';
import { detectGeneration } from '../card/detect';
import { discoverCard, type DiscoveryResult } from '../card/discover';
import { normalizeCard, type NormalizedCard } from '../card/normalize';
import { createHttpContext, exchange, type HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { RunEvent } from '../model/events';
import type { Host } from '../ports';
import type { Operation } from '../protocol/operations';
import { Dialect, type CallOutcome, type ProtocolError, type StreamItem, type StreamRun } from '../protocol/dialect';
import { taskView, type MessageView, type TaskView } from '../protocol/shapes';
import { Redactor } from '../redact';
import type { Credentials } from '../runner/options';
import { boundedClone, isRecord, truncate } from '../util/json';
import { TaskMemory } from './memory';
import { fillCredentials, fillQueryCredentials, inferOperation, rawStream, type RawRequest } from './raw';
import { endsWait, finding, frameFindings, isFinalItem, judgeStream, outcomeFindings, type OutcomeExpectation } from './rules';
import type {
  CallOptions,
  MessageSummary,
  SendOptions,
  SessionExchange,
  SessionFinding,
  SessionFrame,
  SessionOperation,
  SessionOptions,
  SessionResult,
  SessionTarget,
  SessionUnavailable,
  StreamSummary,
  TaskMemoryLike,
  TaskSummary,
} from './types';

/** Default budget of one call (a stream: until it ends), ms. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;
/** How long we keep reading after the event that ends a stream, waiting for the agent to close it (as the suite). */
export const CLOSE_GRACE_MS = 3_000;

/** A caller's mistake (a skill the card does not declare, an operation the generation lacks): not the agent's. */
export class SessionInputError extends Error {
  override name = 'SessionInputError';
}

export type SessionOpen =
  | { ok: true; session: Session; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] }
  | { ok: false; unavailable: SessionUnavailable; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] };

/** Discovers the agent's card and opens a session on the interface it declares (or the one preferred). Never throws. */
export async function openSession(host: Host, opts: SessionOptions): Promise<SessionOpen> {
  const redactor = new Redactor();
  const creds: Credentials = opts.credentials ?? { kind: 'none' };
  registerSecrets(redactor, creds);
  const extra = opts.headers ?? {};
  for (const [name, value] of Object.entries(extra)) redactor.addSecret(value).addHeaderName(name);
  const events: RunEvent[] = [];
  const base = createHttpContext(host, {
    signal: opts.signal,
    emit: (e) => events.push(e),
    redactor,
    limits: opts.limits,
    concurrency: true,
    trackAnswered: true,
  });
  const discovery = await discoverCard(base, opts.agentUrl, {
    lane: 'discovery',
    credentialHeaders: { ...credentialPlacement(creds).headers, ...extra },
    warmupRetries: opts.warmupRetries ?? 1,
  });
  const target: SessionTarget = {
    inputUrl: redactor.url(opts.agentUrl),
    cardUrl: discovery.cardUrl ? redactor.url(discovery.cardUrl) : undefined,
    cardSource: discovery.cardSource,
    attempts: discovery.attempts,
    evidence: [],
    skills: [],
  };
  const fail = (reason: SessionUnavailable['reason'], message: string): SessionOpen => ({
    ok: false,
    unavailable: { reason, message: redactor.text(message) },
    target,
    exchanges: exchangesOf(events),
    events,
  });
  const unavailable = discoveryProblem(discovery, target.inputUrl, redactor);
  if (unavailable) return fail(unavailable.reason, unavailable.message);
  const raw = discovery.raw;
  if (!isRecord(raw)) {
    const what = discovery.parseError ? `is not JSON (${discovery.parseError})` : 'is not a JSON object';
    return fail('invalid-card', `The agent card at ${target.cardUrl ?? target.inputUrl} ${what}, so there is no endpoint to talk to.`);
  }
  const card = normalizeCard(raw);
  const detection = detectGeneration(raw, card, discovery.cardSource, opts.prefer);
  Object.assign(target, {
    generation: detection.generation,
    testedGeneration: detection.testedGeneration,
    binding: detection.binding,
    endpointUrl: detection.endpointUrl ? redactor.url(detection.endpointUrl) : undefined,
    evidence: detection.evidence.map((e) => redactor.text(e)),
    agentName: redactor.text(truncate(card.name, 200)),
    streaming: card.capabilities.streaming,
    skills: card.skills.slice(0, 50).map((s) => ({
      id: redactor.text(s.id),
      name: redactor.text(truncate(s.name, 200)),
      examples: s.examples.slice(0, 10).map((x) => redactor.text(truncate(x, 500))),
      inputModes: s.inputModes,
      outputModes: s.outputModes,
    })),
    interfaces: card.interfaces.slice(0, 20).map((i) => ({ url: redactor.url(i.url), binding: String(i.binding), protocolVersion: i.protocolVersion })),
  } satisfies Partial<SessionTarget>);
  const binding = detection.binding;
  if (!detection.endpointUrl || !binding || binding === 'GRPC') {
    return fail('untestable', detection.untestable ?? 'The card declares no interface this tool can call (JSON-RPC or HTTP+JSON at an absolute http(s) URL).');
  }
  for (const s of Object.values(card.securitySchemes)) if (s.type === 'apiKey') redactor.addHeaderName(s.name).addQueryName(s.name);
  const placement = credentialPlacement(creds, card);
  const dialect = new Dialect({
    generation: detection.testedGeneration,
    binding,
    endpointUrl: detection.endpointUrl,
    tenant: detection.tenant,
    authHeaders: { ...placement.headers, ...extra },
    authQuery: placement.query,
    acceptedOutputModes: acceptedOutputModes(card),
    uuid: () => host.randomUUID(),
  });
  const session = new Session(base, dialect, card, target, binding, opts.memory ?? new TaskMemory(detection.testedGeneration), {
    headers: { ...placement.headers, ...extra },
    query: placement.query,
  });
  return { ok: true, session, target, exchanges: exchangesOf(events), events: [...events] };
}

/** Why discovery found nothing to talk to, in one sentence saying what to check. */
function discoveryProblem(d: DiscoveryResult, url: string, r: Redactor): SessionUnavailable | undefined {
  const tried = d.attempts
    .slice(0, 6)
    .map((a) => `${a.url} → ${a.status !== undefined ? `HTTP ${a.status}` : (a.note ?? 'no answer')}`)
    .join('; ');
  switch (d.reach) {
    case 'card':
      return undefined;
    case 'invalid-url':
      return { reason: 'invalid-url', message: `${JSON.stringify(url)} is not a usable agent URL: ${d.invalidUrl ?? 'give an absolute http(s) URL'}.` };
    case 'unreachable':
      return {
        reason: 'unreachable',
        message: `Nothing answered at ${url}: ${r.text(d.unreachable?.message ?? 'no answer')} Is the agent running, and is the URL right?`,
      };
    case 'tool-failure':
      return {
        reason: 'tool-failure',
        message: `The card could not be fetched because of our side, not the agent: ${r.text(d.unreachable?.message ?? 'the request was stopped')}`,
      };
    case 'credentials-required':
      return {
        reason: 'credentials-required',
        message: `The agent at ${url} refused to serve its card without credentials (401/403). Give them as headers (e.g. {"Authorization": "Bearer …"}).`,
      };
    case 'credentials-rejected':
      return { reason: 'credentials-rejected', message: `The agent at ${url} refused the credentials given (401/403 with them too).` };
    case 'no-card':
      return {
        reason: 'not-a2a',
        message: `Something answered at ${url}, but no A2A agent card was found (${tried || 'no attempt'}). Is this an A2A agent? Give its base URL or the card URL itself.`,
      };
  }
}

/** The engine's exchange events folded into one record per exchange. */
export function exchangesOf(events: readonly RunEvent[]): SessionExchange[] {
  const byId = new Map<string, SessionExchange>();
  for (const e of events) {
    if (e.type === 'http-request') byId.set(e.exchangeId, { exchangeId: e.exchangeId, request: e.request, sseEvents: 0 });
    else if (e.type === 'http-response') {
      const x = byId.get(e.exchangeId);
      if (x) Object.assign(x, { response: e.response, error: e.error, timings: e.timings });
    } else if (e.type === 'sse-event') {
      const x = byId.get(e.exchangeId);
      if (x) x.sseEvents++;
    }
  }
  return [...byId.values()];
}

const BUDGET_ENDS: ReadonlySet<StreamRun['reason']> = new Set(['timeout', 'idle', 'limit', 'oversize']);

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

interface CallScope {
  ctx: HttpContext;
  events: RunEvent[];
  lane: string;
  started: number;
  timeoutMs: number;
  /** The exchange the latest request opened (a stream's frames belong to it). */
  lastExchange(): string | undefined;
}

/** One agent, one interface: see openSession. Calls may run at once (a cancel while a stream is open). */
export class Session {
  readonly generation: Generation;
  private lanes = 0;

  constructor(
    private readonly base: HttpContext,
    private readonly dialect: Dialect,
    private readonly card: NormalizedCard,
    readonly target: SessionTarget,
    readonly binding: Binding,
    readonly memory: TaskMemoryLike,
    /** The credential headers and query parameters (to fill in masked values of a re-sent request). */
    private readonly auth: { headers: Record<string, string>; query: Record<string, string> } = { headers: {}, query: {} },
  ) {
    this.generation = dialect.generation;
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
    return this.readStream(s, 'stream', o, (stopSignal, onItem) => this.dialect.streamSend(s.ctx, { ...args.send, stopSignal }, onItem));
  }

  /** Gets a task (historyLength as given). */
  async get(o: CallOptions & { taskId: string; historyLength?: number }): Promise<SessionResult> {
    const s = this.scope(o);
    const res = await this.dialect.get(s.ctx, { id: o.taskId, historyLength: o.historyLength, lane: s.lane, timeoutMs: s.timeoutMs });
    return this.finish(s, 'get', this.describe('get', o.taskId), res, outcomeFindings(this.generation, 'get', res, { taskId: o.taskId }));
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
    return this.readStream(
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
    if (res.kind === 'ok' && isRecord(res.value) && Array.isArray(res.value.tasks)) {
      res.value.tasks.slice(0, 50).forEach((t, i) => {
        const v = taskView(this.generation, d.shapeBinding, t, `tasks[${i}]`);
        for (const f of v.findings ?? []) {
          const fd = finding(this.generation, 'lifecycle.shape', 'shape', f.problem, { level: f.level, exchangeId: res.http.exchangeId });
          if (fd) findings.push(fd);
        }
      });
    }
    return this.finish(s, 'list', this.describe('list'), res, findings);
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
    const restBaseUrl = d.operationUrl('send').slice(0, -'/message:send'.length);
    const inferred = inferOperation(this.generation, this.binding, restBaseUrl, req);
    const op = inferred.op;
    const s = this.scope(o);
    // The envelope compares ids strictly; a request may use a number (JSON-RPC allows both).
    const rpcId = inferred.rpcId === undefined || inferred.rpcId === null ? undefined : (inferred.rpcId as string);
    if (op === 'stream' || op === 'subscribe') {
      return this.readStream(
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
      },
    };
  }

  /** Reads a stream like the suite's stream fixture: stop a grace period after the event that ends it, unless it closes. */
  private async readStream(
    s: CallScope,
    op: 'stream' | 'subscribe',
    o: CallOptions,
    open: (stop: AbortSignal, onItem: (it: StreamItem) => void) => Promise<StreamRun>,
    subscribedTaskId?: string,
  ): Promise<SessionResult> {
    const g = this.generation;
    const host = this.base.host;
    const stop = new AbortController();
    let finalIndex = -1;
    let endIndex = -1;
    let grace: AbortController | undefined;
    const startGrace = () => {
      grace?.abort();
      const mine = new AbortController();
      grace = mine;
      host.sleep(CLOSE_GRACE_MS, AbortSignal.any([mine.signal, s.ctx.signal])).then(
        () => stop.abort(),
        () => undefined,
      );
    };
    const frames: SessionFrame[] = [];
    const run = await open(stop.signal, (it) => {
      if (finalIndex < 0 && isFinalItem(g, it)) {
        finalIndex = it.seq - 1;
        if (endIndex < 0) endIndex = finalIndex;
        startGrace();
      } else if (endIndex < 0 && endsWait(g, it)) {
        endIndex = it.seq - 1;
        startGrace();
      }
      const f = this.frameOf(it, s.started, s.lastExchange());
      frames.push(f);
      try {
        o.onFrame?.(f);
      } catch {
        /* a failing consumer must not break the stream */
      }
    });
    grace?.abort();
    const items = run.items;
    const taskId = subscribedTaskId ?? items.map((i) => i.taskId ?? i.task?.id).find(Boolean);
    let readBack: CallOutcome | undefined;
    if (endIndex < 0 && BUDGET_ENDS.has(run.reason) && taskId && !s.ctx.signal.aborted) {
      // Our budget ended the stream: did the task finish without the stream saying so (the agent's fault)?
      readBack = await this.dialect.get(s.ctx, { id: taskId, lane: s.lane, timeoutMs: Math.min(s.timeoutMs, 10_000) });
    }
    const method = this.describe(op, subscribedTaskId);
    const r = run.result;
    if (run.reason === 'not-stream' || !r.responded) {
      // No stream: read the answer as the operation's (an error, usually), as streaming.content-type does.
      const d = this.dialect;
      const body = r.json();
      const bodyId = body.ok && isRecord(body.value) ? body.value.id : undefined;
      const answer: CallOutcome = !r.responded
        ? { kind: 'transport', http: r, envelopeProblems: [] }
        : d.isRest
          ? d.parseRest(r, 'send')
          : d.parseRpc(r, typeof bodyId === 'string' ? bodyId : String(bodyId ?? ''), 'send');
      const findings = answer.kind === 'transport' ? outcomeFindings(g, op, answer) : outcomeFindings(g, op, answer).filter((f) => f.rule !== 'answer');
      if (answer.kind !== 'error' && answer.kind !== 'transport') {
        const fd = finding(
          g,
          op === 'stream' ? 'streaming.content-type' : 'streaming.resubscribe',
          'framing',
          `The ${op === 'stream' ? 'streaming method' : 'subscription'} answered HTTP ${r.status} with ${r.contentType ? `Content-Type ${r.contentType}` : 'no Content-Type'}, not an event stream (HTTP 200, text/event-stream).`,
          { exchangeId: r.exchangeId, level: 'MUST' },
        );
        if (fd) findings.push(fd);
      }
      const result = this.finish(s, op, method, answer, findings);
      result.ok = false;
      result.stream = { end: 'not-stream', events: 0 };
      return result;
    }
    const judged = judgeStream(g, run, {
      op,
      finalIndex,
      endIndex,
      closed: run.reason === 'closed',
      readBack,
      taskId: subscribedTaskId,
      closeGraceMs: CLOSE_GRACE_MS,
    });
    for (const f of frames) f.findings.push(...(judged.byFrame.get(f.seq) ?? []));
    for (const f of judged.stream) f.message = this.base.redactor.text(f.message);
    for (const f of frames) for (const fd of f.findings) fd.message = this.base.redactor.text(fd.message);
    const findings: SessionFinding[] = [...frames.flatMap((f) => f.findings), ...judged.stream];
    // Transitions across calls: the first state this stream showed of each task, against what earlier calls saw
    // (within the stream judgeStream judged them already).
    const seenHere = new Set<string>();
    for (const it of items) {
      const id = it.taskId ?? it.task?.id;
      if (id && it.state && it.rawState !== undefined) {
        const t = this.observe(id, it.state, it.rawState, `${op} event ${it.seq}`, r.exchangeId, it.seq);
        const first = !seenHere.has(id);
        seenHere.add(id);
        if (t && first) {
          findings.push(t);
          frames.find((f) => f.seq === it.seq)?.findings.push(t);
        }
      }
    }
    if (readBack?.kind === 'task') findings.push(...outcomeFindings(g, 'get', readBack, { taskId }));
    const stream: StreamSummary = {
      end: run.reason === 'stopped' ? 'grace' : run.reason,
      events: run.events,
      firstEventMs: run.firstEventMs,
      finalFrame: finalIndex >= 0 ? finalIndex + 1 : undefined,
    };
    const usable = items.some((i) => i.kind !== 'error' && i.kind !== 'invalid');
    const errorFrame = items.find((i) => i.kind === 'error');
    const task = this.streamTask(items, taskId);
    const summary = [
      `${method}: ${items.length} event(s), ${streamEndText(stream.end, s.timeoutMs)}`,
      task?.rawState ? `task ${task.id ?? '?'} last ${task.rawState}` : '',
      errorFrame ? `error event ${errorFrame.seq}: ${errorText(errorFrame.error)}` : '',
      countText(findings),
    ]
      .filter(Boolean)
      .join('; ');
    const message = [...items].reverse().find((i) => i.kind === 'message')?.message;
    return {
      operation: op,
      method,
      generation: g,
      binding: this.binding,
      ok: usable,
      outcome: usable ? 'stream' : errorFrame ? 'error' : 'invalid',
      summary: this.base.redactor.text(summary),
      task,
      message: message ? this.messageSummary(message) : undefined,
      error: errorFrame?.error ? this.redactError(errorFrame.error) : undefined,
      frames,
      stream,
      exchanges: exchangesOf(s.events),
      findings,
      durationMs: Math.max(0, host.now() - s.started),
      events: s.events,
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
        result.task = this.taskSummary(res.task);
        if (res.task.id && res.task.state && res.task.rawState !== undefined) {
          const t = this.observe(res.task.id, res.task.state, res.task.rawState, method, res.http.exchangeId);
          if (t) findings.push(t);
        }
        what = `task ${res.task.id ?? '(no id)'} in state ${res.task.rawState ?? '(none)'}`;
        break;
      }
      case 'message':
        result.message = this.messageSummary(res.message);
        what = `a Message${res.message.text ? `: "${truncate(res.message.text, 200)}"` : ''}`;
        break;
      case 'ok':
        result.value = redactDeep(boundedClone(res.value, { maxDepth: 12, maxNodes: 3_000, maxString: 4_000 }), r);
        what = 'a result';
        break;
      case 'error':
        result.error = this.redactError(res.error);
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
    return finding(
      this.generation,
      'lifecycle.transitions',
      'transition',
      `Task ${taskId} was ${moved.from.rawState} (${moved.from.source}) and is now ${rawState} (${source}): a terminal state does not change.`,
      { exchangeId, frame },
    );
  }

  private frameOf(it: StreamItem, t0: number, exchangeId: string | undefined): SessionFrame {
    const r = this.base.redactor;
    const f: SessionFrame = {
      seq: it.seq,
      ms: Math.max(0, it.at - t0),
      event: it.event,
      data: r.text(it.data),
      kind: it.kind,
      taskId: it.taskId ?? it.task?.id,
      contextId: it.contextId ?? it.task?.contextId,
      state: it.state,
      rawState: it.rawState,
      final: it.final,
      artifact: it.artifact ? { ...it.artifact, text: r.text(it.artifact.text) } : undefined,
      error: it.error ? this.redactError(it.error) : undefined,
      findings: frameFindings(this.generation, it, exchangeId),
    };
    for (const fd of f.findings) fd.message = r.text(fd.message);
    return f;
  }

  private taskSummary(t: TaskView): TaskSummary {
    const r = this.base.redactor;
    return {
      id: t.id,
      contextId: t.contextId,
      state: t.state,
      rawState: t.rawState,
      timestamp: t.timestamp,
      statusText: t.statusText === undefined ? undefined : r.text(truncate(t.statusText, 4_000)),
      artifacts: (t.artifacts ?? []).slice(0, 20).map((a) => artifactSummary(a, r)),
      historyLength: t.history?.length,
      raw: redactDeep(boundedClone(t.raw, { maxDepth: 12, maxNodes: 3_000, maxString: 4_000 }), r),
    };
  }

  private messageSummary(m: MessageView): MessageSummary {
    const r = this.base.redactor;
    return {
      messageId: m.messageId,
      role: m.role,
      taskId: m.taskId,
      contextId: m.contextId,
      text: r.text(truncate(m.text, 8_000)),
      raw: redactDeep(boundedClone(m.raw, { maxDepth: 12, maxNodes: 2_000, maxString: 4_000 }), r),
    };
  }

  /** The task a stream was about: its last Task event, with the later states and artifact chunks folded in. */
  private streamTask(items: readonly StreamItem[], taskId: string | undefined): TaskSummary | undefined {
    if (!taskId) return undefined;
    const r = this.base.redactor;
    const lastTask = [...items].reverse().find((i) => i.kind === 'task' && i.task)?.task;
    // The Task event's raw body is one moment of the stream (its first state, usually): the frames carry them all.
    const summary: TaskSummary = lastTask
      ? { ...this.taskSummary(lastTask), raw: undefined, historyLength: undefined }
      : { id: taskId, artifacts: [], raw: undefined };
    const stated = [...items].reverse().find((i) => (i.kind === 'task' || i.kind === 'status') && i.state);
    if (stated) {
      summary.state = stated.state;
      summary.rawState = stated.rawState;
    }
    // Artifact chunks: appended by id (or index), in order.
    const arts = new Map<string, TaskSummary['artifacts'][number]>();
    for (const a of summary.artifacts) arts.set(a.artifactId ?? String(arts.size), a);
    for (const it of items) {
      if (it.kind !== 'artifact' || !it.artifact) continue;
      const key = it.artifact.id ?? String(it.artifact.index ?? 0);
      const cur = arts.get(key);
      if (cur && it.artifact.append) {
        cur.text = truncate(cur.text + r.text(it.artifact.text), 8_000);
        cur.parts += it.artifact.parts;
      } else arts.set(key, { artifactId: it.artifact.id, text: r.text(it.artifact.text), parts: it.artifact.parts });
    }
    summary.artifacts = [...arts.values()].slice(0, 20);
    if (summary.state && !summary.rawState) summary.rawState = summary.state;
    return summary;
  }

  private redactError(e: ProtocolError): ProtocolError {
    const r = this.base.redactor;
    return { ...e, message: r.text(truncate(e.message, 2_000)), problems: e.problems.map((p) => r.text(p)) };
  }
}

function artifactSummary(a: unknown, r: Redactor): TaskSummary['artifacts'][number] {
  if (!isRecord(a)) return { text: '', parts: 0 };
  const parts = Array.isArray(a.parts) ? a.parts : Array.isArray(a.content) ? a.content : [];
  let text = '';
  for (const p of parts.slice(0, 50)) if (isRecord(p) && typeof p.text === 'string') text += p.text;
  return {
    artifactId: typeof a.artifactId === 'string' ? a.artifactId : undefined,
    name: typeof a.name === 'string' ? r.text(truncate(a.name, 200)) : undefined,
    text: r.text(truncate(text, 8_000)),
    parts: parts.length,
  };
}

/** Masks secrets in every string of a bounded value (already depth-capped by boundedClone). */
function redactDeep(v: unknown, r: Redactor): unknown {
  if (typeof v === 'string') return r.text(v);
  if (Array.isArray(v)) return v.map((x) => redactDeep(x, r));
  if (isRecord(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[r.text(k)] = redactDeep(x, r);
    return out;
  }
  return v;
}

const errorText = (e: ProtocolError | undefined) =>
  e
    ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined && x !== '').join(' ')}${e.message ? ` "${truncate(e.message, 200)}"` : ''}`.trim() ||
      'no details'
    : 'no details';

function countText(findings: readonly SessionFinding[]): string {
  if (!findings.length) return 'no findings';
  const required = findings.filter((f) => f.level !== 'advisory').length;
  return `${findings.length} finding(s): ${required} required, ${findings.length - required} advisory`;
}

function streamEndText(end: StreamSummary['end'], budgetMs: number): string {
  switch (end) {
    case 'closed':
      return 'closed by the agent';
    case 'grace':
      return `still open ${CLOSE_GRACE_MS} ms after its last awaited event (we stopped reading)`;
    case 'timeout':
      return `still open when our ${budgetMs} ms budget ended`;
    case 'idle':
      return 'silent for too long (we stopped reading)';
    case 'limit':
      return 'too many events (we stopped reading)';
    case 'oversize':
      return 'an event over our size limit (we stopped reading)';
    case 'error':
      return 'broke off';
    default:
      return end;
  }
}
