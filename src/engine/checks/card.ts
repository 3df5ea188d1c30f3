import { canonicalBinding } from '../card/detect';
import type { Fixup } from '../card/normalize';
import { exchange } from '../http/client';
import type { Evidence, Generation } from '../model/check';
import { isRecord, typeName } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolError, type CheckContext, type CheckDef, type Verdict } from './define';

const ALL = (ref: Partial<Record<Generation, string>>) => ref;

function fixupEvidence(fx: Fixup[]): Evidence[] {
  return fx.slice(0, 20).map((f) => ev(f.path || '(card)', f.note, { path: f.path }));
}

/** Failures that normalization already had to repair for this check id (normalizing never hides a problem). */
const fixupsFor = (c: CheckContext, id: string) => c.card.fixups.filter((f) => f.checkId === id);

/** Runs `body` unless the card could not be read at all (then the check cannot judge anything). */
function withCard(c: CheckContext, body: () => Verdict): Verdict {
  if (c.raw === undefined || !isRecord(c.raw)) {
    return skip('No agent card could be read, so this check has nothing to judge.', 'precondition');
  }
  return body();
}

function collect(problems: string[], evidence: Evidence[], ok: string, bad: string, fx: Fixup[], rec?: string): Verdict {
  const all = [...fx.map((f) => `${f.path || '(card)'}: ${f.note}`), ...problems];
  if (!all.length) return pass(ok, evidence);
  return fail(`${bad}: ${all.slice(0, 5).join('; ')}${all.length > 5 ? ` (+${all.length - 5} more)` : ''}`, [...fixupEvidence(fx), ...problems.slice(0, 20).map((p) => ev('problem', p)), ...evidence], rec);
}

const isAbsHttp = (u: unknown) => {
  if (typeof u !== 'string') return false;
  try {
    const x = new URL(u);
    return (x.protocol === 'http:' || x.protocol === 'https:') && !!x.host;
  } catch {
    return false;
  }
};

/** A gRPC target: `host:port` ([ipv6]:port too), or a URI (grpc:, grpcs:, dns:, http(s):) that names host and port. */
const GRPC_TARGET = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/;

/**
 * Why an interface URL does not have the form of its binding, or undefined when it does. HTTP-based bindings
 * take an absolute http(s) URL; gRPC takes `host:port` (the v1.0.1 proto comment's https example was corrected
 * in the specification repository: the HTTPS wording applies to HTTP-based transports). Custom bindings: any
 * non-empty string.
 */
export function endpointUrlProblem(url: string, binding: string): string | undefined {
  if (typeof url !== 'string' || !url.trim()) return 'empty';
  const b = canonicalBinding(binding);
  if (b === 'GRPC') {
    if (GRPC_TARGET.test(url)) return undefined;
    try {
      const u = new URL(url);
      if (['grpc:', 'grpcs:', 'http:', 'https:', 'dns:'].includes(u.protocol) && (u.host || u.pathname.replace(/^\/+/, ''))) return undefined;
    } catch {
      /* judged below */
    }
    return 'a gRPC interface needs host:port (or a grpc/dns URI naming them)';
  }
  if (b === 'JSONRPC' || b === 'HTTP+JSON') return isAbsHttp(url) ? undefined : `a ${b} interface needs an absolute http(s) URL`;
  return undefined;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;.*)?$/i;

