// A list of independent test cases (describe blocks per check), long by nature: each case stands on its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import type { CheckResult } from '../model/check';
import type { Host, PreflightRequest, PreflightResult } from '../ports';
import { reportResults } from '../report/build';
import type { RunOptions } from '../runner/options';
import { runConformance } from '../runner/run';

const PEER = ['interop.peer.card', 'interop.peer.common', 'interop.peer.concurrent', 'interop.peer.relay'];
const base = (a: RunningDefectAgent) => a.cardUrl.replace(/\/\.well-known\/.*$/, '');

let v1a: RunningDefectAgent;
let v1b: RunningDefectAgent;
let v1rest: RunningDefectAgent;
let v03: RunningDefectAgent;
let broken: RunningDefectAgent;
beforeAll(async () => {
  const o = { slowTaskMs: 200, stepMs: 5 } as const;
  [v1a, v1b, v1rest, v03, broken] = await Promise.all([
    startDefectAgent({ generation: 'v1.0', ...o }),
    startDefectAgent({ generation: 'v1.0', ...o }),
    startDefectAgent({ generation: 'v1.0', binding: 'HTTP+JSON', ...o }),
    startDefectAgent({ generation: 'v0.3', ...o }),
    startDefectAgent({ generation: 'v1.0', defects: ['card-html-404'], ...o }),
  ]);
});
afterAll(async () => {
  await Promise.all([v1a, v1b, v1rest, v03, broken].map((a) => a?.close()));
});

async function peerRun(agent: RunningDefectAgent, peer: RunningDefectAgent) {
  const report = await runConformance(createNodeHost(), { agentUrl: base(agent), peerUrl: base(peer), only: PEER, timeoutMs: 5000 }, () => {});
  return { report, byId: Object.fromEntries(reportResults(report).map((r) => [r.id, r])) };
}

describe('two-agent interop (seed procedure 5.5)', () => {
  it('two v1.0 agents: card, common protocol, concurrent tasks and relay all pass; the peer is reported', async () => {
    const { byId, report } = await peerRun(v1a, v1b);
    expect(PEER.map((id) => [id, byId[id]!.status])).toEqual(PEER.map((id) => [id, 'pass']));
    expect(byId['interop.peer.common']!.message).toMatch(/1\.0 JSONRPC/);
    expect(report.targets.map((t) => t.role)).toEqual(['agent', 'peer']);
    expect(report.peerUrl).toBe(`${base(v1b)}/`);
  });

  it('a v1.0 agent and a v0.3 peer share no protocol: interop.peer.common fails, the rest still runs', async () => {
    const { byId } = await peerRun(v1a, v03);
    // Nothing requires two agents to share a protocol (MAY in every generation): an advisory, not a failure.
    expect(byId['interop.peer.common']!.status).toBe('advisory');
    expect(byId['interop.peer.common']!.message).toMatch(/The cards declare no common \(protocol version, binding\) pair/);
    expect(byId['interop.peer.common']!.recommendation).toMatch(/legacyCompat|common/);
    expect(byId['interop.peer.concurrent']!.status).toBe('pass');
  });

  it('same version, different bindings (JSON-RPC vs HTTP+JSON): no common interface', async () => {
    const { byId } = await peerRun(v1a, v1rest);
    expect(byId['interop.peer.common']!.status).toBe('advisory');
    expect(byId['interop.peer.common']!.evidence.map((e) => e.value).join(' ')).toMatch(/HTTP\+JSON/);
  });

  it('a peer without a card fails interop.peer.card and the checks that need it skip', async () => {
    const { byId } = await peerRun(v1a, broken);
    // The MUST to serve a card binds the peer, not the agent under test: an advisory here.
    expect(byId['interop.peer.card']!.status).toBe('advisory');
    expect(byId['interop.peer.card']!.message).toMatch(/recommended well-known paths/);
    expect(byId['interop.peer.concurrent']!.status).toBe('skip');
    expect(byId['interop.peer.relay']!.status).toBe('skip');
  });

  it('without a peer, the peer checks are not applicable', async () => {
    const report = await runConformance(createNodeHost(), { agentUrl: base(v1a), only: PEER }, () => {});
    expect(reportResults(report).map((r) => [r.status, r.skipKind])).toEqual(PEER.map(() => ['skip', 'not-applicable']));
  });
});

