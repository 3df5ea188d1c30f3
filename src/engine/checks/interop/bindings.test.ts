import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGrpcTransport } from '../../../grpc/transport';
import { createNodeHost } from '../../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent';
import { startGrpcFront, type GrpcFront } from '../../../testing/defect-agent/grpc';
import type { CheckResult } from '../../model/check';
import { runConformance } from '../../runner/run';

/** A v1.0 JSON-RPC test agent with a gRPC front (faithful or differing), declared by a card served beside them. */
interface Setup {
  agent: RunningDefectAgent;
  front: GrpcFront;
  cards: Server;
  base: string;
}
const setups: Setup[] = [];
const transport = createGrpcTransport();

async function setup(variant: 'faithful' | 'differs'): Promise<Setup> {
  const agent = await startDefectAgent({ generation: 'v1.0' });
  const front = await startGrpcFront({ jsonRpcUrl: agent.url, variant });
  const card = (await (await fetch(agent.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json()) as { supportedInterfaces: unknown[] };
  card.supportedInterfaces.push({ url: front.url, protocolBinding: 'GRPC', protocolVersion: '1.0' });
  const cards = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
  await new Promise<void>((r) => cards.listen(0, '127.0.0.1', () => r()));
  const s = { agent, front, cards, base: `http://127.0.0.1:${(cards.address() as AddressInfo).port}` };
  setups.push(s);
  return s;
}

const check = async (s: Setup, grpc = true): Promise<CheckResult | undefined> => {
  const r = await runConformance(
    createNodeHost(grpc ? { grpc: transport } : {}),
    { agentUrl: s.base, only: ['interop.bindings'], timeoutMs: 5000 },
    () => undefined,
  );
  return Object.values(r.categories)
    .flat()
    .find((x) => x.id === 'interop.bindings');
};

let faithful: Setup;
let differs: Setup;
beforeAll(async () => {
  [faithful, differs] = await Promise.all([setup('faithful'), setup('differs')]);
});
afterAll(async () => {
  transport.close();
  for (const s of setups) {
    await s.front.close();
    await s.agent.close();
    await new Promise<void>((r) => s.cards.close(() => r()));
  }
});

describe('interop.bindings: binding equivalence across JSON-RPC and gRPC', () => {
  it('passes when the gRPC interface answers like the JSON-RPC one (and really called it)', async () => {
    const r = await check(faithful);
    expect(r?.status, r?.message).toBe('pass');
    expect(faithful.front.calls).toContain('SendMessage');
  });

  it('fails when the gRPC answer differs from the JSON-RPC one (a Message instead of a Task)', async () => {
    const r = await check(differs);
    expect(r?.status, r?.message).toBe('fail');
    expect(r?.message).toMatch(/GRPC v1\.0 127\.0\.0\.1:\d+: answered the same input with a Message, the main interface with a Task/);
  });

  it('leaves gRPC alone when the host cannot speak it', async () => {
    const before = differs.front.calls.length;
    const r = await check(differs, false);
    expect(r?.status).toBe('skip');
    expect(differs.front.calls.length).toBe(before);
  });
});
