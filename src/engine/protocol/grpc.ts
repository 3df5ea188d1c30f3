/**
 * The v1.0 gRPC binding (v1.0.1 §10) over the host's GrpcTransport (ports.ts): the same operations as JSON-RPC
 * (v1.0 JSON-RPC params are the ProtoJSON of the proto's request messages, so the Dialect hands us those), answers
 * read as ProtoJSON with the v1.0 shapes, errors as google.rpc.Status (code name + ErrorInfo reason), streams as
 * item sequences. Each call is recorded like an HTTP exchange (http-request / http-response / sse-event events) so
 * the timeline and the inspector show it: method, metadata (redacted), messages as JSON.
 */
import { withSlot, type HttpContext } from '../http/context';
import { finish, type HttpResult, type PartialResult } from '../http/exchange';
import { insecureCredentialError } from '../http/insecure';
import type { StreamEndReason } from '../http/sse';
import { deadline } from '../http/transport-errors';
import type { TransportError } from '../model/events';
import { emptyGrpcResult, type GrpcResult } from '../ports';
import { isRecord, truncate } from '../util/json';
import { GRPC_STATUS_OF_REASON } from './errors';
import { OPERATIONS, type Operation } from './operations';
import { parseRest, parseStreamEvent, type CallOutcome, type ProtocolError, type Speaker, type StreamItem, type StreamRun } from './parse';

/** The service of the v1.0.1 a2a.proto (`package lf.a2a.v1; service A2AService`). */
const GRPC_SERVICE = 'lf.a2a.v1.A2AService';

/** Full method name of an operation, e.g. `/lf.a2a.v1.A2AService/GetTask` (v1.0.1 §5.3: same names as JSON-RPC). */
const grpcMethod = (op: Operation): string => `/${GRPC_SERVICE}/${OPERATIONS[op].rpc['v1.0']}`;

/** gRPC status code names by number (grpc.io status codes). */
const GRPC_STATUS = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
] as const;

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';

/** gRPC metadata from the Dialect's headers: service parameters and credentials, lower-case keys (§10.2). */
export function grpcMetadata(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    const key = k.toLowerCase();
    if (key === 'accept' || key === 'content-type') continue;
    out[key] = v;
  }
  return out;
}

/** Reads a gRPC error status into the ProtocolError every check reads, judging its details per §10.6 / §5.4. */
export function grpcError(res: GrpcResult): ProtocolError {
  const status = res.status ?? (res.code !== undefined ? GRPC_STATUS[res.code] : undefined);
  const infos = res.details.filter((d): d is Record<string, unknown> => isRecord(d) && (d['@type'] === ERROR_INFO || typeof d.reason === 'string'));
  const a2a = infos.find((d) => d.domain === A2A_ERROR_DOMAIN) ?? infos[0];
  const reason = a2a && typeof a2a.reason === 'string' ? a2a.reason : undefined;
  const problems: string[] = [];
  if (reason && a2a && a2a.domain !== A2A_ERROR_DOMAIN)
    problems.push(`ErrorInfo.domain is ${JSON.stringify(a2a.domain)}, expected "${A2A_ERROR_DOMAIN}" (v1.0.1 §10.6)`);
  const expected = reason ? GRPC_STATUS_OF_REASON[reason] : undefined;
  if (expected && status !== expected) problems.push(`${reason} must be sent with gRPC status ${expected} (v1.0.1 §5.4), got ${status ?? 'none'}`);
  return { httpStatus: 200, status, reason, message: res.statusMessage, problems, binding: 'GRPC' };
}

export interface GrpcCall {
  url: string;
  op: Operation;
  message: unknown;
  headers: Record<string, string>;
  lane: string;
  checkId?: string;
  timeoutMs?: number;
  stopSignal?: AbortSignal;
}

const NO_TRANSPORT: GrpcResult = emptyGrpcResult({
  kind: 'tool',
  message: 'This host cannot make gRPC calls (the CLI and the local server can; a hosted dashboard cannot).',
});

