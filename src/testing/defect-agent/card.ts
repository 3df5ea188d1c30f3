/** The agent card of each generation, with the card defects applied. */
import type { DefectName } from './defects';
import type { PermittedName } from './permitted';
import type { Binding, Generation } from './dialect';
import { SKILLS } from './skills';

export interface AuthConfig {
  scheme: 'bearer' | 'apiKey';
  secret: string;
  /** API-key header name (default X-API-Key). */
  header?: string;
}

export interface CardInput {
  generation: Generation;
  binding: Binding;
  /** Absolute URL of the agent endpoint (JSON-RPC endpoint or REST base). */
  url: string;
  name: string;
  description: string;
  auth?: AuthConfig;
  has: (d: DefectName) => boolean;
  permits?: (p: PermittedName) => boolean;
  features?: AgentFeatures;
}

/** Optional capabilities the test agent can declare and implement. */
export interface AgentFeatures {
  /** capabilities.streaming (default true). */
  streaming?: boolean;
  /** capabilities.pushNotifications, with push config set/get/list/delete implemented. */
  push?: boolean;
  /** An authenticated extended card (needs auth). */
  extendedCard?: boolean;
  /** More interfaces to declare (served elsewhere, e.g. by a second test agent with the other binding). */
  extraInterfaces?: { url: string; binding: Binding; protocolVersion?: string }[];
  /** Sign the card: a well-formed JWS (protected header with alg and kid, base64url signature). */
  signed?: boolean;
}

/** Skills added by permitted variants (they match on their example's keyword, like the others). */
export const EXTRA_SKILLS = {
  'image-only-skill': { id: 'thumbnail', name: 'Thumbnail', description: 'Makes a thumbnail of a PNG image; accepts only image/png.', tags: ['image'], examples: ['Make a thumbnail of this picture'], inputModes: ['image/png'], outputModes: ['text/plain'] },
  'video-only-skill': { id: 'transcode', name: 'Transcoder', description: 'Transcodes an MP4 clip; accepts only video/mp4.', tags: ['video'], examples: ['Transcode this clip'], inputModes: ['video/mp4'], outputModes: ['text/plain'] },
} as const;

type Json = Record<string, unknown>;

export function apiKeyHeader(auth: AuthConfig): string {
  return auth.header ?? 'X-API-Key';
}

