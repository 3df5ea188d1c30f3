/**
 * `a2a-interop mcp`: the engine as a Model Context Protocol server on stdio, so AI assistants (Claude Desktop,
 * Claude Code, VS Code, Cursor, …) can discover A2A agents, run the conformance suite and talk to an agent one
 * judged exchange at a time. stdout carries the protocol only; diagnostics go to stderr.
 *
 * @example
 * // .mcp.json (Claude Code) / claude_desktop_config.json:
 * // { "mcpServers": { "a2a-interop": { "command": "node", "args": ["/path/to/a2a-interop/dist-cli/bin.mjs", "mcp", "--report-dir", "/path/to/reports"] } } }
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { TOOL } from '../engine/report/build';
import { lazyGrpc } from '../grpc/lazy';
import { createNodeHost } from '../hosts/node';
import { resolve } from 'node:path';
import { DEFAULT_SECRET_ENV, defaultReportDir, type ToolDeps } from './agent-tools';
import { registerTools } from './tools';

const INSTRUCTIONS = `Tools to check Agent2Agent (A2A) agents against the protocol (legacy, v0.2/v0.3, v1.0; JSON-RPC, HTTP+JSON and v1.0 gRPC).
Start with discover_a2a_agent (card, generation, binding, card findings). run_a2a_conformance runs the whole suite (or only some checks: list_checks names them, explain_check quotes one) and gives a conformance level with every failure, its spec sentence and a fix (a bounded summary; the full report is a file whose path it names). send_a2a_message, get_a2a_task and cancel_a2a_task talk to the agent one exchange at a time and judge each answer (and each SSE event of a stream) with the suite's rules. Credentials go in "headers" and are masked in everything returned.`;

/**
 * The variables OAuth client secrets may be read from, fixed at start: `A2A_MCP_OAUTH_SECRET_ENV` (comma-separated
 * names), default A2A_OAUTH_CLIENT_SECRET. A tool call can only pick among them.
 */
export function secretEnvNamesFrom(env: Record<string, string | undefined>): string[] {
  const names = (env.A2A_MCP_OAUTH_SECRET_ENV ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  return names.length ? names : [DEFAULT_SECRET_ENV];
}

/** An MCP server with the a2a-interop tools (not connected). */
export function createMcpServer(deps: Partial<ToolDeps> = {}): McpServer {
  const server = new McpServer(
    { name: 'a2a-interop', title: 'A2A interop (conformance)', version: TOOL.version },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  const f = deps.fetch ?? globalThis.fetch;
  // gRPC as the CLI speaks it (src/grpc, loaded on the first gRPC call): every tool reaches what a run reaches.
  const grpc = lazyGrpc();
  registerTools(server, {
    fetch: f,
    host: deps.host ?? ((fetch) => createNodeHost({ fetch, grpc })),
    log: deps.log ?? ((line) => process.stderr.write(`a2a-interop mcp: ${line}\n`)),
    env: deps.env,
    secretEnvNames: deps.secretEnvNames ?? secretEnvNamesFrom(process.env),
    reportDir: deps.reportDir,
  });
  return server;
}

/**
 * Serves on stdin/stdout until the client closes stdin. Anything the process would print with console.log goes
 * to stderr, so stdout carries only MCP messages. Resolves with the exit code.
 */
export async function serveStdio(opts: { quiet?: boolean; reportDir?: string } = {}): Promise<number> {
  for (const k of ['log', 'info', 'debug'] as const) console[k] = (...a: unknown[]) => console.error(...a);
  // A long-lived server: a stray failure is logged, never a crash that drops the assistant's session.
  const report = (what: string) => (e: unknown) =>
    process.stderr.write(`a2a-interop mcp: ${what}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.on('unhandledRejection', report('unhandled rejection'));
  process.on('uncaughtException', report('uncaught exception'));
  // Full reports of run_a2a_conformance go here (--report-dir, A2A_INTEROP_REPORT_DIR, else a folder in the temp dir).
  const reportDir = resolve(opts.reportDir ?? process.env.A2A_INTEROP_REPORT_DIR ?? defaultReportDir());
  const server = createMcpServer({ reportDir });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  if (!opts.quiet)
    process.stderr.write(
      `a2a-interop ${TOOL.version} MCP server on stdio (tools: discover_a2a_agent, run_a2a_conformance, send_a2a_message, get_a2a_task, cancel_a2a_task, list_checks, explain_check); reports go to ${reportDir}\n`,
    );
  await closed;
  await server.close().catch(() => undefined);
  // A call still in flight (an open stream) must not keep a server whose client left alive.
  setTimeout(() => process.exit(0), 1_000).unref();
  return 0;
}
