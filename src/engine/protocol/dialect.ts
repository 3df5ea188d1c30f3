import { exchange, stream, type HttpContext, type HttpResult, type SseMessage } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { CallOpts, DialectConfig, ListArgs, SendArgs } from './call-options';
import type { InputPart } from './input';
import { renderPart, sendParams, userMessage, type MessageArgs, type MessageStyle } from './messages';
import { grpcCallOf, grpcStream, grpcUnary } from './grpc';
import { describeOperation, fillPath, methodName, OPERATIONS, operationUrl, restBase, restRoute, tenantOf, type Operation, type RestRoute } from './operations';
import { parseRest, parseRpc, parseStreamEvent, rpcError, type CallOutcome, type ProtocolError, type Speaker, type StreamItem, type StreamRun } from './parse';

export type { CallOutcome, ProtocolError, StreamItem, StreamRun } from './parse';
export type { Operation } from './operations';
export type { CallOpts, DialectConfig, ListArgs, SendArgs } from './call-options';

type Ids = { id?: string; configId?: string };

/** An operation as a raw request (Dialect.request); over gRPC a typed call of the operation (Dialect.invoke). */
type Raw = { kind: 'rest'; method: string; path: string; body?: string } | { kind: 'rpc'; method: string; params: unknown };
export type OperationRequest = Raw | { kind: 'grpc'; op: Operation; params: unknown };

