import { canonicalBinding } from '../card/detect';
import { cardCandidates } from '../card/discover';
import { fixupApplies, type Fixup } from '../card/normalize';
import { exchange, type HttpResult } from '../http/client';
import type { Evidence, Generation } from '../model/check';
import { isRecord, typeName } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolError, toolLimit, type CheckContext, type CheckDef, type Verdict } from './define';

const ALL = (ref: Partial<Record<Generation, string>>) => ref;

function fixupEvidence(fx: Fixup[]): Evidence[] {
  return fx.slice(0, 20).map((f) => ev(f.path || '(card)', f.note, { path: f.path }));
}

/**
 * Failures that normalization already had to repair for this check id (normalizing never hides a problem),
 * limited to the repairs that are defects in the card's generation (see Fixup.only).
 */
const fixupsFor = (c: CheckContext, id: string) => c.card.fixups.filter((f) => f.checkId === id && fixupApplies(f, c.generation));

/** Runs `body` unless the card could not be read at all (then the check cannot judge anything). */
function withCard(c: CheckContext, body: () => Verdict): Verdict {
  if (c.raw === undefined || !isRecord(c.raw)) {
    return skip('No agent card could be read, so this check has nothing to judge.', 'precondition');
  }
  return body();
}

const list = (items: string[], max = 5) => `${items.slice(0, max).join('; ')}${items.length > max ? ` (+${items.length - max} more)` : ''}`;

/**
 * The verdict of a check whose findings differ in strength. `problems` (and the normalization repairs `fx`)
 * break the check's MUST/SHOULD sentences and fail it; `advisories` have nothing stronger than MAY behind them
 * (or rest on passages that contradict each other): they are named in the message, and when they are all that
 * is left, the verdict is an advisory with `advisoryReason`.
 */
function judge(o: {
  problems: string[];
  advisories?: string[];
  fx?: Fixup[];
  evidence?: Evidence[];
  ok: string;
  bad: string;
  advisoryReason?: string;
  rec?: string;
}): Verdict {
  const fx = o.fx ?? [];
  const weak = o.advisories ?? [];
  const strong = [...fx.map((f) => `${f.path || '(card)'}: ${f.note}`), ...o.problems];
  const evidence = [
    ...fixupEvidence(fx),
    ...o.problems.slice(0, 20).map((p) => ev('problem', p)),
    ...weak.slice(0, 20).map((p) => ev('advisory (not required)', p)),
    ...(o.evidence ?? []),
  ];
  if (strong.length) {
    const also = weak.length ? ` Not required, advice only: ${list(weak, 3)}.` : '';
    return fail(`${o.bad}: ${list(strong)}.${also}`, evidence, o.rec);
  }
  if (weak.length) {
    return {
      status: 'fail',
      message: `${o.ok.replace(/\.$/, '')}; advice only (not required): ${list(weak)}.`,
      evidence,
      recommendation: o.rec,
      advisory: o.advisoryReason ?? 'Only findings that the specification does not require remain.',
    };
  }
  return pass(o.ok, o.evidence);
}

/** Compatibility wrapper: every finding fails the check. */
function collect(problems: string[], evidence: Evidence[], ok: string, bad: string, fx: Fixup[], rec?: string): Verdict {
  return judge({ problems, fx, evidence, ok, bad, rec });
}

/** null read as "absent": the v0.1.0 document types optional fields `T | null`; ProtoJSON (v1.0) reads null as unset. */
const nullIsAbsent = (g: Generation) => g === 'legacy' || g === 'v1.0';

/** The proto (snake_case) name of a JSON field. */
const snake = (s: string) => s.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);

const isAbsHttp = (u: unknown) => {
  if (typeof u !== 'string') return false;
  try {
    const x = new URL(u);
    return (x.protocol === 'http:' || x.protocol === 'https:') && !!x.host;
  } catch {
    return false;
  }
};

