/**
 * Authentication checks: requests without credentials are refused when the card requires them (with a
 * WWW-Authenticate challenge on 401), and the user's credentials are accepted. The probe is the operation table's
 * GetTask of an unknown task on every binding: over gRPC credentials travel in metadata (v1.0.1 §10.2) and a refusal
 * is the status UNAUTHENTICATED or PERMISSION_DENIED (§3.3.2), the 401 and 403 of the other bindings.
 */
import { JSONRPC_CODE, LEGACY_DOCUMENT_CODES } from '../protocol/errors';
import type { CheckDef } from './define';
import { defineCheck, exchangeEvidence, fail, pass, refusalOf, refusedForCredentials, skip, transportVerdict, type Verdict } from './define';
import { answered, probeAnswer, probeIs, sendProbe, type Probe } from './setups/probes';
import { unknownTaskId } from './setups/probe-ids';
import { authRequirement, declaresSecurity } from './setups/security';
import { skillRuns } from './setups/tasks';
import type { CheckContextWith } from './context';

const AUTH = {
  legacy: 'v0.1.0 §4.4 Server Responsibilities for Authentication',
  'v0.2': 'v0.2.6 §4.4',
  'v0.3': 'v0.3.0 §4.4 Server Responsibilities for Authentication',
  'v1.0': 'v1.0.1 §7.4 Server Authentication Responsibilities, §3.3.2',
};

/** The same harmless request (get of an unknown task) without, then with, the user's credentials. */
function authProbe(ctx: CheckContextWith<'dialect'>, anonymous: boolean): Promise<Probe> {
  return sendProbe(ctx, anonymous ? 'auth-anonymous' : 'auth-credentials', async () => {
    const taskId = await unknownTaskId(ctx);
    return { ...ctx.dialect.request('get', { id: taskId.id }, { id: taskId.id }), anonymous, lane: 'auth', taskId };
  });
}

/** An error answer as what identifies it on its binding (JSON-RPC code, HTTP status, gRPC status, ErrorInfo reason). */
function errorKey(ctx: CheckContextWith<'dialect'>, p: Probe): string | undefined {
  const a = probeAnswer(ctx, p);
  return a.kind === 'error' && a.error ? JSON.stringify([a.error.code, a.error.httpStatus, a.error.status, a.error.reason]) : undefined;
}

/** With credentials given: the credentialed call got the very same answer, so the anonymous one was not refused for lack of them. */
async function sameWithCredentials(ctx: CheckContextWith<'dialect'>, anon: Probe): Promise<Probe | undefined> {
  if (ctx.credentials.kind === 'none') return undefined;
  const withCreds = await authProbe(ctx, false);
  if (!withCreds.http.responded || withCreds.http.status !== anon.http.status) return undefined;
  const key = errorKey(ctx, anon);
  return key !== undefined && errorKey(ctx, withCreds) === key ? withCreds : undefined;
}

/** The call was processed: a 2xx HTTP+JSON answer, a JSON-RPC result, a gRPC response message. */
function gotResult(ctx: CheckContextWith<'dialect'>, p: Probe): boolean {
  if (p.grpc) return p.grpc.kind === 'task' || p.grpc.kind === 'message' || p.grpc.kind === 'ok';
  return ctx.dialect.isRest ? p.http.status < 400 : !!p.rpc?.hasResult;
}

/**
 * Positive control: with credentials given, the same call must get past authentication before a refusal without them
 * is credited (else the agent refuses everyone, or the credentials are wrong, and the refusal proves nothing).
 * Undefined when the control passed or cannot run (no credentials); else the verdict that replaces the pass.
 */
