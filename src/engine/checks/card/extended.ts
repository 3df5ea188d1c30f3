/**
 * card.extended: the extended agent card a card declares is served to authenticated clients only. A card-side
 * check that calls the agent (phase "suite"), listed with the suite checks in ../index.ts.
 */
import { exchange, type HttpResult } from '../../http/client';
import type { Evidence } from '../../model/check';
import type { CallOutcome, Dialect } from '../../protocol/dialect';
import { isA2AError, JSONRPC_CODE } from '../../protocol/errors';
import { isRecord } from '../../util/json';
import type { CheckContext } from '../context';
import { defineCheck, exchangeEvidence, fail, pass, refusalOf, skip, transportVerdict } from '../define';
import { authRequirement, declaresSecurity } from '../setups/security';

/** One answer at an extended-card location, read the same way on every binding. */
export interface ExtendedCardAnswer {
  http: HttpResult;
  /** The card served: a success (HTTP body, JSON-RPC result, gRPC response message) that is an object with a name. */
  card?: Record<string, unknown>;
  /** Nothing at this location: HTTP 404/405, JSON-RPC method not found, gRPC UNIMPLEMENTED without an ErrorInfo. */
  absent: boolean;
  /** "No extended card is configured" (v1.0 ExtendedAgentCardNotConfigured, v0.3 AuthenticatedExtendedCardNotConfigured). */
  notConfigured: boolean;
  /** What was answered, in words. */
  said: string;
}

export interface ExtendedCardLocation {
  label: string;
  call(anonymous: boolean): Promise<ExtendedCardAnswer>;
}

/** The JSON-RPC error (or REST google.rpc.Status) in an answer, if any. */
function errorBody(r: HttpResult): { code?: unknown; reason?: string; status?: unknown } | undefined {
  const j = r.json();
  if (!j.ok || !isRecord(j.value) || !isRecord(j.value.error)) return undefined;
  const e = j.value.error;
  const details = Array.isArray(e.details) ? e.details : Array.isArray(e.data) ? e.data : [];
  const info = details.find((x) => isRecord(x) && typeof x.reason === 'string');
  return { code: e.code, status: e.status, reason: isRecord(info) ? String(info.reason) : undefined };
}

const NOT_CONFIGURED = 'AuthenticatedExtendedCardNotConfigured';

