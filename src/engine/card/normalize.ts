import type { Binding, Generation } from '../model/check';
import { isRecord, typeName } from '../util/json';

/**
 * The card as the rest of the engine sees it, whatever generation or shape it arrived in.
 * Built tolerantly (never throws); every repair is recorded as a `Fixup` naming the check that must
 * fail because of it, so normalizing never hides a problem.
 */
export interface NormalizedCard {
  name: string;
  description: string;
  version: string;
  url?: string;
  protocolVersion?: string;
  preferredTransport?: string;
  interfaces: CardInterface[];
  provider?: { organization: string; url?: string };
  documentationUrl?: string;
  iconUrl?: string;
  capabilities: {
    streaming: boolean;
    pushNotifications: boolean;
    stateTransitionHistory: boolean;
    extendedAgentCard: boolean;
    extensions: { uri: string; required: boolean; description?: string }[];
  };
  defaultInputModes: string[];
  defaultOutputModes: string[];
  skills: NormalizedSkill[];
  securitySchemes: Record<string, NormalizedScheme>;
  /** Requirements in one shape for every generation: list of {schemeName: scopes}. */
  securityRequirements: Record<string, string[]>[];
  /** Legacy `authentication.schemes`. */
  legacyAuthSchemes: string[];
  signatures: number;
  fixups: Fixup[];
}

export interface CardInterface {
  url: string;
  binding: Binding | string;
  protocolVersion?: string;
  tenant?: string;
  source: 'supportedInterfaces' | 'url' | 'additionalInterfaces';
}

export interface NormalizedSkill {
  id: string;
  name: string;
  description: string;
  tags: string[];
  examples: string[];
  inputModes?: string[];
  outputModes?: string[];
  securityRequirements: Record<string, string[]>[];
}

export type NormalizedScheme =
  | { type: 'apiKey'; name: string; in: string; description?: string }
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'oauth2'; flows: Record<string, Record<string, unknown>>; description?: string }
  | { type: 'openIdConnect'; openIdConnectUrl: string; description?: string }
  | { type: 'mutualTLS'; description?: string }
  | { type: 'unknown'; description?: string };

export interface Fixup {
  /** JSON path in the raw card, e.g. `capabilities` or `skills[2].tags`. */
  path: string;
  note: string;
  /** The card check that must fail because this repair was needed. */
  checkId: string;
  /**
   * The generations in which the repaired value is a defect (absent: every generation). Normalizing runs
   * before the generation is known, so a member that exists only in some generations (e.g.
   * `stateTransitionHistory` up to v0.3, `extendedAgentCard` in v1.0, `capabilities.extensions` from v0.2)
   * is judged only there; elsewhere it is an unknown member, which no schema forbids.
   */
  only?: readonly Generation[];
}

const FROM_V02: readonly Generation[] = ['v0.2', 'v0.3', 'v1.0'];
const V0X_SCHEMA: readonly Generation[] = ['v0.2', 'v0.3'];
const UP_TO_V03: readonly Generation[] = ['legacy', 'v0.2', 'v0.3'];

/** True when the fix-up is a defect in generation `g`. */
export const fixupApplies = (f: Fixup, g: Generation): boolean => !f.only || f.only.includes(g);

const V1_SCHEME_KEYS = {
  apiKeySecurityScheme: 'apiKey',
  httpAuthSecurityScheme: 'http',
  oauth2SecurityScheme: 'oauth2',
  openIdConnectSecurityScheme: 'openIdConnect',
  mtlsSecurityScheme: 'mutualTLS',
} as const;

class Builder {
  fixups: Fixup[] = [];
  fix(path: string, note: string, checkId: string, only?: readonly Generation[]) {
    if (this.fixups.length < 500) this.fixups.push(only ? { path, note, checkId, only } : { path, note, checkId });
  }

