/**
 * Test and bench fixtures for the proxy: tiny servers on 127.0.0.1:0 that record what reached them,
 * and a raw HTTP client (node:http, so Host/Origin/framing are exactly what the test says).
 * Node-only; used by src/proxy/*.test.ts, src/hosts/browser.test.ts and bench/proxy.bench.ts.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createNodeProxy, type NodeProxy, type NodeProxyOptions } from './node.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  remotePort: number;
  /** The request ended before its body was complete, or the connection closed before our response ended. */
  aborted: boolean;
  at: number;
}

export interface Recorder {
  port: number;
  origin: string;
  url(path?: string): string;
  requests: SeenRequest[];
  /** TCP connections accepted. */
  connections: number;
  /** Resolves the next time a request's connection closes before its response ended. */
  nextAbort(): Promise<SeenRequest>;
  server: http.Server;
  close(): Promise<void>;
}

export function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

export function closeServer(server: net.Server): Promise<void> {
  return new Promise((resolve) => {
    (server as http.Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}

/**
 * An upstream ("agent") whose handler gets the request after its body was read (`req.body` string),
 * unless `streaming` is set (then the handler gets the raw request immediately).
 */
export async function startUpstream(
  handler: (req: http.IncomingMessage & { seen: SeenRequest }, res: http.ServerResponse) => void,
  opts: { streaming?: boolean; host?: string } = {},
): Promise<Recorder> {
  const requests: SeenRequest[] = [];
  const waiters: ((r: SeenRequest) => void)[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: '',
      remotePort: req.socket.remotePort ?? 0,
      aborted: false,
      at: performance.now(),
    };
    requests.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) {
        seen.aborted = true;
        for (const w of waiters.splice(0)) w(seen);
      }
    });
    const r = Object.assign(req, { seen });
    if (opts.streaming) {
      handler(r, res);
      return;
    }
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      seen.body += c;
    });
    req.on('end', () => handler(r, res));
    req.on('aborted', () => {
      seen.aborted = true;
    });
  });
  server.on('connection', () => connections++);
  const host = opts.host ?? '127.0.0.1';
  const port = await listen(server, host);
  const origin = `http://${host}:${port}`;
  return {
    port,
    origin,
    url: (path = '/') => `${origin}${path}`,
    requests,
    get connections() {
      return connections;
    },
    nextAbort: () => new Promise((resolve) => waiters.push(resolve)),
    server,
    close: () => closeServer(server),
  };
}

export interface ProxyServer {
  port: number;
  origin: string;
  proxy: NodeProxy;
  /** The proxied URL for a target. */
  url(target: string): string;
  server: http.Server;
  close(): Promise<void>;
}

/** An http server with only the Node proxy adapter mounted (404 for other paths, like the SPA server would). */
export async function startProxy(options: NodeProxyOptions): Promise<ProxyServer> {
  const proxy = createNodeProxy(options);
  const server = http.createServer((req, res) => {
    proxy(req, res).then(
      (handled) => {
        if (!handled) {
          res.statusCode = 404;
          res.end('not the proxy');
        }
      },
      () => res.destroy(),
    );
  });
  const port = await listen(server);
  const origin = `http://127.0.0.1:${port}`;
  return {
    port,
    origin,
    proxy,
    url: (target) => `${origin}/proxy?url=${encodeURIComponent(target)}`,
    server,
    close: async () => {
      proxy.close();
      await closeServer(server);
    },
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body ended with an error (connection dropped mid-body). */
  bodyError?: string;
}

/** One request with node:http: exact headers (Host, Origin...), body as one write or several timed chunks. */
export function rawRequest(
  port: number,
  path: string,
  opts: {
    method?: string;
    headers?: Record<string, string | string[]>;
    body?: string | Buffer;
    chunks?: { data: string | Buffer; delayMs?: number }[];
    agent?: http.Agent | false;
    timeoutMs?: number;
  } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers, agent: opts.agent ?? false, setHost: !hasHost(opts.headers) },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', (e) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bodyError: e.message }));
        res.on('close', () => {
          if (!res.complete) resolve({ status: res.statusCode ?? 0, headers: res.headers, body, bodyError: 'closed before complete' });
        });
      },
    );
    const t = setTimeout(() => req.destroy(new Error('rawRequest timed out')), opts.timeoutMs ?? 10_000);
    req.on('error', (e) => {
      clearTimeout(t);
      reject(e);
    });
    req.on('close', () => clearTimeout(t));
    if (opts.chunks) {
      void (async () => {
        for (const c of opts.chunks ?? []) {
          if (c.delayMs) await new Promise((r) => setTimeout(r, c.delayMs));
          if (req.destroyed) return;
          req.write(c.data);
        }
        req.end();
      })();
    } else {
      req.end(opts.body);
    }
  });
}

function hasHost(h: Record<string, string | string[]> | undefined): boolean {
  return Object.keys(h ?? {}).some((k) => k.toLowerCase() === 'host');
}

/** A TCP server that accepts connections and never says anything (a silent TLS peer, a hung agent). */
export async function startSilentTcp(): Promise<{ port: number; sockets: net.Socket[]; close(): Promise<void> }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => {
    sockets.push(s);
    s.on('error', () => undefined);
  });
  const port = await listen(server);
  return {
    port,
    sockets,
    close: () => {
      for (const s of sockets) s.destroy();
      return closeServer(server);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * A lock step between an agent and the reader of its stream, so that "relayed as it comes, not buffered" is shown by
 * the order of events instead of a stopwatch (which fails on a busy machine): the agent writes its next event only
 * once the reader has received the previous one (`await step.next()` after each write; `readLockStep` calls
 * `received()`). A relay that holds events back never delivers the first, so the agent never writes the second and
 * the read reports the stall.
 */
export function lockStep(): { next: () => Promise<void>; received: () => void } {
  let received = 0;
  let awaited = 0;
  const waiters = new Map<number, () => void>();
  return {
    next: () =>
      new Promise<void>((resolve) => {
        const n = ++awaited;
        if (received >= n) resolve();
        else waiters.set(n, resolve);
      }),
    received: () => {
      received++;
      waiters.get(received)?.();
      waiters.delete(received);
    },
  };
}

/** Reads an SSE body to its end in lock step with its agent (see lockStep): each event's text, or where it stalled. */
export async function readLockStep(
  body: ReadableStream<Uint8Array>,
  step: { received: () => void },
  stallMs = 10_000,
): Promise<{ events: string[]; stalled?: string }> {
  const events: string[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  for (;;) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stall = new Promise<'stall'>((resolve) => (timer = setTimeout(() => resolve('stall'), stallMs)));
    const r = await Promise.race([reader.read(), stall]);
    clearTimeout(timer);
    if (r === 'stall') {
      void reader.cancel().catch(() => undefined);
      return { events, stalled: `nothing arrived for ${stallMs} ms after event ${events.length} while the agent waited for it to be received` };
    }
    if (r.done) return { events };
    buf += decoder.decode(r.value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n\n')) >= 0) {
      events.push(buf.slice(0, i));
      buf = buf.slice(i + 2);
      step.received();
    }
  }
}