describe('card.extended', () => {
  const card = {
    ...sampleCard('v1.0'),
    capabilities: { streaming: false, extendedAgentCard: true },
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  const agent = (leaky: boolean) =>
    fakeHost(async (req) => {
      if (new URL(req.url).pathname === '/.well-known/agent-card.json') return json(card);
      const body = (await req.json()) as { id: string; method: string };
      if (body.method !== 'GetExtendedAgentCard') return json({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'nope' } });
      if (!leaky && req.headers.get('authorization') !== 'Bearer ext-secret-1')
        return new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      return json({ jsonrpc: '2.0', id: body.id, result: { ...card, name: 'Extended' } });
    }).host;
  const run = async (leaky: boolean, token?: string) => {
    const report = await runConformance(
      agent(leaky),
      { agentUrl: 'http://agent.test', only: ['card.extended'], credentials: token ? { kind: 'bearer', token } : undefined },
      () => {},
    );
    return reportResults(report)[0]!;
  };

  it('passes when the extended card needs the credentials and is served with them', async () => {
    expect((await run(false, 'ext-secret-1')).status).toBe('pass');
    const anonymousOnly = await run(false);
    expect(anonymousOnly.status).toBe('pass');
    expect(anonymousOnly.message).toMatch(/Refused without credentials \(HTTP 401\)/);
  });

  it('fails when the extended card is served without credentials; refused credentials are a credentials skip', async () => {
    const leak = await run(true);
    expect(leak.status).toBe('fail');
    expect(leak.message).toMatch(/served without credentials/);
    // Credentials refused (401) say nothing about the agent: skipped, naming the credentials.
    const wrong = await run(false, 'wrong-token-9');
    expect([wrong.status, wrong.skipKind]).toEqual(['skip', 'credentials']);
    expect(wrong.message).toMatch(/refused the credentials given for the extended card \(HTTP 401\)/);
  });
});

// ------------------------------------------------------------------ scripted agents (no defect agent needed)

type Handler = (req: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

/** A host that serves `route`, and (like the Node host) can send CORS preflights: OPTIONS with Origin to the route. */
function hostWith(route: Handler, withPreflight = true) {
  const fake = fakeHost(async (req) => (await route(req, new URL(req.url))) ?? new Response('not found', { status: 404 }));
  const host: Host = {
    ...fake.host,
    ...(withPreflight && {
      preflight: async (p: PreflightRequest): Promise<PreflightResult> => {
        const headers: Record<string, string> = { origin: p.origin, 'access-control-request-method': p.method };
        if (p.headers.length) headers['access-control-request-headers'] = p.headers.join(', ');
        const res = await fake.host.fetch(p.url, { method: 'OPTIONS', headers });
        return { ok: true, status: res.status, headers: Object.fromEntries(res.headers) };
      },
    }),
  };
  return { host, requests: fake.requests };
}

async function runOnly(host: Host, only: string[], extra: Partial<RunOptions> = {}) {
  const report = await runConformance(host, { agentUrl: 'http://agent.test', only, timeoutMs: 1500, ...extra }, () => {});
  return Object.fromEntries(reportResults(report).map((r) => [r.id, r])) as Record<string, CheckResult>;
}

const rpcBody = async (req: Request) => (await req.clone().json()) as { id: unknown; method: string; params?: Record<string, unknown> };
const rpcResult = (id: unknown, result: unknown) => json({ jsonrpc: '2.0', id, result });
const rpcError = (id: unknown, code: number, message: string, data?: unknown) =>
  json({ jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined && { data }) } });
const v1Task = (id: string, state = 'TASK_STATE_COMPLETED') => ({ id, contextId: 'c1', status: { state } });
const v03Task = (id: string, state = 'completed') => ({ kind: 'task', id, contextId: 'c1', status: { state } });

