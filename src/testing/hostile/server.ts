/**
 * The plumbing of the hostile-agent corpus: each behaviour is its own raw node:http (or node:net) server
 * on 127.0.0.1, port 0. Most stand in front of a spec-correct defect agent ("the upstream") and misbehave
 * on one side only (card, RPC or stream), forwarding everything else, so the rest of the suite still has
 * a correct agent to talk to.
 *
 * @example
 * const agent = await startHostileAgent('sse-flood');
 * await runConformance(createNodeHost(), { agentUrl: agent.url }, () => {});
 * await agent.close();
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import { startDefectAgent, type RunningDefectAgent, type StartDefectAgentOptions } from '../defect-agent';

/** The request as the behaviour sees it: the body is read (at most 1 MB) before the handler runs. */
export interface HostileRequest {
  req: IncomingMessage;
  method: string;
  path: string;
  body: string;
  /** The JSON-RPC envelope of a POST body, when it parses. */
  rpc?: { id: unknown; method?: string };
}

export type HostileHandler = (r: HostileRequest, res: ServerResponse) => void | Promise<void>;

/** Transforms applied to what the correct upstream agent answered. */
export interface Rewrite {
  /** A JSON body (JSON-RPC response, card). Return the new value. */
  json?: (value: unknown, r: HostileRequest) => unknown;
  /** One SSE event's parsed data. Return the payload(s) to send instead (an empty list drops the event). */
  event?: (value: unknown, r: HostileRequest) => unknown[];
}

export interface HostileKit {
  /** Our origin, e.g. `http://127.0.0.1:41234` (the card points here). */
  readonly origin: string;
  /** The correct agent behind us. */
  readonly upstream: RunningDefectAgent;
  /** Forwards the request to the upstream and relays its answer (optionally rewritten) with our origin in it. */
  forward(r: HostileRequest, res: ServerResponse, rewrite?: Rewrite): Promise<void>;
  /** Forwards and returns the upstream's complete answer as text (origin rewritten) instead of relaying it. */
  fetchText(r: HostileRequest): Promise<{ status: number; contentType: string; text: string }>;
  /**
   * Streams the upstream's answer through `write`: when the upstream answers with an event stream, `write`
   * gets its events (data strings, origin rewritten) and owns `res`; any other answer (an error) is relayed as is.
   */
  sse(r: HostileRequest, res: ServerResponse, write: (events: AsyncGenerator<string>) => Promise<void>): Promise<void>;
  /** The correct card, with our origin. */
  card(): Promise<Record<string, unknown>>;
  /** Timers cleared when the agent closes. */
  later(ms: number, fn: () => void): void;
  every(ms: number, fn: () => void): () => void;
  /** A second server on another host name (`localhost` instead of `127.0.0.1`), closed with this one. */
  sideServer(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string>;
  /** Free-form counters the behaviour reports (bytes sent, events written, requests seen). */
  readonly stats: Record<string, number>;
  /** Requests that reached side servers (for leak checks). */
  readonly sideRequests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[];
}

export interface HostileBehaviour {
  /** One sentence: what this agent does wrong. Agent-facing text only; never shown as HTML. */
  description: string;
  /** Where it misbehaves: the card, every RPC answer, only the streams, or the whole connection. */
  side: 'card' | 'rpc' | 'stream' | 'socket';
  /** The correct agent behind (default v1.0 JSON-RPC). Ignored by `socket` behaviours. */
  upstream?: Partial<StartDefectAgentOptions>;
  /** Builds the request handler; `socket` behaviours build a raw TCP listener instead. */
  make(kit: HostileKit): HostileHandler | { socket: (s: Socket) => void };
}

export interface RunningHostileAgent {
  name: string;
  /** The agent's base URL (discovery starts here). */
  url: string;
  kit?: HostileKit;
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 1024 * 1024;
const CARD_PATHS = new Set(['/.well-known/agent-card.json', '/.well-known/agent.json']);
const STREAM_METHODS = new Set(['SendStreamingMessage', 'SubscribeToTask', 'message/stream', 'tasks/resubscribe', 'tasks/sendSubscribe']);
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'date']);

export const isCardPath = (path: string) => CARD_PATHS.has(path.split('?')[0] ?? '');
export const isStreamRequest = (r: HostileRequest) => r.rpc?.method !== undefined && STREAM_METHODS.has(r.rpc.method);

function listen(server: net.Server, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Closes a server and every connection it holds (hostile behaviours keep sockets open on purpose). */
function closeServer(server: net.Server, sockets: Set<Socket>): Promise<void> {
  return new Promise((resolve) => {
    for (const s of sockets) s.destroy();
    (server as http.Server).closeAllConnections?.();
    server.close(() => resolve());
  });
}

function trackSockets(server: net.Server): Set<Socket> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    // A peer that resets mid-write must not crash the test process.
    s.on('error', () => undefined);
  });
  return sockets;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function rpcOf(body: string): HostileRequest['rpc'] {
  try {
    const v = JSON.parse(body) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      return { id: o.id, method: typeof o.method === 'string' ? o.method : undefined };
    }
  } catch {
    /* not JSON-RPC */
  }
  return undefined;
}

