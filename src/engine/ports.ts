import type { WebhookInbox } from './model/inbox';

export type { InboxDelivery, InboxExpectation, InboxLease, WebhookInbox } from './model/inbox';

/**
 * The host port: everything the engine needs from the outside world.
 * The browser supplies a proxy-backed fetch, the CLI Node's fetch, tests a fake server and fake timers.
 *
 * @example
 * const host: Host = {
 *   fetch: (url, init) => fetch(url, init),
 *   now: () => Date.now(),
 *   sleep: (ms, signal) => timerSleep(ms, signal),
 *   randomUUID: () => crypto.randomUUID(),
 * };
 */
export interface Host {
  /**
   * Web-standard fetch to the *target* URL. A proxying host rewrites it; it must leave proxy failures
   * visible as `X-Proxy-Error` responses (see model/proxy.ts; decoded in http/transport-errors.ts) rather than throwing.
   */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** Wall clock in ms since the epoch. */
  now(): number;
  /** Resolves after `ms`, rejects with an AbortError when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  randomUUID(): string;
  /** Where the engine's requests go: `proxy` (through the CORS proxy) or `direct`. Informational. */
  transport?: 'proxy' | 'direct';
  /**
   * Credentials may go over plain HTTP to hosts other than this machine (local testing on a private network; the
   * CLI and MCP server: A2A_ALLOW_INSECURE_CREDENTIALS=1). Default: only https or loopback (http/insecure.ts).
   */
  allowInsecureCredentials?: boolean;
  /**
   * Sends a CORS preflight (OPTIONS with Origin and Access-Control-Request-*) to `url` and returns the
   * response head. Optional: a browser cannot send one by hand, so browser hosts implement it through the
   * proxy's diagnostic endpoint or leave it out (the browser-readiness checks then skip, saying why).
   */
  preflight?(req: PreflightRequest): Promise<PreflightResult>;
  /**
   * gRPC calls (the v1.0 gRPC binding). Optional: Node hosts speak gRPC with @grpc/grpc-js (src/grpc), the browser
   * host through the local server's bridge; without it gRPC interfaces are reported as not testable.
   */
  grpc?: GrpcTransport;
  /**
   * A webhook inbox the agent can POST push notifications to (src/inbox). Optional: without one the push delivery
   * checks skip, saying why. The CLI hosts one on an ephemeral 127.0.0.1 port (or behind `--webhook-url`), the
   * dashboard uses the local server's.
   */
  inbox?: WebhookInbox;
}

/**
 * One gRPC call, by full method name, with ProtoJSON messages in and out (the transport converts to and from
 * protobuf with the spec's a2a.proto). Never throws: every failure is in the result.
 */
export interface GrpcTransport {
  unary(req: GrpcRequest): Promise<GrpcResult>;
  /** A server-streaming call; `onMessage` sees each message as it arrives (return `'stop'` to cancel the call). */
  serverStream(req: GrpcRequest, onMessage: (message: unknown) => 'stop' | void): Promise<GrpcResult>;
}

export interface GrpcRequest {
  /** The interface URL as the card declares it (`host:port`, `grpc://`, `grpcs://`, `http://`, `https://`). */
  url: string;
  /** Full method name, e.g. `/lf.a2a.v1.A2AService/SendMessage`. */
  method: string;
  /** The request message as ProtoJSON. */
  message: unknown;
  /** Metadata (A2A-Version, credentials, extensions); keys are sent lower-case. */
  metadata: Record<string, string>;
  /** Deadline of the whole call, ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface GrpcResult {
  /** gRPC status code (0 = OK); absent when no status arrived (see `error`). */
  code?: number;
  /** The status code's name, e.g. `NOT_FOUND`. */
  status?: string;
  /** The status message. */
  statusMessage: string;
  /** google.rpc.Status details (from `grpc-status-details-bin`) as ProtoJSON with `@type`, when decodable. */
  details: unknown[];
  /** Response messages as ProtoJSON (a unary call: at most one). */
  messages: unknown[];
  /** Response headers and trailers (binary values left out). */
  headers: Record<string, string>;
  trailers: Record<string, string>;
  /** The agent sent response headers (it was reached and answered). */
  responded: boolean;
  /**
   * A failure that is not a status from the agent: `connect` (never reached), `timeout` (our deadline), `aborted`
   * (our stop), `decode` (bytes that do not parse as the proto's message), `tool` (our own failure, e.g. a URL we
   * cannot use or the bridge failing). The agent is blamed only for `decode`.
   */
  error?: { kind: 'connect' | 'timeout' | 'aborted' | 'decode' | 'tool'; message: string };
  /** Bytes of the response messages. */
  bytes: number;
}

/** A GrpcResult with nothing from the agent (yet): every transport's starting point, and a failure's whole answer. */
export const emptyGrpcResult = (error?: GrpcResult['error']): GrpcResult => ({
  statusMessage: '',
  details: [],
  messages: [],
  headers: {},
  trailers: {},
  responded: false,
  bytes: 0,
  ...(error ? { error } : {}),
});

export interface PreflightRequest {
  url: string;
  origin: string;
  method: string;
  headers: string[];
  signal?: AbortSignal;
}

export type PreflightResult = { ok: true; status: number; headers: Record<string, string> } | { ok: false; error: string; blame: 'agent' | 'tool' | 'unknown' };

/** A sleep built on the global timers; hosts may use it. Honors the abort signal. */
export function timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function abortError(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  const e = new Error(typeof reason === 'string' ? reason : 'aborted');
  e.name = 'AbortError';
  return e;
}

export const isAbortError = (e: unknown): boolean => e instanceof Error && (e.name === 'AbortError' || e.name === 'TimeoutError');
