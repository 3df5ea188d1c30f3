import { z } from 'zod';
import { detectGeneration } from './detect';
import { normalizeCard, type NormalizedScheme } from './normalize';

/**
 * The card mapper of the agent registry (docs/conformance-procedure.md#card-mapper): an internal registry entry <-> an official A2A v1.0
 * Agent Card. A mapping boundary, not an A2A runtime: platform-native fields stay internal (`local`).
 */
export const MAPPER_ID = 'a2a-mapper.v1';

export const RegistryEndpoint = z.object({
  /** `a2a` endpoints are preferred for the card's first interface, then `http`, then `grpc`. */
  protocol: z.enum(['a2a', 'http', 'grpc']),
  url: z.string().url(),
  /** Lower comes first among endpoints of the same protocol. */
  priority: z.number().int().default(0),
  binding: z.enum(['JSONRPC', 'HTTP+JSON', 'GRPC']).optional(),
  /** A2A protocol version served there (Major.Minor); default "1.0". */
  protocolVersion: z.string().optional(),
  tenant: z.string().optional(),
});
export type RegistryEndpoint = z.infer<typeof RegistryEndpoint>;

const RegistrySkill = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  tags: z.array(z.string()).default([]),
  examples: z.array(z.string()).optional(),
  inputModes: z.array(z.string()).optional(),
  outputModes: z.array(z.string()).optional(),
});

/** An agent as the registry keeps it. */
export const RegistryAgent = z.object({
  /** Stable registry id, e.g. `agent:robot.bay.arm.v1`. */
  id: z.string().min(1),
  version: z.string().min(1),
  name: z.string().min(1),
  description: z.string().default(''),
  provider: z.object({ organization: z.string(), url: z.string().optional() }).optional(),
  documentationUrl: z.string().optional(),
  iconUrl: z.string().optional(),
  endpoints: z.array(RegistryEndpoint).default([]),
  capabilities: z
    .object({ streaming: z.boolean().default(false), pushNotifications: z.boolean().default(false), extendedAgentCard: z.boolean().default(false) })
    .default({ streaming: false, pushNotifications: false, extendedAgentCard: false }),
  inputModes: z.array(z.string()).default(['text/plain']),
  outputModes: z.array(z.string()).default(['text/plain']),
  skills: z.array(RegistrySkill).default([]),
  /** Security schemes in the v1.0 card shape (oneof wrappers), by name. */
  securitySchemes: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
  /** Scheme names that every call needs (one requirement each, no scopes). */
  security: z.array(z.string()).default([]),
  /** Platform-native fields: never exported, kept on import unless overwritten. */
  local: z.record(z.string(), z.unknown()).default({}),
  source: z.object({ url: z.string().optional(), importedAt: z.string().optional(), generation: z.string().optional() }).optional(),
});
export type RegistryAgent = z.infer<typeof RegistryAgent>;

export interface MapperLogEntry {
  when: string;
  dir: 'export' | 'import';
  /** What the card was: `A2A v1.0`, `A2A v0.3`, `A2A legacy`, ... */
  type: string;
  agent: string;
  schema: typeof MAPPER_ID;
  source?: string;
}

const PROTOCOL_ORDER = { a2a: 0, http: 1, grpc: 2 } as const;
const DEFAULT_BINDING = { a2a: 'JSONRPC', http: 'HTTP+JSON', grpc: 'GRPC' } as const;

/** Internal -> A2A v1.0 card (a plain JSON object following a2a.proto's ProtoJSON). */
/** A registry skill as a card's AgentSkill: the same fields in every generation's card (a description is required). */
export const cardSkill = (s: RegistryAgent['skills'][number]): Record<string, unknown> => ({
  id: s.id,
  name: s.name,
  description: s.description || s.name,
  tags: s.tags,
  ...(s.examples?.length ? { examples: s.examples } : {}),
  ...(s.inputModes?.length ? { inputModes: s.inputModes } : {}),
  ...(s.outputModes?.length ? { outputModes: s.outputModes } : {}),
});

export function exportCard(agentIn: RegistryAgent): Record<string, unknown> {
  const agent = RegistryAgent.parse(agentIn);
  const endpoints = [...agent.endpoints].sort((a, b) => PROTOCOL_ORDER[a.protocol] - PROTOCOL_ORDER[b.protocol] || a.priority - b.priority);
  const card: Record<string, unknown> = {
    name: agent.name,
    description: agent.description || agent.name,
    supportedInterfaces: endpoints.map((e) => ({
      url: e.url,
      protocolBinding: e.binding ?? DEFAULT_BINDING[e.protocol],
      protocolVersion: e.protocolVersion ?? '1.0',
      ...(e.tenant ? { tenant: e.tenant } : {}),
    })),
    version: agent.version,
    capabilities: { ...agent.capabilities },
    defaultInputModes: agent.inputModes.length ? agent.inputModes : ['text/plain'],
    defaultOutputModes: agent.outputModes.length ? agent.outputModes : ['text/plain'],
    skills: agent.skills.map(cardSkill),
  };
  if (agent.provider)
    card.provider = { organization: agent.provider.organization, url: agent.provider.url ?? agent.documentationUrl ?? endpoints[0]?.url ?? '' };
  if (agent.documentationUrl) card.documentationUrl = agent.documentationUrl;
  if (agent.iconUrl) card.iconUrl = agent.iconUrl;
  if (Object.keys(agent.securitySchemes).length) card.securitySchemes = agent.securitySchemes;
  if (agent.security.length) card.securityRequirements = agent.security.map((name) => ({ schemes: { [name]: { list: [] } } }));
  return card;
}

