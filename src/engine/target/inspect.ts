import { detectGeneration, type Detection, type InterfacePreference } from '../card/detect';
import { discoverCard, type DiscoveryResult } from '../card/discover';
import { normalizeCard, type NormalizedCard } from '../card/normalize';
import type { HttpContext } from '../http/client';
import type { TargetInfo } from '../model/events';
import type { Redactor } from '../redact';
import { boundedClone, isRecord } from '../util/json';
import type { Credentials } from './options';

/** An agent as discovery found it: its card as served and normalized, what it speaks, and how to send credentials. */
export interface InspectedTarget {
  role: 'agent' | 'peer';
  discovery: DiscoveryResult;
  card: NormalizedCard;
  raw: unknown;
  detection: Detection;
  authHeaders: Record<string, string>;
  authQuery: Record<string, string>;
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

/** Credential headers/query for a card: the API key goes where the card's apiKey scheme says. */
export function credentialPlacement(creds: Credentials, card?: NormalizedCard): { headers: Record<string, string>; query: Record<string, string> } {
  switch (creds.kind) {
    case 'none':
      return { headers: {}, query: {} };
    case 'bearer':
      return { headers: { Authorization: `Bearer ${creds.token}` }, query: {} };
    case 'header':
      return { headers: { [creds.name]: creds.value }, query: {} };
    case 'oauth2':
      // The access token is added once fetched (src/engine/auth startOAuth), after the card named the token endpoint.
      return { headers: {}, query: {} };
    case 'api-key': {
      const scheme = card ? Object.values(card.securitySchemes).find((s) => s.type === 'apiKey') : undefined;
      const name = creds.name || (scheme?.type === 'apiKey' && scheme.name) || 'X-API-Key';
      const where = creds.in ?? (scheme?.type === 'apiKey' && scheme.in === 'query' ? 'query' : 'header');
      return where === 'query' ? { headers: {}, query: { [name]: creds.value } } : { headers: { [name]: creds.value }, query: {} };
    }
  }
}

export function registerSecrets(r: Redactor, creds: Credentials) {
  if (creds.kind === 'bearer') r.addSecret(creds.token);
  if (creds.kind === 'api-key') r.addSecret(creds.value).addHeaderName(creds.name).addQueryName(creds.name);
  if (creds.kind === 'header') r.addSecret(creds.value).addHeaderName(creds.name);
  if (creds.kind === 'oauth2') r.addSecret(creds.clientSecret);
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
  return { role, discovery, card, raw, detection, authHeaders: placement.headers, authQuery: placement.query, info };
}

/** Discovers, normalizes and classifies one agent (no dialect: see resolveTarget for a run's target). */
export async function inspectTarget(
  http: HttpContext,
  role: 'agent' | 'peer',
  url: string,
  creds: Credentials,
  opts: { warmupRetries?: number; timeoutMs?: number; prefer?: InterfacePreference } = {},
): Promise<InspectedTarget> {
  const pre = credentialPlacement(creds);
  const discovery = await discoverCard(http, url, {
    lane: role === 'agent' ? 'discovery' : 'peer discovery',
    credentialHeaders: pre.headers,
    warmupRetries: opts.warmupRetries ?? 3,
    timeoutMs: opts.timeoutMs,
  });
  return readDiscovery(http, role, url, discovery, creds, opts.prefer);
}
