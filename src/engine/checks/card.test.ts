// A list of independent test cases (describe blocks per check), long by nature: each case stands on its own.
import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard, type Route } from '../../testing/fake-host';
import { fixupApplies, normalizeCard } from '../card/normalize';
import type { CheckResult } from '../model/check';
import type { RunEvent } from '../model/events';
import { runConformance } from '../runner/run';
import type { Credentials } from '../model/credentials';
import { reportResults } from '../report/build';
import type { Limits } from '../http/client';
import { timerSleep } from '../ports';
import { cardChecks, endpointUrlProblem, strictLint } from './card';

const CARD_ONLY = cardChecks.map((c) => c.id);

async function runCard(route: Route, agentUrl = 'http://agent.test', extra: { timeoutMs?: number; credentials?: Credentials; limits?: Partial<Limits> } = {}) {
  // No real waiting between discovery's warm-up retries (short sleeps); request deadlines keep real timers.
  const { host, requests } = fakeHost(route, { sleep: (ms, signal) => (ms < 5_000 ? Promise.resolve() : timerSleep(ms, signal)) });
  const events: RunEvent[] = [];
  const report = await runConformance(host, { agentUrl, only: CARD_ONLY, ...extra }, (e) => events.push(e));
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
  return { report, byId, events, requests };
}

const serveCard =
  (card: unknown, path = '/.well-known/agent-card.json', headers: Record<string, string> = {}): Route =>
  (req) =>
    new URL(req.url).pathname === path ? json(card, { headers }) : new Response('not found', { status: 404 });

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
    // Only the card checks ran: their results, no level (a level is a claim about the whole suite).
    expect(report.conformanceLevel).toBeNull();
    expect(report.levelReason).toMatch(/^Selected checks only \(\d+\): \d+ pass, [1-9]\d* fail/);
  });

  it('an HTML 404 page at every well-known path fails discovery with each attempt as evidence', async () => {
    const { byId, report, requests } = await runCard(
      () => new Response('<html><body><h1>404 Not Found</h1></body></html>', { status: 404, headers: { 'content-type': 'text/html' } }),
      'http://agent.test/a2a/app',
    );
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual([
      '/a2a/app/.well-known/agent-card.json',
      '/a2a/app/.well-known/agent.json',
      '/.well-known/agent-card.json',
      '/.well-known/agent.json',
    ]);
    expect(requests.every((r) => r.headers.get('a2a-version') === '1.0')).toBe(true);
    const d = byId['card.discovery']!;
    expect(d.status).toBe('fail');
    expect(d.message).toMatch(/No card found at the well-known paths \(404, 404, 404, 404\).*if the card is served elsewhere, give its URL/);
    expect(d.evidence).toHaveLength(4);
    // The tool cannot tell absence from another location: no level (the report says "not assessed").
    expect(report.conformanceLevel).toBeNull();
    expect(byId['card.required-fields']!.status).toBe('skip');
  });

  it('an HTML page with status 200 is taken as the answer but fails card.json', async () => {
    const { byId } = await runCard(() => new Response('<!doctype html><title>SPA</title>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(byId['card.discovery']!.status).toBe('pass');
    expect(byId['card.json']!.status).toBe('fail');
    expect(byId['card.json']!.message).toMatch(/not JSON|HTML/);
    // RFC 9110 §8.3 asks only for a Content-Type: text/html is a remark (advisory), not a failure.
    expect(byId['card.content-type']!.status).toBe('advisory');
  });

  it('a 20 MB body is cut at the read limit: a tool limit (skip), not a defect of the card, and no hang', async () => {
    const big = JSON.stringify({ ...sampleCard('v1.0'), padding: 'x'.repeat(20 * 1024 * 1024) });
    const t0 = Date.now();
    const { byId, events } = await runCard(() => new Response(big, { headers: { 'content-type': 'application/json' } }));
    expect(Date.now() - t0).toBeLessThan(10_000);
    // Changed: was a card.json failure; a card larger than our read limit is our limit, not the agent's defect.
    expect(byId['card.json']!.status).toBe('skip');
    expect(byId['card.json']!.skipKind).toBe('tool-limit');
    expect(byId['card.json']!.message).toMatch(/larger than this tool reads \(5242880 bytes, 5 MiB, a fixed limit/);
    expect(byId['card.json']!.evidence.map((e) => e.label)).toEqual(['card response (cut)']);
    // The event log keeps only a bounded preview of the body.
    const resp = events.find((e) => e.type === 'http-response' && e.response?.truncated);
    expect(resp && resp.type === 'http-response' && resp.response!.body!.length).toBeLessThan(100 * 1024);
  });

  it('the legacy path is found when agent-card.json is missing; a v0.3 card there is an advisory (the location is only recommended)', async () => {
    const { byId, report } = await runCard(serveCard(sampleCard('v0.3'), '/.well-known/agent.json'));
    expect(report.targets[0]!.cardSource).toBe('agent.json');
    expect(byId['card.well-known-path']!.status).toBe('advisory');
    expect(byId['card.well-known-path']!.level).toBe('MAY');
    expect(byId['card.well-known-path']!.message).toMatch(/recommended, not required/);
  });

  it('a card behind auth is permitted (card.public is an advisory) and is read with the credentials', async () => {
    const { host } = fakeHost((req) =>
      req.headers.get('authorization') === 'Bearer s3cret-token'
        ? json(sampleCard('v1.0'))
        : new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
    );
    const events: RunEvent[] = [];
    const report = await runConformance(host, { agentUrl: 'http://agent.test', only: CARD_ONLY, credentials: { kind: 'bearer', token: 's3cret-token' } }, (e) =>
      events.push(e),
    );
    const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
    expect(byId['card.public']!.status).toBe('advisory');
    expect(byId['card.public']!.level).toBe('MAY');
    expect(byId['card.public']!.message).toMatch(/This is permitted \(v0\.x §5\.4.*clients that discover agents without credentials cannot read it/);
    expect(byId['card.public']!.recommendation).toMatch(/permitted/);
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

  it('a relative endpoint URL fails; a javascript: documentation URL is an advisory (described, not required)', async () => {
    const card = { ...sampleCard('v0.3'), url: '/rpc', documentationUrl: 'javascript:alert(1)' };
    const { byId } = await runCard(serveCard(card));
    expect(byId['card.urls.endpoint']!.status).toBe('fail');
    expect(byId['card.urls.other']!.status).toBe('advisory');
    expect(byId['card.urls.other']!.message).toMatch(/documentationUrl="javascript:alert\(1\)"/);
  });

  it('a dual v0.3/v1.0 card (v0.3 fields beside supportedInterfaces) is permitted: coherence and the lint are advisories', async () => {
    // As @a2a-js/sdk toCompatAgentCard({embedV1Interfaces: true}) emits it; v1.0 receivers ignore unrecognized fields (§5.7).
    const card = { ...sampleCard('v1.0'), url: 'http://agent.test/rpc', preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', security: [] };
    const { byId, report } = await runCard(serveCard(card));
    expect(report.protocol.generation).toBe('v1.0');
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/v0\.3 top-level fields beside supportedInterfaces: protocolVersion, preferredTransport, url/);
    expect(r.message).not.toMatch(/a2a-js treats/);
    expect(r.advisoryReason).toMatch(/§5\.7/);
    expect(byId['card.strict-lint']!.status).toBe('advisory');
    expect(byId['card.strict-lint']!.message).toMatch(/"security"/);
    expect(byId['card.strict-lint']!.evidence.map((e) => e.value).join('\n')).toMatch(/§8\.5 sample card uses "security" too/);
  });

  it('caching and Vary: a card that varies by A2A-Version without Vary fails card.vary', async () => {
    const v1 = sampleCard('v1.0');
    const v03 = sampleCard('v0.3');
    const route: Route = (req) =>
      new URL(req.url).pathname === '/.well-known/agent-card.json' ? json(req.headers.get('a2a-version') ? v1 : v03) : new Response('', { status: 404 });
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
    { ...sampleCard('v0.3'), capabilities: { stateTransitionHistory: 'no', extendedAgentCard: 'yes', extensions: [{ description: 5 }] } },
    { ...sampleCard('v1.0'), capabilities: { extendedAgentCard: 'yes', stateTransitionHistory: 'no', extensions: [{ required: 'yes' }] } },
    { ...sampleCard('legacy'), capabilities: { streaming: 'on', extensions: 'bogus' }, authentication: { schemes: 'bearer' } },
  ];
  it.each(broken.map((c, i) => [i, c] as const))('broken card %i: every fix-up makes its check fail', async (_i, card) => {
    const { byId, report } = await runCard(serveCard(card));
    // Only the repairs that are defects in the card's generation (Fixup.only) must fail a check.
    const fixups = normalizeCard(card).fixups.filter((f) => fixupApplies(f, report.protocol.generation!));
    expect(fixups.length).toBeGreaterThan(0);
    for (const f of fixups) {
      expect(byId[f.checkId], `${f.checkId} for ${f.path}`).toBeDefined();
      expect(byId[f.checkId]!.status, `${f.checkId} must fail for ${f.path}: ${f.note}`).toBe('fail');
    }
  });
});

/** One result of a card served at the well-known path (v0.3/v1.0) or the legacy path. */
async function judgeCard(card: Record<string, unknown>, path = '/.well-known/agent-card.json', headers: Record<string, string> = {}) {
  const { byId, report, requests } = await runCard(serveCard(card, path, headers));
  return { byId, generation: report.protocol.generation, requests };
}

const v03 = () => sampleCard('v0.3');
const v1 = () => sampleCard('v1.0');
const legacy = () => sampleCard('legacy');
const LEGACY_PATH = '/.well-known/agent.json';

describe('card.discovery: only a card that is not there fails', () => {
  const refuseAll: Route = () => new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } });

  it('a card refused with 401 and no credentials given is not assessed (skip: credentials), not a failure', async () => {
    const { byId, report } = await runCard(refuseAll);
    const d = byId['card.discovery']!;
    expect(d.status).toBe('skip');
    expect(d.skipKind).toBe('credentials');
    expect(d.message).toMatch(/refused without credentials \(HTTP 401, 401\).*permitted \(v0\.x §5\.4/);
    expect(report.conformanceLevel).toBeNull();
    expect(report.notAssessed?.reason).toBe('credentials-required');
  });

  it('a card refused with the credentials given too is skipped as credentials-rejected', async () => {
    const { byId, report } = await runCard(refuseAll, 'http://agent.test', { credentials: { kind: 'bearer', token: 'wrong-token' } });
    const d = byId['card.discovery']!;
    expect(d.status).toBe('skip');
    expect(d.skipKind).toBe('credentials');
    expect(d.message).toMatch(/refused without and with the credentials given/);
    expect(report.notAssessed?.reason).toBe('credentials-rejected');
  });

  it('a protected card path beside an SPA page at another path: the page is not taken as the card', async () => {
    // /a2a/.well-known/* sits behind auth middleware; the root answers every path with index.html.
    const route: Route = (req) =>
      new URL(req.url).pathname.startsWith('/a2a/')
        ? new Response('no', { status: 401 })
        : new Response('<!doctype html><title>SPA</title>', { status: 200, headers: { 'content-type': 'text/html' } });
    const { byId, report } = await runCard(route, 'http://agent.test/a2a');
    expect(byId['card.discovery']!.status).toBe('skip');
    expect(byId['card.discovery']!.skipKind).toBe('credentials');
    expect(byId['card.json']!.status).toBe('skip');
    expect(report.notAssessed?.reason).toBe('credentials-required');
  });

  it('nothing accepting a connection is skipped as unreachable, not failed', async () => {
    const refused: Route = () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:9' } });
    };
    const { byId, report } = await runCard(refused);
    const d = byId['card.discovery']!;
    expect(d.status).toBe('skip');
    expect(d.skipKind).toBe('unreachable');
    expect(d.message).toMatch(/Nothing answered at any candidate URL \(Could not connect/);
    expect(report.notAssessed?.reason).toBe('unreachable');
  });

  it('no answer within our per-request budget is a tool limit (skip), not a missing card', async () => {
    const silent: Route = (req) =>
      new Promise<Response>((_, reject) => req.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
    const { byId } = await runCard(silent, 'http://agent.test', { limits: { requestTimeoutMs: 50 } });
    const d = byId['card.discovery']!;
    expect(d.status).toBe('skip');
    expect(d.skipKind).toBe('tool-limit');
    expect(d.message).toMatch(/within this tool's per-request budget \(50 ms, a fixed limit\)/);
  });

  it('a card URL given directly that answers 404 fails with a message naming that URL', async () => {
    const { byId } = await runCard(() => new Response('nope', { status: 404 }), 'http://agent.test/cards/my-agent.json');
    expect(byId['card.discovery']!.status).toBe('fail');
    expect(byId['card.discovery']!.message).toMatch(/No card at the URL given \(404\)/);
  });
});

describe('card.json', () => {
  it('a byte order mark stays a failure, quoting RFC 8259', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify(v03()))]);
    const { byId } = await runCard(() => new Response(body, { headers: { 'content-type': 'application/json' } }));
    expect(byId['card.json']!.status).toBe('fail');
    expect(byId['card.json']!.message).toMatch(/byte order mark \(RFC 8259 §8\.1: implementations MUST NOT add one/);
  });
});

describe('card.required-fields: presence and type are required, content is advice', () => {
  it('an empty required string (v0.3 description) is an advisory, not a failure', async () => {
    const { byId } = await judgeCard({ ...v03(), description: '' });
    const r = byId['card.required-fields']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/"description" is empty/);
    expect(r.advisoryReason).toMatch(/presence and type only/);
  });

  it('a missing field still fails, and an empty one is named as advice beside it', async () => {
    const card: Record<string, unknown> = { ...v03(), description: '' };
    delete card.version;
    const { byId } = await judgeCard(card);
    const r = byId['card.required-fields']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/Required fields are missing or mistyped: "version" is missing\. Not required, advice only: "description" is empty/);
  });

  it('legacy provider: null is read as absent (v0.1.0 types it `AgentProvider | null`)', async () => {
    const { byId, generation } = await judgeCard({ ...legacy(), provider: null, description: null, documentationUrl: null }, LEGACY_PATH);
    expect(generation).toBe('legacy');
    expect(byId['card.required-fields']!.status).toBe('pass');
    expect(byId['card.strict-lint']!.status).toBe('pass');
  });

  it('v0.3 provider: null is a type error (the v0.3 schema has no null)', async () => {
    const { byId } = await judgeCard({ ...v03(), provider: null });
    expect(byId['card.required-fields']!.status).toBe('fail');
    expect(byId['card.required-fields']!.message).toMatch(/"provider" should be an object, got null/);
  });

  it('v1.0 snake_case names fail with the camelCase rule named, not only "missing"', async () => {
    const card = v1();
    card.default_input_modes = card.defaultInputModes;
    delete card.defaultInputModes;
    const { byId } = await judgeCard(card);
    expect(byId['card.required-fields']!.status).toBe('fail');
    expect(byId['card.required-fields']!.message).toMatch(
      /"defaultInputModes" is missing \(the card uses the proto name "default_input_modes"; v1\.0 §5\.5: JSON field names MUST be camelCase\)/,
    );
  });

  it('a v0.2.0-0.2.4 card without protocolVersion passes and says protocolVersion was not judged', async () => {
    const card: Record<string, unknown> = { ...v03(), securitySchemes: {} };
    delete card.protocolVersion;
    delete card.preferredTransport;
    const { byId, generation } = await judgeCard(card);
    expect(generation).toBe('v0.2');
    expect(byId['card.required-fields']!.status).toBe('pass');
    expect(byId['card.required-fields']!.message).toMatch(/protocolVersion is absent: v0\.2\.6 requires it, but v0\.2\.0-0\.2\.4 cards lack it/);
  });
});

