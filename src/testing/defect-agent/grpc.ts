/**
 * The test agent's gRPC binding: a gRPC server (its own 127.0.0.1 port) in front of a v1.0 JSON-RPC endpoint. Each
 * call is forwarded as the JSON-RPC method of the same name (v1.0 JSON-RPC params are the ProtoJSON of the proto's
 * request messages), the result sent back as the response message, a JSON-RPC error as a gRPC status with a
 * google.rpc.ErrorInfo (v1.0.1 §5.4, §10.6), streams relayed event by event. `variant: 'differs'` makes the gRPC
 * binding answer SendMessage with a Message where the JSON-RPC binding makes a Task (interop.bindings must fail);
 * `variant: 'bare-errors'` sends every error as INTERNAL without details (errors.grpc-status must fail). Permitted:
 * `v100-statuses` answers the errors v1.0.0's table maps to UNIMPLEMENTED with that status (reasons kept);
 * `error-details` puts a google.rpc.LocalizedMessage before the ErrorInfo and gives the ErrorInfo metadata.
 */
import * as grpc from '@grpc/grpc-js';
import { createParser } from 'eventsource-parser';
import { A2A_SERVICE, decodeJson, encodeJson, lookupType } from '../../grpc/protojson';

export interface GrpcFront {
  /** The interface URL a card declares: `127.0.0.1:<port>`. */
  url: string;
  /** gRPC methods called, in order. */
  calls: string[];
  close(): Promise<void>;
}

export type GrpcFrontVariant = 'faithful' | 'differs' | 'bare-errors' | 'v100-statuses' | 'error-details';

export interface GrpcFrontOptions {
  /** The v1.0 JSON-RPC endpoint the calls are forwarded to (a function: read at each call, for an agent started after the front). */
  jsonRpcUrl: string | (() => string);
  /** `differs`: SendMessage answers a Message; `bare-errors`: errors as INTERNAL without ErrorInfo. A function is read at each call. */
  variant?: GrpcFrontVariant | (() => GrpcFrontVariant);
}

/** JSON-RPC error code -> gRPC status (v1.0.1 §5.4) and ErrorInfo reason. */
const MAP: Record<number, [grpc.status, string | undefined]> = {
  [-32001]: [grpc.status.NOT_FOUND, 'TASK_NOT_FOUND'],
  [-32002]: [grpc.status.FAILED_PRECONDITION, 'TASK_NOT_CANCELABLE'],
  [-32003]: [grpc.status.FAILED_PRECONDITION, 'PUSH_NOTIFICATION_NOT_SUPPORTED'],
  [-32004]: [grpc.status.FAILED_PRECONDITION, 'UNSUPPORTED_OPERATION'],
  [-32005]: [grpc.status.INVALID_ARGUMENT, 'CONTENT_TYPE_NOT_SUPPORTED'],
  [-32006]: [grpc.status.INTERNAL, 'INVALID_AGENT_RESPONSE'],
  [-32007]: [grpc.status.FAILED_PRECONDITION, 'EXTENDED_AGENT_CARD_NOT_CONFIGURED'],
  [-32008]: [grpc.status.FAILED_PRECONDITION, 'EXTENSION_SUPPORT_REQUIRED'],
  [-32009]: [grpc.status.FAILED_PRECONDITION, 'VERSION_NOT_SUPPORTED'],
  [-32601]: [grpc.status.UNIMPLEMENTED, undefined],
  [-32602]: [grpc.status.INVALID_ARGUMENT, undefined],
};

/** The v1.0.0 §5.4 table's statuses where v1.0.1 changed them (variant `v100-statuses`). */
const V100: Record<number, grpc.status> = { [-32003]: grpc.status.UNIMPLEMENTED, [-32004]: grpc.status.UNIMPLEMENTED, [-32009]: grpc.status.UNIMPLEMENTED };

const STATUS = lookupType('google.rpc.Status');
const ERROR_INFO = lookupType('google.rpc.ErrorInfo');
const LOCALIZED = lookupType('google.rpc.LocalizedMessage');

function statusError(e: { code?: unknown; message?: unknown }, variant: GrpcFrontVariant = 'faithful'): Partial<grpc.StatusObject> {
  if (variant === 'bare-errors') return { code: grpc.status.INTERNAL, details: String(e.message ?? 'error') };
  const n = typeof e.code === 'number' ? e.code : 0;
  const [mapped, reason] = MAP[n] ?? [grpc.status.INTERNAL, undefined];
  const code = (variant === 'v100-statuses' ? V100[n] : undefined) ?? mapped;
  const details = String(e.message ?? 'error');
  const metadata = new grpc.Metadata();
  if (reason && STATUS && ERROR_INFO && LOCALIZED) {
    const extra = variant === 'error-details';
    const info = encodeJson(ERROR_INFO, { reason, domain: 'a2a-protocol.org', ...(extra && { metadata: { timestamp: new Date().toISOString() } }) });
    const all = [
      ...(extra ? [{ type_url: 'type.googleapis.com/google.rpc.LocalizedMessage', value: encodeJson(LOCALIZED, { locale: 'en-US', message: details }) }] : []),
      { type_url: 'type.googleapis.com/google.rpc.ErrorInfo', value: info },
    ];
    metadata.set('grpc-status-details-bin', Buffer.from(encodeJson(STATUS, { code, message: details, details: all })));
  }
  return { code, details, metadata };
}

type RpcError = { code?: unknown; message?: unknown };
type Status = Partial<grpc.StatusObject> & { code: grpc.status };
const REFUSED: Partial<Record<number, grpc.status>> = {
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  429: grpc.status.RESOURCE_EXHAUSTED,
};