/** "A URL" in the sense of the OAuth flow descriptions: an absolute URL (a scheme), whatever the scheme. */
const isAbsUrl = (u: string) => {
  try {
    return !!new URL(u).protocol;
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
    if (GRPC_TARGET.test(url)) return Number(url.slice(url.lastIndexOf(':') + 1)) <= 65535 ? undefined : 'the port is above 65535';
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

/** A media type or media range (RFC 9110 §12.5.1): type/subtype, a type with subtype "*", or "*" for both; parameters allowed. */
const MEDIA_TYPE = /^(?:\*\/\*|[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*))(?:\s*;.*)?$/i;

/** The core binding names, spelled as the specification spells them. */
const CORE_BINDINGS = ['JSONRPC', 'GRPC', 'HTTP+JSON'];
const isUri = (s: string) => /^[a-z][a-z0-9+.-]*:\S+$/i.test(s);

/**
 * JSON of a card for comparing two responses: keys sorted, `signatures` dropped (ES256 signatures differ on
 * every signing). undefined when the body is not JSON or too deep to walk.
 */
function comparableCard(r: HttpResult): string | undefined {
  const parsed = r.json();
  if (!parsed.ok) return undefined;
  const walk = (v: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error('too deep');
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    if (isRecord(v)) {
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) if (!(depth === 0 && k === 'signatures')) out[k] = walk(v[k], depth + 1);
      return out;
    }
    return v;
  };
  try {
    return JSON.stringify(walk(parsed.value, 0));
  } catch {
    return undefined;
  }
}

/** Two card responses carry the same card (status and content; key order and signatures aside). */
function sameCard(a: HttpResult, b: HttpResult): boolean {
  if (a.status !== b.status) return false;
  const ca = comparableCard(a);
  const cb = comparableCard(b);
  return ca !== undefined && cb !== undefined ? ca === cb : a.text === b.text;
}

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
      'Serve the card with GET at /.well-known/agent-card.json (v0.3 and v1.0) or /.well-known/agent.json (legacy, v0.2), relative to the agent\'s base URL. With @a2a-js/sdk mount agentCardHandler at that path; in a2a-python, A2AStarletteApplication serves it. If the card lives elsewhere (direct configuration, a registry), give its URL instead of the base URL.',
    run: (c) => {
      const d = c.discovery;
      const attempts = d.attempts.map((a) => ev(a.url, `${a.status ?? 'no answer'}${a.note ? ` (${a.note})` : ''}`, { exchangeId: a.exchangeId }));
      const statuses = d.attempts.map((a) => a.status ?? 'no answer').join(', ');
      if (d.invalidUrl) return fail(d.invalidUrl, attempts, 'Enter an absolute http(s) URL: the agent base URL or the card URL itself.');
      if (!d.response && (d.unreachable?.blame === 'tool' || d.reach === 'tool-failure')) {
        // The proxy (or our side) refused before the agent was reached: not the agent's fault.
        return toolError(`The card could not be fetched: ${d.unreachable?.message ?? 'our tool failed'}`, attempts, d.unreachable?.proxyCode);
      }
      if (!d.response) {
        if (d.reach === 'credentials-required') {
          return skip(
            `The card was refused without credentials (HTTP ${statuses}). A card served only with credentials is permitted (v0.x §5.4: "authentication required to fetch the card"), so this is not a discovery failure; give credentials (bearer token, API key or header) to read and assess it.`,
            'credentials',
            attempts,
          );
        }
        if (d.reach === 'credentials-rejected') {
          return skip(
            `The card was refused without and with the credentials given (HTTP ${statuses}). A protected card is permitted (v0.x §5.4); check that the credentials are valid and of the scheme the agent expects.`,
            'credentials',
            attempts,
          );
        }
        if (d.unreachable?.source === 'timeout') {
          // Our per-request budget ended at every candidate: a limit of the tool, not proof that there is no card.
          return toolLimit(
            `No candidate URL answered within this tool's per-request budget (${c.http.limits.requestTimeoutMs >= 1000 ? `${Math.round(c.http.limits.requestTimeoutMs / 1000)} s` : `${c.http.limits.requestTimeoutMs} ms`}, a fixed limit), so whether the agent serves a card could not be judged. ${d.unreachable.message}`,
            attempts,
          );
        }
        if (d.unreachable && d.unreachable.blame !== 'agent') {
          // Nothing took a connection (refused, DNS): no verdict on the agent (the report says "not assessed").
          return skip(`Nothing answered at any candidate URL (${d.unreachable.message}), so whether the agent serves a card could not be judged.`, 'unreachable', attempts);
        }
        if (d.unreachable) {
          // The agent answered, but broke every exchange (reset, redirect loop, oversized headers): its fault.
          return fail(`No card could be read: every candidate URL failed (${statuses}). ${d.unreachable.message}`, attempts);
        }
        const direct = cardCandidates(d.inputUrl).length === 1;
        return fail(
          direct
            ? `No card at the URL given (${statuses}). A2A servers MUST make an Agent Card available.`
            : `No card found at the well-known paths (${statuses}). The well-known URI is the recommended location, not the only one (v0.x §5.3; v1.0 §8.2 also names direct configuration and registries): if the card is served elsewhere, give its URL.`,
          attempts,
        );
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
      const limit = c.http.limits.maxBodyBytes;
      if (r.truncated && !r.bom) {
        // Our read limit, not a defect of the card: the cut body cannot be judged (a cut can also split a UTF-8 sequence).
        return toolLimit(
          `The card is larger than this tool reads (${limit} bytes, ${Math.round(limit / 1024 / 1024)} MiB, a fixed limit of the tool; ${r.bytes} bytes were read before stopping), so it was not judged. This is a limit of the tool, not a defect of the card.`,
          [exchangeEvidence(r, 'card response (cut)')],
        );
      }
      const problems: string[] = [];
      if (r.bom) problems.push('the body starts with a UTF-8 byte order mark (RFC 8259 §8.1: implementations MUST NOT add one to networked JSON)');
      if (r.truncated) {
        return judge({ problems, evidence: [exchangeEvidence(r, 'card response (cut at the read limit)')], ok: '', bad: `The card is not a usable JSON object (the rest of the body, over the tool's ${limit} byte read limit, was not judged)` });
      }
      if (r.invalidUtf8) problems.push('the body is not valid UTF-8 (RFC 8259 §8.1: JSON exchanged between systems MUST be encoded using UTF-8)');
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
    level: 'MAY',
    phase: 'card',
    specRefs: ALL({ legacy: 'v0.1.0 §5.3', 'v0.2': 'v0.2.6 §5.3', 'v0.3': 'v0.3.0 §5.3 (renamed to agent-card.json)', 'v1.0': 'v1.0.1 §14.3 Well-Known URI Registration' }),
    recommendation: 'Serve the card at /.well-known/agent-card.json (v0.3 and v1.0 clients look there first); keep /.well-known/agent.json as an alias only for old clients.',
    run: (c) =>
      withCard(c, () => {
        const src = c.discovery.cardSource;
        if (src === 'direct') return skip('The card URL was given directly, so its location was not discovered.', 'not-applicable');
        const expected = c.generation === 'legacy' || c.generation === 'v0.2' ? 'agent.json' : 'agent-card.json';
        if (src === expected || (expected === 'agent.json' && src === 'agent-card.json')) return pass(`Served at /.well-known/${src}.`);
        return fail(`A ${c.generation} card was found only at /.well-known/${src}; ${c.generation} clients look for /.well-known/${expected} first. The location is recommended, not required.`, c.discovery.attempts.map((a) => ev(a.url, String(a.status ?? 'no answer'))));
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
      'Add the missing fields with the types the schema gives. In @a2a-js/sdk the AgentCard type lists them; a2a-python validates them with its AgentCard model; v1.0 cards follow a2a.proto (ProtoJSON, camelCase names).',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
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
          else if (typeof v !== 'string') problems.push(`"${f}" should be a string, got ${typeName(v)}${v === null && g === 'v1.0' ? ' (ProtoJSON reads null as unset)' : ''}`);
          else if (!v.trim()) advisories.push(`"${f}" is empty (the schema requires presence and type, not content${g === 'v1.0' ? '; v1.0 §8.4.1 keeps "description": "" as a valid REQUIRED value' : ''})`);
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
            if (typeof p.organization !== 'string') problems.push(p.organization === undefined ? '"provider.organization" is required' : `"provider.organization" should be a string, got ${typeName(p.organization)}`);
            else if (!p.organization.trim()) advisories.push('"provider.organization" is empty');
            if (g !== 'legacy') {
              if (typeof p.url !== 'string') problems.push(p.url === undefined ? '"provider.url" is required' : `"provider.url" should be a string, got ${typeName(p.url)}`);
              else if (!p.url.trim()) advisories.push('"provider.url" is empty');
            }
          }
        }
        const fx = fixupsFor(c, 'card.required-fields').filter((f) => !problems.some((q) => q.includes(`"${f.path}"`)));
        const lenient = g === 'v0.2' && raw.protocolVersion === undefined ? ' (protocolVersion is absent: v0.2.6 requires it, but v0.2.0-0.2.4 cards lack it, so it is not judged)' : '';
        return judge({
          problems,
          advisories,
          fx,
          ok: `Every required field is present and typed${lenient}.`,
          bad: 'Required fields are missing or mistyped',
          advisoryReason: 'An empty string is schema-valid for a required field (the schemas require presence and type only; v1.0 §8.4.1 keeps "description": "" as a valid REQUIRED value).',
        });
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
        // Only the shape and the members of this generation's schema/proto are judged (normalize records them,
        // per generation); unknown members are valid in every schema and left to card.strict-lint.
        return collect([], [ev('capabilities', caps, { path: 'capabilities' })], `capabilities is an object whose ${c.generation} flags are booleans.`, 'capabilities is malformed', fixupsFor(c, 'card.capabilities.shape'));
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
        const g = c.generation;
        if (!Array.isArray(skills)) return fail(`"skills" is ${skills === undefined ? 'missing' : `a ${typeName(skills)}`}, so no skill can be checked.`, [], 'Declare "skills" as a list of AgentSkill objects.');
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
            else if (g === 'v1.0' && s.tags.length === 0) advisories.push(`skills[${i}].tags is empty (v1.0 §5.7: required arrays MUST have an element, but §8.4.1 keeps an empty REQUIRED array as valid)`);
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
          evidence: [ev('skills', `${skills.length} skill(s): ${skills.slice(0, 10).map((s) => (isRecord(s) ? String(s.id) : '?')).join(', ')}`, { path: 'skills' })],
          ok: `${skills.length} well-formed skill(s).`,
          bad: 'Skills are malformed',
          advisoryReason: 'Empty strings are schema-valid, unique ids are described without a requirement word, and v1.0 contradicts itself on empty required arrays (§5.7 vs §8.4.1).',
        });
      }),
  }),
  defineCheck({
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
    recommendation: 'Declare defaultInputModes/defaultOutputModes as non-empty lists of media types (e.g. ["text/plain", "application/json"]); a skill\'s inputModes/outputModes, when present, override them.',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
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
          if (!Array.isArray(v)) return void problems.push(`${path} should be a list, got ${typeName(v)}${v === null && required && g === 'v1.0' ? ' (ProtoJSON reads null as unset; the field is REQUIRED)' : ''}`);
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
          evidence: [ev('defaultInputModes', raw.defaultInputModes, { path: 'defaultInputModes' }), ev('defaultOutputModes', raw.defaultOutputModes, { path: 'defaultOutputModes' })],
          ok: 'Modes are well-formed lists.',
          bad: 'Modes are malformed',
          advisoryReason: `The ${g} schema sets no minimum length for the default modes: an empty list is schema-valid.`,
        });
      }),
  }),
  defineCheck({
    id: 'card.modes.media-types',
    title: 'Modes are media types (type/subtype)',
    category: 'agent-card',
    level: 'MAY',
    phase: 'card',
    specRefs: ALL({ 'v0.2': 'v0.2.6 §5.5 (MIME types)', 'v0.3': 'v0.3.0 §5.5 (media types)', 'v1.0': 'v1.0.1 §4.4.1 (media types)' }),
    recommendation: 'Use media types such as "text/plain" or "application/json" (or ranges such as "image/*") instead of shorthands like "text" or "json" (early samples used the shorthand; current SDKs and clients match on media types).',
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
          ? fail(`${bad.length} mode(s) are not media types (the spec describes modes as media types but does not require it): ${[...new Set(bad.map(([, m]) => JSON.stringify(m)))].slice(0, 6).join(', ')}.`, bad.slice(0, 10).map(([p, m]) => ev(p, m, { path: p })))
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
    title: 'Provider, documentation and icon URLs are absolute http(s) URLs',
    category: 'agent-card',
    level: 'MAY',
    phase: 'card',
    specRefs: ALL({ legacy: 'v0.1.0 §5.5', 'v0.2': 'v0.2.6 §5.5', 'v0.3': 'v0.3.0 §5.5', 'v1.0': 'v1.0.1 §4.4.1' }),
    recommendation: 'Use absolute https URLs for provider.url, documentationUrl and iconUrl; avoid javascript:, data: or relative URLs (clients render these as links).',
    run: (c) =>
      withCard(c, () => {
        const card = c.card;
        const urls: [string, string][] = [];
        if (card.provider?.url) urls.push(['provider.url', card.provider.url]);
        if (card.documentationUrl) urls.push(['documentationUrl', card.documentationUrl]);
        if (card.iconUrl) urls.push(['iconUrl', card.iconUrl]);
        if (!urls.length) return skip('The card has no provider, documentation or icon URL.', 'not-applicable');
        const bad = urls.filter(([, u]) => !isAbsHttp(u));
        // The spec only describes these URLs (no requirement word): findings are advice (the level is MAY).
        return bad.length
          ? fail(`${bad.length} URL(s) are not absolute http(s): ${bad.map(([p, u]) => `${p}=${JSON.stringify(u).slice(0, 80)}`).slice(0, 4).join(', ')}. The spec describes these URLs without a requirement word.`, bad.map(([p, u]) => ev(p, u, { path: p })))
          : pass(`${urls.length} URL(s), all absolute http(s).`);
      }),
  }),
  defineCheck({
    id: 'card.urls.oauth',
    title: 'OAuth flow URLs are URLs',
    category: 'agent-card',
    level: 'MUST',
    tier: 'card',
    phase: 'card',
    specRefs: {
      'v0.2': 'v0.2.6 a2a.json OAuth flows ("This MUST be in the form of a URL.")',
      'v0.3': 'v0.3.0 a2a.json OAuth flows ("This MUST be a URL")',
      'v1.0': 'v1.0.1 a2a.proto ImplicitOAuthFlow, PasswordOAuthFlow',
    },
    recommendation: 'Give authorizationUrl, tokenUrl and refreshUrl as absolute https URLs of the authorization server, e.g. "https://auth.example.com/oauth2/token", not relative paths or bare host names.',
    run: (c) =>
      withCard(c, () => {
        const g = c.generation;
        const raw = c.raw as Record<string, unknown>;
        const problems: string[] = [];
        const advisories: string[] = [];
        let count = 0;
        // Which flow URLs carry "This MUST be ... a URL": every flow of the v0.x schemas; in v1.0 only the deprecated implicit and password flows.
        const mustFlows = g === 'v1.0' ? ['implicit', 'password'] : ['authorizationCode', 'clientCredentials', 'implicit', 'password'];
        for (const [name, s] of Object.entries(isRecord(raw.securitySchemes) ? raw.securitySchemes : {}).slice(0, 100)) {
          if (!isRecord(s)) continue;
          const body = isRecord(s.oauth2SecurityScheme) ? s.oauth2SecurityScheme : isRecord(s.openIdConnectSecurityScheme) ? s.openIdConnectSecurityScheme : s;
          const p = `securitySchemes.${name}`;
          const oidc = body.openIdConnectUrl;
          if (typeof oidc === 'string' && oidc) {
            count++;
            // Described ("The OpenID Connect Discovery URL"), without a requirement word.
            if (!isAbsHttp(oidc)) advisories.push(`${p}.openIdConnectUrl=${JSON.stringify(oidc).slice(0, 80)} is not an absolute http(s) URL`);
          }
          if (!isRecord(body.flows)) continue;
          for (const [flow, f] of Object.entries(body.flows).slice(0, 10)) {
            if (!isRecord(f)) continue;
            for (const k of ['authorizationUrl', 'tokenUrl', 'refreshUrl', 'deviceAuthorizationUrl']) {
              const u = f[k];
              // Missing or mistyped URLs are card.security.schemes' business.
              if (typeof u !== 'string' || !u) continue;
              count++;
              const where = `${p}.flows.${flow}.${k}=${JSON.stringify(u).slice(0, 80)}`;
              const must = mustFlows.includes(flow) && k !== 'deviceAuthorizationUrl';
              if (!isAbsUrl(u)) (must ? problems : advisories).push(`${where} is not a URL (no scheme: a relative path or a bare name)`);
              else if (!isAbsHttp(u)) advisories.push(`${where} is not an http(s) URL`);
              else if (g === 'v0.3' && flow === 'authorizationCode' && !/^https:/i.test(u)) {
                // v0.3.0: "This MUST be a URL and use TLS." Plain http is the norm in local development (as for endpoint URLs), so advice only.
                advisories.push(`${where} does not use TLS (v0.3.0: "This MUST be a URL and use TLS"; plain http is accepted for local development)`);
              }
            }
          }
        }
        if (!count) return skip('The card declares no OAuth or OpenID Connect URLs.', 'not-applicable');
        return judge({
          problems,
          advisories,
          ok: `${count} OAuth/OpenID URL(s), all URLs.`,
          bad: `OAuth flow URLs are not URLs (the ${g === 'v1.0' ? 'v1.0 implicit and password flows say' : `${g} schema says`} "This MUST be ${g === 'v0.3' ? 'a URL' : 'in the form of a URL'}")`,
          advisoryReason:
            g === 'v1.0'
              ? 'In v1.0 only the deprecated implicit and password flows require their URLs to be URLs; the other URLs are described without a requirement word.'
              : 'The OpenID Connect URL is described without a requirement word; non-http(s) schemes and plain http are advice.',
        });
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
          if (a !== undefined && a !== null && (!isRecord(a) || !Array.isArray(a.schemes))) problems.push('authentication.schemes should be a list of scheme names');
          if (a === undefined || a === null) return skip('The card declares no authentication.', 'not-applicable');
          return judge({ problems, fx: fx.filter((f) => !problems.some((p) => p.startsWith(f.path))), ok: 'authentication.schemes is well-formed.', bad: 'authentication is malformed' });
        }
        const schemes = raw.securitySchemes;
        if ((schemes === undefined || (schemes === null && g === 'v1.0')) && !fx.length) return skip('The card declares no security schemes.', 'not-applicable');
        const knownFlows = g === 'v1.0' ? ['authorizationCode', 'clientCredentials', 'implicit', 'password', 'deviceCode'] : ['authorizationCode', 'clientCredentials', 'implicit', 'password'];
        // Members each flow REQUIRES. v0.x: the schema's `required`; v1.0: the proto's REQUIRED fields (the deprecated implicit and password flows mark none).
        const needs: Record<string, string[]> =
          g === 'v1.0'
            ? { authorizationCode: ['authorizationUrl', 'tokenUrl', 'scopes'], clientCredentials: ['tokenUrl', 'scopes'], deviceCode: ['deviceAuthorizationUrl', 'tokenUrl', 'scopes'], implicit: [], password: [] }
            : { authorizationCode: ['authorizationUrl', 'tokenUrl', 'scopes'], clientCredentials: ['tokenUrl', 'scopes'], implicit: ['authorizationUrl', 'scopes'], password: ['tokenUrl', 'scopes'] };
        if (isRecord(schemes)) {
          for (const [name, s] of Object.entries(schemes).slice(0, 100)) {
            const p = `securitySchemes.${name}`;
            if (!isRecord(s)) {
              if (!fx.some((f) => f.path === p)) problems.push(`${p} should be an object`);
              continue;
            }
            const n = c.card.securitySchemes[name];
            const wrapper = Object.keys(s).find((k) => k.endsWith('SecurityScheme'));
            if (g === 'v1.0' && !wrapper) problems.push(`${p} should be a v1.0 oneof wrapper such as {"apiKeySecurityScheme": {...}} (found ${s.type ? `"type": ${JSON.stringify(s.type)}` : 'no wrapper'})`);
            if (g !== 'v1.0' && wrapper) problems.push(`${p} uses the v1.0 wrapper "${wrapper}" in a ${g} card (expected "type")`);
            if (!n || n.type === 'unknown') {
              problems.push(`${p} has no recognisable type`);
              continue;
            }
            const body = wrapper && isRecord(s[wrapper]) ? (s[wrapper] as Record<string, unknown>) : s;
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
                problems.push(`${p}: apiKey "${locKey}" must be "header", "query" or "cookie", got ${JSON.stringify(loc ?? body[locKey === 'in' ? 'location' : 'in'])}`);
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
              if (g === 'v1.0' && names.filter((k) => knownFlows.includes(k)).length > 1) problems.push(`${p}: v1.0 OAuthFlows is a oneof and holds exactly one flow (found ${names.join(', ')})`);
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
                if (g === 'v1.0' && (flow === 'implicit' || flow === 'password')) advisories.push(`${where} is deprecated in v1.0 (use authorizationCode with PKCE${flow === 'password' ? ' or deviceCode' : ''})`);
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
          advisoryReason: 'Empty strings are schema-valid, unknown flows and an empty flows object are not forbidden, the v1.0 apiKey locations come from a proto comment, and deprecated flows are permitted.',
        });
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
      'v1.0: list every interface in supportedInterfaces with url, protocolBinding (JSONRPC, HTTP+JSON, GRPC) and protocolVersion ("1.0"), preferred first. v0.3: set protocolVersion ("0.3.0") and preferredTransport to one of JSONRPC, GRPC, HTTP+JSON, and declare each additional interface with its url and transport.',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const g = c.generation;
        const problems: string[] = [];
        const advisories: string[] = [];
        let advisoryReason: string;
        if (g === 'v1.0') {
          const si = c.card.interfaces.filter((i) => i.source === 'supportedInterfaces');
          if (!si.length) problems.push('supportedInterfaces is empty (v1.0 §5.7: required arrays MUST contain at least one element)');
          const rawSi = Array.isArray(raw.supportedInterfaces) ? raw.supportedInterfaces.slice(0, 50) : [];
          rawSi.forEach((x, n) => {
            if (!isRecord(x)) return; // reported by normalization
            const at = `supportedInterfaces[${n}]`;
            if (x.protocolBinding === undefined && x.transport !== undefined) problems.push(`${at}.protocolBinding is missing (REQUIRED; the entry uses the v0.3 name "transport")`);
            else if (typeof x.protocolBinding === 'string' && !x.protocolBinding.trim()) problems.push(`${at}.protocolBinding is empty (REQUIRED: clients cannot tell how to call this interface)`);
            if (x.protocolVersion === undefined || x.protocolVersion === null) problems.push(`${at}.protocolVersion is missing (REQUIRED)`);
            else if (typeof x.protocolVersion === 'string' && !x.protocolVersion.trim()) problems.push(`${at}.protocolVersion is empty (REQUIRED)`);
          });
          if (si.length && !si.some((i) => /^1\./.test(i.protocolVersion ?? ''))) problems.push('no interface declares protocolVersion 1.x');
          const legacyFields = ['protocolVersion', 'preferredTransport', 'additionalInterfaces', 'supportsAuthenticatedExtendedCard', 'url'].filter((f) => f in raw);
          // A dual v0.3/v1.0 card (e.g. @a2a-js/sdk toCompatAgentCard with embedV1Interfaces) is permitted: v1.0 receivers ignore unrecognized fields (§5.7).
          if (legacyFields.length) advisories.push(`v0.3 top-level fields beside supportedInterfaces: ${legacyFields.join(', ')} (v1.0 clients ignore them; v0.3 clients read them, so keep them consistent with the v0.3 interfaces)`);
          advisoryReason = 'v1.0 §5.7: implementations SHOULD ignore unrecognized fields, so v0.3 fields beside supportedInterfaces are permitted.';
        } else if (g === 'v0.3' || g === 'v0.2') {
          if (g === 'v0.3' && typeof raw.protocolVersion === 'string' && !/^0\.3(\.\d+)?$/.test(raw.protocolVersion)) advisories.push(`protocolVersion "${raw.protocolVersion}" is not a 0.3.x version although the card is shaped as v0.3`);
          if (typeof raw.preferredTransport === 'string' && !CORE_BINDINGS.includes(raw.preferredTransport)) {
            advisories.push(
              `preferredTransport ${JSON.stringify(raw.preferredTransport)} is not one of JSONRPC, GRPC, HTTP+JSON${canonicalBinding(raw.preferredTransport) ? ` (spelled differently from "${canonicalBinding(raw.preferredTransport)}": clients match the exact string)` : ' (a custom transport; clients may not support it)'}`,
            );
          }
          const byUrl = new Map<string, Set<string>>();
          for (const i of c.card.interfaces) {
            const set = byUrl.get(i.url) ?? new Set<string>();
            set.add(String(canonicalBinding(String(i.binding)) ?? i.binding));
            byUrl.set(i.url, set);
          }
          for (const [u, set] of byUrl) {
            // v0.3 §5.6.2: interfaces MAY reuse URLs if multiple transports are available at the same endpoint; only calling them can tell a conflict.
            if (set.size > 1) advisories.push(`URL ${u} is declared with several transports (${[...set].join(', ')}); permitted when each is served there`);
          }
          advisoryReason =
            g === 'v0.3'
              ? 'v0.3 permits other transport values (§5.5.5 "Additional transport values MAY be used") and URLs shared by transports (§5.6.2 "MAY reuse URLs").'
              : 'v0.2.6 sets no rule on preferredTransport values (an open form string) or on URLs shared by transports.';
        } else {
          return skip('The legacy card has no protocol version or interface fields.', 'not-applicable');
        }
        return judge({
          problems,
          advisories,
          fx: fixupsFor(c, 'card.protocol.coherence'),
          evidence: c.detection.evidence.map((e) => ev('detection', e)),
          ok: 'Protocol declarations are coherent.',
          bad: 'Protocol declarations are incoherent',
          advisoryReason,
        });
      }),
  }),
  defineCheck({
    id: 'card.protocol.conventions',
    title: 'Interface bindings and protocol versions are spelled as the spec spells them',
    category: 'agent-card',
    level: 'SHOULD',
    phase: 'card',
    specRefs: { 'v1.0': 'v1.0.1 §3.6 Versioning, §5.8 Custom Binding Identification' },
    recommendation:
      'Spell the core bindings exactly "JSONRPC", "HTTP+JSON" or "GRPC" (clients compare the strings), identify a custom binding by a URI (e.g. "https://example.com/bindings/websocket/v1"), and give protocolVersion as Major.Minor ("1.0", not "1.0.1").',
    run: (c) =>
      withCard(c, () => {
        const raw = c.raw as Record<string, unknown>;
        const si = Array.isArray(raw.supportedInterfaces) ? raw.supportedInterfaces.slice(0, 50) : [];
        if (!si.some(isRecord)) return skip('The card declares no supportedInterfaces.', 'precondition');
        const problems: string[] = [];
        const advisories: string[] = [];
        si.forEach((i, n) => {
          if (!isRecord(i)) return;
          const b = i.protocolBinding;
          if (typeof b === 'string' && b.trim() && !CORE_BINDINGS.includes(b) && !isUri(b)) {
            const core = canonicalBinding(b);
            // §5.8: a custom binding SHOULD be a URI; a core binding spelled differently is neither.
            problems.push(
              core
                ? `supportedInterfaces[${n}].protocolBinding is spelled ${JSON.stringify(b)}; the core binding is "${core}" (clients match the exact string)`
                : `supportedInterfaces[${n}].protocolBinding ${JSON.stringify(b)} is neither a core binding nor a URI (v1.0 §5.8: custom bindings SHOULD be identified by a URI)`,
            );
          }
          const v = i.protocolVersion;
          if (typeof v === 'string' && v.trim()) {
            if (/^\d+\.\d+\.\d+/.test(v)) problems.push(`supportedInterfaces[${n}].protocolVersion "${v}" has a patch number (v1.0 §3.6: patch version numbers SHOULD NOT be used in Agent Cards)`);
            else if (!/^\d+\.\d+$/.test(v)) advisories.push(`supportedInterfaces[${n}].protocolVersion "${v}" is not Major.Minor (e.g. "1.0")`);
          }
        });
        return judge({
          problems,
          advisories,
          ok: `${si.filter(isRecord).length} interface(s), bindings and versions spelled as the spec spells them.`,
          bad: 'Interface declarations do not follow the spec\'s conventions',
          advisoryReason: 'The version format is shown only by examples ("0.3", "1.0"), without a requirement word.',
        });
      }),
  }),
  defineCheck({
    id: 'card.public',
    title: 'The agent card is readable without credentials',
    category: 'agent-card',
    level: 'MAY',
    phase: 'card',
    specRefs: ALL({
      legacy: 'v0.1.0 §5.4 Security of Agent Cards (seed procedure 4.6)',
      'v0.2': 'v0.2.6 §5.4 Security of Agent Cards',
      'v0.3': 'v0.3.0 §5.4 Security of Agent Cards',
      'v1.0': 'v1.0.1 §8.2, §13.3 (public card; details go in the extended card)',
    }),
    recommendation:
      'Protecting the card is permitted (and required when it holds sensitive information). If it holds nothing sensitive, consider excluding the well-known card path from your authentication middleware so that clients without credentials can discover the agent, and put sensitive details in the authenticated extended card.',
    run: (c) => {
      if (!c.discovery.response) return skip('No card was found.', 'precondition');
      return c.discovery.neededCredentials
        ? fail(
            'The card was refused (401/403) without credentials and served only with them. This is permitted (v0.x §5.4: a card with sensitive information MUST be protected, e.g. "authentication required to fetch the card"), but clients that discover agents without credentials cannot read it.',
            c.discovery.attempts.map((a) => ev(a.url, `${a.status ?? 'no answer'} ${a.note ?? ''}`, { exchangeId: a.exchangeId })),
          )
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
      const cc = first.headers.get('cache-control') ?? '';
      // RFC 9110 §12.5.5 asks for Vary on cacheable responses; a response no cache may store needs none.
      if (/(^|,)\s*no-store\s*(,|$)/i.test(cc)) return pass(`The card response is not cacheable (Cache-Control: ${cc}), so it needs no Vary header.`);
      const url = c.discovery.cardUrl;
      const fetchCard = (withVersion: boolean) =>
        exchange(c.http, {
          method: 'GET',
          url,
          headers: { Accept: 'application/json', ...(withVersion ? { 'A2A-Version': '1.0' } : {}), ...(c.discovery.neededCredentials ? c.authHeaders : {}) },
          lane: 'discovery',
          checkId: 'card.vary',
        });
      const second = await fetchCard(false);
      if (!second.responded) return skip(`The second card request (without A2A-Version) got no answer: ${second.error?.message ?? ''}`, 'precondition', [exchangeEvidence(second)]);
      const vary = first.headers.get('vary') ?? '';
      const varies = /(^|,)\s*(a2a-version|\*)\s*(,|$)/i.test(vary);
      // Same card (key order and per-request signatures aside): nothing varies.
      if (sameCard(first, second)) return varies ? pass('The card is the same with and without A2A-Version, and Vary lists A2A-Version anyway.') : pass('The card is the same with and without A2A-Version.');
      // A control request with the header again: a card that changes on every request does not vary *by the header*.
      const control = await fetchCard(true);
      if (!control.responded) return skip(`The control card request (with A2A-Version) got no answer: ${control.error?.message ?? ''}`, 'precondition', [exchangeEvidence(control)]);
      if (!sameCard(first, control)) {
        return skip(
          'The card differs between two identical requests (with A2A-Version: 1.0), so whether it varies by A2A-Version cannot be told.',
          'precondition',
          [exchangeEvidence(first, 'with A2A-Version: 1.0'), exchangeEvidence(control, 'with A2A-Version: 1.0, again')],
        );
      }
      const sj = second.json();
      const otherIsCard = sj.ok && isRecord(sj.value);
      return varies
        ? pass(`The card differs by A2A-Version (${otherIsCard ? 'another JSON card' : 'a different body'} without the header) and Vary: ${vary} says so.`, [exchangeEvidence(second, 'without A2A-Version')])
        : fail(`The card differs with and without A2A-Version (the same with the header twice), but the response has ${vary ? `Vary: ${vary}` : 'no Vary header'}.`, [exchangeEvidence(first, 'with A2A-Version: 1.0'), exchangeEvidence(second, 'without A2A-Version'), exchangeEvidence(control, 'with A2A-Version: 1.0, again')]);
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
        // null: unset in ProtoJSON (v1.0); the v0.3 schema has no null.
        if (sigs === undefined || (sigs === null && nullIsAbsent(c.generation))) return skip('The card is not signed.', 'not-applicable');
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
              // RFC 7515 §4: the JOSE Header is the union of the protected and the unprotected ("header") members.
              // v0.3 does not require "alg" to be protected; v1.0 §8.4.2 does.
              const unprotected = isRecord(s.header) ? s.header : {};
              if (typeof hdr.alg !== 'string' && !(c.generation !== 'v1.0' && typeof unprotected.alg === 'string')) {
                problems.push(`signatures[${i}] has no "alg" in its ${c.generation === 'v1.0' ? 'protected header (v1.0 §8.4.2 MUST)' : 'JOSE header (RFC 7515 §4.1.1 MUST)'}`);
              }
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
    level: 'MAY',
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
        // Portability, not conformance: unknown members are valid in every schema and v1.0 receivers SHOULD ignore them.
        return issues.length
          ? fail(`${issues.length} thing(s) a strict parser would reject or misread (portability advice; the schemas do not forbid them): ${issues.slice(0, 4).join('; ')}${issues.length > 4 ? '; …' : ''}.`, issues.slice(0, 30).map((i) => ev('lint', i)))
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
    if (g === 'v1.0' && raw.skills.length === 0) out.push('skills is empty (v1.0 §5.7: REQUIRED repeated fields MUST be non-empty; the §8.4.1 example contradicts this)');
    raw.skills.slice(0, 100).forEach((s, i) => {
      if (!isRecord(s)) return;
      for (const k of Object.keys(s)) {
        if (!okName(known.skill, k)) out.push(`skills[${i}] has unknown field "${k}"${g === 'v1.0' && k === 'security' ? ' (v1.0: securityRequirements)' : ''}`);
      }
      // null is absent where the generation reads it so (v0.1.0 types examples `string[] | null`; ProtoJSON), as for the URLs below.
      const examples = s.examples === null && nullIsAbsent(g) ? undefined : s.examples;
      if (examples !== undefined && (!Array.isArray(examples) || examples.some((e) => typeof e !== 'string'))) out.push(`skills[${i}].examples should be a list of strings`);
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
    // A non-core preferredTransport is permitted (an open form string): card.protocol.coherence notes it.
  }
  // Types of required fields are judged by card.required-fields; optional string fields only here (null is
  // absent in v0.1.0, whose document types them `string | null`, and in ProtoJSON).
  for (const k of ['documentationUrl', 'iconUrl']) {
    if (raw[k] !== undefined && !(raw[k] === null && (g === 'legacy' || g === 'v1.0')) && typeof raw[k] !== 'string') out.push(`${k} should be a string, got ${typeName(raw[k])}`);
  }
  return out;
}
