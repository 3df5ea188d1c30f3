import { randomUUID } from 'node:crypto';
import { timerSleep, type Host, type PreflightRequest, type PreflightResult } from '../engine/ports';

/** The engine's host in Node (CLI, benchmarks, tests): global fetch straight to the agent. */
export function createNodeHost(opts: { fetch?: typeof fetch } = {}): Host {
  const f = opts.fetch ?? globalThis.fetch;
  return {
    fetch: (url, init) => f(url, init),
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID: () => randomUUID(),
    transport: 'direct',
    preflight: (req) => nodePreflight(f, req),
  };
}

/** CORS preflight from Node: fetch may set Origin and the Access-Control-Request-* headers. */
export async function nodePreflight(f: typeof fetch, req: PreflightRequest): Promise<PreflightResult> {
  try {
    const res = await f(req.url, {
      method: 'OPTIONS',
      headers: {
        Origin: req.origin,
        'Access-Control-Request-Method': req.method,
        ...(req.headers.length ? { 'Access-Control-Request-Headers': req.headers.join(', ') } : {}),
      },
      signal: req.signal ?? AbortSignal.timeout(10_000),
    });
    await res.body?.cancel().catch(() => undefined);
    return { ok: true, status: res.status, headers: Object.fromEntries(res.headers) };
  } catch (e) {
    const err = e as { message?: string; cause?: { code?: string } };
    return { ok: false, error: `${err.message ?? String(e)}${err.cause?.code ? ` (${err.cause.code})` : ''}`, blame: 'unknown' };
  }
}
