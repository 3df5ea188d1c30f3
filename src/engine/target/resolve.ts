import { startOAuth, type OAuthClient } from '../auth';
import type { InterfacePreference } from '../card/detect';
import type { HttpContext } from '../http/client';
import { Dialect } from '../protocol/dialect';
import { requiredExtensionHeaders } from '../protocol/extensions';
import { isRecord } from '../util/json';
import { acceptedOutputModes, inspectTarget, type InspectedTarget } from './inspect';
import type { Credentials } from './options';

export { acceptedOutputModes, credentialPlacement, registerSecrets } from './inspect';

/** A run's target: the inspected agent and, when its binding can be tested, the dialect that speaks to it. */
export interface ResolvedTarget extends InspectedTarget {
  dialect?: Dialect;
  /** OAuth client credentials given and the card declares OAuth: the client that got (and refreshes) the token. */
  oauth?: OAuthClient;
}

/** Builds the dialect of an inspected agent when its binding can be tested (an endpoint declared; gRPC when the host speaks it). */
export function dialectFor(t: InspectedTarget, uuid: () => string): Dialect | undefined {
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

/** Discovers, normalizes and classifies one agent; builds its dialect when its binding can be tested. */
export async function resolveTarget(
  http: HttpContext,
  role: 'agent' | 'peer',
  url: string,
  creds: Credentials,
  uuid: () => string,
  warmup = true,
  prefer: InterfacePreference = {},
): Promise<ResolvedTarget> {
  // gRPC interfaces are testable when the host speaks gRPC (Node: src/grpc; the browser: the local server's bridge).
  const t = await inspectTarget(http, role, url, creds, { warmupRetries: warmup ? 3 : 0, prefer: { grpc: !!http.host.grpc, ...prefer } });
  // OAuth client credentials: the token endpoint is known once the card is read; the token goes into the credential headers.
  const oauth = creds.kind === 'oauth2' && t.discovery.reach === 'card' ? await startOAuth(http, t, creds) : undefined;
  return { ...t, dialect: dialectFor(t, uuid), ...(oauth && { oauth }) };
}
