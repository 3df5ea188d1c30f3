/**
 * Re-sending a request as given (the console's "Open in console": a request taken from a run's exchange, edited by
 * the user): which operation it is, so its answer is judged as that operation, and its credentials, which were
 * recorded masked and are filled in from the session's. Pure, except `rawStream` (the HTTP client).
 */
import { stream, type HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { Dialect, StreamItem, StreamRun } from '../protocol/dialect';
import { OPERATIONS, restRoute, type Operation } from '../protocol/operations';
import { REDACTED } from '../redact';
import { isRecord } from '../util/json';

/** A request to send as it is (method, absolute URL, headers, body). */
export interface RawRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface RawOperation {
  /** The A2A operation the request performs; undefined when it is none we know (a probe, a typo). */
  op?: Operation;
  /** JSON-RPC: the request's `id` (the answer must echo it) and whether the body is a JSON-RPC request at all. */
  rpcId?: string | number | null;
  rpc: boolean;
  /** The task the request is about (get, cancel, subscribe, push configs). */
  taskId?: string;
}

const OPS = Object.keys(OPERATIONS) as Operation[];

/**
 * Which operation a request performs in generation `g`: by JSON-RPC method name, or by HTTP+JSON route under
 * `restBaseUrl` (the interface's REST base: endpoint, tenant, `/v1` prefix).
 */
export function inferOperation(g: Generation, binding: Binding, restBaseUrl: string, req: RawRequest): RawOperation {
  if (binding !== 'HTTP+JSON') {
    let body: unknown;
    try {
      body = req.body === undefined ? undefined : JSON.parse(req.body);
    } catch {
      return { rpc: false };
    }
    if (!isRecord(body)) return { rpc: false };
    const method = typeof body.method === 'string' ? body.method : undefined;
    const op = method === undefined ? undefined : OPS.find((o) => OPERATIONS[o].rpc[g] === method);
    const params = isRecord(body.params) ? body.params : {};
    const taskId = [params.id, params.taskId].find((v): v is string => typeof v === 'string' && v !== '');
    const rpcId = typeof body.id === 'string' || typeof body.id === 'number' || body.id === null ? body.id : undefined;
    return { op, rpcId, rpc: body.jsonrpc !== undefined || method !== undefined, taskId: op === 'send' || op === 'stream' ? undefined : taskId };
  }
  let path: string;
  try {
    const u = new URL(req.url);
    const b = new URL(restBaseUrl);
    if (u.origin !== b.origin || !u.pathname.startsWith(b.pathname)) return { rpc: false };
    path = u.pathname.slice(b.pathname.replace(/\/+$/, '').length) || '/';
  } catch {
    return { rpc: false };
  }
  for (const op of OPS) {
    const route = restRoute(g, op);
    const alternative = OPERATIONS[op].restAlternative;
    if (route.method !== req.method.toUpperCase() && alternative !== req.method.toUpperCase()) continue;
    const m = routePattern(route.path).exec(path);
    if (m) return { op, rpc: false, taskId: route.path.includes('{id}') && m[1] ? decodeURIComponent(m[1]) : undefined };
  }
  return { rpc: false };
}

/** A route (`/tasks/{id}:cancel`) as a regular expression capturing its ids. */
function routePattern(path: string): RegExp {
  const parts = path
    .split(/(\{id\}|\{configId\})/)
    .map((seg) => (seg === '{id}' || seg === '{configId}' ? '([^/]+)' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('')}$`);
}

/**
 * The headers to send: masked credential values (`[REDACTED]`, as recorded) replaced by the session's credential
 * headers of the same name, or left out when the session has none; nothing added that the request did not carry.
 */
export function fillCredentials(headers: Record<string, string>, auth: Record<string, string>): Record<string, string> {
  const byName = new Map(Object.entries(auth).map(([k, v]) => [k.toLowerCase(), v] as const));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!value.includes(REDACTED)) out[name] = value;
    else {
      const real = byName.get(name.toLowerCase());
      if (real !== undefined) out[name] = real;
    }
  }
  return out;
}

/** The URL with masked query credentials (an API key `in: query`) replaced by the session's, or removed. */
export function fillQueryCredentials(url: string, authQuery: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of [...u.searchParams]) {
    if (!v.includes(REDACTED)) continue;
    if (authQuery[k] !== undefined) u.searchParams.set(k, authQuery[k]);
    else u.searchParams.delete(k);
  }
  return u.toString();
}

/** Opens the request as an SSE stream, each event read with the dialect (as Dialect.openStream does). */
export function rawStream(
  ctx: HttpContext,
  d: Dialect,
  req: RawRequest,
  o: { rpcId?: string; lane: string; timeoutMs: number; stopSignal: AbortSignal },
  onItem: (i: StreamItem) => void,
): Promise<StreamRun> {
  const items: StreamItem[] = [];
  return stream(
    ctx,
    {
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: req.body,
      lane: o.lane,
      timeoutMs: o.timeoutMs,
      stopSignal: o.stopSignal,
      summarize: (m) => {
        const it = d.parseStreamEvent({ ...m, seq: 0, at: 0 }, o.rpcId);
        return [it.kind, it.state ?? '', it.final ? 'final' : ''].filter(Boolean).join(' ');
      },
    },
    (m) => {
      const item = d.parseStreamEvent(m, o.rpcId);
      items.push(item);
      onItem(item);
    },
  ).then((outcome) => ({ ...outcome, items }));
}