export function buildCard(c: CardInput): Json {
  const { generation: gen, has } = c;
  const permits = c.permits ?? (() => false);
  const features = c.features ?? {};
  const url = has('card-relative-url') ? new URL(c.url).pathname : c.url;
  const modes = gen === 'legacy' ? ['text'] : ['text/plain'];
  const ranges = permits('card-media-ranges') && gen !== 'legacy';
  const skills: Json[] = SKILLS.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    tags: s.tags,
    examples: s.examples,
    inputModes: ranges ? ['text/*'] : modes,
    outputModes: ranges ? ['*/*'] : modes,
  }));
  for (const v of ['image-only-skill', 'video-only-skill'] as const) {
    if (permits(v)) skills.push({ ...EXTRA_SKILLS[v], inputModes: [...EXTRA_SKILLS[v].inputModes], outputModes: [...EXTRA_SKILLS[v].outputModes], tags: [...EXTRA_SKILLS[v].tags], examples: [...EXTRA_SKILLS[v].examples] });
  }

  let capabilities: unknown;
  if (has('card-capabilities-array')) {
    capabilities = [
      { type: 'streaming', description: 'SSE streaming' },
      { type: 'task', description: 'Task execution' },
    ];
  } else if (has('card-capabilities-strings')) {
    capabilities =
      gen === 'v1.0' ? { streaming: 'true', pushNotifications: 'false' } : { streaming: 'true', pushNotifications: 'false', stateTransitionHistory: 'false' };
  } else {
    const streaming = features.streaming !== false;
    const push = !!features.push;
    capabilities =
      gen === 'v1.0'
        ? { streaming, pushNotifications: push, extendedAgentCard: !!features.extendedCard }
        : { streaming, pushNotifications: push, stateTransitionHistory: false };
    if (permits('card-extra-fields')) {
      const caps = capabilities as Json;
      caps['x-rate-limit'] = { rpm: 600 };
      if (gen !== 'legacy') caps.extensions = [{ uri: 'https://a2a-interop.test/ext/trace/v1', description: 'Trace ids in metadata', required: false }];
    }
  }

  const card: Json = { name: c.name, description: c.description };
  // A gRPC interface is named host:port (v1.0.1 proto comment as corrected by A2A PR #1997).
  const grpcTarget = `${new URL(c.url).hostname}:9311`;
  if (gen === 'v1.0') {
    card.supportedInterfaces = [{ url, protocolBinding: c.binding, protocolVersion: '1.0' }];
    if (permits('grpc-interface')) (card.supportedInterfaces as Json[]).push({ url: grpcTarget, protocolBinding: 'GRPC', protocolVersion: '1.0' });
  } else {
    card.url = url;
    if (gen === 'v0.2') {
      card.protocolVersion = '0.2.6';
      card.preferredTransport = 'JSONRPC';
      if (permits('grpc-interface')) card.additionalInterfaces = [{ url, transport: 'JSONRPC' }, { url: grpcTarget, transport: 'GRPC' }];
    } else if (gen === 'v0.3') {
      card.protocolVersion = '0.3.0';
      card.preferredTransport = c.binding;
      card.additionalInterfaces = [{ url, transport: c.binding }, ...(permits('grpc-interface') ? [{ url: grpcTarget, transport: 'GRPC' }] : [])];
      if (features.extendedCard && c.auth) card.supportsAuthenticatedExtendedCard = true;
    }
  }
  for (const x of features.extraInterfaces ?? []) {
    if (gen === 'v1.0') (card.supportedInterfaces as Json[]).push({ url: x.url, protocolBinding: x.binding, protocolVersion: x.protocolVersion ?? '1.0' });
    else if (gen === 'v0.3') (card.additionalInterfaces as Json[]).push({ url: x.url, transport: x.binding });
  }
  if (permits('card-extra-fields')) card['x-vendor'] = { team: 'a2a-interop', tier: 'test' };
  card.provider = { organization: 'a2a-interop test fixtures', url: 'https://github.com/a2aproject/A2A' };
  card.version = '1.0.0';
  card.capabilities = capabilities;

  // Security.
  const schemes: Json = {};
  const requirements: string[] = [];
  if (c.auth) {
    const name = c.auth.scheme === 'bearer' ? 'bearer' : 'apiKey';
    requirements.push(name);
    if (gen === 'v1.0') {
      schemes[name] =
        c.auth.scheme === 'bearer'
          ? { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'opaque' } }
          : { apiKeySecurityScheme: { location: 'header', name: apiKeyHeader(c.auth) } };
    } else {
      schemes[name] =
        c.auth.scheme === 'bearer'
          ? { type: 'http', scheme: 'bearer', bearerFormat: 'opaque' }
          : { type: 'apiKey', in: 'header', name: apiKeyHeader(c.auth) };
    }
  }
  if (has('card-undeclared-security')) requirements.push('corpSso');
  if (has('card-oauth-no-token-url')) {
    schemes.oauth =
      gen === 'v1.0'
        ? { oauth2SecurityScheme: { flows: { clientCredentials: { scopes: { 'agent:use': 'Use the agent' } } } } }
        : { type: 'oauth2', flows: { clientCredentials: { scopes: { 'agent:use': 'Use the agent' } } } };
  }
  if (has('card-apikey-no-name')) {
    schemes.partnerKey = gen === 'v1.0' ? { apiKeySecurityScheme: { location: 'header' } } : { type: 'apiKey', in: 'header' };
  }

  if (gen === 'legacy') {
    const legacySchemes: string[] = [];
    if (c.auth) legacySchemes.push(c.auth.scheme === 'bearer' ? 'bearer' : 'apiKey');
    if (has('card-undeclared-security')) legacySchemes.push('corpSso');
    if (has('card-oauth-no-token-url')) legacySchemes.push('oauth2');
    if (has('card-apikey-no-name') && !legacySchemes.includes('apiKey')) legacySchemes.push('apiKey');
    if (legacySchemes.length > 0) {
      const credentials: Json = {};
      if (c.auth?.scheme === 'apiKey') credentials.apiKey = { headerName: apiKeyHeader(c.auth) };
      if (has('card-oauth-no-token-url')) credentials.oauth2 = { scopes: ['agent:use'] };
      if (has('card-apikey-no-name')) credentials.apiKey = {};
      card.authentication = {
        schemes: legacySchemes,
        ...(Object.keys(credentials).length ? { credentials: JSON.stringify(credentials) } : {}),
      };
    }
  } else {
    if (Object.keys(schemes).length > 0) card.securitySchemes = schemes;
    if (requirements.length > 0) {
      card[gen === 'v1.0' ? 'securityRequirements' : 'security'] =
        gen === 'v1.0' ? requirements.map((n) => ({ schemes: { [n]: { list: [] } } })) : requirements.map((n) => ({ [n]: [] }));
    }
  }

  card.defaultInputModes = modes;
  card.defaultOutputModes = modes;
  if (!has('card-missing-skills')) card.skills = skills;
  if (features.signed && (gen === 'v0.3' || gen === 'v1.0')) {
    const b64url = (x: string) => Buffer.from(x).toString('base64url');
    const header = b64url(JSON.stringify({ alg: 'ES256', typ: 'JOSE', kid: 'test-key-1' }));
    // Well-formed, not a real signature: verification is a later check (issue 14); shape is what is judged here.
    card.signatures = [{ protected: has('card-bad-signature') ? `${header}!!` : header, signature: b64url('not-a-real-signature-but-well-formed') }];
  }
  return card;
}