describe('card.capabilities.shape: only the members of the generation are judged', () => {
  it('a vendor capability with an object value passes (schemas are open; v1.0 §5.7 ignore unknown fields)', async () => {
    for (const card of [
      { ...v03(), capabilities: { streaming: true, 'x-rateLimit': { rpm: 60 } } },
      { ...v1(), capabilities: { streaming: true, 'x-rateLimit': { rpm: 60 } } },
    ]) {
      const { byId } = await judgeCard(card);
      expect(byId['card.capabilities.shape']!.status).toBe('pass');
      expect(byId['card.strict-lint']!.status).toBe('advisory');
      expect(byId['card.strict-lint']!.message).toMatch(/unknown capability "x-rateLimit"/);
    }
  });

  it('v1.0 extensions without uri pass (uri is not REQUIRED in the v1.0 proto); v0.3 ones fail (schema required)', async () => {
    const ext = { extensions: [{ description: 'no uri', required: false }] };
    const a = await judgeCard({ ...v1(), capabilities: { streaming: true, ...ext } });
    expect(a.byId['card.capabilities.shape']!.status).toBe('pass');
    const b = await judgeCard({ ...v03(), capabilities: { streaming: true, ...ext } });
    expect(b.byId['card.capabilities.shape']!.status).toBe('fail');
    expect(b.byId['card.capabilities.shape']!.message).toMatch(/capabilities\.extensions\[0\]\.uri: missing/);
  });

  it('the capabilities object is the evidence, pointing at its field', async () => {
    const { byId } = await judgeCard(v1());
    expect(byId['card.capabilities.shape']!.evidence).toEqual([
      { label: 'capabilities', value: '{"streaming":true,"pushNotifications":false}', path: 'capabilities' },
    ]);
  });

  it('a legacy card with a malformed "extensions" passes (not a v0.1.0 member)', async () => {
    const { byId, generation } = await judgeCard({ ...legacy(), capabilities: { streaming: false, extensions: 'none' } }, LEGACY_PATH);
    expect(generation).toBe('legacy');
    expect(byId['card.capabilities.shape']!.status).toBe('pass');
  });

  it('stateTransitionHistory is judged up to v0.3 only; extendedAgentCard in v1.0 only', async () => {
    const a = await judgeCard({ ...v1(), capabilities: { streaming: true, stateTransitionHistory: 'yes' } });
    expect(a.byId['card.capabilities.shape']!.status).toBe('pass');
    const b = await judgeCard({ ...v03(), capabilities: { streaming: true, stateTransitionHistory: 'yes' } });
    expect(b.byId['card.capabilities.shape']!.status).toBe('fail');
    expect(b.byId['card.capabilities.shape']!.message).toMatch(/capabilities\.stateTransitionHistory: expected a boolean/);
    const c = await judgeCard({ ...v03(), capabilities: { streaming: true, extendedAgentCard: 'yes' } });
    expect(c.byId['card.capabilities.shape']!.status).toBe('pass');
    const d = await judgeCard({ ...v1(), capabilities: { streaming: true, extendedAgentCard: 'yes' } });
    expect(d.byId['card.capabilities.shape']!.status).toBe('fail');
  });
});

describe('card.skills: presence and type are required; empty strings, duplicate ids and empty v1.0 tags are advice', () => {
  const skill = { id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'] };

  it('an empty skill description is an advisory', async () => {
    const { byId } = await judgeCard({ ...v03(), skills: [{ ...skill, description: '' }] });
    expect(byId['card.skills']!.status).toBe('advisory');
    expect(byId['card.skills']!.message).toMatch(/skills\[0\]\.description is empty/);
  });

  it('duplicate skill ids are an advisory (uniqueness is described without a requirement word)', async () => {
    const { byId } = await judgeCard({ ...v1(), skills: [skill, { ...skill, name: 'Echo 2' }] });
    expect(byId['card.skills']!.status).toBe('advisory');
    expect(byId['card.skills']!.message).toMatch(/skill id "echo" is used twice/);
  });

  it('a missing description still fails, with the advice named beside it', async () => {
    const { byId } = await judgeCard({
      ...v03(),
      skills: [
        { id: 'a', name: 'A', tags: [] },
        { ...skill, id: 'a' },
      ],
    });
    expect(byId['card.skills']!.status).toBe('fail');
    expect(byId['card.skills']!.message).toMatch(/skills\[0\]\.description is missing\. Not required, advice only: skill id "a" is used twice/);
  });

  it('v1.0 empty tags are an advisory naming both passages (§5.7 vs §8.4.1)', async () => {
    const { byId } = await judgeCard({ ...v1(), skills: [{ ...skill, tags: [] }] });
    expect(byId['card.skills']!.status).toBe('advisory');
    expect(byId['card.skills']!.message).toMatch(/tags is empty \(v1\.0 §5\.7.*§8\.4\.1/);
  });

  it('legacy skills with null optional fields pass', async () => {
    const { byId } = await judgeCard(
      { ...legacy(), skills: [{ id: 'echo', name: 'Echo', description: null, tags: null, examples: null, inputModes: null, outputModes: null }] },
      LEGACY_PATH,
    );
    expect(byId['card.skills']!.status).toBe('pass');
    expect(byId['card.modes']!.status).toBe('pass');
  });
});

describe('card.modes', () => {
  it('empty default modes: advisory in v0.3 (no minItems), failure in v1.0 (§5.7)', async () => {
    const a = await judgeCard({ ...v03(), defaultInputModes: [] });
    expect(a.byId['card.modes']!.status).toBe('advisory');
    expect(a.byId['card.modes']!.message).toMatch(/defaultInputModes is empty/);
    const b = await judgeCard({ ...v1(), defaultInputModes: [] });
    expect(b.byId['card.modes']!.status).toBe('fail');
    expect(b.byId['card.modes']!.message).toMatch(/defaultInputModes is empty \(v1\.0 §5\.7/);
  });

  it('empty skill modes pass in every generation (optional; in ProtoJSON the same as absent)', async () => {
    for (const base of [v03(), v1()]) {
      const { byId } = await judgeCard({ ...base, skills: [{ id: 'echo', name: 'Echo', description: 'd', tags: ['t'], inputModes: [], outputModes: [] }] });
      expect(byId['card.modes']!.status).toBe('pass');
    }
  });

  it('null skill modes: the defaults apply in legacy and v1.0; a type error in v0.3', async () => {
    const s = { id: 'echo', name: 'Echo', description: 'd', tags: ['t'], inputModes: null };
    const a = await judgeCard({ ...v1(), skills: [s] });
    expect(a.byId['card.modes']!.status).toBe('pass');
    const b = await judgeCard({ ...v03(), skills: [s] });
    expect(b.byId['card.modes']!.status).toBe('fail');
    expect(b.byId['card.modes']!.message).toMatch(/skills\[0\]\.inputModes should be a list, got null/);
  });
});

describe('card.modes.media-types (MAY)', () => {
  it('media ranges such as */* and image/* are media types', async () => {
    const { byId } = await judgeCard({ ...v03(), defaultInputModes: ['*/*', 'image/*', 'text/plain; charset=utf-8'] });
    expect(byId['card.modes.media-types']!.status).toBe('pass');
  });
  it('a shorthand such as "text" is an advisory', async () => {
    const { byId } = await judgeCard({ ...v03(), defaultOutputModes: ['text'] });
    expect(byId['card.modes.media-types']!.status).toBe('advisory');
    expect(byId['card.modes.media-types']!.level).toBe('MAY');
  });
});

describe('card.urls.oauth (MUST) and card.urls.other (MAY)', () => {
  const oauth = (flows: Record<string, unknown>, v1Wrapper = false) =>
    v1Wrapper ? { oauth: { oauth2SecurityScheme: { flows } } } : { oauth: { type: 'oauth2', flows } };

  it('a v0.3 OAuth token URL that is a relative path fails card.urls.oauth at MUST', async () => {
    const { byId } = await judgeCard({ ...v03(), securitySchemes: oauth({ clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } }) });
    const r = byId['card.urls.oauth']!;
    expect(r.status).toBe('fail');
    expect(r.level).toBe('MUST');
    expect(r.message).toMatch(/securitySchemes\.oauth\.flows\.clientCredentials\.tokenUrl="\/oauth\/token" is not a URL/);
  });

  it('a v0.3 authorization-code URL over plain http is an advisory (TLS)', async () => {
    const { byId } = await judgeCard({
      ...v03(),
      securitySchemes: oauth({
        authorizationCode: { authorizationUrl: 'http://localhost:8080/authorize', tokenUrl: 'http://localhost:8080/token', scopes: {} },
      }),
    });
    expect(byId['card.urls.oauth']!.status).toBe('advisory');
    expect(byId['card.urls.oauth']!.message).toMatch(/does not use TLS/);
  });

  it('v1.0: a relative client-credentials token URL is an advisory; a relative password-flow one fails', async () => {
    const a = await judgeCard({ ...v1(), securitySchemes: oauth({ clientCredentials: { tokenUrl: '/token', scopes: {} } }, true) });
    expect(a.byId['card.urls.oauth']!.status).toBe('advisory');
    const b = await judgeCard({ ...v1(), securitySchemes: oauth({ password: { tokenUrl: '/token', scopes: {} } }, true) });
    expect(b.byId['card.urls.oauth']!.status).toBe('fail');
    expect(b.byId['card.urls.oauth']!.message).toMatch(/v1\.0 implicit and password flows say/);
  });

  it('absolute OAuth URLs pass, and a mailto: provider URL stays an advisory of card.urls.other', async () => {
    const { byId } = await judgeCard({
      ...v03(),
      provider: { organization: 'Acme', url: 'mailto:ops@acme.test' },
      securitySchemes: oauth({ clientCredentials: { tokenUrl: 'https://auth.acme.test/token', scopes: {} } }),
    });
    expect(byId['card.urls.oauth']!.status).toBe('pass');
    expect(byId['card.urls.other']!.status).toBe('advisory');
  });
});

describe('card.security.schemes', () => {
  it('v1.0 deprecated implicit/password flows require nothing: an advisory that they are deprecated', async () => {
    const { byId } = await judgeCard({ ...v1(), securitySchemes: { pw: { oauth2SecurityScheme: { flows: { password: {} } } } } });
    const r = byId['card.security.schemes']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/flows\.password is deprecated in v1\.0/);
  });

  it('the same v0.3 password flow without tokenUrl and scopes fails (the v0.3 schema requires them)', async () => {
    const { byId } = await judgeCard({ ...v03(), securitySchemes: { pw: { type: 'oauth2', flows: { password: {} } } } });
    expect(byId['card.security.schemes']!.status).toBe('fail');
    expect(byId['card.security.schemes']!.message).toMatch(/flows\.password needs "tokenUrl"/);
  });

  it('an unknown OAuth flow name and an empty flows object are advisories', async () => {
    const { byId } = await judgeCard({
      ...v03(),
      securitySchemes: { a: { type: 'oauth2', flows: { deviceCode: { tokenUrl: 'https://x.test/t', scopes: {} } } }, b: { type: 'oauth2', flows: {} } },
    });
    const r = byId['card.security.schemes']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/flows\.deviceCode is not a v0\.3 OAuth flow/);
    expect(r.message).toMatch(/declares no flow/);
  });

  it('legacy authentication: null is absent', async () => {
    const { byId, generation } = await judgeCard({ ...legacy(), authentication: null }, LEGACY_PATH);
    expect(generation).toBe('legacy');
    expect(byId['card.security.schemes']!.status).toBe('skip');
  });

  it('apiKey location case: "Header" is an advisory in v1.0 (proto comment) and a failure in v0.3 (schema enum)', async () => {
    const a = await judgeCard({ ...v1(), securitySchemes: { k: { apiKeySecurityScheme: { location: 'Header', name: 'X-Key' } } } });
    expect(a.byId['card.security.schemes']!.status).toBe('advisory');
    const b = await judgeCard({ ...v03(), securitySchemes: { k: { type: 'apiKey', in: 'Header', name: 'X-Key' } } });
    expect(b.byId['card.security.schemes']!.status).toBe('fail');
    expect(b.byId['card.security.schemes']!.message).toMatch(/apiKey "in" must be "header", "query" or "cookie", got "Header"/);
  });

  it('v1.0 missing scopes fails and says why serializers drop it', async () => {
    const { byId } = await judgeCard({
      ...v1(),
      securitySchemes: { cc: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://x.test/t' } } } } },
    });
    expect(byId['card.security.schemes']!.status).toBe('fail');
    expect(byId['card.security.schemes']!.message).toMatch(/needs "scopes".*ProtoJSON serializers drop an empty map/);
  });
});

describe('card.protocol.coherence (MUST) and card.protocol.conventions (SHOULD)', () => {
  it('a v0.3 card serving gRPC and JSON-RPC on one URL is permitted (§5.6.2 MAY reuse URLs): advisory', async () => {
    const card = {
      ...v03(),
      additionalInterfaces: [
        { url: 'http://agent.test/rpc', transport: 'JSONRPC' },
        { url: 'http://agent.test/rpc', transport: 'GRPC' },
      ],
    };
    const { byId } = await judgeCard(card);
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/URL http:\/\/agent\.test\/rpc is declared with several transports \(JSONRPC, GRPC\); permitted/);
  });

  it('a v0.3 card without preferredTransport is an advisory (§5.6.1 REQUIRED vs schema default "JSONRPC"), as the spec note promises', async () => {
    const { preferredTransport: _p, ...card } = v03() as Record<string, unknown>;
    const { byId } = await judgeCard(card);
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(
      /preferredTransport is missing \(v0\.3\.0 §5\.6\.1 says it is REQUIRED and MUST be present; the schema makes it optional with default "JSONRPC"/,
    );
    expect(r.advisoryReason).toMatch(/§5\.6\.1 \(REQUIRED\) and the schema \(optional, default "JSONRPC"\) contradict each other/);
    // v0.2 has no such sentence: nothing to advise.
    const { byId: v02 } = await judgeCard({ ...card, protocolVersion: '0.2.6' });
    expect(v02['card.protocol.coherence']!.status).toBe('pass');
  });

  it('a custom v0.3 preferredTransport is an advisory (§5.5.5 additional values MAY be used), also in the lint', async () => {
    const card = {
      ...v03(),
      preferredTransport: 'WEBSOCKET',
      url: 'ws://agent.test/ws',
      additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'JSONRPC' }],
    };
    const { byId } = await judgeCard(card);
    expect(byId['card.protocol.coherence']!.status).toBe('advisory');
    expect(byId['card.protocol.coherence']!.message).toMatch(/a custom transport; clients may not support it/);
    expect(byId['card.strict-lint']!.message ?? '').not.toMatch(/preferredTransport/);
  });

  it('a v1.0 patch version and a lower-case binding fail card.protocol.conventions at SHOULD, not coherence', async () => {
    const card = { ...v1(), supportedInterfaces: [{ url: 'http://agent.test/rpc', protocolBinding: 'jsonrpc', protocolVersion: '1.0.1' }] };
    const { byId } = await judgeCard(card);
    expect(byId['card.protocol.coherence']!.status).toBe('pass');
    const r = byId['card.protocol.conventions']!;
    expect(r.status).toBe('fail');
    expect(r.level).toBe('SHOULD');
    expect(r.tier).toBe('optional');
    expect(r.message).toMatch(/spelled "jsonrpc"; the core binding is "JSONRPC"/);
    expect(r.message).toMatch(/"1\.0\.1" has a patch number \(v1\.0 §3\.6/);
  });

  it('a custom v1.0 binding identified by a URI passes card.protocol.conventions', async () => {
    const card = {
      ...v1(),
      supportedInterfaces: [
        ...(v1().supportedInterfaces as unknown[]),
        { url: 'wss://agent.test/ws', protocolBinding: 'https://example.com/bindings/websocket/v1', protocolVersion: '1.0' },
      ],
    };
    const { byId } = await judgeCard(card);
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
    expect(byId['card.urls.endpoint']!.status).toBe('pass');
  });

  it('a v1.0 interface without protocolVersion, or with the v0.3 name "transport", fails coherence', async () => {
    const card = {
      ...v1(),
      supportedInterfaces: [
        { url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://agent.test/rest', transport: 'HTTP+JSON' },
      ],
    };
    const { byId } = await judgeCard(card);
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/supportedInterfaces\[1\]\.protocolBinding is missing \(REQUIRED; the entry uses the v0\.3 name "transport"\)/);
    expect(r.message).toMatch(/supportedInterfaces\[1\]\.protocolVersion is missing/);
  });
});

