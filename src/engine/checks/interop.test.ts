import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
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