/**
 * Speaks one generation over one binding: builds requests from the table of operations (operations.ts), negotiates
 * the v0.3 HTTP+JSON payload style, and parses answers (parse.ts). Never throws.
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

  private get speaker(): Speaker {
    return { generation: this.generation, binding: this.binding, shapeBinding: this.shapeBinding };
  }

  private get target() {
    return { generation: this.generation, binding: this.binding, endpointUrl: this.endpointUrl, tenant: this.cfg.tenant };
  }

  method(op: Operation): string {
    return methodName(this.generation, op);
  }

  /** Human-readable name of the operation on the wire, for messages (see describeOperation). */
  describe(op: Operation, id = '{id}', configId = '{configId}'): string {
    return describeOperation(this, op, id, configId);
  }

  /** The HTTP+JSON method and path of an operation under the REST base, ids filled in (URL-encoded). */
  route(op: Operation, ids: Ids = {}): RestRoute {
    const r = restRoute(this.generation, op);
    return { method: r.method, path: fillPath(r.path, ids) };
  }

  /**
   * An operation as a hand-made request (the error and auth probes send it raw, to read the answer as it is): on
   * HTTP+JSON its route with `ids` filled in and `params` as the JSON body (none for GET and DELETE, whose ids are in
   * the path; `body` where the path carries what params hold); on JSON-RPC its method and `params`; over gRPC the
   * operation and `params` as its request message.
   */
  request(op: Operation, params: Record<string, unknown>, ids: Ids = {}, body: Record<string, unknown> = params): OperationRequest {
    if (this.binding === 'GRPC') return { kind: 'grpc', op, params };
    if (!this.isRest) return { kind: 'rpc', method: this.method(op), params };
    const r = this.route(op, ids);
    return r.method === 'POST' ? { kind: 'rest', ...r, body: JSON.stringify(body) } : { kind: 'rest', ...r };
  }

  /** The full URL of an operation (tenant and `/v1` prefix included), without credential query parameters. */
  operationUrl(op: Operation, ids: Ids = {}): string {
    return operationUrl(this.target, op, ids);
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

  // ---------------------------------------------------------------- message building (messages.ts)

  /** How messages are spelled now (the v0.3 REST payload style can change). */
  private get style(): MessageStyle {
    const g = this.generation;
    const proto = this.isRest && this.restStyle === 'proto';
    return {
      generation: g,
      protoStyle: proto,
      protoParts: proto && g === 'v0.3',
      tenant: tenantOf(g, this.cfg.tenant),
      acceptedOutputModes: this.cfg.acceptedOutputModes,
      uuid: this.cfg.uuid,
    };
  }

  /** One part as this generation and binding spell it. */
  renderPart(p: InputPart): Record<string, unknown> {
    return renderPart(this.style, p);
  }

  userMessage(text: string, taskId?: string, contextId?: string, parts?: InputPart[], messageId?: string): Record<string, unknown> {
    return userMessage(this.style, text, taskId, contextId, parts, messageId);
  }

  sendParams(a: MessageArgs): Record<string, unknown> {
    return sendParams(this.style, a);
  }

  /** `{tenant}` for JSON-RPC params when the interface has one (v1.0 §8.3.2: in every request). */
  private tenantParam(): { tenant?: string } {
    const tenant = tenantOf(this.generation, this.cfg.tenant);
    return tenant ? { tenant } : {};
  }

  private idParams(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
    return { id, ...extra, ...this.tenantParam() };
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

  /** Sends `method path` under the REST base (tenant, `/v1` prefix); `path` is taken as given (see `route`). */
  rawRest(ctx: HttpContext, method: string, path: string, body: string | undefined, opts: CallOpts): Promise<HttpResult> {
    return exchange(ctx, {
      method,
      url: this.url(`${restBase(this.target)}${path}`, opts),
      headers: this.headers(opts, body !== undefined),
      body,
      lane: opts.lane,
      checkId: opts.checkId,
      timeoutMs: opts.timeoutMs,
    });
  }

  /** A JSON-RPC call of `op` (its method in this generation), or of a method name the table does not list. */
  async rpc(ctx: HttpContext, op: Operation | string, params: unknown, opts: CallOpts): Promise<{ http: HttpResult; id: string }> {
    const id = this.nextRpcId();
    const method = Object.prototype.hasOwnProperty.call(OPERATIONS, op) ? this.method(op as Operation) : op;
    const http = await this.rawRpc(ctx, JSON.stringify({ jsonrpc: '2.0', id, method, params }), opts);
    return { http, id };
  }

  /** A typed call of `op` with `params` as its request: the probes' form over gRPC (see `request`). Never throws. */
  invoke(ctx: HttpContext, op: Operation, params: unknown, opts: CallOpts): Promise<CallOutcome> {
    return this.call(ctx, op, { params, body: params }, opts);
  }

  /** One operation over either binding: its route and `body` (REST, `query` appended) or its method and `params`. */
  private async call(
    ctx: HttpContext,
    op: Operation,
    o: { ids?: Ids; query?: string; body?: unknown; params: unknown; parseAs?: Operation },
    opts: CallOpts,
  ): Promise<CallOutcome> {
    if (this.binding === 'GRPC') return grpcUnary(ctx, grpcCallOf(this, op, o.params, opts)); // grpc.ts: the JSON-RPC params are the request
    if (this.isRest) {
      const r = this.route(op, o.ids);
      const http = await this.rawRest(ctx, r.method, `${r.path}${o.query ?? ''}`, o.body === undefined ? undefined : JSON.stringify(o.body), opts);
      return this.parseRest(http, o.parseAs ?? op);
    }
    const { http, id } = await this.rpc(ctx, op, o.params, opts);
    return this.parseRpc(http, id, o.parseAs ?? op);
  }
  // ---------------------------------------------------------------- operations

  async send(ctx: HttpContext, a: SendArgs): Promise<CallOutcome> {
    if (this.isRest && this.generation === 'v0.3') {
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
    return this.call(ctx, 'send', { body: this.isRest ? this.sendParams(a) : undefined, params: this.isRest ? undefined : this.sendParams(a) }, a);
  }

  /** First v0.3 REST send: proto style; on a 400, once more in the JSON-RPC object style, keeping what works. */
  private async negotiateStyle(ctx: HttpContext, a: SendArgs): Promise<CallOutcome> {
    const first = await this.call(ctx, 'send', { body: this.sendParams(a), params: undefined }, a);
    if (first.kind !== 'error' || first.http.status !== 400) return first;
    this.restStyle = 'object';
    const again = await this.call(ctx, 'send', { body: this.sendParams(a), params: undefined }, a);
    if (again.kind === 'task' || again.kind === 'message') return again;
    this.restStyle = 'proto';
    return first;
  }

  private settledStyle = async (): Promise<void> => void (await this.styleNegotiation);

  get(ctx: HttpContext, a: CallOpts & { id: string; historyLength?: number }): Promise<CallOutcome> {
    const query = a.historyLength !== undefined ? `?historyLength=${a.historyLength}` : '';
    return this.call(
      ctx,
      'get',
      { ids: { id: a.id }, query, params: this.idParams(a.id, a.historyLength !== undefined ? { historyLength: a.historyLength } : {}) },
      a,
    );
  }

  cancel(ctx: HttpContext, a: CallOpts & { id: string }): Promise<CallOutcome> {
    return this.call(ctx, 'cancel', { ids: { id: a.id }, body: {}, params: this.idParams(a.id) }, a);
  }

  /**
   * Creates a push notification config for a task (legacy tasks/pushNotification/set, v0.x …Config/set, v1.0
   * CreateTaskPushNotificationConfig; REST POST …/pushNotificationConfigs). v0.3 REST: the proto's body is the
   * TaskPushNotificationConfig ({name, pushNotificationConfig}); `restBody: 'config'` sends the v0.3.0 §7.5
   * document's `{config: …}` form instead.
   */
  pushSet(
    ctx: HttpContext,
    a: CallOpts & { taskId: string; url: string; token?: string; authentication?: { scheme: string; credentials: string }; restBody?: 'proto' | 'config' },
  ): Promise<CallOutcome> {
    const g = this.generation;
    // AuthenticationInfo: v1.0 {scheme, credentials}; before, {schemes: [...], credentials}.
    const auth = a.authentication && (g === 'v1.0' ? a.authentication : { schemes: [a.authentication.scheme], credentials: a.authentication.credentials });
    const inner = { url: a.url, ...(a.token !== undefined && { token: a.token }), ...(auth && { authentication: auth }) };
    const params =
      g === 'legacy'
        ? { id: a.taskId, pushNotificationConfig: inner }
        : g === 'v1.0'
          ? { taskId: a.taskId, ...inner, ...this.tenantParam() }
          : { taskId: a.taskId, pushNotificationConfig: inner };
    const v03 = { name: `tasks/${a.taskId}/pushNotificationConfigs/a2a-interop`, pushNotificationConfig: inner };
    const body = g === 'v1.0' ? inner : a.restBody === 'config' ? { config: v03 } : v03;
    return this.call(ctx, 'pushSet', { ids: { id: a.taskId }, body, params }, a);
  }

  /** Reads a push notification config back (legacy: the task's only config; v0.x: `configId` optional). */
  pushGet(ctx: HttpContext, a: CallOpts & { taskId: string; configId?: string }): Promise<CallOutcome> {
    const g = this.generation;
    const params =
      g === 'legacy'
        ? { id: a.taskId }
        : g === 'v1.0'
          ? { taskId: a.taskId, id: a.configId ?? '', ...this.tenantParam() }
          : { id: a.taskId, ...(a.configId !== undefined && { pushNotificationConfigId: a.configId }) };
    return this.call(ctx, 'pushGet', { ids: { id: a.taskId, configId: a.configId ?? '' }, params }, a);
  }

  /** Wire name of the push list/delete operation (they do not exist in legacy). */
  pushMethod(op: 'list' | 'delete', taskId = '{id}', configId = '{configId}'): string {
    return this.describe(op === 'list' ? 'pushList' : 'pushDelete', taskId, configId);
  }

  /** Lists a task's push notification configs (v0.2+): v0.x an array, v1.0 and v0.3 REST {configs, nextPageToken}. */
  pushList(ctx: HttpContext, a: CallOpts & { taskId: string }): Promise<CallOutcome> {
    const params = this.generation === 'v1.0' ? { taskId: a.taskId, ...this.tenantParam() } : { id: a.taskId };
    return this.call(ctx, 'pushList', { ids: { id: a.taskId }, params, parseAs: 'pushGet' }, a);
  }

  /** Deletes a push notification config (v0.2+). An empty 2xx body (REST 204, or 200 with nothing) is a success. */
  async pushDelete(ctx: HttpContext, a: CallOpts & { taskId: string; configId: string }): Promise<CallOutcome> {
    if (this.isRest) {
      const r = this.route('pushDelete', { id: a.taskId, configId: a.configId });
      const http = await this.rawRest(ctx, r.method, r.path, undefined, a);
      if (http.responded && !http.error && http.status >= 200 && http.status < 300 && http.text.trim() === '')
        return { kind: 'ok', value: null, http, envelopeProblems: [] };
      return this.parseRest(http, 'pushGet');
    }
    const params =
      this.generation === 'v1.0' ? { taskId: a.taskId, id: a.configId, ...this.tenantParam() } : { id: a.taskId, pushNotificationConfigId: a.configId };
    return this.call(ctx, 'pushDelete', { params, parseAs: 'pushGet' }, a);
  }

  /** ListTasks (v1.0 §3.1.4): JSON-RPC params, or the REST query (§11.5), with the interface's tenant. */
  list(ctx: HttpContext, a: ListArgs): Promise<CallOutcome> {
    const p = {
      ...(a.contextId !== undefined && { contextId: a.contextId }),
      ...(a.pageSize !== undefined && { pageSize: a.pageSize }),
      ...(a.pageToken !== undefined && { pageToken: a.pageToken }),
    };
    const q = new URLSearchParams();
    if (a.contextId) q.set('contextId', a.contextId);
    if (a.pageSize !== undefined) q.set('pageSize', String(a.pageSize));
    if (a.pageToken) q.set('pageToken', a.pageToken);
    return this.call(ctx, 'list', { query: `?${q.toString()}`, params: { ...p, ...this.tenantParam() } }, a);
  }

  async streamSend(ctx: HttpContext, a: SendArgs, onItem?: (i: StreamItem) => 'stop' | void): Promise<StreamRun> {
    await this.settledStyle();
    if (this.binding === 'GRPC') return grpcStream(ctx, grpcCallOf(this, 'stream', this.sendParams(a), a), onItem);
    if (this.isRest) {
      const open = () => this.openStream(ctx, 'POST', this.operationUrl('stream'), JSON.stringify(this.sendParams(a)), undefined, a, onItem);
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
    if (this.binding === 'GRPC') return grpcStream(ctx, grpcCallOf(this, 'subscribe', this.idParams(a.id), a), onItem);
    if (this.isRest) {
      const url = this.operationUrl('subscribe', { id: a.id });
      // The proto says GET, the text says POST (v0.3.0 §3.5.6, v1.0.1 §11.3.2): try the proto's first.
      const first = await this.openStream(ctx, this.route('subscribe').method, url, undefined, undefined, a, onItem);
      const alternative = OPERATIONS.subscribe.restAlternative;
      if (alternative && (first.result.status === 404 || first.result.status === 405)) {
        return this.openStream(ctx, alternative, url, '{}', undefined, a, onItem);
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

  // ---------------------------------------------------------------- parsing (parse.ts, in the current payload style)

  /** Interprets one SSE event (see parse.ts `parseStreamEvent`). */
  parseStreamEvent(m: SseMessage, rpcId: string | undefined): StreamItem {
    return parseStreamEvent(this.speaker, m, rpcId);
  }

  rpcError(e: { code: unknown; message: unknown; data?: unknown }, httpStatus: number): ProtocolError {
    return rpcError(this.generation, e, httpStatus);
  }

  /** Parses a JSON-RPC answer of `op`. */
  parseRpc(http: HttpResult, rpcId: string, op: Operation): CallOutcome {
    return parseRpc(this.speaker, http, rpcId, op);
  }

  /** Parses a REST answer of `op`. */
  parseRest(http: HttpResult, op: Operation): CallOutcome {
    return parseRest(this.speaker, http, op);
  }

  /** A server failure (a crash, not a refusal): no answer; HTTP 5xx; over gRPC INTERNAL, UNKNOWN or DATA_LOSS (§5.4). */
  serverFailed(o: CallOutcome): boolean {
    if (o.kind === 'transport') return true;
    if (this.binding === 'GRPC') return o.kind === 'error' && ['INTERNAL', 'UNKNOWN', 'DATA_LOSS'].includes(o.error.status ?? '');
    return o.http.status >= 500;
  }
}
