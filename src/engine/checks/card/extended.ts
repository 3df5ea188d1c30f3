/**
 * card.extended: the extended agent card a card declares is served to authenticated clients only. A card-side
 * check that calls the agent (phase "suite"), listed with the suite checks in ../index.ts.
 */
import { exchange, type HttpResult } from '../../http/client';
import type { Evidence } from '../../model/check';
import type { Dialect } from '../../protocol/dialect';
import { isA2AError, JSONRPC_CODE } from '../../protocol/errors';
import { isRecord } from '../../util/json';
import type { CheckContext } from '../context';
import { defineCheck, exchangeEvidence, fail, pass, skip, transportVerdict } from '../define';
import { authRequirement, declaresSecurity } from '../setups/security';

/** The answer carries an agent card: a 2xx whose body (or JSON-RPC result) is an object with a name. */
export function servesCard(r: HttpResult): boolean {
  if (r.status >= 300) return false;
  const j = r.json();
  const v = j.ok && isRecord(j.value) ? (isRecord(j.value.result) ? j.value.result : j.value) : undefined;
  return !!v && typeof v.name === 'string';
}

export interface ExtendedCardLocation {
  label: string;
  call(anonymous: boolean): Promise<HttpResult>;
}

/** Where the generation says the extended card is; v0.2.6 §7.10 gives a relative GET and a JSON-RPC method. */
export function extendedCardLocations(ctx: CheckContext, d: Dialect, lane: string): ExtendedCardLocation[] {
  // The route and method names come from the table of operations (protocol/operations.ts, op `extendedCard`).
  const rpcCall = async (anonymous: boolean) => (await d.rpc(ctx.http, 'extendedCard', {}, { lane, checkId: ctx.checkId, anonymous })).http;
  if (d.isRest) {
    const route = d.route('extendedCard');
    return [
      {
        label: d.describe('extendedCard'),
        call: (anonymous) => d.rawRest(ctx.http, route.method, route.path, undefined, { lane, checkId: ctx.checkId, anonymous }),
      },
    ];
  }
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
    call: (anonymous) =>
      exchange(ctx.http, { method: 'GET', url: d.url(url, { lane, anonymous }), headers: anonymous ? {} : ctx.authHeaders, lane, checkId: ctx.checkId }),
  }));
  return [...gets, { label: `JSON-RPC ${d.method('extendedCard')}`, call: rpcCall }];
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

const errorOf = (r: HttpResult) => {
  const e = errorBody(r);
  return e ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined).join(' ')}` : `HTTP ${r.status}`;
};

/** Nothing at this location: 404/405 or JSON-RPC method not found. */
const absent = (r: HttpResult) => r.status === 404 || r.status === 405 || errorBody(r)?.code === JSONRPC_CODE.MethodNotFound;

/** "No extended card configured": its JSON-RPC code (v0.3 AuthenticatedExtendedCardNotConfiguredError, v1.0), or its ErrorInfo reason (v1.0 REST). */
const notConfigured = (r: HttpResult) => {
  const e = errorBody(r);
  const name = 'AuthenticatedExtendedCardNotConfigured';
  return !!e && (e.code === JSONRPC_CODE[name] || isA2AError({ kind: 'error', error: { httpStatus: r.status, reason: e.reason, binding: 'HTTP+JSON' } }, name));
};

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
  recommendation: `Serve the extended card only to authenticated clients (401 with WWW-Authenticate otherwise); v1.0: GetExtendedAgentCard / GET /extendedAgentCard, v0.3: agent/getAuthenticatedExtendedCard / GET /v1/card. With no extended card configured, answer ExtendedAgentCardNotConfiguredError (${JSONRPC_CODE.AuthenticatedExtendedCardNotConfigured}).`,
  requires: ['http-binding', 'card'],
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
    let anon: HttpResult | undefined;
    for (const loc of locations) {
      const r = await loc.call(true);
      if (!r.responded) return transportVerdict(r, 'fetching the extended card');
      evidence.push(exchangeEvidence(r, `${loc.label} without credentials`));
      if (!absent(r)) {
        chosen = loc;
        anon = r;
        break;
      }
    }
    if (chosen && anon && servesCard(anon)) {
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
    if (chosen && anon && notConfigured(anon)) {
      return {
        status: 'fail',
        advisory: 'No extended card is configured, so nothing was exposed; the order of the authentication and configuration checks is not specified.',
        message: `Without credentials the agent answered that no extended card is configured (${chosen.label}, ${errorOf(anon)}) instead of asking for authentication.`,
        evidence,
      };
    }
    const refusedAnon = anon && (anon.status === 401 || anon.status === 403) ? anon : undefined;
    if (ctx.credentials.kind === 'none') {
      return refusedAnon
        ? pass(`Refused without credentials (HTTP ${refusedAnon.status}); give credentials to check it is served.`, evidence)
        : skip('No credentials given, and the agent did not refuse the anonymous request.', 'precondition', evidence);
    }
    const tried: string[] = [];
    for (const loc of chosen ? [chosen] : locations) {
      const r = await loc.call(false);
      if (!r.responded) return transportVerdict(r, 'fetching the extended card with credentials');
      evidence.push(exchangeEvidence(r, `${loc.label} with credentials`));
      tried.push(`${loc.label}: ${errorOf(r)}`);
      if (servesCard(r)) return pass(`The extended card is served to authenticated clients (${loc.label}).`, evidence);
      if (notConfigured(r))
        return pass(
          `The agent answered that no extended card is configured (${errorOf(r)}), a defined answer (${ctx.generation === 'v1.0' ? 'ExtendedAgentCardNotConfiguredError, v1.0 §13.3' : `AuthenticatedExtendedCardNotConfiguredError ${JSONRPC_CODE.AuthenticatedExtendedCardNotConfigured}`}).`,
          evidence,
        );
      if (r.status === 401 || r.status === 403) {
        return skip(
          r.status === 403
            ? `The agent refused the credentials given for the extended card (HTTP 403: authenticated, not authorized). Use credentials allowed to read it.`
            : 'The agent refused the credentials given for the extended card (HTTP 401). Check they are valid and sent where the card says.',
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
