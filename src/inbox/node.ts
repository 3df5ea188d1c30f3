/**
 * Node side of the webhook inbox: an adapter that mounts the Web handler in any node:http server (the `npm start`
 * server), and the CLI's in-process inbox (Host.inbox) that listens on an ephemeral 127.0.0.1 port while at least
 * one address is open, or behind a public URL that forwards to a fixed port (`--webhook-url`, `--webhook-port`).
 *
 * @example
 * const inbox = createNodeInbox();                 // http://127.0.0.1:<ephemeral>/inbox/<token>
 * const lease = await inbox.open({ expect: { token: 't-123' } });
 * // give lease.url to the agent, then:
 * const got = await lease.waitFor((d) => d.length > 0, 3000);
 * await lease.close();                            // the last close stops the listener
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InboxLease, WebhookInbox } from '../engine/model/inbox';
import { incomingToWeb } from '../proxy/node-upstream';
import { createInboxHandler, isInboxPath, type InboxHandler } from './handler';
import { InboxStore, storeLease, type InboxLimits } from './store';

export type NodeInboxMount = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { handler: InboxHandler };

/**
 * Mounts `handler` (or a fresh one) for requests under /inbox, resolving false for other paths; `anyPath` hands it
 * every request (a listener of its own, where a forwarder may keep a path prefix before /inbox/).
 */
export function createNodeInboxMount(handler: InboxHandler = createInboxHandler(), anyPath = false): NodeInboxMount {
  const mount = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://inbox.invalid').pathname;
    } catch {
      return false;
    }
    if (!anyPath && !isInboxPath(path)) return false;
    await serve(handler, req, res);
    return true;
  };
  return Object.assign(mount, { handler });
}

async function serve(handler: InboxHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const client = new AbortController();
  res.on('close', () => client.abort());
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      /* not representable in fetch Headers: dropped */
    }
  }
  const method = req.method ?? 'GET';
  let response: Response;
  try {
    const host = typeof req.headers.host === 'string' && /^[\w.:[\]-]{1,300}$/.test(req.headers.host) ? req.headers.host : 'inbox.invalid';
    const request = new Request(new URL(req.url ?? '/', `http://${host}`), {
      method,
      headers,
      body: method === 'GET' || method === 'HEAD' ? null : incomingToWeb(req, { cancel: () => req.resume(), broken: () => new Error('the sender went away') }),
      signal: client.signal,
      duplex: 'half',
    } as RequestInit & { duplex: 'half' });
    response = await handler(request, { clientAddress: req.socket.remoteAddress });
  } catch {
    response = new Response(JSON.stringify({ error: 'bad request' }), { status: 400, headers: { 'content-type': 'application/json' } });
  }
  if (res.destroyed) return;
  const body = Buffer.from(await response.arrayBuffer());
  const out: Record<string, string> = {};
  response.headers.forEach((v, k) => (out[k] = v));
  // A body we stopped reading: close rather than drain an unbounded upload.
  if (!req.complete) out.connection = 'close';
  res.writeHead(response.status, { ...out, 'content-length': String(body.byteLength) }).end(body);
}

export interface NodeInboxOptions {
  /** Listen address (default 127.0.0.1). */
  host?: string;
  /** Listen port (default 0: ephemeral). A fixed port keeps listening between addresses. */
  port?: number;
  /** Public base URL that forwards to the listener (`--webhook-url`); default `http://<host>:<port>`. */
  publicUrl?: string;
  limits?: Partial<InboxLimits>;
  /** Told the listening URL once it listens (the CLI prints it when a public URL must forward to it). */
  onListen?: (url: string) => void;
}

export type NodeInbox = WebhookInbox & {
  /** Stops listening and forgets every address. */
  close(): Promise<void>;
  /** The listener's URL while it listens. */
  listening(): string | undefined;
  store: InboxStore;
};

/** The CLI's inbox: in-process reads (no HTTP for the engine's side), a node:http listener for the agents. */
export function createNodeInbox(opts: NodeInboxOptions = {}): NodeInbox {
  const store = new InboxStore(opts.limits);
  const mount = createNodeInboxMount(createInboxHandler({ store }), true);
  const fixedPort = opts.port !== undefined && opts.port !== 0;
  let server: Server | undefined;
  let starting: Promise<string> | undefined;
  let leases = 0;

  const start = (): Promise<string> =>
    (starting ??= new Promise<string>((resolve, reject) => {
      const s = createServer((req, res) => {
        res.on('error', () => undefined);
        req.on('error', () => undefined);
        mount(req, res)
          .then((handled) => {
            if (!handled && !res.headersSent) res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
          })
          .catch(() => {
            if (!res.headersSent) res.writeHead(500).end();
            else res.destroy();
          });
      });
      s.on('clientError', (_e, socket) => socket.destroy());
      s.once('error', (e) => {
        starting = undefined;
        reject(e);
      });
      const host = opts.host ?? '127.0.0.1';
      s.listen(opts.port ?? 0, host, () => {
        server = s;
        const { port } = s.address() as AddressInfo;
        const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
        opts.onListen?.(url);
        resolve(url);
      });
    }));

  const stop = async () => {
    const s = server;
    server = undefined;
    starting = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  };

  return {
    store,
    listening: () => {
      const a = server?.address();
      return a && typeof a === 'object' ? `http://${opts.host ?? '127.0.0.1'}:${a.port}` : undefined;
    },
    async open({ expect } = {}): Promise<InboxLease> {
      leases++;
      let local: string;
      try {
        local = await start();
      } catch (e) {
        leases--;
        throw e;
      }
      const token = store.create(expect);
      if (!token) {
        if (--leases === 0 && !fixedPort) await stop();
        throw new Error('the inbox has too many open addresses');
      }
      const base = (opts.publicUrl ?? local).replace(/\/+$/, '');
      const lease = storeLease(store, token, `${base}/inbox/${token}`);
      let closed = false;
      return {
        ...lease,
        close: async () => {
          if (closed) return;
          closed = true;
          await lease.close();
          if (--leases === 0 && !fixedPort) await stop();
        },
      };
    },
    close: async () => {
      leases = 0;
      await stop();
    },
  };
}
