/**
 * The conversation tap on Node's http server (the CLI's `a2a-interop tap` and the local server's `/tap/<id>/…`):
 * an IncomingMessage becomes a Web Request for `tap.handle`, and its Response is written back chunk by chunk as
 * it comes (a stream is never held back). A `Response.error()` from the tap (an injected connection reset) and a
 * body that fails mid-way (a stream the tap cut) destroy the socket, so the client sees a broken connection.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { drained } from '../proxy/node-upstream.js';
import { DEFAULT_TAP_LIMITS, type Tap } from '../engine/tap';

/** Reads a request body up to `max` bytes (undefined: over it). */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let n = 0;
    req.on('data', (c: Buffer) => {
      n += c.length;
      if (n > max) {
        req.pause();
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The bytes of a request body the tap reads at most (its default budget). */
const MAX_TAP_REQUEST_BYTES = DEFAULT_TAP_LIMITS.maxRequestBytes;

/**
 * The request as a Web Request (`origin` is where the client reached us, e.g. `http://127.0.0.1:4173`). Its body is
 * read first (the tap reads every request body whole anyway, to judge it): undefined when it is over `maxBytes`.
 */
async function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal, maxBytes = MAX_TAP_REQUEST_BYTES): Promise<Request | undefined> {
  const method = req.method ?? 'GET';
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      /* not representable in fetch Headers: dropped */
    }
  }
  const body = method === 'GET' || method === 'HEAD' ? null : await readBody(req, maxBytes);
  if (body === undefined) return undefined;
  return new Request(new URL(req.url ?? '/', origin), { method, headers, body: body?.length ? new Uint8Array(body) : null, signal });
}

const keepAlive = { keepAlive: true, maxSockets: 256, maxFreeSockets: 32, timeout: 4_000 };
const httpAgent = new http.Agent(keepAlive);
const httpsAgent = new https.Agent(keepAlive);

/**
 * A fetch over node:http (keep-alive), for the tap's requests to the agent: the same Web Request in and Response
 * out as global fetch, with less overhead per call; the answer's body streams as it arrives. Redirects are never
 * followed (the tap relays them).
 */
export function nodeFetch(req: Request): Promise<Response> {
  return new Promise((resolve, reject) => {
    const u = new URL(req.url);
    const secure = u.protocol === 'https:';
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => {
      headers[k] = v;
    });
    const out = (secure ? https : http).request(u, { method: req.method, headers, agent: secure ? httpsAgent : httpAgent, signal: req.signal }, (res) => {
      const h = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
        try {
          h.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        } catch {
          /* not representable: dropped */
        }
      }
      const status = res.statusCode ?? 502;
      const noBody = req.method === 'HEAD' || status === 204 || status === 205 || status === 304;
      if (noBody) res.resume();
      try {
        resolve(
          new Response(noBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status: status < 200 || status > 599 ? 502 : status,
            statusText: res.statusMessage ?? '',
            headers: h,
          }),
        );
      } catch (e) {
        res.destroy();
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
    out.on('error', reject);
    if (req.body) {
      req
        .arrayBuffer()
        .then((b) => {
          if (!out.headersSent) out.setHeader('content-length', b.byteLength);
          out.end(Buffer.from(b));
        })
        .catch((e: unknown) => out.destroy(e instanceof Error ? e : new Error(String(e))));
    } else out.end();
  });
}

/** Writes a Web Response to Node, streaming its body; destroys the socket for an error response or a broken body. */
async function writeWebResponse(res: ServerResponse, response: Response, onClose: (cancel: () => void) => void): Promise<void> {
  if (response.type === 'error') {
    res.socket?.destroy();
    res.destroy();
    return;
  }
  if (res.destroyed) {
    response.body?.cancel().catch(() => undefined);
    return;
  }
  res.statusCode = response.status;
  if (response.statusText && /^[\x20-\x7e]{1,200}$/.test(response.statusText)) res.statusMessage = response.statusText;
  response.headers.forEach((v, k) => {
    try {
      res.setHeader(k, v);
    } catch {
      /* invalid for Node: dropped */
    }
  });
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  onClose(() => void reader.cancel('client closed').catch(() => undefined));
  try {
    let next = reader.read();
    // The head goes out with the first chunk when it is already there, else at once (a stream's head is never held).
    const early = await Promise.race([next, new Promise<undefined>((r) => setImmediate(() => r(undefined)))]);
    if (early === undefined) res.flushHeaders();
    for (;;) {
      const { done, value } = await next;
      if (done) break;
      if (res.destroyed) return;
      if (!res.write(value)) await drained(res);
      next = reader.read();
    }
    if (!res.destroyed) res.end();
  } catch {
    // A body that broke off (the agent's, or a stream the tap cut): the client must see a broken connection, after
    // the bytes already relayed (destroying at once would drop what is still in the socket's buffer). The chunked
    // body never gets its last chunk, so no client can take it for complete.
    const socket = res.socket;
    if (!socket) {
      res.destroy();
      return;
    }
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  }
}

/** Serves one request with a tap whose base URL is `base` (ends with `/`). */
export async function serveTap(tap: Tap, req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  const client = new AbortController();
  let cancelBody: (() => void) | undefined;
  res.on('close', () => {
    if (res.writableFinished) return;
    client.abort(new Error('The client closed the connection.'));
    cancelBody?.();
  });
  let response: Response;
  try {
    const request = await toWebRequest(req, new URL(base).origin, client.signal);
    response = request
      ? await tap.handle(request, base)
      : new Response(JSON.stringify({ error: `the request body is over ${MAX_TAP_REQUEST_BYTES} bytes` }), {
          status: 413,
          headers: { 'content-type': 'application/json', connection: 'close' },
        });
  } catch {
    response = new Response(JSON.stringify({ error: 'the tap could not read this request' }), { status: 400, headers: { 'content-type': 'application/json' } });
  }
  await writeWebResponse(res, response, (cancel) => {
    cancelBody = cancel;
  });
}
