/**
 * Conversation tap overhead against direct access, measured in the same run on loopback (issue 26): added latency
 * per JSON-RPC call (p50, p99: the tap relays, records and judges both sides of every exchange), added time to the
 * first SSE event, and per-event delivery delay (buffering would show up there).
 *
 * Agent, tap and client share one Node process (one event loop); the calls are sequential, so the tap's CPU
 * (judging included) is on the critical path of each call, as it is for a real client.
 *
 * `npx tsx bench/run.ts tap`
 */
import http from 'node:http';
import { closeServer, listen } from '../src/proxy/node-testing.js';
import { createTap } from '../src/engine/tap';
import { nodeFetch, serveTap } from '../src/server/tap-node';
import type { BenchRow, BenchSection } from './run.js';
import { post, quantile } from './util';

const WARMUP = 300;
const CALLS = 2_000;
const SSE_RUNS = 150;
const SSE_EVENTS = 10;
const SSE_GAP_MS = 20;

let seq = 0;
const rpc = (method: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: ++seq,
    method,
    params: { message: { kind: 'message', messageId: `m-${seq}`, role: 'user', parts: [{ kind: 'text', text: 'ping' }] } },
  });

const sortNum = (a: number[]) => [...a].sort((x, y) => x - y);

const call = (agent: http.Agent, port: number, path: string, body: string): Promise<void> =>
  post(agent, port, path, body, { 'content-type': 'application/json' });

