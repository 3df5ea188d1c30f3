/** What an HTTP exchange did, for labels: the JSON-RPC method when there is one, else HTTP method and path. */
import type { Generation } from '../engine/model/check';
import { methodName, OPERATIONS, restRoute, type Operation } from '../engine/protocol/operations';

/** The JSON-RPC method named by a request body, if any (bounded: never scans huge bodies). */
function rpcMethod(body: string | undefined): string | undefined {
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

const OPS = Object.keys(OPERATIONS) as Operation[];
/** Routes with a suffix after the id (`/tasks/{id}:cancel`) are tried before the bare `/tasks/{id}`. */
const ROUTES = (['v1.0', 'v0.3'] as const)
  .flatMap((g) =>
    OPS.flatMap((op) => {
      const r = restRoute(g, op);
      const alt = OPERATIONS[op].restAlternative;
      const pattern = r.path
        .split(/(\{id\}|\{configId\})/)
        .map((seg) => (seg === '{id}' || seg === '{configId}' ? '[^/:]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return [r.method, ...(alt ? [alt] : [])].map((method) => ({ op, method, re: new RegExp(`${pattern}$`), weight: r.path.length }));
    }),
  )
  .sort((a, b) => b.weight - a.weight);

/** An id-like path segment (a UUID, a long hex or number, a long opaque token) stands for `{id}` in a label. */
const ID_SEGMENT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d{4,}|[A-Za-z0-9_-]{24,})$/i;

/**
 * A short name for charts, one per operation whatever task it was about: the JSON-RPC method; an HTTP+JSON route
 * by the operation it performs, named as generation `g` names it (`GET /tasks/3f2…` → `GetTask`, or `tasks/get` for
 * v0.x); any other request by HTTP method and path, ids in the path shown as `{id}` (never a UUID as a label).
 */
export function operationName(request: { method: string; url: string; body?: string }, g: Generation = 'v1.0'): string {
  const rpc = rpcMethod(request.body);
  if (rpc) return rpc;
  let path: string;
  try {
    path = new URL(request.url).pathname;
  } catch {
    return `${request.method} ${request.url.slice(0, 80)}`;
  }
  const method = request.method.toUpperCase();
  const hit = ROUTES.find((r) => r.method === method && r.re.test(path));
  if (hit) return methodName(g, hit.op);
  const generic = path
    .split('/')
    .map((seg) => (ID_SEGMENT.test(decodeURIComponentSafe(seg)) ? '{id}' : seg))
    .join('/');
  return `${method} ${generic}`;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
