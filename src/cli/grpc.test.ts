import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1GrpcDemoAgent } from '../demo-agents/v1-agent';
import type { MountedDemoAgent } from '../demo-agents/mount';
import { Report } from '../engine/model/report';
import { reportResults } from '../engine/report/build';
import { runMany, type RunManyOptions } from './fleet';
import { main, type CliIo } from './main';

let demo: Server;
let agent: MountedDemoAgent & { grpcUrl: string };
let cards: Server;
let cardBase = '';

beforeAll(async () => {
  demo = createServer();
  await new Promise<void>((r) => demo.listen(0, '127.0.0.1', () => r()));
  const base = `http://127.0.0.1:${(demo.address() as AddressInfo).port}/demo/v1`;
  agent = await startV1GrpcDemoAgent({ basePath: '/demo/v1', publicUrl: base, stepMs: 10, slowTaskMs: 300 });
  demo.on('request', (req, res) => {
    if (!agent.handle(req, res)) res.writeHead(404).end();
  });
  // The demo agent's card with its gRPC interface only.
  const card = (await (await fetch(agent.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json()) as { supportedInterfaces: { protocolBinding: string }[] };
  card.supportedInterfaces = card.supportedInterfaces.filter((i) => i.protocolBinding === 'GRPC');
  cards = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
  await new Promise<void>((r) => cards.listen(0, '127.0.0.1', () => r()));
  cardBase = `http://127.0.0.1:${(cards.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  await new Promise<void>((r) => demo.close(() => r()));
  await new Promise<void>((r) => cards.close(() => r()));
});

describe('a2a-interop run over a gRPC-only card', () => {
  it('tests the gRPC interface (no longer "not testable") and judges the operations', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), env: {}, writeFile: () => undefined };
    const only = ['lifecycle.send', 'lifecycle.get', 'streaming.framing', 'errors.invalid-json'];
    expect(await main(['run', cardBase, ...only.flatMap((id) => ['--only', id]), '--timeout', '5', '--quiet'], io), err.join('')).toBeLessThan(2);
    const report = Report.parse(JSON.parse(out.join('')));
    expect(report.protocol.binding).toBe('GRPC');
    expect(report.protocol.endpointUrl).toBe(agent.grpcUrl);
    const status = Object.fromEntries(reportResults(report).map((r) => [r.id, r.status]));
    expect(status).toEqual({ 'lifecycle.send': 'pass', 'lifecycle.get': 'pass', 'streaming.framing': 'pass', 'errors.invalid-json': 'skip' });
  });

  it('--binding grpc is accepted, a misspelt binding is a usage error', async () => {
    const err: string[] = [];
    const io: CliIo = { stdout: () => undefined, stderr: (s) => err.push(s), env: {}, writeFile: () => undefined };
    expect(await main(['run', cardBase, '--binding', 'grcp', '--quiet'], io)).toBe(2);
    expect(err.join('')).toMatch(/jsonrpc, http\+json or grpc/);
  });
});

describe('a2a-interop run-many over a gRPC-only card', () => {
  it('speaks gRPC as run does (the fleet host has the same transport)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-run-many-grpc-'));
    const file = join(dir, 'agents.json');
    writeFileSync(file, JSON.stringify({ agents: [cardBase] }));
    const out = join(dir, 'out');
    const err: string[] = [];
    const io: CliIo = { stdout: () => undefined, stderr: (s) => err.push(s), env: {}, writeFile: () => undefined };
    const opts: RunManyOptions = {
      file,
      outDir: out,
      concurrency: 1,
      formats: [],
      minLevel: 'minimal',
      timeoutMs: 5_000,
      deadlineMs: 60_000,
      only: ['lifecycle.send'],
      quiet: true,
    };
    try {
      expect(await runMany(opts, io), err.join('')).toBeLessThan(2);
      const reports = readdirSync(join(out, 'agents')).filter((f) => f.endsWith('.json'));
      expect(reports).toHaveLength(1);
      const report = Report.parse(JSON.parse(readFileSync(join(out, 'agents', reports[0]!), 'utf8')));
      expect(report.protocol.binding).toBe('GRPC');
      expect(reportResults(report).map((r) => [r.id, r.status])).toEqual([['lifecycle.send', 'pass']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
