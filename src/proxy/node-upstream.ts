/**
 * The Node transport for the proxy handler: node:http/https with keep-alive, a `lookup` that checks
 * every resolved address before connecting, a second check of the connected peer address, and
 * connect / first-byte timeouts with the phase that stalled (DNS, TCP, TLS, waiting for the head).
 * Bodies are streamed both ways; nothing is decompressed here (the handler decides).
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { abortError } from '../engine/ports.js';
import { UpstreamError, classifyUpstreamError } from './errors.js';
import type { UpstreamFetch, UpstreamRequest, UpstreamResponse } from './handler.js';
import { type AddressPolicy, type ProxyMode, addressRange, bareHost, defaultAddressPolicy, isIpLiteral, isPublicUnicast, portOf } from './policy.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}
/** Name resolution; tests inject one (e.g. a name that resolves to loopback). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface NodeUpstreamOptions {
  mode: ProxyMode;
  addressPolicy?: AddressPolicy;
  resolve?: Resolver;
  /** Extra TLS options for https targets (e.g. a test CA). */
  tls?: https.AgentOptions;
}

export type NodeUpstream = UpstreamFetch & { close(): void };

const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

type Phase = 'dns' | 'tcp' | 'tls' | 'head';

export function createNodeUpstream(opts: NodeUpstreamOptions): NodeUpstream {
  const policy = opts.addressPolicy ?? defaultAddressPolicy(opts.mode);
  const resolver = opts.resolve ?? systemResolver;
  // Idle sockets are dropped after 4 s, before common servers' 5 s keep-alive timeout closes them under us.
  const agentOpts = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32, timeout: 4_000 };
  const httpAgent = new http.Agent(agentOpts);
  const httpsAgent = new https.Agent({ ...agentOpts, ...opts.tls });

  const blockedMessage = (host: string, address: string, port: number) =>
    opts.mode === 'hosted'
      ? `${host} resolves to ${address} (${isPublicUnicast(address) ? `unicast, port ${port}` : addressRange(address) === 'unicast' ? 'reserved' : (addressRange(address) ?? 'unknown')}); a hosted proxy only reaches public unicast addresses.`
      : `${host} resolves to ${address}, which this proxy does not reach.`;

  const staleSocketErrors = new WeakSet<object>();

  const once = (req: UpstreamRequest, fresh: boolean): Promise<UpstreamResponse> =>
    new Promise<UpstreamResponse>((resolve, reject) => {
      const { url, timeouts } = req;
      const isHttps = url.protocol === 'https:';
      const hostname = bareHost(url);
      const port = portOf(url);
      let phase: Phase = isIpLiteral(hostname) ? 'tcp' : 'dns';
      let settled = false;
      let firstByteTimer: ReturnType<typeof setTimeout> | undefined;

      const lookup: LookupFunction = (host, options, cb) => {
        resolver(host).then(
          (addrs) => {
            const first = addrs[0];
            if (!first) {
              const e = Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
              cb(e, '', 0);
              return;
            }
            // Every address, not only the one tried first: a name must not smuggle a private address.
            const bad = addrs.find((a) => !policy(a.address, port));
            if (bad) {
              cb(new UpstreamError('target_blocked', blockedMessage(host, bad.address, port)), '', 0);
              return;
            }
            phase = 'tcp';
            if (options.all) cb(null, addrs);
            else cb(null, first.address, first.family);
          },
          (e: unknown) => cb(e as NodeJS.ErrnoException, '', 0),
        );
      };

      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => {
        headers[k] = v;
      });
      const body = req.body;
      if (body instanceof Uint8Array) headers['content-length'] = String(body.byteLength);
      else if (body && req.bodyLength !== undefined) headers['content-length'] = String(req.bodyLength);

      const r = (isHttps ? https : http).request({
        protocol: url.protocol,
        hostname,
        port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
        agent: fresh ? false : isHttps ? httpsAgent : httpAgent,
        lookup,
        setHost: true,
        ...(isHttps ? opts.tls : undefined),
      });

      const cleanup = () => {
        clearTimeout(connectTimer);
        clearTimeout(firstByteTimer);
        req.signal.removeEventListener('abort', onAbort);
      };
      const fail = (e: unknown) => {
        if (settled) return;
        settled = true;
        cleanup();
        r.destroy();
        reject(e);
      };
      const onAbort = () => {
        const reason: unknown = req.signal.reason;
        if (!settled) fail(reason instanceof UpstreamError ? reason : abortError(req.signal));
        else r.destroy();
      };
      if (req.signal.aborted) {
        fail(abortError(req.signal));
        return;
      }
      req.signal.addEventListener('abort', onAbort, { once: true });

      const connectTimer = setTimeout(() => {
        const ms = timeouts.connectMs;
        if (phase === 'dns') fail(new UpstreamError('dns_failed', `DNS lookup of ${hostname} did not finish within ${ms} ms.`));
        else if (phase === 'tls') fail(new UpstreamError('tls_failed', `The TLS handshake did not finish within ${ms} ms.`));
        else fail(new UpstreamError('connect_failed', `No TCP connection to ${hostname}:${port} within ${ms} ms.`));
      }, timeouts.connectMs);

      const connected = () => {
        clearTimeout(connectTimer);
        phase = 'head';
        firstByteTimer = setTimeout(
          () => fail(new UpstreamError('upstream_timeout', `The agent sent no response head within ${timeouts.firstByteMs} ms.`)),
          timeouts.firstByteMs,
        );
      };

      r.on('socket', (s: Socket) => {
        s.setNoDelay(true);
        const checkPeer = () => {
          // The address actually connected to, whatever resolved it (IP literals skip lookup).
          const peer = s.remoteAddress;
          if (peer && !policy(peer, port)) fail(new UpstreamError('target_blocked', blockedMessage(hostname, peer, port)));
        };
        if (!s.connecting) {
          checkPeer();
          connected();
          return;
        }
        s.once('connect', () => {
          checkPeer();
          if (isHttps) phase = 'tls';
          else connected();
        });
        if (isHttps) s.once('secureConnect', connected);
      });

      r.on('response', (res) => {
        clearTimeout(firstByteTimer);
        if (settled) {
          res.destroy();
          return;
        }
        settled = true;
        clearTimeout(connectTimer);
        const h = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
          try {
            h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
          } catch {
            /* a header value fetch cannot carry: dropped */
          }
        }
        const stream = incomingToWeb(res, {
          cancel: () => {
            req.signal.removeEventListener('abort', onAbort);
            res.destroy();
            r.destroy();
          },
          broken: (e) =>
            e instanceof UpstreamError
              ? e
              : new UpstreamError(
                  'upstream_reset',
                  `The agent closed the connection before the body was complete${e instanceof Error ? ` (${e.message})` : ''}.`,
                ),
        });
        // After the head, aborting means cancelling the body.
        resolve({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', headers: h, body: stream });
      });

      r.on('error', (e: NodeJS.ErrnoException) => {
        if (settled) return;
        if (r.reusedSocket && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) staleSocketErrors.add(e);
        fail(e);
      });

      writeBody(r, body).catch((e: unknown) => fail(e instanceof UpstreamError ? e : classifyUpstreamError(e)));
    });

  const fetchUpstream: UpstreamFetch = async (req) => {
    try {
      return await once(req, false);
    } catch (e) {
      // A kept-alive socket the server closed just as we reused it (the request never reached the
      // agent): retry once on a fresh connection when the body can be sent again.
      const replayable = req.body === null || req.body instanceof Uint8Array;
      if (replayable && !req.signal.aborted && typeof e === 'object' && e !== null && staleSocketErrors.has(e)) {
        try {
          return await once(req, true);
        } catch (e2) {
          throw e2 instanceof UpstreamError ? e2 : classifyUpstreamError(e2);
        }
      }
      throw e instanceof UpstreamError ? e : classifyUpstreamError(e);
    }
  };
  return Object.assign(fetchUpstream, {
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  });
}

