/**
 * The first half of the front door: an agent URL read into what it is (its card as served and normalized, the
 * generation and interface to speak, where credentials go). See resolve.ts for the rest (OAuth, the dialect).
 */
import { detectGeneration, type Detection, type InterfacePreference } from '../card/detect';
import { findCard, type DiscoveryResult } from '../card/discover';
import { normalizeCard, type NormalizedCard } from '../card/normalize';
import type { HttpContext } from '../http/client';
import type { TargetInfo } from '../model/events';
import { boundedClone, isRecord } from '../util/json';
import type { Credentials } from '../model/credentials';
import { credentialPlacement } from './credentials';

/** An agent as discovery found it: its card as served and normalized, what it speaks, and how to send credentials. */
export interface InspectedTarget {
  role: 'agent' | 'peer';
  discovery: DiscoveryResult;
  card: NormalizedCard;
  raw: unknown;
  detection: Detection;
  authHeaders: Record<string, string>;
  authQuery: Record<string, string>;
  /** The URIs of the extensions the card requires: activated on every request (resolve.ts dialectFor). */
  requiredExtensions: string[];
  /** What a run's `target-resolved` event carries (redacted, bounded). */
  info: TargetInfo;
}

/**
 * What we tell the agent we accept: the skill's own output modes (when given) and the card's defaults, else text
 * and JSON. A skill whose outputModes differ from the defaults (e.g. image/png only) would otherwise rightly
 * answer ContentTypeNotSupported, which also covers output "implied for an artifact".
 */
export function acceptedOutputModes(card: NormalizedCard, skillModes?: readonly string[]): string[] {
  const own = (skillModes ?? []).filter((m) => typeof m === 'string' && m.trim());
  const all = [...new Set([...own.slice(0, 10), ...card.defaultOutputModes])];
  return all.length ? all.slice(0, 20) : ['text/plain', 'application/json'];
}

/**
 * Reads a discovered card: normalizes it, decides its generation and the interface to test, places the
 * credentials, and has the redactor mask the card's API-key names. `http` is only used for its redactor and limits.
 */
export function readDiscovery(
  http: HttpContext,
  role: 'agent' | 'peer',
  url: string,
  discovery: DiscoveryResult,
  creds: Credentials,
  prefer: InterfacePreference = {},
  headers: Record<string, string> = {},
): InspectedTarget {
  const raw = discovery.raw;
  const card = normalizeCard(raw);
  const detection = detectGeneration(raw, card, discovery.cardSource, prefer);
  const placement = credentialPlacement(creds, card);
  for (const s of Object.values(card.securitySchemes)) if (s.type === 'apiKey') http.redactor.addHeaderName(s.name).addQueryName(s.name);
  const r = discovery.response;
  const info: TargetInfo = {
    role,
    inputUrl: http.redactor.url(url),
    attempts: discovery.attempts,
    cardUrl: discovery.cardUrl ? http.redactor.url(discovery.cardUrl) : undefined,
    cardSource: discovery.cardSource,
    rawCard: raw === undefined ? undefined : boundedClone(raw, { maxDepth: 24, maxNodes: 20_000, maxString: 10_000 }),
    rawText: raw === undefined && r ? http.redactor.text(r.text.slice(0, 4000)) : undefined,
    normalizedCard: isRecord(raw) ? boundedClone(card, { maxDepth: 24, maxNodes: 20_000, maxString: 10_000 }) : undefined,
    generation: isRecord(raw) ? detection.generation : undefined,
    binding: isRecord(raw) ? detection.binding : undefined,
    endpointUrl: detection.endpointUrl ? http.redactor.url(detection.endpointUrl) : undefined,
    tenant: detection.tenant,
    evidence: isRecord(raw) ? detection.evidence : [],
    vary: r?.headers.get('vary') ?? undefined,
    cacheControl: r?.headers.get('cache-control') ?? undefined,
    etag: r?.headers.get('etag') ?? undefined,
    error: discovery.invalidUrl ?? discovery.unreachable?.message ?? (r ? undefined : 'No agent card found at the well-known paths.'),
    reach: discovery.reach,
  };
  const requiredExtensions = isRecord(raw) ? [...new Set(card.capabilities.extensions.filter((e) => e.required && e.uri).map((e) => e.uri))] : [];
  return { role, discovery, card, raw, detection, authHeaders: { ...placement.headers, ...headers }, authQuery: placement.query, requiredExtensions, info };
}

export interface InspectOptions {
  /** Retries of discovery's first pass when nothing answered (a cold start). Default 3. */
  warmupRetries?: number;
  /** Budget of each discovery request, ms (default: the context's). */
  timeoutMs?: number;
  /** The interface to speak when the card declares several. gRPC ones count when the host speaks gRPC (`grpc` defaults to that). */
  prefer?: InterfacePreference;
  /**
   * Headers sent beside the credentials (a console's or MCP's own): with the credentials on discovery's second pass,
   * and on every request to the agent. Register them with the redactor (registerSecrets) first.
   */
  headers?: Record<string, string>;
}

/** Discovers, normalizes and classifies one agent (no dialect: see resolveTarget for a target to talk to). */
export async function inspectTarget(
  http: HttpContext,
  role: 'agent' | 'peer',
  url: string,
  creds: Credentials,
  opts: InspectOptions = {},
): Promise<InspectedTarget> {
  const headers = opts.headers ?? {};
  const discovery = await findCard(http, url, {
    lane: role === 'agent' ? 'discovery' : 'peer discovery',
    credentialHeaders: { ...credentialPlacement(creds).headers, ...headers },
    warmupRetries: opts.warmupRetries ?? 3,
    timeoutMs: opts.timeoutMs,
  });
  return readDiscovery(http, role, url, discovery, creds, { grpc: !!http.host.grpc, ...opts.prefer }, headers);
}
