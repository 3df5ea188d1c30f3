/**
 * CORS proxy overhead against direct access, measured in the same run on loopback:
 * added latency per JSON-RPC call (p50, p99), throughput at a fixed concurrency, SSE time to first
 * event, and per-event delivery delay (buffering would show up there).
 *
 * Agent, proxy and client share one Node process (one event loop), so proxied throughput also pays
 * for the proxy's CPU on the same core; sequential latencies are unaffected by that.
 *
 * `npx tsx bench/run.ts proxy`
 */
import http from 'node:http';
import { closeServer, listen, startProxy } from '../src/proxy/node-testing.js';
import type { BenchRow, BenchSection } from './run.js';
import { post, quantile } from './util';

const WARMUP = 300;
const CALLS = 3_000;
const CONCURRENCY = 16;
const THROUGHPUT_MS = 2_000;
const SSE_RUNS = 200;
const SSE_EVENTS = 10;
const SSE_GAP_MS = 20;

const CLIENT_HEADERS = { 'x-a2a-interop': '1', 'content-type': 'application/json', accept: 'application/json' };
const RPC = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/send', params: { message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } } });

const sortNum = (a: number[]) => [...a].sort((x, y) => x - y);

const call = (agent: http.Agent, port: number, path: string, body: string): Promise<void> => post(agent, port, path, body, CLIENT_HEADERS);

/** Opens an SSE stream; resolves with time to first event and per-event delays (arrival − written). */
function sse(agent: http.Agent, port: number, path: string): Promise<{ ttfe: number; delays: number[] }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfe = NaN;
    const delays: number[] = [];
    const req = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: { 'x-a2a-interop': '1', accept: 'text/event-stream' } }, (res) => {
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        const now = performance.now();
        buf += c;
        let i: number;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const ev = buf.slice(0, i);
          buf = buf.slice(i + 2);
          if (Number.isNaN(ttfe)) ttfe = now - t0;
          const m = /data: (\d+(?:\.\d+)?)/.exec(ev);
          if (m) delays.push(now - Number(m[1]));
        }
      });
      res.on('end', () => resolve({ ttfe, delays }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function latencies(agent: http.Agent, port: number, path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(agent, port, path, RPC);
    out.push(performance.now() - t);
  }
  return out;
}

async function throughput(port: number, path: string): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let done = 0;
  const end = performance.now() + THROUGHPUT_MS;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await call(agent, port, path, RPC);
        done++;
      }
    }),
  );
  agent.destroy();
  return done / ((performance.now() - t0) / 1000);
}

export async function run(): Promise<BenchSection> {
  // The agent: JSON-RPC echo on POST, an SSE stream on GET /sse (first event at once, then every SSE_GAP_MS).
  const upstream = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url?.startsWith('/sse')) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      let n = 0;
      const send = () => {
        res.write(`data: ${performance.now()}\n\n`);
        if (++n === SSE_EVENTS) res.end();
        else setTimeout(send, SSE_GAP_MS);
      };
      send();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"jsonrpc":"2.0","id":1,"result":${body}}`);
    });
  });
  const upPort = await listen(upstream);
  const proxy = await startProxy({ mode: 'local' });
  const target = (p: string) => `/proxy?url=${encodeURIComponent(`http://127.0.0.1:${upPort}${p}`)}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await latencies(agent, upPort, '/a2a', WARMUP);
    await latencies(agent, proxy.port, target('/a2a'), WARMUP);
    // Interleaved batches so drift (GC, other load on the machine) hits both paths alike.
    const direct: number[] = [];
    const proxied: number[] = [];
    for (let b = 0; b < CALLS / 100; b++) {
      direct.push(...(await latencies(agent, upPort, '/a2a', 100)));
      proxied.push(...(await latencies(agent, proxy.port, target('/a2a'), 100)));
    }
    const d = sortNum(direct);
    const p = sortNum(proxied);

    const tputDirect = await throughput(upPort, '/a2a');
    const tputProxied = await throughput(proxy.port, target('/a2a'));

    const ttfeD: number[] = [];
    const ttfeP: number[] = [];
    const delayD: number[] = [];
    const delayP: number[] = [];
    for (let i = 0; i < SSE_RUNS; i++) {
      const a = await sse(agent, upPort, '/sse');
      const b = await sse(agent, proxy.port, target('/sse'));
      ttfeD.push(a.ttfe);
      ttfeP.push(b.ttfe);
      delayD.push(...a.delays);
      delayP.push(...b.delays);
    }
    const [tD, tP, eD, eP] = [sortNum(ttfeD), sortNum(ttfeP), sortNum(delayD), sortNum(delayP)];

    const rows: BenchRow[] = [
      { metric: 'JSON-RPC call p50, direct', value: quantile(d, 0.5), unit: 'ms', note: `${CALLS} sequential calls, keep-alive` },
      { metric: 'JSON-RPC call p50, proxied', value: quantile(p, 0.5), unit: 'ms' },
      { metric: 'added latency p50', value: quantile(p, 0.5) - quantile(d, 0.5), unit: 'ms', note: 'target < 1 ms' },
      { metric: 'JSON-RPC call p99, direct', value: quantile(d, 0.99), unit: 'ms' },
      { metric: 'JSON-RPC call p99, proxied', value: quantile(p, 0.99), unit: 'ms' },
      { metric: 'added latency p99', value: quantile(p, 0.99) - quantile(d, 0.99), unit: 'ms' },
      { metric: 'throughput, direct', value: Math.round(tputDirect), unit: 'calls/s', note: `concurrency ${CONCURRENCY}, ${THROUGHPUT_MS} ms` },
      { metric: 'throughput, proxied', value: Math.round(tputProxied), unit: 'calls/s', note: 'proxy shares the event loop with agent and client' },
      { metric: 'SSE time to first event p50, direct', value: quantile(tD, 0.5), unit: 'ms', note: `${SSE_RUNS} streams` },
      { metric: 'SSE time to first event p50, proxied', value: quantile(tP, 0.5), unit: 'ms' },
      { metric: 'SSE time to first event p99, direct', value: quantile(tD, 0.99), unit: 'ms' },
      { metric: 'SSE time to first event p99, proxied', value: quantile(tP, 0.99), unit: 'ms' },
      {
        metric: 'SSE event delivery delay p50, direct',
        value: quantile(eD, 0.5),
        unit: 'ms',
        note: `arrival − write, ${SSE_EVENTS} events every ${SSE_GAP_MS} ms`,
      },
      { metric: 'SSE event delivery delay p50, proxied', value: quantile(eP, 0.5), unit: 'ms' },
      { metric: 'SSE event delivery delay max, direct', value: eD[eD.length - 1] ?? NaN, unit: 'ms' },
      {
        metric: 'SSE event delivery delay max, proxied',
        value: eP[eP.length - 1] ?? NaN,
        unit: 'ms',
        note: `buffering would show as ≈${SSE_GAP_MS * (SSE_EVENTS - 1)} ms`,
      },
    ];
    return {
      title: 'CORS proxy overhead (Node adapter, local mode, loopback)',
      rows,
      notes: ["Agent, proxy and client run in one process; proxied throughput includes the proxy's CPU on the same event loop."],
    };
  } finally {
    agent.destroy();
    await proxy.close();
    await closeServer(upstream);
  }
}
