import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard, type Route } from '../../testing/fake-host';
import { normalizeCard } from '../card/normalize';
import type { CheckResult } from '../model/check';
import type { RunEvent } from '../model/events';
import { runConformance } from '../runner/run';
import { reportResults } from '../report/build';
import { cardChecks } from './card';

const CARD_ONLY = cardChecks.map((c) => c.id);

async function runCard(route: Route, agentUrl = 'http://agent.test', extra: { timeoutMs?: number } = {}) {
  const { host, requests } = fakeHost(route);
  const events: RunEvent[] = [];
  const report = await runConformance(host, { agentUrl, only: CARD_ONLY, ...extra }, (e) => events.push(e));
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { report, byId, events, requests };
}

const serveCard = (card: unknown, path = '/.well-known/agent-card.json', headers: Record<string, string> = {}): Route =>
  (req) => (new URL(req.url).pathname === path ? json(card, { headers }) : new Response('not found', { status: 404 }));

describe('card checks', () => {
  it.each(['legacy', 'v0.3', 'v1.0'] as const)('a valid %s card passes every card-tier check and is detected as such', async (g) => {
    const path = g === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json';
    const { byId, report } = await runCard(serveCard(sampleCard(g), path));
    expect(report.protocol.generation).toBe(g);
    const cardTier = Object.values(byId).filter((r) => r.tier === 'card');
    expect(cardTier.length).toBeGreaterThan(5);
    expect(cardTier.filter((r) => r.status === 'fail')).toEqual([]);
    expect(byId['card.strict-lint']?.status).toBe('pass');
  });

  it('object-format capabilities with string values (seed 000) fail card.capabilities.shape', async () => {
    const card = { ...sampleCard('v0.3'), capabilities: { task: 'Task execution', streaming: 'SSE streaming' } };
    const { byId } = await runCard(serveCard(card));
    const r = byId['card.capabilities.shape']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/capabilities\.streaming: expected a boolean, got string/);
    expect(r.recommendation).toMatch(/object with boolean flags/);
  });

  it('array-format capabilities fail card.capabilities.shape and are still understood', async () => {
    const card = { ...sampleCard('v0.3'), capabilities: [{ type: 'streaming', description: 'SSE streaming' }] };
    const { byId, report } = await runCard(serveCard(card));
    expect(byId['card.capabilities.shape']!.status).toBe('fail');
    expect(byId['card.capabilities.shape']!.message).toMatch(/array/);
    const normalized = report.targets[0]!.normalizedCard as { capabilities: { streaming: boolean } };
    expect(normalized.capabilities.streaming).toBe(true);
  });

  it('a card with no skills field fails card.required-fields with the field named', async () => {
    const card = sampleCard('v1.0');
    delete card.skills;
    const { byId, report } = await runCard(serveCard(card));
    expect(byId['card.required-fields']!.status).toBe('fail');
    expect(byId['card.required-fields']!.message).toMatch(/"skills" is missing/);
    expect(byId['card.skills']!.status).toBe('fail');
    expect(report.conformanceLevel).toBe('non-conformant');
  });

  it('an HTML 404 page at every well-known path fails discovery with each attempt as evidence', async () => {
    const { byId, report, requests } = await runCard(() => new Response('<html><body><h1>404 Not Found</h1></body></html>', { status: 404, headers: { 'content-type': 'text/html' } }), 'http://agent.test/a2a/app');
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/a2a/app/.well-known/agent-card.json',
      '/a2a/app/.well-known/agent.json',
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
    ]);
    expect(requests.every((r) => r.headers.get('a2a-version') === '1.0')).toBe(true);
    const d = byId['card.discovery']!;
    expect(d.status).toBe('fail');
    expect(d.evidence).toHaveLength(4);
    expect(report.conformanceLevel).toBe('non-conformant');
    expect(byId['card.required-fields']!.status).toBe('skip');
  });

  it('an HTML page with status 200 is taken as the answer but fails card.json', async () => {
    const { byId } = await runCard(() => new Response('<!doctype html><title>SPA</title>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(byId['card.discovery']!.status).toBe('pass');
    expect(byId['card.json']!.status).toBe('fail');
    expect(byId['card.json']!.message).toMatch(/not JSON|HTML/);
    expect(byId['card.content-type']!.status).toBe('fail');
  });

  it('a 20 MB body is cut at the read limit and fails card.json without hanging', async () => {
    const big = JSON.stringify({ ...sampleCard('v1.0'), padding: 'x'.repeat(20 * 1024 * 1024) });
    const t0 = Date.now();
    const { byId, events } = await runCard(() => new Response(big, { headers: { 'content-type': 'application/json' } }));
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(byId['card.json']!.status).toBe('fail');
    expect(byId['card.json']!.message).toMatch(/larger than our \d+ byte limit/);
    // The event log keeps only a bounded preview of the body.
    const resp = events.find((e) => e.type === 'http-response' && e.response?.truncated);
    expect(resp && resp.type === 'http-response' && resp.response!.body!.length).toBeLessThan(100 * 1024);
  });

  it('the legacy path is found when agent-card.json is missing, and a v0.3 card there fails card.well-known-path', async () => {
    const { byId, report } = await runCard(serveCard(sampleCard('v0.3'), '/.well-known/agent.json'));
    expect(report.targets[0]!.cardSource).toBe('agent.json');
    expect(byId['card.well-known-path']!.status).toBe('fail');
  });

  it('a card behind auth fails card.public but is read with the credentials', async () => {
    const { host } = fakeHost((req) =>
      req.headers.get('authorization') === 'Bearer s3cret-token' ? json(sampleCard('v1.0')) : new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
    );
    const events: RunEvent[] = [];
    const report = await runConformance(host, { agentUrl: 'http://agent.test', only: CARD_ONLY, credentials: { kind: 'bearer', token: 's3cret-token' } }, (e) => events.push(e));
    const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
    expect(byId['card.public']!.status).toBe('fail');
    expect(byId['card.required-fields']!.status).toBe('pass');
    expect(JSON.stringify(events)).not.toContain('s3cret-token');
    expect(JSON.stringify(report)).not.toContain('s3cret-token');
  });

  it('security checks catch undeclared references, an apiKey without name and oauth2 without tokenUrl', async () => {
    const card = {
      ...sampleCard('v0.3'),
      securitySchemes: {
        key: { type: 'apiKey', in: 'header' },
        oauth: { type: 'oauth2', flows: { clientCredentials: { scopes: {} } } },
      },
      security: [{ key: [] }, { missing: [] }],
    };
    const { byId } = await runCard(serveCard(card));
    expect(byId['card.security.schemes']!.status).toBe('fail');
    expect(byId['card.security.schemes']!.message).toMatch(/apiKey needs "name"/);
    expect(byId['card.security.schemes']!.evidence.map((e) => e.value).join('\n')).toMatch(/clientCredentials needs "tokenUrl"/);
    expect(byId['card.security.references']!.status).toBe('fail');
    expect(byId['card.security.references']!.message).toMatch(/"missing"/);
  });

  it('relative and javascript: URLs fail the URL checks', async () => {
    const card = { ...sampleCard('v0.3'), url: '/rpc', documentationUrl: 'javascript:alert(1)' };
    const { byId } = await runCard(serveCard(card));
    expect(byId['card.urls.endpoint']!.status).toBe('fail');
    expect(byId['card.urls.other']!.status).toBe('fail');
  });

  it('a v1.0 card with v0.3 leftovers fails coherence and the strict lint', async () => {
    const card = { ...sampleCard('v1.0'), url: 'http://agent.test/rpc', preferredTransport: 'JSONRPC', security: [] };
    const { byId } = await runCard(serveCard(card));
    expect(byId['card.protocol.coherence']!.status).toBe('fail');
    expect(byId['card.strict-lint']!.message).toMatch(/"security"/);
  });

  it('caching and Vary: a card that varies by A2A-Version without Vary fails card.vary', async () => {
    const v1 = sampleCard('v1.0');
    const v03 = sampleCard('v0.3');
    const route: Route = (req) => (new URL(req.url).pathname === '/.well-known/agent-card.json' ? json(req.headers.get('a2a-version') ? v1 : v03) : new Response('', { status: 404 }));
    const { byId } = await runCard(route);
    expect(byId['card.vary']!.status).toBe('fail');
    expect(byId['card.caching']!.status).toBe('fail');
    const withVary: Route = (req) =>
      new URL(req.url).pathname === '/.well-known/agent-card.json'
        ? json(req.headers.get('a2a-version') ? v1 : v03, { headers: { vary: 'A2A-Version', 'cache-control': 'public, max-age=3600', etag: '"1"' } })
        : new Response('', { status: 404 });
    const again = await runCard(withVary);
    expect(again.byId['card.vary']!.status).toBe('pass');
    expect(again.byId['card.caching']!.status).toBe('pass');
  });

  it('an invalid URL gives a clear failure, not a crash', async () => {
    const { byId } = await runCard(() => json({}), 'ftp://nope');
    expect(byId['card.discovery']!.status).toBe('fail');
    expect(byId['card.discovery']!.message).toMatch(/absolute http\(s\) URL/);
  });
});

