/**
 * Floods (issue 22): the `npm run serve` server as a child process with a 128 MiB heap, flooded with ten times its
 * limits from many client addresses (127.0.0.2 ... on loopback), must keep answering, keep its peak RSS bounded, and
 * lose nothing of the legitimate work going on beside the flood.
 *
 * - inbox (hosted mode): 10x the open addresses, 10x the store's byte budget in 64 KiB deliveries, and bodies over
 *   the read limit; a legitimate address opened first receives all its deliveries, and a conformance run of the
 *   push checks against an SDK demo agent, its webhook inbox on the flooded server (as a hosted dashboard's), passes.
 * - proxy streams (local mode, budgets set by env): 10x the open requests per client, each a POST with a body, to an
 *   SSE agent that never ends; the flood's streams end at the stream lifetime, a legitimate client's stream and
 *   request complete, and its dashboard's conformance run through the same proxy has no result of ours failed.
 *
 * Before the fixes the first flood ran the server out of heap (every delivery kept as strings: 200 addresses x 100
 * x 64 KiB) and the second held every request body for the life of its stream.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { reportResults } from '../engine/report/build';
import { runConformance } from '../engine/runner/run';
import { createBrowserHost } from '../hosts/browser';
import { createNodeHost } from '../hosts/node';
import { createRemoteInbox } from '../inbox/client';
import { startServer } from './main';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The floods come from many loopback addresses (127.0.0.2 ...): Linux answers on all of 127/8, macOS only on 127.0.0.1. */
const manyLoopbacks = await new Promise<boolean>((resolve) => {
  const probe = net.createServer();
  probe.once('error', () => resolve(false));
  probe.listen(0, '127.0.0.2', () => probe.close(() => resolve(true)));
});
if (!manyLoopbacks) console.warn('flood.test.ts skipped: this system does not answer on 127.0.0.2 (the floods need many client addresses)');
const MiB = 1024 * 1024;
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
});

interface Spawned {
  url: string;
  pid: number;
  child: ChildProcess;
  output: () => string;
}

