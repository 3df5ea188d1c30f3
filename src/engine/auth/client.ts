/**
 * OAuth 2.0 client-credentials grant (RFC 6749 §4.4) for a run: reads the OpenID Connect discovery document when the
 * card gives one, asks the token endpoint for an access token (client_secret_basic, or client_secret_post when the
 * server says so), caches it, refreshes it before it expires (`expires_in`) and renews it once when a call answers
 * 401. Every request goes through host.fetch (the proxy, in the browser) and is an exchange on the timeline; the
 * client secret, the Basic credential and every token issued are registered with the redactor before anything is
 * emitted, so they are masked everywhere.
 */
import { readBody } from '../http/body';
import { secureOrLoopback } from '../http/insecure';
import { PROXY_REDIRECT_HEADER } from '../model/proxy';
import type { HttpContext, RequestAuth } from '../http/context';
import { emitResponse, finish, openResponse, type HttpResult } from '../http/exchange';
import type { OAuthCredentials } from '../model/credentials';
import { isRecord } from '../util/json';
import type { OAuthPlan } from './plan';

export type AuthMethod = 'client_secret_basic' | 'client_secret_post';

/** One step of getting a token, kept for the checks that judge the token endpoint. */
export interface OAuthStep {
  step: 'discovery' | 'token';
  http: HttpResult;
  /** Token requests: how the client authenticated. */
  method?: AuthMethod;
}

/** Why no token could be had (the run is then not assessed, with this as the reason). */
export interface OAuthFailure {
  /** `rejected`: the token endpoint refused the client; `tool`: our proxy refused; `unusable`: no endpoint or answer to use. */
  kind: 'rejected' | 'tool' | 'unusable';
  message: string;
  http?: HttpResult;
}

interface Token {
  value: string;
  /** ms epoch; undefined when the server gave no `expires_in`. */
  expiresAt?: number;
  issuedAt: number;
}

/** Renewals after a 401, per run (an agent that refuses every token must not make us hammer its token endpoint). */
const MAX_RENEWALS = 3;
/** Same-origin 307/308 hops a token request follows; a redirect anywhere else is never followed (it carries the secret). */
const MAX_TOKEN_REDIRECTS = 3;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const LANE = 'oauth token';

const base64 = (s: string): string => {
  let bin = '';
  for (const b of new TextEncoder().encode(s)) bin += String.fromCharCode(b);
  return btoa(bin);
};
/** application/x-www-form-urlencoded, as RFC 6749 §2.3.1 asks for the Basic credential's parts. */
const formEncode = (s: string): string => new URLSearchParams({ v: s }).toString().slice(2);

export class OAuthClient implements RequestAuth {
  readonly steps: OAuthStep[] = [];
  /** The token endpoint in use (from the card or the discovery document). */
  tokenUrl?: string;
  /** The discovery document, when one was read and parsed. */
  discovery?: Record<string, unknown>;
  failure?: OAuthFailure;
  private token?: Token;
  private readonly issued = new Set<string>();
  private pending?: Promise<Token | undefined>;
  private method: AuthMethod = 'client_secret_basic';
  private renewals = 0;
  /** The client's own HTTP context: no request slots (it runs inside a call holding one) and no auth hook. */
  private readonly http: HttpContext;

  constructor(
    http: HttpContext,
    readonly plan: OAuthPlan,
    private readonly creds: OAuthCredentials,
  ) {
    this.http = { ...http, slots: undefined, auth: undefined };
    const r = http.redactor;
    const basic = base64(`${formEncode(creds.clientId)}:${formEncode(creds.clientSecret)}`);
    r.addSecret(creds.clientSecret).addSecret(formEncode(creds.clientSecret)).addSecret(encodeURIComponent(creds.clientSecret)).addSecret(basic);
  }

  /** The header value for the current token (undefined before a token was had). */
  get authorization(): string | undefined {
    return this.token ? `Bearer ${this.token.value}` : undefined;
  }

  /** Discovery (OpenID Connect) and the first token. False with `failure` set when no token could be had. */
  async start(): Promise<boolean> {
    if (this.plan.kind === 'openid-connect' && !(await this.discover())) return false;
    this.tokenUrl ??= this.plan.tokenUrl;
    return (await this.fetchToken()) !== undefined;
  }

