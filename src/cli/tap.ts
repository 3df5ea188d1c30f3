/**
 * `a2a-interop tap <agent-url>`: a conversation tap in front of an agent (issue 26). Prints the URL to give the
 * client; with `-- <command>` runs the command with that URL in A2A_TAP_URL (your integration tests), then writes
 * the report (`--record DIR`: JSON, Markdown, JUnit, HTML, SARIF and HAR 1.2) and exits non-zero when the chosen
 * side (`--fail-on client|agent|any`) broke a MUST or SHOULD. Without a command it runs until Ctrl-C.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { constants } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTap, type Tap, type TapEvent, type TapFaults, type TapReport } from '../engine/tap';
import { exportTapReport, TAP_EXPORT_FORMATS } from '../exporters/tap';
import { nodeFetch, serveTap } from '../server/tap-node';
import type { CliIo } from './io';

export const TAP_USAGE = `Usage:
  a2a-interop tap <agent-url> [options] [-- <command> [args...]]

Puts a recording, judging relay in front of the agent and prints its URL: give that URL to your A2A client (it
serves the agent's card with every interface pointing at the tap). Both sides are judged: the client's requests
against the generation the card speaks, the agent's answers as a run judges them.

Options:
  --port N                 listen on port N (default: any free port), on 127.0.0.1 (--host to change)
  --record DIR             write the report to DIR at the end: a2a-tap.json, .md, .junit.xml, .html, .sarif, .har
  --fail-on client|agent|any   exit 1 when that side broke a MUST or SHOULD (default any)
  --delay MS               fault: hold every request MS before forwarding it
  --drop-stream-after N    fault: cut every stream after N events
  --fail-once 503|reset    fault: answer the next request 503, or reset its connection, once
  --slow-card MS           fault: hold the card MS
  --quiet                  no live log on stderr
  -- <command>             run the command with A2A_TAP_URL set to the tap's URL, then stop the tap

Exit codes: the command's own code when it failed; else 1 when the --fail-on side has violations; else 0; 2 usage error.`;

type FailSide = 'client' | 'agent' | 'any';

/** The exit code the report gives under --fail-on (the command's own failure comes first). */
export function tapExitCode(r: TapReport, failOn: FailSide, commandCode?: number): number {
  if (commandCode !== undefined && commandCode !== 0) return commandCode;
  const bad = (s: 'client' | 'agent') => r.summary[s].verdict === 'fail';
  return (failOn === 'client' && bad('client')) || (failOn === 'agent' && bad('agent')) || (failOn === 'any' && (bad('client') || bad('agent'))) ? 1 : 0;
}

function logLine(e: TapEvent): string | undefined {
  switch (e.kind) {
    case 'exchange-start':
      return `${e.id} → ${e.method} ${e.operation}`;
    case 'exchange-end':
      return `${e.id} ← ${e.status ?? '---'}${e.stream ? ` stream, ${e.frames} event(s)` : ''} ${e.durationMs} ms${e.error ? ` (${e.error.message})` : ''}`;
    case 'finding':
      return `${e.id} ${e.finding.side.toUpperCase()} ${e.finding.level} ${e.finding.checkId}: ${e.finding.message}`;
    case 'fault':
      return `${e.id} fault: ${e.detail}`;
    case 'target':
      return `agent: ${e.target.agentName ?? e.target.agentUrl} (${e.target.generation ?? 'generation unknown'})${e.target.notRelayed.length ? `; not relayed: ${e.target.notRelayed.map((n) => n.binding).join(', ')}` : ''}`;
    default:
      return undefined;
  }
}

const int = (name: string, v: string | undefined, max: number): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(`${name} must be an integer from 0 to ${max}`);
  return n;
};

function runCommand(cmd: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    // One string with spaces is a shell command line; several arguments are run as they are.
    const child =
      cmd.length === 1 && /\s/.test(cmd[0]!) ? spawn(cmd[0]!, { stdio: 'inherit', env, shell: true }) : spawn(cmd[0]!, cmd.slice(1), { stdio: 'inherit', env });
    child.on('error', () => resolve(127));
    child.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 1) : 1)));
  });
}

