/**
 * run_a2a_conformance with OAuth client credentials (in-memory MCP transport, the OAuth demo agent): the secret comes
 * from the server's environment, never from the call, and never appears in what the tool returns.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthDemoAgent, DEMO_OAUTH_CLIENT } from '../demo-agents/oauth-agent';
import { createMcpServer } from './server';

let agent: http.Server;
let base = '';
let reportDir = '';
let client: Client;
beforeAll(async () => {
  let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  agent = http.createServer((req, res) => {
    if (!handle?.(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => agent.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(agent.address() as { port: number }).port}/demo/oauth`;
  handle = createOAuthDemoAgent({ basePath: '/demo/oauth', publicUrl: base, stepMs: 5, slowTaskMs: 200 }).handle;
  const server = createMcpServer({
    env: { DEMO_SECRET: DEMO_OAUTH_CLIENT.clientSecret },
    secretEnvNames: ['DEMO_SECRET', 'A2A_OAUTH_CLIENT_SECRET'],
    log: () => undefined,
    reportDir: (reportDir = mkdtempSync(join(tmpdir(), 'a2a-mcp-oauth-'))),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  client = new Client({ name: 't', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
});
afterAll(async () => {
  if (reportDir) rmSync(reportDir, { recursive: true, force: true });
  await client?.close();
  await new Promise<void>((r) => agent.close(() => r()));
});

const call = async (args: Record<string, unknown>) => {
  const res = (await client.callTool({ name: 'run_a2a_conformance', arguments: args })) as CallToolResult;
  return { res, text: res.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
};

describe('run_a2a_conformance oauth', () => {
  it('fetches a token with the secret from the named environment variable; the secret is in nothing returned', async () => {
    const { res, text } = await call({
      agent_url: base,
      oauth: { client_id: DEMO_OAUTH_CLIENT.clientId, client_secret_env: 'DEMO_SECRET' },
      only: ['lifecycle.send', 'auth.oauth-token'],
      format: 'json',
    });
    expect(res.isError, text).toBeFalsy();
    // The full report is a file (run_a2a_conformance returns a bounded summary that names it).
    const report = readFileSync((res.structuredContent as { report_files: { json: string } }).report_files.json, 'utf8');
    expect(report).toMatch(/"credentials": ?"oauth2"/);
    expect(report).toMatch(/lifecycle\.send/);
    expect(JSON.stringify(res)).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
    expect(report).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
  }, 20_000);

  it('says where the secret is read from when the variable is not set', async () => {
    const { res, text } = await call({ agent_url: base, oauth: { client_id: 'c' } });
    expect(res.isError).toBe(true);
    expect(text).toMatch(/A2A_OAUTH_CLIENT_SECRET of this MCP server/);
  });
});
