import { cardSkill, type RegistryAgent, type RegistryEndpoint } from '../../lib/registry-db';
import { orderedEndpoints } from './helpers';

/**
 * The legacy shape of a registry agent's card (A2A v0.1.0 AgentCard, spec/a2a/v0.1.0/a2a.json: `name`, `url`,
 * `version`, `capabilities`, `skills` required; no `protocolVersion`, one JSON-RPC `url`, `authentication.schemes`).
 * Offered when the agent has interfaces whose protocol version was never seen (it was registered from a legacy
 * card): a v1.0 card would declare them `protocolVersion: "1.0"`, a version the agent was never seen to speak.
 */

/** Interfaces with no protocol version: the registry never saw which version they speak. */
export const unseenVersionEndpoints = (agent: RegistryAgent): RegistryEndpoint[] => orderedEndpoints(agent).filter((e) => !e.protocolVersion);

/** A legacy card can be made when a JSON-RPC interface has no version of its own (legacy speaks JSON-RPC only). */
export const canExportLegacy = (agent: RegistryAgent): boolean => unseenVersionEndpoints(agent).some((e) => e.protocol === 'a2a');

/** The legacy `authentication.schemes` names of the agent's security schemes (`Bearer`, `Basic`, `apiKey`, …). */
function legacySchemes(agent: RegistryAgent): string[] {
  const names = Object.values(agent.securitySchemes).flatMap((s) => {
    const [[kind, body] = []] = Object.entries(s);
    const b = (body ?? {}) as Record<string, unknown>;
    if (kind === 'httpAuthSecurityScheme' && typeof b.scheme === 'string' && b.scheme) return [b.scheme.charAt(0).toUpperCase() + b.scheme.slice(1)];
    if (kind === 'apiKeySecurityScheme') return ['apiKey'];
    if (kind === 'oauth2SecurityScheme') return ['OAuth2'];
    if (kind === 'openIdConnectSecurityScheme') return ['OpenIdConnect'];
    return [];
  });
  return [...new Set(names)];
}

/** Internal -> legacy (v0.1) card. Throws when no JSON-RPC interface is left without a version (see `canExportLegacy`). */
export function exportCardLegacy(agent: RegistryAgent): Record<string, unknown> {
  const main = unseenVersionEndpoints(agent).find((e) => e.protocol === 'a2a');
  if (!main)
    throw new Error(`${agent.name} has no JSON-RPC interface of an unknown version, so a legacy card would name no endpoint a legacy client can call.`);
  const schemes = legacySchemes(agent);
  const card: Record<string, unknown> = {
    name: agent.name,
    description: agent.description || agent.name,
    url: main.url,
    version: agent.version,
    capabilities: { streaming: agent.capabilities.streaming, pushNotifications: agent.capabilities.pushNotifications },
    defaultInputModes: agent.inputModes.length ? agent.inputModes : ['text'],
    defaultOutputModes: agent.outputModes.length ? agent.outputModes : ['text'],
    skills: agent.skills.map(cardSkill),
  };
  if (agent.provider) card.provider = { organization: agent.provider.organization, ...(agent.provider.url ? { url: agent.provider.url } : {}) };
  if (agent.documentationUrl) card.documentationUrl = agent.documentationUrl;
  if (schemes.length) card.authentication = { schemes };
  return card;
}