  private async discover(): Promise<boolean> {
    const url = this.plan.discoveryUrl ?? '';
    const http = await this.request('discovery', { method: 'GET', url, headers: { Accept: 'application/json' } }, () => undefined);
    if (!http.responded)
      return this.fail(
        http.error?.blame === 'tool' ? 'tool' : 'unusable',
        `the OpenID Connect discovery document ${this.url(url)} could not be read (${http.error?.message ?? 'no answer'})`,
        http,
      );
    const doc = http.json();
    if (http.status !== 200 || !doc.ok || !isRecord(doc.value))
      return this.fail('unusable', `the OpenID Connect discovery document ${this.url(url)} answered HTTP ${http.status}${doc.ok ? '' : ' without JSON'}`, http);
    this.discovery = doc.value;
    const te = doc.value.token_endpoint;
    if (typeof te !== 'string' || !/^https?:\/\//i.test(te))
      return this.fail('unusable', `the OpenID Connect discovery document ${this.url(url)} names no token_endpoint`, http);
    this.tokenUrl = te;
    const methods = doc.value.token_endpoint_auth_methods_supported;
    if (Array.isArray(methods) && methods.includes('client_secret_post') && !methods.includes('client_secret_basic')) this.method = 'client_secret_post';
    return true;
  }

  /** One token request (and one with client_secret_post when client_secret_basic is refused as such). */
  private fetchToken(): Promise<Token | undefined> {
    this.pending ??= (async () => {
      try {
        if (!secureOrLoopback(this.tokenUrl ?? '')) {
          this.fail(
            'unusable',
            `the token endpoint ${this.url(this.tokenUrl ?? '')} is not https: the client secret is not sent over plain HTTP (except to a loopback address)`,
          );
          return undefined;
        }
        let answer = await this.tokenRequest(this.method);
        if (
          this.method === 'client_secret_basic' &&
          answer.http.responded &&
          answer.http.status >= 400 &&
          answer.http.status < 500 &&
          switchToPost(answer.http)
        ) {
          this.method = 'client_secret_post';
          answer = await this.tokenRequest(this.method);
        }
        if (answer.token) {
          this.token = answer.token;
          this.failure = undefined;
        }
        return answer.token;
      } finally {
        this.pending = undefined;
      }
    })();
    return this.pending;
  }

  private async tokenRequest(method: AuthMethod): Promise<{ http: HttpResult; token?: Token }> {
    let url = this.tokenUrl ?? '';
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    const scope = this.creds.scope?.trim() || this.plan.scopes.join(' ');
    if (scope) form.set('scope', scope);
    const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
    // Through the proxy, which follows redirects itself: not to another origin (the body may carry the secret).
    if (this.http.host.transport === 'proxy') headers[PROXY_REDIRECT_HEADER] = 'same-origin';
    if (method === 'client_secret_basic')
      headers.Authorization = `Basic ${base64(`${formEncode(this.creds.clientId)}:${formEncode(this.creds.clientSecret)}`)}`;
    else {
      form.set('client_id', this.creds.clientId);
      form.set('client_secret', this.creds.clientSecret);
    }
    let token: Token | undefined;
    const inspect = (r: HttpResult) => {
      // Registered before the answer is emitted, so the token never appears unmasked.
      const parsed = r.json();
      if (!parsed.ok || !isRecord(parsed.value)) return;
      for (const k of ['access_token', 'refresh_token', 'id_token']) {
        const v = parsed.value[k];
        if (typeof v === 'string') this.http.redactor.addSecret(v);
      }
      const v = parsed.value.access_token;
      if (r.status !== 200 || typeof v !== 'string' || !v) return;
      const exp = parsed.value.expires_in;
      const secs = typeof exp === 'number' ? exp : typeof exp === 'string' && /^\d+$/.test(exp) ? Number(exp) : undefined;
      const now = this.http.host.now();
      token = { value: v, issuedAt: now, expiresAt: secs !== undefined && secs > 0 ? now + secs * 1000 : undefined };
      this.issued.add(v);
    };
    // Redirects are followed here, hop by hop: only 307/308 (the POST and its secret unchanged) within the origin.
    let http: HttpResult;
    for (let hop = 0; ; hop++) {
      http = await this.request('token', { method: 'POST', url, headers, body: form.toString(), redirect: 'manual' }, inspect, method);
      const location = http.responded && REDIRECTS.has(http.status) ? http.headers.get('location') : null;
      if (location === null) break;
      let next: URL | undefined;
      try {
        next = new URL(location, url);
      } catch {
        next = undefined;
      }
      const sameOrigin = next !== undefined && next.origin === new URL(url).origin;
      if (!next || !sameOrigin || (http.status !== 307 && http.status !== 308) || !secureOrLoopback(next.href) || hop >= MAX_TOKEN_REDIRECTS) {
        this.fail(
          'unusable',
          `the token endpoint ${this.url(url)} answered HTTP ${http.status} redirecting to ${next ? this.url(next.href) : 'an invalid Location'}: a token request follows a redirect only when it is a 307/308 within the same origin (at most ${MAX_TOKEN_REDIRECTS}), so the client secret was not sent there`,
          http,
        );
        return { http };
      }
      url = next.href;
    }
    if (!token) {
      const err = describeError(http);
      this.fail(
        !http.responded ? (http.error?.blame === 'tool' ? 'tool' : 'unusable') : http.status === 200 ? 'unusable' : 'rejected',
        `the token endpoint ${this.url(url)} ${err}`,
        http,
      );
    }
    return { http, token };
  }

  /** One exchange on the timeline; `inspect` sees the answer before it is emitted (to register secrets in it). */
  private async request(
    step: OAuthStep['step'],
    req: { method: string; url: string; headers: Record<string, string>; body?: string; redirect?: 'manual' },
    inspect: (r: HttpResult) => void,
    method?: AuthMethod,
  ): Promise<HttpResult> {
    const ctx = this.http;
    const { r, dl, res } = await openResponse(ctx, { ...req, lane: LANE, checkId: undefined });
    try {
      if (res) {
        Object.assign(r, await readBody(ctx, res, 256 * 1024, dl));
        r.endedAt = ctx.host.now();
      }
    } finally {
      dl.cancel();
    }
    const http = finish(r);
    if (http.responded) inspect(http);
    emitResponse(ctx, r);
    this.steps.push({ step, http, method });
    return http;
  }

  private fail(kind: OAuthFailure['kind'], message: string, http?: HttpResult): false {
    this.failure = { kind, message: this.http.redactor.text(message), http };
    return false;
  }

  private url(u: string): string {
    return this.http.redactor.url(u);
  }

  /** The token value a header of ours carries, or undefined when the headers carry none of our tokens. */
  private ours(headers: Record<string, string> | undefined): { key: string; value: string } | undefined {
    if (!headers) return undefined;
    for (const [key, v] of Object.entries(headers)) {
      if (key.toLowerCase() !== 'authorization') continue;
      const m = /^Bearer (.+)$/.exec(v);
      if (m?.[1] && this.issued.has(m[1])) return { key, value: m[1] };
    }
    return undefined;
  }

  private expired(t: Token): boolean {
    if (t.expiresAt === undefined) return false;
    // Refresh a little early: a quarter of the lifetime, at most 30 s, so a token does not expire in flight.
    const margin = Math.min(30_000, (t.expiresAt - t.issuedAt) / 4);
    return this.http.host.now() >= t.expiresAt - margin;
  }

  async prepare(headers: Record<string, string> | undefined): Promise<Record<string, string> | undefined> {
    const mine = this.ours(headers);
    if (!mine || !this.token) return headers;
    let current = this.token;
    if (this.expired(current)) current = (await this.fetchToken()) ?? current;
    return current.value === mine.value ? headers : { ...headers, [mine.key]: `Bearer ${current.value}` };
  }

  async retry(headers: Record<string, string> | undefined, sentAt: number): Promise<Record<string, string> | undefined> {
    const mine = this.ours(headers);
    if (!mine || !this.token) return undefined;
    // A newer token than the one this request went out with: retry with it. Else renew, a bounded number of times.
    let current: Token | undefined = this.token;
    if (current.issuedAt <= sentAt && current.value === mine.value) {
      if (this.pending) current = await this.pending;
      else {
        if (this.renewals >= MAX_RENEWALS) return undefined;
        this.renewals++;
        current = await this.fetchToken();
      }
    }
    return current && current.value !== mine.value ? { ...headers, [mine.key]: `Bearer ${current.value}` } : undefined;
  }
}

/** The token endpoint said the client authentication method is the problem (RFC 6749 §5.2 invalid_client / invalid_request). */
function switchToPost(http: HttpResult): boolean {
  const body = http.json();
  const error = body.ok && isRecord(body.value) ? body.value.error : undefined;
  const challenge = http.headers.get('www-authenticate') ?? '';
  return (error === 'invalid_client' || error === 'invalid_request' || error === 'unauthorized_client') && !/^basic\b/i.test(challenge);
}

/** What the token endpoint answered instead of a token, in words (the error code and description, bounded). */
function describeError(http: HttpResult): string {
  if (!http.responded) return `could not be reached (${http.error?.message ?? 'no answer'})`;
  const body = http.json();
  const v = body.ok && isRecord(body.value) ? body.value : undefined;
  const code = typeof v?.error === 'string' ? v.error.slice(0, 60) : undefined;
  const desc = typeof v?.error_description === 'string' ? v.error_description.slice(0, 200) : undefined;
  if (http.status === 200) return `answered HTTP 200 without an access_token${body.ok ? '' : ' (not JSON)'}`;
  return `refused the client credentials: HTTP ${http.status}${code ? ` ${code}` : ''}${desc ? ` (${desc})` : ''}`;
}