/** A v0.x scheme (`type` discriminator) in the v1.0 oneof shape. */
function v1Scheme(s: NormalizedScheme): Record<string, unknown> | undefined {
  const desc = s.description ? { description: s.description } : {};
  switch (s.type) {
    case 'apiKey':
      return { apiKeySecurityScheme: { location: s.in || 'header', name: s.name, ...desc } };
    case 'http':
      return { httpAuthSecurityScheme: { scheme: s.scheme, ...(s.bearerFormat ? { bearerFormat: s.bearerFormat } : {}), ...desc } };
    case 'oauth2': {
      const [flow, body] = Object.entries(s.flows)[0] ?? [];
      return { oauth2SecurityScheme: { flows: flow ? { [flow]: body } : {}, ...desc } };
    }
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: { openIdConnectUrl: s.openIdConnectUrl, ...desc } };
    case 'mutualTLS':
      return { mtlsSecurityScheme: { ...desc } };
    default:
      return undefined;
  }
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'agent';

/** `agent:<host>.<name-slug>` from where the card came from and its name (synthesized ids: docs/conformance-procedure.md#card-mapper). */
export function synthesizeId(name: string, sourceUrl?: string): string {
  let host = 'unknown';
  try {
    if (sourceUrl) host = new URL(sourceUrl).hostname.replace(/[^a-z0-9.-]/gi, '') || host;
  } catch {
    /* keep unknown */
  }
  return `agent:${host}.${slug(name)}`;
}

export interface ImportOptions {
  sourceUrl?: string;
  /** The entry already in the registry, whose richer local fields are kept. */
  existing?: RegistryAgent;
  /** Replace the existing entry's fields (local fields included) instead of keeping them. */
  overwrite?: boolean;
  now?: () => string;
}

/** A2A card (any generation) -> internal registry stub. Tolerant: whatever the card, a stub comes out. */
export function importCard(raw: unknown, opts: ImportOptions = {}): { agent: RegistryAgent; generation: string; warnings: string[] } {
  const card = normalizeCard(raw);
  const det = detectGeneration(raw, card);
  const warnings = card.fixups.map((f) => `${f.path || '(card)'}: ${f.note}`);
  const endpoints: RegistryEndpoint[] = [];
  // A v1.0 card's interfaces are its supportedInterfaces; a stray top-level url (seen in the wild) is not one.
  const interfaces = det.generation === 'v1.0' ? card.interfaces.filter((i) => i.source === 'supportedInterfaces') : card.interfaces;
  interfaces.forEach((i, n) => {
    if (!/^https?:\/\//i.test(i.url)) return void warnings.push(`interface ${i.url || '(no url)'} is not an absolute http(s) URL; skipped`);
    const b = String(i.binding).toUpperCase();
    const binding = b.includes('GRPC') ? 'GRPC' : b.includes('HTTP') || b === 'REST' ? 'HTTP+JSON' : 'JSONRPC';
    const protocolVersion =
      i.protocolVersion && /^\d+\.\d+/.test(i.protocolVersion)
        ? i.protocolVersion.split('.').slice(0, 2).join('.')
        : det.generation === 'v1.0'
          ? '1.0'
          : undefined;
    // A v0.3 card repeats its main url in additionalInterfaces (the spec asks it to): one endpoint, not two.
    if (endpoints.some((e) => e.url === i.url && e.binding === binding && e.protocolVersion === protocolVersion)) return;
    endpoints.push({
      protocol: binding === 'GRPC' ? 'grpc' : binding === 'HTTP+JSON' ? 'http' : 'a2a',
      url: i.url,
      priority: n,
      binding,
      protocolVersion,
      ...(i.tenant ? { tenant: i.tenant } : {}),
    });
  });
  const schemes: RegistryAgent['securitySchemes'] = {};
  for (const [name, s] of Object.entries(card.securitySchemes)) {
    const v = v1Scheme(s);
    if (v) schemes[name] = v;
    else warnings.push(`security scheme ${name} has no recognisable type; skipped`);
  }
  const name = card.name || 'Unnamed agent';
  const imported: RegistryAgent = RegistryAgent.parse({
    id: opts.existing?.id ?? synthesizeId(name, opts.sourceUrl ?? endpoints[0]?.url),
    version: card.version || '0.0.0',
    name,
    description: card.description,
    provider: card.provider?.organization ? { organization: card.provider.organization, url: card.provider.url } : undefined,
    documentationUrl: card.documentationUrl,
    iconUrl: card.iconUrl,
    endpoints,
    capabilities: {
      streaming: card.capabilities.streaming,
      pushNotifications: card.capabilities.pushNotifications,
      extendedAgentCard: card.capabilities.extendedAgentCard,
    },
    inputModes: card.defaultInputModes,
    outputModes: card.defaultOutputModes,
    skills: card.skills
      .filter((s) => s.id && s.name)
      .map((s) => ({
        id: s.id,
        name: s.name,
        description: s.description,
        tags: s.tags,
        examples: s.examples.length ? s.examples : undefined,
        inputModes: s.inputModes,
        outputModes: s.outputModes,
      })),
    securitySchemes: schemes,
    security: [...new Set(card.securityRequirements.flatMap((r) => Object.keys(r)))],
    local: {},
    source: { url: opts.sourceUrl, importedAt: (opts.now ?? (() => new Date().toISOString()))(), generation: det.generation },
  });
  if (opts.existing && !opts.overwrite) {
    // Richer local fields are kept unless the user overwrites.
    return { agent: { ...imported, id: opts.existing.id, local: opts.existing.local }, generation: det.generation, warnings };
  }
  return { agent: imported, generation: det.generation, warnings };
}

export function logEntry(dir: 'export' | 'import', agent: RegistryAgent, type: string, source?: string, when = new Date().toISOString()): MapperLogEntry {
  return { when, dir, type, agent: `${agent.id}@${agent.version}`, schema: MAPPER_ID, source };
}
