/**
 * The conversation tap on Node's http server (the CLI's `a2a-interop tap` and the local server's `/tap/<id>/…`):
 * an IncomingMessage becomes a Web Request for `tap.handle`, and its Response is written back chunk by chunk as
 * it comes (a stream is never held back). A `Response.error()` from the tap (an injected connection reset) and a
 * body that fails mid-way (a stream the tap cut) destroy the socket, so the client sees a broken connection.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { writeWebResponse } from '../proxy/node-response.js';
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
  await writeWebResponse(res, response, { onReader: (cancel) => (cancelBody = cancel) });
}
