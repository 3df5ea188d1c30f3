import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard, type Route } from '../../testing/fake-host';
import { fixupApplies, normalizeCard } from '../card/normalize';
import type { CheckResult } from '../model/check';
import type { RunEvent } from '../model/events';
import { runConformance } from '../runner/run';
import type { Credentials } from '../runner/options';
import { reportResults } from '../report/build';
import type { Limits } from '../http/client';
import { timerSleep } from '../ports';
import { cardChecks } from './card';

const CARD_ONLY = cardChecks.map((c) => c.id);

async function runCard(route: Route, agentUrl = 'http://agent.test', extra: { timeoutMs?: number; credentials?: Credentials; limits?: Partial<Limits> } = {}) {
  // No real waiting between discovery's warm-up retries (short sleeps); request deadlines keep real timers.
  const { host, requests } = fakeHost(route, { sleep: (ms, signal) => (ms < 5_000 ? Promise.resolve() : timerSleep(ms, signal)) });
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
    expect(byId['card.content-type']!.status).toBe('fail');
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
      req.headers.get('authorization') === 'Bearer s3cret-token' ? json(sampleCard('v1.0')) : new Response('no', { status: 401, headers: { 'www-authenticate': 'Bearer' } }),
    );
    const events: RunEvent[] = [];
    const report = await runConformance(host, { agentUrl: 'http://agent.test', only: CARD_ONLY, credentials: { kind: 'bearer', token: 's3cret-token' } }, (e) => events.push(e));
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
      new URL(req.url).pathname.startsWith('/a2a/') ? new Response('no', { status: 401 }) : new Response('<!doctype html><title>SPA</title>', { status: 200, headers: { 'content-type': 'text/html' } });
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
    const silent: Route = (req) => new Promise<Response>((_, reject) => req.signal.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' }))));
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
    expect(byId['card.required-fields']!.message).toMatch(/"defaultInputModes" is missing \(the card uses the proto name "default_input_modes"; v1\.0 §5\.5: JSON field names MUST be camelCase\)/);
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
    for (const card of [{ ...v03(), capabilities: { streaming: true, 'x-rateLimit': { rpm: 60 } } }, { ...v1(), capabilities: { streaming: true, 'x-rateLimit': { rpm: 60 } } }]) {
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
    const { byId } = await judgeCard({ ...v03(), skills: [{ id: 'a', name: 'A', tags: [] }, { ...skill, id: 'a' }] });
    expect(byId['card.skills']!.status).toBe('fail');
    expect(byId['card.skills']!.message).toMatch(/skills\[0\]\.description is missing\. Not required, advice only: skill id "a" is used twice/);
  });

  it('v1.0 empty tags are an advisory naming both passages (§5.7 vs §8.4.1)', async () => {
    const { byId } = await judgeCard({ ...v1(), skills: [{ ...skill, tags: [] }] });
    expect(byId['card.skills']!.status).toBe('advisory');
    expect(byId['card.skills']!.message).toMatch(/tags is empty \(v1\.0 §5\.7.*§8\.4\.1/);
  });

  it('legacy skills with null optional fields pass', async () => {
    const { byId } = await judgeCard({ ...legacy(), skills: [{ id: 'echo', name: 'Echo', description: null, tags: null, examples: null, inputModes: null, outputModes: null }] }, LEGACY_PATH);
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
    const { byId } = await judgeCard({ ...v03(), securitySchemes: oauth({ authorizationCode: { authorizationUrl: 'http://localhost:8080/authorize', tokenUrl: 'http://localhost:8080/token', scopes: {} } }) });
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
    const { byId } = await judgeCard({ ...v03(), securitySchemes: { a: { type: 'oauth2', flows: { deviceCode: { tokenUrl: 'https://x.test/t', scopes: {} } } }, b: { type: 'oauth2', flows: {} } } });
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
    const { byId } = await judgeCard({ ...v1(), securitySchemes: { cc: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://x.test/t' } } } } } });
    expect(byId['card.security.schemes']!.status).toBe('fail');
    expect(byId['card.security.schemes']!.message).toMatch(/needs "scopes".*ProtoJSON serializers drop an empty map/);
  });
});

describe('card.protocol.coherence (MUST) and card.protocol.conventions (SHOULD)', () => {
  it('a v0.3 card serving gRPC and JSON-RPC on one URL is permitted (§5.6.2 MAY reuse URLs): advisory', async () => {
    const card = { ...v03(), additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'JSONRPC' }, { url: 'http://agent.test/rpc', transport: 'GRPC' }] };
    const { byId } = await judgeCard(card);
    const r = byId['card.protocol.coherence']!;
    expect(r.status).toBe('advisory');
    expect(r.message).toMatch(/URL http:\/\/agent\.test\/rpc is declared with several transports \(JSONRPC, GRPC\); permitted/);
  });

  it('a custom v0.3 preferredTransport is an advisory (§5.5.5 additional values MAY be used), also in the lint', async () => {
    const card = { ...v03(), preferredTransport: 'WEBSOCKET', url: 'ws://agent.test/ws', additionalInterfaces: [{ url: 'http://agent.test/rpc', transport: 'JSONRPC' }] };
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
    const card = { ...v1(), supportedInterfaces: [...(v1().supportedInterfaces as unknown[]), { url: 'wss://agent.test/ws', protocolBinding: 'https://example.com/bindings/websocket/v1', protocolVersion: '1.0' }] };
    const { byId } = await judgeCard(card);
    expect(byId['card.protocol.conventions']!.status).toBe('pass');
    expect(byId['card.urls.endpoint']!.status).toBe('pass');
  });

  it('a v1.0 interface without protocolVersion, or with the v0.3 name "transport", fails coherence', async () => {
    const card = { ...v1(), supportedInterfaces: [{ url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }, { url: 'http://agent.test/rest', transport: 'HTTP+JSON' }] };
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
    const route: Route = (req) => (atCard(req) ? json({ ...v1(), signatures: [{ protected: 'eyJhbGciOiJFUzI1NiIsImtpZCI6ImsxIn0', signature: `sig${++n}` }] }) : new Response('', { status: 404 }));
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
  });

  it('a non-cacheable card (Cache-Control: no-store) needs no Vary', async () => {
    const route: Route = (req) => (atCard(req) ? json(req.headers.get('a2a-version') ? v1() : v03(), { headers: { 'cache-control': 'no-store' } }) : new Response('', { status: 404 }));
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
