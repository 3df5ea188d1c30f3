/**
 * Writes a Web-standard Response to a Node ServerResponse, streaming its body without buffering. Shared by the
 * proxy's Node adapter (proxy/node.ts) and the conversation tap's (server/tap-node.ts): both relay an agent's answer
 * byte for byte, streams included.
 */
import type { ServerResponse } from 'node:http';
import { drained } from './node-upstream.js';

export interface WriteWebResponseOptions {
  /** Called with a way to stop reading the body (the client went away). */
  readonly onReader?: (cancel: () => void) => void;
  /** Ask the client to close the connection (a refused upload whose body was not read, so it is not drained). */
  readonly closeConnection?: boolean;
}

/**
 * Status, reason phrase (plain printable ASCII only: Node refuses anything else at write time), headers (those Node
 * refuses are dropped) and the body. The head goes out with the first chunk when it is already there (one packet for
 * small JSON answers), else at once, so a stream's head is never held back waiting for its first event. A body that
 * breaks off ends the socket after the bytes already relayed and then destroys it: the chunked body never gets its last
 * chunk, so no client can take it for complete, and nothing already relayed is dropped from the socket's buffer.
 */
export async function writeWebResponse(res: ServerResponse, response: Response, o: WriteWebResponseOptions = {}): Promise<void> {
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
  if (o.closeConnection) res.setHeader('connection', 'close');
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  o.onReader?.(() => void reader.cancel('client closed').catch(() => undefined));
  try {
    let next = reader.read();
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
    const socket = res.socket;
    if (!socket) {
      res.destroy();
      return;
    }
    socket.end();
    setTimeout(() => socket.destroy(), 1_000).unref();
  }
}