describe('card.vary: only a difference caused by A2A-Version counts', () => {
  const atCard = (req: Request) => new URL(req.url).pathname === '/.well-known/agent-card.json';

  it('a card signed per request (ES256 signatures differ every time) is the same card', async () => {
    let n = 0;
    const route: Route = (req) =>
      atCard(req)
        ? json({ ...v1(), signatures: [{ protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0', signature: `sig${++n}` }] })
        : new Response('', { status: 404 });
    const { byId } = await runCard(route);
    expect(byId['card.vary']!.status).toBe('pass');
    expect(byId['card.vary']!.message).toMatch(/same with and without A2A-Version/);
  });

  it('a different key order is the same card', async () => {
    const card = v1();
    const reversed = Object.fromEntries(Object.entries(card).reverse());
    const route: Route = (req) => (atCard(req) ? json(req.headers.get('a2a-version') ? card : reversed) : new Response('', { status: 404 }));
    const { byId } = await runCard(route);
    expect(byId['card.vary']!.status).toBe('pass');
  });

  it('a card that changes on every request cannot be judged (skip), not failed', async () => {
    let n = 0;
    const route: Route = (req) => (atCard(req) ? json({ ...v1(), version: `1.0.${++n}` }) : new Response('', { status: 404 }));
    const { byId } = await runCard(route);
    expect(byId['card.vary']!.status).toBe('skip');
    expect(byId['card.vary']!.message).toMatch(/differs between two identical requests/);
    expect(byId['card.vary']!.evidence.map((e) => e.label)).toEqual(['with A2A-Version: 1.0', 'with A2A-Version: 1.0, again']);
  });

  it('a non-cacheable card (Cache-Control: no-store) needs no Vary', async () => {
    const route: Route = (req) =>
      atCard(req) ? json(req.headers.get('a2a-version') ? v1() : v03(), { headers: { 'cache-control': 'no-store' } }) : new Response('', { status: 404 });
    const { byId } = await runCard(route);
    expect(byId['card.vary']!.status).toBe('pass');
    expect(byId['card.vary']!.message).toMatch(/not cacheable/);
  });
});

describe('card.signatures', () => {
  const b64 = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

  it('v0.3: "alg" in the unprotected header is accepted (the JOSE header is the union, RFC 7515 §4)', async () => {
    const { byId } = await judgeCard({ ...v03(), signatures: [{ protected: b64({ kid: 'k1' }), header: { alg: 'ES256' }, signature: 'c2ln' }] });
    expect(byId['card.signatures']!.status).toBe('pass');
  });

  it('v1.0: "alg" must be in the protected header (§8.4.2)', async () => {
    const { byId } = await judgeCard({ ...v1(), signatures: [{ protected: b64({ kid: 'k1' }), header: { alg: 'ES256' }, signature: 'c2ln' }] });
    expect(byId['card.signatures']!.status).toBe('fail');
    expect(byId['card.signatures']!.message).toMatch(/no "alg" in its protected header \(v1\.0 §8\.4\.2 MUST\)/);
  });
});

describe('card.strict-lint is portability advice (MAY)', () => {
  it('unknown fields make an advisory, never a failure', async () => {
    const { byId } = await judgeCard({ ...v03(), 'x-vendor': { a: 1 } });
    expect(byId['card.strict-lint']!.status).toBe('advisory');
    expect(byId['card.strict-lint']!.level).toBe('MAY');
    expect(byId['card.strict-lint']!.message).toMatch(/unknown top-level field "x-vendor"/);
  });
});

/* ------------------------------------------------------------------------------------------------------------
 * Findings named precisely (mutation testing, docs/mutation.md): each test below serves a card variant a real
 * agent could serve and asserts the status AND the finding, so a check that reports another problem fails.
 * ---------------------------------------------------------------------------------------------------------- */

/** One check's result for a card served at the well-known path (or `path`). */
async function resultOf(id: string, card: Record<string, unknown>, path?: string) {
  const { byId } = await judgeCard(card, path);
  return byId[id]!;
}

const AUTH = 'https://auth.acme.test/oauth2/authorize';
const TOKEN = 'https://auth.acme.test/oauth2/token';
const OIDC = 'https://auth.acme.test/.well-known/openid-configuration';

describe('card.security.schemes: each scheme type, each flow, each generation', () => {
  it('complete v0.3 schemes of every type pass, and their URLs and references too', async () => {
    const card = {
      ...v03(),
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        oidc: { type: 'openIdConnect', openIdConnectUrl: OIDC },
        mtls: { type: 'mutualTLS' },
        oauth: {
          type: 'oauth2',
          flows: {
            authorizationCode: { authorizationUrl: AUTH, tokenUrl: TOKEN, scopes: { read: 'Read' } },
            clientCredentials: { tokenUrl: TOKEN, scopes: {} },
            implicit: { authorizationUrl: AUTH, scopes: {} },
            password: { tokenUrl: TOKEN, scopes: {} },
          },
        },
      },
      security: [{ key: [] }, { oauth: ['read'] }],
    };
    const { byId } = await judgeCard(card);
    expect(byId['card.security.schemes']!.status).toBe('pass');
    expect(byId['card.security.schemes']!.message).toBe('Every security scheme is complete.');
    expect(byId['card.security.schemes']!.evidence[0]).toMatchObject({ label: 'securitySchemes', path: 'securitySchemes' });
    expect(byId['card.urls.oauth']!.status).toBe('pass');
    expect(byId['card.urls.oauth']!.message).toBe('6 OAuth/OpenID URL(s), all URLs.');
    expect(byId['card.security.references']!.status).toBe('pass');
    expect(byId['card.security.references']!.message).toBe('2 reference(s), all declared.');
    expect(byId['card.security.references']!.evidence).toEqual([{ label: 'declared schemes', value: 'key, bearer, oidc, mtls, oauth' }]);
    expect(byId['card.strict-lint']!.status).toBe('pass');
  });

  it('complete v1.0 oneof-wrapped schemes pass, deviceCode included (a v1.0 flow)', async () => {
    const card = {
      ...v1(),
      securitySchemes: {
        key: { apiKeySecurityScheme: { location: 'query', name: 'key' } },
        bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
        oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: OIDC } },
        mtls: { mtlsSecurityScheme: {} },
        code: { oauth2SecurityScheme: { flows: { authorizationCode: { authorizationUrl: AUTH, tokenUrl: 'http://localhost:9000/token', scopes: {} } } } },
        device: { oauth2SecurityScheme: { flows: { deviceCode: { deviceAuthorizationUrl: 'https://auth.acme.test/device', tokenUrl: TOKEN, scopes: {} } } } },
      },
    };
    const { byId } = await judgeCard(card);
    expect(byId['card.security.schemes']!.status).toBe('pass');
    expect(byId['card.security.schemes']!.message).toBe('Every security scheme is complete.');
    // Plain http is judged (advice) only for the v0.3 authorization-code flow, whose schema says "use TLS".
    expect(byId['card.urls.oauth']!.status).toBe('pass');
    expect(byId['card.urls.oauth']!.message).toBe('5 OAuth/OpenID URL(s), all URLs.');
    expect(byId['card.strict-lint']!.status).toBe('pass');
  });

  it('v1.0 OAuthFlows is a oneof: two flows fail; one flow beside an unknown member is advice only', async () => {
    const two = await resultOf('card.security.schemes', {
      ...v1(),
      securitySchemes: {
        o: {
          oauth2SecurityScheme: {
            flows: { authorizationCode: { authorizationUrl: AUTH, tokenUrl: TOKEN, scopes: {} }, clientCredentials: { tokenUrl: TOKEN, scopes: {} } },
          },
        },
      },
    });
    expect(two.status).toBe('fail');
    expect(two.message).toBe(
      'Security schemes are incomplete: securitySchemes.o: v1.0 OAuthFlows is a oneof and holds exactly one flow (found authorizationCode, clientCredentials).',
    );
    const vendor = await resultOf('card.security.schemes', {
      ...v1(),
      securitySchemes: {
        o: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: TOKEN, scopes: {} }, 'x-tokenExchange': { tokenUrl: TOKEN } } } },
      },
    });
    expect(vendor.status).toBe('advisory');
    expect(vendor.message).toBe(
      'Every security scheme is complete; advice only (not required): securitySchemes.o.flows.x-tokenExchange is not a v1.0 OAuth flow (unknown members are not forbidden, but clients will ignore it).',
    );
  });

  it('v1.0: flows set to null are unset (ProtoJSON), not extra flows; in v0.3 a null flow is a type error', async () => {
    const flows = { authorizationCode: { authorizationUrl: AUTH, tokenUrl: TOKEN, scopes: {} }, implicit: null, password: null };
    const a = await resultOf('card.security.schemes', { ...v1(), securitySchemes: { o: { oauth2SecurityScheme: { flows } } } });
    expect(a.status).toBe('pass');
    const b = await judgeCard({ ...v03(), securitySchemes: { o: { type: 'oauth2', flows } } });
    expect(b.byId['card.security.schemes']!.status).toBe('fail');
    expect(b.byId['card.security.schemes']!.message).toBe(
      'Security schemes are incomplete: securitySchemes.o.flows.implicit should be an object, got null; securitySchemes.o.flows.password should be an object, got null.',
    );
    expect(b.byId['card.urls.oauth']!.status).toBe('pass');
  });

  it('each flow names the member it lacks (v0.3 schema required; v1.0 proto REQUIRED)', async () => {
    const a = await resultOf('card.security.schemes', {
      ...v03(),
      securitySchemes: {
        ac: { type: 'oauth2', flows: { authorizationCode: { tokenUrl: TOKEN, scopes: {} } } },
        im: { type: 'oauth2', flows: { implicit: { scopes: {} } } },
        cc: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN } } },
      },
    });
    expect(a.status).toBe('fail');
    expect(a.message).toBe(
      'Security schemes are incomplete: securitySchemes.ac.flows.authorizationCode needs "authorizationUrl"; securitySchemes.im.flows.implicit needs "authorizationUrl"; securitySchemes.cc.flows.clientCredentials needs "scopes" (an object, may be empty).',
    );
    const b = await resultOf('card.security.schemes', {
      ...v1(),
      securitySchemes: {
        ac: { oauth2SecurityScheme: { flows: { authorizationCode: { tokenUrl: TOKEN, scopes: {} } } } },
        dc: { oauth2SecurityScheme: { flows: { deviceCode: { tokenUrl: TOKEN, scopes: {} } } } },
        im: { oauth2SecurityScheme: { flows: { implicit: {} } } },
        pw: { oauth2SecurityScheme: { flows: { password: {} } } },
      },
    });
    expect(b.status).toBe('fail');
    expect(b.message).toBe(
      'Security schemes are incomplete: securitySchemes.ac.flows.authorizationCode needs "authorizationUrl"; securitySchemes.dc.flows.deviceCode needs "deviceAuthorizationUrl". Not required, advice only: securitySchemes.im.flows.implicit is deprecated in v1.0 (use authorizationCode with PKCE); securitySchemes.pw.flows.password is deprecated in v1.0 (use authorizationCode with PKCE or deviceCode).',
    );
  });

  it('a member of the wrong type fails, a missing or null one is "needed", an empty or blank one is advice', async () => {
    const a = await resultOf('card.security.schemes', {
      ...v03(),
      securitySchemes: {
        a: { type: 'apiKey', in: 'query', name: 42 },
        b: { type: 'apiKey', in: 'cookie', name: null },
        h: { type: 'http' },
        o: { type: 'openIdConnect' },
      },
    });
    expect(a.status).toBe('fail');
    expect(a.message).toBe(
      'Security schemes are incomplete: securitySchemes.a: apiKey: "name" should be a string, got number; securitySchemes.b: apiKey needs "name" (the header, query or cookie name); securitySchemes.h: http needs "scheme" (e.g. "bearer"); securitySchemes.o: openIdConnect needs "openIdConnectUrl".',
    );
    const b = await resultOf('card.security.schemes', { ...v03(), securitySchemes: { a: { type: 'apiKey', in: 'header', name: '  ' } } });
    expect(b.status).toBe('advisory');
    expect(b.message).toBe('Every security scheme is complete; advice only (not required): securitySchemes.a: apiKey: "name" is empty.');
  });

  it('oauth2 without a flows object fails, saying what it got; the flows of such a card have no URLs to judge', async () => {
    const { byId } = await judgeCard({
      ...v03(),
      securitySchemes: {
        a: { type: 'oauth2' },
        b: { type: 'oauth2', flows: 'clientCredentials' },
        c: { type: 'oauth2', flows: { clientCredentials: 'client_secret_basic' } },
      },
    });
    expect(byId['card.security.schemes']!.status).toBe('fail');
    expect(byId['card.security.schemes']!.message).toBe(
      'Security schemes are incomplete: securitySchemes.a: oauth2 needs "flows" (an object), got nothing; securitySchemes.b: oauth2 needs "flows" (an object), got string; securitySchemes.c.flows.clientCredentials should be an object, got string.',
    );
    expect(byId['card.urls.oauth']!.status).toBe('skip');
    expect(byId['card.urls.oauth']!.message).toBe('The card declares no OAuth or OpenID Connect URLs.');
  });

  it('the scheme shape of the other generation fails: v0.3 "type" in a v1.0 card, a v1.0 wrapper in a v0.3 card', async () => {
    const a = await resultOf('card.security.schemes', {
      ...v1(),
      securitySchemes: { k: { type: 'apiKey', in: 'header', name: 'X-Key' }, n: { apiKeySecurityScheme: { name: 'X-Key' } } },
    });
    expect(a.status).toBe('fail');
    expect(a.message).toBe(
      'Security schemes are incomplete: securitySchemes.k should be a v1.0 oneof wrapper such as {"apiKeySecurityScheme": {...}} (found "type": "apiKey"); securitySchemes.k: apiKey "location" must be "header", "query" or "cookie", got "header"; securitySchemes.n: apiKey "location" must be "header", "query" or "cookie", got undefined.',
    );
    const b = await resultOf('card.security.schemes', {
      ...v03(),
      securitySchemes: { k: { apiKeySecurityScheme: { in: 'header', name: 'X-Key' } }, l: { type: 'apiKey', location: 'header', name: 'X-Key' } },
    });
    expect(b.status).toBe('fail');
    expect(b.message).toBe(
      'Security schemes are incomplete: securitySchemes.k uses the v1.0 wrapper "apiKeySecurityScheme" in a v0.3 card (expected "type"); securitySchemes.l: apiKey "in" must be "header", "query" or "cookie", got "header".',
    );
  });

  it('a scheme of an unknown type, or a scheme that is not an object, fails with what was found', async () => {
    const a = await resultOf('card.security.schemes', { ...v03(), securitySchemes: { x: { type: 'bearer' }, h: { httpAuthSecurityScheme: null } } });
    expect(a.status).toBe('fail');
    expect(a.message).toMatch(/^Security schemes are incomplete: securitySchemes\.x has no recognisable type; securitySchemes\.h uses the v1\.0 wrapper/);
    const one = await judgeCard({ ...v03(), securitySchemes: { a: 'bearer', ok: { type: 'http', scheme: 'bearer' } } });
    expect(one.byId['card.security.schemes']!.status).toBe('fail');
    expect(one.byId['card.security.schemes']!.message).toBe('Security schemes are incomplete: securitySchemes.a: expected an object, got string.');
    expect(one.byId['card.urls.oauth']!.status).toBe('skip');
    const two = await judgeCard({ ...v03(), securitySchemes: { a: 'bearer', b: null } });
    expect(two.byId['card.security.schemes']!.message).toBe(
      'Security schemes are incomplete: securitySchemes.a: expected an object, got string; securitySchemes.b: expected an object, got null.',
    );
    expect(two.byId['card.urls.oauth']!.status).toBe('skip');
  });

  it('v1.0: a wrapper set to null is an incomplete scheme (fail), not a crash', async () => {
    const r = await resultOf('card.security.schemes', { ...v1(), securitySchemes: { h: { httpAuthSecurityScheme: null } } });
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Security schemes are incomplete: securitySchemes.h: http needs "scheme" (e.g. "bearer").');
  });

  it('securitySchemes that is not a map: a string or (v0.3) null fails; v1.0 null and absence declare nothing', async () => {
    const a = await resultOf('card.security.schemes', { ...v03(), securitySchemes: 'bearer' });
    expect(a.status).toBe('fail');
    expect(a.message).toBe('Security schemes are incomplete: securitySchemes: expected an object map, got string; ignored.');
    const b = await resultOf('card.security.schemes', { ...v03(), securitySchemes: null });
    expect(b.status).toBe('fail');
    expect(b.message).toBe('Security schemes are incomplete: securitySchemes: expected an object map, got null; ignored.');
    for (const card of [{ ...v1(), securitySchemes: null }, v03()]) {
      const r = await resultOf('card.security.schemes', card);
      expect(r.status).toBe('skip');
      expect(r.message).toBe('The card declares no security schemes.');
    }
  });

  it('legacy authentication: a list of scheme names passes; anything else fails naming authentication.schemes', async () => {
    const none = await resultOf('card.security.schemes', legacy(), LEGACY_PATH);
    expect(none.status).toBe('skip');
    expect(none.message).toBe('The card declares no authentication.');
    const ok = await resultOf('card.security.schemes', { ...legacy(), authentication: { schemes: ['bearer'] } }, LEGACY_PATH);
    expect(ok.status).toBe('pass');
    expect(ok.message).toBe('authentication.schemes is well-formed.');
    for (const authentication of ['bearer', { schemes: 'bearer' }]) {
      const r = await resultOf('card.security.schemes', { ...legacy(), authentication }, LEGACY_PATH);
      expect(r.status).toBe('fail');
      expect(r.message).toBe('authentication is malformed: authentication.schemes should be a list of scheme names.');
    }
    const item = await resultOf('card.security.schemes', { ...legacy(), authentication: { schemes: ['bearer', 5] } }, LEGACY_PATH);
    expect(item.status).toBe('fail');
    expect(item.message).toBe('authentication is malformed: authentication.schemes[1]: expected a string, got number; dropped.');
  });
});