  /** A string field; repairs other types (recording the fixup) and returns '' when missing. */
  str(v: unknown, path: string, checkId: string, required: boolean): string {
    if (typeof v === 'string') return v;
    if (v === undefined || v === null) {
      if (required) this.fix(path, 'missing; treated as empty', checkId);
      return '';
    }
    this.fix(path, `expected a string, got ${typeName(v)}; converted`, checkId);
    return typeof v === 'object' ? '' : String(v);
  }

  optStr(v: unknown, path: string, checkId: string): string | undefined {
    if (v === undefined || v === null) return undefined;
    return this.str(v, path, checkId, false);
  }

  strArray(v: unknown, path: string, checkId: string, required: boolean): string[] {
    if (Array.isArray(v)) {
      const out: string[] = [];
      v.slice(0, 1000).forEach((x, i) => {
        if (typeof x === 'string') out.push(x);
        else this.fix(`${path}[${i}]`, `expected a string, got ${typeName(x)}; dropped`, checkId);
      });
      return out;
    }
    if (v === undefined || v === null) {
      if (required) this.fix(path, 'missing; treated as empty list', checkId);
      return [];
    }
    if (typeof v === 'string') {
      this.fix(path, 'expected a list of strings, got a single string; wrapped', checkId);
      return [v];
    }
    this.fix(path, `expected a list of strings, got ${typeName(v)}; treated as empty`, checkId);
    return [];
  }

  bool(v: unknown, path: string, checkId: string, only?: readonly Generation[]): boolean {
    if (typeof v === 'boolean') return v;
    if (v === undefined || v === null) return false;
    this.fix(path, `expected a boolean, got ${typeName(v)} ${JSON.stringify(v)?.slice(0, 40)}; coerced`, checkId, only);
    if (typeof v === 'string') return /^(true|yes|1|on|enabled)$/i.test(v.trim());
    if (typeof v === 'number') return v !== 0;
    return isRecord(v) ? true : false;
  }
}

