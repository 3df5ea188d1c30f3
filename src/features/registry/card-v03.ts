import { cardSkill, type RegistryAgent, type RegistryEndpoint } from '../../lib/registry-db';
import { orderedEndpoints } from './helpers';

/**
 * The v0.3 shape of a registry agent's card (A2A v0.3.0 §5.5 AgentCard): `protocolVersion`, a main `url` with
 * its `preferredTransport`, `additionalInterfaces`, v0.3 security schemes (`type` discriminator). Offered
 * when the agent serves A2A 0.3 only, so the v1.0 card of the mapper (`exportCard`) would be read as a
 * v0.3 card it is not shaped like. Lists only the interfaces that serve 0.x: a v0.3 client cannot call a
 * 1.0 interface. (The mapper, src/engine/card/mapper.ts, exports v1.0 only; this is its inverse for 0.3.)
 */

const TRANSPORT = { a2a: 'JSONRPC', http: 'HTTP+JSON', grpc: 'GRPC' } as const;

const transportOf = (e: RegistryEndpoint) => e.binding ?? TRANSPORT[e.protocol];

/** The endpoints a v0.3 card may list: those serving 0.3 (else any 0.x), in the card's order. */
export function v03Endpoints(agent: RegistryAgent): RegistryEndpoint[] {
  const ordered = orderedEndpoints(agent);
  const v03 = ordered.filter((e) => /^0\.3(\.|$)/.test(e.protocolVersion ?? ''));
  return v03.length ? v03 : ordered.filter((e) => /^0\./.test(e.protocolVersion ?? ''));
}

/** True when a v0.3 card can be made: the agent has at least one interface serving A2A 0.x. */
export const canExportV03 = (agent: RegistryAgent): boolean => v03Endpoints(agent).length > 0;

/** A v1.0 security scheme (oneof wrapper) in the v0.3 shape; undefined when unrecognised. */
function v03Scheme(s: Record<string, unknown>): Record<string, unknown> | undefined {
  const [[kind, body] = []] = Object.entries(s);
  const b = (body ?? {}) as Record<string, unknown>;
  const desc = typeof b.description === 'string' && b.description ? { description: b.description } : {};
  switch (kind) {
    case 'apiKeySecurityScheme':
      return { type: 'apiKey', in: b.location ?? 'header', name: b.name, ...desc };
    case 'httpAuthSecurityScheme':
      return { type: 'http', scheme: b.scheme, ...(b.bearerFormat ? { bearerFormat: b.bearerFormat } : {}), ...desc };
    case 'oauth2SecurityScheme':
      return { type: 'oauth2', flows: b.flows ?? {}, ...desc };
    case 'openIdConnectSecurityScheme':
      return { type: 'openIdConnect', openIdConnectUrl: b.openIdConnectUrl, ...desc };
    case 'mtlsSecurityScheme':
      return { type: 'mutualTLS', ...desc };
    default:
      return undefined;
  }
}

/** Internal -> A2A v0.3 card. Throws when the agent serves no 0.x interface (see `canExportV03`). */
export function exportCardV03(agent: RegistryAgent): Record<string, unknown> {
  const [main, ...rest] = v03Endpoints(agent);
  if (!main) throw new Error(`${agent.name} has no interface serving A2A 0.3, so a v0.3 card would name no endpoint a v0.3 client can call.`);
  const card: Record<string, unknown> = {
    protocolVersion: '0.3.0',
    name: agent.name,
    description: agent.description || agent.name,
    url: main.url,
    preferredTransport: transportOf(main),
    // The spec asks the main url to be repeated here, with its transport.
    additionalInterfaces: [main, ...rest].map((e) => ({ url: e.url, transport: transportOf(e) })),
    version: agent.version,
    capabilities: { streaming: agent.capabilities.streaming, pushNotifications: agent.capabilities.pushNotifications },
    defaultInputModes: agent.inputModes.length ? agent.inputModes : ['text/plain'],
    defaultOutputModes: agent.outputModes.length ? agent.outputModes : ['text/plain'],
    skills: agent.skills.map(cardSkill),
  };
  if (agent.capabilities.extendedAgentCard) card.supportsAuthenticatedExtendedCard = true;
  if (agent.provider) card.provider = { organization: agent.provider.organization, url: agent.provider.url ?? agent.documentationUrl ?? main.url };
  if (agent.documentationUrl) card.documentationUrl = agent.documentationUrl;
  if (agent.iconUrl) card.iconUrl = agent.iconUrl;
  const schemes = Object.entries(agent.securitySchemes).flatMap(([name, s]) => {
    const v = v03Scheme(s);
    return v ? [[name, v] as const] : [];
  });
  if (schemes.length) card.securitySchemes = Object.fromEntries(schemes);
  const known = new Set(schemes.map(([name]) => name));
  const security = agent.security.filter((name) => known.has(name));
  if (security.length) card.security = security.map((name) => ({ [name]: [] }));
  return card;
}
