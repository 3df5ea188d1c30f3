import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1GrpcDemoAgent } from '../demo-agents/v1-agent';
import type { MountedDemoAgent } from '../demo-agents/mount';
import type { Report } from '../engine/model/report';
import { runConformance } from '../engine/runner/run';
import { createNodeHost } from '../hosts/node';
import { A2A_SERVICE, decodeJson, encodeJson, lookupType } from './protojson';
import { createGrpcTransport, grpcTarget } from './transport';

let server: Server;
let agent: MountedDemoAgent & { grpcUrl: string };
let base = '';
const transport = createGrpcTransport();

beforeAll(async () => {
  server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/demo/v1`;
  agent = await startV1GrpcDemoAgent({ basePath: '/demo/v1', publicUrl: base, stepMs: 20, slowTaskMs: 600 });
  server.on('request', (req, res) => {
    if (!agent.handle(req, res)) res.writeHead(404).end();
  });
});

afterAll(async () => {
  transport.close();
  await agent.close();
  await new Promise<void>((r) => server.close(() => r()));
});

const call = (method: string, message: unknown, metadata: Record<string, string> = { 'a2a-version': '1.0' }) =>
  transport.unary({ url: agent.grpcUrl, method: `/lf.a2a.v1.A2AService/${method}`, message, metadata, timeoutMs: 5000 });

describe('the Node gRPC transport against the v1.0 demo agent (@a2a-js/sdk/server/grpc)', () => {
  it('sends ProtoJSON, answers ProtoJSON: a Task with enum names and RFC 3339 timestamps', async () => {
    const r = await call('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }], metadata: { trace: { n: 1, on: true } } },
      configuration: { returnImmediately: false },
    });
    expect(r.code, r.statusMessage).toBe(0);
    expect(r.responded).toBe(true);
    const task = (r.messages[0] as { task: { id: string; status: { state: string; timestamp: string } } }).task;
    expect(task.status.state).toMatch(/^TASK_STATE_/);
    expect(task.status.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    const got = await call('GetTask', { id: task.id });
    expect((got.messages[0] as { id: string }).id).toBe(task.id);
  });

  it('reads the error status and its google.rpc.ErrorInfo details', async () => {
    const r = await call('GetTask', { id: 'no-such-task' });
    expect(r.status).toBe('NOT_FOUND');
    expect(r.details).toContainEqual(expect.objectContaining({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND' }));
  });

  it('streams messages and stops when asked; a closed port is a connect failure; a bad URL is our failure', async () => {
    const seen: unknown[] = [];
    const r = await transport.serverStream(
      {
        url: agent.grpcUrl,
        method: '/lf.a2a.v1.A2AService/SendStreamingMessage',
        message: { message: { messageId: 'm2', role: 'ROLE_USER', parts: [{ text: 'haiku' }] } },
        metadata: { 'a2a-version': '1.0' },
        timeoutMs: 5000,
      },
      (m) => {
        seen.push(m);
        return seen.length === 2 ? 'stop' : undefined;
      },
    );
    expect(seen).toHaveLength(2);
    expect(r.error?.kind).toBe('aborted');
    const closed = await transport.unary({ url: '127.0.0.1:1', method: '/lf.a2a.v1.A2AService/GetTask', message: { id: 'x' }, metadata: {}, timeoutMs: 3000 });
    expect(closed.error?.kind).toBe('connect');
    const bad = await transport.unary({ url: 'ftp://x', method: '/lf.a2a.v1.A2AService/GetTask', message: {}, metadata: {}, timeoutMs: 100 });
    expect(bad.error?.kind).toBe('tool');
  });

  it('ProtoJSON round trip of the well-known types (Struct, Value, Timestamp) and int64 as strings', () => {
    const t = lookupType('lf.a2a.v1.Message');
    expect(t).toBeDefined();
    if (!t) return;
    const json = { messageId: 'a', role: 'ROLE_AGENT', parts: [{ data: { a: [1, 'b', null, { c: true }] } }, { text: 'x' }], metadata: { k: 'v' } };
    expect(decodeJson(t, encodeJson(t, json))).toEqual(json);
    const s = lookupType('lf.a2a.v1.TaskStatus');
    if (s)
      expect(decodeJson(s, encodeJson(s, { state: 'TASK_STATE_WORKING', timestamp: '2026-01-02T03:04:05.120Z' }))).toEqual({
        state: 'TASK_STATE_WORKING',
        timestamp: '2026-01-02T03:04:05.120Z',
      });
    expect(Object.keys(A2A_SERVICE.methods)).toContain('SubscribeToTask');
  });

  it('the committed JSON descriptor is the one scripts/gen-grpc-descriptor.mjs makes from spec/a2a/v1.0.1/a2a.proto', async () => {
    // @ts-expect-error -- a plain ESM script without declarations
    const { buildDescriptor } = (await import('../../scripts/gen-grpc-descriptor.mjs')) as { buildDescriptor(): string };
    expect(readFileSync(new URL('./a2a-descriptor.json', import.meta.url), 'utf8')).toBe(buildDescriptor());
  });

  it('interface URLs: host:port (plaintext on loopback, TLS elsewhere), grpc://, grpcs://, https://', () => {
    expect(grpcTarget('127.0.0.1:50051')).toEqual({ authority: '127.0.0.1:50051', tls: false });
    expect(grpcTarget('agent.example.com:443')).toEqual({ authority: 'agent.example.com:443', tls: true });
    expect(grpcTarget('grpc://h:1')).toEqual({ authority: 'h:1', tls: false });
    expect(grpcTarget('grpcs://h')).toEqual({ authority: 'h:443', tls: true });
    expect(grpcTarget('https://h/a2a/grpc')).toEqual({ authority: 'h:443', tls: true });
    expect(() => grpcTarget('ws://h')).toThrow();
  });
});

describe('the suite over gRPC', () => {
  let report: Report;
  beforeAll(async () => {
    report = await runConformance(createNodeHost({ grpc: transport }), { agentUrl: base, timeoutMs: 8000, prefer: { binding: 'GRPC' } }, () => undefined);
  }, 30_000);
  const byId = () => new Map(Object.values(report.categories).flatMap((c) => c.map((x) => [x.id, x] as const)));

  it('passes on the v1.0 demo agent: full, tested over GRPC', () => {
    expect(report.protocol.binding).toBe('GRPC');
    expect(report.protocol.endpointUrl).toBe(agent.grpcUrl);
    const failed = [...byId().values()].filter((x) => x.status === 'fail' || x.status === 'error').map((x) => `${x.id}: ${x.message}`);
    expect(failed).toEqual([]);
    expect(report.conformanceLevel, report.levelReason).toBe('full');
  });

  it('runs the operations over gRPC and skips, saying why, what does not apply', () => {
    const r = byId();
    for (const id of [
      'lifecycle.send',
      'lifecycle.get',
      'lifecycle.cancel',
      'lifecycle.list',
      'streaming.framing',
      'streaming.resubscribe',
      'errors.subscribe-terminal',
    ])
      expect(r.get(id)?.status, `${id}: ${r.get(id)?.message}`).toBe('pass');
    expect(r.get('errors.invalid-json')).toMatchObject({ status: 'skip', skipKind: 'not-applicable' });
    expect(r.get('streaming.content-type')?.message).toMatch(/server-streaming RPCs/);
  });
});