/** Turns whatever came back into a NormalizedCard, recording every repair. */
export function normalizeCard(raw: unknown): NormalizedCard {
  const b = new Builder();
  const c: Record<string, unknown> = isRecord(raw) ? raw : {};
  if (!isRecord(raw)) b.fix('', `the card is ${typeName(raw)}, not a JSON object`, 'card.json');

  const req = 'card.required-fields';
  const card: NormalizedCard = {
    name: b.str(c.name, 'name', req, true),
    description: b.str(c.description, 'description', req, false),
    version: b.str(c.version, 'version', req, true),
    url: b.optStr(c.url, 'url', req),
    protocolVersion: b.optStr(c.protocolVersion, 'protocolVersion', req),
    preferredTransport: b.optStr(c.preferredTransport, 'preferredTransport', 'card.protocol.coherence'),
    interfaces: [],
    documentationUrl: b.optStr(c.documentationUrl, 'documentationUrl', req),
    iconUrl: b.optStr(c.iconUrl, 'iconUrl', req),
    capabilities: normalizeCapabilities(b, c.capabilities),
    defaultInputModes: b.strArray(c.defaultInputModes, 'defaultInputModes', 'card.modes', false),
    defaultOutputModes: b.strArray(c.defaultOutputModes, 'defaultOutputModes', 'card.modes', false),
    skills: [],
    securitySchemes: {},
    securityRequirements: [],
    legacyAuthSchemes: [],
    signatures: Array.isArray(c.signatures) ? c.signatures.length : 0,
    fixups: b.fixups,
  };

  // null: absent (the v0.1.0 document types it `AgentProvider | null`; ProtoJSON reads null as unset). In v0.2
  // and v0.3 a null provider is a type error, which card.required-fields judges from the raw card.
  if (c.provider !== undefined && c.provider !== null) {
    if (isRecord(c.provider)) {
      card.provider = {
        organization: b.str(c.provider.organization, 'provider.organization', req, true),
        url: b.optStr(c.provider.url, 'provider.url', req),
      };
    } else b.fix('provider', `expected an object, got ${typeName(c.provider)}; ignored`, req);
  }

  // Interfaces: v1.0 supportedInterfaces, or ≤0.3 url + preferredTransport + additionalInterfaces.
  if (Array.isArray(c.supportedInterfaces)) {
    c.supportedInterfaces.slice(0, 50).forEach((x, i) => {
      const p = `supportedInterfaces[${i}]`;
      if (!isRecord(x)) return b.fix(p, `expected an object, got ${typeName(x)}; dropped`, 'card.protocol.coherence');
      card.interfaces.push({
        url: b.str(x.url, `${p}.url`, 'card.protocol.coherence', true),
        binding: b.str(x.protocolBinding ?? x.transport, `${p}.protocolBinding`, 'card.protocol.coherence', true),
        protocolVersion: b.optStr(x.protocolVersion, `${p}.protocolVersion`, 'card.protocol.coherence'),
        tenant: b.optStr(x.tenant, `${p}.tenant`, 'card.protocol.coherence'),
        source: 'supportedInterfaces',
      });
    });
  } else if (c.supportedInterfaces !== undefined) {
    b.fix('supportedInterfaces', `expected a list, got ${typeName(c.supportedInterfaces)}; ignored`, 'card.protocol.coherence');
  }
  if (card.url) {
    card.interfaces.push({ url: card.url, binding: card.preferredTransport || 'JSONRPC', protocolVersion: card.protocolVersion, source: 'url' });
  }
  if (Array.isArray(c.additionalInterfaces)) {
    c.additionalInterfaces.slice(0, 50).forEach((x, i) => {
      const p = `additionalInterfaces[${i}]`;
      if (!isRecord(x)) return b.fix(p, `expected an object, got ${typeName(x)}; dropped`, 'card.protocol.coherence');
      card.interfaces.push({
        url: b.str(x.url, `${p}.url`, 'card.protocol.coherence', true),
        binding: b.str(x.transport, `${p}.transport`, 'card.protocol.coherence', true),
        protocolVersion: card.protocolVersion,
        source: 'additionalInterfaces',
      });
    });
  }

  // Skills.
  if (Array.isArray(c.skills)) {
    c.skills.slice(0, 500).forEach((s, i) => {
      const p = `skills[${i}]`;
      if (!isRecord(s)) return b.fix(p, `expected an object, got ${typeName(s)}; dropped`, 'card.skills');
      card.skills.push({
        id: b.str(s.id, `${p}.id`, 'card.skills', true),
        name: b.str(s.name, `${p}.name`, 'card.skills', true),
        description: b.str(s.description, `${p}.description`, 'card.skills', false),
        tags: b.strArray(s.tags, `${p}.tags`, 'card.skills', false),
        examples: b.strArray(s.examples, `${p}.examples`, 'card.skills', false),
        // null: the defaults apply (v0.1.0 "If null or omitted, the agent's defaultInputModes apply"; ProtoJSON
        // reads null as unset). v0.2/v0.3 type errors of this kind are judged by card.modes from the raw card.
        inputModes: s.inputModes === undefined || s.inputModes === null ? undefined : b.strArray(s.inputModes, `${p}.inputModes`, 'card.modes', false),
        outputModes: s.outputModes === undefined || s.outputModes === null ? undefined : b.strArray(s.outputModes, `${p}.outputModes`, 'card.modes', false),
        securityRequirements: normalizeRequirements(b, s.securityRequirements ?? s.security, `${p}.security`),
      });
    });
  } else {
    b.fix(
      'skills',
      c.skills === undefined ? 'missing; treated as no skills' : `expected a list, got ${typeName(c.skills)}; treated as no skills`,
      'card.required-fields',
    );
  }

  // Security.
  // securitySchemes exists from v0.2 (in a v0.1.0 card it is an unknown member); authentication only in v0.1.0.
  if (isRecord(c.securitySchemes)) {
    for (const [name, s] of Object.entries(c.securitySchemes).slice(0, 100)) {
      card.securitySchemes[name] = normalizeScheme(b, s, `securitySchemes.${name}`);
    }
  } else if (c.securitySchemes !== undefined && c.securitySchemes !== null) {
    b.fix('securitySchemes', `expected an object map, got ${typeName(c.securitySchemes)}; ignored`, 'card.security.schemes', FROM_V02);
  } else if (c.securitySchemes === null) {
    b.fix('securitySchemes', 'expected an object map, got null; ignored', 'card.security.schemes', V0X_SCHEMA);
  }
  card.securityRequirements = normalizeRequirements(
    b,
    c.securityRequirements ?? c.security,
    c.securityRequirements !== undefined ? 'securityRequirements' : 'security',
  );
  if (isRecord(c.authentication)) {
    const before = b.fixups.length;
    card.legacyAuthSchemes = b.strArray(c.authentication.schemes, 'authentication.schemes', 'card.security.schemes', true);
    for (const f of b.fixups.slice(before)) f.only = ['legacy'];
  }
  return card;
}