/** Starts one behaviour of the corpus on 127.0.0.1:0. */
export async function startHostile(name: string, behaviour: HostileBehaviour): Promise<RunningHostileAgent> {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const t of timers) clearTimeout(t);
    timers.clear();
    await Promise.all(closers.splice(0).map((c) => c().catch(() => undefined)));
  };

  if (behaviour.side === 'socket') {
    const made = behaviour.make(undefined as unknown as HostileKit);
    if (!('socket' in made)) throw new Error(`${name}: a socket behaviour must return { socket }`);
    const server = net.createServer(made.socket);
    const sockets = trackSockets(server);
    const port = await listen(server);
    closers.push(() => closeServer(server, sockets));
    return { name, url: `http://127.0.0.1:${port}`, close: closeAll };
  }

  const upstream = await startDefectAgent({ generation: 'v1.0', binding: 'JSONRPC', slowTaskMs: 300, stepMs: 10, ...behaviour.upstream });
  closers.push(() => upstream.close());
  const upOrigin = new URL(upstream.url).origin;
  let origin = '';
  const withOrigin = (s: string) => s.split(upOrigin).join(origin);
  const stats: Record<string, number> = {};
  const sideRequests: HostileKit['sideRequests'] = [];

  const upstreamFetch = (r: HostileRequest, signal?: AbortSignal) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(r.req.headers)) {
      if (typeof v === 'string' && !HOP_HEADERS.has(k) && k !== 'host') headers[k] = v;
    }
    return fetch(`${upOrigin}${r.path}`, {
      method: r.method,
      headers,
      body: r.method === 'GET' || r.method === 'HEAD' ? undefined : r.body,
      redirect: 'manual',
      signal,
    });
  };
  const copyHeaders = (from: Headers): Record<string, string> => {
    const out: Record<string, string> = {};
    from.forEach((v, k) => {
      if (!HOP_HEADERS.has(k)) out[k] = v;
    });
    return out;
  };

  /** The data of each SSE event of an upstream answer, until it ends or `res` (our client) closes. */
  async function* eventsOf(up: Response, res: ServerResponse): AsyncGenerator<string> {
    if (!up.body) return;
    const reader = up.body.getReader();
    const stop = () => void reader.cancel().catch(() => undefined);
    res.on('close', stop);
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const data = frame
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''))
            .join('\n');
          if (data) yield withOrigin(data);
        }
      }
    } catch {
      /* the client left or the upstream ended */
    } finally {
      res.off('close', stop);
      stop();
    }
  }

  async function relay(up: Response, r: HostileRequest, res: ServerResponse, json?: Rewrite['json']): Promise<void> {
    const contentType = up.headers.get('content-type') ?? '';
    let text = withOrigin(await up.text());
    if (json && /json/i.test(contentType)) {
      try {
        text = JSON.stringify(json(JSON.parse(text) as unknown, r));
      } catch {
        /* not JSON: relayed as is */
      }
    }
    res.writeHead(up.status, { ...copyHeaders(up.headers), 'content-length': String(Buffer.byteLength(text)) });
    res.end(r.method === 'HEAD' ? undefined : text);
  }

  const kit: HostileKit = {
    get origin() {
      return origin;
    },
    upstream,
    stats,
    sideRequests,
    async forward(r, res, rewrite = {}) {
      let up: Response;
      try {
        up = await upstreamFetch(r);
      } catch {
        res.destroy();
        return;
      }
      if (!/event-stream/i.test(up.headers.get('content-type') ?? '')) return relay(up, r, res, rewrite.json);
      res.writeHead(up.status, copyHeaders(up.headers));
      res.flushHeaders();
      for await (const data of eventsOf(up, res)) {
        let payloads: unknown[] = [data];
        if (rewrite.event) {
          try {
            payloads = rewrite.event(JSON.parse(data) as unknown, r).map((p) => JSON.stringify(p));
          } catch {
            /* not JSON: relayed as is */
          }
        }
        for (const p of payloads) res.write(`data: ${String(p)}\n\n`);
      }
      res.end();
    },
    async sse(r, res, write) {
      let up: Response;
      try {
        up = await upstreamFetch(r);
      } catch {
        res.destroy();
        return;
      }
      if (!/event-stream/i.test(up.headers.get('content-type') ?? '')) return relay(up, r, res);
      await write(eventsOf(up, res));
    },
    async fetchText(r) {
      const up = await upstreamFetch(r);
      return { status: up.status, contentType: up.headers.get('content-type') ?? '', text: withOrigin(await up.text()) };
    },
    async card() {
      const res = await fetch(`${upOrigin}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } });
      return JSON.parse(withOrigin(await res.text())) as Record<string, unknown>;
    },
    later(ms, fn) {
      const t = setTimeout(() => {
        timers.delete(t);
        fn();
      }, ms);
      timers.add(t);
    },
    every(ms, fn) {
      const t = setInterval(fn, ms);
      timers.add(t);
      return () => {
        clearInterval(t);
        timers.delete(t);
      };
    },
    async sideServer(handler) {
      const side = http.createServer((req, res) => {
        void readBody(req).then((body) => {
          sideRequests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
          handler(req, res, body);
        });
      });
      const sockets = trackSockets(side);
      const port = await listen(side);
      closers.push(() => closeServer(side, sockets));
      return `http://localhost:${port}`;
    },
  };

  const made = behaviour.make(kit);
  if ('socket' in made) throw new Error(`${name}: only socket behaviours may return { socket }`);
  const server = http.createServer((req, res) => {
    res.on('error', () => undefined);
    void readBody(req).then(async (body) => {
      const path = req.url ?? '/';
      const r: HostileRequest = { req, method: req.method ?? 'GET', path, body, rpc: req.method === 'POST' ? rpcOf(body) : undefined };
      try {
        await made(r, res);
      } catch {
        // A behaviour that throws (client gone mid-write) must not take the test process down.
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      }
    });
  });
  server.on('clientError', (_e, socket) => socket.destroy());
  const sockets = trackSockets(server);
  const port = await listen(server);
  origin = `http://127.0.0.1:${port}`;
  closers.unshift(() => closeServer(server, sockets));
  return { name, url: origin, kit, close: closeAll };
}
