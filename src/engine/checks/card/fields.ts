/** Card checks: the fields of the card (required fields, capabilities, skills, input and output modes). */
import { isRecord, typeName } from '../../util/json';
import { defineCheck, ev, fail, pass, skip } from '../define';
import { ALL, collect, fixupsFor, judge, nullIsAbsent, snake } from './common';

/** A media type or media range (RFC 9110 §12.5.1): type/subtype, a type with subtype "*", or "*" for both; parameters allowed. */
const MEDIA_TYPE = /^(?:\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*))(?:\s*;.*)?$/i;

export const cardRequiredFields = defineCheck({
  id: 'card.required-fields',
  title: 'The card has every required field, with the right type',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5 AgentCard (schema: name, url, version, capabilities, skills)',
    'v0.2': 'v0.2.6 §5.5 AgentCard (schema required fields)',
    'v0.3': 'v0.3.0 §5.5 AgentCard (schema required fields)',
    'v1.0': 'v1.0.1 §4.4.1 AgentCard, §5.7 Field Presence (proto REQUIRED fields)',
  }),
  recommendation:
    'Add the missing fields with the types the schema gives. In @a2a-js/sdk the AgentCard type lists them; a2a-python validates them with its AgentCard model; v1.0 cards follow a2a.proto (ProtoJSON, camelCase names).',
  requires: ['card'],
  run: (c) => {
    const raw = c.raw;
    const g = c.generation;
    const problems: string[] = [];
    const advisories: string[] = [];
    /** A required field is absent: in v1.0, say so when the proto (snake_case) name is there instead. */
    const missing = (f: string) => {
      const proto = snake(f);
      return g === 'v1.0' && proto !== f && raw[proto] !== undefined
        ? `"${f}" is missing (the card uses the proto name "${proto}"; v1.0 §5.5: JSON field names MUST be camelCase)`
        : `"${f}" is missing`;
    };
    const requiredStrings: string[] = ['name', 'version'];
    if (g !== 'legacy') requiredStrings.push('description');
    if (g !== 'v1.0') requiredStrings.push('url');
    // v0.2: required only from v0.2.5 (v0.2.0-0.2.4 cards have no protocolVersion), so judged when present.
    if (g === 'v0.3' || (g === 'v0.2' && raw.protocolVersion !== undefined)) requiredStrings.push('protocolVersion');
    for (const f of requiredStrings) {
      const v = raw[f];
      if (v === undefined) problems.push(missing(f));
      else if (typeof v !== 'string')
        problems.push(`"${f}" should be a string, got ${typeName(v)}${v === null && g === 'v1.0' ? ' (ProtoJSON reads null as unset)' : ''}`);
      else if (!v.trim())
        advisories.push(
          `"${f}" is empty (the schema requires presence and type, not content${g === 'v1.0' ? '; v1.0 §8.4.1 keeps "description": "" as a valid REQUIRED value' : ''})`,
        );
    }
    if (raw.capabilities === undefined) problems.push(missing('capabilities'));
    if (raw.skills === undefined) problems.push(missing('skills'));
    else if (!Array.isArray(raw.skills)) problems.push(`"skills" should be a list, got ${typeName(raw.skills)}`);
    if (g !== 'legacy') {
      for (const f of ['defaultInputModes', 'defaultOutputModes']) if (raw[f] === undefined) problems.push(missing(f));
    }
    if (g === 'v1.0' && !Array.isArray(raw.supportedInterfaces)) problems.push(missing('supportedInterfaces'));
    const p = raw.provider;
    if (p === null && nullIsAbsent(g)) {
      // Absent: the v0.1.0 document types it `provider?: AgentProvider | null`; ProtoJSON reads null as unset.
    } else if (p !== undefined) {
      if (!isRecord(p)) problems.push(`"provider" should be an object, got ${typeName(p)}`);
      else {
        if (typeof p.organization !== 'string')
          problems.push(
            p.organization === undefined
              ? '"provider.organization" is required'
              : `"provider.organization" should be a string, got ${typeName(p.organization)}`,
          );
        else if (!p.organization.trim()) advisories.push('"provider.organization" is empty');
        if (g !== 'legacy') {
          if (typeof p.url !== 'string')
            problems.push(p.url === undefined ? '"provider.url" is required' : `"provider.url" should be a string, got ${typeName(p.url)}`);
          else if (!p.url.trim()) advisories.push('"provider.url" is empty');
        }
      }
    }
    const fx = fixupsFor(c, 'card.required-fields').filter((f) => !problems.some((q) => q.includes(`"${f.path}"`)));
    const lenient =
      g === 'v0.2' && raw.protocolVersion === undefined
        ? ' (protocolVersion is absent: v0.2.6 requires it, but v0.2.0-0.2.4 cards lack it, so it is not judged)'
        : '';
    return judge({
      problems,
      advisories,
      fx,
      ok: `Every required field is present and typed${lenient}.`,
      bad: 'Required fields are missing or mistyped',
      advisoryReason:
        'An empty string is schema-valid for a required field (the schemas require presence and type only; v1.0 §8.4.1 keeps "description": "" as a valid REQUIRED value).',
    });
  },
});