function normalizeCapabilities(b: Builder, v: unknown): NormalizedCard['capabilities'] {
  const caps: NormalizedCard['capabilities'] = {
    streaming: false,
    pushNotifications: false,
    stateTransitionHistory: false,
    extendedAgentCard: false,
    extensions: [],
  };
  const id = 'card.capabilities.shape';
  if (v === undefined || v === null) {
    b.fix('capabilities', 'missing; treated as no capabilities', 'card.required-fields');
    return caps;
  }
  if (Array.isArray(v)) {
    // The array format (docs/conformance-procedure.md#capabilities-as-an-object-or-an-array): [{type: "streaming", description: "..."}] or ["streaming"].
    b.fix('capabilities', 'given as an array instead of an object of booleans; converted', id);
    for (const item of v.slice(0, 100)) {
      const name = typeof item === 'string' ? item : isRecord(item) ? String(item.type ?? item.name ?? '') : '';
      setCap(caps, name, true);
    }
    return caps;
  }
  if (!isRecord(v)) {
    b.fix('capabilities', `expected an object, got ${typeName(v)}; treated as no capabilities`, id);
    return caps;
  }
  for (const [k, val] of Object.entries(v).slice(0, 100)) {
    if (k === 'extensions') {
      // Not a v0.1.0 member (unknown there: ignored). ProtoJSON reads null as an empty list; the v0.x schemas do not.
      if (val === null) {
        b.fix('capabilities.extensions', 'expected a list, got null; ignored', id, V0X_SCHEMA);
        continue;
      }
      if (!Array.isArray(val)) {
        b.fix('capabilities.extensions', `expected a list, got ${typeName(val)}; ignored`, id, FROM_V02);
        continue;
      }
      val.slice(0, 100).forEach((e, i) => {
        const p = `capabilities.extensions[${i}]`;
        if (!isRecord(e)) return b.fix(p, `expected an object, got ${typeName(e)}`, id, FROM_V02);
        let uri = '';
        if (typeof e.uri === 'string') uri = e.uri;
        // AgentExtension.uri is required by the v0.2/v0.3 schemas, not by the v1.0 proto.
        else if (e.uri === undefined || e.uri === null) b.fix(`${p}.uri`, 'missing; treated as empty', id, V0X_SCHEMA);
        else b.fix(`${p}.uri`, `expected a string, got ${typeName(e.uri)}; ignored`, id, FROM_V02);
        let description: string | undefined;
        if (typeof e.description === 'string') description = e.description;
        else if (e.description !== undefined && e.description !== null)
          b.fix(`${p}.description`, `expected a string, got ${typeName(e.description)}; ignored`, id, FROM_V02);
        caps.extensions.push({ uri, required: b.bool(e.required, `${p}.required`, id, FROM_V02), description });
      });
      continue;
    }
    // Only the members of the schema/proto are judged (and understood); others are unknown members, which no
    // schema forbids (card.strict-lint lists them as a portability advisory).
    const known = Object.hasOwn(KNOWN_CAPABILITIES, k) ? KNOWN_CAPABILITIES[k] : undefined;
    if (!known) continue;
    caps[known.key] = b.bool(val, `capabilities.${k}`, id, known.only);
  }
  return caps;
}

