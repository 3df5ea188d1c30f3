/**
 * The CORS proxy: one Web-standard handler, `(Request) => Promise<Response>`, wrapped by thin adapters
 * (Node http for `npm start` and Vite, a Cloudflare Workers entry). It forwards `/proxy?url=<target>`
 * to the agent and makes the blame visible: responses that reached the agent carry
 * `X-Proxy-Upstream-Status`; responses the proxy made carry `X-Proxy-Error` + problem+json.
 *
 * @example
 * const handle = createProxyHandler({ mode: 'local', upstream: createNodeUpstream({ mode: 'local' }) });
 * const res = await handle(new Request('http://127.0.0.1:4173/proxy?url=' + encodeURIComponent(agentUrl), {
 *   headers: { 'x-a2a-interop': '1', host: '127.0.0.1:4173' },
 * }));
 */
import {
  PREFLIGHT_ORIGIN,
  PROXY_CLIENT_HEADER,
  PROXY_PREFLIGHT_PATH,
  PROXY_REDIRECT_HEADER,
  PROXY_REDIRECTS_HEADER,
  PROXY_SENT_HEADERS_HEADER,
  PROXY_UPSTREAM_STATUS_HEADER,
  PROXY_UPSTREAM_URL_HEADER,
  type PreflightDiagnostic,
  type ProxyErrorCode,
} from '../engine/model/proxy.js';
import { UpstreamError, classifyUpstreamError, problemResponse, redactUrl } from './errors.js';
import {
  CREDENTIAL_HEADERS,
  ALLOW_METHODS,
  HEADER_NAME_TOKEN,
  checkTargetAllowed,
  classifyOrigin,
  declaredForwardHeaders,
  defaultAddressPolicy,
  filterResponseHeaders,
  forwardRequestHeaders,
  isAllowedLocalHost,
  matchesHostList,
  parseContentLength,
  parseTarget,
  preflightHeaders,
} from './policy.js';
import {
  PROXY_DEFAULT_LIMITS,
  PROXY_DEFAULT_RATE_LIMIT,
  PROXY_DEFAULT_TIMEOUTS,
  PROXY_HOSTED_LIMITS,
  PROXY_VERSION,
  type ProxyConfig,
  type ProxyHandler,
  type ProxyLimits,
  type ProxyRequestInfo,
  type ProxyTimeouts,
  type UpstreamRequest,
  type UpstreamResponse,
} from './config.js';
import { createRateLimiter, type RateLimiter } from './rate-limit.js';
import { RequestBody, relayBody, replayBudget } from './stream.js';

export * from './config.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const REFUSED_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const BODY_HEADERS = ['content-type', 'content-encoding', 'content-language', 'content-location'];

