import { exchange, stream, type HttpContext, type HttpResult, type SseMessage, type StreamOutcome } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { isRecord, safeJsonParse, truncate, typeName } from '../util/json';
import type { InputPart } from './input';
import {
  artifactFindings,
  depthProblem,
  jsonRpcEnvelope,
  messageView,
  restErrorBody,
  statusProblems,
  taskView,
  v1ErrorDataProblems,
  type MessageView,
  type ShapeFinding,
  type TaskView,
} from './shapes';

/** An error answer from the agent, in one shape for both bindings. */
export interface ProtocolError {
  /** JSON-RPC error code (JSON-RPC binding). */
  code?: number;
  httpStatus: number;
  /** google.rpc.Status `status` (REST binding), e.g. NOT_FOUND. */
  status?: string;
  /** google.rpc.ErrorInfo reason, e.g. TASK_NOT_FOUND. */
  reason?: string;
  message: string;
  /** Problems with the error's shape for the binding/generation. */
  problems: string[];
}

export type CallOutcome =
  | { kind: 'task'; task: TaskView; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'message'; message: MessageView; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'ok'; value: unknown; http: HttpResult; envelopeProblems: string[] }
  | { kind: 'error'; error: ProtocolError; http: HttpResult; envelopeProblems: string[] }
  /** The agent answered, but not with anything this operation can return. */
  | { kind: 'invalid'; reason: string; http: HttpResult; envelopeProblems: string[] }
  /** No answer (see http.error). */
  | { kind: 'transport'; http: HttpResult; envelopeProblems: string[] };

export interface StreamItem {
  seq: number;
  at: number;
  event?: string;
  data: string;
  kind: 'task' | 'message' | 'status' | 'artifact' | 'error' | 'invalid';
  task?: TaskView;
  message?: MessageView;
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  /** Pre-1.0 status events carry `final`. */
  final?: boolean;
  artifact?: { id?: string; index?: number; append?: boolean; lastChunk?: boolean; text: string; parts: number };
  error?: ProtocolError;
  /** Envelope and payload problems for this event (what the generation requires). */
  problems: string[];
  /**
   * Findings the generation does not require (shapes.ts findings of level advisory): e.g. fields v1.0 removed
   * (§5.7: receivers SHOULD ignore unrecognized fields), timestamp forms the v0.x schemas only describe. Never a
   * framing failure.
   */
  notes?: string[];
}

export interface StreamRun extends StreamOutcome {
  items: StreamItem[];
}

export interface CallOpts {
  lane: string;
  checkId?: string;
  timeoutMs?: number;
  /** Extra headers for this call (override the defaults, e.g. a different A2A-Version). */
  headers?: Record<string, string>;
  /** Leave out headers (e.g. `A2A-Version` for the negotiation check, or credentials for auth checks). */
  omitHeaders?: string[];
  /** Send without the user's credentials. */
  anonymous?: boolean;
  /** Streams only: our own early stop. */
  stopSignal?: AbortSignal;
}

export interface SendArgs extends CallOpts {
  text: string;
  /** The message parts; default one text part with `text`. */
  parts?: InputPart[];
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** v1.0 `returnImmediately: true`, v0.2/0.3 `blocking: false`. */
  returnImmediately?: boolean;
  /** v0.2/0.3: send `blocking: true` explicitly (v1.0 blocks unless returnImmediately). */
  blocking?: boolean;
  /** The output media types to accept for this message (default: the card's defaultOutputModes). */
  acceptedOutputModes?: string[];
  /** The message id to send (default: a fresh UUID), so a check can find its message in the task history. */
  messageId?: string;
}

export interface DialectConfig {
  generation: Generation;
  binding: Binding;
  endpointUrl: string;
  tenant?: string;
  /** Credential headers (added unless `anonymous`). */
  authHeaders: Record<string, string>;
  /** Credential query parameters (API key `in: query`). */
  authQuery: Record<string, string>;
  acceptedOutputModes: string[];
  uuid(): string;
}

const METHODS = {
  legacy: { send: 'tasks/send', stream: 'tasks/sendSubscribe', get: 'tasks/get', cancel: 'tasks/cancel', subscribe: 'tasks/resubscribe', pushSet: 'tasks/pushNotification/set', pushGet: 'tasks/pushNotification/get', list: 'tasks/list' },
  'v0.2': { send: 'message/send', stream: 'message/stream', get: 'tasks/get', cancel: 'tasks/cancel', subscribe: 'tasks/resubscribe', pushSet: 'tasks/pushNotificationConfig/set', pushGet: 'tasks/pushNotificationConfig/get', list: 'tasks/list' },
  'v0.3': { send: 'message/send', stream: 'message/stream', get: 'tasks/get', cancel: 'tasks/cancel', subscribe: 'tasks/resubscribe', pushSet: 'tasks/pushNotificationConfig/set', pushGet: 'tasks/pushNotificationConfig/get', list: 'tasks/list' },
  'v1.0': { send: 'SendMessage', stream: 'SendStreamingMessage', get: 'GetTask', cancel: 'CancelTask', subscribe: 'SubscribeToTask', pushSet: 'CreateTaskPushNotificationConfig', pushGet: 'GetTaskPushNotificationConfig', list: 'ListTasks' },
} as const satisfies Record<Generation, Record<string, string>>;
export type Operation = keyof (typeof METHODS)['v1.0'];

