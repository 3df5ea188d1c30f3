/**
 * The conversation tap on Node's http server (the CLI's `a2a-interop tap` and the local server's `/tap/<id>/…`):
 * an IncomingMessage becomes a Web Request for `tap.handle`, and its Response is written back chunk by chunk as
 * it comes (a stream is never held back). A `Response.error()` from the tap (an injected connection reset) and a
 * body that fails mid-way (a stream the tap cut) destroy the socket, so the client sees a broken connection.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drained, incomingToWeb } from '../proxy/node-upstream.js';
import type { Tap } from '../engine/tap';

/** The request as a Web Request (`origin` is where the client reached us, e.g. `http://127.0.0.1:4173`). */
export function toWebRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Request {
  const method = req.method ?? 'GET';
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      /* not representable in fetch Headers: dropped */
    }
  }
  return new Request(new URL(req.url ?? '/', origin), {
    method,
    headers,
    body:
      method === 'GET' || method === 'HEAD'
        ? null
        : incomingToWeb(req, {
            cancel: () => req.resume(),
            broken: (e) => (e instanceof Error ? e : new Error('The client closed the connection during the request body.')),
          }),
    signal,
    duplex: 'half',
  } as RequestInit & { duplex: 'half' });
}

/** Writes a Web Response to Node, streaming its body; destroys the socket for an error response or a broken body. */
export async function writeWebResponse(res: ServerResponse, response: Response, onClose: (cancel: () => void) => void): Promise<void> {
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
    response = await tap.handle(toWebRequest(req, new URL(base).origin, client.signal), base);
  } catch {
    response = new Response(JSON.stringify({ error: 'the tap could not read this request' }), { status: 400, headers: { 'content-type': 'application/json' } });
  }
  await writeWebResponse(res, response, (cancel) => {
    cancelBody = cancel;
  });
}
