/** Card checks: the URLs a card declares (interface endpoints, provider/documentation/icon, OAuth flows). */
import { canonicalBinding } from '../../card/detect';
import { isRecord } from '../../util/json';
import { defineCheck, ev, fail, pass, skip } from '../define';
import { ALL, judge } from './common';

const isAbsHttp = (u: unknown) => {
  if (typeof u !== 'string') return false;
  try {
    const x = new URL(u);
    return (x.protocol === 'http:' || x.protocol === 'https:') && !!x.host;
  } catch {
    return false;
  }
};

/** "A URL" in the sense of the OAuth flow descriptions: an absolute URL (a scheme), whatever the scheme. */
const isAbsUrl = (u: string) => {
  try {
    return !!new URL(u).protocol;
  } catch {
    return false;
  }
};

/** A gRPC target: `host:port` ([ipv6]:port too), or a URI (grpc:, grpcs:, dns:, http(s):) that names host and port. */
const GRPC_TARGET = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;

/**
 * Why an interface URL does not have the form of its binding, or undefined when it does. HTTP-based bindings
 * take an absolute http(s) URL; gRPC takes `host:port` (the v1.0.1 proto comment's https example was corrected
 * in the specification repository: the HTTPS wording applies to HTTP-based transports). Custom bindings: any
 * non-empty string.
 */
export function endpointUrlProblem(url: string, binding: string): string | undefined {
  if (typeof url !== 'string' || !url.trim()) return 'empty';
  const b = canonicalBinding(binding);
  if (b === 'GRPC') {
    if (GRPC_TARGET.test(url)) return Number(url.slice(url.lastIndexOf(':') + 1)) <= 65535 ? undefined : 'the port is above 65535';
    try {
      const u = new URL(url);
      if (['grpc:', 'grpcs:', 'http:', 'https:', 'dns:'].includes(u.protocol) && (u.host || u.pathname.replace(/^\/+/, ''))) return undefined;
    } catch {
      /* judged below */
    }
    return 'a gRPC interface needs host:port (or a grpc/dns URI naming them)';
  }
  if (b === 'JSONRPC' || b === 'HTTP+JSON') return isAbsHttp(url) ? undefined : `a ${b} interface needs an absolute http(s) URL`;
  return undefined;
}

export const cardUrlsEndpoint = defineCheck({
  id: 'card.urls.endpoint',
  title: 'Each interface URL has the form its binding uses (absolute http(s) for JSON-RPC and HTTP+JSON, host:port for gRPC)',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5 (url: the address where the agent is hosted)',
    'v0.2': 'v0.2.6 §5.5 url',
    'v0.3': 'v0.3.0 §5.6.1 Main URL, §5.5.5 AgentInterface',
    'v1.0': 'v1.0.1 §4.4.6 AgentInterface.url, §8.3.1',
  }),
  recommendation:
    'Publish the URL clients must call in the form of its binding: an absolute http(s) URL (scheme, host and path) for JSON-RPC and HTTP+JSON, e.g. "https://agent.example.com/a2a"; "host:port" for gRPC (e.g. "agent.example.com:443"). Behind a proxy, build it from the public host, not from localhost or a relative path. (HTTPS in production is deployment advice, not a card-shape rule: it is not judged here.)',
  requires: ['card'],
  run: (c) => {
    const ifs = c.card.interfaces;
    if (!ifs.length) return fail('The card declares no endpoint URL at all.', [], 'Add "url" (up to v0.3) or "supportedInterfaces" (v1.0).');
    const bad = ifs
      .map((i) => ({ i, problem: endpointUrlProblem(i.url, String(i.binding)) }))
      .filter((x): x is { i: (typeof ifs)[number]; problem: string } => x.problem !== undefined);
    return bad.length
      ? fail(
          `${bad.length} endpoint URL(s) do not have the form of their binding: ${bad
            .map((b) => `${JSON.stringify(b.i.url)} (${b.problem})`)
            .slice(0, 5)
            .join(', ')}.`,
          bad.map((b) => ev(`${b.i.source} ${b.i.binding}`, `${b.i.url}: ${b.problem}`, { path: b.i.source })),
        )
      : pass(
          `${ifs.length} endpoint URL(s), each in the form of its binding.`,
          ifs.map((i) => ev(`${i.source} ${i.binding}`, i.url)),
        );
  },
});

