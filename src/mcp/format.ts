/**
 * Shapes what the MCP tools return: inputs shared by the tools (zod), credentials split for the runner, answers
 * trimmed for an assistant's context, and a last redaction pass over every byte returned.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Redactor, type Credentials } from '../engine';
import { withOriginBoundCredentials } from '../hosts/redirects';
import type { SessionExchange, SessionFinding, SessionFrame, SessionResult, SessionTarget } from '../engine/session';

/** An absolute http(s) URL (the message says what to give instead). */
export const agentUrl = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .refine(isHttpUrl, { message: 'agent_url must be an absolute http(s) URL, e.g. http://127.0.0.1:4173/demo/v03 or https://agent.example.com' })
  .describe("The agent's base URL, a base URL with a path, or the agent card URL itself (http or https).");

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers sent on every request; treated as credentials: their values are masked in everything returned. */
export const headers = z
  .record(
    z.string().regex(HEADER_NAME, 'header names are HTTP tokens (letters, digits, - and a few symbols)').max(256),
    z
      .string()
      .max(16_384)
      .refine((v) => !/[\r\n\0]/.test(v), { message: 'header values cannot contain line breaks or NUL' }),
  )
  .refine((h) => Object.keys(h).length <= 20, { message: 'at most 20 headers' })
  .optional()
  .describe(
    'HTTP headers to send, e.g. {"Authorization": "Bearer …"} or {"X-API-Key": "…"}. Values are treated as credentials and masked in everything returned.',
  );

export function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
  } catch {
    return false;
  }
}

/**
 * The run's credential (one header: the suite also probes the agent without it) and the other headers. The
 * credential is the first header a redactor knows as sensitive (Authorization, X-API-Key, …), or the only header.
 */
export function splitHeaders(h: Record<string, string> = {}): { credentials: Credentials; extra: Record<string, string> } {
  const entries = Object.entries(h);
  const probe = new Redactor();
  const chosen = entries.find(([k]) => probe.isSensitiveHeader(k)) ?? (entries.length === 1 ? entries[0] : undefined);
  if (!chosen) return { credentials: { kind: 'none' }, extra: h };
  const [name, value] = chosen;
  const extra = Object.fromEntries(entries.filter((e) => e !== chosen));
  const bearer = /^bearer\s+(.+)$/i.exec(value);
  if (name.toLowerCase() === 'authorization' && bearer?.[1]) return { credentials: { kind: 'bearer', token: bearer[1] }, extra };
  return { credentials: { kind: 'header', name, value }, extra };
}

/**
 * A fetch that adds `extra` headers (treated as credentials) to requests to the agent's origin only (unless the
 * request sets them itself): never to a `jku`, a token endpoint or a peer elsewhere. It sits below the host's
 * redirect handling (src/hosts/redirects.ts), which calls it once per hop: a hop to another origin gets none either.
 */
export function fetchWithHeaders(f: typeof fetch, extra: Record<string, string>, agentUrl: string): typeof fetch {
  if (!Object.keys(extra).length) return f;
  let origin: string | undefined;
  try {
    origin = new URL(agentUrl).origin;
  } catch {
    origin = undefined;
  }
  const followBound = withOriginBoundCredentials(f);
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!sameOrigin(url, origin)) return f(input, init);
    const h = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extra)) if (!h.has(k)) h.set(k, v);
    // The host above decided how to follow redirects without seeing these headers: follow them here, hop by hop,
    // dropping them when a hop changes origin (a `redirect: 'manual'` request gets its 3xx back as it is).
    return followBound(url, { ...init, headers: h });
  };
}