/**
 * The http(s) URL a gRPC interface URL amounts to for the https-or-loopback rule of credentials (http/insecure.ts):
 * `grpc://` is plaintext, `grpcs://` TLS, and a bare `host:port` is TLS except on loopback (src/grpc/transport.ts).
 */
function grpcAsHttpUrl(u: string): string {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(u);
  if (!m) return `https://${u.replace(/\/.*$/, '')}`;
  const scheme = m[1]!.toLowerCase();
  if (scheme === 'grpc') return `http://${u.slice(m[0].length)}`;
  if (scheme === 'grpcs') return `https://${u.slice(m[0].length)}`;
  return u;
}

/** A TransportError for a call that got no status from the agent (never the agent's fault unless it sent garbage). */
function transportError(res: GrpcResult, ctx: HttpContext, stop: AbortSignal | undefined): TransportError | undefined {
  const e = res.error;
  if (!e || e.kind === 'decode') return undefined;
  // Our own early stop of a stream (enough seen, idle, event limit): not a failure, as with SSE streams.
  if (e.kind === 'aborted' && stop?.aborted && !ctx.signal.aborted) return undefined;
  if (e.kind === 'timeout')
    return { source: 'timeout', code: 'no_response', message: `The agent did not answer within the time budget (${e.message}).`, blame: 'agent' };
  if (e.kind === 'aborted' || ctx.signal.aborted) return { source: 'abort', code: 'aborted', message: 'The run was stopped.', blame: 'tool' };
  if (e.kind === 'connect')
    return { source: 'network', code: 'connect_failed', message: `Could not connect to the agent over gRPC (${e.message}).`, blame: 'unknown' };
  return { source: 'proxy', code: 'grpc_unavailable', message: e.message, blame: 'tool' };
}

/** What the timeline shows as the body of a gRPC answer: the message(s), or the status with its details. */
function answerText(res: GrpcResult, stream: boolean): string {
  if (res.code === 0 && !stream) return res.messages.length ? JSON.stringify(res.messages[0]) : '';
  if (res.code === 0) return '';
  if (res.code === undefined && res.error?.kind !== 'decode') return '';
  return JSON.stringify({
    code: res.code,
    status: res.status,
    message: res.statusMessage,
    details: res.details,
    ...(res.error && { error: res.error.message }),
  });
}

