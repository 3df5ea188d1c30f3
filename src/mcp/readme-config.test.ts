/**
 * The README's MCP configuration, as a user copies it: the Claude Code `.mcp.json` block is read from README.md,
 * its two placeholder paths filled in (the command bundle built here, a report directory), its `${VAR}` env entries
 * expanded, and the server started exactly as it says, from an empty folder, with no package registry. Then a whole
 * run against a flawed agent: the tool result stays bounded while the full reports are files.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { SUMMARY_MAX_CHARS } from './summary';

const root = resolve(__dirname, '../..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The fenced block that follows `marker`, its `//` comment lines dropped, parsed. */
function configBlock(marker: string): Record<string, unknown> {
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README has no block marked ${marker}`);
  const start = readme.lastIndexOf('```jsonc', at);
  const end = readme.indexOf('```', at);
  const body = readme
    .slice(readme.indexOf('\n', start) + 1, end)
    .split('\n')
    .filter((l) => !l.trim().startsWith('//'))
    .join('\n');
  return JSON.parse(body) as Record<string, unknown>;
}

interface ServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

let work: string;
let bin: string;
let reports: string;
let agent: RunningDefectAgent;
let client: Client;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'a2a-mcp-readme-'));
  reports = join(work, 'reports');
  const built = join(work, 'a2a-interop', 'dist-cli');
  await new Promise<void>((done, fail) =>
    execFile(process.execPath, [join(root, 'scripts/build-cli.mjs'), '--outdir', built, '--no-types', '--quiet'], { timeout: 90_000 }, (err) =>
      err ? fail(err) : done(),
    ),
  );
  bin = join(built, 'bin.mjs');
  agent = await startDefectAgent({
    generation: 'v1.0',
    defects: ['card-capabilities-array', 'card-skill-no-description', 'invalid-params-wrong-code', 'task-not-found-wrong-code'],
    slowTaskMs: 200,
    stepMs: 5,
  });
}, 120_000);

afterAll(async () => {
  await client?.close();
  await agent?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("README's MCP config", () => {
  it('Claude Code .mcp.json: runs the built CLI by path (no npx), with the OAuth secret in env', () => {
    const cfg = configBlock('// Claude Code: .mcp.json') as { mcpServers: Record<string, ServerEntry> };
    const entry = cfg.mcpServers['a2a-interop']!;
    expect(entry.command).toBe('node');
    expect(entry.args).toEqual(['/path/to/a2a-interop/dist-cli/bin.mjs', 'mcp', '--report-dir', '/path/to/a2a-reports']);
    expect(entry.env).toEqual({ A2A_OAUTH_CLIENT_SECRET: '${A2A_OAUTH_CLIENT_SECRET}' });
    const vscode = configBlock('// VS Code (GitHub Copilot agent mode)') as { servers: Record<string, ServerEntry & { type: string }> };
    expect(vscode.servers['a2a-interop']).toMatchObject({ type: 'stdio', command: 'node', args: entry.args });
    expect(Object.keys(vscode.servers['a2a-interop']!.env!)).toEqual(['A2A_OAUTH_CLIENT_SECRET']);
  });

  it('starts as configured from an empty folder and answers; a whole run returns a bounded summary and writes the reports', async () => {
    const entry = (configBlock('// Claude Code: .mcp.json') as { mcpServers: Record<string, ServerEntry> }).mcpServers['a2a-interop']!;
    const userEnv: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: work, A2A_OAUTH_CLIENT_SECRET: 'readme-test-secret' };
    const fill = (s: string) =>
      s
        .replace('/path/to/a2a-interop/dist-cli/bin.mjs', bin)
        .replace('/path/to/a2a-reports', reports)
        .replace(/\$\{(\w+)\}/g, (_, k: string) => userEnv[k] ?? '');
    const transport = new StdioClientTransport({
      command: entry.command === 'node' ? process.execPath : entry.command,
      args: entry.args.map(fill),
      env: { ...userEnv, ...Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, fill(v)])) },
      cwd: mkdtempSync(join(work, 'empty-')),
      stderr: 'pipe',
    });
    client = new Client({ name: 'readme-config-test', version: '0.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['run_a2a_conformance', 'list_checks', 'explain_check']));

    for (const format of ['sarif', 'json'] as const) {
      const res = (await client.callTool({
        name: 'run_a2a_conformance',
        arguments: { agent_url: agent.cardUrl, format, timeout_seconds: 10 },
      })) as CallToolResult;
      const texts = res.content.filter((c) => c.type === 'text').map((c) => c.text);
      expect(res.isError).toBeFalsy();
      expect(texts).toHaveLength(1);
      expect(texts[0]!.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
      const data = res.structuredContent as { level: string; failures: { check: string; spec?: string; fix?: string }[]; report_files: Record<string, string> };
      expect(data.level).toBe('non-conformant');
      expect(data.failures.length).toBeGreaterThan(3);
      const caps = data.failures.find((f) => f.check === 'card.capabilities.shape')!;
      expect(caps.spec).toMatch(/"/);
      expect(caps.fix).toBeTruthy();
      const file = data.report_files[format]!;
      expect(file.startsWith(reports)).toBe(true);
      expect(existsSync(file)).toBe(true);
      // The full report is far larger than what the assistant is given.
      expect(readFileSync(file, 'utf8').length).toBeGreaterThan(4 * SUMMARY_MAX_CHARS);
    }
  }, 180_000);
});