export const cardChecks: CheckDef[] = [
  defineCheck({
    id: 'card.discovery',
    title: 'The agent card is served at a well-known URI',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    critical: true,
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 §5.3 Recommended Location (/.well-known/agent.json)',
      'v0.2': 'v0.2.6 §5.3 Recommended Location',
      'v0.3': 'v0.3.0 §5.3 Recommended Location (/.well-known/agent-card.json)',
      'v1.0': 'v1.0.1 §8.2 Discovery Mechanisms, §14.3 Well-Known URI',
    }),
    recommendation:
      'Serve the card with GET at /.well-known/agent-card.json (v0.3 and v1.0) or /.well-known/agent.json (legacy, v0.2), relative to the agent\'s base URL. With @a2a-js/sdk mount agentCardHandler at that path; in a2a-python, A2AStarletteApplication serves it.',
    run: (c) => {
      const d = c.discovery;
      const attempts = d.attempts.map((a) => ev(a.url, `${a.status ?? 'no answer'}${a.note ? ` (${a.note})` : ''}`, { exchangeId: a.exchangeId }));
      if (d.invalidUrl) return fail(d.invalidUrl, attempts, 'Enter an absolute http(s) URL: the agent base URL or the card URL itself.');
      if (!d.response && d.unreachable?.blame === 'tool') {
        // The proxy (or our side) refused before the agent was reached: not the agent's fault.
        return toolError(`The card could not be fetched: ${d.unreachable.message}`, attempts, d.unreachable.proxyCode);
      }
      if (!d.response) {
        const why = d.unreachable ? ` Nothing answered: ${d.unreachable.message}` : '';
        return fail(`No card found: every candidate URL failed (${d.attempts.map((a) => a.status ?? 'no answer').join(', ')}).${why}`, attempts);
      }
      return pass(`Card found at ${c.http.redactor.url(d.cardUrl ?? '')}.`, attempts);
    },
  }),
  defineCheck({
    id: 'card.json',
    title: 'The agent card is a JSON object',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 §5.5 AgentCard Object Structure',
      'v0.2': 'v0.2.6 §3.2 Data Format (JSON)',
      'v0.3': 'v0.3.0 §5.5 AgentCard Object Structure',
      'v1.0': 'v1.0.1 §14.3 (the resource MUST return an AgentCard), §5.5 JSON',
    }),
    recommendation: 'Return the card as a UTF-8 JSON object (RFC 8259, no byte order mark), not an HTML page or an error text. Check reverse proxies and SPA fallbacks that answer unknown paths with index.html.',
    run: (c) => {
      const r = c.discovery.response;
      if (!r) return skip('No response to judge (see card.discovery).', 'precondition');
      const problems: string[] = [];
      if (r.truncated) problems.push(`the body is larger than our ${c.http.limits.maxBodyBytes} byte limit (${r.bytes} bytes read before cutting)`);
      if (r.bom) problems.push('the body starts with a UTF-8 byte order mark (RFC 8259 §8.1: MUST NOT be added)');
      if (r.invalidUtf8) problems.push('the body is not valid UTF-8');
      if (c.discovery.parseError) problems.push(`not JSON: ${c.discovery.parseError}`);
      else if (!isRecord(c.raw)) problems.push(`JSON, but a ${typeName(c.raw)} instead of an object`);
      if (/^\s*</.test(r.text)) problems.push('the body looks like HTML');
      return collect(problems, [exchangeEvidence(r, 'card response')], `A ${r.bytes} byte JSON object.`, 'The card is not a usable JSON object', fixupsFor(c, 'card.json'));
    },
  }),
  defineCheck({
    id: 'card.content-type',
    title: 'The agent card is served as application/json',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: ALL({ legacy: 'v0.1.0 §3.2 Data Format', 'v0.2': 'v0.2.6 §3.2 Data Format', 'v0.3': 'v0.3.0 §3.1', 'v1.0': 'v1.0.1 §14.3 Well-Known URI Registration' }),
    recommendation: 'Send Content-Type: application/json for the card (frameworks do this when you return a JSON response object instead of a string).',
    run: (c) => {
      const r = c.discovery.response;
      if (!r) return skip('No response to judge (see card.discovery).', 'precondition');
      const ok = /^\s*application\/([a-z0-9.+-]+\+)?json\b/i.test(r.contentType);
      return ok ? pass(`Content-Type: ${r.contentType}`) : fail(`Content-Type is ${r.contentType ? `"${r.contentType}"` : 'missing'}, expected application/json.`, [exchangeEvidence(r)]);
    },
  }),
  defineCheck({
    id: 'card.well-known-path',
    title: 'The card is at the well-known path of its protocol generation',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: ALL({ legacy: 'v0.1.0 §5.3', 'v0.2': 'v0.2.6 §5.3', 'v0.3': 'v0.3.0 §5.3 (renamed to agent-card.json)', 'v1.0': 'v1.0.1 §14.3 Well-Known URI Registration' }),
    recommendation: 'Serve the card at /.well-known/agent-card.json (v0.3 and v1.0 clients look there first); keep /.well-known/agent.json as an alias only for old clients.',
    run: (c) =>
      withCard(c, () => {
        const src = c.discovery.cardSource;
        if (src === 'direct') return skip('The card URL was given directly, so its location was not discovered.', 'not-applicable');
        const expected = c.generation === 'legacy' || c.generation === 'v0.2' ? 'agent.json' : 'agent-card.json';
        if (src === expected || (expected === 'agent.json' && src === 'agent-card.json')) return pass(`Served at /.well-known/${src}.`);
        return fail(`A ${c.generation} card was found only at /.well-known/${src}; ${c.generation} clients look for /.well-known/${expected}.`, c.discovery.attempts.map((a) => ev(a.url, String(a.status ?? 'no answer'))));
      }),
  }),
  defineCheck({
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
      'Add the missing fields with the types the schema gives. In @a2a-js/sdk the AgentCard type lists them; a2a-python validates them with its AgentCard model; v1.0 cards follow a2a.proto (ProtoJSON, camelCase).',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const g = c.generation;
        const problems: string[] = [];
        const requiredStrings: string[] = ['name', 'version'];
        if (g !== 'legacy') requiredStrings.push('description');
        if (g !== 'v1.0') requiredStrings.push('url');
        if (g === 'v0.3' || (g === 'v0.2' && raw.protocolVersion !== undefined)) requiredStrings.push('protocolVersion');
        for (const f of requiredStrings) {
          if (raw[f] === undefined) problems.push(`"${f}" is missing`);
          else if (typeof raw[f] !== 'string') problems.push(`"${f}" should be a string, got ${typeName(raw[f])}`);
          else if (!(raw[f] as string).trim()) problems.push(`"${f}" is empty`);
        }
        if (raw.capabilities === undefined) problems.push('"capabilities" is missing');
        if (raw.skills === undefined) problems.push('"skills" is missing');
        else if (!Array.isArray(raw.skills)) problems.push(`"skills" should be a list, got ${typeName(raw.skills)}`);
        if (g !== 'legacy') {
          for (const f of ['defaultInputModes', 'defaultOutputModes']) if (raw[f] === undefined) problems.push(`"${f}" is missing`);
        }
        if (g === 'v1.0' && !Array.isArray(raw.supportedInterfaces)) problems.push('"supportedInterfaces" is missing');
        if (raw.provider !== undefined) {
          const p = raw.provider;
          if (!isRecord(p)) problems.push(`"provider" should be an object, got ${typeName(p)}`);
          else {
            if (typeof p.organization !== 'string') problems.push('"provider.organization" is required');
            if (g !== 'legacy' && typeof p.url !== 'string') problems.push('"provider.url" is required');
          }
        }
        const fx = fixupsFor(c, 'card.required-fields').filter((f) => !problems.some((p) => p.includes(`"${f.path}"`)));
        return collect(problems, [], 'Every required field is present and typed.', 'Required fields are missing or mistyped', fx);
      }),
  }),
  defineCheck({
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
    run: (c) =>
      withCard(c, () => {
        const caps = (c.raw as Record<string, unknown>).capabilities;
        // Unknown capability names are the strict lint's business (card.strict-lint); here only the shape.
        const problems: string[] = [];
        return collect(problems, [ev('capabilities', caps, { path: 'capabilities' })], 'capabilities is an object of booleans.', 'capabilities is malformed', fixupsFor(c, 'card.capabilities.shape'), undefined);
      }),
  }),
  defineCheck({
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
    recommendation: 'Give each skill a unique id, a name, a description and a list of tags; add examples so clients (and this tool) can build a meaningful first message.',
    run: (c) =>
      withCard(c, () => {
        const skills = (c.raw as Record<string, unknown>).skills;
        if (!Array.isArray(skills)) return fail(`"skills" is ${skills === undefined ? 'missing' : `a ${typeName(skills)}`}, so no skill can be checked.`, [], 'Declare "skills" as a list of AgentSkill objects.');
        const problems: string[] = [];
        const seen = new Set<string>();
        const required = c.generation === 'legacy' ? ['id', 'name'] : ['id', 'name', 'description'];
        skills.slice(0, 200).forEach((s, i) => {
          if (!isRecord(s)) return void problems.push(`skills[${i}] is a ${typeName(s)}, not an object`);
          for (const f of required) {
            if (typeof s[f] !== 'string' || !(s[f] as string).trim()) problems.push(`skills[${i}].${f} is ${s[f] === undefined ? 'missing' : 'empty or not a string'}`);
          }
          if (c.generation !== 'legacy' && !Array.isArray(s.tags)) problems.push(`skills[${i}].tags is ${s.tags === undefined ? 'missing' : `a ${typeName(s.tags)}`} (required since v0.2)`);
          if (typeof s.id === 'string') {
            if (seen.has(s.id)) problems.push(`skill id "${s.id}" is used twice`);
            seen.add(s.id);
          }
        });
        const fx = fixupsFor(c, 'card.skills').filter((f) => !problems.some((p) => p.startsWith(f.path)));
        return collect(problems, [ev('skills', `${skills.length} skill(s): ${skills.slice(0, 10).map((s) => (isRecord(s) ? String(s.id) : '?')).join(', ')}`, { path: 'skills' })], `${skills.length} well-formed skill(s).`, 'Skills are malformed', fx);
      }),
  }),
  defineCheck({
    id: 'card.modes',
    title: 'Input and output modes are non-empty lists of strings',
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
    recommendation: 'Declare defaultInputModes/defaultOutputModes as non-empty lists of media types (e.g. ["text/plain", "application/json"]); a skill\'s inputModes/outputModes, when present, override them and must not be empty.',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const problems: string[] = [];
        const checkList = (v: unknown, path: string, required: boolean) => {
          if (v === undefined) {
            if (required) problems.push(`${path} is missing`);
            return;
          }
          if (!Array.isArray(v)) return void problems.push(`${path} should be a list, got ${typeName(v)}`);
          if (v.length === 0) problems.push(`${path} is empty`);
          v.forEach((x, i) => {
            if (typeof x !== 'string') problems.push(`${path}[${i}] should be a string, got ${typeName(x)}`);
          });
        };
        checkList(raw.defaultInputModes, 'defaultInputModes', c.generation !== 'legacy');
        checkList(raw.defaultOutputModes, 'defaultOutputModes', c.generation !== 'legacy');
        if (Array.isArray(raw.skills)) {
          raw.skills.slice(0, 200).forEach((s, i) => {
            if (!isRecord(s)) return;
            checkList(s.inputModes, `skills[${i}].inputModes`, false);
            checkList(s.outputModes, `skills[${i}].outputModes`, false);
          });
        }
        const fx = fixupsFor(c, 'card.modes').filter((f) => !problems.some((p) => p.startsWith(f.path)));
        return collect(problems, [ev('defaultInputModes', raw.defaultInputModes, { path: 'defaultInputModes' }), ev('defaultOutputModes', raw.defaultOutputModes, { path: 'defaultOutputModes' })], 'Modes are well-formed lists.', 'Modes are malformed', fx);
      }),
  }),
  defineCheck({
    id: 'card.modes.media-types',
    title: 'Modes are media types (type/subtype)',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: ALL({ 'v0.2': 'v0.2.6 §5.5 (MIME types)', 'v0.3': 'v0.3.0 §5.5 (media types)', 'v1.0': 'v1.0.1 §4.4.1 (media types)' }),
    recommendation: 'Use media types such as "text/plain" or "application/json" instead of shorthands like "text" or "json" (early samples used the shorthand; current SDKs and clients match on media types).',
    run: (c) =>
      withCard(c, () => {
        const card = c.card;
        const all = [
          ...card.defaultInputModes.map((m) => ['defaultInputModes', m] as const),
          ...card.defaultOutputModes.map((m) => ['defaultOutputModes', m] as const),
          ...card.skills.flatMap((s, i) => [...(s.inputModes ?? []).map((m) => [`skills[${i}].inputModes`, m] as const), ...(s.outputModes ?? []).map((m) => [`skills[${i}].outputModes`, m] as const)]),
        ];
        const bad = all.filter(([, m]) => !MEDIA_TYPE.test(m));
        if (!all.length) return skip('The card declares no modes to judge.', 'precondition');
        return bad.length
          ? fail(`${bad.length} mode(s) are not media types: ${[...new Set(bad.map(([, m]) => JSON.stringify(m)))].slice(0, 6).join(', ')}.`, bad.slice(0, 10).map(([p, m]) => ev(p, m, { path: p })))
          : pass(`${all.length} mode(s), all media types.`);
      }),
  }),
  defineCheck({
    id: 'card.urls.endpoint',
    title: 'Each interface URL has the form its binding uses (absolute http(s) for JSON-RPC and HTTP+JSON, host:port for gRPC)',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 §5.5 (url: the address where the agent is hosted)',
      'v0.2': 'v0.2.6 §5.5 url',
      'v0.3': 'v0.3.0 §5.6.1 Main URL, §5.5.5 AgentInterface',
      'v1.0': 'v1.0.1 §4.4.6 AgentInterface.url, §8.3.1',
    }),
    recommendation:
      'Publish the URL clients must call in the form of its binding: an absolute http(s) URL (scheme, host and path) for JSON-RPC and HTTP+JSON, e.g. "https://agent.example.com/a2a"; "host:port" for gRPC (e.g. "agent.example.com:443"). Behind a proxy, build it from the public host, not from localhost or a relative path. (HTTPS in production is deployment advice, not a card-shape rule: it is not judged here.)',
    run: (c) =>
      withCard(c, () => {
        const ifs = c.card.interfaces;
        if (!ifs.length) return fail('The card declares no endpoint URL at all.', [], 'Add "url" (up to v0.3) or "supportedInterfaces" (v1.0).');
        const bad = ifs
          .map((i) => ({ i, problem: endpointUrlProblem(i.url, String(i.binding)) }))
          .filter((x): x is { i: (typeof ifs)[number]; problem: string } => x.problem !== undefined);
        return bad.length
          ? fail(`${bad.length} endpoint URL(s) do not have the form of their binding: ${bad.map((b) => `${JSON.stringify(b.i.url)} (${b.problem})`).slice(0, 5).join(', ')}.`, bad.map((b) => ev(`${b.i.source} ${b.i.binding}`, `${b.i.url}: ${b.problem}`, { path: b.i.source })))
          : pass(`${ifs.length} endpoint URL(s), each in the form of its binding.`, ifs.map((i) => ev(`${i.source} ${i.binding}`, i.url)));
      }),
  }),
  defineCheck({
    id: 'card.urls.other',
    title: 'Provider, documentation, icon and OAuth URLs are absolute http(s) URLs',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: ALL({ legacy: 'v0.1.0 §5.5', 'v0.2': 'v0.2.6 §5.5', 'v0.3': 'v0.3.0 §5.5', 'v1.0': 'v1.0.1 §4.4.1, §4.5' }),
    recommendation: 'Use absolute https URLs for provider.url, documentationUrl, iconUrl and OAuth/OpenID endpoints; never javascript:, data: or relative URLs (clients render these as links).',
    run: (c) =>
      withCard(c, () => {
        const card = c.card;
        const urls: [string, string][] = [];
        if (card.provider?.url) urls.push(['provider.url', card.provider.url]);
        if (card.documentationUrl) urls.push(['documentationUrl', card.documentationUrl]);
        if (card.iconUrl) urls.push(['iconUrl', card.iconUrl]);
        for (const [name, s] of Object.entries(card.securitySchemes)) {
          if (s.type === 'openIdConnect' && s.openIdConnectUrl) urls.push([`securitySchemes.${name}.openIdConnectUrl`, s.openIdConnectUrl]);
          if (s.type === 'oauth2') {
            for (const [flow, f] of Object.entries(s.flows)) {
              for (const k of ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'deviceAuthorizationUrl']) {
                if (typeof f[k] === 'string' && f[k]) urls.push([`securitySchemes.${name}.flows.${flow}.${k}`, f[k] as string]);
              }
            }
          }
        }
        if (!urls.length) return skip('The card has no such URLs.', 'not-applicable');
        const bad = urls.filter(([, u]) => !isAbsHttp(u));
        return bad.length
          ? fail(`${bad.length} URL(s) are not absolute http(s): ${bad.map(([p, u]) => `${p}=${JSON.stringify(u).slice(0, 80)}`).slice(0, 4).join(', ')}.`, bad.map(([p, u]) => ev(p, u, { path: p })))
          : pass(`${urls.length} URL(s), all absolute http(s).`);
      }),
  }),
  defineCheck({
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
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const problems: string[] = [];
        if (c.generation === 'legacy' || raw.authentication !== undefined) {
          const a = raw.authentication;
          if (a !== undefined) {
            if (!isRecord(a) || !Array.isArray(a.schemes)) problems.push('authentication.schemes should be a list of scheme names');
          }
        }
        const schemes = raw.securitySchemes;
        if (schemes === undefined && !problems.length && !fixupsFor(c, 'card.security.schemes').length) {
          return raw.authentication === undefined ? skip('The card declares no security schemes.', 'not-applicable') : pass('authentication.schemes is well-formed.');
        }
        if (isRecord(schemes)) {
          for (const [name, s] of Object.entries(schemes).slice(0, 100)) {
            const p = `securitySchemes.${name}`;
            if (!isRecord(s)) {
              problems.push(`${p} should be an object`);
              continue;
            }
            const n = c.card.securitySchemes[name];
            const wrapper = Object.keys(s).find((k) => k.endsWith('SecurityScheme'));
            if (c.generation === 'v1.0' && !wrapper) problems.push(`${p} should be a v1.0 oneof wrapper such as {"apiKeySecurityScheme": {...}} (found ${s.type ? `"type": ${JSON.stringify(s.type)}` : 'no wrapper'})`);
            if (c.generation !== 'v1.0' && wrapper) problems.push(`${p} uses the v1.0 wrapper "${wrapper}" in a ${c.generation} card (expected "type")`);
            if (!n || n.type === 'unknown') {
              problems.push(`${p} has no recognisable type`);
              continue;
            }
            const body = wrapper && isRecord(s[wrapper]) ? (s[wrapper] as Record<string, unknown>) : s;
            if (n.type === 'apiKey') {
              if (!n.name) problems.push(`${p}: apiKey needs "name" (the header, query or cookie name)`);
              const locKey = c.generation === 'v1.0' ? 'location' : 'in';
              const loc = body[locKey];
              if (!['header', 'query', 'cookie'].includes(String(loc))) {
                problems.push(`${p}: apiKey "${locKey}" must be "header", "query" or "cookie", got ${JSON.stringify(loc ?? body[locKey === 'in' ? 'location' : 'in'])}`);
              }
            } else if (n.type === 'http') {
              if (!n.scheme) problems.push(`${p}: http needs "scheme" (e.g. "bearer")`);
            } else if (n.type === 'openIdConnect') {
              if (!n.openIdConnectUrl) problems.push(`${p}: openIdConnect needs "openIdConnectUrl"`);
            } else if (n.type === 'oauth2') {
              const flows = Object.entries(n.flows);
              if (!flows.length) problems.push(`${p}: oauth2 needs at least one flow in "flows"`);
              if (c.generation === 'v1.0' && flows.length > 1) problems.push(`${p}: v1.0 OAuthFlows is a oneof and holds exactly one flow (found ${flows.map(([k]) => k).join(', ')})`);
              for (const [flow, f] of flows) {
                const needs: Record<string, string[]> = {
                  authorizationCode: ['authorizationUrl', 'tokenUrl'],
                  clientCredentials: ['tokenUrl'],
                  password: ['tokenUrl'],
                  implicit: ['authorizationUrl'],
                  deviceCode: ['deviceAuthorizationUrl', 'tokenUrl'],
                };
                const req = needs[flow];
                if (!req) {
                  problems.push(`${p}.flows.${flow} is not a known OAuth flow`);
                  continue;
                }
                for (const k of req) if (typeof f[k] !== 'string' || !f[k]) problems.push(`${p}.flows.${flow} needs "${k}"`);
                if (!isRecord(f.scopes)) problems.push(`${p}.flows.${flow} needs "scopes" (an object, may be empty)`);
              }
            }
          }
        }
        return collect(problems, [ev('securitySchemes', schemes, { path: 'securitySchemes' })], 'Every security scheme is complete.', 'Security schemes are incomplete', fixupsFor(c, 'card.security.schemes'));
      }),
  }),
  defineCheck({
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
    recommendation: 'Declare every scheme you reference in "security" (v1.0: "securityRequirements") under "securitySchemes", with the same name; or remove the stale requirement.',
    run: (c) =>
      withCard(c, () => {
        const declared = new Set(Object.keys(c.card.securitySchemes));
        const refs: [string, string][] = [];
        c.card.securityRequirements.forEach((req, i) => Object.keys(req).forEach((n) => refs.push([`security[${i}]`, n])));
        c.card.skills.forEach((s, si) => s.securityRequirements.forEach((req, i) => Object.keys(req).forEach((n) => refs.push([`skills[${si}].security[${i}]`, n]))));
        const fx = fixupsFor(c, 'card.security.references');
        if (!refs.length && !fx.length) return skip('The card has no security requirements.', 'not-applicable');
        const missing = refs.filter(([, n]) => !declared.has(n));
        const problems = missing.map(([p, n]) => `${p} references "${n}", which securitySchemes does not declare`);
        return collect(problems, [ev('declared schemes', [...declared].join(', ') || '(none)')], `${refs.length} reference(s), all declared.`, 'Security requirements reference undeclared schemes', fx);
      }),
  }),
  defineCheck({
    id: 'card.protocol.coherence',
    title: 'Protocol version and interfaces are declared coherently',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    phase: 'card',
    specRefs: ALL({
      'v0.2': 'v0.2.6 §5.5 protocolVersion, preferredTransport, additionalInterfaces',
      'v0.3': 'v0.3.0 §5.6 Transport Declaration (§5.6.4 Validation Requirements)',
      'v1.0': 'v1.0.1 §8.3 Protocol Declaration, §4.4.6 AgentInterface, §3.6 Versioning',
    }),
    recommendation:
      'v1.0: list every interface in supportedInterfaces with url, protocolBinding (JSONRPC, HTTP+JSON, GRPC) and protocolVersion ("1.0"), preferred first; do not mix in the v0.3 top-level fields. v0.3: set protocolVersion ("0.3.0") and preferredTransport, and make sure no URL declares two different transports.',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const g = c.generation;
        const problems: string[] = [];
        if (g === 'v1.0') {
          const si = c.card.interfaces.filter((i) => i.source === 'supportedInterfaces');
          if (!si.length) problems.push('supportedInterfaces is empty');
          si.forEach((i, n) => {
            const b = canonicalBinding(String(i.binding));
            if (!b && !/^[a-z][a-z0-9+.-]*:/i.test(String(i.binding))) problems.push(`supportedInterfaces[${n}].protocolBinding ${JSON.stringify(i.binding)} is not JSONRPC, HTTP+JSON, GRPC or a custom binding URI`);
            else if (b && b !== i.binding) problems.push(`supportedInterfaces[${n}].protocolBinding is spelled ${JSON.stringify(i.binding)}; the spec spells it "${b}"`);
            if (!i.protocolVersion) problems.push(`supportedInterfaces[${n}].protocolVersion is missing`);
            else if (!/^\d+\.\d+$/.test(i.protocolVersion)) problems.push(`supportedInterfaces[${n}].protocolVersion "${i.protocolVersion}" should be Major.Minor (e.g. "1.0")`);
          });
          if (si.length && !si.some((i) => /^1\./.test(i.protocolVersion ?? ''))) problems.push('no interface declares protocolVersion 1.x');
          const legacyFields = ['protocolVersion', 'preferredTransport', 'additionalInterfaces', 'supportsAuthenticatedExtendedCard'].filter((f) => f in raw);
          if (legacyFields.length) problems.push(`v0.3 top-level fields in a v1.0 card: ${legacyFields.join(', ')} (a2a-js treats such a card as v0.3)`);
        } else if (g === 'v0.3' || g === 'v0.2') {
          if (g === 'v0.3' && typeof raw.protocolVersion === 'string' && !/^0\.3(\.\d+)?$/.test(raw.protocolVersion)) problems.push(`protocolVersion "${raw.protocolVersion}" is not a 0.3.x version`);
          if (raw.preferredTransport !== undefined && !canonicalBinding(String(raw.preferredTransport))) problems.push(`preferredTransport ${JSON.stringify(raw.preferredTransport)} is not JSONRPC, GRPC or HTTP+JSON`);
          const byUrl = new Map<string, Set<string>>();
          for (const i of c.card.interfaces) {
            const set = byUrl.get(i.url) ?? new Set<string>();
            set.add(String(canonicalBinding(String(i.binding)) ?? i.binding));
            byUrl.set(i.url, set);
          }
          for (const [u, set] of byUrl) {
            if (set.size > 1 && set.has('JSONRPC') && set.has('HTTP+JSON')) {
              // The same URL may serve several transports (v0.3 §5.6.2 MAY) only if they do not conflict; JSON-RPC and REST share a URL legitimately.
              continue;
            }
            if (set.size > 1) problems.push(`URL ${u} declares conflicting transports: ${[...set].join(', ')}`);
          }
        } else {
          return skip('The legacy card has no protocol version or interface fields.', 'not-applicable');
        }
        return collect(problems, c.detection.evidence.map((e) => ev('detection', e)), 'Protocol declarations are coherent.', 'Protocol declarations are incoherent', fixupsFor(c, 'card.protocol.coherence'));
      }),
  }),
  defineCheck({
    id: 'card.public',
    title: 'The agent card is readable without credentials',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 §5.4 Security of Agent Cards (seed procedure 4.6)',
      'v0.2': 'v0.2.6 §5.4 Security of Agent Cards',
      'v0.3': 'v0.3.0 §5.4 Security of Agent Cards',
      'v1.0': 'v1.0.1 §8.2, §13.3 (public card; details go in the extended card)',
    }),
    recommendation: 'Exclude the well-known card path from your authentication middleware; put sensitive details in the authenticated extended card instead.',
    run: (c) => {
      if (!c.discovery.response) return skip('No card was found.', 'precondition');
      return c.discovery.neededCredentials
        ? fail('The card was refused (401/403) without credentials and served only with them.', c.discovery.attempts.map((a) => ev(a.url, `${a.status ?? 'no answer'} ${a.note ?? ''}`, { exchangeId: a.exchangeId })))
        : pass('The card was served without credentials.');
    },
  }),
  defineCheck({
    id: 'card.caching',
    title: 'The card is served with Cache-Control max-age and an ETag',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: { 'v1.0': 'v1.0.1 §8.6.1 Caching: Server Requirements' },
    recommendation: 'Send Cache-Control: max-age=<seconds> and an ETag (from the card version or a content hash) on the card response, and answer If-None-Match with 304. @a2a-js/sdk agentCardHandler does this.',
    run: (c) => {
      const r = c.discovery.response;
      if (!r) return skip('No card was found.', 'precondition');
      const cc = r.headers.get('cache-control') ?? '';
      const etag = r.headers.get('etag');
      const problems: string[] = [];
      if (!/max-age=\d+/i.test(cc)) problems.push(cc ? `Cache-Control "${cc}" has no max-age` : 'no Cache-Control header');
      if (!etag) problems.push('no ETag header');
      return problems.length ? fail(`Caching headers missing: ${problems.join('; ')}.`, [exchangeEvidence(r)]) : pass(`Cache-Control: ${cc}; ETag: ${etag}`);
    },
  }),
  defineCheck({
    id: 'card.vary',
    title: 'A card that differs by A2A-Version says so with Vary: A2A-Version',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: { 'v1.0': 'v1.0.1 §3.6 Versioning, §8.6 Caching (RFC 9110 §12.5.5 Vary)', 'v0.3': 'v0.3.0 §5.3 (cards fetched by v1.0 clients too)' },
    recommendation: 'When the card content depends on the A2A-Version request header (e.g. a v0.3-shaped card for old clients), add "Vary: A2A-Version" so shared caches keep one entry per version.',
    run: async (c) => {
      const first = c.discovery.response;
      if (!first || !c.discovery.cardUrl || !isRecord(c.raw)) return skip('No card was found.', 'precondition');
      const second = await exchange(c.http, {
        method: 'GET',
        url: c.discovery.cardUrl,
        headers: { Accept: 'application/json', ...(c.discovery.neededCredentials ? c.authHeaders : {}) },
        lane: 'discovery',
        checkId: 'card.vary',
      });
      if (!second.responded) return skip(`The second card request (without A2A-Version) got no answer: ${second.error?.message ?? ''}`, 'precondition', [exchangeEvidence(second)]);
      const vary = first.headers.get('vary') ?? '';
      const differs = second.text !== first.text;
      const varies = /(^|,)\s*(a2a-version|\*)\s*(,|$)/i.test(vary);
      if (!differs) return varies ? pass('The card is the same with and without A2A-Version, and Vary lists A2A-Version anyway.') : pass('The card is the same with and without A2A-Version.');
      const sj = second.json();
      const otherIsCard = sj.ok && isRecord(sj.value);
      return varies
        ? pass(`The card differs by A2A-Version (${otherIsCard ? 'another JSON card' : 'a different body'} without the header) and Vary: ${vary} says so.`, [exchangeEvidence(second, 'without A2A-Version')])
        : fail(`The card differs with and without A2A-Version, but the response has ${vary ? `Vary: ${vary}` : 'no Vary header'}.`, [exchangeEvidence(first, 'with A2A-Version: 1.0'), exchangeEvidence(second, 'without A2A-Version')]);
    },
  }),
  defineCheck({
    id: 'card.signatures',
    title: 'Card signatures, when present, are well-formed JWS',
    category: 'agent-card',
    level: 'MUST',
    tier: 'optional',
    phase: 'card',
    specRefs: { 'v0.3': 'v0.3.0 §5.5.6 AgentCardSignature', 'v1.0': 'v1.0.1 §8.4 Agent Card Signing (§8.4.2 Signature Format)' },
    recommendation: 'Each signature needs "protected" (base64url of a JSON header with alg and kid, typ "JOSE" recommended) and "signature" (base64url), computed over the JCS-canonicalized card without "signatures" (v1.0 §8.4.1). @a2a-js/sdk offers AgentCardSignatureGenerator.',
    run: (c) =>
      withCard(c, () => {
        const sigs = (c.raw as Record<string, unknown>).signatures;
        if (sigs === undefined) return skip('The card is not signed.', 'not-applicable');
        if (!Array.isArray(sigs)) return fail(`"signatures" should be a list, got ${typeName(sigs)}.`);
        const problems: string[] = [];
        sigs.slice(0, 10).forEach((s, i) => {
          if (!isRecord(s)) return void problems.push(`signatures[${i}] should be an object`);
          const b64 = /^[A-Za-z0-9_-]+$/;
          if (typeof s.protected !== 'string' || !b64.test(s.protected)) problems.push(`signatures[${i}].protected should be base64url`);
          else {
            const hdr = decodeB64urlJson(s.protected);
            if (!isRecord(hdr)) problems.push(`signatures[${i}].protected does not decode to a JSON object`);
            else {
              if (typeof hdr.alg !== 'string') problems.push(`signatures[${i}] protected header has no "alg"`);
              if (c.generation === 'v1.0' && typeof hdr.kid !== 'string') problems.push(`signatures[${i}] protected header has no "kid" (v1.0 §8.4.2 MUST)`);
            }
          }
          if (typeof s.signature !== 'string' || !b64.test(s.signature)) problems.push(`signatures[${i}].signature should be base64url`);
        });
        return collect(problems, [], `${sigs.length} well-formed signature(s) (not verified cryptographically).`, 'Signatures are malformed', []);
      }),
  }),
  defineCheck({
    id: 'card.strict-lint',
    title: 'Strict SDK parsers would accept the card',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 a2a.json (JSON Schema)',
      'v0.2': 'v0.2.6 a2a.json (JSON Schema)',
      'v0.3': 'v0.3.0 a2a.json (JSON Schema)',
      'v1.0': 'v1.0.1 a2a.proto (ProtoJSON, ADR-001), §5.5 field naming, §5.7',
    }),
    recommendation:
      'Keep the card to the fields of its generation\'s schema/proto with their exact names and types. Protobuf JSON parsers (a2a-python 1.x, a2a-java, a2a-go) reject unknown fields and wrong types by default; @a2a-js/sdk silently drops or coerces them, so a card that works with a JS client can still break others.',
    run: (c) =>
      withCard(c, () => {
        const issues = strictLint(c.raw as Record<string, unknown>, c.generation);
        return issues.length
          ? fail(`${issues.length} thing(s) a strict parser would reject or misread: ${issues.slice(0, 4).join('; ')}${issues.length > 4 ? '; …' : ''}.`, issues.slice(0, 30).map((i) => ev('lint', i)))
          : pass('Only fields of the schema/proto, with the right types.');
      }),
  }),
];