describe('card.urls.oauth: which URL, which flow, which generation', () => {
  const cc = (tokenUrl: unknown) => ({ o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } });

  it('the failure quotes the sentence of the generation: v0.2 "in the form of a URL", v0.3 "a URL", v1.0 implicit/password', async () => {
    const a = await resultOf('card.urls.oauth', { ...v03(), protocolVersion: '0.2.5', securitySchemes: cc('/oauth/token') });
    expect(a.status).toBe('fail');
    expect(a.message).toBe(
      'OAuth flow URLs are not URLs (the v0.2 schema says "This MUST be in the form of a URL"): securitySchemes.o.flows.clientCredentials.tokenUrl="/oauth/token" is not a URL (no scheme: a relative path or a bare name).',
    );
    // Each finding is evidence, labelled by its strength.
    expect(a.evidence).toEqual([
      { label: 'problem', value: 'securitySchemes.o.flows.clientCredentials.tokenUrl="/oauth/token" is not a URL (no scheme: a relative path or a bare name)' },
    ]);
    const b = await resultOf('card.urls.oauth', { ...v03(), securitySchemes: cc('auth.acme.test/token') });
    expect(b.message).toBe(
      'OAuth flow URLs are not URLs (the v0.3 schema says "This MUST be a URL"): securitySchemes.o.flows.clientCredentials.tokenUrl="auth.acme.test/token" is not a URL (no scheme: a relative path or a bare name).',
    );
    const c = await resultOf('card.urls.oauth', {
      ...v1(),
      securitySchemes: { o: { oauth2SecurityScheme: { flows: { implicit: { authorizationUrl: '/authorize', scopes: {} } } } } },
    });
    expect(c.status).toBe('fail');
    expect(c.message).toBe(
      'OAuth flow URLs are not URLs (the v1.0 implicit and password flows say "This MUST be in the form of a URL"): securitySchemes.o.flows.implicit.authorizationUrl="/authorize" is not a URL (no scheme: a relative path or a bare name).',
    );
  });

  it('v1.0: a relative URL of a non-deprecated flow is advice, with the v1.0 reason', async () => {
    const r = await resultOf('card.urls.oauth', {
      ...v1(),
      securitySchemes: { o: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } } } },
    });
    expect(r.status).toBe('advisory');
    expect(r.advisoryReason).toMatch(/^In v1\.0 only the deprecated implicit and password flows require their URLs to be URLs/);
  });

  it('a URL of another scheme and a relative OpenID Connect URL are advice (described, not required)', async () => {
    const r = await resultOf('card.urls.oauth', {
      ...v03(),
      securitySchemes: { ...cc('urn:acme:oauth:token'), oidc: { type: 'openIdConnect', openIdConnectUrl: '/.well-known/openid-configuration' } },
    });
    expect(r.status).toBe('advisory');
    expect(r.message).toBe(
      '2 OAuth/OpenID URL(s), all URLs; advice only (not required): securitySchemes.o.flows.clientCredentials.tokenUrl="urn:acme:oauth:token" is not an http(s) URL; securitySchemes.oidc.openIdConnectUrl="/.well-known/openid-configuration" is not an absolute http(s) URL.',
    );
    expect(r.advisoryReason).toMatch(/^The OpenID Connect URL is described without a requirement word/);
  });

  it('plain http is advice only for the v0.3 authorization-code flow ("use TLS"): a client-credentials one passes', async () => {
    const r = await resultOf('card.urls.oauth', { ...v03(), securitySchemes: cc('http://localhost:8080/token') });
    expect(r.status).toBe('pass');
    expect(r.message).toBe('1 OAuth/OpenID URL(s), all URLs.');
  });

  it('missing, empty or mistyped flow URLs are left to card.security.schemes: nothing to judge here', async () => {
    for (const tokenUrl of ['', 42]) {
      const { byId } = await judgeCard({ ...v03(), securitySchemes: cc(tokenUrl) });
      expect(byId['card.urls.oauth']!.status).toBe('skip');
      expect(byId['card.security.schemes']!.message).toMatch(/tokenUrl/);
    }
    const oidc = await judgeCard({ ...v03(), securitySchemes: { o: { type: 'openIdConnect', openIdConnectUrl: 42 } } });
    expect(oidc.byId['card.urls.oauth']!.status).toBe('skip');
    expect(oidc.byId['card.security.schemes']!.message).toBe(
      'Security schemes are incomplete: securitySchemes.o: openIdConnect: "openIdConnectUrl" should be a string, got number.',
    );
    const keyOnly = await resultOf('card.urls.oauth', { ...v03(), securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } });
    expect(keyOnly.status).toBe('skip');
    expect(keyOnly.message).toBe('The card declares no OAuth or OpenID Connect URLs.');
  });
});