export const cardCapabilitiesShape = defineCheck({
  id: 'card.capabilities.shape',
  title: 'capabilities is an object of boolean flags',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5.2 AgentCapabilities',
    'v0.2': 'v0.2.6 §5.5.2 AgentCapabilities',
    'v0.3': 'v0.3.0 §5.5.2 AgentCapabilities',
    'v1.0': 'v1.0.1 §4.4.3 AgentCapabilities',
  }),
  recommendation:
    'Declare capabilities as an object with boolean flags, e.g. {"streaming": true, "pushNotifications": false}; not a list of {type, description} entries and not strings such as "true" or "SSE streaming". Strict clients (Go, Java, a2a-python) fail to decode other shapes.',
  requires: ['card'],
  run: (c) => {
    const caps = c.raw.capabilities;
    // Only the shape and the members of this generation's schema/proto are judged (normalize records them,
    // per generation); unknown members are valid in every schema and left to card.strict-lint.
    return collect(
      [],
      [ev('capabilities', caps, { path: 'capabilities' })],
      `capabilities is an object whose ${c.generation} flags are booleans.`,
      'capabilities is malformed',
      fixupsFor(c, 'card.capabilities.shape'),
    );
  },
});

export const cardSkills = defineCheck({
  id: 'card.skills',
  title: 'Every skill has id, name, description and tags, and ids are unique',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5.4 AgentSkill (id, name required)',
    'v0.2': 'v0.2.6 §5.5.4 AgentSkill (id, name, description, tags required)',
    'v0.3': 'v0.3.0 §5.5.4 AgentSkill',
    'v1.0': 'v1.0.1 §4.4.5 AgentSkill',
  }),
  recommendation:
    'Give each skill a unique id, a name, a description and a list of tags; add examples so clients (and this tool) can build a meaningful first message.',
  requires: ['card'],
  run: (c) => {
    const skills = c.raw.skills;
    const g = c.generation;
    if (!Array.isArray(skills))
      return fail(
        `"skills" is ${skills === undefined ? 'missing' : `a ${typeName(skills)}`}, so no skill can be checked.`,
        [],
        'Declare "skills" as a list of AgentSkill objects.',
      );
    const problems: string[] = [];
    const advisories: string[] = [];
    const seen = new Set<string>();
    const required = g === 'legacy' ? ['id', 'name'] : ['id', 'name', 'description'];
    skills.slice(0, 200).forEach((s, i) => {
      if (!isRecord(s)) return void problems.push(`skills[${i}] is a ${typeName(s)}, not an object`);
      for (const f of required) {
        const v = s[f];
        if (v === undefined) problems.push(`skills[${i}].${f} is missing`);
        else if (typeof v !== 'string') problems.push(`skills[${i}].${f} should be a string, got ${typeName(v)}`);
        else if (!v.trim()) advisories.push(`skills[${i}].${f} is empty`);
      }
      if (g !== 'legacy') {
        if (s.tags === undefined) problems.push(`skills[${i}].tags is missing (required since v0.2)`);
        else if (!Array.isArray(s.tags)) problems.push(`skills[${i}].tags is a ${typeName(s.tags)}, not a list (required since v0.2)`);
        else if (g === 'v1.0' && s.tags.length === 0)
          advisories.push(`skills[${i}].tags is empty (v1.0 §5.7: required arrays MUST have an element, but §8.4.1 keeps an empty REQUIRED array as valid)`);
      }
      if (typeof s.id === 'string') {
        if (seen.has(s.id)) advisories.push(`skill id "${s.id}" is used twice (the schema describes ids as unique, without a requirement word)`);
        seen.add(s.id);
      }
    });
    const all = [...problems, ...advisories];
    const fx = fixupsFor(c, 'card.skills').filter((f) => !all.some((p) => p.startsWith(f.path)));
    return judge({
      problems,
      advisories,
      fx,
      evidence: [
        ev(
          'skills',
          `${skills.length} skill(s): ${skills
            .slice(0, 10)
            .map((s) => (isRecord(s) ? String(s.id) : '?'))
            .join(', ')}`,
          { path: 'skills' },
        ),
      ],
      ok: `${skills.length} well-formed skill(s).`,
      bad: 'Skills are malformed',
      advisoryReason:
        'Empty strings are schema-valid, unique ids are described without a requirement word, and v1.0 contradicts itself on empty required arrays (§5.7 vs §8.4.1).',
    });
  },
});