export async function tapCommand(argv: string[], io: CliIo): Promise<number> {
  const dash = argv.indexOf('--');
  const own = dash >= 0 ? argv.slice(0, dash) : argv;
  const command = dash >= 0 ? argv.slice(dash + 1) : [];
  let values;
  let positionals: string[];
  let faults: TapFaults;
  let failOn: FailSide;
  let port: number;
  try {
    ({ values, positionals } = parseArgs({
      args: own,
      allowPositionals: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        record: { type: 'string' },
        'fail-on': { type: 'string' },
        delay: { type: 'string' },
        'drop-stream-after': { type: 'string' },
        'fail-once': { type: 'string' },
        'slow-card': { type: 'string' },
        quiet: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
    if (values.help) {
      io.stdout(`${TAP_USAGE}\n`);
      return 0;
    }
    if (positionals.length !== 1) throw new Error('tap needs one agent URL');
    const u = new URL(positionals[0]!);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('the agent URL must be http(s)');
    failOn = (values['fail-on'] ?? 'any') as FailSide;
    if (!['client', 'agent', 'any'].includes(failOn)) throw new Error('--fail-on is client, agent or any');
    if (command.length === 0 && dash >= 0) throw new Error('-- needs a command after it');
    port = int('--port', values.port, 65535) ?? 0;
    const failOnce = values['fail-once'];
    if (failOnce !== undefined && failOnce !== '503' && failOnce !== 'reset') throw new Error('--fail-once is 503 or reset');
    faults = {
      ...(values.delay !== undefined && { delayMs: int('--delay', values.delay, 60_000) }),
      ...(values['drop-stream-after'] !== undefined && { dropStreamAfter: int('--drop-stream-after', values['drop-stream-after'], 10_000) }),
      ...(failOnce !== undefined && { failOnce: failOnce === '503' ? 503 : 'reset' }),
      ...(values['slow-card'] !== undefined && { slowCardMs: int('--slow-card', values['slow-card'], 60_000) }),
    } as TapFaults;
  } catch (e) {
    io.stderr(`${e instanceof Error ? e.message : String(e)}\n\n${TAP_USAGE}\n`);
    return 2;
  }
  const host = values.host ?? '127.0.0.1';
  const tap: Tap = createTap({ agentUrl: positionals[0]!, fetch: nodeFetch, faults });
  let base = '';
  const server: Server = createServer((req, res) => void serveTap(tap, req, res, base));
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (e) {
    io.stderr(`a2a-interop: exit 2: cannot listen on ${host}:${port}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
  const { port: bound } = server.address() as { port: number };
  base = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/`;
  io.stdout(`${base}\n`);
  if (!values.quiet) {
    io.stderr(`a2a-interop tap: ${positionals[0]} is reachable through ${base}\n`);
    tap.events.subscribe((e) => {
      const line = logLine(e);
      if (line) io.stderr(`${line}\n`);
    });
  }
  let commandCode: number | undefined;
  if (command.length) commandCode = await runCommand(command, { ...process.env, ...io.env, A2A_TAP_URL: base });
  else
    await new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    });
  const report = tap.report();
  tap.close();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  if (values.record)
    for (const f of TAP_EXPORT_FORMATS) {
      const file = exportTapReport(report, f);
      io.writeFile(join(values.record, file.filename), file.body);
    }
  const code = tapExitCode(report, failOn, commandCode);
  const sides = `client ${report.summary.client.verdict}, agent ${report.summary.agent.verdict}; ${report.summary.exchanges} exchange(s)`;
  if (code === 0) {
    if (!values.quiet) io.stderr(`a2a-interop tap: ${sides}\n`);
  } else
    io.stderr(
      `a2a-interop: exit ${code}: ${commandCode ? `the command failed (exit ${commandCode})` : `the ${failOn === 'any' ? 'client or agent' : failOn} side broke a MUST or SHOULD`}; ${sides}\n`,
    );
  return code;
}
