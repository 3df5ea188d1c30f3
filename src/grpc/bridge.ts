/**
 * The gRPC bridge of the local server (POST /grpc-bridge): a browser cannot speak gRPC, so the dashboard's host
 * (src/hosts/browser.ts) sends each call here as JSON and the server makes it with the Node transport. A Web-standard
 * fetch handler, like the proxy's.
 *
 * Request: `{ url, method, message, metadata, timeoutMs, stream? }` (the engine's GrpcRequest). Answer: a unary
 * call's GrpcResult as JSON; a streaming call as an event stream of `message` events (one per response message)
 * and one final `result` event (the GrpcResult). Policy: only in local mode (a hosted server answers 403: gRPC
 * needs the local server, since a hosted bridge would be an open relay to any host:port), only for this server's
 * own origin (or the configured ones) and loopback Host names (no DNS rebinding), JSON bodies of at most 1 MB, and
 * methods of the A2A service only.
 */
import type { GrpcRequest, GrpcResult, GrpcTransport } from '../engine/ports';
import { classifyOrigin, isAllowedLocalHost, type ProxyMode } from '../proxy/policy';

export const GRPC_BRIDGE_PATH = '/grpc-bridge';
const MAX_BODY = 1024 * 1024;
const MAX_TIMEOUT_MS = 300_000;

export interface GrpcBridgeOptions {
  transport: GrpcTransport;
  mode: ProxyMode;
  allowedOrigins?: readonly string[];
  allowedHosts?: readonly string[];
}

export const HOSTED_GRPC_MESSAGE = 'gRPC needs the local server (npm start or the CLI): a hosted dashboard cannot call gRPC agents.';

const problem = (status: number, error: string) => new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

function parseCall(v: unknown): (GrpcRequest & { stream: boolean }) | string {
  if (typeof v !== 'object' || v === null) return 'the body must be a JSON object';
  const o = v as Record<string, unknown>;
  if (typeof o.url !== 'string' || !o.url || o.url.length > 2048) return '"url" must be the interface URL';
  if (typeof o.method !== 'string' || !/^\/lf\.a2a\.v1\.A2AService\/[A-Za-z]+$/.test(o.method)) return '"method" must be a method of lf.a2a.v1.A2AService';
  const md = o.metadata ?? {};
  if (typeof md !== 'object' || md === null || Object.values(md).some((x) => typeof x !== 'string')) return '"metadata" must map names to strings';
  const timeoutMs = typeof o.timeoutMs === 'number' && o.timeoutMs > 0 ? Math.min(o.timeoutMs, MAX_TIMEOUT_MS) : 30_000;
  return { url: o.url, method: o.method, message: o.message ?? {}, metadata: md as Record<string, string>, timeoutMs, stream: o.stream === true };
}

/** The bridge: undefined for requests that are not its own (other paths). */
export function createGrpcBridge(opts: GrpcBridgeOptions): (req: Request) => Promise<Response | undefined> {
  return async (req) => {
    const url = new URL(req.url);
    if (url.pathname !== GRPC_BRIDGE_PATH) return undefined;
    if (opts.mode === 'hosted') return problem(403, HOSTED_GRPC_MESSAGE);
    if (req.method !== 'POST') return problem(405, 'POST only');
    const host = req.headers.get('host') ?? url.host;
    if (!isAllowedLocalHost(host, opts.allowedHosts ?? [])) return problem(403, 'this Host name may not use the gRPC bridge');
    if (classifyOrigin(req.headers.get('origin'), host, opts.allowedOrigins ?? []) === 'foreign')
      return problem(403, 'this origin may not use the gRPC bridge');
    if (!/^application\/json\b/i.test(req.headers.get('content-type') ?? '')) return problem(415, 'send application/json');
    const text = await req.text();
    if (text.length > MAX_BODY) return problem(413, 'the request is larger than 1 MB');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return problem(400, 'the body is not JSON');
    }
    const call = parseCall(body);
    if (typeof call === 'string') return problem(400, call);
    const { stream, ...grpcReq } = call;
    const request: GrpcRequest = { ...grpcReq, signal: req.signal };
    if (!stream) return Response.json(await opts.transport.unary(request));
    const enc = new TextEncoder();
    const out = new ReadableStream<Uint8Array>({
      start: (ctl) => {
        const send = (event: string, data: unknown) => {
          try {
            ctl.enqueue(enc.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
          } catch {
            /* the browser went away */
          }
        };
        opts.transport
          .serverStream(request, (m) => send('message', m))
          .then((r: GrpcResult) => send('result', r))
          .finally(() => {
            try {
              ctl.close();
            } catch {
              /* already closed */
            }
          });
      },
    });
    return new Response(out, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' } });
  };
}
