import { RegistryAgent, synthesizeId, type RegistryEndpoint } from '../../lib/registry-db';

/** The edit form's state: what the user typed, as strings, so invalid input is never lost. */
export interface EndpointDraft {
  protocol: RegistryEndpoint['protocol'];
  url: string;
  priority: string;
  /** Fields the form does not show (binding, protocol version, tenant), kept while the protocol is unchanged. */
  kept?: { protocol: RegistryEndpoint['protocol']; binding?: RegistryEndpoint['binding']; protocolVersion?: string; tenant?: string };
}

export interface SkillDraft {
  id: string;
  name: string;
  description: string;
  /** Comma-separated. */
  tags: string;
  kept?: { examples?: string[]; inputModes?: string[]; outputModes?: string[] };
}

export interface AgentDraft {
  id: string;
  name: string;
  version: string;
  description: string;
  endpoints: EndpointDraft[];
  streaming: boolean;
  pushNotifications: boolean;
  extendedAgentCard: boolean;
  /** Comma-separated media types. */
  inputModes: string;
  outputModes: string;
  skills: SkillDraft[];
  /** A JSON object, as text. */
  local: string;
}

const MAX_LOCAL_CHARS = 1_000_000;

export const emptyEndpoint = (): EndpointDraft => ({ protocol: 'a2a', url: '', priority: '0' });
export const emptySkill = (): SkillDraft => ({ id: '', name: '', description: '', tags: '' });

/** The form state of an agent (or of a new one). */
export function draftOf(agent?: RegistryAgent): AgentDraft {
  if (!agent) {
    return {
      id: '',
      name: '',
      version: '1.0.0',
      description: '',
      endpoints: [emptyEndpoint()],
      streaming: false,
      pushNotifications: false,
      extendedAgentCard: false,
      inputModes: 'text/plain',
      outputModes: 'text/plain',
      skills: [],
      local: '{}',
    };
  }
  return {
    id: agent.id,
    name: agent.name,
    version: agent.version,
    description: agent.description,
    endpoints: agent.endpoints.map((e) => ({
      protocol: e.protocol,
      url: e.url,
      priority: String(e.priority),
      kept: { protocol: e.protocol, binding: e.binding, protocolVersion: e.protocolVersion, tenant: e.tenant },
    })),
    streaming: agent.capabilities.streaming,
    pushNotifications: agent.capabilities.pushNotifications,
    extendedAgentCard: agent.capabilities.extendedAgentCard,
    inputModes: agent.inputModes.join(', '),
    outputModes: agent.outputModes.join(', '),
    skills: agent.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags.join(', '),
      kept: { examples: s.examples, inputModes: s.inputModes, outputModes: s.outputModes },
    })),
    local: JSON.stringify(agent.local, null, 2),
  };
}

/** One problem with the form, keyed by the field it is about (`name`, `endpoints.0.url`, `local`, ...). */
export interface FieldError {
  field: string;
  message: string;
}

export type DraftResult = { ok: true; agent: RegistryAgent } | { ok: false; errors: FieldError[] };

const list = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);

