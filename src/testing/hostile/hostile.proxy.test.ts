/**
 * Issue 7, the hostile-agent corpus through the CORS proxy: the Node proxy (`createNodeProxy`, local mode)
 * mounted on a local server, and the browser host (`/proxy?url=…` with the dashboard's custom header) in
 * front of the engine, as the dashboard runs. Failures blamed on the agent stay failures; refusals the
 * proxy makes itself become `error` results (with the proxy's code), never failures.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkProxyHealth, createBrowserHost } from '../../hosts/browser';
import { createNodeProxy, type NodeProxy } from '../../proxy/node';
import { HOSTILE_BEHAVIOURS, HOSTILE_NAMES, HUGE_CARD_BYTES, type HostileName } from './behaviours';
import { describeRun, judge, runCorpus, SECRET, type CorpusRun } from './corpus';

let proxy: NodeProxy;
let server: http.Server;
let proxyUrl = '';
let runs = new Map<HostileName, CorpusRun>();
let corpusMs = 0;

beforeAll(async () => {
  proxy = createNodeProxy({ mode: 'local' });
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
  const t = performance.now();
  runs = await runCorpus(() => createBrowserHost({ mode: 'proxy', proxyUrl }), 12);
  corpusMs = performance.now() - t;
}, 120_000);

afterAll(async () => {
  const slowest = [...runs.values()].sort((a, b) => b.wallMs - a.wallMs).slice(0, 3);
  console.log(
    `hostile corpus (proxy): ${runs.size} runs in ${Math.round(corpusMs)} ms; slowest ${slowest.map((r) => `${r.name} ${Math.round(r.wallMs)} ms`).join(', ')}`,
  );
  proxy?.close();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

const run = (name: HostileName) => {
  const r = runs.get(name);
  if (!r) throw new Error(`${name} did not run`);
  return r;
};

describe('hostile-agent corpus, through the CORS proxy', () => {
  it.each(HOSTILE_NAMES.map((n) => [n, HOSTILE_BEHAVIOURS[n].description]))('%s (%s)', (name) => {
    const r = run(name as HostileName);
    expect(r.report?.options.transport).toBe('proxy');
    expect(judge(r, 'proxy'), describeRun(r)).toEqual([]);
  });

  it('the proxy is still healthy after the whole corpus', async () => {
    expect(await checkProxyHealth(proxyUrl)).toMatchObject({ ok: true, mode: 'local' });
  });

  it('a redirect to another host does not carry the credentials there', () => {
    const r = run('rpc-redirect-other-host');
    expect(r.sideRequests.length).toBeGreaterThan(0);
    for (const q of r.sideRequests) expect(JSON.stringify(q)).not.toContain(SECRET);
    expect(JSON.stringify(r.report)).not.toContain(SECRET);
  });

  it('the proxy does not buffer the 50 MB card or the event flood for the engine', () => {
    expect(run('card-50mb').stats.cardBytesOffered).toBeLessThan(HUGE_CARD_BYTES);
    const perStream = new Map<string, number>();
    for (const e of run('sse-flood').events) if (e.type === 'sse-event') perStream.set(e.exchangeId, (perStream.get(e.exchangeId) ?? 0) + 1);
    expect(Math.max(...perStream.values())).toBeLessThanOrEqual(2000);
  });
});