describe('browser readiness (CORS, Fetch Standard)', () => {
  const CORS = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];
  /** CORS answers: ACAO * on everything; preflights list `allowHeaders`, and no Access-Control-Allow-Methods (POST and GET are safelisted). */
  const corsAgent = (card: Record<string, unknown>, allowHeaders: string, cardPreflight = true) =>
    hostWith((req, url) => {
      if (req.method === 'OPTIONS') {
        if (url.pathname.startsWith('/.well-known/') && !cardPreflight) return new Response(null, { status: 405 });
        return new Response(null, { status: 204, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': allowHeaders } });
      }
      if (url.pathname === '/.well-known/agent-card.json') return json(card, { headers: { 'access-control-allow-origin': '*' } });
      return undefined;
    });

  it('v0.3: the card is a simple GET (no preflight, no A2A-Version); POST need not be listed in Allow-Methods', async () => {
    const { host, requests } = corsAgent(sampleCard('v0.3'), 'content-type', false);
    const byId = await runOnly(host, CORS);
    expect(CORS.map((id) => [id, byId[id]!.status])).toEqual(CORS.map((id) => [id, 'pass']));
    expect(byId['interop.cors.card']!.message).toMatch(/plain GET; no preflight is involved/);
    const cardGet = requests.find((r) => r.method === 'GET' && r.headers.get('origin'));
    expect(cardGet?.url).toBe('http://agent.test/.well-known/agent-card.json');
    expect(requests.filter((r) => r.method === 'OPTIONS').map((r) => r.headers.get('access-control-request-headers'))).toEqual([
      'content-type',
      'content-type',
    ]);
  });

  it('v0.3: a card GET without Access-Control-Allow-Origin is reported (an advisory)', async () => {
    const { host } = hostWith((req, url) => (url.pathname === '/.well-known/agent-card.json' && req.method === 'GET' ? json(sampleCard('v0.3')) : undefined));
    const byId = await runOnly(host, ['interop.cors.card']);
    expect(byId['interop.cors.card']!.status).toBe('advisory');
    expect(byId['interop.cors.card']!.message).toMatch(/could not read the agent card: no Access-Control-Allow-Origin/);
  });

  it('v1.0: a missing A2A-Version allowance is reported apart (the query parameter works, §3.6.1), not as "could not call"', async () => {
    const { host } = corsAgent(sampleCard('v1.0'), 'content-type');
    const byId = await runOnly(host, CORS);
    expect(byId['interop.cors.rpc']!.status).toBe('advisory');
    expect(byId['interop.cors.rpc']!.message).toMatch(/can call the RPC endpoint only without the A2A-Version header.*\?A2A-Version=1\.0/);
    expect(byId['interop.cors.rpc']!.message).not.toMatch(/could not call/);
    expect(byId['interop.cors.card']!.message).toMatch(
      /readable from another origin without the A2A-Version header \(as a query parameter, v1\.0 §3\.6\.1\), but not with it/,
    );
  });

  it('v1.0: everything allowed passes; Content-Type missing from Allow-Headers still means a page could not call', async () => {
    const ok = await runOnly(corsAgent(sampleCard('v1.0'), 'content-type, a2a-version').host, CORS);
    expect(CORS.map((id) => ok[id]!.status)).toEqual(['pass', 'pass', 'pass']);
    const bad = await runOnly(corsAgent(sampleCard('v1.0'), 'a2a-version').host, ['interop.cors.rpc']);
    expect(bad['interop.cors.rpc']!.status).toBe('advisory');
    expect(bad['interop.cors.rpc']!.message).toMatch(/could not call the RPC endpoint: Access-Control-Allow-Headers does not allow content-type/);
  });
});

describe('card.extended: defined answers and locations', () => {
  const bearer = {
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  const v1Card = { ...sampleCard('v1.0'), capabilities: { streaming: false, extendedAgentCard: true }, ...bearer };
  const TOKEN = 'ext-secret-2';
  const authed = (req: Request) => req.headers.get('authorization') === `Bearer ${TOKEN}`;
  const runExt = (route: Handler, card: Record<string, unknown>, token: string | undefined = TOKEN) =>
    runOnly(
      hostWith((req, url) => (url.pathname.startsWith('/.well-known/agent') ? json(card) : route(req, url)), false).host,
      ['card.extended'],
      token ? { credentials: { kind: 'bearer', token } } : {},
    ).then((r) => r['card.extended']!);

  it('v1.0: ExtendedAgentCardNotConfiguredError with credentials is the required answer, not a failure', async () => {
    const r = await runExt(async (req) => {
      const b = await rpcBody(req);
      if (!authed(req)) return new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      return rpcError(b.id, -32007, 'Extended card not configured', [
        { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED', domain: 'a2a-protocol.org' },
      ]);
    }, v1Card);
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/no extended card is configured \(-32007 EXTENDED_AGENT_CARD_NOT_CONFIGURED\), a defined answer/);
  });

  it('v0.3: -32007 with credentials passes', async () => {
    const card = {
      ...sampleCard('v0.3'),
      supportsAuthenticatedExtendedCard: true,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      security: [{ bearer: [] }],
    };
    const r = await runExt(async (req) => {
      const b = await rpcBody(req);
      return authed(req) ? rpcError(b.id, -32007, 'Authenticated Extended Card not configured') : new Response('', { status: 401 });
    }, card);
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/AuthenticatedExtendedCardNotConfiguredError -32007/);
  });

  it('403 with the credentials given is a credentials skip, not a failure', async () => {
    const r = await runExt(async (req) => (authed(req) ? new Response('forbidden', { status: 403 }) : new Response('', { status: 401 })), v1Card);
    expect([r.status, r.skipKind]).toEqual(['skip', 'credentials']);
    expect(r.message).toMatch(/HTTP 403: authenticated, not authorized/);
  });

  it('v0.3: schemes declared but no card-level security requirement: anonymous access is allowed', async () => {
    const card = { ...sampleCard('v0.3'), supportsAuthenticatedExtendedCard: true, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } };
    const r = await runExt(async (req) => rpcResult((await rpcBody(req)).id, { ...card, name: 'Extended' }), card, undefined);
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/served without credentials, which the card allows/);
  });

  it('v1.0: served anonymously while the card declares a scheme still fails (§13.3 MUST)', async () => {
    const r = await runExt(async (req) => rpcResult((await rpcBody(req)).id, { ...v1Card, name: 'Extended' }), v1Card, undefined);
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/served without credentials .*§13\.3/);
  });

  const v02Card = (url: string) => ({
    ...sampleCard('v0.3'),
    protocolVersion: '0.2.6',
    url,
    supportsAuthenticatedExtendedCard: true,
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    security: [{ bearer: [] }],
  });

  it('v0.2: the card at {url}/../agent/authenticatedExtendedCard (the §7.10 example) is found', async () => {
    const card = v02Card('http://agent.test/a2a/v1');
    const r = await runExt((req, url) => {
      if (url.pathname !== '/a2a/agent/authenticatedExtendedCard') return undefined;
      return authed(req) ? json({ ...card, name: 'Extended' }) : new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    }, card);
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/served to authenticated clients \(GET http:\/\/agent\.test\/a2a\/agent\/authenticatedExtendedCard\)/);
  });

  it('v0.2: served nowhere we look is an advisory (the location is ambiguous in v0.2.6)', async () => {
    const r = await runExt(() => undefined, v02Card('http://agent.test/a2a/v1'));
    expect(r.status).toBe('advisory');
    expect(r.advisoryReason).toMatch(/names the location two ways/);
  });
});