/**
 * Speaks one generation over one binding: builds requests, parses answers into TaskView /
 * MessageView / ProtocolError, and validates shapes along the way. Never throws.
 */
export class Dialect {
  readonly generation: Generation;
  readonly binding: Binding;
  readonly endpointUrl: string;
  private rpcSeq = 0;
  /**
   * v0.3 HTTP+JSON payload style. The v0.3 text only says "structurally equivalent"; deployed servers
   * (a2a-js 0.3, a2a-python, a2a-go) speak the v0.3 proto's JSON (`content`, `ROLE_USER`), others the
   * JSON-RPC object shapes. We start with the proto style and switch once if the agent rejects it.
   */
  private restStyle: 'proto' | 'object' = 'proto';
  /** The first v0.3 REST send decides the style; concurrent sends wait for it. */
  private styleNegotiation?: Promise<void>;

  constructor(private readonly cfg: DialectConfig) {
    this.generation = cfg.generation;
    this.binding = cfg.binding;
    this.endpointUrl = cfg.endpointUrl;
  }

  get isRest() {
    return this.binding === 'HTTP+JSON';
  }

  /** The binding whose object shapes responses are judged against (v0.3 REST in object style = JSON-RPC shapes). */
  get shapeBinding(): Binding {
    return this.generation === 'v0.3' && this.isRest && this.restStyle === 'object' ? 'JSONRPC' : this.binding;
  }

  /** Which v0.3 REST payload style is in use (for evidence). */
  get payloadStyle(): string | undefined {
    return this.generation === 'v0.3' && this.isRest ? this.restStyle : undefined;
  }

  method(op: Operation): string {
    return METHODS[this.generation][op];
  }

  /** Human-readable name of the operation on the wire, for messages. */
  describe(op: Operation, id = '{id}'): string {
    if (!this.isRest) return this.method(op);
    const p = this.generation === 'v1.0' ? '' : '/v1';
    switch (op) {
      case 'send':
        return `POST ${p}/message:send`;
      case 'stream':
        return `POST ${p}/message:stream`;
      case 'get':
        return `GET ${p}/tasks/${id}`;
      case 'cancel':
        return `POST ${p}/tasks/${id}:cancel`;
      case 'subscribe':
        return `GET ${p}/tasks/${id}:subscribe`;
      case 'pushSet':
        return `POST ${p}/tasks/${id}/pushNotificationConfigs`;
      case 'pushGet':
        return `GET ${p}/tasks/${id}/pushNotificationConfigs/{configId}`;
      case 'list':
        return `GET ${p}/tasks`;
    }
  }

  nextRpcId(): string {
    return `a2a-interop-${++this.rpcSeq}-${this.cfg.uuid().slice(0, 8)}`;
  }

  headers(opts: CallOpts, contentType = true): Record<string, string> {
    const h: Record<string, string> = { Accept: 'application/json, text/event-stream' };
    if (contentType) h['Content-Type'] = 'application/json';
    if (this.generation === 'v1.0') h['A2A-Version'] = '1.0';
    if (!opts.anonymous) Object.assign(h, this.cfg.authHeaders);
    Object.assign(h, opts.headers);
    for (const k of opts.omitHeaders ?? []) {
      for (const key of Object.keys(h)) if (key.toLowerCase() === k.toLowerCase()) delete h[key];
    }
    return h;
  }

  /** Adds credential query parameters (API key in query) unless anonymous. */
  url(u: string, opts: CallOpts): string {
    if (opts.anonymous || !Object.keys(this.cfg.authQuery).length) return u;
    const url = new URL(u);
    for (const [k, v] of Object.entries(this.cfg.authQuery)) url.searchParams.set(k, v);
    return url.toString();
  }

  // ---------------------------------------------------------------- message building

  /** One part as this generation and binding spell it. */
  renderPart(p: InputPart): Record<string, unknown> {
    const g = this.generation;
    const protoStyle = g === 'v0.3' && this.isRest && this.restStyle === 'proto';
    if (g === 'v1.0') {
      if (p.kind === 'text') return { text: p.text };
      if (p.kind === 'data') return { data: p.data, mediaType: 'application/json' };
      return { raw: p.bytes, mediaType: p.mediaType, filename: p.name };
    }
    if (protoStyle) {
      // v0.3 REST servers speak the v0.3 proto's JSON (REFERENCE.md §3.2, "Interop trap").
      if (p.kind === 'text') return { text: p.text };
      if (p.kind === 'data') return { data: { data: p.data } };
      return { file: { fileWithBytes: p.bytes, mimeType: p.mediaType } };
    }
    const tag = g === 'legacy' ? 'type' : 'kind';
    if (p.kind === 'text') return { [tag]: 'text', text: p.text };
    if (p.kind === 'data') return { [tag]: 'data', data: p.data };
    return { [tag]: 'file', file: { name: p.name, mimeType: p.mediaType, bytes: p.bytes } };
  }

