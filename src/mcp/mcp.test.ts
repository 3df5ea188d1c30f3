/**
 * The MCP server driven by the SDK's own client over stdio (the server runs as a child process, as an assistant
 * starts it), against the demo agents (@a2a-js/sdk v1.0 and v0.3, the flawed test agent) and against bad input.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/main';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the server writes the full reports (A2A_INTEROP_REPORT_DIR). */
const REPORT_DIR = mkdtempSync(join(tmpdir(), 'a2a-mcp-reports-'));

let demo: RunningServer;
let client: Client;
let html: Server;
let htmlUrl = '';
let closedUrl = '';
let silent: Server;
let silentUrl = '';
const stderr: string[] = [];
const demoUrl = (id: string) => `${demo.url.replace(/\/$/, '')}/demo/${id}`;

beforeAll(async () => {
  demo = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 400, stepMs: 10 });
  html = createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><h1>Welcome to my blog</h1>'));
  await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
  htmlUrl = `http://127.0.0.1:${(html.address() as AddressInfo).port}/`;
  // Accepts connections and never answers.
  silent = createServer(() => undefined);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
  // A port nobody listens on: bind one, then close it.
  const tmp = createServer();
  await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(tmp.address() as AddressInfo).port}/`;
  await new Promise<void>((r) => tmp.close(() => r()));

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'src/mcp/main.ts'],
    cwd: ROOT,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), A2A_INTEROP_REPORT_DIR: REPORT_DIR },
  });
  transport.stderr?.on('data', (c: Buffer) => stderr.push(c.toString()));
  client = new Client({ name: 'a2a-interop-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  await demo?.close();
  await new Promise<void>((r) => html?.close(() => r()));
  silent?.closeAllConnections();
  await new Promise<void>((r) => silent?.close(() => r()));
  rmSync(REPORT_DIR, { recursive: true, force: true });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(name: string, args: Record<string, unknown>, onprogress?: (p: { progress: number; total?: number; message?: string }) => void) {
  const res = (await client.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress } : undefined)) as CallToolResult;
  const texts = res.content.filter((c) => c.type === 'text').map((c) => c.text);
  return { res, texts, data: (res.structuredContent ?? {}) as Json, isError: res.isError === true };
}

describe('MCP server over stdio', () => {
  it('lists the seven tools with their input schemas', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(Object.keys(byName).sort()).toEqual([
      'cancel_a2a_task',
      'discover_a2a_agent',
      'explain_check',
      'get_a2a_task',
      'list_checks',
      'run_a2a_conformance',
      'send_a2a_message',
    ]);
    expect(byName.explain_check!.inputSchema.required).toEqual(['check_id']);
    const props = (n: string) => Object.keys((byName[n]!.inputSchema.properties ?? {}) as object).sort();
    expect(props('discover_a2a_agent')).toEqual(['agent_url', 'headers']);
    expect(props('run_a2a_conformance')).toEqual(expect.arrayContaining(['agent_url', 'headers', 'skills', 'only', 'timeout_seconds', 'format']));
    expect(props('send_a2a_message')).toEqual(expect.arrayContaining(['agent_url', 'text', 'skill', 'task_id', 'context_id', 'stream', 'headers']));
    expect(props('get_a2a_task')).toEqual(expect.arrayContaining(['agent_url', 'task_id', 'history_length', 'headers']));
    expect(props('cancel_a2a_task')).toEqual(expect.arrayContaining(['agent_url', 'task_id', 'headers']));
    expect(byName.send_a2a_message!.inputSchema.required?.sort()).toEqual(['agent_url', 'text']);
    expect(byName.get_a2a_task!.inputSchema.required?.sort()).toEqual(['agent_url', 'task_id']);
    const format = (byName.run_a2a_conformance!.inputSchema.properties as Json).format;
    expect(format.enum).toEqual(expect.arrayContaining(['json', 'markdown', 'junit', 'html']));
  });

  it('discover_a2a_agent: the v1.0 SDK agent, the v0.3 SDK agent, and the flawed agent (capabilities as an array: a card finding)', async () => {
    const v1 = await call('discover_a2a_agent', { agent_url: demoUrl('v1') });
    expect(v1.isError, v1.texts[0]).toBe(false);
    expect(v1.data.agent.generation).toBe('v1.0');
    expect(v1.data.card_as_received.supportedInterfaces.length).toBeGreaterThan(0);
    const v03 = await call('discover_a2a_agent', { agent_url: demoUrl('v03') });
    expect(v03.data.agent.generation).toBe('v0.3');
    expect(v03.data.card_valid).toBe(true);
    expect(v03.data.skills.map((s: Json) => s.id)).toContain('haiku');
    const flawed = await call('discover_a2a_agent', { agent_url: demoUrl('flawed') });
    expect(flawed.isError).toBe(false);
    expect(Array.isArray(flawed.data.card_as_received.capabilities)).toBe(true);
    expect(typeof flawed.data.normalized_card.capabilities).toBe('object');
    expect(flawed.data.card_valid).toBe(false);
    const cap = flawed.data.findings.find((f: Json) => /capabilities/.test(f.check));
    expect(cap?.status).toBe('fail');
    expect(cap?.recommendation).toBeTruthy();
  });

  it('run_a2a_conformance: level, failures with spec sentences, the report files, progress notifications', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const r = await call(
      'run_a2a_conformance',
      { agent_url: demoUrl('flawed'), only: ['card.capabilities.shape', 'lifecycle.send', 'lifecycle.get'], format: 'junit', timeout_seconds: 10 },
      (p) => progress.push(p),
    );
    expect(r.isError, r.texts[0]).toBe(false);
    // A run of selected checks has no level (the card failure is still reported).
    expect(r.data.level).toBeNull();
    expect(r.data.not_assessed.reason).toBe('selected-checks');
    const cap = r.data.failures.find((f: Json) => f.check === 'card.capabilities.shape');
    expect(cap.spec).toMatch(/"/);
    expect(cap.fix).toBeTruthy();
    // One text block, bounded; the full report is a file in the server's report directory.
    expect(r.texts).toHaveLength(1);
    expect(r.texts[0]!.length).toBeLessThanOrEqual(8_000);
    expect(r.data.report_files.junit.startsWith(REPORT_DIR)).toBe(true);
    expect(readFileSync(r.data.report_files.junit, 'utf8')).toMatch(/^<\?xml/);
    expect(JSON.parse(readFileSync(r.data.report_files.json, 'utf8')).summary.failed).toBe(r.data.counts.failed);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress.at(-1)!.progress).toBe(3);
    expect(progress.at(-1)!.total).toBe(3);
  });

  it('list_checks and explain_check: the ids `only` takes and what one enforces; an unknown id suggests near ones', async () => {
    const all = await call('list_checks', {});
    expect(all.isError).toBe(false);
    expect(all.data.count).toBeGreaterThan(80);
    expect(all.data.checks.map((c: Json) => c.id)).toContain('errors.task-not-found');
    const streaming = await call('list_checks', { category: 'streaming' });
    expect(streaming.data.checks.every((c: Json) => c.category === 'streaming')).toBe(true);
    expect(streaming.data.count).toBeLessThan(all.data.count);
    const e = await call('explain_check', { check_id: 'errors.task-not-found' });
    expect(e.isError).toBe(false);
    expect(e.data.fix).toBeTruthy();
    const v1 = e.data.generations.find((g: Json) => g.generation === 'v1.0');
    expect(v1.sentences[0].quote.length).toBeGreaterThan(10);
    const unknown = await call('explain_check', { check_id: 'errors.task-not-fund' });
    expect(unknown.isError).toBe(true);
    expect(unknown.texts[0]).toMatch(/No check "errors\.task-not-fund"\. Did you mean: .*errors\.task-not-found/);
  });

  it('send_a2a_message streamed to the v1.0 SDK agent: frames, the task completed, no findings; then get_a2a_task', async () => {
    const s = await call('send_a2a_message', { agent_url: demoUrl('v1'), text: 'Write a haiku about interoperability', stream: true });
    expect(s.isError, s.texts[0]).toBe(false);
    expect(s.data.frames.length).toBeGreaterThan(1);
    expect(s.data.frames[0].kind).toBe('task');
    expect(s.data.task.state).toBe('completed');
    expect(s.data.findings).toEqual([]);
    const g = await call('get_a2a_task', { agent_url: demoUrl('v1'), task_id: s.data.task.id, history_length: 1 });
    expect(g.isError, g.texts[0]).toBe(false);
    expect(g.data.task.id).toBe(s.data.task.id);
    expect(g.data.operation).toBe('GetTask');
    // The task is finished: the SDK refuses to cancel it (TaskNotCancelable): the agent's answer, as data.
    const c = await call('cancel_a2a_task', { agent_url: demoUrl('v1'), task_id: s.data.task.id });
    expect(c.isError).toBe(false);
    expect(c.data.ok).toBe(false);
    expect(c.data.error.code).toBe(-32002);
    expect(c.data.findings).toEqual([]);
  });

  it('send_a2a_message to the v0.3 SDK agent answers an input-required question in the same task', async () => {
    const first = await call('send_a2a_message', { agent_url: demoUrl('v03'), text: 'Book a table for two' });
    expect(first.data.task.state).toBe('input-required');
    const next = await call('send_a2a_message', {
      agent_url: demoUrl('v03'),
      text: 'Friday',
      task_id: first.data.task.id,
      context_id: first.data.task.contextId,
    });
    expect(next.isError, next.texts[0]).toBe(false);
    expect(next.data.task.id).toBe(first.data.task.id);
    expect(next.data.task.state).toBe('completed');
  });

  it('the flawed agent: a stream without final:true and a crash on cancel show up as findings', async () => {
    const s = await call('send_a2a_message', { agent_url: demoUrl('flawed'), text: 'Write a haiku', stream: true });
    expect(s.data.findings.map((f: Json) => f.check)).toContain('streaming.terminal');
    const c = await call('cancel_a2a_task', { agent_url: demoUrl('flawed'), task_id: s.data.task.id });
    expect(c.isError).toBe(false);
    expect(c.data.findings.find((f: Json) => f.check === 'lifecycle.cancel')?.message).toMatch(/HTTP 500/);
    expect(c.data.exchanges[0].response.status).toBe(500);
  });

  it('an A2A error (TaskNotFound) is data, not a tool error; credentials never come back', async () => {
    const secret = 'Bearer tok-9f8e7d6c5b4a';
    const g = await call('get_a2a_task', { agent_url: demoUrl('v1'), task_id: 'no-such-task', headers: { Authorization: secret } });
    expect(g.isError).toBe(false);
    expect(g.data.outcome).toBe('error');
    expect(g.data.error.code).toBe(-32001);
    expect(g.data.exchanges[0].request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(JSON.stringify(g.res)).not.toContain('tok-9f8e7d6c5b4a');
  });

  it('bad input is a tool error, and the server still answers afterwards', async () => {
    const bad = await call('discover_a2a_agent', { agent_url: 'not a url' });
    expect(bad.isError).toBe(true);
    expect(bad.texts[0]).toMatch(/absolute http\(s\) URL/);
    const closed = await call('send_a2a_message', { agent_url: closedUrl, text: 'hello' });
    expect(closed.isError).toBe(true);
    expect(closed.texts[0]).toMatch(/Nothing answered/);
    const page = await call('get_a2a_task', { agent_url: htmlUrl, task_id: 'x' });
    expect(page.isError).toBe(true);
    expect(page.texts[0]).toMatch(/no A2A agent card/);
    const hung = await call('get_a2a_task', { agent_url: silentUrl, task_id: 'x', timeout_seconds: 1 });
    expect(hung.isError).toBe(true);
    expect(hung.texts[0]).toMatch(/did not answer within the time budget/);
    const down = await call('discover_a2a_agent', { agent_url: closedUrl });
    expect(down.isError).toBe(true);
    expect(down.data.reason).toBe('unreachable');
    const unknown = await call('run_a2a_conformance', { agent_url: demoUrl('v03'), only: ['no.such.check'] });
    expect(unknown.isError).toBe(true);
    expect(unknown.texts[0]).toMatch(/Unknown check id/);
    const skill = await call('send_a2a_message', { agent_url: demoUrl('v03'), text: 'hi', skill: 'no-such-skill' });
    expect(skill.isError).toBe(true);
    expect(skill.texts[0]).toMatch(/declares no skill "no-such-skill"; its skills are .*haiku/);
    // Still serving.
    const after = await call('discover_a2a_agent', { agent_url: demoUrl('legacy') });
    expect(after.isError, after.texts[0]).toBe(false);
    expect(after.data.agent.generation).toBe('legacy');
    expect(stderr.join('')).not.toMatch(/failed inside a2a-interop/);
  });
});

describe('a2a-interop mcp (the CLI entry)', () => {
  it('writes only JSON-RPC messages to stdout, logs to stderr, and exits when stdin closes', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'mcp'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const deadline = Date.now() + 15_000;
    while (!out.includes('"id":2') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    const lines = out.split('\n').filter(Boolean);
    expect(lines.length).toBe(2);
    for (const l of lines) expect(JSON.parse(l)).toMatchObject({ jsonrpc: '2.0' });
    expect(JSON.parse(lines[1]!).result.tools).toHaveLength(7);
    expect(err).toMatch(/MCP server on stdio/);
    expect(code).toBe(0);
  });
});
