/** Card checks: the security schemes a card declares, and the requirements that name them. */
import { isRecord, typeName } from '../../util/json';
import { defineCheck, ev, skip } from '../define';
import { ALL, collect, fixupsFor, judge, nullIsAbsent } from './common';

export const cardSecuritySchemes = defineCheck({
  id: 'card.security.schemes',
  title: 'Security schemes are complete (apiKey name and location, OAuth flow URLs, ...)',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.5.3 AgentAuthentication',
    'v0.2': 'v0.2.6 §5.5.3 SecurityScheme (OpenAPI 3.0)',
    'v0.3': 'v0.3.0 §5.5.3 SecurityScheme',
    'v1.0': 'v1.0.1 §4.5 Security Objects (oneof wrappers)',
  }),
  recommendation:
    'Complete each scheme: apiKey needs "name" and the location ("in" up to v0.3, "location" in v1.0) of header, query or cookie; http needs "scheme" (e.g. "bearer"); oauth2 flows need tokenUrl (clientCredentials, password, authorizationCode, deviceCode) and authorizationUrl (authorizationCode, implicit) plus scopes; openIdConnect needs openIdConnectUrl. In v1.0 wrap each scheme, e.g. {"apiKeySecurityScheme": {...}}.',
  requires: ['card'],
  run: (c) => {
    const raw = c.raw;
    const g = c.generation;
    const problems: string[] = [];
    const advisories: string[] = [];
    const fx = fixupsFor(c, 'card.security.schemes');
    /** A required string member: missing or mistyped is a MUST finding, empty is schema-valid (advice). */
    const requireString = (body: Record<string, unknown>, key: string, where: string, why = '') => {
      const v = body[key];
      if (v === undefined || v === null) problems.push(`${where} needs "${key}"${why}`);
      else if (typeof v !== 'string') problems.push(`${where}: "${key}" should be a string, got ${typeName(v)}`);
      else if (!v.trim()) advisories.push(`${where}: "${key}" is empty`);
    };
    if (g === 'legacy') {
      // authentication exists only in v0.1.0; null is absent there (`authentication?: AgentAuthentication | null`).
      const a = raw.authentication;
      if (a !== undefined && a !== null && (!isRecord(a) || !Array.isArray(a.schemes)))
        problems.push('authentication.schemes should be a list of scheme names');
      if (a === undefined || a === null) return skip('The card declares no authentication.', 'not-applicable');
      return judge({
        problems,
        fx: fx.filter((f) => !problems.some((p) => p.startsWith(f.path))),
        ok: 'authentication.schemes is well-formed.',
        bad: 'authentication is malformed',
      });
    }
    const schemes = raw.securitySchemes;
    if ((schemes === undefined || (schemes === null && g === 'v1.0')) && !fx.length) return skip('The card declares no security schemes.', 'not-applicable');
    const knownFlows =
      g === 'v1.0'
        ? ['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode']
        : ['authorizationCode', 'clientCredentials', 'implicit', 'password'];
    // Members each flow REQUIRES. v0.x: the schema's `required`; v1.0: the proto's REQUIRED fields (the deprecated implicit and password flows mark none).
    const needs: Record<string, string[]> =
      g === 'v1.0'
        ? {
            authorizationCode: ['authorizationUrl', 'tokenUrl', 'scopes'],
            clientCredentials: ['tokenUrl', 'scopes'],
            deviceCode: ['deviceAuthorizationUrl', 'tokenUrl', 'scopes'],
            implicit: [],
            password: [],
          }
        : {
            authorizationCode: ['authorizationUrl', 'tokenUrl', 'scopes'],
            clientCredentials: ['tokenUrl', 'scopes'],
            implicit: ['authorizationUrl', 'scopes'],
            password: ['tokenUrl', 'scopes'],
          };
    if (isRecord(schemes)) {
      for (const [name, s] of Object.entries(schemes).slice(0, 100)) {
        const p = `securitySchemes.${name}`;
        if (!isRecord(s)) {
          if (!fx.some((f) => f.path === p)) problems.push(`${p} should be an object`);
          continue;
        }
        const n = c.card.securitySchemes[name];
        const wrapper = Object.keys(s).find((k) => k.endsWith('SecurityScheme'));
        if (g === 'v1.0' && !wrapper)
          problems.push(
            `${p} should be a v1.0 oneof wrapper such as {"apiKeySecurityScheme": {...}} (found ${s.type ? `"type": ${JSON.stringify(s.type)}` : 'no wrapper'})`,
          );
        if (g !== 'v1.0' && wrapper) problems.push(`${p} uses the v1.0 wrapper "${wrapper}" in a ${g} card (expected "type")`);
        if (!n || n.type === 'unknown') {
          problems.push(`${p} has no recognisable type`);
          continue;
        }
        const wrapped = wrapper ? s[wrapper] : undefined;
        const body = isRecord(wrapped) ? wrapped : s;
        if (n.type === 'apiKey') {
          requireString(body, 'name', `${p}: apiKey`, ' (the header, query or cookie name)');
          const locKey = g === 'v1.0' ? 'location' : 'in';
          const loc = body[locKey];
          const valid = ['header', 'query', 'cookie'];
          if (typeof loc === 'string' && valid.includes(loc)) {
            /* ok */
          } else if (g === 'v1.0' && typeof loc === 'string' && valid.includes(loc.toLowerCase())) {
            // v1.0 lists the values only in a proto comment; the v0.x schemas make them an enum.
            advisories.push(`${p}: apiKey "location" is ${JSON.stringify(loc)}; the proto comment lists "header", "query" and "cookie" in lower case`);
          } else {
            problems.push(
              `${p}: apiKey "${locKey}" must be "header", "query" or "cookie", got ${JSON.stringify(loc ?? body[locKey === 'in' ? 'location' : 'in'])}`,
            );
          }
        } else if (n.type === 'http') {
          requireString(body, 'scheme', `${p}: http`, ' (e.g. "bearer")');
        } else if (n.type === 'openIdConnect') {
          requireString(body, 'openIdConnectUrl', `${p}: openIdConnect`);
        } else if (n.type === 'oauth2') {
          const flows = body.flows;
          if (!isRecord(flows)) {
            problems.push(`${p}: oauth2 needs "flows" (an object), got ${flows === undefined ? 'nothing' : typeName(flows)}`);
            continue;
          }
          // v1.0: a flow set to null is unset (ProtoJSON reads null as unset), not a second member of the oneof.
          const names = Object.keys(flows).filter((k) => !(flows[k] === null && nullIsAbsent(g)));
          // No OAuthFlows member is required (v0.x schema; in v1.0 the oneof may be unset): declaring none is advice.
          if (!names.length) advisories.push(`${p}: oauth2 "flows" declares no flow, so clients cannot tell how to obtain a token`);
          if (g === 'v1.0' && names.filter((k) => knownFlows.includes(k)).length > 1)
            problems.push(`${p}: v1.0 OAuthFlows is a oneof and holds exactly one flow (found ${names.join(', ')})`);
          for (const flow of names.slice(0, 10)) {
            const f = flows[flow];
            const where = `${p}.flows.${flow}`;
            if (!knownFlows.includes(flow)) {
              advisories.push(`${where} is not a ${g} OAuth flow (unknown members are not forbidden, but clients will ignore it)`);
              continue;
            }
            if (!isRecord(f)) {
              problems.push(`${where} should be an object, got ${typeName(f)}`);
              continue;
            }
            if (g === 'v1.0' && (flow === 'implicit' || flow === 'password'))
              advisories.push(`${where} is deprecated in v1.0 (use authorizationCode with PKCE${flow === 'password' ? ' or deviceCode' : ''})`);
            for (const k of needs[flow] ?? []) {
              if (k === 'scopes') {
                if (!isRecord(f.scopes)) {
                  problems.push(
                    `${where} needs "scopes" (an object, may be empty)${g === 'v1.0' ? '; ProtoJSON serializers drop an empty map unless told to emit unpopulated fields, so emit "scopes": {} explicitly (v1.0 §8.4.1: REQUIRED fields MUST always be present)' : ''}`,
                  );
                }
              } else requireString(f, k, where);
            }
          }
        }
      }
    } else if (schemes !== undefined && schemes !== null && !fx.length) {
      problems.push(`securitySchemes should be an object map, got ${typeName(schemes)}`);
    }
    return judge({
      problems,
      advisories,
      fx,
      evidence: [ev('securitySchemes', schemes, { path: 'securitySchemes' })],
      ok: 'Every security scheme is complete.',
      bad: 'Security schemes are incomplete',
      advisoryReason:
        'Empty strings are schema-valid, unknown flows and an empty flows object are not forbidden, the v1.0 apiKey locations come from a proto comment, and deprecated flows are permitted.',
    });
  },
});

