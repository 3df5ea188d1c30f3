import { randomUUID } from 'node:crypto';
import { timerSleep, type GrpcTransport, type Host, type PreflightRequest, type PreflightResult, type WebhookInbox } from '../engine/ports';
import { createNodeInbox } from '../inbox/node';
import { withOriginBoundCredentials } from './redirects';

/**
 * The engine's host in Node (CLI, benchmarks, tests): global fetch straight to the agent. `inbox`: where push
 * deliveries are received; default an in-process inbox on an ephemeral 127.0.0.1 port (listening only while a push
 * check has an address open); `false` for none (the push delivery checks then skip). `grpc`: a transport (the CLI
 * passes src/grpc/lazy.ts lazyGrpc()) to call gRPC interfaces; without it they are reported as not testable.
 */
export function createNodeHost(
  opts: { fetch?: typeof fetch; grpc?: GrpcTransport; inbox?: WebhookInbox | false; allowInsecureCredentials?: boolean } = {},
): Host {
  const f = opts.fetch ?? globalThis.fetch;
  return {
    // Credentials over plain HTTP to another machine: only when the user says so (local testing; engine/http/insecure.ts).
    allowInsecureCredentials: opts.allowInsecureCredentials ?? /^(1|true|yes)$/i.test(process.env.A2A_ALLOW_INSECURE_CREDENTIALS ?? ''),
    // Redirects followed like the proxy does: credentials never go to another origin (./redirects.ts).
    fetch: withOriginBoundCredentials(f),
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID: () => randomUUID(),
    transport: 'direct',
    preflight: (req) => nodePreflight(f, req),
    ...(opts.grpc && { grpc: opts.grpc }),
    ...(opts.inbox !== false && { inbox: opts.inbox ?? createNodeInbox() }),
  };
}

/** CORS preflight from Node: fetch may set Origin and the Access-Control-Request-* headers. */
async function nodePreflight(f: typeof fetch, req: PreflightRequest): Promise<PreflightResult> {
  try {
    const res = await f(req.url, {
      method: 'OPTIONS',
      headers: {
        Origin: req.origin,
        'Access-Control-Request-Method': req.method,
        ...(req.headers.length ? { 'Access-Control-Request-Headers': req.headers.join(', ') } : {}),
      },
      signal: req.signal ?? AbortSignal.timeout(10_000),
    });
    await res.body?.cancel().catch(() => undefined);
    return { ok: true, status: res.status, headers: Object.fromEntries(res.headers) };
  } catch (e) {
    const err = e as { message?: string; cause?: { code?: string } };
    return { ok: false, error: `${err.message ?? String(e)}${err.cause?.code ? ` (${err.cause.code})` : ''}`, blame: 'unknown' };
  }
}