function sameOrigin(url: string, origin: string | undefined): boolean {
  try {
    return origin !== undefined && new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** Masks every header value given (and the usual secret names) in text about to be returned. */
export function outputRedactor(h: Record<string, string> = {}): Redactor {
  const r = new Redactor();
  for (const [k, v] of Object.entries(h)) r.addSecret(v).addHeaderName(k);
  return r;
}

const clip = (s: string | undefined, n: number) => (s === undefined ? undefined : s.length > n ? `${s.slice(0, n)}… [${s.length - n} more chars]` : s);

/** An exchange as an assistant reads it: bodies cut to a few KB. */
export function exchangeView(x: SessionExchange, bodyChars = 4_000) {
  return {
    id: x.exchangeId,
    request: { method: x.request.method, url: x.request.url, headers: x.request.headers, body: clip(x.request.body, bodyChars) },
    response: x.response
      ? {
          status: x.response.status,
          headers: x.response.headers,
          body: clip(x.response.body, bodyChars),
          bytes: x.response.bodySize,
          stream: x.response.stream || undefined,
          truncated: x.response.truncated || undefined,
        }
      : undefined,
    error: x.error ? `${x.error.message} (${x.error.code})` : undefined,
    sse_events: x.sseEvents || undefined,
    ms: x.timings?.endedAt !== undefined ? x.timings.endedAt - x.timings.startedAt : undefined,
  };
}

const findingView = (f: SessionFinding) => ({
  level: f.level,
  check: f.checkId,
  rule: f.rule,
  message: f.message,
  ...(f.frame !== undefined && { frame: f.frame }),
  ...(f.specRef && { spec: f.specRef }),
});

const frameView = (f: SessionFrame) => ({
  seq: f.seq,
  ms: f.ms,
  kind: f.kind,
  ...(f.rawState && { state: f.rawState }),
  ...(f.final !== undefined && { final: f.final }),
  ...(f.taskId && { task_id: f.taskId }),
  ...(f.artifact && {
    artifact: { id: f.artifact.id, text: clip(f.artifact.text, 1_000), append: f.artifact.append || undefined, last_chunk: f.artifact.lastChunk || undefined },
  }),
  ...(f.error && { error: f.error }),
  data: clip(f.data, 1_500),
  findings: f.findings.map(findingView),
});

function targetView(t: SessionTarget) {
  return {
    name: t.agentName,
    card_url: t.cardUrl,
    generation: t.testedGeneration ?? t.generation,
    ...(t.testedGeneration && t.generation && t.testedGeneration !== t.generation && { card_generation: t.generation }),
    binding: t.binding,
    endpoint_url: t.endpointUrl,
  };
}

/** A session result for an assistant: what happened first, then the task or message, findings, frames, exchanges. */
export function sessionView(r: SessionResult, target: SessionTarget) {
  const note =
    r.operation === 'stream' && target.streaming === false
      ? 'The card does not declare streaming (capabilities.streaming is not true): an agent may refuse the streaming method, and that is no defect.'
      : undefined;
  return {
    summary: r.summary,
    ...(note && { note }),
    ok: r.ok,
    outcome: r.outcome,
    operation: r.method,
    agent: targetView(target),
    ...(r.task && { task: { ...r.task, raw: undefined, result: r.task.raw } }),
    ...(r.message && { message: r.message }),
    ...(r.error && { error: r.error }),
    ...(r.value !== undefined && { value: r.value }),
    findings: r.findings.map(findingView),
    ...(r.stream && { stream: r.stream, frames: r.frames.slice(0, 200).map(frameView) }),
    exchanges: r.exchanges.slice(0, 20).map((x) => exchangeView(x)),
    duration_ms: r.durationMs,
  };
}

/** A tool answer: the JSON (also as structured content), and any further text blocks (a report body). */
export function toolResult(r: Redactor, value: Record<string, unknown>, isError: boolean, more: string[] = []): CallToolResult {
  const structured = redactAll(r, value);
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }, ...more.map((text) => ({ type: 'text' as const, text: r.text(text) }))],
    structuredContent: structured,
    ...(isError && { isError: true }),
  };
}

/** A tool error: a sentence saying what went wrong and what to do, plus details when there are any. */
export function toolError(r: Redactor, message: string, details: Record<string, unknown> = {}): CallToolResult {
  const structured = redactAll(r, { error: message, ...details });
  const rest = Object.keys(details).length ? `\n\n${JSON.stringify(structured, null, 2)}` : '';
  return { content: [{ type: 'text', text: `${r.text(message)}${rest}` }], structuredContent: structured, isError: true };
}

/** A JSON-able copy of `v` with every string (keys too) passed through the redactor; undefined members dropped. */
export function redactAll(r: Redactor, v: Record<string, unknown>): Record<string, unknown> {
  const walk = (x: unknown, depth: number): unknown => {
    if (typeof x === 'string') return r.text(x);
    if (x === null || typeof x !== 'object') return typeof x === 'number' && !Number.isFinite(x) ? null : x;
    if (depth > 64) return '[nested too deep: cut]';
    if (Array.isArray(x)) return x.map((y) => (y === undefined ? null : walk(y, depth + 1)));
    const out: Record<string, unknown> = {};
    for (const [k, y] of Object.entries(x)) if (y !== undefined && typeof y !== 'function') out[r.text(k)] = walk(y, depth + 1);
    return out;
  };
  return walk(v, 0) as Record<string, unknown>;
}