describe('card.security.references: card and skill requirements', () => {
  it('a skill requirement naming an undeclared scheme fails, naming the skill', async () => {
    const r = await resultOf('card.security.references', {
      ...v03(),
      skills: [{ id: 'echo', name: 'Echo', description: 'd', tags: ['t'], security: [{ oauth: ['read'] }] }],
    });
    expect(r.status).toBe('fail');
    expect(r.message).toBe(
      'Security requirements reference undeclared schemes: skills[0].security[0] references "oauth", which securitySchemes does not declare.',
    );
    expect(r.evidence.find((e) => e.label === 'declared schemes')?.value).toBe('(none)');
  });

  it('a card without requirements has nothing to check', async () => {
    const r = await resultOf('card.security.references', { ...v03(), securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } });
    expect(r.status).toBe('skip');
    expect(r.message).toBe('The card has no security requirements.');
  });
});

describe('strictLint: what a strict parser of each generation would reject', () => {
  const skill = {
    id: 'echo',
    name: 'Echo',
    description: 'Echoes',
    tags: ['demo'],
    examples: ['hello'],
    inputModes: ['text/plain'],
    outputModes: ['text/plain'],
  };

  it('a complete v0.2 card has only fields of the v0.2 schema', async () => {
    const card = {
      ...v03(),
      protocolVersion: '0.2.5',
      iconUrl: 'https://acme.test/icon.png',
      documentationUrl: 'https://acme.test/docs',
      provider: { organization: 'Acme', url: 'https://acme.test' },
      supportsAuthenticatedExtendedCard: false,
      additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'JSONRPC' }],
      capabilities: { streaming: true, pushNotifications: false, stateTransitionHistory: false, extensions: [] },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
      security: [{ key: [] }],
      skills: [skill],
    };
    expect(strictLint(card, 'v0.2')).toEqual([]);
    const { byId, generation } = await judgeCard(card);
    expect(generation).toBe('v0.2');
    expect(byId['card.strict-lint']!.status).toBe('pass');
    expect(byId['card.strict-lint']!.message).toBe('Only fields of the schema/proto, with the right types.');
  });

  it('v1.0: renamed and removed fields are named with their v1.0 replacement', async () => {
    const card = {
      ...v1(),
      url: 'http://agent.test/rpc',
      supportsAuthenticatedExtendedCard: true,
      'x-vendor': 1,
      capabilities: { streaming: true, stateTransitionHistory: false, 'x-batch': true },
      skills: [{ ...skill, security: [{ key: [] }], 'x-cost': 1 }],
    };
    expect(strictLint(card, 'v1.0')).toEqual([
      'unknown top-level field "url" (v1.0 moved it into supportedInterfaces[].url)',
      'unknown top-level field "supportsAuthenticatedExtendedCard" (now capabilities.extendedAgentCard)',
      'unknown top-level field "x-vendor"',
      'unknown capability "stateTransitionHistory" (removed in v1.0)',
      'unknown capability "x-batch"',
      'skills[0] has unknown field "security" (v1.0: securityRequirements)',
      'skills[0] has unknown field "x-cost"',
    ]);
    const r = await resultOf('card.strict-lint', card);
    expect(r.status).toBe('advisory');
    // The message names the first four; the evidence lists every one.
    expect(r.message).toBe(
      '7 thing(s) a strict parser would reject or misread (portability advice; the schemas do not forbid them): unknown top-level field "url" (v1.0 moved it into supportedInterfaces[].url); unknown top-level field "supportsAuthenticatedExtendedCard" (now capabilities.extendedAgentCard); unknown top-level field "x-vendor"; unknown capability "stateTransitionHistory" (removed in v1.0); ….',
    );
    expect(r.evidence.map((e) => e.value)).toHaveLength(7);
  });

  it('exactly four findings are all named, without an ellipsis', async () => {
    const r = await resultOf('card.strict-lint', { ...v03(), a: 1, b: 2, c: 3, d: 4 });
    expect(r.message).toBe(
      '4 thing(s) a strict parser would reject or misread (portability advice; the schemas do not forbid them): unknown top-level field "a"; unknown top-level field "b"; unknown top-level field "c"; unknown top-level field "d".',
    );
  });

  it('proto (snake_case) names are what ProtoJSON parsers accept in v1.0 only', () => {
    const snakeCard = (base: Record<string, unknown>) => {
      const c: Record<string, unknown> = { ...base, default_input_modes: base.defaultInputModes };
      delete c.defaultInputModes;
      return c;
    };
    expect(strictLint(snakeCard(v1()), 'v1.0')).toEqual([]);
    expect(strictLint(snakeCard(v03()), 'v0.3')).toEqual(['unknown top-level field "default_input_modes"']);
  });

  it('v1.0: v0.3 scheme shapes, the apiKey "in" and a v0.3 interface field are named', async () => {
    const card = {
      ...v1(),
      supportedInterfaces: [
        { url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', transport: 'JSONRPC', region: 'eu' },
        'http://agent.test/rest',
      ],
      securitySchemes: {
        old: { type: 'http', scheme: 'bearer' },
        key: { apiKeySecurityScheme: { in: 'header', name: 'X-Key' } },
        ok: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } },
        bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } },
        junk: 'bearer',
      },
    };
    expect(strictLint(card, 'v1.0')).toEqual([
      'securitySchemes.old has "type" (v0.3 style); v1.0 uses oneof wrappers and ProtoJSON parsers reject "type"',
      'securitySchemes.key.apiKeySecurityScheme has "in"; v1.0 calls it "location"',
      'supportedInterfaces[0] has unknown field "transport" (v1.0: protocolBinding)',
      'supportedInterfaces[0] has unknown field "region"',
    ]);
    const r = await resultOf('card.strict-lint', card);
    expect(r.status).toBe('advisory');
  });

  it('v0.x: a scheme without the "type" discriminator is named; a scheme that is not an object is left to card.security.schemes', () => {
    const card = {
      ...v03(),
      securitySchemes: { key: { apiKeySecurityScheme: { in: 'header', name: 'X-Key' } }, bearer: { type: 'http', scheme: 'bearer' }, junk: 'bearer' },
    };
    expect(strictLint(card, 'v0.3')).toEqual(['securitySchemes.key has no "type" discriminator (the v0.3 JSON Schema requires it)']);
    // securitySchemes is not a v0.1.0 field: only that is named, not the shape of its members.
    expect(
      strictLint(
        { ...legacy(), securitySchemes: { key: { apiKeySecurityScheme: {} } }, security: [], skills: [{ id: 'echo', name: 'Echo', security: [] }] },
        'legacy',
      ),
    ).toEqual(['unknown top-level field "securitySchemes"', 'unknown top-level field "security"', 'skills[0] has unknown field "security"']);
  });

  it('skills: unknown fields, non-string examples and (v1.0) an empty list are named; entries that are not objects are left to card.skills', async () => {
    const card = {
      ...v03(),
      skills: [{ ...skill, 'x-cost': 1 }, { ...skill, id: 'b', examples: 'hello' }, { ...skill, id: 'c', examples: ['hello', 42] }, 'junk'],
    };
    expect(strictLint(card, 'v0.3')).toEqual([
      'skills[0] has unknown field "x-cost"',
      'skills[1].examples should be a list of strings',
      'skills[2].examples should be a list of strings',
    ]);
    expect(strictLint({ ...v1(), skills: [] }, 'v1.0')).toEqual([
      'skills is empty (v1.0 §5.7: REQUIRED repeated fields MUST be non-empty; the §8.4.1 example contradicts this)',
    ]);
    expect(strictLint({ ...v03(), skills: [] }, 'v0.3')).toEqual([]);
    // A skills value that is not a list is card.required-fields' finding; the lint has nothing to add and does not crash.
    const r = await resultOf('card.strict-lint', { ...v03(), skills: 'echo' });
    expect(r.status).toBe('pass');
  });

  it('null examples are absent where the generation reads null as unset (v0.1.0 `string[] | null`, ProtoJSON)', () => {
    expect(strictLint({ ...legacy(), skills: [{ id: 'echo', name: 'Echo', examples: null }] }, 'legacy')).toEqual([]);
    expect(strictLint({ ...v1(), skills: [{ ...skill, examples: null }] }, 'v1.0')).toEqual([]);
    expect(strictLint({ ...v03(), skills: [{ ...skill, examples: null }] }, 'v0.3')).toEqual(['skills[0].examples should be a list of strings']);
    expect(strictLint({ ...v1(), skills: [{ ...skill, examples: 'hello' }] }, 'v1.0')).toEqual(['skills[0].examples should be a list of strings']);
  });

  it("capabilities that are not an object are card.capabilities.shape's finding, not a list of unknown capabilities", () => {
    expect(strictLint({ ...v03(), capabilities: ['streaming'] }, 'v0.3')).toEqual([]);
  });

  it('documentationUrl and iconUrl: a non-string is named; null is absent in legacy and v1.0 only', async () => {
    expect(strictLint({ ...v03(), documentationUrl: 42, iconUrl: null }, 'v0.3')).toEqual([
      'documentationUrl should be a string, got number',
      'iconUrl should be a string, got null',
    ]);
    expect(strictLint({ ...v1(), documentationUrl: null, iconUrl: null }, 'v1.0')).toEqual([]);
    expect(strictLint({ ...v1(), iconUrl: 42 }, 'v1.0')).toEqual(['iconUrl should be a string, got number']);
    expect(strictLint({ ...v1(), documentationUrl: 'https://acme.test/docs', iconUrl: 'https://acme.test/icon.png' }, 'v1.0')).toEqual([]);
    const r = await resultOf('card.strict-lint', { ...v03(), documentationUrl: 42 });
    expect(r.message).toMatch(/documentationUrl should be a string, got number/);
  });

  it('a v0.3-shaped card that declares protocolVersion 1.0 is linted as v1.0 and fails the v1.0 required fields', async () => {
    const card = { ...v03(), protocolVersion: '1.0' };
    const { byId, generation } = await judgeCard(card);
    expect(generation).toBe('v1.0');
    expect(strictLint(card, 'v1.0')).toEqual([
      'unknown top-level field "url" (v1.0 moved it into supportedInterfaces[].url)',
      'unknown top-level field "protocolVersion"',
      'unknown top-level field "preferredTransport"',
    ]);
    expect(byId['card.strict-lint']!.status).toBe('advisory');
    expect(byId['card.required-fields']!.status).toBe('fail');
    expect(byId['card.required-fields']!.message).toBe('Required fields are missing or mistyped: "supportedInterfaces" is missing.');
    expect(byId['card.protocol.coherence']!.status).toBe('fail');
    expect(byId['card.protocol.coherence']!.message).toMatch(/^Protocol declarations are incoherent: supportedInterfaces is empty \(v1\.0 §5\.7/);
    expect(byId['card.protocol.conventions']!.status).toBe('skip');
    expect(byId['card.protocol.conventions']!.message).toBe('The card declares no supportedInterfaces.');
  });
});

