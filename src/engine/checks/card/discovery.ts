/** Card checks: where the card was found and how it was served (discovery, JSON, content type, well-known path). */
import { cardCandidates } from '../../card/discover';
import { isRecord, typeName } from '../../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolError, toolLimit } from '../define';
import { ALL, collect, fixupsFor, judge } from './common';

export const cardDiscovery = defineCheck({
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
    "Serve the card with GET at /.well-known/agent-card.json (v0.3 and v1.0) or /.well-known/agent.json (legacy, v0.2), relative to the agent's base URL. With @a2a-js/sdk mount agentCardHandler at that path; in a2a-python, A2AStarletteApplication serves it. If the card lives elsewhere (direct configuration, a registry), give its URL instead of the base URL.",
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
        return skip(
          `Nothing answered at any candidate URL (${d.unreachable.message}), so whether the agent serves a card could not be judged.`,
          'unreachable',
          attempts,
        );
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
});

export const cardJson = defineCheck({
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
  recommendation:
    'Return the card as a UTF-8 JSON object (RFC 8259, no byte order mark), not an HTML page or an error text. Check reverse proxies and SPA fallbacks that answer unknown paths with index.html.',
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
      return judge({
        problems,
        evidence: [exchangeEvidence(r, 'card response (cut at the read limit)')],
        ok: '',
        bad: `The card is not a usable JSON object (the rest of the body, over the tool's ${limit} byte read limit, was not judged)`,
      });
    }
    if (r.invalidUtf8) problems.push('the body is not valid UTF-8 (RFC 8259 §8.1: JSON exchanged between systems MUST be encoded using UTF-8)');
    if (c.discovery.parseError) problems.push(`not JSON: ${c.discovery.parseError}`);
    else if (!isRecord(c.raw)) problems.push(`JSON, but a ${typeName(c.raw)} instead of an object`);
    if (/^\s*</.test(r.text)) problems.push('the body looks like HTML');
    return collect(
      problems,
      [exchangeEvidence(r, 'card response')],
      `A ${r.bytes} byte JSON object.`,
      'The card is not a usable JSON object',
      fixupsFor(c, 'card.json'),
    );
  },
});

export const cardContentType = defineCheck({
  id: 'card.content-type',
  title: 'The agent card is served with a Content-Type (application/json)',
  category: 'agent-card',
  level: 'SHOULD',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §3.2 Data Format',
    'v0.2': 'v0.2.6 §3.2 Data Format',
    'v0.3': 'v0.3.0 §3.1',
    'v1.0': 'v1.0.1 §14.3 Well-Known URI Registration',
  }),
  recommendation: 'Send Content-Type: application/json for the card (frameworks do this when you return a JSON response object instead of a string).',
  run: (c) => {
    const r = c.discovery.response;
    if (!r) return skip('No response to judge (see card.discovery).', 'precondition');
    // RFC 9110 §8.3 asks (SHOULD) for *a* Content-Type; no A2A release names the card's media type, so a type other
    // than JSON is only a remark (RFC 8259 §11 registers application/json for JSON text: descriptive).
    if (!r.contentType.trim())
      return fail('The card is served without a Content-Type header (RFC 9110 §8.3: a sender SHOULD generate one).', [exchangeEvidence(r)]);
    const ok = /^\s*application\/([a-z0-9.+-]+\+)?json\b/i.test(r.contentType);
    if (ok) return pass(`Content-Type: ${r.contentType}`);
    return {
      ...fail(`Content-Type is "${r.contentType}", not application/json (the registered media type of JSON text).`, [exchangeEvidence(r)]),
      advisory:
        "RFC 9110 §8.3 only asks for a Content-Type, and no A2A release names the card's media type: a card served as another type is a remark, not a failure (strict clients may refuse it).",
    };
  },
});

export const cardWellKnownPath = defineCheck({
  id: 'card.well-known-path',
  title: 'The card is at the well-known path of its protocol generation',
  category: 'agent-card',
  level: 'MAY',
  phase: 'card',
  specRefs: ALL({
    legacy: 'v0.1.0 §5.3',
    'v0.2': 'v0.2.6 §5.3',
    'v0.3': 'v0.3.0 §5.3 (renamed to agent-card.json)',
    'v1.0': 'v1.0.1 §14.3 Well-Known URI Registration',
  }),
  recommendation:
    'Serve the card at /.well-known/agent-card.json (v0.3 and v1.0 clients look there first); keep /.well-known/agent.json as an alias only for old clients.',
  requires: ['card'],
  run: (c) => {
    const src = c.discovery.cardSource;
    if (src === 'direct') return skip('The card URL was given directly, so its location was not discovered.', 'not-applicable');
    const expected = c.generation === 'legacy' || c.generation === 'v0.2' ? 'agent.json' : 'agent-card.json';
    if (src === expected || (expected === 'agent.json' && src === 'agent-card.json')) return pass(`Served at /.well-known/${src}.`);
    return fail(
      `A ${c.generation} card was found only at /.well-known/${src}; ${c.generation} clients look for /.well-known/${expected} first. The location is recommended, not required.`,
      c.discovery.attempts.map((a) => ev(a.url, String(a.status ?? 'no answer'))),
    );
  },
});
