/**
 * Security review of how the agent answers (informational, phase "suite"): CORS that lets any site make credentialed
 * calls, redirects from its endpoints to other hosts, the extended card served to anonymous clients.
 */
import { exchange } from '../../http/client';
import type { Evidence } from '../../model/check';
import { PREFLIGHT_ORIGIN, PROXY_REDIRECTS_HEADER, PROXY_UPSTREAM_URL_HEADER } from '../../model/proxy';
import { isRecord } from '../../util/json';
import { extendedCardLocations } from '../card/extended';
import type { CheckContext } from '../context';
import { ev, exchangeEvidence, pass, skip, toolError, transportVerdict } from '../define';
import { defineSecurityCheck, finding } from './common';
import { addressKind } from './detect';

// ------------------------------------------------------------------------------------------------ CORS

interface CorsAnswer {
  where: string;
  acao?: string;
  acac?: string;
}

/** The CORS answer of each URL to a preflight from a foreign origin (and, direct, the card's GET with that Origin). */
async function corsAnswers(ctx: CheckContext): Promise<{ answers: CorsAnswer[]; evidence: Evidence[]; error?: string } | undefined> {
  const host = ctx.http.host;
  if (!host.preflight) return undefined;
  const targets: [string, string, string[]][] = [];
  if (ctx.discovery.cardUrl) targets.push([ctx.discovery.cardUrl, 'GET', []]);
  const rpc = ctx.dialect?.operationUrl('send');
  if (rpc) targets.push([rpc, 'POST', ['content-type']]);
  const answers: CorsAnswer[] = [];
  const evidence: Evidence[] = [];
  for (const [url, method, headers] of targets) {
    const r = await host.preflight({ url, origin: PREFLIGHT_ORIGIN, method, headers, signal: ctx.http.signal });
    if (!r.ok) {
      if (r.blame === 'tool') return { answers, evidence, error: r.error };
      continue;
    }
    const h = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const where = `OPTIONS ${ctx.http.redactor.url(url)} (Origin ${PREFLIGHT_ORIGIN}, ${method})`;
    answers.push({ where, acao: h['access-control-allow-origin'], acac: h['access-control-allow-credentials'] });
    evidence.push(
      ev(
        'preflight',
        `${where} → ${r.status}\naccess-control-allow-origin: ${h['access-control-allow-origin'] ?? '(none)'}\naccess-control-allow-credentials: ${h['access-control-allow-credentials'] ?? '(none)'}`,
      ),
    );
  }
  return { answers, evidence };
}

const securityCorsCredentials = defineSecurityCheck({
  id: 'security.cors.credentials',
  title: 'CORS never combines a wildcard or any-origin Access-Control-Allow-Origin with Access-Control-Allow-Credentials: true',
  phase: 'suite',
  specRefs: { legacy: 'Fetch §3.2 (outside A2A)', 'v0.2': 'Fetch §3.2 (outside A2A)', 'v0.3': 'Fetch §3.2 (outside A2A)', 'v1.0': 'Fetch §3.2 (outside A2A)' },
  recommendation:
    'Allow credentials only for an explicit list of trusted origins (echo the Origin only when it is on the list, with Vary: Origin), or drop Access-Control-Allow-Credentials: A2A clients authenticate with headers (Authorization, an API key), which need no credentialed CORS. Express: cors({ origin: [...allowed], credentials: true }); Starlette: CORSMiddleware(allow_origins=[...], allow_credentials=True).',
  run: async (ctx) => {
    const got = await corsAnswers(ctx);
    if (!got)
      return skip(
        'A browser cannot send a CORS preflight by hand. Run the CLI (a2a-interop run <url>; installed from a git URL or a tarball, see the README) to review CORS.',
        'precondition',
      );
    if (got.error) return toolError(`The preflight could not be sent: ${got.error}`, got.evidence);
    if (!got.answers.length) return skip('No CORS preflight was answered.', 'precondition', got.evidence);
    const bad = got.answers.filter((a) => a.acac?.trim().toLowerCase() === 'true' && (a.acao?.trim() === '*' || a.acao?.trim() === PREFLIGHT_ORIGIN));
    if (!bad.length) return pass('No answer allows credentialed cross-origin calls from any origin.', got.evidence);
    const anyOrigin = bad.some((a) => a.acao?.trim() === PREFLIGHT_ORIGIN);
    return finding(
      anyOrigin
        ? `The agent echoes any Origin (we sent ${PREFLIGHT_ORIGIN}) in Access-Control-Allow-Origin together with Access-Control-Allow-Credentials: true (${bad.map((a) => a.where).join('; ')}): any web site can make credentialed calls (cookies, HTTP auth) and read the answers.`
        : `Access-Control-Allow-Origin: * comes with Access-Control-Allow-Credentials: true (${bad.map((a) => a.where).join('; ')}). Browsers refuse that pair for credentialed requests; it says credentialed calls are meant to be open to every origin, one step from echoing any Origin.`,
      got.evidence,
    );
  },
});

