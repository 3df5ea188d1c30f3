/** Card checks: how the card is served over HTTP (without credentials, caching headers, Vary by A2A-Version). */
import { exchange, type HttpResult } from '../../http/client';
import { isRecord } from '../../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip } from '../define';
import { ALL } from './common';

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

export const cardPublic = defineCheck({
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
});

export const cardCaching = defineCheck({
  id: 'card.caching',
  title: 'The card is served with Cache-Control max-age and an ETag',
  category: 'agent-card',
  level: 'SHOULD',
  phase: 'card',
  specRefs: { 'v1.0': 'v1.0.1 §8.6.1 Caching: Server Requirements' },
  recommendation:
    'Send Cache-Control: max-age=<seconds> and an ETag (from the card version or a content hash) on the card response, and answer If-None-Match with 304. @a2a-js/sdk agentCardHandler does this.',
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
});

export const cardVary = defineCheck({
  id: 'card.vary',
  title: 'A card that differs by A2A-Version says so with Vary: A2A-Version',
  category: 'agent-card',
  level: 'SHOULD',
  phase: 'card',
  specRefs: { 'v1.0': 'v1.0.1 §3.6 Versioning, §8.6 Caching (RFC 9110 §12.5.5 Vary)', 'v0.3': 'v0.3.0 §5.3 (cards fetched by v1.0 clients too)' },
  recommendation:
    'When the card content depends on the A2A-Version request header (e.g. a v0.3-shaped card for old clients), add "Vary: A2A-Version" so shared caches keep one entry per version.',
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
    if (!second.responded)
      return skip(`The second card request (without A2A-Version) got no answer: ${second.error?.message ?? ''}`, 'precondition', [exchangeEvidence(second)]);
    const vary = first.headers.get('vary') ?? '';
    const varies = /(^|,)\s*(a2a-version|\*)\s*(,|$)/i.test(vary);
    // Same card (key order and per-request signatures aside): nothing varies.
    if (sameCard(first, second))
      return varies
        ? pass('The card is the same with and without A2A-Version, and Vary lists A2A-Version anyway.')
        : pass('The card is the same with and without A2A-Version.');
    // A control request with the header again: a card that changes on every request does not vary *by the header*.
    const control = await fetchCard(true);
    if (!control.responded)
      return skip(`The control card request (with A2A-Version) got no answer: ${control.error?.message ?? ''}`, 'precondition', [exchangeEvidence(control)]);
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
      ? pass(`The card differs by A2A-Version (${otherIsCard ? 'another JSON card' : 'a different body'} without the header) and Vary: ${vary} says so.`, [
          exchangeEvidence(second, 'without A2A-Version'),
        ])
      : fail(
          `The card differs with and without A2A-Version (the same with the header twice), but the response has ${vary ? `Vary: ${vary}` : 'no Vary header'}.`,
          [
            exchangeEvidence(first, 'with A2A-Version: 1.0'),
            exchangeEvidence(second, 'without A2A-Version'),
            exchangeEvidence(control, 'with A2A-Version: 1.0, again'),
          ],
        );
  },
});
