import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GrpcResult, GrpcTransport } from '../engine/ports';
import { createBrowserHost } from '../hosts/browser';
import { createGrpcBridge, HOSTED_GRPC_MESSAGE } from './bridge';
import { createBridgeTransport } from './bridge-client';
import { createNodeGrpcBridgeMount } from './bridge-node';

const OK: GrpcResult = { code: 0, status: 'OK', statusMessage: '', details: [], messages: [], headers: {}, trailers: {}, responded: true, bytes: 1 };
const seen: { metadata: Record<string, string>; method: string }[] = [];
/** A fake agent behind the bridge: GetTask answers a task, streams send three messages unless stopped. */
const fake: GrpcTransport = {
  unary: async (r) => {
    seen.push(r);
    return { ...OK, messages: [{ id: (r.message as { id: string }).id, status: { state: 'TASK_STATE_WORKING' } }] };
  },
  serverStream: async (r, onMessage) => {
    for (let i = 1; i <= 3; i++) {
      if (r.signal?.aborted) return { ...OK, code: undefined, error: { kind: 'aborted', message: 'x' } };
      if (onMessage({ statusUpdate: { taskId: 't', status: { state: i === 3 ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_WORKING' } } }) === 'stop') break;
      await new Promise((res) => setTimeout(res, 5));
    }
    return OK;
  },
};

const ORIGIN = 'http://127.0.0.1:4173';
const local = createGrpcBridge({ transport: fake, mode: 'local' });
const viaHandler =
  (handler: (r: Request) => Promise<Response | undefined>, origin = ORIGIN): typeof fetch =>
  async (input, init) => {
    const req = new Request(new URL(String(input), ORIGIN), init);
    const h = new Headers(req.headers);
    h.set('origin', origin);
    return (await handler(new Request(req, { headers: h }))) ?? new Response('not mine', { status: 404 });
  };
const call = { url: '127.0.0.1:5000', method: '/lf.a2a.v1.A2AService/GetTask', message: { id: 't1' }, metadata: { 'a2a-version': '1.0' }, timeoutMs: 2000 };

describe('the gRPC bridge (browser -> local server -> gRPC)', () => {
  it('relays a unary call: request, metadata and the GrpcResult', async () => {
    const t = createBridgeTransport({ url: '/grpc-bridge', fetch: viaHandler(local) });
    const r = await t.unary(call);
    expect(r.code).toBe(0);
    expect(r.messages).toEqual([{ id: 't1', status: { state: 'TASK_STATE_WORKING' } }]);
    expect(seen.at(-1)?.metadata).toEqual({ 'a2a-version': '1.0' });
  });

  it('relays a stream message by message with the final status, and stops when the engine says so', async () => {
    const t = createBridgeTransport({ url: '/grpc-bridge', fetch: viaHandler(local) });
    const got: unknown[] = [];
    const r = await t.serverStream({ ...call, method: '/lf.a2a.v1.A2AService/SubscribeToTask' }, (m) => void got.push(m));
    expect(got).toHaveLength(3);
    expect(r.code).toBe(0);
    const some: unknown[] = [];
    const stopped = await t.serverStream(call, (m) => (some.push(m), 'stop'));
    expect(some).toHaveLength(1);
    expect(stopped.error?.kind).toBe('aborted');
  });

  it('a hosted server refuses: gRPC needs the local server (our failure, said as such)', async () => {
    const hosted = createGrpcBridge({ transport: fake, mode: 'hosted' });
    const r = await createBridgeTransport({ url: '/grpc-bridge', fetch: viaHandler(hosted) }).unary(call);
    expect(r.error).toEqual({ kind: 'tool', message: HOSTED_GRPC_MESSAGE });
    expect(r.code).toBeUndefined();
  });

  it('refuses foreign origins, other methods and non-JSON bodies; ignores other paths', async () => {
    const foreign = await createBridgeTransport({ url: '/grpc-bridge', fetch: viaHandler(local, 'https://evil.example') }).unary(call);
    expect(foreign.error?.message).toMatch(/origin/);
    const other = await createBridgeTransport({ url: '/grpc-bridge', fetch: viaHandler(local) }).unary({ ...call, method: '/grpc.health.v1.Health/Check' });
    expect(other.error?.message).toMatch(/lf\.a2a\.v1\.A2AService/);
    const text = await local(new Request(`${ORIGIN}/grpc-bridge`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } }));
    expect(text?.status).toBe(415);
    expect(await local(new Request(`${ORIGIN}/proxy`))).toBeUndefined();
  });

  it('the browser host speaks gRPC through the bridge beside a same-origin proxy, not beside a remote one', () => {
    expect(createBrowserHost({ mode: 'proxy' }).grpc).toBeDefined();
    expect(createBrowserHost({ mode: 'proxy', proxyUrl: 'https://proxy.example/proxy' }).grpc).toBeUndefined();
    expect(createBrowserHost({ mode: 'proxy', grpcBridgeUrl: false }).grpc).toBeUndefined();
  });
});

describe('the bridge mounted on node:http', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    const mount = createNodeGrpcBridgeMount({ transport: fake, mode: 'local' });
    server = createServer((req, res) => void mount(req, res).then((mine) => mine || res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('answers unary and streaming calls over real HTTP', async () => {
    const t = createBridgeTransport({ url: `${base}/grpc-bridge` });
    expect((await t.unary(call)).messages).toHaveLength(1);
    const got: unknown[] = [];
    expect((await t.serverStream(call, (m) => void got.push(m))).code).toBe(0);
    expect(got).toHaveLength(3);
  });
});
