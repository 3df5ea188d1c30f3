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

async function setup(variant: 'faithful' | 'differs' | 'bare-errors'): Promise<Setup> {
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

const check = async (s: Setup, grpc = true, id = 'interop.bindings'): Promise<CheckResult | undefined> => {
  const prefer = id === 'interop.bindings' ? undefined : { binding: 'GRPC' as const };
  const host = createNodeHost(grpc ? { grpc: transport } : {});
  const r = await runConformance(host, { agentUrl: s.base, only: [id], timeoutMs: 5000, prefer }, () => undefined);
  return Object.values(r.categories)
    .flat()
    .find((x) => x.id === id);
};

let faithful: Setup;
let differs: Setup;
let bare: Setup;
beforeAll(async () => {
  [faithful, differs, bare] = await Promise.all([setup('faithful'), setup('differs'), setup('bare-errors')]);
});
afterAll(async () => {
  transport.close();
  for (const s of setups) {
    await s.front.close();
    await s.agent.close();
    await new Promise<void>((r) => s.cards.close(() => r()));
  }
});

// Each test runs its own suite against its own agent: concurrently, to keep the file fast.
describe.concurrent('interop.bindings: binding equivalence across JSON-RPC and gRPC', () => {
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
    const r = await check(differs, false);
    expect(r?.status).toBe('skip');
    expect(r?.message).toMatch(/single testable interface/);
  });
});

describe.concurrent('errors.grpc-status: gRPC errors per v1.0.1 §5.4 / §10.6', () => {
  it('passes when errors carry the mapped status and an ErrorInfo', async () => {
    const r = await check(faithful, true, 'errors.grpc-status');
    expect(r?.status, r?.message).toBe('pass');
  });

  it('fails when errors are INTERNAL without ErrorInfo, saying what was expected', async () => {
    const r = await check(bare, true, 'errors.grpc-status');
    expect(r?.status, r?.message).toBe('fail');
    expect(r?.message).toMatch(/GetTask of an unknown task: status INTERNAL, expected NOT_FOUND/);
    expect(r?.message).toMatch(/no google\.rpc\.ErrorInfo/);
  });

  it('is not applicable on the other bindings', async () => {
    const r = await check(faithful, false, 'errors.grpc-status');
    expect(r?.status).toBe('skip');
  });
});