export const cardModes = defineCheck({
  id: 'card.modes',
  title: 'Input and output modes are lists of strings (non-empty where required)',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5 (defaultInputModes/defaultOutputModes, skill inputModes/outputModes)',
    'v0.2': 'v0.2.6 §5.5, §5.5.4',
    'v0.3': 'v0.3.0 §5.5, §5.5.4',
    'v1.0': 'v1.0.1 §4.4.1, §4.4.5, §5.7 (REQUIRED repeated fields MUST be non-empty)',
  }),
  recommendation:
    'Declare defaultInputModes/defaultOutputModes as non-empty lists of media types (e.g. ["text/plain", "application/json"]); a skill\'s inputModes/outputModes, when present, override them.',
  requires: ['card'],
  run: (c) => {
    const raw = c.raw;
    const g = c.generation;
    const problems: string[] = [];
    const advisories: string[] = [];
    const checkList = (v: unknown, path: string, kind: 'default' | 'skill') => {
      const required = kind === 'default' && g !== 'legacy';
      if (v === undefined) {
        if (required) problems.push(`${path} is missing`);
        return;
      }
      // null: v0.1.0 "If null or omitted, the agent's defaultInputModes apply" (skill modes); ProtoJSON reads null as unset.
      if (v === null && !required && ((g === 'legacy' && kind === 'skill') || g === 'v1.0')) return;
      if (!Array.isArray(v))
        return void problems.push(
          `${path} should be a list, got ${typeName(v)}${v === null && required && g === 'v1.0' ? ' (ProtoJSON reads null as unset; the field is REQUIRED)' : ''}`,
        );
      if (v.length === 0 && kind === 'default') {
        // v1.0 §5.7: required arrays MUST have an element; the v0.x schemas set no minimum length.
        if (g === 'v1.0') problems.push(`${path} is empty (v1.0 §5.7: arrays marked as required MUST contain at least one element)`);
        else advisories.push(`${path} is empty (clients cannot tell which media types the agent accepts)`);
      }
      // An empty skill list is the same as an absent one in ProtoJSON, and optional in every schema: not judged.
      v.forEach((x, i) => {
        if (typeof x !== 'string') problems.push(`${path}[${i}] should be a string, got ${typeName(x)}`);
      });
    };
    checkList(raw.defaultInputModes, 'defaultInputModes', 'default');
    checkList(raw.defaultOutputModes, 'defaultOutputModes', 'default');
    if (Array.isArray(raw.skills)) {
      raw.skills.slice(0, 200).forEach((s, i) => {
        if (!isRecord(s)) return;
        checkList(s.inputModes, `skills[${i}].inputModes`, 'skill');
        checkList(s.outputModes, `skills[${i}].outputModes`, 'skill');
      });
    }
    const all = [...problems, ...advisories];
    const fx = fixupsFor(c, 'card.modes').filter((f) => !all.some((p) => p.startsWith(f.path)));
    return judge({
      problems,
      advisories,
      fx,
      evidence: [
        ev('defaultInputModes', raw.defaultInputModes, { path: 'defaultInputModes' }),
        ev('defaultOutputModes', raw.defaultOutputModes, { path: 'defaultOutputModes' }),
      ],
      ok: 'Modes are well-formed lists.',
      bad: 'Modes are malformed',
      advisoryReason: `The ${g} schema sets no minimum length for the default modes: an empty list is schema-valid.`,
    });
  },
});

export const cardModesMediaTypes = defineCheck({
  id: 'card.modes.media-types',
  title: 'Modes are media types (type/subtype)',
  category: 'agent-card',
  level: 'MAY',
  phase: 'card',
  specRefs: ALL({ 'v0.2': 'v0.2.6 §5.5 (MIME types)', 'v0.3': 'v0.3.0 §5.5 (media types)', 'v1.0': 'v1.0.1 §4.4.1 (media types)' }),
  recommendation:
    'Use media types such as "text/plain" or "application/json" (or ranges such as "image/*") instead of shorthands like "text" or "json" (early samples used the shorthand; current SDKs and clients match on media types).',
  requires: ['card'],
  run: (c) => {
    const card = c.card;
    const all = [
      ...card.defaultInputModes.map((m) => ['defaultInputModes', m] as const),
      ...card.defaultOutputModes.map((m) => ['defaultOutputModes', m] as const),
      ...card.skills.flatMap((s, i) => [
        ...(s.inputModes ?? []).map((m) => [`skills[${i}].inputModes`, m] as const),
        ...(s.outputModes ?? []).map((m) => [`skills[${i}].outputModes`, m] as const),
      ]),
    ];
    const bad = all.filter(([, m]) => !MEDIA_TYPE.test(m));
    if (!all.length) return skip('The card declares no modes to judge.', 'precondition');
    return bad.length
      ? fail(
          `${bad.length} mode(s) are not media types (the spec describes modes as media types but does not require it): ${[...new Set(bad.map(([, m]) => JSON.stringify(m)))].slice(0, 6).join(', ')}.`,
          bad.slice(0, 10).map(([p, m]) => ev(p, m, { path: p })),
        )
      : pass(`${all.length} mode(s), all media types.`);
  },
});
