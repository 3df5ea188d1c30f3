/** The gRPC bridge (bridge.ts) mounted on a node:http server: request in, streamed response out, closed on disconnect. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGrpcBridge, GRPC_BRIDGE_PATH, type GrpcBridgeOptions } from './bridge';

const MAX_BODY = 1024 * 1024;

export function createNodeGrpcBridgeMount(opts: GrpcBridgeOptions): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const handler = createGrpcBridge(opts);
  return async (req, res) => {
    if ((req.url ?? '/').split('?')[0] !== GRPC_BRIDGE_PATH) return false;
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req as AsyncIterable<Buffer>) {
      size += c.length;
      if (size > MAX_BODY) {
        res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'the request is larger than 1 MB' }));
        return true;
      }
      chunks.push(c);
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
      method: req.method,
      headers,
      body: req.method === 'POST' || req.method === 'PUT' ? Buffer.concat(chunks) : undefined,
      signal: ac.signal,
    });
    const response = await handler(request);
    if (!response) return false;
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (response.body) {
      const reader = response.body.getReader();
      while (!ac.signal.aborted) {
        const next = await reader.read();
        if (next.done) break;
        res.write(next.value);
      }
      await reader.cancel().catch(() => undefined);
    }
    res.end();
    return true;
  };
}
