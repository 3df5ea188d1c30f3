/**
 * The OAuth 2.0 token endpoint and OpenID Connect discovery document the card points at, as the run used them to
 * get a token (src/engine/auth). Advisories: A2A leaves getting credentials out of band (spec/data/oauth.ts).
 */
import { declaresOAuth, type OAuthStep } from '../auth';
import type { HttpResult } from '../http/client';
import { isRecord } from '../util/json';
import type { CheckContext } from './context';
import type { CheckDef } from './define';
import { defineCheck, exchangeEvidence, fail, pass, skip, toolError, type Verdict } from './define';

/** RFC 6749 §5.2 error codes. */
const ERROR_CODES = new Set(['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope']);

/** What is wrong with one token endpoint answer (RFC 6749 §5.1 / §5.2), empty when nothing is. */
export function judgeTokenAnswer(http: HttpResult): string[] {
  const out: string[] = [];
  const body = http.json();
  const v = body.ok && isRecord(body.value) ? body.value : undefined;
  const json = /^application\/([\w.+-]*\+)?json\b/i.test(http.contentType);
  if (http.status === 200) {
    if (!v) return [`HTTP 200 whose body is not a JSON object${body.ok ? '' : ` (${body.error})`}`];
    if (!json) out.push(`Content-Type "${http.contentType || 'none'}" instead of application/json (§5.1)`);
    if (typeof v.access_token !== 'string' || !v.access_token) out.push('no access_token (REQUIRED, §5.1)');
    if (typeof v.token_type !== 'string') out.push('no token_type (REQUIRED, §5.1)');
    else if (v.token_type.toLowerCase() !== 'bearer')
      out.push(`token_type "${v.token_type.slice(0, 40)}": only Bearer tokens can be sent to an A2A agent as declared`);
    if (v.expires_in !== undefined && (typeof v.expires_in !== 'number' || !(v.expires_in > 0)))
      out.push(`expires_in ${JSON.stringify(v.expires_in).slice(0, 40)} is not a positive number of seconds (§5.1)`);
    if (!/\bno-store\b/i.test(http.headers.get('cache-control') ?? '')) out.push('no "Cache-Control: no-store" on an answer carrying a token (§5.1 MUST)');
    return out;
  }
  if (http.status >= 400 && http.status < 500) {
    if (!v) return [`HTTP ${http.status} whose body is not a JSON object with an "error" member (§5.2)`];
    if (typeof v.error !== 'string') out.push(`HTTP ${http.status} without an "error" code (REQUIRED, §5.2)`);
    else if (!ERROR_CODES.has(v.error)) out.push(`error "${v.error.slice(0, 60)}" is not one of the §5.2 codes (${[...ERROR_CODES].join(', ')})`);
    const allowed = http.status === 400 || (http.status === 401 && v.error === 'invalid_client');
    if (!allowed) out.push(`HTTP ${http.status}: §5.2 answers errors with 400 (401 only for invalid_client)`);
    if (!json) out.push(`Content-Type "${http.contentType || 'none'}" instead of application/json (§5.2)`);
    return out;
  }
  return [`HTTP ${http.status}: neither a token (200, §5.1) nor an error answer (400, §5.2)`];
}

/** What is wrong with an OpenID Connect discovery document fetched from `url`, empty when nothing is. */
export function judgeDiscovery(http: HttpResult, url: string): string[] {
  if (http.status !== 200) return [`HTTP ${http.status} for the discovery document`];
  const body = http.json();
  if (!body.ok || !isRecord(body.value)) return ['the discovery document is not a JSON object'];
  const d = body.value;
  const out: string[] = [];
  const expected = url.replace(/\/\.well-known\/openid-configuration\/?$/, '');
  if (typeof d.issuer !== 'string') out.push('no issuer (REQUIRED, §3)');
  else if (d.issuer.replace(/\/$/, '') !== expected.replace(/\/$/, ''))
    out.push(`issuer "${d.issuer.slice(0, 200)}" is not the URL the document was fetched under ("${expected}", §4.3 MUST)`);
  if (typeof d.token_endpoint !== 'string') out.push('no token_endpoint (REQUIRED unless only the implicit flow is used, §3)');
  const grants = d.grant_types_supported;
  if (grants === undefined) out.push('no grant_types_supported: the default (authorization_code, implicit) excludes client_credentials (§3)');
  else if (!Array.isArray(grants) || !grants.includes('client_credentials'))
    out.push('grant_types_supported does not list client_credentials, the grant an agent-to-agent client uses');
  return out;
}

