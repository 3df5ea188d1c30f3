/**
 * A small plain-fetch A2A client for tests: speaks each generation and binding on the wire and hands
 * back raw HTTP facts (status, headers, bodies, SSE frames) so tests assert on the wire, not on a model.
 */
import { createParser } from 'eventsource-parser';
import type { Binding, Generation } from './dialect';

/**
 * JSON as it came off the wire, of any generation: tests read it field by field and assert on what they find, so
 * a static type would only restate each assertion.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type WireJson = any;
type Json = Record<string, WireJson>;

export interface SseResult {
  status: number;
  contentType: string;
  /** Parsed `data:` payloads (strings that are not JSON are kept as strings). */
  events: WireJson[];
  comments: string[];
  /** True when the server closed the stream before the timeout. */
  ended: boolean;
  /** The raw body text read. */
  raw: string;
  ms: number;
}

export interface WireResult {
  status: number;
  headers: Headers;
  text: string;
  json: WireJson;
}

/** Reads an SSE response until the server closes it or `timeoutMs` passes. */
async function readSse(res: Response, timeoutMs = 3000, ac?: AbortController): Promise<SseResult> {
  const t0 = Date.now();
  const events: WireJson[] = [];
  const comments: string[] = [];
  const parser = createParser({
    onEvent: (e) => {
      try {
        events.push(JSON.parse(e.data));
      } catch {
        events.push(e.data);
      }
    },
    onComment: (c) => comments.push(c.trim()),
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  let raw = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)));
  try {
    for (;;) {
      const r = await Promise.race([reader.read(), timeout]);
      if (r === 'timeout') break;
      if (r.done) {
        ended = true;
        break;
      }
      // The decoder drops a leading byte order mark (as SSE clients do); raw keeps it, as sent.
      if (!raw && r.value[0] === 0xef && r.value[1] === 0xbb && r.value[2] === 0xbf) raw = '\uFEFF';
      const chunk = decoder.decode(r.value, { stream: true });
      if (raw.length < 1_000_000) raw += chunk;
      parser.feed(chunk);
    }
  } catch {
    // aborted
  } finally {
    clearTimeout(timer);
    if (!ended) {
      ac?.abort();
      await reader.cancel().catch(() => {});
    }
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', events, comments, ended, raw, ms: Date.now() - t0 };
}