async function writeBody(r: http.ClientRequest, body: UpstreamRequest['body']): Promise<void> {
  if (body === null) {
    r.end();
    return;
  }
  if (body instanceof Uint8Array) {
    r.end(body);
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (r.destroyed) return;
      if (!r.write(value)) await drained(r);
    }
    if (!r.destroyed) r.end();
  } catch (e) {
    r.destroy(e instanceof Error ? e : new Error(String(e)));
    throw e;
  }
}

/** Resolves when `w` can take more data again (or is gone). */
export function drained(w: Writable): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      w.off('drain', go);
      w.off('close', go);
      resolve();
    };
    w.on('drain', go);
    w.on('close', go);
  });
}

/**
 * An IncomingMessage (a response from the agent, or a request from the client) as a Web stream:
 * pauses the socket while the reader is behind, errors with `broken()` when the message ends early,
 * and calls `cancel()` when the reader gives up.
 */
export function incomingToWeb(msg: http.IncomingMessage, opts: { cancel(): void; broken(cause?: unknown): Error }): ReadableStream<Uint8Array> {
  let closed = false;
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        msg.on('data', (chunk: Buffer) => {
          if (closed) return;
          c.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((c.desiredSize ?? 0) <= 0) msg.pause();
        });
        msg.on('end', () => {
          if (closed) return;
          closed = true;
          c.close();
        });
        const broken = (e?: unknown) => {
          if (closed) return;
          closed = true;
          c.error(opts.broken(e));
        };
        msg.on('error', broken);
        msg.on('close', () => {
          if (!msg.complete) broken();
        });
        msg.pause();
      },
      pull() {
        msg.resume();
      },
      cancel() {
        closed = true;
        opts.cancel();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