/** Makes one gRPC call (unary, or server streaming when `onMessage` is given) and records it. Never throws. */
export async function grpcExchange(
  ctx: HttpContext,
  c: GrpcCall,
  onMessage?: (m: unknown, at: number, exchangeId: string) => 'stop' | void,
): Promise<{ res: GrpcResult; http: HttpResult }> {
  return withSlot(ctx, async () => {
    const id = ctx.newId('x');
    const startedAt = ctx.host.now();
    const method = grpcMethod(c.op);
    const url = `${c.url.replace(/\/+$/, '')}${method}`;
    const metadata = grpcMetadata(c.headers);
    const body = JSON.stringify(c.message);
    ctx.emit({
      type: 'http-request',
      at: startedAt,
      exchangeId: id,
      checkId: c.checkId,
      lane: c.lane,
      request: {
        method: 'POST',
        url: ctx.redactor.url(url),
        headers: ctx.redactor.headers({ 'content-type': 'application/grpc', te: 'trailers', ...metadata }),
        body: ctx.redactor.text(truncate(body, ctx.limits.previewBytes)),
        bodySize: new TextEncoder().encode(body).length,
      },
    });
    const timeoutMs = c.timeoutMs ?? ctx.limits.requestTimeoutMs;
    const dl = deadline(ctx, timeoutMs);
    const ctl = new AbortController();
    const onAbort = () => ctl.abort(dl.signal.reason);
    const onStop = () => ctl.abort(new Error('stopped'));
    dl.signal.addEventListener('abort', onAbort, { once: true });
    c.stopSignal?.addEventListener('abort', onStop, { once: true });
    const req = { url: c.url, method, message: c.message, metadata, timeoutMs, signal: ctl.signal };
    const grpc = ctx.host.grpc;
    // Credentials in metadata over a plaintext channel to another machine: not sent (http/insecure.ts).
    const insecure = insecureCredentialError(ctx, grpcAsHttpUrl(c.url), metadata);
    let res: GrpcResult;
    try {
      res = insecure
        ? emptyGrpcResult({ kind: 'tool', message: insecure.message })
        : !grpc
          ? NO_TRANSPORT
          : onMessage
            ? await grpc.serverStream(req, (m) => onMessage(m, ctx.host.now(), id))
            : await grpc.unary(req);
    } catch (e) {
      res = { ...NO_TRANSPORT, error: { kind: 'tool', message: `gRPC transport failed: ${e instanceof Error ? e.message : String(e)}` } };
    } finally {
      dl.cancel();
      dl.signal.removeEventListener('abort', onAbort);
      c.stopSignal?.removeEventListener('abort', onStop);
    }
    if (dl.timedOut() && res.error?.kind !== 'decode' && res.code === undefined) res = { ...res, error: { kind: 'timeout', message: `${timeoutMs} ms` } };
    const endedAt = ctx.host.now();
    const headers = new Headers();
    for (const [k, v] of Object.entries({ ...res.headers, ...res.trailers })) {
      try {
        headers.set(k, v);
      } catch {
        /* a value a Headers object refuses is left out of the record */
      }
    }
    if (res.code !== undefined) headers.set('grpc-status', String(res.code));
    const text = answerText(res, !!onMessage);
    const responded = res.responded || res.code !== undefined;
    const r: PartialResult = {
      exchangeId: id,
      url,
      responded,
      status: responded ? 200 : 0,
      headers,
      contentType: 'application/grpc',
      text,
      bytes: res.bytes,
      truncated: false,
      bom: false,
      invalidUtf8: false,
      error: insecure ?? transportError(res, ctx, c.stopSignal),
      startedAt,
      endedAt,
    };
    if (responded) ctx.answered?.add(c.url); // the interface itself (a gRPC URL has no web origin)
    ctx.emit({
      type: 'http-response',
      at: endedAt,
      exchangeId: id,
      response: responded
        ? {
            status: 200,
            headers: ctx.redactor.headers(headers),
            body: ctx.redactor.text(truncate(text, ctx.limits.previewBytes)),
            bodySize: res.bytes,
            truncated: false,
            stream: !!onMessage,
          }
        : undefined,
      error: r.error,
      timings: { startedAt, headersAt: responded ? endedAt : undefined, endedAt },
    });
    return { res, http: finish(r) };
  });
}

/** How gRPC answers are read: v1.0 ProtoJSON (the same shapes as v1.0 JSON-RPC / HTTP+JSON). */
const SPEAKER: Speaker = { generation: 'v1.0', binding: 'GRPC', shapeBinding: 'GRPC' };
/** Stream messages are bare StreamResponse objects, read like HTTP+JSON events. */
const STREAM_SPEAKER: Speaker = { generation: 'v1.0', binding: 'HTTP+JSON', shapeBinding: 'GRPC' };

/** Reads a unary answer as the CallOutcome of `op` (the message as a v1.0 result, or the status as an error). */
function grpcOutcome(res: GrpcResult, http: HttpResult, op: Operation): CallOutcome {
  if (res.error?.kind === 'decode')
    return { kind: 'invalid', reason: `the answer does not decode as the proto's message: ${res.error.message}`, http, envelopeProblems: [] };
  if (res.code === undefined) return { kind: 'transport', http, envelopeProblems: [] };
  if (res.code !== 0) return { kind: 'error', error: grpcError(res), http, envelopeProblems: [] };
  if (!res.messages.length) return { kind: 'invalid', reason: 'status OK without a response message', http, envelopeProblems: [] };
  // DeleteTaskPushNotificationConfig answers google.protobuf.Empty: `{}` is its success.
  return parseRest(SPEAKER, http, op);
}