describe('normalizing never hides a problem', () => {
  const broken: Record<string, unknown>[] = [
    { ...sampleCard('v0.3'), capabilities: ['streaming'] },
    { ...sampleCard('v0.3'), capabilities: { streaming: 'yes', pushNotifications: 1 } },
    { ...sampleCard('v0.3'), skills: 'all of them' },
    { ...sampleCard('v0.3'), skills: [{ id: 7, name: null, tags: 'x' }, 'junk'] },
    { ...sampleCard('v0.3'), defaultInputModes: 'text/plain', defaultOutputModes: [1, 2] },
    { ...sampleCard('v0.3'), name: 42, version: { major: 1 } },
    { ...sampleCard('v0.3'), securitySchemes: [], security: 'none' },
    { ...sampleCard('v1.0'), supportedInterfaces: [{ url: 5 }, 'x'] },
  ];
  it.each(broken.map((c, i) => [i, c] as const))('broken card %i: every fix-up makes its check fail', async (_i, card) => {
    const fixups = normalizeCard(card).fixups;
    expect(fixups.length).toBeGreaterThan(0);
    const { byId } = await runCard(serveCard(card));
    for (const f of fixups) {
      expect(byId[f.checkId], `${f.checkId} for ${f.path}`).toBeDefined();
      expect(byId[f.checkId]!.status, `${f.checkId} must fail for ${f.path}: ${f.note}`).toBe('fail');
    }
  });
});