async function uncontrolled(ctx: CheckContextWith<'dialect'>, anon: Probe): Promise<Verdict | undefined> {
  if (ctx.credentials.kind === 'none') return undefined;
  const withCreds = await authProbe(ctx, false);
  const evidence = [exchangeEvidence(anon.http, 'without credentials'), exchangeEvidence(withCreds.http, 'with credentials')];
  if (!withCreds.http.responded)
    return skip(
      `The anonymous call was refused, but the same call with credentials got no answer (${withCreds.http.error?.message ?? 'no response'}): the refusal cannot be credited.`,
      'precondition',
      evidence,
    );
  const refused = refusalOf(withCreds.http);
  if (refused)
    return skip(
      `The anonymous call was refused, but so was the same call with the credentials given (${refused.said}): a refusal that does not depend on the credentials proves nothing about authentication. Check the credentials.`,
      'credentials',
      evidence,
    );
  return undefined;
}

const authRequired = defineCheck({
  id: 'auth.required',
  title: 'Requests without credentials are rejected when the card requires authentication',
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: AUTH,
  recommendation:
    'Enforce the security requirements the card declares on every A2A endpoint (not on the card): put the auth middleware in front of the JSON-RPC/REST handlers and answer 401 (with WWW-Authenticate) or 403; over gRPC, an interceptor that reads the credentials from the metadata and answers UNAUTHENTICATED or PERMISSION_DENIED. An agent that requires credentials in its card but serves anonymous calls misleads its clients.',
  requires: ['dialect'],
  run: async (ctx) => {
    const req = authRequirement(ctx);
    if (!req.required) return skip(req.why, 'not-applicable');
    const p = await authProbe(ctx, true);
    if (!p.http.responded || p.http.error) return transportVerdict(p.http, 'calling without credentials');
    const s = p.http.status;
    const evidence = [exchangeEvidence(p.http)];
    const refused = refusalOf(p.http);
    if (refused) {
      const control = await uncontrolled(ctx, p);
      if (control) return control;
      return pass(
        `Rejected with ${refused.said}. ${req.why}${ctx.credentials.kind === 'none' ? '' : ' The same call with the credentials given got past authentication.'}`,
        evidence,
      );
    }
    const processed = `${req.why} Yet a call without credentials was processed`;
    if (gotResult(ctx, p)) return fail(`${processed}: ${answered(p)}.`, evidence);
    if (probeIs(ctx, p, 'TaskNotFound'))
      return fail(
        `${processed}: it answered TaskNotFound (${p.rpc ? JSONRPC_CODE.TaskNotFound : answered(p)}) for our unknown id, which means the lookup ran.`,
        evidence,
      );
    const same = await sameWithCredentials(ctx, p);
    if (same) {
      return fail(
        `${req.why} A call without credentials got ${answered(p)}, exactly the answer the same call with credentials got: the refusal is not an authentication check.`,
        [...evidence, exchangeEvidence(same.http, 'with credentials')],
      );
    }
    const code = p.rpc?.error?.code;
    if (!ctx.dialect.isRest && typeof code === 'number') {
      const control = await uncontrolled(ctx, p);
      if (control) return control;
      if (ctx.generation === 'v1.0')
        return pass(
          `Rejected with JSON-RPC error ${code} (HTTP ${s}): v1.0.1 §3.3.2 names a "JSON-RPC custom error" as one form of the rejection (HTTP 401/403 is customary). ${req.why}`,
          evidence,
        );
      return {
        ...fail(`A call without credentials was refused with JSON-RPC error ${code} at HTTP ${s}, not with HTTP 401/403.`, evidence),
        advisory: `The rejection the MUST asks for happened; §4.4 "SHOULD use standard HTTP status codes like 401 … or 403" gives them as examples, and v0.1.0 itself lists a JSON-RPC AuthenticationRequiredError (${LEGACY_DOCUMENT_CODES.AuthenticationRequired}).`,
      };
    }
    return {
      ...fail(
        `A call without credentials was answered ${answered(p)}: neither processed nor refused with ${p.grpc ? 'UNAUTHENTICATED or PERMISSION_DENIED' : '401/403'}, so we cannot tell whether authentication is enforced.`,
        evidence,
      ),
      advisory: 'The call was not processed visibly, so the MUST (reject requests without credentials) may be met; only the form of the refusal is unusual.',
    };
  },
});