export const cardUrlsOther = defineCheck({
  id: 'card.urls.other',
  title: 'Provider, documentation and icon URLs are absolute http(s) URLs',
  category: 'agent-card',
  level: 'MAY',
  phase: 'card',
  specRefs: ALL({ legacy: 'v0.1.0 §5.5', 'v0.2': 'v0.2.6 §5.5', 'v0.3': 'v0.3.0 §5.5', 'v1.0': 'v1.0.1 §4.4.1' }),
  recommendation:
    'Use absolute https URLs for provider.url, documentationUrl and iconUrl; avoid javascript:, data: or relative URLs (clients render these as links).',
  requires: ['card'],
  run: (c) => {
    const card = c.card;
    const urls: [string, string][] = [];
    if (card.provider?.url) urls.push(['provider.url', card.provider.url]);
    if (card.documentationUrl) urls.push(['documentationUrl', card.documentationUrl]);
    if (card.iconUrl) urls.push(['iconUrl', card.iconUrl]);
    if (!urls.length) return skip('The card has no provider, documentation or icon URL.', 'not-applicable');
    const bad = urls.filter(([, u]) => !isAbsHttp(u));
    // The spec only describes these URLs (no requirement word): findings are advice (the level is MAY).
    return bad.length
      ? fail(
          `${bad.length} URL(s) are not absolute http(s): ${bad
            .map(([p, u]) => `${p}=${JSON.stringify(u).slice(0, 80)}`)
            .slice(0, 4)
            .join(', ')}. The spec describes these URLs without a requirement word.`,
          bad.map(([p, u]) => ev(p, u, { path: p })),
        )
      : pass(`${urls.length} URL(s), all absolute http(s).`);
  },
});

export const cardUrlsOauth = defineCheck({
  id: 'card.urls.oauth',
  title: 'OAuth flow URLs are URLs',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: {
    'v0.2': 'v0.2.6 a2a.json OAuth flows ("This MUST be in the form of a URL.")',
    'v0.3': 'v0.3.0 a2a.json OAuth flows ("This MUST be a URL")',
    'v1.0': 'v1.0.1 a2a.proto ImplicitOAuthFlow, PasswordOAuthFlow',
  },
  recommendation:
    'Give authorizationUrl, tokenUrl and refreshUrl as absolute https URLs of the authorization server, e.g. "https://auth.example.com/oauth2/token", not relative paths or bare host names.',
  requires: ['card'],
  run: (c) => {
    const g = c.generation;
    const raw = c.raw;
    const problems: string[] = [];
    const advisories: string[] = [];
    let count = 0;
    // Which flow URLs carry "This MUST be ... a URL": every flow of the v0.x schemas; in v1.0 only the deprecated implicit and password flows.
    const mustFlows = g === 'v1.0' ? ['implicit', 'password'] : ['authorizationCode', 'clientCredentials', 'implicit', 'password'];
    for (const [name, s] of Object.entries(isRecord(raw.securitySchemes) ? raw.securitySchemes : {}).slice(0, 100)) {
      if (!isRecord(s)) continue;
      const body = isRecord(s.oauth2SecurityScheme) ? s.oauth2SecurityScheme : isRecord(s.openIdConnectSecurityScheme) ? s.openIdConnectSecurityScheme : s;
      const p = `securitySchemes.${name}`;
      const oidc = body.openIdConnectUrl;
      if (typeof oidc === 'string' && oidc) {
        count++;
        // Described ("The OpenID Connect Discovery URL"), without a requirement word.
        if (!isAbsHttp(oidc)) advisories.push(`${p}.openIdConnectUrl=${JSON.stringify(oidc).slice(0, 80)} is not an absolute http(s) URL`);
      }
      if (!isRecord(body.flows)) continue;
      for (const [flow, f] of Object.entries(body.flows).slice(0, 10)) {
        if (!isRecord(f)) continue;
        for (const k of ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'deviceAuthorizationUrl']) {
          const u = f[k];
          // Missing or mistyped URLs are card.security.schemes' business.
          if (typeof u !== 'string' || !u) continue;
          count++;
          const where = `${p}.flows.${flow}.${k}=${JSON.stringify(u).slice(0, 80)}`;
          const must = mustFlows.includes(flow) && k !== 'deviceAuthorizationUrl';
          if (!isAbsUrl(u)) (must ? problems : advisories).push(`${where} is not a URL (no scheme: a relative path or a bare name)`);
          else if (!isAbsHttp(u)) advisories.push(`${where} is not an http(s) URL`);
          else if (g === 'v0.3' && flow === 'authorizationCode' && !/^https:/i.test(u)) {
            // v0.3.0: "This MUST be a URL and use TLS." Plain http is the norm in local development (as for endpoint URLs), so advice only.
            advisories.push(`${where} does not use TLS (v0.3.0: "This MUST be a URL and use TLS"; plain http is accepted for local development)`);
          }
        }
      }
    }
    if (!count) return skip('The card declares no OAuth or OpenID Connect URLs.', 'not-applicable');
    return judge({
      problems,
      advisories,
      ok: `${count} OAuth/OpenID URL(s), all URLs.`,
      bad: `OAuth flow URLs are not URLs (the ${g === 'v1.0' ? 'v1.0 implicit and password flows say' : `${g} schema says`} "This MUST be ${g === 'v0.3' ? 'a URL' : 'in the form of a URL'}")`,
      advisoryReason:
        g === 'v1.0'
          ? 'In v1.0 only the deprecated implicit and password flows require their URLs to be URLs; the other URLs are described without a requirement word.'
          : 'The OpenID Connect URL is described without a requirement word; non-http(s) schemes and plain http are advice.',
    });
  },
});