describe('interop.bindings: functional equivalence', () => {
  const twoInterfaces = {
    ...sampleCard('v1.0'),
    capabilities: { streaming: false },
    supportedInterfaces: [
      { url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://agent.test/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
  };
  const invalid = { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'this skill needs a date', details: [] } };

  it('both interfaces refuse the input with the same error: equivalent, pass', async () => {
    const { host } = hostWith(async (req, url) => {
      if (url.pathname === '/.well-known/agent-card.json') return json(twoInterfaces);
      if (url.pathname === '/rpc') return rpcError((await rpcBody(req)).id, -32602, 'this skill needs a date');
      if (url.pathname === '/rest/message:send') return json(invalid, { status: 400 });
      return undefined;
    }, false);
    const r = (await runOnly(host, ['interop.bindings']))['interop.bindings']!;
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/refused the input with INVALID_ARGUMENT .*as the main interface did \(-32602/);
  });

  it('the other interface refuses what the main one accepts: a failure', async () => {
    const { host } = hostWith(async (req, url) => {
      if (url.pathname === '/.well-known/agent-card.json') return json(twoInterfaces);
      if (url.pathname === '/rpc') {
        const b = await rpcBody(req);
        return rpcResult(b.id, b.method === 'SendMessage' ? { task: v1Task('t1') } : v1Task('t1'));
      }
      if (url.pathname === '/rest/message:send') return json(invalid, { status: 400 });
      return undefined;
    }, false);
    const r = (await runOnly(host, ['interop.bindings']))['interop.bindings']!;
    expect(r.status).toBe('fail');
    expect(r.message).toMatch(/do not work like the main one: .*The main interface ran the same input to terminal/);
  });

  it('v1.0: a protocolVersion 0.3 interface at the same URL is called the v0.3 way (no A2A-Version: "MUST interpret empty value as 0.3")', async () => {
    const card = {
      ...sampleCard('v1.0'),
      capabilities: { streaming: false },
      supportedInterfaces: [
        { url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'http://agent.test/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
    };
    const { host, requests } = hostWith(async (req, url) => {
      if (url.pathname === '/.well-known/agent-card.json') return json(card);
      if (url.pathname !== '/rpc') return undefined;
      const b = await rpcBody(req);
      const v03 = !req.headers.get('a2a-version');
      if (b.method === 'message/send' && v03) return rpcResult(b.id, v03Task('t3'));
      if (b.method === 'tasks/get' && v03) return rpcResult(b.id, v03Task('t3'));
      if (b.method === 'SendMessage') return rpcResult(b.id, { task: v1Task('t1') });
      if (b.method === 'GetTask') return rpcResult(b.id, v1Task('t1'));
      return rpcError(b.id, -32601, 'Method not found');
    }, false);
    const r = (await runOnly(host, ['interop.bindings']))['interop.bindings']!;
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/^1 other interface\(s\) answer send and get like the main one/);
    const v03Calls = await Promise.all(requests.filter((q) => q.method === 'POST').map(async (q) => [(await rpcBody(q)).method, q.headers.get('a2a-version')]));
    expect(v03Calls).toContainEqual(['message/send', null]);
  });

  it('v0.3: an HTTP+JSON URL that already ends in /v1 is not given a second /v1', async () => {
    const card = {
      ...sampleCard('v0.3'),
      capabilities: { streaming: false },
      additionalInterfaces: [{ url: 'http://agent.test/rest/v1', transport: 'HTTP+JSON' }],
    };
    const { host, requests } = hostWith(async (req, url) => {
      if (url.pathname === '/.well-known/agent-card.json') return json(card);
      if (url.pathname === '/rpc') {
        const b = await rpcBody(req);
        return rpcResult(b.id, v03Task('t1'));
      }
      if (url.pathname === '/rest/v1/message:send') return json({ task: { id: 't2', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } });
      if (url.pathname === '/rest/v1/tasks/t2') return json({ id: 't2', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } });
      return undefined;
    }, false);
    const r = (await runOnly(host, ['interop.bindings']))['interop.bindings']!;
    expect(requests.map((q) => new URL(q.url).pathname)).not.toContain('/rest/v1/v1/message:send');
    expect(r.status).toBe('pass');
  });
});

describe('two-agent checks with scripted agents', () => {
  const PEER_CHECKS = ['interop.peer.common', 'interop.peer.concurrent', 'interop.peer.relay'];
  /** Two v1.0 agents on two hosts; each numbers its tasks t-1, t-2, … on its own. */
  function twoAgents(opts: { agentReply?: 'message'; peerModes?: string[]; peerSlow?: boolean; agentSameId?: boolean; agentBusy?: number } = {}) {
    let agentSends = 0;
    const counters: Record<string, number> = {};
    return hostWith(async (req, url) => {
      const who = url.hostname.startsWith('peer') ? 'peer' : 'agent';
      if (url.pathname === '/.well-known/agent-card.json') {
        const card = sampleCard('v1.0', `http://${url.hostname}`);
        return json({ ...card, capabilities: { streaming: false }, ...(who === 'peer' && opts.peerModes && { defaultInputModes: opts.peerModes }) });
      }
      if (url.pathname !== '/rpc') return undefined;
      const b = await rpcBody(req);
      if (b.method === 'SendMessage') {
        if (who === 'agent' && opts.agentBusy && [2, 3].includes(++agentSends)) return new Response('busy', { status: opts.agentBusy });
        if (who === 'agent' && opts.agentReply === 'message')
          return rpcResult(b.id, { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'agent says hi' }] } });
        const id = who === 'agent' && opts.agentSameId ? 't-1' : `t-${(counters[who] = (counters[who] ?? 0) + 1)}`;
        return rpcResult(b.id, {
          task: {
            ...v1Task(id, who === 'peer' && opts.peerSlow ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED'),
            artifacts: [{ artifactId: 'a', parts: [{ text: `${who} output` }] }],
          },
        });
      }
      if (b.method === 'GetTask')
        return rpcResult(b.id, {
          ...v1Task(String(b.params?.id), who === 'peer' && opts.peerSlow ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED'),
          artifacts: [{ artifactId: 'a', parts: [{ text: `${who} output` }] }],
        });
      return rpcError(b.id, -32601, 'Method not found');
    }, false).host;
  }
  const runPeers = (host: Host, only = PEER_CHECKS) => runOnly(host, only, { peerUrl: 'http://peer.test' });

  it('task ids are unique per agent: two agents that both number their tasks t-1, t-2 pass', async () => {
    const byId = await runPeers(twoAgents(), ['interop.peer.concurrent']);
    expect(byId['interop.peer.concurrent']!.status).toBe('pass');
    expect(byId['interop.peer.concurrent']!.message).toMatch(/distinct ids per agent/);
  });

  it('a shared task id: a MUST failure in v1.0 (§3.4.2), an advisory in v0.2/v0.3 (the schema only describes the id as unique)', async () => {
    const o = { slowTaskMs: 200, stepMs: 5 } as const;
    for (const generation of ['v0.2', 'v0.3', 'v1.0'] as const) {
      const [agent, peer] = await Promise.all([
        startDefectAgent({ generation, defects: ['duplicate-task-ids'], ...o }),
        startDefectAgent({ generation, ...o }),
      ]);
      try {
        const r = (await peerRun(agent, peer)).byId['interop.peer.concurrent']!;
        expect(r.message, generation).toMatch(/Two concurrent tasks of the agent share the id/);
        expect([r.status, r.level], generation).toEqual(generation === 'v1.0' ? ['fail', 'MUST'] : ['advisory', 'MAY']);
      } finally {
        await Promise.all([agent.close(), peer.close()]);
      }
    }
  });

  it('one agent giving two concurrent tasks the same id fails', async () => {
    const byId = await runPeers(twoAgents({ agentSameId: true }), ['interop.peer.concurrent']);
    expect(byId['interop.peer.concurrent']!.status).toBe('fail');
    expect(byId['interop.peer.concurrent']!.message).toMatch(/Two concurrent tasks of the agent share the id t-1/);
  });

  it('refusals under concurrency: a 409 is a robustness advisory, a lasting 429 our limit, a 500 from the agent a failure', async () => {
    const busy = (await runPeers(twoAgents({ agentBusy: 409 }), ['interop.peer.concurrent']))['interop.peer.concurrent']!;
    expect([busy.status, busy.message]).toEqual(['advisory', expect.any(String)]);
    expect(busy.message).toMatch(/1 of 4 concurrent task\(s\) failed: /);
    expect(busy.advisoryReason).toMatch(/robustness finding/);
    const limited = (await runPeers(twoAgents({ agentBusy: 429 }), ['interop.peer.concurrent']))['interop.peer.concurrent']!;
    expect([limited.status, limited.skipKind]).toEqual(['skip', 'tool-limit']);
    const crash = (await runPeers(twoAgents({ agentBusy: 500 }), ['interop.peer.concurrent']))['interop.peer.concurrent']!;
    expect([crash.status, crash.critical]).toEqual(['fail', true]);
  });

  it('peer tasks still running when our budget ends: a tool-limit skip, not a failure', async () => {
    const byId = await runPeers(twoAgents({ peerSlow: true }), ['interop.peer.concurrent']);
    const r = byId['interop.peer.concurrent']!;
    expect([r.status, r.skipKind]).toEqual(['skip', 'tool-limit']);
    expect(r.message).toMatch(/did not settle within our 1500 ms budget .*--timeout/);
  });

  it('relay: a Message reply is output too', async () => {
    const byId = await runPeers(twoAgents({ agentReply: 'message' }), ['interop.peer.relay']);
    expect(byId['interop.peer.relay']!.status).toBe('pass');
  });

  it('relay: a receiver that declares no text input mode is not applicable', async () => {
    const byId = await runPeers(twoAgents({ peerModes: ['image/png'] }), ['interop.peer.relay']);
    expect([byId['interop.peer.relay']!.status, byId['interop.peer.relay']!.skipKind]).toEqual(['skip', 'not-applicable']);
    expect(byId['interop.peer.relay']!.message).toMatch(/the peer declares no text input mode/);
  });
});
