/**
 * The dashboard's path: the browser host through the local CORS proxy (`/proxy?url=…`) to the v1.0 test agent with a
 * signed card and a required extension. The jku is fetched through the proxy, and the A2A-Extensions header of the
 * suite's requests reaches the agent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserHost } from '../../../hosts/browser';
import { createNodeProxy } from '../../../proxy/node';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent';
import { EXT_REQUIRED } from '../../../testing/defect-agent/extensions';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';

let agent: RunningDefectAgent;
let server: http.Server;
let proxyUrl = '';

beforeAll(async () => {
  const proxy = createNodeProxy({ mode: 'local' });
  server = http.createServer((req, res) => {
    proxy(req, res).then(
      (handled) => {
        if (!handled) res.writeHead(404).end();
      },
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/proxy`;
  agent = await startDefectAgent({ generation: 'v1.0', features: { signed: true, extensions: true }, stepMs: 5 });
});
afterAll(async () => {
  await agent?.close();
  await new Promise<void>((resolve) => {
    server?.close(() => resolve());
    server?.closeAllConnections();
  });
});

describe('signatures and extensions through the proxy', () => {
  it('the jku is fetched through the proxy and the required extension reaches the agent', async () => {
    const only = ['card.signatures.verified', 'errors.extension-required', 'interop.extensions', 'errors.unknown-method'];
    const report = await runConformance(createBrowserHost({ mode: 'proxy', proxyUrl }), { agentUrl: agent.cardUrl, only, timeoutMs: 5000 }, () => {});
    const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
    for (const id of only) expect(byId[id]?.status, `${id}: ${byId[id]?.message}`).toBe('pass');
    expect(agent.requests.some((r) => r.path === '/.well-known/jwks.json')).toBe(true);
    expect(agent.requests.some((r) => r.headers['a2a-extensions'] === EXT_REQUIRED)).toBe(true);
  });
});