const noop = () => undefined;
const isProxyPath = (p: string) => p === '/proxy' || p.startsWith('/proxy/');
const clip = (s: string, n = 120) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function createProxyHandler(config: ProxyConfig): ProxyHandler {
  const mode = config.mode;
  const timeouts: ProxyTimeouts = { ...PROXY_DEFAULT_TIMEOUTS, ...config.timeouts };
  const limits: ProxyLimits = { ...PROXY_DEFAULT_LIMITS, ...(mode === 'hosted' ? PROXY_HOSTED_LIMITS : {}), ...config.limits };
  const allowedOrigins = config.allowedOrigins ?? [];
  const allowedHosts = config.allowedHosts ?? [];
  const policy = config.addressPolicy ?? defaultAddressPolicy(mode);
  const version = config.version ?? PROXY_VERSION;
  const userAgent = `a2a-interop-proxy/${version}`;
  const now = config.now ?? (() => performance.now());
  const rateOpt = config.rateLimit ?? (mode === 'hosted' ? PROXY_DEFAULT_RATE_LIMIT : false);
  const limiter: RateLimiter | undefined = rateOpt === false ? undefined : 'take' in rateOpt ? rateOpt : createRateLimiter(rateOpt);
  /** Open requests per client (maxOpenPerClient). */
  const open = new Map<string, number>();
  const replay = replayBudget(limits.maxReplayTotalBytes);
  const warnings =
    mode === 'hosted' && allowedHosts.length === 0
      ? [
          'ALLOWED_HOSTS is not set: this hosted proxy answers to any Host name, so any client that can reach it (not only a browser on the dashboard) can use it as a relay to public targets, limited per client address only.',
        ]
      : [];

  const hostAllowed = (host: string | null): boolean => {
    if (mode === 'local') return isAllowedLocalHost(host, allowedHosts);
    if (allowedHosts.length === 0) return true;
    return !!host && matchesHostList(host.replace(/:\d+$/, ''), allowedHosts);
  };

  return async function handle(req: Request, info: ProxyRequestInfo = {}): Promise<Response> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return problemResponse('bad_target', 'The request URL could not be parsed.');
    }
    if (!isProxyPath(url.pathname)) {
      return problemResponse('bad_target', 'Not a proxy path: this proxy serves /proxy?url=… and /proxy/health.', { status: 404 });
    }
    const host = req.headers.get('host') ?? url.host;
    const originHeader = req.headers.get('origin');
    const origin = classifyOrigin(originHeader, host, allowedOrigins);
    const cors = new Headers({ vary: 'Origin' });
    if (origin === 'allowed' && originHeader) {
      cors.set('access-control-allow-origin', originHeader);
      cors.set('access-control-expose-headers', '*');
    }
    let reqBody: RequestBody | undefined;
    let releaseSlot = noop;
    const fail = (code: ProxyErrorCode, detail: string, opts: { status?: number; target?: URL; headers?: HeadersInit } = {}) => {
      releaseSlot();
      const headers = new Headers(cors);
      new Headers(opts.headers).forEach((v, k) => headers.set(k, v));
      // Not going to read the rest of the client's body (adapters drain it; Node closes the connection).
      if (reqBody) reqBody.discard();
      else req.body?.cancel().catch(noop);
      return problemResponse(code, detail, { ...opts, headers });
    };

    // --- Who may use the proxy -----------------------------------------------------------------
    if (!hostAllowed(host)) {
      return fail(
        'origin_not_allowed',
        `The Host header (${clip(host ?? '', 80)}) is not one this proxy answers to; a ${mode} proxy refuses other names (DNS rebinding).`,
      );
    }
    if (origin === 'foreign') {
      return fail(
        'origin_not_allowed',
        `Requests from ${clip(originHeader ?? '', 80)} are not allowed; only the dashboard's own origin${allowedOrigins.length ? ' and configured origins' : ''} may use this proxy.`,
      );
    }
    const isPreflight = req.method === 'OPTIONS' && req.headers.has('access-control-request-method');
    if (isPreflight) {
      if (origin !== 'allowed') return fail('origin_not_allowed', 'Cross-origin use of this proxy is not allowed.');
      return new Response(null, { status: 204, headers: preflightHeaders(req, cors) });
    }
    if (limiter) {
      const verdict = limiter.take(info.clientAddress ?? 'unknown');
      if (!verdict.ok) {
        return fail('rate_limited', `Too many requests from this client; retry in ${verdict.retryAfterSec} s.`, {
          headers: { 'retry-after': String(verdict.retryAfterSec) },
        });
      }
    }
    if (url.pathname === '/proxy/health') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return fail('bad_target', 'Use GET for /proxy/health.', { status: 405, headers: { allow: 'GET, HEAD' } });
      const headers = new Headers(cors);
      headers.set('content-type', 'application/json');
      headers.set('cache-control', 'no-store');
      const body = { ok: true, mode, version, ...(warnings.length && { warnings }) };
      return new Response(req.method === 'HEAD' ? null : JSON.stringify(body), { status: 200, headers });
    }
    const isDiagnostic = url.pathname === PROXY_PREFLIGHT_PATH;
    if (url.pathname !== '/proxy' && !isDiagnostic)
      return fail('bad_target', 'Unknown proxy path: use /proxy?url=…, /proxy/preflight?url=… or /proxy/health.', { status: 404 });
    if (mode === 'hosted' && origin === 'none') {
      return fail('origin_not_allowed', 'A hosted proxy only serves the configured dashboard origins (the request had no Origin).');
    }
    if (!req.headers.get(PROXY_CLIENT_HEADER)) {
      return fail('origin_not_allowed', `The ${PROXY_CLIENT_HEADER} header is missing: this proxy only serves the a2a-interop dashboard.`);
    }
    if (isDiagnostic) return preflightDiagnostic();
    const method = req.method.toUpperCase();
    if (REFUSED_METHODS.has(method)) return fail('bad_target', `The method ${method} is not proxied.`, { status: 405, headers: { allow: ALLOW_METHODS } });

    // --- The target ---------------------------------------------------------------------------
    const parsed = parseTarget(url.searchParams.get('url'));
    if (!parsed.ok) return fail('bad_target', parsed.reason);
    const target = parsed.url;
    const blocked = checkTargetAllowed(target, mode, policy);
    if (blocked) return fail('target_blocked', blocked, { target });

    const declaredLength = parseContentLength(req.headers.get('content-length'));
    if (declaredLength !== undefined && declaredLength > limits.maxRequestBytes) {
      return fail('request_too_large', `The request body (${declaredLength} bytes) exceeds ${limits.maxRequestBytes} bytes.`, { target });
    }
    const declared = declaredForwardHeaders(req.headers);
    const credentialNames = [...CREDENTIAL_HEADERS, ...declared];
    let headers = forwardRequestHeaders(req.headers, declared, userAgent);
    const sameOriginOnly = req.headers.get(PROXY_REDIRECT_HEADER)?.trim().toLowerCase() === 'same-origin';
    if (limits.maxOpenPerClient > 0) {
      const key = info.clientAddress ?? 'unknown';
      const n = open.get(key) ?? 0;
      if (n >= limits.maxOpenPerClient) {
        return fail('stream_limit', `This client already has ${n} requests or streams open through the proxy (its limit); retry when one ends.`, {
          target,
          headers: { 'retry-after': '5' },
        });
      }
      open.set(key, n + 1);
      let held = true;
      releaseSlot = () => {
        if (!held) return;
        held = false;
        const left = (open.get(key) ?? 1) - 1;
        if (left > 0) open.set(key, left);
        else open.delete(key);
      };
    }
    reqBody = method !== 'GET' && method !== 'HEAD' && req.body ? new RequestBody(req.body, limits.maxRequestBytes, limits.maxReplayBytes, replay) : undefined;

    return forward(reqBody);

    /**
     * Browser-readiness diagnostic: one OPTIONS to the target with a synthetic Origin (never the client's),
     * no redirects followed (preflights do not follow them), answered as JSON with the CORS response headers.
     */
    async function preflightDiagnostic(): Promise<Response> {
      if (req.method !== 'GET') return fail('bad_target', 'Use GET for /proxy/preflight.', { status: 405, headers: { allow: 'GET' } });
      const parsedTarget = parseTarget(url.searchParams.get('url'));
      if (!parsedTarget.ok) return fail('bad_target', parsedTarget.reason);
      const blockedTarget = checkTargetAllowed(parsedTarget.url, mode, policy);
      if (blockedTarget) return fail('target_blocked', blockedTarget, { target: parsedTarget.url });
      const wantMethod = (url.searchParams.get('method') ?? 'GET').toUpperCase();
      if (!/^[A-Z]{1,16}$/.test(wantMethod)) return fail('bad_target', 'method must be an HTTP method name.');
      const wantHeaders = (url.searchParams.get('headers') ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter((h) => HEADER_NAME_TOKEN.test(h))
        .slice(0, 32);
      const h = new Headers({ origin: PREFLIGHT_ORIGIN, 'access-control-request-method': wantMethod, 'user-agent': userAgent, accept: '*/*' });
      if (wantHeaders.length) h.set('access-control-request-headers', wantHeaders.join(', '));
      const ctl = new AbortController();
      const onClientAbort = () => ctl.abort(req.signal.reason);
      req.signal.addEventListener('abort', onClientAbort, { once: true });
      const headersMs = timeouts.connectMs + Math.min(timeouts.firstByteMs, 15_000);
      const timer = config.upstreamEnforcesTimeouts
        ? undefined
        : setTimeout(() => ctl.abort(new UpstreamError('upstream_timeout', `No response head within ${headersMs} ms.`)), headersMs);
      try {
        const res = await config.upstream({
          url: parsedTarget.url,
          method: 'OPTIONS',
          headers: h,
          body: null,
          bodyLength: undefined,
          signal: ctl.signal,
          timeouts,
        });
        res.body?.cancel().catch(noop);
        const acHeaders: Record<string, string> = {};
        res.headers.forEach((v, k) => {
          if (k.toLowerCase().startsWith('access-control-') || k.toLowerCase() === 'vary') acHeaders[k.toLowerCase()] = v.slice(0, 2000);
        });
        const out = new Headers(cors);
        out.set('content-type', 'application/json');
        out.set('cache-control', 'no-store');
        out.set(PROXY_UPSTREAM_STATUS_HEADER, String(res.status));
        const diag: PreflightDiagnostic = { status: res.status, headers: acHeaders };
        return new Response(JSON.stringify(diag), { status: 200, headers: out });
      } catch (e) {
        const reason: unknown = ctl.signal.aborted ? ctl.signal.reason : undefined;
        const err = reason instanceof UpstreamError ? reason : classifyUpstreamError(e);
        return fail(err.code, err.message, { target: parsedTarget.url });
      } finally {
        clearTimeout(timer);
        req.signal.removeEventListener('abort', onClientAbort);
      }
    }

    // --- Forwarding, hop by hop (`headers` loses credentials when a hop changes origin) ---------
    async function forward(clientBody: RequestBody | undefined): Promise<Response> {
      let current = target;
      let hopMethod = method;
      let body: UpstreamRequest['body'] = clientBody ? clientBody.stream() : null;
      let bodyLength = clientBody ? declaredLength : undefined;
      let redirects = 0;
      const started = now();
      for (;;) {
        const ctl = new AbortController();
        const onClientAbort = () => ctl.abort(req.signal.reason);
        if (req.signal.aborted) ctl.abort(req.signal.reason);
        else req.signal.addEventListener('abort', onClientAbort, { once: true });
        const unlink = () => req.signal.removeEventListener('abort', onClientAbort);
        const headersMs = timeouts.connectMs + timeouts.firstByteMs;
        const timer = config.upstreamEnforcesTimeouts
          ? undefined
          : setTimeout(() => ctl.abort(new UpstreamError('upstream_timeout', `No response head within ${headersMs} ms.`)), headersMs);
        let res: UpstreamResponse;
        try {
          res = await config.upstream({ url: current, method: hopMethod, headers, body, bodyLength, signal: ctl.signal, timeouts });
        } catch (e) {
          clearTimeout(timer);
          unlink();
          if (clientBody?.tooLarge) {
            return fail('request_too_large', `The request body exceeds ${limits.maxRequestBytes} bytes.`, { target: current });
          }
          const reason: unknown = ctl.signal.aborted ? ctl.signal.reason : undefined;
          const err = reason instanceof UpstreamError ? reason : classifyUpstreamError(e);
          if (redirects > 0 && err.code === 'target_blocked') {
            return fail('redirect_blocked', `Redirect ${redirects} led to a blocked target: ${err.message}`, { target: current });
          }
          return fail(err.code, err.message, { target: current });
        }
        clearTimeout(timer);

        const location = REDIRECT_STATUSES.has(res.status) ? res.headers.get('location') : null;
        if (location !== null) {
          res.body?.cancel().catch(noop);
          unlink();
          if (redirects >= limits.maxRedirects) {
            return fail('too_many_redirects', `The agent redirected too many times (more than ${limits.maxRedirects}; a redirect loop?).`, { target: current });
          }
          let next: URL;
          try {
            next = new URL(location, current);
          } catch {
            return fail('redirect_blocked', `Redirect ${redirects + 1} has an invalid Location.`, { target: current });
          }
          const hop = parseTarget(next.href);
          if (!hop.ok) return fail('redirect_blocked', `Redirect ${redirects + 1}: ${hop.reason}`, { target: current });
          const hopBlocked = checkTargetAllowed(hop.url, mode, policy);
          if (hopBlocked) return fail('redirect_blocked', `Redirect ${redirects + 1} was refused: ${hopBlocked}`, { target: hop.url });
          if (hop.url.origin !== current.origin) {
            if (sameOriginOnly) {
              return fail('redirect_blocked', `Redirect ${redirects + 1} leads to another origin (${hop.url.origin}); this request is not sent there.`, {
                target: current,
              });
            }
            // Credentials belong to the origin they were given for (as fetch does).
            headers = new Headers(headers);
            for (const n of credentialNames) headers.delete(n);
          }
          const toGet =
            ((res.status === 301 || res.status === 302) && hopMethod === 'POST') || (res.status === 303 && hopMethod !== 'GET' && hopMethod !== 'HEAD');
          if (toGet) {
            clientBody?.release();
            hopMethod = 'GET';
            body = null;
            bodyLength = undefined;
            headers = new Headers(headers);
            for (const n of BODY_HEADERS) headers.delete(n);
          } else if (clientBody && body !== null) {
            try {
              body = await clientBody.all();
            } catch (e) {
              if (e instanceof UpstreamError && e.code === 'redirect_blocked')
                return fail('redirect_blocked', `Redirect ${redirects + 1}: ${e.message}`, { target: current });
              return fail('request_too_large', `The request body exceeds ${limits.maxRequestBytes} bytes.`, { target: current });
            }
            bodyLength = body.byteLength;
          }
          current = hop.url;
          redirects++;
          continue;
        }
        // No redirect will resend the body now: the copy goes (a streamed upload holds nothing for the response's life).
        clientBody?.release();
        return respond(res, { ctl, unlink, current, redirects, sent: headers, headersMs: now() - started, method: hopMethod });
      }
    }

    function respond(
      res: UpstreamResponse,
      ctx: { ctl: AbortController; unlink: () => void; current: URL; redirects: number; sent: Headers; headersMs: number; method: string },
    ): Response {
      const out = filterResponseHeaders(res.headers, { renameCors: mode === 'hosted' || origin === 'allowed' });
      const contentType = res.headers.get('content-type') ?? '';
      const sse = /^\s*text\/event-stream/i.test(contentType);
      const encoding = (res.headers.get('content-encoding') ?? '').trim().toLowerCase();
      const upstreamLength = parseContentLength(res.headers.get('content-length'));
      let body = res.body;
      const nullBody = NULL_BODY_STATUSES.has(res.status) || ctx.method === 'HEAD';
      let decoded = res.decoded === true;
      if (!nullBody && body && !decoded && (encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'deflate')) {
        // Identity was asked for; the agent compressed anyway. Decode so every client reads the same bytes.
        body = body.pipeThrough(
          new DecompressionStream(encoding === 'deflate' ? 'deflate' : 'gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
        );
        decoded = true;
      }
      if (!decoded && encoding && encoding !== 'identity') out.set('content-encoding', encoding);
      if (!decoded && upstreamLength !== undefined) out.set('content-length', String(upstreamLength));

      if (!nullBody && !sse && !decoded && upstreamLength !== undefined && upstreamLength > limits.maxResponseBytes) {
        res.body?.cancel().catch(noop);
        ctx.ctl.abort();
        ctx.unlink();
        return fail('response_too_large', `The agent announced ${upstreamLength} bytes; the proxy relays at most ${limits.maxResponseBytes}.`, {
          target: ctx.current,
        });
      }

      out.set(PROXY_UPSTREAM_STATUS_HEADER, String(res.status));
      out.set(PROXY_UPSTREAM_URL_HEADER, redactUrl(ctx.current));
      if (ctx.redirects > 0) out.set(PROXY_REDIRECTS_HEADER, String(ctx.redirects));
      out.set(PROXY_SENT_HEADERS_HEADER, [...ctx.sent.keys()].join(', '));
      out.append('server-timing', `proxy;dur=${ctx.headersMs.toFixed(1)};desc="until agent response head"`);
      out.set('x-accel-buffering', 'no');
      out.set('x-content-type-options', 'nosniff');
      // Never render an agent's body as a document of the dashboard's origin.
      out.append('content-security-policy', "default-src 'none'; sandbox");
      if (sse) {
        const cc = out.get('cache-control');
        if (!cc || !/no-transform/i.test(cc)) out.set('cache-control', cc ? `${cc}, no-transform` : 'no-cache, no-transform');
      }
      cors.forEach((v, k) => {
        if (k === 'vary') out.append('vary', v);
        else out.set(k, v);
      });

      let relayed: ReadableStream<Uint8Array> | null = null;
      if (nullBody || !body) {
        res.body?.cancel().catch(noop);
        ctx.unlink();
        releaseSlot();
      } else {
        relayed = relayBody(body, {
          sse,
          maxBytes: sse ? undefined : limits.maxResponseBytes,
          idleMs: timeouts.idleMs,
          ...(limits.maxStreamMs > 0 && { maxMs: limits.maxStreamMs }),
          abortUpstream: (reason) => ctx.ctl.abort(reason),
          onEnd: () => {
            ctx.unlink();
            releaseSlot();
          },
        });
      }
      // Statuses a Response cannot carry (hostile agents) travel in X-Proxy-Upstream-Status only.
      const status = res.status >= 200 && res.status <= 599 ? res.status : 502;
      try {
        return new Response(relayed, { status, statusText: res.statusText ?? '', headers: out });
      } catch {
        return new Response(relayed, { status, headers: out });
      }
    }
  };
}