const authChallenge = defineCheck({
  id: 'auth.challenge',
  title: 'A 401 carries WWW-Authenticate',
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §4.4 (RFC 9110 §11.6.1)',
    'v0.2': 'v0.2.6 §4.4 (RFC 9110 §11.6.1)',
    'v0.3': 'v0.3.0 §4.4 (RFC 9110 §11.6.1)',
    'v1.0': 'v1.0.1 §7.4 (RFC 9110 §11.6.1)',
  },
  recommendation:
    'Send a WWW-Authenticate header with every 401 (RFC 9110 §11.6.1 MUST), e.g. WWW-Authenticate: Bearer realm="agent"; clients use it to pick the scheme. If your server sets it, check that no proxy, gateway or CDN in front of the agent strips it.',
  requires: ['http-auth-challenge'],
  run: async (ctx) => {
    const req = authRequirement(ctx);
    if (!req.required) return skip(req.why, 'not-applicable');
    const p = await authProbe(ctx, true);
    if (p.http.status !== 401)
      return skip(
        `The anonymous call got HTTP ${p.http.status || 'no answer'}, not 401.`,
        p.http.status === 403 || p.http.responded ? 'not-applicable' : 'precondition',
      );
    const h = p.http.headers.get('www-authenticate');
    return h
      ? pass(`WWW-Authenticate: ${h}`)
      : fail('HTTP 401 without a WWW-Authenticate header (RFC 9110 §11.6.1: a server generating a 401 MUST send one).', [exchangeEvidence(p.http)]);
  },
});

const authAccepted = defineCheck({
  id: 'auth.accepted',
  title: "The same request with the user's credentials is accepted",
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: AUTH,
  recommendation:
    'Accept the credentials in the place the card declares (the header name of the apiKey scheme, or Authorization: Bearer; over gRPC the same names as metadata keys) on every operation. Check that the scheme in the card matches what the middleware reads.',
  requires: ['dialect'],
  run: async (ctx) => {
    if (!declaresSecurity(ctx)) return skip('The card declares no security.', 'not-applicable');
    if (ctx.credentials.kind === 'none') return skip('No credentials were given for this run.', 'precondition');
    const p = await authProbe(ctx, false);
    if (!p.http.responded) return transportVerdict(p.http, 'calling with credentials');
    // A 401 or 403, or gRPC UNAUTHENTICATED or PERMISSION_DENIED (refusedForCredentials gives its verdict for exactly these).
    const refused = refusedForCredentials(ctx, p.http);
    const refusal = refusalOf(p.http);
    if (refused && refusal) {
      // Refused everywhere: we cannot tell wrong credentials (expired, missing scope) from a wrong agent.
      const runs = await skillRuns(ctx);
      const accepted = runs.find((r) => r.send.http.responded && !refusalOf(r.send.http));
      if (!accepted) return refused;
      if (refusal.status === 403) {
        return pass(
          `${refusal.said} for ${ctx.dialect.describe('get')} of a task that does not exist, while the same credentials were accepted for ${ctx.dialect.describe('send')}: an authorization decision on an unknown task (v1.0.1 §3.3.2 Authorization Errors), not a refusal of the credentials.`,
          [exchangeEvidence(accepted.send.http, 'accepted'), exchangeEvidence(p.http, 'forbidden')],
        );
      }
      return fail(
        `The credentials were accepted for ${ctx.dialect.describe('send')} but refused (${refusal.said}) for ${ctx.dialect.describe('get')}: the agent enforces its scheme inconsistently.`,
        [exchangeEvidence(accepted.send.http, 'accepted'), exchangeEvidence(p.http, 'refused')],
      );
    }
    return pass(`Accepted (${p.grpc ? answered(p) : `HTTP ${p.http.status}`}).`, [exchangeEvidence(p.http)]);
  },
});

export const authChecks: CheckDef[] = [authRequired, authChallenge, authAccepted];