/** Opens a stream; resolves with time to first event and per-event delays (arrival − the `ts` the agent wrote). */
function sse(agent: http.Agent, port: number, path: string): Promise<{ ttfe: number; delays: number[] }> {
  return new Promise((resolve, reject) => {
    const body = rpc('message/stream');
    const t0 = performance.now();
    let ttfe = NaN;
    const delays: number[] = [];
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
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
            const m = /"ts":(\d+(?:\.\d+)?)/.exec(ev);
            if (m) delays.push(now - Number(m[1]));
          }
        });
        res.on('end', () => resolve({ ttfe, delays }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function latencies(agent: http.Agent, port: number, path: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call(agent, port, path, rpc('message/send'));
    out.push(performance.now() - t);
  }
  return out;
}

export async function run(): Promise<BenchSection> {
  // A v0.3 agent: its card, message/send answered with a completed Task, message/stream with SSE_EVENTS status
  // updates SSE_GAP_MS apart (each carrying the time it was written), the last one final.
  let upPort = 0;
  const upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/.well-known/agent-card.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            name: 'bench',
            description: 'bench agent',
            url: `http://127.0.0.1:${upPort}/a2a`,
            protocolVersion: '0.3.0',
            version: '1',
            capabilities: { streaming: true },
            defaultInputModes: ['text/plain'],
            defaultOutputModes: ['text/plain'],
            skills: [],
          }),
        );
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method: string };
      if (body.method === 'message/stream') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        let n = 0;
        const send = () => {
          n++;
          const final = n === SSE_EVENTS;
          const ev = {
            kind: 'status-update',
            taskId: `t${body.id}`,
            contextId: 'c',
            status: { state: final ? 'completed' : 'working' },
            final,
            metadata: { ts: performance.now() },
          };
          res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result: ev })}\n\n`);
          if (final) res.end();
          else setTimeout(send, SSE_GAP_MS);
        };
        send();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { kind: 'task', id: `t${body.id}`, contextId: 'c', status: { state: 'completed' } } }));
    });
  });
  upPort = await listen(upstream);
  const tap = createTap({ agentUrl: `http://127.0.0.1:${upPort}`, fetch: nodeFetch });
  let tapPort = 0;
  const tapServer = http.createServer((req, res) => void serveTap(tap, req, res, `http://127.0.0.1:${tapPort}/`));
  tapPort = await listen(tapServer);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await (await fetch(`http://127.0.0.1:${tapPort}/.well-known/agent-card.json`)).text();
    await latencies(agent, upPort, '/a2a', WARMUP);
    await latencies(agent, tapPort, '/a2a', WARMUP);
    // Interleaved batches so drift (GC, other load on the machine) hits both paths alike.
    const direct: number[] = [];
    const tapped: number[] = [];
    // CPU time of this process (agent, tap and client all run here) per batch: the tap's own CPU per call is the
    // difference, a figure the machine's other load hardly moves (wall-clock latencies on a busy machine do).
    let cpuDirect = 0;
    let cpuTapped = 0;
    const cpu = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    for (let b = 0; b < CALLS / 100; b++) {
      let c0 = cpu();
      direct.push(...(await latencies(agent, upPort, '/a2a', 100)));
      cpuDirect += cpu() - c0;
      c0 = cpu();
      tapped.push(...(await latencies(agent, tapPort, '/a2a', 100)));
      cpuTapped += cpu() - c0;
    }
    const d = sortNum(direct);
    const t = sortNum(tapped);

    const ttfeD: number[] = [];
    const ttfeT: number[] = [];
    const delayD: number[] = [];
    const delayT: number[] = [];
    for (let i = 0; i < SSE_RUNS; i++) {
      const a = await sse(agent, upPort, '/a2a');
      const b = await sse(agent, tapPort, '/a2a');
      ttfeD.push(a.ttfe);
      ttfeT.push(b.ttfe);
      delayD.push(...a.delays);
      delayT.push(...b.delays);
    }
    const [tD, tT, eD, eT] = [sortNum(ttfeD), sortNum(ttfeT), sortNum(delayD), sortNum(delayT)];
    const r = tap.report();
    const rows: BenchRow[] = [
      { metric: 'JSON-RPC call p50, direct', value: quantile(d, 0.5), unit: 'ms', note: `${CALLS} sequential message/send calls, keep-alive` },
      { metric: 'JSON-RPC call p50, through the tap', value: quantile(t, 0.5), unit: 'ms', note: 'relayed, recorded, both sides judged' },
      { metric: 'added latency p50', value: quantile(t, 0.5) - quantile(d, 0.5), unit: 'ms', note: 'target < 1 ms' },
      { metric: 'CPU per call, direct', value: cpuDirect / CALLS, unit: 'ms', note: 'client + agent, this process' },
      { metric: 'CPU per call, through the tap', value: cpuTapped / CALLS, unit: 'ms', note: 'client + tap + agent' },
      {
        metric: "tap's own CPU per call",
        value: (cpuTapped - cpuDirect) / CALLS,
        unit: 'ms',
        note: 'relay, record, judge both sides (CPU time: less sensitive than wall time to the machine’s other load; includes work done after the answer is sent)',
      },
      { metric: 'JSON-RPC call p99, direct', value: quantile(d, 0.99), unit: 'ms' },
      { metric: 'JSON-RPC call p99, through the tap', value: quantile(t, 0.99), unit: 'ms' },
      { metric: 'added latency p99', value: quantile(t, 0.99) - quantile(d, 0.99), unit: 'ms' },
      { metric: 'SSE time to first event p50, direct', value: quantile(tD, 0.5), unit: 'ms', note: `${SSE_RUNS} streams` },
      { metric: 'SSE time to first event p50, through the tap', value: quantile(tT, 0.5), unit: 'ms' },
      { metric: 'added time to first event p50', value: quantile(tT, 0.5) - quantile(tD, 0.5), unit: 'ms' },
      { metric: 'SSE time to first event p99, direct', value: quantile(tD, 0.99), unit: 'ms' },
      { metric: 'SSE time to first event p99, through the tap', value: quantile(tT, 0.99), unit: 'ms' },
      {
        metric: 'SSE event delivery delay p50, direct',
        value: quantile(eD, 0.5),
        unit: 'ms',
        note: `arrival − write, ${SSE_EVENTS} events every ${SSE_GAP_MS} ms`,
      },
      { metric: 'SSE event delivery delay p50, through the tap', value: quantile(eT, 0.5), unit: 'ms' },
      { metric: 'SSE event delivery delay max, direct', value: eD[eD.length - 1] ?? NaN, unit: 'ms' },
      {
        metric: 'SSE event delivery delay max, through the tap',
        value: eT[eT.length - 1] ?? NaN,
        unit: 'ms',
        note: `buffering would show as ≈${SSE_GAP_MS * (SSE_EVENTS - 1)} ms`,
      },
      { metric: 'findings recorded', value: r.findings.length, note: `client ${r.summary.client.verdict}, agent ${r.summary.agent.verdict}` },
    ];
    return {
      title: 'Conversation tap overhead (Node mount, loopback)',
      rows,
      notes: ['Agent, tap and client run in one process; every exchange through the tap is recorded (bounded) and judged on both sides.'],
    };
  } finally {
    agent.destroy();
    tap.close();
    await closeServer(tapServer);
    await closeServer(upstream);
  }
}
