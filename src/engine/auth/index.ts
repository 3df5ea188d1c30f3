/**
 * OAuth 2.0 / OpenID Connect: after discovery, a token is fetched for the client credentials the user gave and sent
 * as `Authorization: Bearer` on every credentialed call (kept fresh through the HTTP context's auth hook). The
 * front door (src/engine/target/resolve.ts startOAuth) wires it into a target.
 */
export { OAuthClient, type OAuthStep } from './client';
export { declaresOAuth, oauthPlan } from './plan';

/** Starts with this so the level's not-assessed message can quote the reason as it is (report/level.ts). */
export const OAUTH_FAILURE_PREFIX = 'OAuth:';
