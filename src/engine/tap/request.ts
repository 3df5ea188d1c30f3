/**
 * Reading a client's request at the tap: its body (bounded), the headers forwarded to the agent (hop-by-hop ones
 * dropped, no compression asked for so the bytes relayed are the agent's), the interface and generation it is
 * for, and the masked copy that is recorded.
 */
import { judgeClientRequest, restOperation, type ClientJudgement, type ConversationView } from '../judges/client';
import type { Binding, Generation } from '../model/check';
import { OPERATIONS, type Operation } from '../protocol/operations';
import type { Redactor } from '../redact';
import { isRecord, safeJsonParse } from '../util/json';
import type { TapInterface, TapTarget } from './target';

/** Hop-by-hop and framing headers: never forwarded either way (the relay frames its own messages). */
const HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
  'accept-encoding',
  'content-encoding',
]);

/** The client's headers as the agent gets them. */
export function forwardHeaders(h: Headers): Headers {
  const out = new Headers();
  for (const [k, v] of h) if (!HOP.has(k.toLowerCase()) && !k.toLowerCase().startsWith('proxy-')) out.append(k, v);
  out.set('accept-encoding', 'identity');
  return out;
}

/** The agent's headers as the client gets them. */
export function relayHeaders(h: Headers): Headers {
  const out = new Headers();
  for (const [k, v] of h) if (!HOP.has(k.toLowerCase())) out.append(k, v);
  return out;
}

export class TooLarge extends Error {}

/** Reads a request body up to `max` bytes; rejects with TooLarge beyond. */
export async function readBounded(body: ReadableStream<Uint8Array> | null, max: number): Promise<Uint8Array<ArrayBuffer> | undefined> {
  if (!body) return undefined;
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    n += r.value.length;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      throw new TooLarge(`request body over ${max} bytes`);
    }
    parts.push(r.value);
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** Registers the credentials a request carries so they are masked everywhere; bounded. */
export function learnSecrets(r: Redactor, h: Headers, known: { count: number }): void {
  for (const [k, v] of h) {
    if (known.count < 64 && r.isSensitiveHeader(k)) {
      r.addSecret(v);
      known.count++;
    }
  }
}

const versionGen = (v: string | undefined): Generation | undefined =>
  !v ? undefined : /^1\./.test(v) ? 'v1.0' : /^0\.3/.test(v) ? 'v0.3' : /^0\.2/.test(v) ? 'v0.2' : undefined;

/**
 * Which of the interfaces a request arrived at it speaks to: by its A2A-Version, else by the method or route it
 * names, else the v0.3 one (a v1.0 agent assumes 0.3 without the header, v1.0.1 §3.6.1), else the first.
 */
export function pickInterface(
  candidates: readonly TapInterface[],
  method: string,
  path: string,
  headers: Headers,
  query: URLSearchParams,
  body: string | undefined,
): TapInterface | undefined {
  if (candidates.length <= 1) return candidates[0];
  const asked = versionGen(headers.get('a2a-version') ?? query.get('A2A-Version') ?? undefined);
  const byVersion = asked && candidates.find((c) => c.generation === asked);
  if (byVersion) return byVersion;
  const rpcMethod = (() => {
    const p = body ? safeJsonParse(body) : undefined;
    return p?.ok && isRecord(p.value) && typeof p.value.method === 'string' ? p.value.method : undefined;
  })();
  const speaks = (c: TapInterface) =>
    c.binding === 'JSONRPC'
      ? rpcMethod !== undefined && (Object.keys(OPERATIONS) as Operation[]).some((o) => OPERATIONS[o].rpc[c.generation] === rpcMethod)
      : restOperation(c.generation, method, path, c.tenant) !== undefined;
  const fitting = candidates.filter(speaks);
  return fitting.find((c) => c.generation === 'v0.3') ?? fitting[0] ?? candidates.find((c) => c.generation === 'v0.3') ?? candidates[0];
}

export interface ReadRequest {
  generation?: Generation;
  binding?: Binding;
  judgement?: ClientJudgement;
  /** v0.3 HTTP+JSON in the JSON-RPC object style (`kind`, `parts`): its answers take JSON-RPC shapes. */
  objectStyle: boolean;
}

/** Judges a request against the interface it is for; without a target (no card) it is relayed unjudged. */
export function readRequest(
  t: TapTarget | undefined,
  iface: TapInterface | undefined,
  req: { method: string; path: string; headers: Headers; query: URLSearchParams; body?: string },
  view: ConversationView,
): ReadRequest {
  const body = req.body;
  const looksRpc = !!body && /"jsonrpc"\s*:/.test(body.slice(0, 4096));
  const binding: Binding | undefined = iface?.binding ?? (t ? (looksRpc ? 'JSONRPC' : 'HTTP+JSON') : undefined);
  const generation = iface?.generation ?? t?.generation;
  const objectStyle = !!body && /"kind"\s*:\s*"message"/.test(body);
  if (!generation || !binding) return { objectStyle };
  const headers: Record<string, string> = {};
  for (const [k, v] of req.headers) headers[k.toLowerCase()] = v;
  const judgement = judgeClientRequest(
    {
      generation,
      binding,
      method: req.method,
      path: req.path,
      query: Object.fromEntries(req.query),
      headers,
      ...(body !== undefined && { body }),
      ...(iface?.tenant && { tenant: iface.tenant }),
    },
    view,
  );
  return { generation, binding, judgement, objectStyle };
}
