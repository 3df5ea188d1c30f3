/**
 * The front door: an agent URL resolved once into everything a door needs to talk to it, for a run (runner/run.ts),
 * a console or MCP session (session/open.ts), the card preview (api.ts) and the tap. Discovery, normalization,
 * generation and interface detection (inspect.ts), credentials placed (credentials.ts), an OAuth token fetched and
 * kept fresh (src/engine/auth), the card's required extensions activated, and the dialect that speaks to it.
 */
import { OAUTH_FAILURE_PREFIX, OAuthClient, oauthPlan } from '../auth';
import type { HttpContext } from '../http/client';
import type { Credentials, OAuthCredentials } from '../model/credentials';
import { Dialect } from '../protocol/dialect';
import { requiredExtensionHeaders } from '../protocol/extensions';
import { isRecord } from '../util/json';
import { acceptedOutputModes, inspectTarget, type InspectedTarget, type InspectOptions } from './inspect';

/** A target to talk to: the inspected agent and, when its binding can be spoken, the dialect that speaks to it. */
export interface ResolvedTarget extends InspectedTarget {
  dialect?: Dialect;
  /** OAuth client credentials given and the card declares OAuth: the client that got (and refreshes) the token. */
  oauth?: OAuthClient;
}

export interface ResolveOptions extends InspectOptions {
  role?: 'agent' | 'peer';
  credentials?: Credentials;
  /** Ids of JSON-RPC requests and messages (the host's randomUUID). */
  uuid: () => string;
}

/** Builds the dialect of an inspected agent when its binding can be spoken (an endpoint declared; gRPC when the host speaks it). */
function dialectFor(t: InspectedTarget, uuid: () => string): Dialect | undefined {
  const { detection } = t;
  if (!isRecord(t.raw) || !detection.endpointUrl || !detection.binding || detection.untestable) return undefined;
  return new Dialect({
    generation: detection.testedGeneration,
    binding: detection.binding,
    endpointUrl: detection.endpointUrl,
    tenant: detection.tenant,
    // The card's required extensions are activated on every request (protocol/extensions.ts).
    authHeaders: { ...t.authHeaders, ...requiredExtensionHeaders(detection.testedGeneration, t.card) },
    authQuery: t.authQuery,
    acceptedOutputModes: acceptedOutputModes(t.card),
    uuid,
  });
}

/**
 * Discovers, normalizes and classifies one agent; gets its OAuth token; builds its dialect when its binding can be
 * spoken. Never throws at the agent's misbehaviour: what went wrong is in `info` (reach, error), see targetProblem.
 */
export async function resolveTarget(http: HttpContext, url: string, opts: ResolveOptions): Promise<ResolvedTarget> {
  const creds = opts.credentials ?? { kind: 'none' };
  const t = await inspectTarget(http, opts.role ?? 'agent', url, creds, opts);
  // OAuth client credentials: the token endpoint is known once the card is read; the token goes into the credential headers.
  const oauth = creds.kind === 'oauth2' && t.discovery.reach === 'card' ? await startOAuth(http, t, creds) : undefined;
  return { ...t, dialect: dialectFor(t, opts.uuid), ...(oauth && { oauth }) };
}

/**
 * Gets the first token for the target's card and wires it in: the target's credential headers carry it and the
 * HTTP context refreshes it. Without a usable token the target is marked not assessable (credentials rejected, or
 * our tool's failure when the proxy refused the token endpoint), with the token endpoint's answer as the reason.
 * Undefined when the card declares no OAuth scheme we can use.
 */
async function startOAuth(http: HttpContext, target: InspectedTarget, creds: OAuthCredentials): Promise<OAuthClient | undefined> {
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
