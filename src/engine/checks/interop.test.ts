import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import { reportResults } from '../report/build';
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
    expect(byId['interop.peer.common']!.status).toBe('fail');
    expect(byId['interop.peer.common']!.recommendation).toMatch(/legacyCompat|common/);
    expect(byId['interop.peer.concurrent']!.status).toBe('pass');
  });

  it('same version, different bindings (JSON-RPC vs HTTP+JSON): no common interface', async () => {
    const { byId } = await peerRun(v1a, v1rest);
    expect(byId['interop.peer.common']!.status).toBe('fail');
    expect(byId['interop.peer.common']!.evidence.map((e) => e.value).join(' ')).toMatch(/HTTP\+JSON/);
  });

  it('a peer without a card fails interop.peer.card and the checks that need it skip', async () => {
    const { byId } = await peerRun(v1a, broken);
    expect(byId['interop.peer.card']!.status).toBe('fail');
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
      if (!leaky && req.headers.get('authorization') !== 'Bearer ext-secret-1') return new Response('', { status: 401, headers: { 'www-authenticate': 'Bearer' } });
      return json({ jsonrpc: '2.0', id: body.id, result: { ...card, name: 'Extended' } });
    }).host;
  const run = async (leaky: boolean, token?: string) => {
    const report = await runConformance(agent(leaky), { agentUrl: 'http://agent.test', only: ['card.extended'], credentials: token ? { kind: 'bearer', token } : undefined }, () => {});
    return reportResults(report)[0]!;
  };

  it('passes when the extended card needs the credentials and is served with them', async () => {
    expect((await run(false, 'ext-secret-1')).status).toBe('pass');
    const anonymousOnly = await run(false);
    expect(anonymousOnly.status).toBe('pass');
    expect(anonymousOnly.message).toMatch(/Refused without credentials \(HTTP 401\)/);
  });

  it('fails when the extended card is served without credentials, or not served with them', async () => {
    const leak = await run(true);
    expect(leak.status).toBe('fail');
    expect(leak.message).toMatch(/served without credentials/);
    const wrong = await run(false, 'wrong-token-9');
    expect(wrong.status).toBe('fail');
    expect(wrong.message).toMatch(/not returned \(HTTP 401\)/);
  });
});