  userMessage(text: string, taskId?: string, contextId?: string, parts?: InputPart[], messageId?: string): Record<string, unknown> {
    const g = this.generation;
    const rendered = (parts?.length ? parts : [{ kind: 'text', text } as InputPart]).map((p) => this.renderPart(p));
    if (g === 'legacy') return { role: 'user', parts: rendered };
    const mid = messageId ?? this.cfg.uuid();
    if (g === 'v1.0') {
      return { messageId: mid, role: 'ROLE_USER', parts: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }) };
    }
    if (this.isRest && this.restStyle === 'proto') {
      return { messageId: mid, role: 'ROLE_USER', content: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }) };
    }
    return { kind: 'message', messageId: mid, role: 'user', parts: rendered, ...(taskId && { taskId }), ...(contextId && { contextId }) };
  }

  sendParams(a: Omit<SendArgs, keyof CallOpts>): Record<string, unknown> {
    const g = this.generation;
    if (g === 'legacy') {
      return {
        id: a.taskId ?? this.cfg.uuid(),
        sessionId: a.contextId ?? this.cfg.uuid(),
        message: this.userMessage(a.text, undefined, undefined, a.parts),
        ...(a.historyLength !== undefined && { historyLength: a.historyLength }),
      };
    }
    const configuration: Record<string, unknown> = { acceptedOutputModes: a.acceptedOutputModes?.length ? a.acceptedOutputModes : this.cfg.acceptedOutputModes };
    if (a.historyLength !== undefined) configuration.historyLength = a.historyLength;
    if (a.returnImmediately) {
      if (g === 'v1.0') configuration.returnImmediately = true;
      else configuration.blocking = false;
    } else if (a.blocking && g !== 'v1.0') configuration.blocking = true;
    return {
      message: this.userMessage(a.text, a.taskId, a.contextId, a.parts, a.messageId),
      configuration,
      ...(g === 'v1.0' && this.cfg.tenant && { tenant: this.cfg.tenant }),
    };
  }

  private idParams(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { id, ...extra, ...(this.generation === 'v1.0' && this.cfg.tenant && { tenant: this.cfg.tenant }) };
  }

  private restBase(): string {
    const base = this.endpointUrl.replace(/\/+$/, '');
    // v0.3 REST paths start with /v1; a declared URL that already ends in /v1 (the v0.3 schema's example) keeps one.
    const prefix = this.generation === 'v1.0' || /\/v1$/.test(base) ? '' : '/v1';
    return `${base}${this.generation === 'v1.0' && this.cfg.tenant ? `/${encodeURIComponent(this.cfg.tenant)}` : ''}${prefix}`;
  }

  // ---------------------------------------------------------------- transport

  /** POSTs a raw JSON-RPC body (string, so malformed bodies can be sent) to the endpoint. */
  rawRpc(ctx: HttpContext, body: string, opts: CallOpts): Promise<HttpResult> {
    return exchange(ctx, {
      method: 'POST',
      url: this.url(this.endpointUrl, opts),
      headers: this.headers(opts),
      body,
      lane: opts.lane,
      checkId: opts.checkId,
      timeoutMs: opts.timeoutMs,
    });
  }

  rawRest(ctx: HttpContext, method: string, path: string, body: string | undefined, opts: CallOpts): Promise<HttpResult> {
    return exchange(ctx, {
      method,
      url: this.url(`${this.restBase()}${path}`, opts),
      headers: this.headers(opts, body !== undefined),
      body,
      lane: opts.lane,
      checkId: opts.checkId,
      timeoutMs: opts.timeoutMs,
    });
  }

  async rpc(ctx: HttpContext, op: Operation | string, params: unknown, opts: CallOpts): Promise<{ http: HttpResult; id: string }> {
    const id = this.nextRpcId();
    const method = (METHODS[this.generation] as Record<string, string>)[op] ?? op;
    const http = await this.rawRpc(ctx, JSON.stringify({ jsonrpc: '2.0', id, method, params }), opts);
    return { http, id };
  }

  // ---------------------------------------------------------------- operations

  async send(ctx: HttpContext, a: SendArgs): Promise<CallOutcome> {
    if (this.isRest) {
      if (this.generation === 'v0.3') {
        if (!this.styleNegotiation) {
          let done!: () => void;
          this.styleNegotiation = new Promise<void>((r) => (done = r));
          try {
            return await this.negotiateStyle(ctx, a);
          } finally {
            done();
          }
        }
        await this.styleNegotiation;
      }
      const http = await this.rawRest(ctx, 'POST', '/message:send', JSON.stringify(this.sendParams(a)), a);
      return this.parseRest(http, 'send');
    }
    const { http, id } = await this.rpc(ctx, 'send', this.sendParams(a), a);
    return this.parseRpc(http, id, 'send');
  }

  /** First v0.3 REST send: proto style; on a 400, once more in the JSON-RPC object style, keeping what works. */
  private async negotiateStyle(ctx: HttpContext, a: SendArgs): Promise<CallOutcome> {
    const first = this.parseRest(await this.rawRest(ctx, 'POST', '/message:send', JSON.stringify(this.sendParams(a)), a), 'send');
    if (first.kind !== 'error' || first.http.status !== 400) return first;
    this.restStyle = 'object';
    const again = this.parseRest(await this.rawRest(ctx, 'POST', '/message:send', JSON.stringify(this.sendParams(a)), a), 'send');
    if (again.kind === 'task' || again.kind === 'message') return again;
    this.restStyle = 'proto';
    return first;
  }

  private async settledStyle(): Promise<void> {
    if (this.styleNegotiation) await this.styleNegotiation;
  }

  async get(ctx: HttpContext, a: CallOpts & { id: string; historyLength?: number }): Promise<CallOutcome> {
    if (this.isRest) {
      const q = a.historyLength !== undefined ? `?historyLength=${a.historyLength}` : '';
      const http = await this.rawRest(ctx, 'GET', `/tasks/${encodeURIComponent(a.id)}${q}`, undefined, a);
      return this.parseRest(http, 'get');
    }
    const { http, id } = await this.rpc(ctx, 'get', this.idParams(a.id, a.historyLength !== undefined ? { historyLength: a.historyLength } : {}), a);
    return this.parseRpc(http, id, 'get');
  }

  async cancel(ctx: HttpContext, a: CallOpts & { id: string }): Promise<CallOutcome> {
    if (this.isRest) {
      const http = await this.rawRest(ctx, 'POST', `/tasks/${encodeURIComponent(a.id)}:cancel`, '{}', a);
      return this.parseRest(http, 'cancel');
    }
    const { http, id } = await this.rpc(ctx, 'cancel', this.idParams(a.id), a);
    return this.parseRpc(http, id, 'cancel');
  }

  /**
   * Creates a push notification config for a task (legacy tasks/pushNotification/set, v0.x …Config/set, v1.0
   * CreateTaskPushNotificationConfig; REST POST …/pushNotificationConfigs). v0.3 REST: the proto's body is the
   * TaskPushNotificationConfig ({name, pushNotificationConfig}); `restBody: 'config'` sends the §7.5 document's
   * `{config: …}` form instead.
   */
  async pushSet(ctx: HttpContext, a: CallOpts & { taskId: string; url: string; token?: string; restBody?: 'proto' | 'config' }): Promise<CallOutcome> {
    const g = this.generation;
    const inner = { url: a.url, ...(a.token !== undefined && { token: a.token }) };
    const params =
      g === 'legacy'
        ? { id: a.taskId, pushNotificationConfig: inner }
        : g === 'v1.0'
          ? { taskId: a.taskId, ...inner, ...(this.cfg.tenant && { tenant: this.cfg.tenant }) }
          : { taskId: a.taskId, pushNotificationConfig: inner };
    if (this.isRest) {
      const v03 = { name: `tasks/${a.taskId}/pushNotificationConfigs/a2a-interop`, pushNotificationConfig: inner };
      const body = g === 'v1.0' ? inner : a.restBody === 'config' ? { config: v03 } : v03;
      const http = await this.rawRest(ctx, 'POST', `/tasks/${encodeURIComponent(a.taskId)}/pushNotificationConfigs`, JSON.stringify(body), a);
      return this.parseRest(http, 'pushSet');
    }
    const { http, id } = await this.rpc(ctx, 'pushSet', params, a);
    return this.parseRpc(http, id, 'pushSet');
  }

  /** Reads a push notification config back (legacy: the task's only config; v0.x: `configId` optional). */
  async pushGet(ctx: HttpContext, a: CallOpts & { taskId: string; configId?: string }): Promise<CallOutcome> {
    const g = this.generation;
    if (this.isRest) {
      const http = await this.rawRest(ctx, 'GET', `/tasks/${encodeURIComponent(a.taskId)}/pushNotificationConfigs/${encodeURIComponent(a.configId ?? '')}`, undefined, a);
      return this.parseRest(http, 'pushGet');
    }
    const params =
      g === 'legacy'
        ? { id: a.taskId }
        : g === 'v1.0'
          ? { taskId: a.taskId, id: a.configId ?? '', ...(this.cfg.tenant && { tenant: this.cfg.tenant }) }
          : { id: a.taskId, ...(a.configId !== undefined && { pushNotificationConfigId: a.configId }) };
    const { http, id } = await this.rpc(ctx, 'pushGet', params, a);
    return this.parseRpc(http, id, 'pushGet');
  }

  /** Wire name of the push list/delete operation (they do not exist in legacy). */
  pushMethod(op: 'list' | 'delete', taskId = '{id}', configId = '{configId}'): string {
    const g = this.generation;
    if (this.isRest) {
      const p = g === 'v1.0' ? '' : '/v1';
      return op === 'list' ? `GET ${p}/tasks/${taskId}/pushNotificationConfigs` : `DELETE ${p}/tasks/${taskId}/pushNotificationConfigs/${configId}`;
    }
    if (g === 'v1.0') return op === 'list' ? 'ListTaskPushNotificationConfigs' : 'DeleteTaskPushNotificationConfig';
    return op === 'list' ? 'tasks/pushNotificationConfig/list' : 'tasks/pushNotificationConfig/delete';
  }

  /** Lists a task's push notification configs (v0.2+): v0.x an array, v1.0 and v0.3 REST {configs, nextPageToken}. */
  async pushList(ctx: HttpContext, a: CallOpts & { taskId: string }): Promise<CallOutcome> {
    if (this.isRest) {
      const http = await this.rawRest(ctx, 'GET', `/tasks/${encodeURIComponent(a.taskId)}/pushNotificationConfigs`, undefined, a);
      return this.parseRest(http, 'pushGet');
    }
    const params = this.generation === 'v1.0' ? { taskId: a.taskId, ...(this.cfg.tenant && { tenant: this.cfg.tenant }) } : { id: a.taskId };
    const { http, id } = await this.rpc(ctx, this.pushMethod('list'), params, a);
    return this.parseRpc(http, id, 'pushGet');
  }

  /** Deletes a push notification config (v0.2+). An empty 2xx body (REST 204, or 200 with nothing) is a success. */
  async pushDelete(ctx: HttpContext, a: CallOpts & { taskId: string; configId: string }): Promise<CallOutcome> {
    if (this.isRest) {
      const http = await this.rawRest(ctx, 'DELETE', `/tasks/${encodeURIComponent(a.taskId)}/pushNotificationConfigs/${encodeURIComponent(a.configId)}`, undefined, a);
      if (http.responded && !http.error && http.status >= 200 && http.status < 300 && http.text.trim() === '') return { kind: 'ok', value: null, http, envelopeProblems: [] };
      return this.parseRest(http, 'pushGet');
    }
    const params =
      this.generation === 'v1.0'
        ? { taskId: a.taskId, id: a.configId, ...(this.cfg.tenant && { tenant: this.cfg.tenant }) }
        : { id: a.taskId, pushNotificationConfigId: a.configId };
    const { http, id } = await this.rpc(ctx, this.pushMethod('delete'), params, a);
    return this.parseRpc(http, id, 'pushGet');
  }

  async streamSend(ctx: HttpContext, a: SendArgs, onItem?: (i: StreamItem) => 'stop' | void): Promise<StreamRun> {
    await this.settledStyle();
    if (this.isRest) {
      const open = () => this.openStream(ctx, 'POST', `${this.restBase()}/message:stream`, JSON.stringify(this.sendParams(a)), undefined, a, onItem);
      if (this.generation !== 'v0.3' || this.styleNegotiation) return open();
      // No send has settled the v0.3 payload style yet: a stream may be the first call. Same rule as send: proto
      // style first, the JSON-RPC object style once on a 400, keeping what works.
      let done!: () => void;
      this.styleNegotiation = new Promise<void>((r) => (done = r));
      try {
        const first = await open();
        if (first.result.status !== 400) return first;
        this.restStyle = 'object';
        const again = await open();
        if (again.result.status >= 200 && again.result.status < 300) return again;
        this.restStyle = 'proto';
        return first;
      } finally {
        done();
      }
    }
    const params = this.sendParams(a);
    const id = this.nextRpcId();
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: this.method('stream'), params });
    return this.openStream(ctx, 'POST', this.endpointUrl, body, id, a, onItem);
  }

  async subscribe(ctx: HttpContext, a: CallOpts & { id: string }, onItem?: (i: StreamItem) => 'stop' | void): Promise<StreamRun> {
    if (this.isRest) {
      const url = `${this.restBase()}/tasks/${encodeURIComponent(a.id)}:subscribe`;
      // The proto says GET, the text says POST (REFERENCE.md §10); try the proto first.
      const first = await this.openStream(ctx, 'GET', url, undefined, undefined, a, onItem);
      if (first.result.status === 404 || first.result.status === 405) {
        return this.openStream(ctx, 'POST', url, '{}', undefined, a, onItem);
      }
      return first;
    }
    const id = this.nextRpcId();
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: this.method('subscribe'), params: this.idParams(a.id) });
    return this.openStream(ctx, 'POST', this.endpointUrl, body, id, a, onItem);
  }

  private async openStream(
    ctx: HttpContext,
    method: string,
    url: string,
    body: string | undefined,
    rpcId: string | undefined,
    opts: CallOpts,
    onItem?: (i: StreamItem) => 'stop' | void,
  ): Promise<StreamRun> {
    const items: StreamItem[] = [];
    const headers = this.headers(opts, body !== undefined);
    headers.Accept = 'text/event-stream';
    const outcome = await stream(
      ctx,
      {
        method,
        url: this.url(url, opts),
        headers,
        body,
        lane: opts.lane,
        checkId: opts.checkId,
        timeoutMs: opts.timeoutMs,
        stopSignal: opts.stopSignal,
        summarize: (m) => {
          const it = this.parseStreamEvent({ ...m, seq: 0, at: 0 }, rpcId);
          return [it.kind, it.state ?? '', it.final ? 'final' : ''].filter(Boolean).join(' ');
        },
      },
      (m) => {
        const item = this.parseStreamEvent(m, rpcId);
        items.push(item);
        return onItem?.(item);
      },
    );
    return { ...outcome, items };
  }

  // ---------------------------------------------------------------- parsing

  /**
   * Interprets one SSE event of this generation/binding. `problems` are what the generation requires (envelope,
   * required fields, spelling); `notes` what it only describes (shapes.ts findings of level advisory, e.g. a field
   * v1.0 removed, which §5.7 says receivers SHOULD ignore): never a framing failure.
   */
  parseStreamEvent(m: SseMessage, rpcId: string | undefined): StreamItem {
    const base = { seq: m.seq, at: m.at, event: m.event, data: truncate(m.data, 4000) };
    const parsed = safeJsonParse(m.data);
    if (!parsed.ok) return { ...base, kind: 'invalid', problems: [`data is not JSON: ${parsed.error}`] };
    let payload: unknown = parsed.value;
    const problems: string[] = [];
    if (!this.isRest) {
      const env = jsonRpcEnvelope(parsed.value, rpcId ?? null);
      if (isRecord(parsed.value) && !env.hasResult && !env.hasError && !('jsonrpc' in parsed.value) && looksLikePayload(parsed.value)) {
        // Tolerant parsing, strict judging: read the bare payload, but record the framing violation.
        return { ...base, ...this.classifyStreamPayload(parsed.value, ['the event is a bare payload, not a JSON-RPC response {"jsonrpc":"2.0","id":…,"result":…}']) };
      }
      problems.push(...env.problems);
      if (!isRecord(parsed.value) || (!env.hasResult && !env.hasError)) {
        return { ...base, kind: 'invalid', problems: problems.length ? problems : ['not a JSON-RPC response'] };
      }
      if (env.hasError && env.error) {
        return { ...base, kind: 'error', error: this.rpcError(env.error, 200), problems };
      }
      payload = env.result;
    } else if (isRecord(payload) && isRecord(payload.error)) {
      const e = restErrorBody(payload, typeof payload.error.code === 'number' ? payload.error.code : 500);
      return { ...base, kind: 'error', error: { httpStatus: e.code ?? 0, status: e.status, reason: e.reason, message: e.message ?? '', problems: e.problems }, problems };
    }
    return { ...base, ...this.classifyStreamPayload(payload, problems) };
  }

  private classifyStreamPayload(p: unknown, problems: string[]): Omit<StreamItem, 'seq' | 'at' | 'event' | 'data'> {
    const g = this.generation;
    const b = this.shapeBinding;
    if (!isRecord(p)) return { kind: 'invalid', problems: [...problems, `event payload should be an object, got ${typeName(p)}`] };
    if (g === 'v1.0' || (g === 'v0.3' && this.isRest)) {
      // StreamResponse oneof: {task | message | statusUpdate | artifactUpdate}
      const keys = ['task', 'message', 'statusUpdate', 'artifactUpdate'].filter((k) => p[k] !== undefined);
      if (keys.length !== 1) {
        if (g === 'v0.3' && typeof p.kind === 'string') return this.classifyKind(p, problems);
        return { kind: 'invalid', problems: [...problems, `a StreamResponse must hold exactly one of task, message, statusUpdate, artifactUpdate (has ${keys.join(', ') || 'none'})`] };
      }
      const k = keys[0]!;
      if (k === 'task') {
        const task = taskView(g, b, p.task);
        return { kind: 'task', task, taskId: task.id, contextId: task.contextId, state: task.state, rawState: task.rawState, ...judged(problems, task.findings, task.problems) };
      }
      if (k === 'message') {
        const message = messageView(g, b, p.message);
        return { kind: 'message', message, ...judged(problems, message.findings, message.problems) };
      }
      const ev = p[k] as unknown;
      if (!isRecord(ev)) return { kind: 'invalid', problems: [...problems, `${k} should be an object`] };
      const idProblems = typeof ev.taskId === 'string' ? [] : [`${k}.taskId is required`];
      if (k === 'statusUpdate') {
        const st = statusProblems(g, b, ev.status, 'statusUpdate.status');
        const removed: ShapeFinding[] = g === 'v1.0' && 'final' in ev ? [{ problem: 'statusUpdate.final was removed in v1.0 (closing the stream signals completion)', level: 'advisory' }] : [];
        return { kind: 'status', taskId: str(ev.taskId), contextId: str(ev.contextId), state: st.state, rawState: st.rawState, final: ev.final === true, ...judged([...problems, ...idProblems], [...st.findings, ...removed], st.problems) };
      }
      return { kind: 'artifact', taskId: str(ev.taskId), contextId: str(ev.contextId), artifact: artifactOf(ev), ...judged([...problems, ...idProblems], artifactFindings(g, b, ev.artifact, 'artifactUpdate.artifact'), []) };
    }
    if (g === 'legacy') {
      if ('artifact' in p) {
        return { kind: 'artifact', taskId: str(p.id), artifact: artifactOf(p), ...judged(problems, artifactFindings(g, b, p.artifact, 'artifact'), []) };
      }
      if ('status' in p) {
        const st = statusProblems(g, b, p.status, 'status');
        const idp = typeof p.id === 'string' ? [] : ['status event id (the task id) is required'];
        return { kind: 'status', taskId: str(p.id), state: st.state, rawState: st.rawState, final: p.final === true, ...judged([...problems, ...idp], st.findings, st.problems) };
      }
      return { kind: 'invalid', problems: [...problems, 'legacy stream events carry either "status" or "artifact"'] };
    }
    return this.classifyKind(p, problems);
  }

  private classifyKind(p: Record<string, unknown>, problems: string[]): Omit<StreamItem, 'seq' | 'at' | 'event' | 'data'> {
    const g = this.generation;
    const b = this.shapeBinding;
    switch (p.kind) {
      case 'task': {
        const task = taskView(g, b, p);
        return { kind: 'task', task, taskId: task.id, contextId: task.contextId, state: task.state, rawState: task.rawState, ...judged(problems, task.findings, task.problems) };
      }
      case 'message': {
        const message = messageView(g, b, p);
        return { kind: 'message', message, ...judged(problems, message.findings, message.problems) };
      }
      case 'status-update': {
        const st = statusProblems(g, b, p.status, 'status');
        const extra: string[] = [];
        if (typeof p.taskId !== 'string') extra.push('taskId is required');
        if (typeof p.contextId !== 'string') extra.push('contextId is required');
        if (typeof p.final !== 'boolean') extra.push('"final" is required on status-update events before v1.0');
        return { kind: 'status', taskId: str(p.taskId), contextId: str(p.contextId), state: st.state, rawState: st.rawState, final: p.final === true, ...judged([...problems, ...extra], st.findings, st.problems) };
      }
      case 'artifact-update':
        return { kind: 'artifact', taskId: str(p.taskId), contextId: str(p.contextId), artifact: artifactOf(p), ...judged(problems, artifactFindings(g, b, p.artifact, 'artifact'), []) };
      default:
        return { kind: 'invalid', problems: [...problems, `unknown event kind ${JSON.stringify(p.kind)} (expected task, message, status-update, artifact-update)`] };
    }
  }

  rpcError(e: { code: unknown; message: unknown; data?: unknown }, httpStatus: number): ProtocolError {
    const problems: string[] = [];
    if (this.generation === 'v1.0' && typeof e.code === 'number' && e.code <= -32001 && e.code >= -32099) {
      problems.push(...v1ErrorDataProblems(e.data));
    }
    let reason: string | undefined;
    if (Array.isArray(e.data)) {
      const info = e.data.find((d) => isRecord(d) && typeof d.reason === 'string');
      if (isRecord(info)) reason = String(info.reason);
    }
    return { code: typeof e.code === 'number' ? e.code : undefined, httpStatus, message: typeof e.message === 'string' ? e.message : '', problems, reason };
  }

  /** Parses a JSON-RPC answer of `op`. */
  parseRpc(http: HttpResult, rpcId: string, op: Operation): CallOutcome {
    // A body cut by a reset or a stall is a transport failure, not a "not JSON" answer.
    if (!http.responded || http.error) return { kind: 'transport', http, envelopeProblems: [] };
    const parsed = http.json();
    if (!parsed.ok) {
      return { kind: 'invalid', reason: `HTTP ${http.status}, body is not JSON (${http.contentType || 'no content type'}): ${parsed.error}`, http, envelopeProblems: [] };
    }
    const env = jsonRpcEnvelope(parsed.value, rpcId);
    const deep = depthProblem(http.text);
    if (deep) env.problems.push(deep);
    if (env.hasError && env.error) {
      return { kind: 'error', error: this.rpcError(env.error, http.status), http, envelopeProblems: env.problems };
    }
    if (!env.hasResult) return { kind: 'invalid', reason: env.problems.join('; ') || 'no result', http, envelopeProblems: env.problems };
    return this.classifyResult(env.result, op, http, env.problems);
  }

  /** Parses a REST answer of `op`. */
  parseRest(http: HttpResult, op: Operation): CallOutcome {
    if (!http.responded || http.error) return { kind: 'transport', http, envelopeProblems: [] };
    const parsed = http.json();
    if (http.status >= 400) {
      const body = parsed.ok ? parsed.value : undefined;
      if (this.generation === 'v1.0') {
        const e = restErrorBody(body, http.status);
        return { kind: 'error', error: { httpStatus: http.status, status: e.status, reason: e.reason, message: e.message ?? truncate(http.text, 200), problems: e.problems }, http, envelopeProblems: [] };
      }
      const msg = isRecord(body) ? String((isRecord(body.error) ? body.error.message : body.message) ?? '') : truncate(http.text, 200);
      return { kind: 'error', error: { httpStatus: http.status, message: msg, problems: [] }, http, envelopeProblems: [] };
    }
    if (!parsed.ok) return { kind: 'invalid', reason: `HTTP ${http.status}, body is not JSON: ${parsed.error}`, http, envelopeProblems: [] };
    const deep = depthProblem(http.text);
    return this.classifyResult(parsed.value, op, http, deep ? [deep] : []);
  }

  private classifyResult(result: unknown, op: Operation, http: HttpResult, envelopeProblems: string[]): CallOutcome {
    const g = this.generation;
    const b = this.shapeBinding;
    if (op === 'pushSet' || op === 'pushGet' || op === 'list') return { kind: 'ok', value: result, http, envelopeProblems };
    if (op === 'send' && (g === 'v1.0' || (g === 'v0.3' && this.isRest))) {
      if (isRecord(result) && result.task !== undefined) return { kind: 'task', task: taskView(g, b, result.task), http, envelopeProblems };
      if (isRecord(result) && result.message !== undefined) return { kind: 'message', message: messageView(g, b, result.message), http, envelopeProblems };
      if (g === 'v0.3' && isRecord(result) && (result.kind === 'task' || result.kind === 'message')) {
        return result.kind === 'task'
          ? { kind: 'task', task: taskView(g, b, result), http, envelopeProblems }
          : { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
      }
      return { kind: 'invalid', reason: `SendMessage must return {"task": …} or {"message": …}, got ${describeKeys(result)}`, http, envelopeProblems };
    }
    if (op === 'send' && g !== 'legacy') {
      if (isRecord(result) && result.kind === 'message') return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
      if (isRecord(result) && (result.kind === 'task' || (result.id !== undefined && result.status !== undefined))) {
        return { kind: 'task', task: taskView(g, b, result), http, envelopeProblems };
      }
      if (isRecord(result) && result.role !== undefined && result.parts !== undefined) {
        return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
      }
      return { kind: 'invalid', reason: `message/send must return a Task or a Message, got ${describeKeys(result)}`, http, envelopeProblems };
    }
    if (isRecord(result) && result.status !== undefined) return { kind: 'task', task: taskView(g, b, result), http, envelopeProblems };
    if (op === 'send' && isRecord(result) && result.role !== undefined) {
      return { kind: 'message', message: messageView(g, b, result), http, envelopeProblems };
    }
    return { kind: 'invalid', reason: `expected a Task, got ${describeKeys(result)}`, http, envelopeProblems };
  }
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * An event's problems (what the generation requires: the envelope's and the MUST shape findings) and notes (the
 * advisory shape findings). Without structured findings every text counts as a problem.
 */