/** Capability flags by their JSON name, with the generations that define them. */
const KNOWN_CAPABILITIES: Record<
  string,
  { key: 'streaming' | 'pushNotifications' | 'stateTransitionHistory' | 'extendedAgentCard'; only?: readonly Generation[] }
> = {
  streaming: { key: 'streaming' },
  pushNotifications: { key: 'pushNotifications' },
  stateTransitionHistory: { key: 'stateTransitionHistory', only: UP_TO_V03 },
  extendedAgentCard: { key: 'extendedAgentCard', only: ['v1.0'] },
};

function setCap(caps: NormalizedCard['capabilities'], name: string, on: boolean) {
  const key = name.replace(/[-_\s]/g, '').toLowerCase();
  if (key === 'streaming' || key === 'sse') caps.streaming = on;
  else if (key === 'pushnotifications' || key === 'push') caps.pushNotifications = on;
  else if (key === 'statetransitionhistory') caps.stateTransitionHistory = on;
  else if (key === 'extendedagentcard') caps.extendedAgentCard = on;
}

function normalizeScheme(b: Builder, s: unknown, path: string): NormalizedScheme {
  const id = 'card.security.schemes';
  if (!isRecord(s)) {
    b.fix(path, `expected an object, got ${typeName(s)}`, id, FROM_V02);
    return { type: 'unknown' };
  }
  // v1.0 ProtoJSON oneof wrapper: {"apiKeySecurityScheme": {...}}
  const wrapper = Object.keys(V1_SCHEME_KEYS).find((k) => k in s) as keyof typeof V1_SCHEME_KEYS | undefined;
  const type = wrapper ? V1_SCHEME_KEYS[wrapper] : typeof s.type === 'string' ? s.type : '';
  const body = wrapper && isRecord(s[wrapper]) ? (s[wrapper] as Record<string, unknown>) : s;
  const description = typeof body.description === 'string' ? body.description : undefined;
  switch (type) {
    case 'apiKey':
      return {
        type,
        name: typeof body.name === 'string' ? body.name : '',
        in: typeof (body.location ?? body.in) === 'string' ? String(body.location ?? body.in) : '',
        description,
      };
    case 'http':
      return {
        type,
        scheme: typeof body.scheme === 'string' ? body.scheme : '',
        bearerFormat: typeof body.bearerFormat === 'string' ? body.bearerFormat : undefined,
        description,
      };
    case 'oauth2': {
      const flows: Record<string, Record<string, unknown>> = {};
      if (isRecord(body.flows)) {
        for (const [k, f] of Object.entries(body.flows)) if (isRecord(f)) flows[k] = f;
      }
      return { type, flows, description };
    }
    case 'openIdConnect':
      return { type, openIdConnectUrl: typeof body.openIdConnectUrl === 'string' ? body.openIdConnectUrl : '', description };
    case 'mutualTLS':
      return { type, description };
    default:
      return { type: 'unknown', description };
  }
}

/**
 * ≤0.3 `security: [{name: [scopes]}]` and v1.0 `securityRequirements: [{schemes: {name: {list: [scopes]}}}]`
 * into one shape.
 */
function normalizeRequirements(b: Builder, v: unknown, path: string): Record<string, string[]>[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    b.fix(path, `expected a list, got ${typeName(v)}; ignored`, 'card.security.references');
    return [];
  }
  const out: Record<string, string[]>[] = [];
  v.slice(0, 100).forEach((req, i) => {
    if (!isRecord(req)) return b.fix(`${path}[${i}]`, `expected an object, got ${typeName(req)}`, 'card.security.references');
    const map = isRecord(req.schemes) ? req.schemes : req;
    const entry: Record<string, string[]> = {};
    for (const [name, scopes] of Object.entries(map)) {
      const list = isRecord(scopes) ? scopes.list : scopes;
      entry[name] = Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : [];
    }
    out.push(entry);
  });
  return out;
}
