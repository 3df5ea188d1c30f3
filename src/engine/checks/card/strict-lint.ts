/** Card check: what strict SDK parsers (protobuf JSON, JSON Schema validators) would reject in a card: portability advice. */
import type { Generation } from '../../model/check';
import { isRecord, typeName } from '../../util/json';
import { defineCheck, ev, fail, pass } from '../define';
import { ALL, nullIsAbsent, snake } from './common';

const KNOWN: Record<Generation, { card: string[]; skill: string[]; caps: string[] }> = {
  legacy: {
    card: [
      'name',
      'description',
      'url',
      'provider',
      'version',
      'documentationUrl',
      'capabilities',
      'authentication',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
    ],
    skill: ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes'],
    caps: ['streaming', 'pushNotifications', 'stateTransitionHistory'],
  },
  'v0.2': {
    card: [
      'additionalInterfaces',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'documentationUrl',
      'iconUrl',
      'name',
      'preferredTransport',
      'protocolVersion',
      'provider',
      'security',
      'securitySchemes',
      'skills',
      'supportsAuthenticatedExtendedCard',
      'url',
      'version',
    ],
    skill: ['description', 'examples', 'id', 'inputModes', 'name', 'outputModes', 'tags'],
    caps: ['extensions', 'pushNotifications', 'stateTransitionHistory', 'streaming'],
  },
  'v0.3': {
    card: [
      'additionalInterfaces',
      'capabilities',
      'defaultInputModes',
      'defaultOutputModes',
      'description',
      'documentationUrl',
      'iconUrl',
      'name',
      'preferredTransport',
      'protocolVersion',
      'provider',
      'security',
      'securitySchemes',
      'signatures',
      'skills',
      'supportsAuthenticatedExtendedCard',
      'url',
      'version',
    ],
    skill: ['description', 'examples', 'id', 'inputModes', 'name', 'outputModes', 'security', 'tags'],
    caps: ['extensions', 'pushNotifications', 'stateTransitionHistory', 'streaming'],
  },
  'v1.0': {
    card: [
      'name',
      'description',
      'supportedInterfaces',
      'provider',
      'version',
      'documentationUrl',
      'capabilities',
      'securitySchemes',
      'securityRequirements',
      'defaultInputModes',
      'defaultOutputModes',
      'skills',
      'signatures',
      'iconUrl',
    ],
    skill: ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes', 'securityRequirements'],
    caps: ['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard'],
  },
};