describe('card.required-fields: each field, each generation, named exactly', () => {
  const without = (card: Record<string, unknown>, ...keys: string[]) => {
    const c = { ...card };
    for (const k of keys) delete c[k];
    return c;
  };

  it('a complete card passes with a plain message in v0.2 (protocolVersion given), v0.3 and v1.0', async () => {
    for (const card of [{ ...v03(), protocolVersion: '0.2.5' }, v03(), v1()]) {
      const r = await resultOf('card.required-fields', card);
      expect(r.status).toBe('pass');
      expect(r.message).toBe('Every required field is present and typed.');
    }
  });

  it('v0.2 without protocolVersion: the leniency is said, beside the advice on an empty description', async () => {
    const { byId, generation } = await judgeCard({ ...without(v03(), 'protocolVersion', 'preferredTransport'), description: '' });
    expect(generation).toBe('v0.2');
    expect(byId['card.required-fields']!.status).toBe('advisory');
    expect(byId['card.required-fields']!.message).toBe(
      'Every required field is present and typed (protocolVersion is absent: v0.2.6 requires it, but v0.2.0-0.2.4 cards lack it, so it is not judged); advice only (not required): "description" is empty (the schema requires presence and type, not content).',
    );
  });

  it('v0.2 with an empty protocolVersion: judged (present), and empty is advice', async () => {
    const { byId, generation } = await judgeCard({ ...without(v03(), 'preferredTransport'), protocolVersion: '' });
    expect(generation).toBe('v0.2');
    expect(byId['card.required-fields']!.status).toBe('advisory');
    expect(byId['card.required-fields']!.message).toBe(
      'Every required field is present and typed; advice only (not required): "protocolVersion" is empty (the schema requires presence and type, not content).',
    );
  });

  it('a v1.0 card ignores a stale empty top-level protocolVersion (not a v1.0 field)', async () => {
    const r = await resultOf('card.required-fields', { ...v1(), protocolVersion: '' });
    expect(r.status).toBe('pass');
  });

  it('v0.3: url and protocolVersion are required (a card detected by preferredTransport alone)', async () => {
    const { byId, generation } = await judgeCard(without(v03(), 'url', 'protocolVersion'));
    expect(generation).toBe('v0.3');
    expect(byId['card.required-fields']!.message).toBe('Required fields are missing or mistyped: "url" is missing; "protocolVersion" is missing.');
    expect(byId['card.urls.endpoint']!.status).toBe('fail');
    expect(byId['card.urls.endpoint']!.message).toBe('The card declares no endpoint URL at all.');
    expect(byId['card.urls.endpoint']!.evidence).toEqual([]);
    expect(byId['card.protocol.coherence']!.status).toBe('pass');
  });

  it('the proto-name hint appears only in v1.0, and only when the snake_case name is there', async () => {
    const a = v1();
    a.default_input_modes = a.defaultInputModes;
    const r = await resultOf('card.required-fields', without(a, 'defaultInputModes', 'defaultOutputModes'));
    expect(r.message).toBe(
      'Required fields are missing or mistyped: "defaultInputModes" is missing (the card uses the proto name "default_input_modes"; v1.0 §5.5: JSON field names MUST be camelCase); "defaultOutputModes" is missing.',
    );
    const b = v03();
    b.default_input_modes = b.defaultInputModes;
    const s = await resultOf('card.required-fields', without(b, 'defaultInputModes'));
    expect(s.message).toBe('Required fields are missing or mistyped: "defaultInputModes" is missing.');
  });

  it('null and wrong types: the ProtoJSON note only for a v1.0 null', async () => {
    const a = await resultOf('card.required-fields', { ...v1(), name: null, version: 2 });
    expect(a.message).toBe(
      'Required fields are missing or mistyped: "name" should be a string, got null (ProtoJSON reads null as unset); "version" should be a string, got number.',
    );
    const b = await resultOf('card.required-fields', { ...v03(), name: null });
    expect(b.message).toBe('Required fields are missing or mistyped: "name" should be a string, got null.');
  });

  it('an empty v1.0 description names §8.4.1; a blank v0.3 one is empty too', async () => {
    const a = await resultOf('card.required-fields', { ...v1(), description: '' });
    expect(a.status).toBe('advisory');
    expect(a.message).toBe(
      'Every required field is present and typed; advice only (not required): "description" is empty (the schema requires presence and type, not content; v1.0 §8.4.1 keeps "description": "" as a valid REQUIRED value).',
    );
    const b = await resultOf('card.required-fields', { ...v03(), description: '   ' });
    expect(b.status).toBe('advisory');
    expect(b.message).toBe(
      'Every required field is present and typed; advice only (not required): "description" is empty (the schema requires presence and type, not content).',
    );
  });

  it('capabilities missing and skills not a list are named as such (not as normalization repairs)', async () => {
    const r = await resultOf('card.required-fields', { ...without(v03(), 'capabilities'), skills: 'echo' });
    expect(r.message).toBe('Required fields are missing or mistyped: "capabilities" is missing; "skills" should be a list, got string.');
  });

  it('seven missing fields: five are named, with the count of the rest; exactly five are all named', async () => {
    const si = v1().supportedInterfaces;
    const a = await resultOf('card.required-fields', { supportedInterfaces: si });
    expect(a.message).toBe(
      'Required fields are missing or mistyped: "name" is missing; "version" is missing; "description" is missing; "capabilities" is missing; "skills" is missing (+2 more).',
    );
    const b = await resultOf('card.required-fields', { supportedInterfaces: si, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'] });
    expect(b.message).toBe(
      'Required fields are missing or mistyped: "name" is missing; "version" is missing; "description" is missing; "capabilities" is missing; "skills" is missing.',
    );
  });

  it('provider: organization (and from v0.2 url) are required strings; null is absent in v1.0; empty is advice', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...v1(), provider: null }, 'pass', 'Every required field is present and typed.'],
      [{ ...v03(), provider: { organization: 'Acme', url: 'https://acme.test' } }, 'pass', 'Every required field is present and typed.'],
      [{ ...legacy(), provider: { organization: 'Acme' } }, 'pass', 'Every required field is present and typed.'],
      [{ ...v1(), provider: { url: 'https://acme.test' } }, 'fail', 'Required fields are missing or mistyped: "provider.organization" is required.'],
      [{ ...v03(), provider: { organization: 'Acme' } }, 'fail', 'Required fields are missing or mistyped: "provider.url" is required.'],
      [
        { ...v03(), provider: { organization: 42, url: 7 } },
        'fail',
        'Required fields are missing or mistyped: "provider.organization" should be a string, got number; "provider.url" should be a string, got number.',
      ],
      [
        { ...v03(), provider: { organization: ' ', url: ' ' } },
        'advisory',
        'Every required field is present and typed; advice only (not required): "provider.organization" is empty; "provider.url" is empty.',
      ],
    ];
    for (const [card, status, message] of cases) {
      const r = await resultOf('card.required-fields', card, card.url === 'http://agent.test/' ? LEGACY_PATH : undefined);
      expect([r.status, r.message]).toEqual([status, message]);
    }
  });

  it('an optional field of the wrong type fails through its normalization repair, with the field as evidence', async () => {
    const r = await resultOf('card.required-fields', { ...v03(), documentationUrl: 42 });
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Required fields are missing or mistyped: documentationUrl: expected a string, got number; converted.');
    expect(r.evidence[0]).toEqual({ label: 'documentationUrl', value: 'expected a string, got number; converted', path: 'documentationUrl' });
  });
});

describe('card.skills: each finding named exactly', () => {
  const skill = { id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'] };

  it('a well-formed list passes, with the skill ids as evidence', async () => {
    const r = await resultOf('card.skills', { ...v1(), skills: [skill, { ...skill, id: 'sum' }] });
    expect(r.status).toBe('pass');
    expect(r.message).toBe('2 well-formed skill(s).');
    expect(r.evidence).toEqual([{ label: 'skills', value: '2 skill(s): echo, sum', path: 'skills' }]);
  });

  it('legacy requires id and name only', async () => {
    const r = await resultOf('card.skills', { ...legacy(), skills: [{ id: 'echo' }] }, LEGACY_PATH);
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Skills are malformed: skills[0].name is missing.');
  });

  it('v0.3: tags missing or not a list, entries that are not objects', async () => {
    const { byId } = await judgeCard({ ...v03(), skills: [{ id: 'a', name: 'A', description: 'd' }, { ...skill, id: 'b', tags: 'demo' }, 'junk', null] });
    expect(byId['card.skills']!.status).toBe('fail');
    expect(byId['card.skills']!.message).toBe(
      'Skills are malformed: skills[0].tags is missing (required since v0.2); skills[1].tags is a string, not a list (required since v0.2); skills[2] is a string, not an object; skills[3] is a null, not an object.',
    );
    expect(byId['card.modes']!.status).toBe('pass');
  });

  it('numeric ids are a type error (not duplicates); a blank name is advice', async () => {
    const a = await resultOf('card.skills', {
      ...v03(),
      skills: [
        { ...skill, id: 7 },
        { ...skill, id: 7 },
      ],
    });
    expect(a.message).toBe('Skills are malformed: skills[0].id should be a string, got number; skills[1].id should be a string, got number.');
    const b = await resultOf('card.skills', { ...v03(), skills: [{ ...skill, name: '  ' }] });
    expect(b.status).toBe('advisory');
    expect(b.message).toBe('1 well-formed skill(s); advice only (not required): skills[0].name is empty.');
  });

  it('a tag that is not a string fails through its normalization repair', async () => {
    const r = await resultOf('card.skills', { ...v03(), skills: [{ ...skill, tags: ['demo', 1] }] });
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Skills are malformed: skills[0].tags[1]: expected a string, got number; dropped.');
  });

  it('skills missing or not a list: nothing to check, said so', async () => {
    const c = v03();
    delete c.skills;
    const a = await resultOf('card.skills', c);
    expect(a.message).toBe('"skills" is missing, so no skill can be checked.');
    expect(a.evidence).toEqual([]);
    const b = await resultOf('card.skills', { ...v03(), skills: { echo: skill } });
    expect(b.status).toBe('fail');
    expect(b.message).toBe('"skills" is a object, so no skill can be checked.');
  });

  it('v1.0 tags with an element pass (the empty-tags advice is for empty lists only)', async () => {
    const r = await resultOf('card.skills', { ...v1(), skills: [skill] });
    expect(r.status).toBe('pass');
  });
});

describe('card.modes: each finding named exactly', () => {
  const skill = { id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'] };

  it('v0.3 default modes are required; legacy ones are not (but null is not a list there)', async () => {
    const c = v03();
    delete c.defaultInputModes;
    const a = await resultOf('card.modes', c);
    expect(a.message).toBe('Modes are malformed: defaultInputModes is missing.');
    const b = await resultOf('card.modes', { ...legacy(), defaultInputModes: null }, LEGACY_PATH);
    expect(b.status).toBe('fail');
    expect(b.message).toBe('Modes are malformed: defaultInputModes should be a list, got null.');
    const ok = await resultOf('card.modes', legacy(), LEGACY_PATH);
    expect(ok.status).toBe('pass');
    expect(ok.message).toBe('Modes are well-formed lists.');
  });

  it('a v1.0 null default mode list names ProtoJSON; v0.3 null and a v1.0 string do not', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { ...v1(), defaultInputModes: null },
        'Modes are malformed: defaultInputModes should be a list, got null (ProtoJSON reads null as unset; the field is REQUIRED).',
      ],
      [{ ...v03(), defaultInputModes: null }, 'Modes are malformed: defaultInputModes should be a list, got null.'],
      [{ ...v1(), defaultInputModes: 'text/plain' }, 'Modes are malformed: defaultInputModes should be a list, got string.'],
    ];
    for (const [card, message] of cases) expect((await resultOf('card.modes', card)).message).toBe(message);
  });

  it('a skill mode that is not a string fails in every generation', async () => {
    for (const base of [v03(), v1()]) {
      const r = await resultOf('card.modes', { ...base, skills: [{ ...skill, inputModes: [42] }] });
      expect(r.message).toBe('Modes are malformed: skills[0].inputModes[0] should be a string, got number.');
    }
  });

  it('two malformed lists are both named, with their paths as evidence', async () => {
    const r = await resultOf('card.modes', { ...v03(), defaultInputModes: 'text/plain', defaultOutputModes: ['text/plain', 42] });
    expect(r.message).toBe('Modes are malformed: defaultInputModes should be a list, got string; defaultOutputModes[1] should be a string, got number.');
    expect(r.evidence.filter((e) => e.path).map((e) => e.path)).toEqual(['defaultInputModes', 'defaultOutputModes']);
  });

  it('skills that are not a list leave the skill modes unjudged (card.required-fields names it)', async () => {
    const r = await resultOf('card.modes', { ...v03(), skills: 'echo' });
    expect(r.status).toBe('pass');
  });
});

describe('endpointUrlProblem: the form of each binding', () => {
  it.each([
    ['agent.example.com:443', 'GRPC', undefined],
    ['[::1]:50051', 'GRPC', undefined],
    ['[2001:db8::5]:443', 'GRPC', undefined],
    ['localhost:50051', 'GRPC', undefined],
    ['a2a-agent.internal:8443', 'GRPC', undefined],
    ['0.0.0.0:50051', 'GRPC', undefined],
    ['grpcs://agent.example.com:443', 'GRPC', undefined],
    ['dns:///agent.example.com:443', 'GRPC', undefined],
    ['https://agent.example.com', 'GRPC', undefined],
    ['agent.example.com:443', 'grpc', undefined],
    ['agent.example.com', 'GRPC', 'a gRPC interface needs host:port (or a grpc/dns URI naming them)'],
    ['agent.example.com:443/a2a', 'GRPC', 'a gRPC interface needs host:port (or a grpc/dns URI naming them)'],
    ['tcp://agent.example.com:443', 'GRPC', 'a gRPC interface needs host:port (or a grpc/dns URI naming them)'],
    ['grpc://', 'GRPC', 'a gRPC interface needs host:port (or a grpc/dns URI naming them)'],
    ['https://agent.example.com/a2a', 'JSONRPC', undefined],
    ['/rpc', 'JSONRPC', 'a JSONRPC interface needs an absolute http(s) URL'],
    ['agent.example.com:443', 'JSONRPC', 'a JSONRPC interface needs an absolute http(s) URL'],
    ['http://localhost:8080/v1', 'HTTP+JSON', undefined],
    ['/v1', 'HTTP+JSON', 'a HTTP+JSON interface needs an absolute http(s) URL'],
    ['', 'JSONRPC', 'empty'],
    ['   ', 'HTTP+JSON', 'empty'],
    ['wss://agent.example.com/ws', 'https://example.com/bindings/websocket/v1', undefined],
    ['', 'https://example.com/bindings/websocket/v1', 'empty'],
    ['agent.example.com:70000', 'GRPC', 'the port is above 65535'],
    ['agent.example.com:65535', 'GRPC', undefined],
  ])('%j as %s: %s', (url, binding, problem) => {
    expect(endpointUrlProblem(url, binding)).toBe(problem);
  });

  it('card.urls.endpoint names each URL with its problem, and points at its field', async () => {
    const r = await resultOf('card.urls.endpoint', { ...v03(), url: '/rpc' });
    expect(r.message).toBe('1 endpoint URL(s) do not have the form of their binding: "/rpc" (a JSONRPC interface needs an absolute http(s) URL).');
    expect(r.evidence).toEqual([{ label: 'url JSONRPC', value: '/rpc: a JSONRPC interface needs an absolute http(s) URL', path: 'url' }]);
  });
});

describe('card.protocol.coherence: v0.x declarations', () => {
  it('a plain v0.3 card is coherent; "0.3" and "0.3.10" are 0.3.x versions', async () => {
    for (const protocolVersion of ['0.3.0', '0.3', '0.3.10']) {
      const r = await resultOf('card.protocol.coherence', { ...v03(), protocolVersion });
      expect([protocolVersion, r.status, r.message]).toEqual([protocolVersion, 'pass', 'Protocol declarations are coherent.']);
    }
  });

  it('a v0.3-shaped card with protocolVersion "v0.3.0" is advised that it is not a 0.3.x version', async () => {
    const { byId, generation } = await judgeCard({ ...v03(), protocolVersion: 'v0.3.0' });
    expect(generation).toBe('v0.3');
    expect(byId['card.protocol.coherence']!.status).toBe('advisory');
    expect(byId['card.protocol.coherence']!.message).toBe(
      'Protocol declarations are coherent; advice only (not required): protocolVersion "v0.3.0" is not a 0.3.x version although the card is shaped as v0.3.',
    );
  });

  it('preferredTransport is optional in the v0.3 schema: a card without it is never a failure (an advisory: §5.6.1 says REQUIRED)', async () => {
    const c = v03();
    delete c.preferredTransport;
    const r = await resultOf('card.protocol.coherence', c);
    expect(r.status).toBe('advisory');
  });

  it('the main URL repeated in additionalInterfaces is one transport; a lower-case "grpc" beside it is named by its core name', async () => {
    const same = await resultOf('card.protocol.coherence', { ...v03(), additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'JSONRPC' }] });
    expect(same.status).toBe('pass');
    const r = await resultOf('card.protocol.coherence', {
      ...v03(),
      additionalInterfaces: [
        { url: 'http://agent.test/rpc', transport: 'JSONRPC' },
        { url: 'http://agent.test/rpc', transport: 'grpc' },
      ],
    });
    expect(r.status).toBe('advisory');
    expect(r.message).toBe(
      'Protocol declarations are coherent; advice only (not required): URL http://agent.test/rpc is declared with several transports (JSONRPC, GRPC); permitted when each is served there.',
    );
    expect(r.advisoryReason).toMatch(/^v0\.3 permits other transport values/);
  });

  it('v0.2: shared URLs are advice with the v0.2 reason, and a 0.2.x protocolVersion is not judged against 0.3', async () => {
    const { byId, generation } = await judgeCard({
      ...v03(),
      protocolVersion: '0.2.5',
      additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'GRPC' }],
    });
    expect(generation).toBe('v0.2');
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toBe(
      'Protocol declarations are coherent; advice only (not required): URL http://agent.test/rpc is declared with several transports (JSONRPC, GRPC); permitted when each is served there.',
    );
    expect(r.advisoryReason).toBe('v0.2.6 sets no rule on preferredTransport values (an open form string) or on URLs shared by transports.');
  });
});