// ------------------------------------------------------------------------------------------------ redirects

const REDIRECT = new Set([301, 302, 303, 307, 308]);
const MAX_HOPS = 5;
const PROBE_TIMEOUT_MS = 5000;

interface Probe {
  label: string;
  url: string;
  method: 'GET' | 'POST';
  body?: string;
}

interface Hop {
  url: string;
  status: number;
  location?: string;
}

/** Follows one request hop by hop (never to another host): the chain, where it ends, and what went wrong. */
async function follow(
  ctx: CheckContext,
  p: Probe,
): Promise<{ hops: Hop[]; offHost?: URL; viaProxy?: { redirects: number; finalUrl: string }; error?: string }> {
  const hops: Hop[] = [];
  let url = p.url;
  const start = new URL(p.url);
  const lane = ctx.lane('security: redirects');
  for (let i = 0; i <= MAX_HOPS; i++) {
    const r = await exchange(ctx.http, {
      method: p.method,
      url,
      headers: p.body ? { 'Content-Type': 'application/json', Accept: 'application/json' } : { Accept: 'application/json' },
      body: p.body,
      lane,
      checkId: ctx.checkId,
      timeoutMs: PROBE_TIMEOUT_MS,
      redirect: 'manual',
    });
    if (r.error) return { hops, error: `${r.error.code}: ${r.error.message}` };
    // Through the proxy, the proxy follows (and re-checks every hop against its policy) and says so in headers.
    const proxied = r.headers.get(PROXY_REDIRECTS_HEADER);
    const finalUrl = r.headers.get(PROXY_UPSTREAM_URL_HEADER);
    if (proxied && finalUrl) {
      hops.push({ url, status: r.status });
      const end = new URL(finalUrl, url);
      return { hops, viaProxy: { redirects: Number(proxied) || 1, finalUrl }, offHost: end.host !== start.host ? end : undefined };
    }
    const location = REDIRECT.has(r.status) ? (r.headers.get('location') ?? undefined) : undefined;
    hops.push({ url, status: r.status, location });
    // An opaque redirect (status 0): a browser fetching without a proxy does not show where it leads.
    if (r.status === 0) return { hops, error: 'the browser hides where a redirect leads' };
    if (!location) return { hops };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return { hops, error: `invalid Location "${location.slice(0, 200)}"` };
    }
    if (next.host !== start.host || next.protocol !== start.protocol) return { hops, offHost: next };
    url = next.href;
  }
  return { hops, error: `more than ${MAX_HOPS} redirects` };
}

const chainText = (ctx: CheckContext, hops: Hop[], end?: URL) =>
  [...hops.map((h) => `${ctx.http.redactor.url(h.url)} → ${h.status}`), ...(end ? [`${ctx.http.redactor.url(end.href)} (not followed)`] : [])].join('\n');