function judged(own: string[], findings: readonly ShapeFinding[] | undefined, texts: readonly string[]): { problems: string[]; notes?: string[] } {
  if (!findings) return { problems: [...own, ...texts] };
  const notes = findings.filter((f) => f.level !== 'MUST').map((f) => f.problem);
  const problems = [...own, ...findings.filter((f) => f.level === 'MUST').map((f) => f.problem)];
  return notes.length ? { problems, notes } : { problems };
}

const looksLikePayload = (v: Record<string, unknown>) =>
  typeof v.kind === 'string' || ['task', 'message', 'statusUpdate', 'artifactUpdate', 'status', 'artifact'].some((k) => k in v);

function describeKeys(v: unknown): string {
  if (!isRecord(v)) return typeName(v);
  const keys = Object.keys(v).slice(0, 8);
  return `an object with ${keys.length ? keys.join(', ') : 'no fields'}`;
}

function artifactOf(ev: Record<string, unknown>): StreamItem['artifact'] {
  const a = isRecord(ev.artifact) ? ev.artifact : {};
  const parts = Array.isArray(a.parts) ? a.parts : Array.isArray(a.content) ? a.content : [];
  let text = '';
  for (const p of parts.slice(0, 50)) if (isRecord(p) && typeof p.text === 'string') text += p.text;
  return {
    id: typeof a.artifactId === 'string' ? a.artifactId : undefined,
    index: typeof a.index === 'number' ? a.index : undefined,
    append: (ev.append ?? a.append) === true,
    lastChunk: (ev.lastChunk ?? a.lastChunk) === true,
    text: truncate(text, 4000),
    parts: parts.length,
  };
}