/** One unary call of `op`. */
export async function grpcUnary(ctx: HttpContext, c: GrpcCall): Promise<CallOutcome> {
  const { res, http } = await grpcExchange(ctx, c);
  return grpcOutcome(res, http, c.op);
}

/** A server-streaming call of `op` (stream or subscribe) read into items; a final error status is the last item. */
export async function grpcStream(ctx: HttpContext, c: GrpcCall, onItem?: (i: StreamItem) => 'stop' | void): Promise<StreamRun> {
  const items: StreamItem[] = [];
  const gapsMs: number[] = [];
  let first: number | undefined;
  let last: number | undefined;
  let reason: StreamEndReason = 'closed';
  const stopCtl = new AbortController();
  c.stopSignal?.addEventListener('abort', () => stopCtl.abort(), { once: true });
  let idleTimer: AbortController | undefined;
  const armIdle = () => {
    idleTimer?.abort();
    const t = new AbortController();
    idleTimer = t;
    ctx.host.sleep(ctx.limits.streamIdleTimeoutMs, t.signal).then(
      () => {
        reason = 'idle';
        stopCtl.abort();
      },
      () => undefined,
    );
  };
  armIdle();
  const out = await grpcExchange(ctx, { ...c, stopSignal: stopCtl.signal }, (m, at, exchangeId): 'stop' | void => {
    if (first === undefined) first = at;
    if (last !== undefined) gapsMs.push(at - last);
    last = at;
    armIdle();
    const seq = items.length + 1;
    const data = JSON.stringify(m);
    const item = parseStreamEvent(STREAM_SPEAKER, { seq, at, data, event: undefined, id: undefined }, undefined);
    items.push(item);
    ctx.emit({
      type: 'sse-event',
      at,
      exchangeId,
      lane: c.lane,
      seq,
      data: ctx.redactor.text(truncate(data, 8192)),
      summary: [item.kind, item.state ?? ''].filter(Boolean).join(' '),
    });
    if (onItem?.(item) === 'stop') {
      reason = 'stopped';
      stopCtl.abort();
      return 'stop';
    }
    if (items.length >= ctx.limits.maxStreamEvents) {
      reason = 'limit';
      stopCtl.abort();
      return 'stop';
    }
  });
  idleTimer?.abort();
  const { res, http } = out;
  if (reason === 'closed') {
    if (c.stopSignal?.aborted) reason = 'stopped';
    else if (res.error?.kind === 'timeout') reason = 'timeout';
    else if (res.code === undefined || res.error) reason = 'error';
  }
  if (res.code !== undefined && res.code !== 0 && !(reason === 'stopped' && res.code === 1)) {
    const at = http.endedAt;
    const e = grpcError(res);
    items.push({ seq: items.length + 1, at, data: http.text, kind: 'error', error: e, problems: [] });
  }
  return {
    result: http,
    reason,
    events: items.length,
    firstEventMs: first === undefined ? undefined : first - http.startedAt,
    gapsMs,
    proxyCut: false,
    comments: 0,
    retries: [],
    parseErrors: [],
    ignoredLines: [],
    ignoredLineCount: 0,
    items,
  };
}

/** The call of `op` a Dialect makes over gRPC: its interface URL, the request message, its headers as metadata. */
export function grpcCallOf(
  d: { endpointUrl: string; headers(o: { anonymous?: boolean; headers?: Record<string, string>; omitHeaders?: string[] }): Record<string, string> },
  op: Operation,
  message: unknown,
  o: {
    lane: string;
    checkId?: string;
    timeoutMs?: number;
    stopSignal?: AbortSignal;
    anonymous?: boolean;
    headers?: Record<string, string>;
    omitHeaders?: string[];
  },
): GrpcCall {
  return { url: d.endpointUrl, op, message, headers: d.headers(o), lane: o.lane, checkId: o.checkId, timeoutMs: o.timeoutMs, stopSignal: o.stopSignal };
}