/** Parses the local-fields text: a JSON object or an error that says what is wrong. */
export function parseLocal(text: string): { ok: true; value: Record<string, unknown> } | { ok: false; error: string } {
  const t = text.trim();
  if (!t) return { ok: true, value: {} };
  if (t.length > MAX_LOCAL_CHARS) return { ok: false, error: `Local fields are ${t.length} characters; at most ${MAX_LOCAL_CHARS} are kept.` };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (e) {
    return { ok: false, error: `Local fields are not valid JSON (${e instanceof Error ? e.message : String(e)}). Enter a JSON object, e.g. {"team": "ops"}.` };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return {
      ok: false,
      error: `Local fields must be a JSON object, e.g. {"team": "ops"}; got ${Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`}.`,
    };
  }
  return { ok: true, value: v as Record<string, unknown> };
}

const isHttp = (u: string) => {
  try {
    const p = new URL(u).protocol;
    return p === 'http:' || p === 'https:';
  } catch {
    return false;
  }
};

/**
 * The agent the form describes, on top of `base` (the agent being edited: its provider, security and
 * source are kept), or every problem found. `takenIds`: ids already in the registry (a new agent must
 * not reuse one).
 */
export function agentFromDraft(d: AgentDraft, base?: RegistryAgent, takenIds: readonly string[] = []): DraftResult {
  const errors: FieldError[] = [];
  const name = d.name.trim();
  const version = d.version.trim();
  if (!name) errors.push({ field: 'name', message: 'Name is required.' });
  if (!version) errors.push({ field: 'version', message: 'Version is required, e.g. 1.0.0.' });
  const endpoints: RegistryEndpoint[] = [];
  d.endpoints.forEach((e, i) => {
    const url = e.url.trim();
    const priority = Number(e.priority.trim() || '0');
    if (!isHttp(url))
      errors.push({ field: `endpoints.${i}.url`, message: `Endpoint ${i + 1}: the URL must be an absolute http(s) URL, e.g. https://agent.example.com/a2a.` });
    if (!Number.isInteger(priority))
      errors.push({ field: `endpoints.${i}.priority`, message: `Endpoint ${i + 1}: the priority must be a whole number (lower comes first).` });
    const kept = e.kept && e.kept.protocol === e.protocol ? e.kept : undefined;
    endpoints.push({
      protocol: e.protocol,
      url,
      priority: Number.isInteger(priority) ? priority : 0,
      ...(kept?.binding ? { binding: kept.binding } : {}),
      ...(kept?.protocolVersion ? { protocolVersion: kept.protocolVersion } : {}),
      ...(kept?.tenant ? { tenant: kept.tenant } : {}),
    });
  });
  const skillIds = new Set<string>();
  const skills = d.skills.map((s, i) => {
    const id = s.id.trim();
    const sname = s.name.trim();
    if (!id) errors.push({ field: `skills.${i}.id`, message: `Skill ${i + 1}: the id is required.` });
    else if (skillIds.has(id)) errors.push({ field: `skills.${i}.id`, message: `Skill ${i + 1}: the id "${id}" is used by another skill.` });
    skillIds.add(id);
    if (!sname) errors.push({ field: `skills.${i}.name`, message: `Skill ${i + 1}: the name is required.` });
    return {
      id,
      name: sname,
      description: s.description.trim(),
      tags: list(s.tags),
      ...(s.kept?.examples ? { examples: s.kept.examples } : {}),
      ...(s.kept?.inputModes ? { inputModes: s.kept.inputModes } : {}),
      ...(s.kept?.outputModes ? { outputModes: s.kept.outputModes } : {}),
    };
  });
  const local = parseLocal(d.local);
  if (!local.ok) errors.push({ field: 'local', message: local.error });
  let id = base?.id ?? d.id.trim();
  if (!base) {
    if (!id && name) id = synthesizeId(name, endpoints.find((e) => isHttp(e.url))?.url);
    if (id && takenIds.includes(id))
      errors.push({ field: 'id', message: `An agent with id ${id} is already registered; edit it instead, or choose another id.` });
  }
  if (errors.length) return { ok: false, errors };
  const parsed = RegistryAgent.safeParse({
    ...(base ?? {}),
    id,
    name,
    version,
    description: d.description.trim(),
    endpoints,
    capabilities: { streaming: d.streaming, pushNotifications: d.pushNotifications, extendedAgentCard: d.extendedAgentCard },
    inputModes: list(d.inputModes),
    outputModes: list(d.outputModes),
    skills,
    local: local.ok ? local.value : {},
  });
  if (!parsed.success)
    return {
      ok: false,
      errors: parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'agent', message: `${i.path.join('.') || 'Agent'}: ${i.message}` })),
    };
  return { ok: true, agent: parsed.data };
}