async function toWire(res: Response): Promise<WireResult> {
  const text = await res.text();
  let json: WireJson;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export interface DriverOptions {
  generation: Generation;
  binding: Binding;
  /** Endpoint URL (JSON-RPC URL or REST base). */
  url: string;
  headers?: Record<string, string>;
}

export interface SendOpts {
  taskId?: string;
  contextId?: string;
  /** v1.0 returnImmediately / v0.x blocking:false. */
  nonBlocking?: boolean;
  historyLength?: number;
}

/** Neutral result of a unary call: the payload or an error code (JSON-RPC code, or derived from REST status). */
export interface CallResult {
  wire: WireResult;
  result?: WireJson;
  error?: { code: number; message?: string; data?: unknown };
}

const REASON_TO_CODE: Record<string, number> = {
  TASK_NOT_FOUND: -32001,
  TASK_NOT_CANCELABLE: -32002,
  PUSH_NOTIFICATION_NOT_SUPPORTED: -32003,
  UNSUPPORTED_OPERATION: -32004,
  CONTENT_TYPE_NOT_SUPPORTED: -32005,
  EXTENDED_AGENT_CARD_NOT_CONFIGURED: -32007,
  VERSION_NOT_SUPPORTED: -32009,
};

/** Drives one agent over one generation/binding with plain fetch. */
export class Driver {
  private rpcId = 0;
  constructor(readonly o: DriverOptions) {}

  get v1(): boolean {
    return this.o.generation === 'v1.0';
  }

  private headers(extra?: Record<string, string>): Record<string, string> {
    return {
      'Content-Type': this.o.binding === 'HTTP+JSON' && this.v1 ? 'application/a2a+json' : 'application/json',
      ...(this.v1 ? { 'A2A-Version': '1.0' } : {}),
      ...this.o.headers,
      ...extra,
    };
  }

  message(text: string, o: SendOpts = {}): Json {
    const g = this.o.generation;
    const messageId = crypto.randomUUID();
    if (g === 'legacy') return { role: 'user', parts: [{ type: 'text', text }] };
    if (g === 'v1.0') {
      return { messageId, role: 'ROLE_USER', parts: [{ text }], ...(o.taskId ? { taskId: o.taskId } : {}), ...(o.contextId ? { contextId: o.contextId } : {}) };
    }
    return {
      kind: 'message',
      messageId,
      role: 'user',
      parts: [{ kind: 'text', text }],
      ...(o.taskId ? { taskId: o.taskId } : {}),
      ...(o.contextId ? { contextId: o.contextId } : {}),
    };
  }

  sendParams(text: string, o: SendOpts = {}): Json {
    const g = this.o.generation;
    if (g === 'legacy') {
      return {
        id: o.taskId ?? `test-${crypto.randomUUID()}`,
        sessionId: o.contextId ?? `session-${crypto.randomUUID()}`,
        message: this.message(text),
        ...(o.historyLength !== undefined ? { historyLength: o.historyLength } : {}),
      };
    }
    const configuration: Json = { acceptedOutputModes: ['text/plain'] };
    if (o.nonBlocking) configuration[g === 'v1.0' ? 'returnImmediately' : 'blocking'] = g === 'v1.0';
    if (o.historyLength !== undefined) configuration.historyLength = o.historyLength;
    return { message: this.message(text, o), configuration };
  }

  methodName(op: 'send' | 'stream' | 'get' | 'cancel' | 'resubscribe' | 'list' | 'pushSet'): string {
    const g = this.o.generation;
    const table = {
      legacy: {
        send: 'tasks/send',
        stream: 'tasks/sendSubscribe',
        get: 'tasks/get',
        cancel: 'tasks/cancel',
        resubscribe: 'tasks/resubscribe',
        list: 'tasks/list',
        pushSet: 'tasks/pushNotification/set',
      },
      v0: {
        send: 'message/send',
        stream: 'message/stream',
        get: 'tasks/get',
        cancel: 'tasks/cancel',
        resubscribe: 'tasks/resubscribe',
        list: 'tasks/list',
        pushSet: 'tasks/pushNotificationConfig/set',
      },
      v1: {
        send: 'SendMessage',
        stream: 'SendStreamingMessage',
        get: 'GetTask',
        cancel: 'CancelTask',
        resubscribe: 'SubscribeToTask',
        list: 'ListTasks',
        pushSet: 'CreateTaskPushNotificationConfig',
      },
    } as const;
    return table[g === 'legacy' ? 'legacy' : g === 'v1.0' ? 'v1' : 'v0'][op];
  }

  /** Raw JSON-RPC POST of any body. */
  async post(body: string, headers?: Record<string, string>): Promise<WireResult> {
    return toWire(await fetch(this.o.url, { method: 'POST', headers: this.headers(headers), body }));
  }

  async rpc(method: string, params: unknown, headers?: Record<string, string>): Promise<CallResult> {
    const id = ++this.rpcId;
    const wire = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method, params }), headers);
    return { wire, result: wire.json?.result, error: wire.json?.error ?? undefined };
  }

  private async rest(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<CallResult> {
    const prefix = this.o.generation === 'v0.3' ? '/v1' : '';
    const init: RequestInit = { method, headers: this.headers(headers) };
    if (body !== undefined) init.body = JSON.stringify(body);
    const wire = await toWire(await fetch(`${this.o.url}${prefix}${path}`, init));
    if (wire.status >= 200 && wire.status < 300) return { wire, result: wire.json };
    const details: WireJson[] = wire.json?.error?.details ?? [];
    const reason = details.find((d) => d?.['@type']?.endsWith('google.rpc.ErrorInfo'))?.reason as string | undefined;
    const code =
      (reason ? REASON_TO_CODE[reason] : undefined) ?? (wire.status === 400 ? -32602 : wire.status === 404 ? -32601 : wire.status >= 500 ? -32603 : 0);
    return { wire, error: { code, message: wire.json?.error?.message } };
  }

  /** Sends and returns the Task (unwrapped from v1.0/REST `{task}`). */
  async send(text: string, o: SendOpts = {}, headers?: Record<string, string>): Promise<CallResult & { task?: WireJson; message?: WireJson }> {
    const r =
      this.o.binding === 'HTTP+JSON'
        ? await this.rest('POST', '/message:send', this.sendParams(text, o), headers)
        : await this.rpc(this.methodName('send'), this.sendParams(text, o), headers);
    if (!r.result) return r;
    const wrapped = this.v1 || this.o.binding === 'HTTP+JSON';
    const task = wrapped ? r.result.task : r.result.kind === 'message' || (this.o.generation === 'legacy' && !r.result.status) ? undefined : r.result;
    const message = wrapped ? r.result.message : task ? undefined : r.result;
    return { ...r, task, message };
  }

  async get(id: string, historyLength?: number): Promise<CallResult> {
    if (this.o.binding === 'HTTP+JSON') {
      return this.rest('GET', `/tasks/${encodeURIComponent(id)}${historyLength !== undefined ? `?historyLength=${historyLength}` : ''}`);
    }
    return this.rpc(this.methodName('get'), { id, ...(historyLength !== undefined ? { historyLength } : {}) });
  }

  async cancel(id: string): Promise<CallResult> {
    if (this.o.binding === 'HTTP+JSON') return this.rest('POST', `/tasks/${encodeURIComponent(id)}:cancel`, {});
    return this.rpc(this.methodName('cancel'), { id });
  }

  async list(query: Record<string, string | number | boolean> = {}): Promise<CallResult> {
    if (this.o.binding === 'HTTP+JSON') {
      const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
      return this.rest('GET', `/tasks${qs ? `?${qs}` : ''}`);
    }
    return this.rpc(this.methodName('list'), query);
  }

  async pushSet(
    taskId: string,
    cfg: { url: string; token?: string; authentication?: WireJson } = { url: 'http://127.0.0.1:9/hook', token: 'tok' },
  ): Promise<CallResult> {
    if (this.o.binding === 'HTTP+JSON') {
      return this.rest(
        'POST',
        `/tasks/${encodeURIComponent(taskId)}/pushNotificationConfigs`,
        this.v1 ? { taskId, ...cfg } : { taskId, pushNotificationConfig: cfg },
      );
    }
    const g = this.o.generation;
    const params = g === 'legacy' ? { id: taskId, pushNotificationConfig: cfg } : g === 'v1.0' ? { taskId, ...cfg } : { taskId, pushNotificationConfig: cfg };
    return this.rpc(this.methodName('pushSet'), params);
  }

  /** Opens a stream (send or resubscribe) and reads it to the end or the timeout. */
  async stream(op: 'stream' | 'resubscribe', arg: string, o: SendOpts & { timeoutMs?: number } = {}): Promise<SseResult & { wire?: WireResult }> {
    const ac = new AbortController();
    let res: Response;
    if (this.o.binding === 'HTTP+JSON') {
      const prefix = this.o.generation === 'v0.3' ? '/v1' : '';
      const path = op === 'stream' ? '/message:stream' : `/tasks/${encodeURIComponent(arg)}:subscribe`;
      res = await fetch(`${this.o.url}${prefix}${path}`, {
        method: 'POST',
        headers: this.headers(),
        body: op === 'stream' ? JSON.stringify(this.sendParams(arg, o)) : '{}',
        signal: ac.signal,
      });
    } else {
      const params = op === 'stream' ? this.sendParams(arg, o) : { id: arg };
      res = await fetch(this.o.url, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify({ jsonrpc: '2.0', id: ++this.rpcId, method: this.methodName(op), params }),
        signal: ac.signal,
      });
    }
    const ct = res.headers.get('content-type') ?? '';
    if (!ct.includes('event-stream') && res.status !== 200) {
      const wire = await toWire(res);
      return { status: res.status, contentType: ct, events: [], comments: [], ended: true, raw: wire.text, ms: 0, wire };
    }
    const sse = await readSse(res, o.timeoutMs, ac);
    if (sse.events.length === 0 && ct.includes('json')) {
      // A JSON answer (e.g. a JSON-RPC error) instead of a stream.
      try {
        const json: unknown = JSON.parse(sse.raw);
        return { ...sse, wire: { status: res.status, headers: res.headers, text: sse.raw, json } };
      } catch {
        // not JSON: a stream with the wrong content type
      }
    }
    return sse;
  }

  /** Unwraps a stream payload to the inner event (JSON-RPC result, v1.0 StreamResponse, v0.3 REST wrapper). */
  payload(frame: WireJson): WireJson {
    let p = this.o.binding === 'JSONRPC' && frame && typeof frame === 'object' && 'jsonrpc' in frame ? frame.result : frame;
    if (p && typeof p === 'object' && (this.v1 || this.o.binding === 'HTTP+JSON')) {
      const k = ['task', 'message', 'statusUpdate', 'artifactUpdate'].find((x) => x in p);
      if (k) p = { ...p[k], __kind: k };
    }
    return p;
  }

  /** Neutral kind of a stream payload: task | message | status | artifact. */
  kindOf(p: WireJson): string {
    if (!p || typeof p !== 'object') return 'unknown';
    if (p.__kind) return { task: 'task', message: 'message', statusUpdate: 'status', artifactUpdate: 'artifact' }[p.__kind as string] ?? 'unknown';
    if (p.kind) return { task: 'task', message: 'message', 'status-update': 'status', 'artifact-update': 'artifact' }[p.kind as string] ?? 'unknown';
    if (p.artifact) return 'artifact';
    if (p.status) return 'status';
    return 'unknown';
  }

  /** Neutral (kebab) state of a task or status event. */
  stateOf(x: WireJson): string {
    const s: string = x?.status?.state ?? '';
    return s.startsWith('TASK_STATE_') ? s.slice(11).toLowerCase().replace(/_/g, '-') : s;
  }
}

/** Polls GetTask until `pred` holds or `timeoutMs` passes. */
export async function pollUntil(d: Driver, id: string, pred: (state: string) => boolean, timeoutMs = 5000): Promise<WireJson> {
  const t0 = Date.now();
  for (;;) {
    const r = await d.get(id);
    if (r.result && pred(d.stateOf(r.result))) return r.result;
    if (Date.now() - t0 > timeoutMs) throw new Error(`task ${id} stuck in ${d.stateOf(r.result)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
