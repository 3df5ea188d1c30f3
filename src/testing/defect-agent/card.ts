/** The agent card of each generation, with the card defects applied. */
import type { DefectName } from './defects';
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
}

type Json = Record<string, unknown>;

export function apiKeyHeader(auth: AuthConfig): string {
  return auth.header ?? 'X-API-Key';
}

export function buildCard(c: CardInput): Json {
  const { generation: gen, has } = c;
  const url = has('card-relative-url') ? new URL(c.url).pathname : c.url;
  const modes = gen === 'legacy' ? ['text'] : ['text/plain'];
  const skills = SKILLS.map((s) => ({
    id: s.id,
    name: s.name,
    description: s.description,
    tags: s.tags,
    examples: s.examples,
    inputModes: modes,
    outputModes: modes,
  }));

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
    capabilities =
      gen === 'v1.0'
        ? { streaming: true, pushNotifications: false, extendedAgentCard: false }
        : { streaming: true, pushNotifications: false, stateTransitionHistory: false };
  }

  const card: Json = { name: c.name, description: c.description };
  if (gen === 'v1.0') {
    card.supportedInterfaces = [{ url, protocolBinding: c.binding, protocolVersion: '1.0' }];
  } else {
    card.url = url;
    if (gen === 'v0.2') {
      card.protocolVersion = '0.2.6';
      card.preferredTransport = 'JSONRPC';
    } else if (gen === 'v0.3') {
      card.protocolVersion = '0.3.0';
      card.preferredTransport = c.binding;
      card.additionalInterfaces = [{ url, transport: c.binding }];
    }
  }
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
  return card;
}