function notUsed(ctx: CheckContext, what: string): Verdict | undefined {
  if (!declaresOAuth(ctx.card)) return skip('The card declares no OAuth 2.0 or OpenID Connect scheme.', 'not-applicable');
  if (ctx.credentials.kind === 'none') return skip(`No OAuth client id and secret were given for this run, so no ${what} was made.`, 'precondition');
  if (ctx.credentials.kind !== 'oauth2')
    return skip(
      `Credentials of another kind (${ctx.credentials.kind}) were given, so no ${what} was made: the token was obtained out of band.`,
      'not-applicable',
    );
  if (!ctx.oauth)
    return skip('The card declares no client-credentials flow with a tokenUrl, nor an openIdConnectUrl, that a client could use.', 'not-applicable');
  return undefined;
}

function judgeSteps(steps: readonly OAuthStep[], judge: (h: HttpResult) => string[], what: string): Verdict {
  // No answer at all: the identity provider (or our proxy) failed, which says nothing about the agent.
  const unanswered = steps.find((s) => !s.http.responded);
  if (unanswered && steps.every((s) => !s.http.responded)) {
    const e = unanswered.http.error;
    return e?.blame === 'tool'
      ? toolError(`Our tool or proxy failed while ${what}: ${e.message}`, [exchangeEvidence(unanswered.http, unanswered.step)], e.code)
      : skip(`No answer while ${what}: ${e?.message ?? 'no response'}.`, 'precondition', [exchangeEvidence(unanswered.http, unanswered.step)]);
  }
  const bad = steps.filter((s) => s.http.responded).map((s) => ({ s, problems: judge(s.http) }));
  const failing = bad.filter((b) => b.problems.length);
  if (failing.length) {
    return fail(
      failing.map((b) => `${b.s.method ? `${b.s.method}: ` : ''}${b.problems.join('; ')}`).join('. '),
      failing.slice(0, 4).map((b) => exchangeEvidence(b.s.http, b.s.step)),
    );
  }
  const answered = bad.map((b) => `HTTP ${b.s.http.status}`).join(', ');
  return pass(
    `${bad.length} answer(s) (${answered}) shaped as the standard says.`,
    bad.slice(0, 2).map((b) => exchangeEvidence(b.s.http, b.s.step)),
  );
}

const authOAuthToken = defineCheck({
  id: 'auth.oauth-token',
  title: 'The OAuth token endpoint answers as RFC 6749 §5 specifies',
  category: 'error-handling',
  level: 'MAY',
  phase: 'suite',
  specRefs: { 'v0.2': 'RFC 6749 §5.1, §5.2', 'v0.3': 'RFC 6749 §5.1, §5.2', 'v1.0': 'RFC 6749 §5.1, §5.2' },
  recommendation:
    'Answer token requests with a JSON object: on success access_token, token_type "Bearer", expires_in and Cache-Control: no-store; on failure HTTP 400 (401 for invalid_client) with an "error" code from RFC 6749 §5.2. Clients (ours included) cannot tell a wrong secret from a broken server otherwise.',
  run: async (ctx) => {
    const skipped = notUsed(ctx, 'token request');
    if (skipped) return skipped;
    const steps = ctx.oauth?.steps.filter((s) => s.step === 'token') ?? [];
    if (!steps.length) return skip(`No token request was made: ${ctx.oauth?.failure?.message ?? 'no token endpoint'}.`, 'precondition');
    return judgeSteps(steps, judgeTokenAnswer, 'requesting a token');
  },
});

const authOAuthDiscovery = defineCheck({
  id: 'auth.oauth-discovery',
  title: 'The OpenID Connect discovery document names a token endpoint for client credentials',
  category: 'error-handling',
  level: 'MAY',
  phase: 'suite',
  specRefs: {
    'v0.2': 'OpenID Connect Discovery 1.0 §3, §4.3',
    'v0.3': 'OpenID Connect Discovery 1.0 §3, §4.3',
    'v1.0': 'OpenID Connect Discovery 1.0 §3, §4.3',
  },
  recommendation:
    'Serve the discovery document at the openIdConnectUrl with the issuer it is served under, a token_endpoint and grant_types_supported including client_credentials; or declare an oauth2 scheme with a clientCredentials flow and its tokenUrl.',
  run: async (ctx) => {
    const skipped = notUsed(ctx, 'discovery request');
    if (skipped) return skipped;
    const plan = ctx.oauth?.plan;
    if (plan?.kind !== 'openid-connect')
      return skip('The card gives the token URL itself (clientCredentials flow): no discovery document was needed.', 'not-applicable');
    const steps = ctx.oauth?.steps.filter((s) => s.step === 'discovery') ?? [];
    return judgeSteps(steps, (h) => judgeDiscovery(h, plan.discoveryUrl ?? ''), 'reading the discovery document');
  },
});

export const oauthChecks: CheckDef[] = [authOAuthToken, authOAuthDiscovery];