/** What strict parsers of each generation reject (unknown fields, wrong types, renamed fields). */
export function strictLint(raw: Record<string, unknown>, g: Generation): string[] {
  const out: string[] = [];
  const known = KNOWN[g];
  const okName = (list: string[], k: string) => list.includes(k) || (g === 'v1.0' && list.map(snake).includes(k));
  for (const k of Object.keys(raw)) {
    if (!okName(known.card, k)) {
      const hint =
        g === 'v1.0' && k === 'security'
          ? ' (the proto field is "securityRequirements"; the v1.0 §8.5 sample card uses "security" too)'
          : g === 'v1.0' && k === 'url'
            ? ' (v1.0 moved it into supportedInterfaces[].url)'
            : g === 'v1.0' && k === 'supportsAuthenticatedExtendedCard'
              ? ' (now capabilities.extendedAgentCard)'
              : '';
      out.push(`unknown top-level field "${k}"${hint}`);
    }
  }
  if (isRecord(raw.capabilities)) {
    for (const [k, v] of Object.entries(raw.capabilities)) {
      // Value types are judged by card.capabilities.shape; the lint only flags names strict parsers do not know.
      void v;
      if (!okName(known.caps, k)) out.push(`unknown capability "${k}"${g === 'v1.0' && k === 'stateTransitionHistory' ? ' (removed in v1.0)' : ''}`);
    }
  }
  if (Array.isArray(raw.skills)) {
    if (g === 'v1.0' && raw.skills.length === 0)
      out.push('skills is empty (v1.0 §5.7: REQUIRED repeated fields MUST be non-empty; the §8.4.1 example contradicts this)');
    raw.skills.slice(0, 100).forEach((s, i) => {
      if (!isRecord(s)) return;
      for (const k of Object.keys(s)) {
        if (!okName(known.skill, k))
          out.push(`skills[${i}] has unknown field "${k}"${g === 'v1.0' && k === 'security' ? ' (v1.0: securityRequirements)' : ''}`);
      }
      // null is absent where the generation reads it so (v0.1.0 types examples `string[] | null`; ProtoJSON), as for the URLs below.
      const examples = s.examples === null && nullIsAbsent(g) ? undefined : s.examples;
      if (examples !== undefined && (!Array.isArray(examples) || examples.some((e) => typeof e !== 'string')))
        out.push(`skills[${i}].examples should be a list of strings`);
    });
  }
  if (g === 'v1.0') {
    for (const [name, s] of Object.entries(isRecord(raw.securitySchemes) ? raw.securitySchemes : {})) {
      if (isRecord(s) && 'type' in s) out.push(`securitySchemes.${name} has "type" (v0.3 style); v1.0 uses oneof wrappers and ProtoJSON parsers reject "type"`);
      const ak = isRecord(s) && isRecord(s.apiKeySecurityScheme) ? s.apiKeySecurityScheme : undefined;
      if (ak && 'in' in ak) out.push(`securitySchemes.${name}.apiKeySecurityScheme has "in"; v1.0 calls it "location"`);
    }
    if (Array.isArray(raw.supportedInterfaces)) {
      raw.supportedInterfaces.forEach((i, n) => {
        if (!isRecord(i)) return;
        for (const k of Object.keys(i))
          if (!['url', 'protocolBinding', 'protocolVersion', 'tenant', 'protocol_binding', 'protocol_version'].includes(k))
            out.push(`supportedInterfaces[${n}] has unknown field "${k}"${k === 'transport' ? ' (v1.0: protocolBinding)' : ''}`);
      });
    }
  } else if (g !== 'legacy') {
    for (const [name, s] of Object.entries(isRecord(raw.securitySchemes) ? raw.securitySchemes : {})) {
      if (isRecord(s) && typeof s.type !== 'string') out.push(`securitySchemes.${name} has no "type" discriminator (the ${g} JSON Schema requires it)`);
    }
    // A non-core preferredTransport is permitted (an open form string): card.protocol.coherence notes it.
  }
  // Types of required fields are judged by card.required-fields; optional string fields only here (null is
  // absent in v0.1.0, whose document types them `string | null`, and in ProtoJSON).
  for (const k of ['documentationUrl', 'iconUrl']) {
    if (raw[k] !== undefined && !(raw[k] === null && (g === 'legacy' || g === 'v1.0')) && typeof raw[k] !== 'string')
      out.push(`${k} should be a string, got ${typeName(raw[k])}`);
  }
  return out;
}

export const cardStrictLint = defineCheck({
  id: 'card.strict-lint',
  title: 'Strict SDK parsers would accept the card',
  category: 'agent-card',
  level: 'MAY',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 a2a.json (JSON Schema)',
    'v0.2': 'v0.2.6 a2a.json (JSON Schema)',
    'v0.3': 'v0.3.0 a2a.json (JSON Schema)',
    'v1.0': 'v1.0.1 a2a.proto (ProtoJSON, ADR-001), §5.5 field naming, §5.7',
  }),
  recommendation:
    "Keep the card to the fields of its generation's schema/proto with their exact names and types. Protobuf JSON parsers (a2a-python 1.x, a2a-java, a2a-go) reject unknown fields and wrong types by default; @a2a-js/sdk silently drops or coerces them, so a card that works with a JS client can still break others.",
  requires: ['card'],
  run: (c) => {
    const issues = strictLint(c.raw, c.generation);
    // Portability, not conformance: unknown members are valid in every schema and v1.0 receivers SHOULD ignore them.
    return issues.length
      ? fail(
          `${issues.length} thing(s) a strict parser would reject or misread (portability advice; the schemas do not forbid them): ${issues.slice(0, 4).join('; ')}${issues.length > 4 ? '; …' : ''}.`,
          issues.slice(0, 30).map((i) => ev('lint', i)),
        )
      : pass('Only fields of the schema/proto, with the right types.');
  },
});
