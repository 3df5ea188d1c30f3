/**
 * OAuth 2.0 / OpenID Connect for a run: after discovery, a token is fetched for the client credentials the user gave
 * and sent as `Authorization: Bearer` on every credentialed call (kept fresh through the HTTP context's auth hook).
 */
import type { HttpContext } from '../http/context';
import type { InspectedTarget } from '../runner/inspect';
import type { OAuthCredentials } from '../runner/options';
import { OAuthClient } from './client';
import { oauthPlan } from './plan';

export { OAuthClient, describeError, type AuthMethod, type OAuthFailure, type OAuthStep } from './client';
export { declaresOAuth, oauthPlan, type OAuthPlan } from './plan';

/** Starts with this so the level's not-assessed message can quote the reason as it is (report/level.ts). */
export const OAUTH_FAILURE_PREFIX = 'OAuth:';

/**
 * Gets the first token for the target's card and wires it in: the target's credential headers carry it and the
 * HTTP context refreshes it. Without a usable token the target is marked not assessable (credentials rejected, or
 * our tool's failure when the proxy refused the token endpoint), with the token endpoint's answer as the reason.
 * Undefined when the card declares no OAuth scheme we can use.
 */
export async function startOAuth(http: HttpContext, target: InspectedTarget, creds: OAuthCredentials): Promise<OAuthClient | undefined> {
  const plan = oauthPlan(target.card);
  if (!plan) return undefined;
  const client = new OAuthClient(http, plan, creds);
  if (await client.start()) {
    const value = client.authorization;
    if (value) target.authHeaders.Authorization = value;
    http.auth = client;
    return client;
  }
  const f = client.failure;
  if (f) {
    target.info = {
      ...target.info,
      reach: f.kind === 'tool' ? 'tool-failure' : 'credentials-rejected',
      error: `${OAUTH_FAILURE_PREFIX} no access token for scheme "${plan.scheme}": ${f.message}.`,
    };
  }
  return client;
}