/** The server with a 128 MiB heap on an ephemeral port; resolves once its banner names the URL. */
function spawnServer(env: Record<string, string>): Promise<Spawned> {
  const child = spawn(process.execPath, ['--max-old-space-size=128', '--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', DEMO_AGENTS: '0', NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 20_000);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /dashboard:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
      if (m?.[1] && child.pid) {
        clearTimeout(timer);
        resolve({ url: m[1], pid: child.pid, child, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${out}`));
    });
  });
}

/** Peak resident set size of a process, MiB (Linux: VmHWM); undefined elsewhere. */
function peakRssMiB(pid: number): number | undefined {
  const f = `/proc/${pid}/status`;
  if (!existsSync(f)) return undefined;
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(f, 'utf8'));
  return m?.[1] ? Number(m[1]) / 1024 : undefined;
}

interface Answer {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** One request from `from` (a loopback source address); never rejects (a dropped connection is status 0). */
function request(
  url: string,
  opts: { method?: string; from?: string; headers?: Record<string, string>; body?: Buffer | string; agent?: http.Agent; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: opts.method ?? 'GET',
      headers: opts.headers,
      agent: opts.agent ?? false,
      ...(opts.from && { localAddress: opts.from }),
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), opts.timeoutMs ?? 15_000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers });
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), headers: res.headers });
      });
    });
    req.on('error', () => {
      clearTimeout(timer);
      resolve({ status: 0, body: '', headers: {} });
    });
    req.end(opts.body);
  });
}

/** Runs `tasks` with at most `n` at a time. */
async function pool<T>(tasks: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]!();
      }
    }),
  );
  return out;
}

const count = (xs: Answer[], status: number) => xs.filter((x) => x.status === status).length;

const PUSH = ['lifecycle.push-config', 'lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-order', 'lifecycle.push-after-delete'];

describe.skipIf(!manyLoopbacks)('flood: the inbox of a hosted server with a 128 MiB heap', () => {
  it('survives 10x its limits (addresses, bytes, oversized bodies) with RSS bounded, and the legitimate address loses nothing', async () => {
    // The store's default byte budget (32 MiB): 10x is 320 MiB of deliveries. FLOOD_INBOX_MB=N floods another budget.
    const mb = Number(process.env.FLOOD_INBOX_MB) || 32;
    const TOTAL = mb * MiB;
    const s = await spawnServer({ PROXY_MODE: 'hosted', ALLOWED_HOSTS: '127.0.0.1', INBOX_MAX_TOTAL_BYTES: `${mb}M` });
    const origin = { Origin: s.url, 'X-A2A-Interop': '1', 'Content-Type': 'application/json' };
    const legitOpen = await request(`${s.url}/inbox`, { method: 'POST', headers: origin, body: JSON.stringify({ expect: { token: 'legit-token-1' } }) });
    expect(legitOpen.status, legitOpen.body).toBe(201);
    const legit = JSON.parse(legitOpen.body) as { token: string };
    const legitUrl = `${s.url}/inbox/${legit.token}`;

    // 40 client addresses: 2000 attempts to open an address (10x the 200 there are), 50 from each.
    const clients = Array.from({ length: 40 }, (_, i) => `127.0.0.${i + 2}`);
    const opens = await pool(
      clients.flatMap((from) => Array.from({ length: 50 }, () => () => request(`${s.url}/inbox`, { method: 'POST', from, headers: origin, body: '{}' }))),
      32,
    );
    const opened = opens.filter((a) => a.status === 201).map((a) => (JSON.parse(a.body) as { token: string }).token);
    // Which are still open (when every address is in use, the biggest holders lose their oldest).
    const alive = await pool(
      opened.slice(-400).map((t) => () => request(`${s.url}/inbox/${t}/deliveries`, { headers: origin }).then((a) => (a.status === 200 ? t : undefined))),
      32,
    );
    const tokens = alive.filter((t): t is string => t !== undefined);
    expect(tokens.length).toBeGreaterThan(0);
    expect(count(opens, 429)).toBeGreaterThan(0); // more than 20 open at once for one client
    // The legitimate address survived the address flood (fair share: the biggest holders lose their oldest).
    expect((await request(`${legitUrl}/deliveries`, { headers: origin })).status).toBe(200);

    // A legitimate run beside the flood: the push checks against the v0.3 SDK demo agent, whose deliveries go to the
    // flooded server's inbox (opened and read as the dashboard does, with its Origin).
    const demos = await startServer({ port: 0, quiet: true, proxy: false, inbox: false, slowTaskMs: 400, stepMs: 10 });
    const dashboardFetch: typeof fetch = (input, init) =>
      fetch(input, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), Origin: s.url } });
    const legitRun = runConformance(
      createNodeHost({ inbox: createRemoteInbox({ baseUrl: s.url, fetch: dashboardFetch, pollMs: 2_000 }) }),
      { agentUrl: `${demos.url}/demo/v03`, timeoutMs: 15_000, only: PUSH },
      () => undefined,
    );
    // 10x the byte budget in deliveries of 64 KiB, plus 40 bodies over the 1 MiB read limit.
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const big = Buffer.alloc(2 * MiB, 'y');
    const agents = new Map(clients.map((c) => [c, new http.Agent({ keepAlive: true, maxSockets: 4 })]));
    const flood: (() => Promise<Answer>)[] = [];
    for (let i = 0; i < (10 * TOTAL) / chunk.byteLength; i++) {
      const from = clients[i % clients.length]!;
      flood.push(() => request(`${s.url}/inbox/${tokens[i % tokens.length]}`, { method: 'POST', from, agent: agents.get(from), body: chunk }));
    }
    for (const from of clients) flood.push(() => request(`${s.url}/inbox/${tokens.at(-1)}`, { method: 'POST', from, body: big }));
    // The legitimate agent delivers 20 times while the flood goes on.
    const legitPosts: Promise<Answer>[] = [];
    const legitLoop = (async () => {
      for (let i = 1; i <= 20; i++) {
        legitPosts.push(
          request(legitUrl, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-A2A-Notification-Token': 'legit-token-1' },
            body: `{"n":${i}}`,
          }),
        );
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const answers = await pool(flood, 48);
    await legitLoop;
    const report = await legitRun;
    await demos.close();
    const legitAnswers = await Promise.all(legitPosts);
    for (const a of agents.values()) a.destroy();

    expect({ exit: s.child.exitCode, signal: s.child.signalCode }, s.output()).toEqual({ exit: null, signal: null });
    expect(count(answers, 200) + count(answers, 413) + count(answers, 429) + count(answers, 503) + count(answers, 404)).toBe(answers.length);
    expect(count(answers, 413)).toBeGreaterThan(0);
    expect(legitAnswers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const read = await request(`${legitUrl}/deliveries`, { headers: origin });
    const got = JSON.parse(read.body) as { deliveries: { seq: number; token: string; body: string }[]; dropped: number };
    expect(got.deliveries.map((d) => d.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(got.deliveries.every((d) => d.token === 'match')).toBe(true);
    expect(got.dropped).toBe(0);
    const results = reportResults(report);
    expect(report.runStatus).toBe('completed');
    expect(Object.fromEntries(results.map((r) => [r.id, r.status])), results.map((r) => `${r.id}: ${r.status} ${r.message}`).join('\n')).toEqual(
      Object.fromEntries(PUSH.map((id) => [id, 'pass'])),
    );
    const health = await request(`${s.url}/proxy/health`, { headers: { Origin: s.url } });
    expect(health.status).toBe(200);
    const peak = peakRssMiB(s.pid);
    console.log(
      `inbox flood: ${opens.length} opens (${count(opens, 201)} 201, ${count(opens, 429)} 429, ${count(opens, 503)} 503); ${answers.length} deliveries (${count(answers, 200)} 200, ${count(answers, 413)} 413, ${count(answers, 404)} 404, ${count(answers, 429)} 429, ${count(answers, 503)} 503); peak RSS ${peak?.toFixed(0)} MiB`,
    );
    if (peak !== undefined) expect(peak).toBeLessThan(320);
    s.child.kill();
  }, 60_000);
});

describe.skipIf(!manyLoopbacks)('flood: proxy streams of a server with a 128 MiB heap', () => {
  it('caps open requests per client and ends streams at their lifetime; a legitimate stream, request and run complete', async () => {
    // An SSE agent that never ends (a comment every 200 ms) and a JSON agent.
    const agent = http.createServer((req, res) => {
      req.resume();
      if (req.url?.startsWith('/json')) {
        req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":0}\n\n');
      const t = setInterval(() => res.write(': tick\n\n'), 200);
      res.on('close', () => clearInterval(t));
    });
    await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
    const agentUrl = `http://127.0.0.1:${(agent.address() as AddressInfo).port}`;
    try {
      const s = await spawnServer({ PROXY_MODE: 'local', PROXY_MAX_OPEN_PER_CLIENT: '8', PROXY_MAX_STREAM_SECONDS: '3' });
      const dash = { 'X-A2A-Interop': '1', Origin: s.url, 'Content-Type': 'application/json' };
      const proxied = (path: string) => `${s.url}/proxy?url=${encodeURIComponent(`${agentUrl}${path}`)}`;
      // The legitimate client's stream opens first, and its dashboard runs the suite against an SDK demo agent through
      // the flooded proxy (the browser host, as the dashboard in local mode).
      const started = Date.now();
      const legitStream = request(proxied('/sse'), { method: 'POST', headers: dash, body: '{"jsonrpc":"2.0"}', timeoutMs: 20_000 });
      const demos = await startServer({ port: 0, quiet: true, proxy: false, inbox: false, slowTaskMs: 300, stepMs: 5 });
      const legitRun = runConformance(
        createBrowserHost({ mode: 'proxy', proxyUrl: `${s.url}/proxy`, inboxBaseUrl: false, grpcBridgeUrl: false }),
        { agentUrl: `${demos.url}/demo/v03`, timeoutMs: 10_000 },
        () => undefined,
      );
      // 10 client addresses x 80 streams each (10x the 8 allowed), every one a POST with a 256 KiB body.
      const body = Buffer.alloc(256 * 1024, 'z');
      const clients = Array.from({ length: 10 }, (_, i) => `127.0.1.${i + 2}`);
      const flood = await pool(
        clients.flatMap((from) =>
          Array.from({ length: 80 }, () => () => request(proxied('/sse'), { method: 'POST', from, headers: dash, body, timeoutMs: 20_000 })),
        ),
        200,
      );
      const legitJson = await request(proxied('/json'), { method: 'POST', headers: dash, body: '{}' });
      const legit = await legitStream;
      const report = await legitRun;
      await demos.close();
      const elapsed = Date.now() - started;
      expect({ exit: s.child.exitCode, signal: s.child.signalCode }, s.output()).toEqual({ exit: null, signal: null });
      const accepted = flood.filter((a) => a.status === 200);
      const limited = flood.filter((a) => a.headers['x-proxy-error'] === 'stream_limit' && a.status === 429);
      expect(accepted.length).toBeLessThanOrEqual(10 * 8);
      expect(accepted.length).toBeGreaterThan(0);
      expect(limited.length).toBeGreaterThanOrEqual(flood.length - 10 * 8 - flood.filter((a) => a.status === 0).length);
      // Every accepted stream was cut at its lifetime with the proxy's marker (never blamed on the agent).
      for (const a of accepted) expect(a.body).toMatch(/: x-proxy-error stream_limit\n$/);
      expect(legit.status).toBe(200);
      expect(legit.body).toMatch(/^data: \{"n":0\}/);
      expect(legit.body).toMatch(/stream_limit/);
      expect(legitJson.status).toBe(200);
      expect(legitJson.body).toBe('{"ok":true}');
      // The run beside the flood is whole: no result of ours failed (an error would be a request the proxy refused).
      const errors = reportResults(report).filter((r) => r.status === 'error');
      expect(report.runStatus).toBe('completed');
      expect(errors.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
      expect(report.notAssessed).toBeUndefined();
      expect(report.conformanceLevel).not.toBeNull();
      // Not starved: a run the flood starved would show above as tool errors (its requests time out at 10 s) or no level.
      // Its wall time is printed, not asserted: a 25 s bound here measured the machine's load as much as the proxy.
      const health = await request(`${s.url}/proxy/health`, { headers: { 'X-A2A-Interop': '1' } });
      expect(health.status).toBe(200);
      const peak = peakRssMiB(s.pid);
      console.log(
        `stream flood: ${flood.length} streams (${accepted.length} relayed, ${limited.length} refused: stream_limit); peak RSS ${peak?.toFixed(0)} MiB; the run beside it ${elapsed} ms`,
      );
      if (peak !== undefined) expect(peak).toBeLessThan(320);
      s.child.kill();
    } finally {
      agent.closeAllConnections();
      await new Promise<void>((r) => agent.close(() => r()));
    }
  }, 60_000);
});