const securityRedirects = defineSecurityCheck({
  id: 'security.redirects',
  title: "The agent's card and endpoint do not redirect clients to other hosts (or from HTTPS to HTTP)",
  phase: 'suite',
  specRefs: { legacy: 'RFC 9110 §15.4', 'v0.2': 'RFC 9110 §15.4', 'v0.3': 'RFC 9110 §15.4', 'v1.0': 'RFC 9110 §15.4; v1.0.1 §13.4' },
  recommendation:
    'Publish the final URLs in the card (interface URLs, the card location) so clients never need a redirect; if a move is unavoidable, redirect within the same host and never from HTTPS to HTTP. A redirect to another host hands the request (and, in clients that keep them, its credentials) to that host.',
  run: async (ctx) => {
    const probes: Probe[] = [];
    if (ctx.discovery.cardUrl) probes.push({ label: 'card', url: ctx.discovery.cardUrl, method: 'GET' });
    if (ctx.endpointUrl && /^https?:/i.test(ctx.endpointUrl)) {
      probes.push({ label: 'endpoint (GET)', url: ctx.endpointUrl, method: 'GET' });
      if (ctx.binding === 'JSONRPC') {
        // A harmless call: GetTask of an id that does not exist (no credentials, nothing created).
        const method = ctx.dialect?.method('get') ?? 'tasks/get';
        const body = JSON.stringify({ jsonrpc: '2.0', id: 'a2a-interop-redirect-probe', method, params: { id: 'a2a-interop-redirect-probe' } });
        probes.push({ label: 'endpoint (POST)', url: ctx.endpointUrl, method: 'POST', body });
      }
    }
    if (!probes.length) return skip('No HTTP URL to probe.', 'precondition');
    const evidence: Evidence[] = [];
    const offHost: string[] = [];
    const errors: string[] = [];
    for (const p of probes) {
      const r = await follow(ctx, p);
      if (r.error) errors.push(`${p.label}: ${r.error}`);
      if (r.hops.length || r.offHost) evidence.push(ev(`${p.label}: ${p.method}`, chainText(ctx, r.hops, r.viaProxy ? undefined : r.offHost)));
      if (r.viaProxy) evidence.push(ev(`${p.label}: through the proxy`, `${r.viaProxy.redirects} redirect(s), ending at ${r.viaProxy.finalUrl}`));
      if (r.offHost) {
        const from = new URL(p.url);
        const downgrade = from.protocol === 'https:' && r.offHost.protocol === 'http:';
        const kind = addressKind(r.offHost.hostname);
        const notes = [r.offHost.host !== from.host ? 'another host' : '', downgrade ? 'HTTPS to HTTP' : '', kind !== 'public' ? `a ${kind} address` : '']
          .filter(Boolean)
          .join(', ');
        offHost.push(`${p.label} (${p.method}) → ${ctx.http.redactor.url(r.offHost.href)} (${notes})`);
      }
      if (r.error?.startsWith('redirect_blocked')) offHost.push(`${p.label} (${p.method}): a redirect our proxy refused to follow (${r.error})`);
    }
    if (offHost.length) return finding(`The agent redirects to another host or from HTTPS to HTTP: ${offHost.join('; ')}.`, evidence);
    if (errors.length === probes.length) return skip(`No probe got an answer: ${errors.join('; ')}.`, 'precondition', evidence);
    return pass(`No redirect to another host (${probes.map((p) => `${p.label} ${p.method}`).join(', ')}).`, evidence);
  },
});

// ------------------------------------------------------------------------------------------------ extended card

const skillCount = (v: unknown) => (isRecord(v) && Array.isArray(v.skills) ? v.skills.length : undefined);

const securityExtendedCardAnonymous = defineSecurityCheck({
  id: 'security.extended-card.anonymous',
  title: 'The extended agent card is not served to anonymous clients',
  phase: 'suite',
  specRefs: { 'v0.2': 'v0.2.6 §7.10', 'v0.3': 'v0.3.0 §7.10', 'v1.0': 'v1.0.1 §13.3' },
  recommendation:
    'Authenticate the extended-card operation like every other call (401 with WWW-Authenticate without credentials; over gRPC UNAUTHENTICATED): it exists to hold what the public card must not show (more skills, internal details), so serving it anonymously publishes it.',
  // The extended card's locations per binding (card/extended.ts): over gRPC the GetExtendedAgentCard RPC.
  requires: ['dialect', 'card'],
  run: async (ctx) => {
    const declared = ctx.generation === 'v1.0' ? ctx.card.capabilities.extendedAgentCard : ctx.raw.supportsAuthenticatedExtendedCard === true;
    if (!declared) return skip('The card does not declare an extended card.', 'not-applicable');
    const lane = ctx.lane('extended card (anonymous)');
    const evidence: Evidence[] = [];
    for (const loc of extendedCardLocations(ctx, ctx.dialect, lane)) {
      const r = await loc.call(true);
      if (!r.http.responded) return transportVerdict(r.http, 'fetching the extended card without credentials');
      evidence.push(exchangeEvidence(r.http, `${loc.label} without credentials`));
      if (r.card) {
        const extra = skillCount(r.card);
        const pub = skillCount(ctx.raw);
        return finding(
          `The extended card was served without credentials (${loc.label})${extra !== undefined ? `: ${extra} skill(s), the public card has ${pub ?? 0}` : ''}. Whatever it adds to the public card is public.`,
          evidence,
        );
      }
      if (!r.absent) break;
    }
    return pass('Without credentials the extended card was not served.', evidence);
  },
});

export const securityNetworkChecks = [securityCorsCredentials, securityRedirects, securityExtendedCardAnonymous];
