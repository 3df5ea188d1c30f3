/**
 * A console session speaks every binding a run speaks: v1.0 gRPC through the host's transport (src/grpc), with the
 * card's required extensions activated on every call (the metadata a run's requests carry too).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1GrpcDemoAgent } from '../../demo-agents/v1-agent';
import type { MountedDemoAgent } from '../../demo-agents/mount';
import { createGrpcTransport } from '../../grpc/transport';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import { EXT_REQUIRED } from '../../testing/defect-agent/extensions';
import { startGrpcFront, type GrpcFront } from '../../testing/defect-agent/grpc';
import { openSession, SessionInputError, type Session } from '.';

const transport = createGrpcTransport();
const grpcHost = createNodeHost({ grpc: transport });
let agent: RunningDefectAgent;
let front: GrpcFront;
let cards: Server;
let base = '';
let sdk: MountedDemoAgent & { grpcUrl: string };
let sdkServer: Server;
let sdkBase = '';

beforeAll(async () => {
  // The test agent (v1.0, a required extension it enforces) behind a gRPC front; a card declaring both interfaces.
  agent = await startDefectAgent({ generation: 'v1.0', features: { extensions: true }, stepMs: 5, slowTaskMs: 400 });
  front = await startGrpcFront({ jsonRpcUrl: agent.url });
  const card = (await (await fetch(agent.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json()) as { supportedInterfaces: unknown[] };
  card.supportedInterfaces.push({ url: front.url, protocolBinding: 'GRPC', protocolVersion: '1.0' });
  cards = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
  await new Promise<void>((r) => cards.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(cards.address() as AddressInfo).port}`;
  // The official SDK's v1.0 agent with its gRPC server (@a2a-js/sdk/server/grpc).
  sdkServer = createServer();
  await new Promise<void>((r) => sdkServer.listen(0, '127.0.0.1', () => r()));
  sdkBase = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/demo/v1`;
  sdk = await startV1GrpcDemoAgent({ basePath: '/demo/v1', publicUrl: sdkBase, stepMs: 20, slowTaskMs: 600 });
  sdkServer.on('request', (req, res) => {
    if (!sdk.handle(req, res)) res.writeHead(404).end();
  });
});

afterAll(async () => {
  transport.close();
  await front?.close();
  await agent?.close();
  await sdk?.close();
  await Promise.all([cards, sdkServer].map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))));
});

async function grpcSession(url: string): Promise<Session> {
  const open = await openSession(grpcHost, { agentUrl: url, prefer: { binding: 'GRPC' } });
  if (!open.ok) throw new Error(open.unavailable.message);
  expect(open.target.binding).toBe('GRPC');
  return open.session;
}

describe('a console session over gRPC (the test agent behind a gRPC front)', () => {
  it('sends, streams and gets over gRPC, the required extension in every call, judged without findings', async () => {
    const s = await grpcSession(base);
    expect(s.binding).toBe('GRPC');
    expect(s.describe('send')).toBe('SendMessage');
    const calls = front.calls.length;
    const sent = await s.send({ text: 'Write a haiku about interoperability' });
    // Without the required extension the agent answers EXTENSION_SUPPORT_REQUIRED: the session activates it as a run does.
    expect(sent.ok, sent.summary).toBe(true);
    expect(sent.task?.state).toBe('completed');
    expect(sent.findings).toEqual([]);
    expect(sent.exchanges.at(-1)?.request.headers['a2a-extensions']).toBe(EXT_REQUIRED);
    expect(front.calls.slice(calls)).toEqual(['SendMessage']);
    const last = agent.requests.filter((r) => r.method === 'POST').at(-1);
    expect(last?.headers['a2a-extensions']).toBe(EXT_REQUIRED);

    const streamed = await s.stream({ text: 'Write a haiku about interoperability' });
    expect(streamed.ok, streamed.summary).toBe(true);
    expect(streamed.frames.length).toBeGreaterThan(1);
    expect(streamed.task?.state).toBe('completed');
    expect(streamed.findings, JSON.stringify(streamed.findings)).toEqual([]);
    expect(front.calls).toContain('SendStreamingMessage');

    const got = await s.get({ taskId: streamed.task!.id! });
    expect(got.ok, got.summary).toBe(true);
    expect(got.task?.id).toBe(streamed.task!.id);
    expect(front.calls.at(-1)).toBe('GetTask');
  });

  it('an unknown task is the agent’s NOT_FOUND status, read as the A2A error', async () => {
    const s = await grpcSession(base);
    const r = await s.get({ taskId: 'no-such-task' });
    expect(r.ok).toBe(false);
    expect(r.outcome).toBe('error');
    expect(r.summary).toMatch(/TASK_NOT_FOUND|not found/i);
  });

  it('extensions asked for come after the required ones in the same metadata', async () => {
    const s = await grpcSession(base);
    const r = await s.send({ text: 'Write a haiku', extensions: ['urn:example:other', EXT_REQUIRED] });
    expect(r.ok, r.summary).toBe(true);
    expect(r.exchanges.at(-1)?.request.headers['a2a-extensions']).toBe(`${EXT_REQUIRED},urn:example:other`);
  });

  it('a request cannot be re-sent as HTTP on a gRPC session (the caller’s mistake, not the agent’s)', async () => {
    const s = await grpcSession(base);
    await expect(s.raw({ method: 'POST', url: `${base}/`, headers: {}, body: '{}' })).rejects.toBeInstanceOf(SessionInputError);
  });

  it('a host without gRPC falls back to the HTTP interface and says why', async () => {
    const open = await openSession(createNodeHost(), { agentUrl: base, prefer: { binding: 'GRPC' } });
    expect(open.ok).toBe(true);
    expect(open.target.binding).toBe('JSONRPC');
    expect(open.target.evidence.join(' ')).toMatch(/no GRPC interface to test as requested/);
  });
});

describe('a console session over gRPC with the official SDK (v1.0 demo agent)', () => {
  it('sends and streams over gRPC', async () => {
    const s = await grpcSession(sdkBase);
    const sent = await s.send({ text: 'hello' });
    expect(sent.ok, sent.summary).toBe(true);
    expect(sent.method).toBe('SendMessage');
    expect(sent.exchanges.at(-1)?.request.url).toContain(sdk.grpcUrl.replace(/^grpc:\/\//, ''));
    const streamed = await s.stream({ text: 'hello' });
    expect(streamed.ok, streamed.summary).toBe(true);
    expect(streamed.frames.length).toBeGreaterThan(0);
  });
});
