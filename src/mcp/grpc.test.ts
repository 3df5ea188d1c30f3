/**
 * MCP goes through the engine's front door as a run does: an agent whose card declares only a v1.0 gRPC interface is
 * discovered, talked to and run over gRPC by the server as it starts (createMcpServer's own host, in-memory transport).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { startGrpcFront, type GrpcFront } from '../testing/defect-agent/grpc';
import { createMcpServer } from './server';

let agent: RunningDefectAgent;
let front: GrpcFront;
let cards: Server;
let base = '';
let reportDir = '';
let client: Client;

beforeAll(async () => {
  agent = await startDefectAgent({ generation: 'v1.0', stepMs: 5, slowTaskMs: 300 });
  front = await startGrpcFront({ jsonRpcUrl: agent.url });
  // The card declares the gRPC interface only: nothing but gRPC reaches the agent.
  const card = (await (await fetch(agent.cardUrl, { headers: { 'A2A-Version': '1.0' } })).json()) as { supportedInterfaces: unknown[] };
  card.supportedInterfaces = [{ url: front.url, protocolBinding: 'GRPC', protocolVersion: '1.0' }];
  cards = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(card)));
  await new Promise<void>((r) => cards.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(cards.address() as AddressInfo).port}`;
  const server = createMcpServer({ log: () => undefined, reportDir: (reportDir = mkdtempSync(join(tmpdir(), 'a2a-mcp-grpc-'))) });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
});

afterAll(async () => {
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  await client?.close();
  await front?.close();
  await agent?.close();
  await new Promise<void>((r) => (cards ? cards.close(() => r()) : r()));
});

const call = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: !!r.isError, value: r.structuredContent as Record<string, unknown> };
};

describe('MCP over a gRPC-only agent', () => {
  it('discover_a2a_agent detects the gRPC interface as testable', async () => {
    const { isError, value } = await call('discover_a2a_agent', { agent_url: base });
    expect(isError, JSON.stringify(value)).toBe(false);
    expect(value.agent).toMatchObject({ generation: 'v1.0', binding: 'GRPC', endpoint_url: front.url });
  });

  it('send_a2a_message and get_a2a_task speak gRPC and judge the answers', async () => {
    const before = front.calls.length;
    const sent = await call('send_a2a_message', { agent_url: base, text: 'Write a haiku about interoperability' });
    expect(sent.isError, JSON.stringify(sent.value)).toBe(false);
    expect(sent.value).toMatchObject({ ok: true, outcome: 'task', operation: 'SendMessage', agent: { binding: 'GRPC' }, findings: [] });
    const id = (sent.value.task as { id: string }).id;
    const got = await call('get_a2a_task', { agent_url: base, task_id: id });
    expect(got.value).toMatchObject({ ok: true, operation: 'GetTask', task: { id } });
    expect(front.calls.slice(before)).toEqual(['SendMessage', 'GetTask']);
  });

  it('run_a2a_conformance runs a check over gRPC', async () => {
    const before = front.calls.length;
    const { value } = await call('run_a2a_conformance', { agent_url: base, only: ['lifecycle.send'] });
    expect(JSON.stringify(value)).toMatch(/GRPC/);
    expect(front.calls.slice(before)).toContain('SendMessage');
  });
});
