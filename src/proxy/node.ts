/**
 * Node adapter: mounts the proxy handler in any node:http server (the `npm start` server, Vite dev and
 * preview). Streams both ways without buffering and aborts the upstream request when the client goes.
 *
 * @example
 * const proxy = createNodeProxy({ mode: 'local' });
 * http.createServer(async (req, res) => {
 *   if (await proxy(req, res)) return; // handled /proxy and /proxy/*
 *   serveSpa(req, res);
 * }).listen(4173, '127.0.0.1');
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problemResponse } from './errors.js';
import { createProxyHandler, type ProxyConfig, type ProxyHandler, type ProxyLimits, type ProxyTimeouts } from './handler.js';
import { writeWebResponse } from './node-response.js';
import { createNodeUpstream, incomingToWeb, type Resolver } from './node-upstream.js';
import type { AddressPolicy } from './policy.js';

export interface NodeProxyOptions {
  mode: 'local' | 'hosted';
  /** Extra Host names accepted besides loopback/localhost (local), or the only ones (hosted). */
  allowedHosts?: string[];
  /** SPA origins allowed cross-origin, exact match (e.g. the Vite dev server using the npm start proxy). */
  allowedOrigins?: string[];
  timeouts?: Partial<ProxyTimeouts>;
  limits?: Partial<ProxyLimits>;
  rateLimit?: ProxyConfig['rateLimit'];
  /** Which resolved/connected addresses may be reached (default: any when local, public unicast when hosted). */
  addressPolicy?: AddressPolicy;
  /** Name resolution (default: the system resolver, every address checked). */
  resolve?: Resolver;
  version?: string;
}

export type NodeProxy = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & {
  /** The Web-standard handler inside (for tests and other adapters). */
  handler: ProxyHandler;
  /** Closes kept-alive upstream sockets. */
  close(): void;
};

/** True when `rawUrl` (a request target as Node gives it) is under /proxy. */
function isProxyRequestUrl(rawUrl: string | undefined): boolean {
  if (!rawUrl) return false;
  try {
    const p = new URL(rawUrl, 'http://proxy.invalid').pathname;
    return p === '/proxy' || p.startsWith('/proxy/');
  } catch {
    return false;
  }
}

export function createNodeProxy(options: NodeProxyOptions): NodeProxy {
  const upstream = createNodeUpstream({ mode: options.mode, addressPolicy: options.addressPolicy, resolve: options.resolve });
  const handler = createProxyHandler({
    mode: options.mode,
    upstream,
    upstreamEnforcesTimeouts: true,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    timeouts: options.timeouts,
    limits: options.limits,
    rateLimit: options.rateLimit,
    addressPolicy: options.addressPolicy,
    version: options.version,
  });
  const proxy = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (!isProxyRequestUrl(req.url)) return false;
    await serve(handler, req, res);
    return true;
  };
  return Object.assign(proxy, { handler, close: () => upstream.close() });
}

async function serve(handler: ProxyHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const client = new AbortController();
  let cancelBody: (() => void) | undefined;
  res.on('close', () => {
    if (res.writableFinished) return;
    // The client went away: abort the upstream request and stop relaying.
    client.abort(new Error('The client closed the connection.'));
    cancelBody?.();
  });

  const method = req.method ?? 'GET';
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      /* not representable in fetch Headers: dropped */
    }
  }
  let response: Response;
  try {
    const request = new Request(new URL(req.url ?? '/', 'http://proxy.invalid'), {
      method,
      headers,
      // Cancelling drains instead of destroying: the response still has to go out on this socket.
      body:
        method === 'GET' || method === 'HEAD'
          ? null
          : incomingToWeb(req, {
              cancel: () => req.resume(),
              broken: (e) => (e instanceof Error ? e : new Error('The client closed the connection during the request body.')),
            }),
      signal: client.signal,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    response = await handler(request, { clientAddress: req.socket.remoteAddress });
  } catch (e) {
    // Methods fetch refuses (TRACE, CONNECT) and malformed targets end here.
    response = problemResponse('bad_target', `The request could not be proxied (${e instanceof Error ? e.message : 'invalid request'}).`, {
      status: e instanceof TypeError && /method/i.test(e.message) ? 405 : 400,
    });
  }
  await writeWebResponse(res, response, {
    onReader: (cancel) => (cancelBody = cancel),
    // A refused request whose body was not read: close instead of draining an unbounded upload.
    closeConnection: !req.complete && response.headers.has('x-proxy-error'),
  });
}
