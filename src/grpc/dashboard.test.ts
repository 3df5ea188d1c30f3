import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../engine/model/report';
import { runConformance } from '../engine/runner/run';
import { openSession } from '../engine/session';
import { createBrowserHost } from '../hosts/browser';
import { serverOptionsFromEnv, startServer, type RunningServer } from '../server/main';
import { createGrpcBridge, HOSTED_GRPC_MESSAGE } from './bridge';
import { lazyGrpc } from './lazy';

/**
 * The dashboard's way to a gRPC agent, without a browser: the browser host (card through the proxy, gRPC through the
 * local server's bridge) against `npm start`'s v1.0 demo agent serving gRPC (DEMO_GRPC=1).
 */
let server: RunningServer;
let report: Report;
beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true, demoGrpc: true, stepMs: 10, slowTaskMs: 300 });
  const host = dashboardHost();
  const only = ['lifecycle.send', 'lifecycle.get', 'streaming.framing', 'errors.grpc-status'];
  report = await runConformance(host, { agentUrl: `${server.url}/demo/v1`, only, prefer: { binding: 'GRPC' }, timeoutMs: 5000 }, () => undefined);
}, 30_000);
afterAll(() => server.close());

/** The browser host as the dashboard page builds it: the card through the proxy, gRPC through the bridge. */
const dashboardHost = () =>
  createBrowserHost({
    mode: 'proxy',
    proxyUrl: `${server.url}/proxy`,
    grpcBridgeUrl: `${server.url}/grpc-bridge`,
    // Same-origin requests, as the dashboard page makes them.
    fetch: (input, init) => {
      const headers = new Headers(init?.headers);
      headers.set('origin', server.url);
      return fetch(input, { ...init, headers });
    },
  });

describe('the dashboard speaks gRPC through the local server', () => {
  it('tests the v1.0 demo agent over gRPC via the bridge', () => {
    expect(report.protocol.binding).toBe('GRPC');
    const results = Object.values(report.categories)
      .flat()
      .map((r) => [r.id, r.status, r.message] as const);
    expect(results.filter(([, s]) => s !== 'pass')).toEqual([]);
    expect(results.map(([id]) => id).sort()).toEqual(['errors.grpc-status', 'lifecycle.get', 'lifecycle.send', 'streaming.framing']);
  });

  it("the console's session speaks gRPC through the same bridge: a message sent and streamed, judged without findings", async () => {
    const open = await openSession(dashboardHost(), { agentUrl: `${server.url}/demo/v1`, prefer: { binding: 'GRPC' }, warmupRetries: 0 });
    if (!open.ok) throw new Error(open.unavailable.message);
    expect(open.target.binding).toBe('GRPC');
    const sent = await open.session.send({ text: 'hello' });
    expect(sent.ok, sent.summary).toBe(true);
    expect(sent.method).toBe('SendMessage');
    expect(sent.findings).toEqual([]);
    const streamed = await open.session.stream({ text: 'hello' });
    expect(streamed.ok, streamed.summary).toBe(true);
    expect(streamed.frames.length).toBeGreaterThan(0);
    expect(streamed.findings.filter((f) => f.level !== 'advisory')).toEqual([]);
  });

  it('the card lists the gRPC interface only when asked (DEMO_GRPC=1)', async () => {
    expect(serverOptionsFromEnv({ DEMO_GRPC: '1' }).demoGrpc).toBe(true);
    expect(serverOptionsFromEnv({}).demoGrpc).toBeUndefined();
    const card = (await (await fetch(`${server.url}/demo/v1/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json()) as {
      supportedInterfaces: { protocolBinding: string; url: string }[];
    };
    expect(card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC')?.url).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it("a hosted dashboard is told that gRPC needs the local server: not assessed, never the agent's fault", async () => {
    const hosted = createGrpcBridge({ transport: lazyGrpc(), mode: 'hosted' });
    const host = createBrowserHost({
      mode: 'proxy',
      proxyUrl: `${server.url}/proxy`,
      grpcBridgeUrl: '/grpc-bridge',
      fetch: async (input, init) => {
        if (String(input) === '/grpc-bridge')
          return (await hosted(new Request('https://dash.example/grpc-bridge', init))) ?? new Response(null, { status: 404 });
        const headers = new Headers(init?.headers);
        headers.set('origin', server.url);
        return fetch(input, { ...init, headers });
      },
    });
    const r = await runConformance(
      host,
      { agentUrl: `${server.url}/demo/v1`, only: ['lifecycle.send'], prefer: { binding: 'GRPC' }, timeoutMs: 5000 },
      () => undefined,
    );
    expect(r.conformanceLevel).toBeNull();
    expect(r.notAssessed?.reason).toBe('tool-failure');
    expect(r.notAssessed?.message).toContain(HOSTED_GRPC_MESSAGE);
  });
});
