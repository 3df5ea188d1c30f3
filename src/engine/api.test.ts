import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../testing/fake-host';
import { discoverCard, judgeCard, SERVING_CHECKS } from './api';
import { ALL_CHECKS } from './checks';
import type { CheckResult } from './model/check';
import type { RunEvent } from './model/events';
import { reportResults } from './report/build';
import { runConformance } from './runner/run';

const CARD_IDS = ALL_CHECKS.filter((d) => d.phase === 'card').map((d) => d.id);
const CONTENT_IDS = CARD_IDS.filter((id) => !SERVING_CHECKS.includes(id));

/** A result without what differs between two runs of the same check (timing, exchange ids). */
const comparable = (r: CheckResult) => ({ ...r, duration_ms: 0, evidence: r.evidence.map(({ exchangeId: _x, ...e }) => e) });

/** How the registry judged a card before judgeCard: a whole run against a host that serves only the card. */
async function runOnServedCard(card: unknown) {
  const body = JSON.stringify(card);
  const { host } = fakeHost((req) =>
    new URL(req.url).pathname === '/.well-known/agent-card.json'
      ? new Response(body, { status: 200, headers: { 'content-type': 'application/json' } })
      : new Response('', { status: 404 }),
  );
  const report = await runConformance(host, { agentUrl: 'https://card.invalid', only: CONTENT_IDS, timeoutMs: 5_000 }, () => undefined);
  return { results: reportResults(report).filter((r) => CONTENT_IDS.includes(r.id)), generation: report.protocol.generation ?? undefined };
}

const v1 = sampleCard('v1.0', 'https://agent.example');
const CARDS: Record<string, unknown> = {
  'valid v1.0': v1,
  'valid v0.3': sampleCard('v0.3', 'https://agent.example'),
  'valid legacy': sampleCard('legacy', 'https://agent.example'),
  'v1.0 with broken fields': {
    ...v1,
    name: 42,
    defaultInputModes: ['not a media type'],
    supportedInterfaces: [{ url: 'ftp://x', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    skills: [{ id: 7 }],
  },
  'v1.0 card whose interfaces are all 0.3': {
    ...v1,
    supportedInterfaces: [{ url: 'https://agent.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
  },
  'an API key in the query, named in URLs': {
    ...sampleCard('v0.3', 'https://agent.example'),
    url: 'https://agent.example/rpc?api_token=s3cret',
    securitySchemes: { k: { type: 'apiKey', in: 'query', name: 'api_token' } },
    security: [{ k: [] }],
  },
  'a JSON array': [v1],
  'a JSON string': 'card',
};

describe('judgeCard', () => {
  for (const [name, card] of Object.entries(CARDS)) {
    it(`gives the verdicts a run gives on the served card: ${name}`, async () => {
      const [judged, ran] = await Promise.all([judgeCard(card), runOnServedCard(card)]);
      expect(judged.results.map((r) => r.id)).toEqual(CONTENT_IDS);
      expect(judged.results.map(comparable)).toEqual(ran.results.map(comparable));
      expect(judged.generation).toBe(ran.generation);
    });
  }

  it('cuts a card over the read limit as a served one is cut, and says so', async () => {
    const huge = { ...v1, description: 'x'.repeat(5 * 1024 * 1024) };
    const [judged, ran] = await Promise.all([judgeCard(huge), runOnServedCard(huge)]);
    expect(judged.results.find((r) => r.id === 'card.json')).toMatchObject({ status: 'skip', skipKind: 'tool-limit' });
    expect(judged.results.map(comparable)).toEqual(ran.results.map(comparable));
  });

  it('leaves the serving checks out unless asked, and honours only / exclude', async () => {
    const all = await judgeCard(v1);
    expect(all.results.some((r) => SERVING_CHECKS.includes(r.id))).toBe(false);
    const some = await judgeCard(v1, { only: ['card.skills', 'card.modes', 'card.json'], exclude: ['card.modes'] });
    // Catalogue order, not the order asked.
    expect(some.results.map((r) => r.id)).toEqual(['card.json', 'card.skills']);
    expect(all.detection.binding).toBe('JSONRPC');
    expect(all.card.name).toBe('V1');
  });

  it('skips what it has not started once stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    const { results } = await judgeCard(v1, { signal: stop.signal });
    expect(results.length).toBe(CONTENT_IDS.length);
    expect(results.every((r) => r.status === 'skip' && r.skipKind === 'not-run')).toBe(true);
  });
});

describe('discoverCard', () => {
  it('finds, normalizes and classifies the card with evidence, and lists the skills', async () => {
    const { host, requests } = fakeHost((req) => (req.url.endsWith('/.well-known/agent-card.json') ? json(v1) : new Response('no', { status: 404 })));
    const events: RunEvent[] = [];
    const found = await discoverCard(host, 'https://agent.example', { emit: (e) => events.push(e) });
    expect(requests.map((r) => r.url)).toEqual(['https://agent.example/.well-known/agent-card.json']);
    expect(found.discovery.cardSource).toBe('agent-card.json');
    expect(found.raw).toEqual(v1);
    expect(found.detection).toMatchObject({ generation: 'v1.0', binding: 'JSONRPC', endpointUrl: 'https://agent.example/rpc' });
    expect(found.detection.evidence.length).toBeGreaterThan(0);
    expect(found.info).toMatchObject({ role: 'agent', generation: 'v1.0', cardUrl: 'https://agent.example/.well-known/agent-card.json' });
    expect(found.skills).toEqual([{ id: 'echo', name: 'Echo' }]);
    expect(found.findings).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(['http-request', 'http-response']);
  });

  it('with judge: every card check, served ones included, as a run judges them', async () => {
    const route = (req: Request) =>
      req.url.endsWith('/.well-known/agent-card.json') ? json(v1, { headers: { 'cache-control': 'max-age=60' } }) : new Response('no', { status: 404 });
    const found = await discoverCard(fakeHost(route).host, 'https://agent.example', { judge: true });
    const report = await runConformance(fakeHost(route).host, { agentUrl: 'https://agent.example', only: CARD_IDS }, () => undefined);
    expect(found.findings?.map((r) => r.id)).toEqual(CARD_IDS);
    expect(found.findings?.map(comparable)).toEqual(reportResults(report).map(comparable));
  });

  it('sends credentials only after a refusal, and masks them in what it returns and emits', async () => {
    const token = 'tok-very-secret-123';
    const { host, requests } = fakeHost((req) =>
      req.headers.get('authorization') === `Bearer ${token}`
        ? json(v1)
        : new Response('{"error":"auth"}', { status: 401, headers: { 'content-type': 'application/json' } }),
    );
    const events: RunEvent[] = [];
    const found = await discoverCard(host, `https://agent.example/?token=${token}`, { credentials: { kind: 'bearer', token }, emit: (e) => events.push(e) });
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(found.discovery.neededCredentials).toBe(true);
    expect(found.detection.generation).toBe('v1.0');
    const out = JSON.stringify({ events, info: found.info, attempts: found.discovery.attempts });
    expect(out).not.toContain(token);
  });

  it('never rejects: an unusable URL and an agent that is not there are results', async () => {
    const bad = await discoverCard(fakeHost(() => new Response('')).host, 'not a url');
    expect(bad.discovery.reach).toBe('invalid-url');
    const refused = fakeHost(() => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })));
    const gone = await discoverCard(refused.host, 'http://127.0.0.1:9/');
    expect(gone.discovery.reach).toBe('unreachable');
    expect(gone.raw).toBeUndefined();
    expect(gone.skills).toEqual([]);
  });
});
