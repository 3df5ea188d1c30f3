import type { Binding } from '../model/check';
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
}

const V1_SCHEME_KEYS = {
  apiKeySecurityScheme: 'apiKey',
  httpAuthSecurityScheme: 'http',
  oauth2SecurityScheme: 'oauth2',
  openIdConnectSecurityScheme: 'openIdConnect',
  mtlsSecurityScheme: 'mutualTLS',
} as const;

class Builder {
  fixups: Fixup[] = [];
  fix(path: string, note: string, checkId: string) {
    if (this.fixups.length < 500) this.fixups.push({ path, note, checkId });
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

  bool(v: unknown, path: string, checkId: string): boolean {
    if (typeof v === 'boolean') return v;
    if (v === undefined || v === null) return false;
    this.fix(path, `expected a boolean, got ${typeName(v)} ${JSON.stringify(v)?.slice(0, 40)}; coerced`, checkId);
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

  if (c.provider !== undefined) {
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
        inputModes: s.inputModes === undefined ? undefined : b.strArray(s.inputModes, `${p}.inputModes`, 'card.modes', false),
        outputModes: s.outputModes === undefined ? undefined : b.strArray(s.outputModes, `${p}.outputModes`, 'card.modes', false),
        securityRequirements: normalizeRequirements(b, s.securityRequirements ?? s.security, `${p}.security`),
      });
    });
  } else {
    b.fix('skills', c.skills === undefined ? 'missing; treated as no skills' : `expected a list, got ${typeName(c.skills)}; treated as no skills`, 'card.required-fields');
  }

  // Security.
  if (isRecord(c.securitySchemes)) {
    for (const [name, s] of Object.entries(c.securitySchemes).slice(0, 100)) {
      card.securitySchemes[name] = normalizeScheme(b, s, `securitySchemes.${name}`);
    }
  } else if (c.securitySchemes !== undefined) {
    b.fix('securitySchemes', `expected an object map, got ${typeName(c.securitySchemes)}; ignored`, 'card.security.schemes');
  }
  card.securityRequirements = normalizeRequirements(
    b,
    c.securityRequirements ?? c.security,
    c.securityRequirements !== undefined ? 'securityRequirements' : 'security',
  );
  if (isRecord(c.authentication)) {
    card.legacyAuthSchemes = b.strArray(c.authentication.schemes, 'authentication.schemes', 'card.security.schemes', true);
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
    // The array format of seed 000: [{type: "streaming", description: "..."}] or ["streaming"].
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
      if (!Array.isArray(val)) {
        b.fix('capabilities.extensions', `expected a list, got ${typeName(val)}; ignored`, id);
        continue;
      }
      val.slice(0, 100).forEach((e, i) => {
        if (!isRecord(e)) return b.fix(`capabilities.extensions[${i}]`, `expected an object, got ${typeName(e)}`, id);
        caps.extensions.push({
          uri: b.str(e.uri, `capabilities.extensions[${i}].uri`, id, true),
          required: b.bool(e.required, `capabilities.extensions[${i}].required`, id),
          description: b.optStr(e.description, `capabilities.extensions[${i}].description`, id),
        });
      });
      continue;
    }
    setCap(caps, k, b.bool(val, `capabilities.${k}`, id));
  }
  return caps;
}

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
    b.fix(path, `expected an object, got ${typeName(s)}`, id);
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
