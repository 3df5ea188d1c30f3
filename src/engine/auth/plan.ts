/**
 * Where a card says OAuth 2.0 tokens come from: an `oauth2` scheme with a client-credentials flow (v0.2/v0.3
 * `flows.clientCredentials.tokenUrl`, v1.0 `OAuthFlows.clientCredentials.tokenUrl`, same JSON spelling) or an
 * `openIdConnect` scheme (`openIdConnectUrl`, the discovery document that names the token endpoint).
 */
import type { NormalizedCard } from '../card/normalize';

export interface OAuthPlan {
  /** The scheme's name in `securitySchemes`. */
  scheme: string;
  kind: 'client-credentials' | 'openid-connect';
  /** Client-credentials flow: the token endpoint as the card gives it. */
  tokenUrl?: string;
  /** OpenID Connect: the discovery document's URL. */
  discoveryUrl?: string;
  /** Scopes the card's security requirements ask of this scheme (what to request when the user names none). */
  scopes: string[];
}

const isUrl = (u: unknown): u is string => {
  if (typeof u !== 'string' || !u) return false;
  try {
    const p = new URL(u);
    return p.protocol === 'https:' || p.protocol === 'http:';
  } catch {
    return false;
  }
};

/** Names of schemes the card's security requirements use, in order (schemes not required come after). */
function requiredFirst(card: NormalizedCard): string[] {
  const names = Object.keys(card.securitySchemes);
  const required = new Set(card.securityRequirements.flatMap((r) => Object.keys(r)));
  return [...names.filter((n) => required.has(n)), ...names.filter((n) => !required.has(n))];
}

const requiredScopes = (card: NormalizedCard, scheme: string): string[] =>
  [...new Set(card.securityRequirements.flatMap((r) => (Array.isArray(r[scheme]) ? r[scheme].filter((x) => typeof x === 'string') : [])))].slice(0, 50);

/** The OAuth scheme we can get a token for with client credentials, the client-credentials flow first; undefined if none. */
export function oauthPlan(card: NormalizedCard): OAuthPlan | undefined {
  const names = requiredFirst(card);
  for (const scheme of names) {
    const s = card.securitySchemes[scheme];
    if (s?.type !== 'oauth2') continue;
    const flow = s.flows.clientCredentials ?? s.flows.client_credentials;
    if (flow && isUrl(flow.tokenUrl)) {
      return { scheme, kind: 'client-credentials', tokenUrl: flow.tokenUrl, scopes: requiredScopes(card, scheme) };
    }
  }
  for (const scheme of names) {
    const s = card.securitySchemes[scheme];
    if (s?.type === 'openIdConnect' && isUrl(s.openIdConnectUrl))
      return { scheme, kind: 'openid-connect', discoveryUrl: s.openIdConnectUrl, scopes: requiredScopes(card, scheme) };
  }
  return undefined;
}

/** True when the card declares an OAuth 2.0 or OpenID Connect scheme (the run form offers client id/secret then). */
export const declaresOAuth = (card: NormalizedCard): boolean =>
  Object.values(card.securitySchemes).some((s) => s.type === 'oauth2' || s.type === 'openIdConnect');