describe('card.protocol.coherence and conventions: v1.0 supportedInterfaces', () => {
  const iface = (o: Record<string, unknown>) => ({ url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', ...o });

  it('a v1.0 card that also lists its v0.3 interfaces (a2a-js legacy compatibility) is coherent', async () => {
    const { byId } = await judgeCard({ ...v1(), supportedInterfaces: [iface({}), iface({ url: 'http://agent.test/v03', protocolVersion: '0.3' })] });
    expect(byId['card.protocol.coherence']!.status).toBe('pass');
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
    expect(byId['card.protocol.conventions']!.message).toBe('2 interface(s), bindings and versions spelled as the spec spells them.');
  });

  it('a card whose interfaces declare only a later major version fails coherence (no 1.x interface)', async () => {
    const r = await resultOf('card.protocol.coherence', { ...v1(), supportedInterfaces: [iface({ protocolVersion: '2.1.0' })] });
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Protocol declarations are incoherent: no interface declares protocolVersion 1.x.');
  });

  it('empty or missing REQUIRED interface members are each named', async () => {
    const { byId } = await judgeCard({
      ...v1(),
      supportedInterfaces: [
        iface({ protocolBinding: ' ' }),
        iface({ url: 'http://agent.test/rest', protocolBinding: 'HTTP+JSON', protocolVersion: null }),
        iface({ url: 'http://agent.test/b', protocolVersion: ' ' }),
      ],
    });
    expect(byId['card.protocol.coherence']!.message).toBe(
      'Protocol declarations are incoherent: supportedInterfaces[0].protocolBinding is empty (REQUIRED: clients cannot tell how to call this interface); supportedInterfaces[1].protocolVersion is missing (REQUIRED); supportedInterfaces[2].protocolVersion is empty (REQUIRED).',
    );
    // Blank values are coherence findings, not spelling ones.
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
  });

  it('a missing protocolBinding without "transport" is named as missing (not as the v0.3 name); both names together are coherent', async () => {
    const a = await resultOf('card.protocol.coherence', { ...v1(), supportedInterfaces: [{ url: 'http://agent.test/rpc', protocolVersion: '1.0' }] });
    expect(a.message).toBe('Protocol declarations are incoherent: supportedInterfaces[0].protocolBinding: missing; treated as empty.');
    const { byId } = await judgeCard({ ...v1(), supportedInterfaces: [iface({ transport: 'JSONRPC' })] });
    expect(byId['card.protocol.coherence']!.status).toBe('pass');
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
    expect(byId['card.strict-lint']!.message).toMatch(/supportedInterfaces\[0\] has unknown field "transport" \(v1\.0: protocolBinding\)/);
  });

  it('an entry with only the v0.3 "transport" name does not stop the spelling check of the others', async () => {
    const r = await resultOf('card.protocol.conventions', {
      ...v1(),
      supportedInterfaces: [iface({}), { url: 'http://agent.test/rest', transport: 'HTTP+JSON', protocolVersion: '1.0' }],
    });
    expect(r.status).toBe('pass');
    expect(r.message).toBe('2 interface(s), bindings and versions spelled as the spec spells them.');
  });

  it('a numeric protocolVersion fails through its repair; a non-object entry is named, and skipped by the spelling check', async () => {
    const a = await resultOf('card.protocol.coherence', {
      ...v1(),
      supportedInterfaces: [iface({ protocolVersion: 1 }), iface({ url: 'http://agent.test/rest', protocolBinding: 'HTTP+JSON' })],
    });
    expect(a.message).toBe('Protocol declarations are incoherent: supportedInterfaces[0].protocolVersion: expected a string, got number; converted.');
    const { byId } = await judgeCard({ ...v1(), supportedInterfaces: [iface({}), null] });
    expect(byId['card.protocol.coherence']!.message).toBe(
      'Protocol declarations are incoherent: supportedInterfaces[1]: expected an object, got null; dropped.',
    );
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
    expect(byId['card.protocol.conventions']!.message).toBe('1 interface(s), bindings and versions spelled as the spec spells them.');
  });

  it.each([
    [{ protocolVersion: 'v1.0' }, 'advisory', 'supportedInterfaces[0].protocolVersion "v1.0" is not Major.Minor (e.g. "1.0")'],
    [{ protocolVersion: '1' }, 'advisory', 'supportedInterfaces[0].protocolVersion "1" is not Major.Minor (e.g. "1.0")'],
    [
      { protocolVersion: '1.0.0' },
      'fail',
      'supportedInterfaces[0].protocolVersion "1.0.0" has a patch number (v1.0 §3.6: patch version numbers SHOULD NOT be used in Agent Cards)',
    ],
    [
      { protocolBinding: 'JSON-RPC' },
      'fail',
      'supportedInterfaces[0].protocolBinding is spelled "JSON-RPC"; the core binding is "JSONRPC" (clients match the exact string)',
    ],
    [
      { protocolBinding: 'websocket' },
      'fail',
      'supportedInterfaces[0].protocolBinding "websocket" is neither a core binding nor a URI (v1.0 §5.8: custom bindings SHOULD be identified by a URI)',
    ],
  ])('conventions: %j is %s', async (o, status, finding) => {
    const r = await resultOf('card.protocol.conventions', { ...v1(), supportedInterfaces: [iface(o)] });
    expect(r.status).toBe(status);
    expect(r.message).toContain(finding);
  });
});

describe('card.signatures: each malformation named', () => {
  const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  const sig = (o: Record<string, unknown>) => ({ protected: b64url({ alg: 'ES256', kid: 'k1' }), signature: 'MEUCIQDx_k-3', ...o });

  it('a well-formed v1.0 signature passes; a v0.3 one needs no "kid"', async () => {
    const a = await resultOf('card.signatures', { ...v1(), signatures: [sig({})] });
    expect(a.status).toBe('pass');
    expect(a.message).toBe('1 well-formed signature(s) (whether they verify: card.signatures.verified).');
    expect(a.evidence).toEqual([]);
    const b = await resultOf('card.signatures', { ...v03(), signatures: [sig({ protected: b64url({ alg: 'ES256' }) })] });
    expect(b.status).toBe('pass');
  });

  it('an unsigned card is not judged; a v1.0 null list is unset (ProtoJSON); a v0.3 null or an object is not a list', async () => {
    for (const card of [v03(), { ...v1(), signatures: null }]) {
      const r = await resultOf('card.signatures', card);
      expect(r.status).toBe('skip');
      expect(r.message).toBe('The card is not signed.');
    }
    const a = await resultOf('card.signatures', { ...v03(), signatures: null });
    expect(a.status).toBe('fail');
    expect(a.message).toBe('"signatures" should be a list, got null.');
    const b = await resultOf('card.signatures', { ...v1(), signatures: sig({}) });
    expect(b.message).toBe('"signatures" should be a list, got object.');
  });

  it('standard base64 (padding, "+" and "/") is not base64url', async () => {
    const r = await resultOf('card.signatures', {
      ...v1(),
      signatures: [sig({ protected: btoa(JSON.stringify({ alg: 'ES256', kid: 'k1' })) }), sig({ signature: 'MEUCIQD+x/Yz' })],
    });
    expect(r.status).toBe('fail');
    expect(r.message).toBe('Signatures are malformed: signatures[0].protected should be base64url; signatures[1].signature should be base64url.');
  });

  it('missing members, a header that is not JSON and an entry that is not an object are each named', async () => {
    const r = await resultOf('card.signatures', { ...v1(), signatures: [{}, sig({ protected: 'bm90LWpzb24' }), 'eyJhbGciOiJFUzI1NiJ9..c2ln'] });
    expect(r.message).toBe(
      'Signatures are malformed: signatures[0].protected should be base64url; signatures[0].signature should be base64url; signatures[1].protected does not decode to a JSON object; signatures[2] should be an object.',
    );
  });

  it('v0.3 without "alg" anywhere cites RFC 7515; v1.0 without "kid" cites §8.4.2', async () => {
    const a = await resultOf('card.signatures', { ...v03(), signatures: [sig({ protected: b64url({ kid: 'k1' }) })] });
    expect(a.message).toBe('Signatures are malformed: signatures[0] has no "alg" in its JOSE header (RFC 7515 §4.1.1 MUST).');
    const b = await resultOf('card.signatures', { ...v1(), signatures: [sig({ protected: b64url({ alg: 'ES256' }) })] });
    expect(b.message).toBe('Signatures are malformed: signatures[0] protected header has no "kid" (v1.0 §8.4.2 MUST).');
  });
});

describe('card.vary: headers and bodies as real servers send them', () => {
  const atCard = (req: Request) => new URL(req.url).pathname === '/.well-known/agent-card.json';
  const notFound = () => new Response('', { status: 404 });

  it('"Cache-Control: private, no-store" is not cacheable either', async () => {
    const route: Route = (req) =>
      atCard(req) ? json(req.headers.get('a2a-version') ? v1() : v03(), { headers: { 'cache-control': 'private, no-store' } }) : notFound();
    const r = (await runCard(route)).byId['card.vary']!;
    expect(r.status).toBe('pass');
    expect(r.message).toBe('The card response is not cacheable (Cache-Control: private, no-store), so it needs no Vary header.');
  });

  it('A2A-Version listed after another Vary member counts', async () => {
    const route: Route = (req) =>
      atCard(req) ? json(req.headers.get('a2a-version') ? v1() : v03(), { headers: { vary: 'Accept, A2A-Version' } }) : notFound();
    const r = (await runCard(route)).byId['card.vary']!;
    expect(r.status).toBe('pass');
    expect(r.message).toBe('The card differs by A2A-Version (another JSON card without the header) and Vary: Accept, A2A-Version says so.');
    expect(r.evidence.map((e) => e.label)).toEqual(['without A2A-Version']);
  });

  it('a v1.0-only agent that answers clients without A2A-Version with an error text: Vary is needed, and named', async () => {
    const route =
      (vary: Record<string, string>): Route =>
      (req) =>
        atCard(req)
          ? req.headers.get('a2a-version')
            ? json(v1(), { headers: vary })
            : new Response('A2A-Version header required', { status: 400, headers: { 'content-type': 'text/plain' } })
          : notFound();
    const a = (await runCard(route({ vary: 'A2A-Version' }))).byId['card.vary']!;
    expect(a.status).toBe('pass');
    expect(a.message).toBe('The card differs by A2A-Version (a different body without the header) and Vary: A2A-Version says so.');
    const b = (await runCard(route({}))).byId['card.vary']!;
    expect(b.status).toBe('fail');
    expect(b.message).toBe('The card differs with and without A2A-Version (the same with the header twice), but the response has no Vary header.');
    expect(b.evidence.map((e) => e.label)).toEqual(['with A2A-Version: 1.0', 'without A2A-Version', 'with A2A-Version: 1.0, again']);
  });

  it('a card that differs only inside a list (another skill description for v1.0 clients) differs', async () => {
    const skills = (v1().skills as Record<string, unknown>[]).map((s) => ({ ...s, description: 'Echoes text, streamed' }));
    const route: Route = (req) =>
      atCard(req) ? json({ ...v1(), skills: req.headers.get('a2a-version') ? skills : v1().skills }, { headers: { vary: 'Origin' } }) : notFound();
    const r = (await runCard(route)).byId['card.vary']!;
    expect(r.status).toBe('fail');
    expect(r.message).toBe('The card differs with and without A2A-Version (the same with the header twice), but the response has Vary: Origin.');
  });

  it('an HTML page (status 200) for clients without A2A-Version is a different body', async () => {
    const route =
      (vary: Record<string, string>): Route =>
      (req) =>
        atCard(req)
          ? req.headers.get('a2a-version')
            ? json(v1(), { headers: vary })
            : new Response('<!doctype html><title>Agent</title>', { headers: { 'content-type': 'text/html' } })
          : notFound();
    const a = (await runCard(route({ vary: 'A2A-Version' }))).byId['card.vary']!;
    expect(a.status).toBe('pass');
    expect(a.message).toBe('The card differs by A2A-Version (a different body without the header) and Vary: A2A-Version says so.');
    const b = (await runCard(route({}))).byId['card.vary']!;
    expect(b.status).toBe('fail');
  });

  it('key order inside lists does not make another card', async () => {
    const card = v1();
    const skills = (card.skills as Record<string, unknown>[]).map((s) => Object.fromEntries(Object.entries(s).reverse()));
    const route: Route = (req) => (atCard(req) ? json(req.headers.get('a2a-version') ? card : { ...card, skills }) : notFound());
    const r = (await runCard(route)).byId['card.vary']!;
    expect(r.status).toBe('pass');
    expect(r.message).toBe('The card is the same with and without A2A-Version.');
  });

  it('an agent that stops answering after the first request: the second or the control request cannot be judged (skip)', async () => {
    const refused = () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' } });
    };
    const dropAfter = (n: number): Route => {
      let calls = 0;
      return (req) => (atCard(req) ? (++calls > n ? refused() : json(req.headers.get('a2a-version') ? v1() : v03())) : notFound());
    };
    const a = (await runCard(dropAfter(1))).byId['card.vary']!;
    expect(a.status).toBe('skip');
    expect(a.message).toMatch(/^The second card request \(without A2A-Version\) got no answer: Could not connect/);
    expect(a.evidence.map((e) => e.value)).toEqual([expect.stringMatching(/^no response: Could not connect/)]);
    const b = (await runCard(dropAfter(2))).byId['card.vary']!;
    expect(b.status).toBe('skip');
    expect(b.message).toMatch(/^The control card request \(with A2A-Version\) got no answer: Could not connect/);
    expect(b.evidence.map((e) => e.value)).toEqual([expect.stringMatching(/^no response: Could not connect/)]);
  });
});

describe('discovery, response format and headers: findings named exactly', () => {
  const notFound = () => new Response('not found', { status: 404 });

  it('a card found: the URL is named, each attempt is evidence linked to its exchange', async () => {
    const { byId } = await runCard(serveCard(v1()));
    const d = byId['card.discovery']!;
    expect(d.message).toBe('Card found at http://agent.test/.well-known/agent-card.json.');
    expect(d.evidence).toEqual([{ label: 'http://agent.test/.well-known/agent-card.json', value: '200', exchangeId: expect.any(String) }]);
    const j = byId['card.json']!;
    expect(j.status).toBe('pass');
    expect(j.evidence[0]).toMatchObject({ label: 'card response', exchangeId: expect.any(String) });
    expect(byId['card.content-type']!.message).toBe('Content-Type: application/json');
  });

  it('no card: a critical failure with each status as evidence; the header checks have nothing to judge', async () => {
    const { byId } = await runCard(notFound);
    const d = byId['card.discovery']!;
    expect(d.status).toBe('fail');
    expect(d.critical).toBe(true);
    expect(d.evidence.map((e) => e.value)).toEqual(['404', '404']);
    expect(d.evidence.every((e) => e.exchangeId)).toBe(true);
    for (const id of ['card.content-type', 'card.public', 'card.caching', 'card.vary']) {
      expect([id, byId[id]!.status]).toEqual([id, 'skip']);
    }
  });

  it("a proxy refusal is our error (status error, proxy code kept), not the agent's failure", async () => {
    const blocked: Route = () =>
      new Response(JSON.stringify({ title: 'Target blocked', detail: 'private address' }), {
        status: 403,
        headers: { 'x-proxy-error': 'target_blocked', 'content-type': 'application/problem+json' },
      });
    const d = (await runCard(blocked)).byId['card.discovery']!;
    expect(d.status).toBe('error');
    expect(d.message).toBe('The card could not be fetched: The proxy could not complete the request (target_blocked: private address).');
    expect(d.proxyError).toBe('target_blocked');
  });

  it('an agent that resets every connection fails discovery (its fault), with the reset named', async () => {
    const reset: Route = () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET', message: 'read ECONNRESET' } });
    };
    const d = (await runCard(reset)).byId['card.discovery']!;
    expect(d.status).toBe('fail');
    expect(d.message).toBe(
      'No card could be read: every candidate URL failed (no answer, no answer). The connection was reset by the agent (fetch failed: read ECONNRESET).',
    );
  });

  it('a per-request budget of a whole second is said in seconds', async () => {
    const silent: Route = (req) =>
      new Promise<Response>((_, reject) => req.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
    const d = (await runCard(silent, 'http://agent.test/agent-card.json', { limits: { requestTimeoutMs: 1000 } })).byId['card.discovery']!;
    expect(d.skipKind).toBe('tool-limit');
    expect(d.message).toMatch(/within this tool's per-request budget \(1 s, a fixed limit\)/);
  });

  it('card.json: a body in another encoding than UTF-8 fails quoting RFC 8259', async () => {
    const text = JSON.stringify({ ...v03(), name: 'Caf\u00e9' });
    const latin1 = Uint8Array.from(text, (ch) => ch.charCodeAt(0));
    const r = (await runCard(() => new Response(latin1, { headers: { 'content-type': 'application/json; charset=iso-8859-1' } }))).byId['card.json']!;
    expect(r.status).toBe('fail');
    expect(r.message).toBe(
      'The card is not a usable JSON object: the body is not valid UTF-8 (RFC 8259 §8.1: JSON exchanged between systems MUST be encoded using UTF-8).',
    );
  });

  it('card.json: a JSON list is not a card object; the card checks then have nothing to judge', async () => {
    const { byId } = await runCard(() => json([v03()]));
    const r = byId['card.json']!;
    expect(r.status).toBe('fail');
    expect(r.message).toBe('The card is not a usable JSON object: (card): the card is array, not a JSON object; JSON, but a array instead of an object.');
    expect(r.evidence[0]).toEqual({ label: '(card)', value: 'the card is array, not a JSON object', path: '' });
    expect(byId['card.required-fields']!.status).toBe('skip');
    expect(byId['card.required-fields']!.message).toBe('No agent card could be read, so this check has nothing to judge.');
  });

  it('card.json: an HTML page is named as such, with or without leading whitespace', async () => {
    for (const body of ['<!doctype html><title>SPA</title>', '\n  <!DOCTYPE html><title>SPA</title>']) {
      const { byId } = await runCard(() => new Response(body, { headers: { 'content-type': 'text/html' } }));
      expect(byId['card.vary']!.status).toBe('skip');
      expect(byId['card.vary']!.message).toBe('No card was found.');
      const r = byId['card.json']!;
      expect(r.status).toBe('fail');
      expect(r.message).toMatch(/^The card is not a usable JSON object: .*; not JSON: .+; the body looks like HTML\.$/s);
    }
  });

  it('card.json: HTML markup inside a JSON string is not an HTML page', async () => {
    const r = await resultOf('card.json', { ...v03(), description: 'Echoes <b>bold</b> text' });
    expect(r.status).toBe('pass');
  });

  it('card.json: a card over the read limit that starts with a byte order mark still fails for the mark', async () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const body = new Uint8Array([...bom, ...new TextEncoder().encode(JSON.stringify({ ...v03(), padding: 'x'.repeat(6 * 1024 * 1024) }))]);
    const r = (await runCard(() => new Response(body, { headers: { 'content-type': 'application/json' } }))).byId['card.json']!;
    expect(r.status).toBe('fail');
    expect(r.message).toBe(
      "The card is not a usable JSON object (the rest of the body, over the tool's 5242880 byte read limit, was not judged): the body starts with a UTF-8 byte order mark (RFC 8259 §8.1: implementations MUST NOT add one to networked JSON).",
    );
    expect(r.evidence.at(-1)?.label).toBe('card response (cut at the read limit)');
  });

  it('card.content-type: a +json structured suffix is JSON; text/plain is an advisory (RFC 9110 asks only for a Content-Type)', async () => {
    const a = (await runCard(serveCard(v1(), undefined, { 'content-type': 'application/a2a+json' }))).byId['card.content-type']!;
    expect(a.status).toBe('pass');
    expect(a.message).toBe('Content-Type: application/a2a+json');
    for (const g of ['legacy', 'v0.3', 'v1.0'] as const) {
      const path = g === 'legacy' ? '/.well-known/agent.json' : '/.well-known/agent-card.json';
      const b = (await runCard(serveCard(sampleCard(g), path, { 'content-type': 'text/plain' }))).byId['card.content-type']!;
      expect(b.status, g).toBe('advisory');
      expect(b.level, g).toBe('SHOULD');
      expect(b.message).toBe('Content-Type is "text/plain", not application/json (the registered media type of JSON text).');
      expect(b.advisoryReason).toMatch(/RFC 9110 §8.3 only asks for a Content-Type/);
      expect(b.evidence[0]!.exchangeId).toBeTruthy();
    }
  });

  it('card.content-type: a card served without any Content-Type fails the RFC 9110 SHOULD', async () => {
    const noType = () => new Response(new Blob([JSON.stringify(v1())]).stream(), { status: 200 });
    const r = (await runCard((req) => (new URL(req.url).pathname === '/.well-known/agent-card.json' ? noType() : new Response('nf', { status: 404 })))).byId[
      'card.content-type'
    ]!;
    expect(r.status).toBe('fail');
    expect(r.level).toBe('SHOULD');
    expect(r.message).toBe('The card is served without a Content-Type header (RFC 9110 §8.3: a sender SHOULD generate one).');
  });

  it('card.well-known-path: a legacy card at agent-card.json is fine; a card URL given directly is not judged', async () => {
    const a = await resultOf('card.well-known-path', legacy());
    expect(a.status).toBe('pass');
    expect(a.message).toBe('Served at /.well-known/agent-card.json.');
    for (const card of [{ ...v03(), protocolVersion: '0.2.5' }, legacy()]) {
      const b = await resultOf('card.well-known-path', card, LEGACY_PATH);
      expect(b.status).toBe('pass');
      expect(b.message).toBe('Served at /.well-known/agent.json.');
    }
    const c = (await runCard(() => json(v1()), 'http://agent.test/cards/card.json')).byId['card.well-known-path']!;
    expect(c.status).toBe('skip');
    expect(c.message).toBe('The card URL was given directly, so its location was not discovered.');
    const d = await resultOf('card.well-known-path', v1(), LEGACY_PATH);
    expect(d.status).toBe('advisory');
    expect(d.message).toBe(
      'A v1.0 card was found only at /.well-known/agent.json; v1.0 clients look for /.well-known/agent-card.json first. The location is recommended, not required.',
    );
    expect(d.evidence.map((e) => e.value)).toEqual(['404', '200']);
  });

  it('card.caching: each missing header is named', async () => {
    const a = await resultOf('card.caching', v1());
    expect(a.message).toBe('Caching headers missing: no Cache-Control header; no ETag header.');
    expect(a.evidence[0]!.exchangeId).toBeTruthy();
    const c = (await judgeCard(v1(), undefined, { 'cache-control': 'no-cache' })).byId['card.caching']!;
    expect(c.message).toBe('Caching headers missing: Cache-Control "no-cache" has no max-age; no ETag header.');
    const d = (await judgeCard(v1(), undefined, { 'cache-control': 'public, max-age=600', etag: '"v1"' })).byId['card.caching']!;
    expect(d.status).toBe('pass');
    expect(d.message).toBe('Cache-Control: public, max-age=600; ETag: "v1"');
  });

  it('card.public: the evidence shows each attempt, with and without credentials', async () => {
    const { host } = fakeHost((req) => (req.headers.get('authorization') === 'Bearer t0k' ? json(sampleCard('v1.0')) : new Response('no', { status: 401 })));
    const report = await runConformance(
      host,
      { agentUrl: 'http://agent.test', only: CARD_ONLY, credentials: { kind: 'bearer', token: 't0k' } },
      () => undefined,
    );
    const r = reportResults(report).find((x) => x.id === 'card.public')!;
    expect(r.evidence.map((e) => e.value)).toEqual(['401 ', '401 ', '200 with credentials']);
    expect(r.evidence.every((e) => e.exchangeId)).toBe(true);
  });
});

describe('card.urls.other and card.modes.media-types: findings named exactly', () => {
  it('card.urls.other: no URL to judge; valid ones pass; each bad one is named with its field', async () => {
    const a = await resultOf('card.urls.other', v03());
    expect(a.status).toBe('skip');
    expect(a.message).toBe('The card has no provider, documentation or icon URL.');
    const b = await resultOf('card.urls.other', {
      ...v03(),
      provider: { organization: 'Acme', url: 'https://acme.test' },
      documentationUrl: 'https://acme.test/docs',
      iconUrl: 'https://acme.test/icon.png',
    });
    expect(b.status).toBe('pass');
    expect(b.message).toBe('3 URL(s), all absolute http(s).');
    const c = await resultOf('card.urls.other', { ...v03(), documentationUrl: 'ftp://docs.acme.test/agent.pdf', iconUrl: '/icon.png' });
    expect(c.status).toBe('advisory');
    expect(c.message).toBe(
      '2 URL(s) are not absolute http(s): documentationUrl="ftp://docs.acme.test/agent.pdf", iconUrl="/icon.png". The spec describes these URLs without a requirement word.',
    );
    expect(c.evidence.map((e) => e.path)).toEqual(['documentationUrl', 'iconUrl']);
  });

  it('card.modes.media-types: two types in one string and a shorthand are named; RFC 9110 whitespace before ";" is fine', async () => {
    const r = await resultOf('card.modes.media-types', {
      ...v03(),
      defaultOutputModes: ['text/plain, application/json'],
      skills: [{ id: 'echo', name: 'Echo', description: 'd', tags: ['t'], inputModes: ['text'], outputModes: ['text/plain ; charset=utf-8'] }],
    });
    expect(r.status).toBe('advisory');
    expect(r.message).toBe(
      '2 mode(s) are not media types (the spec describes modes as media types but does not require it): "text/plain, application/json", "text".',
    );
    expect(r.evidence.map((e) => e.path)).toEqual(['defaultOutputModes', 'skills[0].inputModes']);
    const ok = await resultOf('card.modes.media-types', {
      ...v03(),
      skills: [{ id: 'echo', name: 'Echo', description: 'd', tags: ['t'], inputModes: ['image/png'], outputModes: ['application/json'] }],
    });
    expect(ok.status).toBe('pass');
    expect(ok.message).toBe('4 mode(s), all media types.');
  });

  it('card.modes.media-types: a card with no modes at all has nothing to judge', async () => {
    const r = await resultOf('card.modes.media-types', { ...v03(), defaultInputModes: [], defaultOutputModes: [] });
    expect(r.status).toBe('skip');
    expect(r.message).toBe('The card declares no modes to judge.');
  });
});
