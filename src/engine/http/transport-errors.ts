import type { TransportError } from '../model/events';
import { PROXY_ERROR_HEADER, PROXY_UPSTREAM_STATUS_HEADER, proxyErrorBlame } from '../model/proxy';
import { isAbortError } from '../ports';
import { safeJsonParse, truncate } from '../util/json';
import type { HttpContext } from './context';

/** The budget of one exchange: aborts on the run's abort or when its time is up. */
export interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
  cancel(): void;
}

/** An abort signal that fires on the run's abort or after `ms` (timed with the host's sleep, so fake timers work). */
export function deadline(ctx: HttpContext, ms: number): Deadline {
  const ctl = new AbortController();
  const timer = new AbortController();
  let timedOut = false;
  const onRunAbort = () => ctl.abort(ctx.signal.reason);
  if (ctx.signal.aborted) ctl.abort(ctx.signal.reason);
  else ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  ctx.host.sleep(ms, timer.signal).then(
    () => {
      timedOut = true;
      const e = new Error(`timed out after ${ms} ms`);
      e.name = 'TimeoutError';
      ctl.abort(e);
    },
    () => undefined,
  );
  return {
    signal: ctl.signal,
    timedOut: () => timedOut,
    cancel: () => {
      timer.abort();
      ctx.signal.removeEventListener('abort', onRunAbort);
    },
  };
}

/** Rejects when `signal` aborts; used to bound reads on bodies that ignore the fetch signal. */
export function abortPromise(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => {
      const e = new Error('aborted');
      e.name = 'AbortError';
      reject(e);
    };
    if (signal.aborted) fail();
    else signal.addEventListener('abort', fail, { once: true });
  });
}

/** The run was stopped: our doing, never the agent's. */
export const ABORTED: TransportError = { source: 'abort', code: 'aborted', message: 'The run was stopped.', blame: 'tool' };

/** Names a failed fetch or body read, and whose fault it is (a timeout of ours, a stop, or what the network said). */
export function classifyFetchError(e: unknown, dl: Deadline, ctx: HttpContext, phase: 'connect' | 'body'): TransportError {
  if (dl.timedOut()) {
    return {
      source: 'timeout',
      code: phase === 'connect' ? 'no_response' : 'body_timeout',
      message:
        phase === 'connect'
          ? 'The agent did not answer within the time budget.'
          : 'The agent stopped sending the body before it was complete (time budget exceeded).',
      blame: 'agent',
    };
  }
  if (ctx.signal.aborted || isAbortError(e)) return { ...ABORTED };
  const err = e as { message?: string; cause?: { code?: string; message?: string } };
  const causeCode = err?.cause?.code ?? '';
  const detail = [err?.message, err?.cause?.message].filter(Boolean).join(': ');
  // Agent misbehaviour that fetch reports as a generic failure: say what it was, and whose fault.
  if (/redirect count exceeded|too many redirects/i.test(detail)) {
    return { source: 'network', code: 'redirect_loop', message: `The agent redirected too many times, probably in a loop (${detail}).`, blame: 'agent' };
  }
  if (/HEADERS_OVERFLOW|header overflow/i.test(causeCode + detail)) {
    return {
      source: 'network',
      code: 'headers_too_large',
      message: `The agent's response headers are larger than HTTP clients accept (Node and most proxies stop at 16 KB) (${detail}).`,
      blame: 'agent',
    };
  }
  if (phase === 'body' || /ECONNRESET|UND_ERR_SOCKET|EPIPE|terminated/i.test(causeCode + detail)) {
    return {
      source: 'network',
      code: 'reset',
      message: `The connection was reset by the agent (${detail || 'socket closed'}).`,
      blame: 'agent',
    };
  }
  if (/ENOTFOUND|EAI_AGAIN/.test(causeCode)) {
    return { source: 'network', code: 'dns_failed', message: `The agent's host name did not resolve (${detail}).`, blame: 'unknown' };
  }
  if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ETIMEDOUT/.test(causeCode)) {
    return { source: 'network', code: 'connect_failed', message: `Could not connect to the agent (${detail}).`, blame: 'unknown' };
  }
  // The Fetch standard's "bad ports" (9, 25, 6000, ...): fetch refuses them before sending anything (undici: "bad port").
  if (/\bbad port\b/i.test(detail)) {
    return {
      source: 'network',
      code: 'blocked_port',
      message: `Nothing was sent: fetch refuses this URL's port (${detail}), one of the Fetch standard's blocked ports (such as 9, 25 or 6000). Serve the agent on another port.`,
      blame: 'unknown',
    };
  }
  return {
    source: 'network',
    code: 'fetch_failed',
    message: `The request could not be completed (${detail || 'network error'}).${browserFetchFailure(detail) && ctx.host.transport !== 'proxy' ? ' A browser reports a request its CORS policy blocked this way: without the proxy this is usually CORS.' : ''}`,
    blame: 'unknown',
  };
}

/**
 * A browser's message for a fetch that failed without saying why (Chromium, Firefox, Safari): the only case where
 * CORS is a likely cause. Node's fetch (the CLI, the MCP server) names the cause itself.
 */
export const browserFetchFailure = (detail: string): boolean =>
  /^(?:TypeError: )?(?:Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/i.test(detail.trim());

/** True when the proxy made this response itself (its error header, see model/proxy.ts), rather than relaying the agent's. */
export const isProxyError = (res: Response): boolean => !!res.headers.get(PROXY_ERROR_HEADER);

/** Decodes a proxy-made error response (error code header + problem body) into a TransportError. */
export async function proxyError(res: Response): Promise<TransportError> {
  const code = res.headers.get(PROXY_ERROR_HEADER) ?? 'proxy_error';
  let detail = '';
  try {
    const body = safeJsonParse(truncate(await res.text(), 8192));
    if (body.ok && typeof body.value === 'object' && body.value) {
      const v = body.value as { detail?: unknown; title?: unknown };
      detail = String(v.detail ?? v.title ?? '');
    }
  } catch {
    /* the problem body is informational */
  }
  return {
    source: 'proxy',
    code,
    message: `The proxy could not complete the request (${code}${detail ? `: ${detail}` : ''}).`,
    blame: proxyErrorBlame(code),
  };
}

/** The agent's status: the proxy relays statuses a Response cannot carry (e.g. 999) as 502 plus this header. */
export function upstreamStatus(res: Response): number {
  const h = res.headers.get(PROXY_UPSTREAM_STATUS_HEADER);
  const n = h && /^\d{3}$/.test(h.trim()) ? Number(h) : NaN;
  return Number.isFinite(n) ? n : res.status;
}
