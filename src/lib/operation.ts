/** What an HTTP exchange did, for labels: the JSON-RPC method when there is one, else HTTP method and path. */

/** The JSON-RPC method named by a request body, if any (bounded: never scans huge bodies). */
export function rpcMethod(body: string | undefined): string | undefined {
  if (!body || body.length > 100_000) return undefined;
  return /"method"\s*:\s*"([^"]{1,80})"/.exec(body)?.[1];
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + (u.search ? '?…' : '');
  } catch {
    return url.slice(0, 80);
  }
}

/** `message/send · POST /a2a`, or `GET /.well-known/agent-card.json`: method first, so it is never the part cut off. */
export function operationOf(request: { method: string; url: string; body?: string }): string {
  const rpc = rpcMethod(request.body);
  const path = pathOf(request.url);
  return rpc ? `${rpc} · ${request.method} ${path}` : `${request.method} ${path}`;
}

/** A short name for charts: the JSON-RPC method, else HTTP method and path (REST bindings name the operation in the path). */
export function operationName(request: { method: string; url: string; body?: string }): string {
  return rpcMethod(request.body) ?? `${request.method} ${pathOf(request.url)}`;
}