/** An HTTP answer (a GET, an HTTP+JSON route, a JSON-RPC call) at an extended-card location. */
function httpAnswer(r: HttpResult): ExtendedCardAnswer {
  const j = r.status < 300 ? r.json() : undefined;
  const v = j?.ok && isRecord(j.value) ? (isRecord(j.value.result) ? j.value.result : j.value) : undefined;
  const e = errorBody(r);
  return {
    http: r,
    card: v && typeof v.name === 'string' ? v : undefined,
    absent: r.status === 404 || r.status === 405 || e?.code === JSONRPC_CODE.MethodNotFound,
    // Its JSON-RPC code (v0.3 AuthenticatedExtendedCardNotConfiguredError, v1.0), or its ErrorInfo reason (v1.0 REST).
    notConfigured:
      !!e &&
      (e.code === JSONRPC_CODE[NOT_CONFIGURED] ||
        isA2AError({ kind: 'error', error: { httpStatus: r.status, reason: e.reason, binding: 'HTTP+JSON' } }, NOT_CONFIGURED)),
    said: e ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined).join(' ')}` : `HTTP ${r.status}`,
  };
}

/** A typed call's answer (gRPC GetExtendedAgentCard): the AgentCard message, or a status with its ErrorInfo. */
function callAnswer(o: CallOutcome): ExtendedCardAnswer {
  const e = o.kind === 'error' ? o.error : undefined;
  return {
    http: o.http,
    card: o.kind === 'ok' && isRecord(o.value) && typeof o.value.name === 'string' ? o.value : undefined,
    absent: e?.status === 'UNIMPLEMENTED' && !e.reason,
    notConfigured: isA2AError(o, NOT_CONFIGURED),
    said: e ? `gRPC ${e.status ?? 'error'}${e.reason ? ` ${e.reason}` : ''}` : o.kind === 'ok' ? 'a response message' : o.kind,
  };
}

/**
 * Where the generation says the extended card is: the operation of the table (protocol/operations.ts, op
 * `extendedCard`) as the binding calls it (a JSON-RPC method, an HTTP+JSON route, the gRPC GetExtendedAgentCard RPC,
 * v1.0.1 §10.4.11); v0.2.6 §7.10 also gives a relative GET.
 */
export function extendedCardLocations(ctx: CheckContext, d: Dialect, lane: string): ExtendedCardLocation[] {
  const opts = (anonymous: boolean) => ({ lane, checkId: ctx.checkId, anonymous });
  const req = d.request('extendedCard', {});
  if (req.kind === 'grpc')
    return [{ label: d.describe('extendedCard'), call: async (anonymous) => callAnswer(await d.invoke(ctx.http, req.op, req.params, opts(anonymous))) }];
  if (req.kind === 'rest')
    return [
      { label: d.describe('extendedCard'), call: async (anonymous) => httpAnswer(await d.rawRest(ctx.http, req.method, req.path, req.body, opts(anonymous))) },
    ];
  const rpcCall = async (anonymous: boolean) => httpAnswer((await d.rpc(ctx.http, 'extendedCard', req.params, opts(anonymous))).http);
  if (d.generation !== 'v0.2') return [{ label: d.method('extendedCard'), call: rpcCall }];
  const base = d.endpointUrl;
  const dir = base.endsWith('/') ? base : `${base}/`;
  // "{AgentCard.url}/../agent/authenticatedExtendedCard" read as a path (the §7.10 example), then as a URL
  // reference, then at the origin (a2a-python), then under the URL.
  const urls = [
    new URL('../agent/authenticatedExtendedCard', dir).toString(),
    new URL('../agent/authenticatedExtendedCard', base).toString(),
    new URL('/agent/authenticatedExtendedCard', base).toString(),
    new URL('agent/authenticatedExtendedCard', dir).toString(),
  ].filter((u, i, all) => all.indexOf(u) === i);
  const gets: ExtendedCardLocation[] = urls.map((url) => ({
    label: `GET ${ctx.http.redactor.url(url)}`,
    call: async (anonymous) =>
      httpAnswer(
        await exchange(ctx.http, {
          method: 'GET',
          url: d.url(url, { lane, anonymous }),
          headers: anonymous ? {} : ctx.authHeaders,
          lane,
          checkId: ctx.checkId,
        }),
      ),
  }));
  return [...gets, { label: `JSON-RPC ${d.method('extendedCard')}`, call: rpcCall }];
}

export const cardExtended = defineCheck({
  id: 'card.extended',
  title: 'The extended agent card, when declared, is served to authenticated clients only',
  category: 'agent-card',
  level: 'SHOULD',
  // A feature the card opts into, judged by calling the agent: not part of "the card is valid".
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    'v0.2': 'v0.2.6 §5.5 supportsAuthenticatedExtendedCard, §7.10',
    'v0.3': 'v0.3.0 §7.10 agent/getAuthenticatedExtendedCard',
    'v1.0': 'v1.0.1 §3.1.11 Get Extended Agent Card, §13.3',
  },
  recommendation: `Serve the extended card only to authenticated clients (401 with WWW-Authenticate otherwise; over gRPC UNAUTHENTICATED); v1.0: GetExtendedAgentCard / GET /extendedAgentCard, v0.3: agent/getAuthenticatedExtendedCard / GET /v1/card. With no extended card configured, answer ExtendedAgentCardNotConfiguredError (${JSONRPC_CODE.AuthenticatedExtendedCardNotConfigured}).`,
  requires: ['dialect', 'card'],
  run: async (ctx) => {
    const raw = ctx.raw;
    const declared = ctx.generation === 'v1.0' ? ctx.card.capabilities.extendedAgentCard : raw.supportsAuthenticatedExtendedCard === true;
    if (!declared) return skip('The card does not declare an extended card.', 'not-applicable');
    const d = ctx.dialect;
    const lane = ctx.lane('extended card');
    const locations = extendedCardLocations(ctx, d, lane);
    const evidence: Evidence[] = [];
    // v0.2.6 §7.10 names the location two ways (a GET "{url}/../agent/authenticatedExtendedCard", and a JSON-RPC
    // method); the first location that exists (answers anything but not-found) is the one judged.
    let chosen: ExtendedCardLocation | undefined;
    let anon: ExtendedCardAnswer | undefined;
    for (const loc of locations) {
      const r = await loc.call(true);
      if (!r.http.responded) return transportVerdict(r.http, 'fetching the extended card');
      evidence.push(exchangeEvidence(r.http, `${loc.label} without credentials`));
      if (!r.absent) {
        chosen = loc;
        anon = r;
        break;
      }
    }
    if (chosen && anon?.card) {
      // v1.0 §13.3: the operation MUST require authentication. v0.2/v0.3 §4.4: authenticate every request per the
      // card's declared requirements (card-level `security`).
      if (ctx.generation === 'v1.0' && declaresSecurity(ctx))
        return fail(`The extended card was served without credentials (${chosen.label}); v1.0 §13.3: the operation MUST require authentication.`, evidence);
      if (ctx.generation !== 'v1.0' && authRequirement(ctx).required)
        return fail(
          `The extended card was served without credentials (${chosen.label}), although the card requires authentication: ${authRequirement(ctx).why}`,
          evidence,
        );
      if (ctx.generation === 'v1.0') {
        return {
          status: 'fail',
          advisory: 'The card declares no security scheme, so a client has nothing to authenticate with.',
          message: `The extended card was served without credentials (${chosen.label}); v1.0 §13.3 says the operation MUST require authentication, but the card declares no scheme.`,
          evidence,
        };
      }
      return pass(`The extended card was served without credentials, which the card allows: ${authRequirement(ctx).why}`, evidence);
    }
    if (chosen && anon?.notConfigured) {
      return {
        status: 'fail',
        advisory: 'No extended card is configured, so nothing was exposed; the order of the authentication and configuration checks is not specified.',
        message: `Without credentials the agent answered that no extended card is configured (${chosen.label}, ${anon.said}) instead of asking for authentication.`,
        evidence,
      };
    }
    // HTTP 401/403; over gRPC UNAUTHENTICATED / PERMISSION_DENIED (v1.0.1 §3.3.2).
    const refusedAnon = anon && refusalOf(anon.http);
    if (ctx.credentials.kind === 'none') {
      return refusedAnon
        ? pass(`Refused without credentials (${refusedAnon.said}); give credentials to check it is served.`, evidence)
        : skip('No credentials given, and the agent did not refuse the anonymous request.', 'precondition', evidence);
    }
    const tried: string[] = [];
    for (const loc of chosen ? [chosen] : locations) {
      const r = await loc.call(false);
      if (!r.http.responded) return transportVerdict(r.http, 'fetching the extended card with credentials');
      evidence.push(exchangeEvidence(r.http, `${loc.label} with credentials`));
      tried.push(`${loc.label}: ${r.said}`);
      if (r.card) return pass(`The extended card is served to authenticated clients (${loc.label}).`, evidence);
      if (r.notConfigured)
        return pass(
          `The agent answered that no extended card is configured (${r.said}), a defined answer (${ctx.generation === 'v1.0' ? 'ExtendedAgentCardNotConfiguredError, v1.0 §13.3' : `AuthenticatedExtendedCardNotConfiguredError ${JSONRPC_CODE.AuthenticatedExtendedCardNotConfigured}`}).`,
          evidence,
        );
      const refused = refusalOf(r.http);
      if (refused) {
        return skip(
          refused.status === 403
            ? `The agent refused the credentials given for the extended card (${refused.said}: authenticated, not authorized). Use credentials allowed to read it.`
            : `The agent refused the credentials given for the extended card (${refused.said}). Check they are valid and sent where the card says.`,
          'credentials',
          evidence,
        );
      }
    }
    const ambiguous = ctx.generation === 'v0.2' && !chosen;
    return {
      status: 'fail',
      advisory: ambiguous
        ? 'v0.2.6 §7.10 names the location two ways ("{AgentCard.url}/../agent/authenticatedExtendedCard" and a JSON-RPC method), so not finding it may be ours.'
        : 'The card advertises an extended card that is not served; no sentence requires more than the declaration.',
      message: `With credentials the extended card was not returned (${tried.join('; ')}).`,
      evidence,
    };
  },
});