export const cardSecurityReferences = defineCheck({
  id: 'card.security.references',
  title: 'Every security requirement names a declared scheme',
  category: 'agent-card',
  level: 'MUST',
  tier: 'card',
  phase: 'card',
  specRefs: ALL({
    'v0.2': 'v0.2.6 §5.5 security (OpenAPI Security Requirement)',
    'v0.3': 'v0.3.0 §5.5 security, §5.5.4 AgentSkill.security',
    'v1.0': 'v1.0.1 §4.4.1 securityRequirements, §4.4.5',
  }),
  recommendation:
    'Declare every scheme you reference in "security" (v1.0: "securityRequirements") under "securitySchemes", with the same name; or remove the stale requirement.',
  requires: ['card'],
  run: (c) => {
    const declared = new Set(Object.keys(c.card.securitySchemes));
    const refs: [string, string][] = [];
    c.card.securityRequirements.forEach((req, i) => Object.keys(req).forEach((n) => refs.push([`security[${i}]`, n])));
    c.card.skills.forEach((s, si) =>
      s.securityRequirements.forEach((req, i) => Object.keys(req).forEach((n) => refs.push([`skills[${si}].security[${i}]`, n]))),
    );
    const fx = fixupsFor(c, 'card.security.references');
    if (!refs.length && !fx.length) return skip('The card has no security requirements.', 'not-applicable');
    const missing = refs.filter(([, n]) => !declared.has(n));
    const problems = missing.map(([p, n]) => `${p} references "${n}", which securitySchemes does not declare`);
    return collect(
      problems,
      [ev('declared schemes', [...declared].join(', ') || '(none)')],
      `${refs.length} reference(s), all declared.`,
      'Security requirements reference undeclared schemes',
      fx,
    );
  },
});