function decodeB64urlJson(s: string): unknown {
  try {
    const b64 = s.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(s.length / 4) * 4, '=');
    const bin = atob(b64);
    const bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

const KNOWN: Record<Generation, { card: string[]; skill: string[]; caps: string[] }> = {
  legacy: {
    card: ['name', 'description', 'url', 'provider', 'version', 'documentationUrl', 'capabilities', 'authentication', 'defaultInputModes', 'defaultOutputModes', 'skills'],
    skill: ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes'],
    caps: ['streaming', 'pushNotifications', 'stateTransitionHistory'],
  },
  'v0.2': {
    card: ['additionalInterfaces', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'description', 'documentationUrl', 'iconUrl', 'name', 'preferredTransport', 'protocolVersion', 'provider', 'security', 'securitySchemes', 'skills', 'supportsAuthenticatedExtendedCard', 'url', 'version'],
    skill: ['description', 'examples', 'id', 'inputModes', 'name', 'outputModes', 'tags'],
    caps: ['extensions', 'pushNotifications', 'stateTransitionHistory', 'streaming'],
  },
  'v0.3': {
    card: ['additionalInterfaces', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'description', 'documentationUrl', 'iconUrl', 'name', 'preferredTransport', 'protocolVersion', 'provider', 'security', 'securitySchemes', 'signatures', 'skills', 'supportsAuthenticatedExtendedCard', 'url', 'version'],
    skill: ['description', 'examples', 'id', 'inputModes', 'name', 'outputModes', 'security', 'tags'],
    caps: ['extensions', 'pushNotifications', 'stateTransitionHistory', 'streaming'],
  },
  'v1.0': {
    card: ['name', 'description', 'supportedInterfaces', 'provider', 'version', 'documentationUrl', 'capabilities', 'securitySchemes', 'securityRequirements', 'defaultInputModes', 'defaultOutputModes', 'skills', 'signatures', 'iconUrl'],
    skill: ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes', 'securityRequirements'],
    caps: ['streaming', 'pushNotifications', 'extensions', 'extendedAgentCard'],
  },
};

/** ProtoJSON accepts the proto's snake_case names as well as lowerCamelCase. */
const snake = (s: string) => s.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

/** What strict parsers of each generation reject (unknown fields, wrong types, renamed fields). */
export function strictLint(raw: Record<string, unknown>, g: Generation): string[] {
  const out: string[] = [];
  const known = KNOWN[g];
  const okName = (list: string[], k: string) => list.includes(k) || (g === 'v1.0' && list.map(snake).includes(k));
  for (const k of Object.keys(raw)) {
    if (!okName(known.card, k)) {
      const hint =
        g === 'v1.0' && k === 'security'
          ? ' (renamed to "securityRequirements" in v1.0)'
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
    if (g === 'v1.0' && raw.skills.length === 0) out.push('skills is empty (v1.0 §5.7: REQUIRED repeated fields MUST be non-empty; the §8.4.1 example contradicts this)');
    raw.skills.slice(0, 100).forEach((s, i) => {
      if (!isRecord(s)) return;
      for (const k of Object.keys(s)) {
        if (!okName(known.skill, k)) out.push(`skills[${i}] has unknown field "${k}"${g === 'v1.0' && k === 'security' ? ' (v1.0: securityRequirements)' : ''}`);
      }
      if (s.examples !== undefined && (!Array.isArray(s.examples) || s.examples.some((e) => typeof e !== 'string'))) out.push(`skills[${i}].examples should be a list of strings`);
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
        for (const k of Object.keys(i)) if (!['url', 'protocolBinding', 'protocolVersion', 'tenant', 'protocol_binding', 'protocol_version'].includes(k)) out.push(`supportedInterfaces[${n}] has unknown field "${k}"${k === 'transport' ? ' (v1.0: protocolBinding)' : ''}`);
      });
    }
  } else if (g !== 'legacy') {
    for (const [name, s] of Object.entries(isRecord(raw.securitySchemes) ? raw.securitySchemes : {})) {
      if (isRecord(s) && typeof s.type !== 'string') out.push(`securitySchemes.${name} has no "type" discriminator (the ${g} JSON Schema requires it)`);
    }
    if (raw.preferredTransport !== undefined && !['JSONRPC', 'GRPC', 'HTTP+JSON'].includes(String(raw.preferredTransport))) {
      out.push(`preferredTransport ${JSON.stringify(raw.preferredTransport)} is not one of JSONRPC, GRPC, HTTP+JSON`);
    }
  }
  // Types of required fields are judged by card.required-fields; optional string fields only here.
  for (const k of ['documentationUrl', 'iconUrl']) {
    if (raw[k] !== undefined && typeof raw[k] !== 'string') out.push(`${k} should be a string, got ${typeName(raw[k])}`);
  }
  return out;
}