/**
 * The JSON-RPC endpoint's answer: its JSON-RPC body, or the gRPC status of an answer without one (v1.0.1 §3.3.2:
 * 401 UNAUTHENTICATED, 403 PERMISSION_DENIED; a rate limit RESOURCE_EXHAUSTED; a body that is not JSON, such as an
 * HTML error page, is the server failing: INTERNAL).
 */
async function answerOf(r: Response): Promise<{ body: { result?: unknown; error?: RpcError } } | { status: Status }> {
  const refused = REFUSED[r.status];
  const text = await r.text();
  if (refused !== undefined) return { status: { code: refused, details: `HTTP ${r.status}` } };
  try {
    return { body: JSON.parse(text) as { result?: unknown; error?: RpcError } };
  } catch {
    // A crash behind the front: UNKNOWN, what gRPC libraries answer when a handler throws (INTERNAL is InternalError's status).
    return { status: { code: grpc.status.UNKNOWN, details: `HTTP ${r.status}: the answer is not JSON` } };
  }
}

const headersOf = (md: grpc.Metadata): Record<string, string> => {
  const h: Record<string, string> = { 'Content-Type': 'application/json' };
  for (const [k, v] of Object.entries(md.getMap())) if (typeof v === 'string' && !k.startsWith('grpc-') && k !== 'user-agent') h[k] = v;
  return h;
};

/** Starts the gRPC front on 127.0.0.1 (ephemeral port). */
export async function startGrpcFront(opts: GrpcFrontOptions): Promise<GrpcFront> {
  const server = new grpc.Server();
  const calls: string[] = [];
  const variant = () => (typeof opts.variant === 'function' ? opts.variant() : (opts.variant ?? 'faithful'));
  const target = () => (typeof opts.jsonRpcUrl === 'function' ? opts.jsonRpcUrl() : opts.jsonRpcUrl);
  let seq = 0;
  const rpc = (method: string, params: unknown, md: grpc.Metadata, stream: boolean, signal?: AbortSignal) =>
    fetch(target(), {
      method: 'POST',
      signal,
      headers: { ...headersOf(md), Accept: stream ? 'text/event-stream' : 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++seq, method, params }),
    });
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [name, m] of Object.entries(A2A_SERVICE.methods)) {
    m.resolve();
    const req = m.resolvedRequestType;
    const res = m.resolvedResponseType;
    if (!req || !res) continue;
    definition[name] = {
      path: `/lf.a2a.v1.A2AService/${name}`,
      requestStream: false,
      responseStream: !!m.responseStream,
      requestSerialize: (v: unknown) => Buffer.from(encodeJson(req, v)),
      requestDeserialize: (b: Buffer) => decodeJson(req, b),
      responseSerialize: (v: unknown) => Buffer.from(encodeJson(res, v)),
      responseDeserialize: (b: Buffer) => decodeJson(res, b),
    };
    impl[name] = m.responseStream
      ? (call: grpc.ServerWritableStream<unknown, unknown>) => {
          calls.push(name);
          void relayStream(name, call);
        }
      : (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
          calls.push(name);
          const v = variant();
          if (name === 'SendMessage' && v === 'differs') {
            cb(null, { message: { messageId: `grpc-${seq++}`, role: 'ROLE_AGENT', parts: [{ text: 'Over gRPC I only chat: no task.' }] } });
            return;
          }
          rpc(name, call.request, call.metadata, false)
            .then(answerOf)
            .then((a) => ('status' in a ? cb(a.status, null) : a.body.error ? cb(statusError(a.body.error, v), null) : cb(null, a.body.result ?? {})))
            .catch((e: unknown) => cb({ code: grpc.status.UNAVAILABLE, details: String(e) }, null));
        };
  }

  async function relayStream(name: string, call: grpc.ServerWritableStream<unknown, unknown>) {
    const v = variant();
    // The client went away: so does the front's SSE request (the agent sees the disconnect, as over HTTP).
    const ac = new AbortController();
    call.on('cancelled', () => ac.abort());
    try {
      const r = await rpc(name, call.request, call.metadata, true, ac.signal);
      if (!/event-stream/.test(r.headers.get('content-type') ?? '') || r.status >= 400) {
        const a = await answerOf(r);
        call.emit('error', 'status' in a ? a.status : statusError(a.body.error ?? {}, v));
        return;
      }
      let failed = false;
      const parser = createParser({
        onEvent: (ev) => {
          if (failed) return;
          let msg: { result?: unknown; error?: RpcError };
          try {
            msg = JSON.parse(ev.data) as { result?: unknown; error?: RpcError };
          } catch {
            failed = true;
            call.emit('error', { code: grpc.status.INTERNAL, details: 'a stream event of the agent is not JSON' });
            return;
          }
          if (msg.error) {
            failed = true;
            call.emit('error', statusError(msg.error, v));
          } else call.write(msg.result);
        },
      });
      const decoder = new TextDecoder();
      const reader = r.body?.getReader();
      while (reader && !call.cancelled && !failed) {
        const next = await reader.read();
        if (next.done) break;
        parser.feed(decoder.decode(next.value, { stream: true }));
      }
      await reader?.cancel().catch(() => undefined);
      if (!failed) call.end();
    } catch (e) {
      if (!call.cancelled) call.emit('error', { code: grpc.status.UNAVAILABLE, details: String(e) });
    }
  }

  server.addService(definition, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return {
    url: `127.0.0.1:${port}`,
    calls,
    // Calls still open (a stream the client never read to its end) would hold a graceful shutdown: forced after 1 s.
    close: () =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 1000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
