/**
 * `a2a-interop tap <agent-url> -- <command>`: the command runs with A2A_TAP_URL, the report is written in every
 * format with --record, and the exit code follows --fail-on (the command's own failure first).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/main';
import { main, type CliIo } from './main';
import { tapExitCode } from './tap';

let s: RunningServer;
let dir: string;
beforeAll(async () => {
  s = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 200, stepMs: 10 });
  dir = mkdtempSync(join(tmpdir(), 'tap-cli-'));
});
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

function io(): CliIo & { out: string[]; err: string[]; files: Map<string, string> } {
  const out: string[] = [];
  const err: string[] = [];
  const files = new Map<string, string>();
  return { out, err, files, stdout: (x) => out.push(x), stderr: (x) => err.push(x), env: {}, writeFile: (p, b) => files.set(p, b) };
}

/** A client script (ES module for node -e): reads the card through the tap and sends one JSON-RPC request. */
const client = (method: string) => `
const u = process.env.A2A_TAP_URL;
const card = await (await fetch(u + '.well-known/agent-card.json')).json();
const res = await fetch(card.url, { method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: ${JSON.stringify(method)}, params: { message: { kind: 'message', messageId: crypto.randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'write a haiku' }] } } }) });
await res.text();
if (!card.url.startsWith(u)) process.exit(9);
`;

const agent = () => `${s.url.replace(/\/$/, '')}/demo/v03`;

describe('a2a-interop tap -- <command>', () => {
  it('a clean client: exit 0, every format written under --record', async () => {
    const x = io();
    const out = join(dir, 'clean');
    const code = await main(['tap', agent(), '--record', out, '--quiet', '--', process.execPath, '--input-type=module', '-e', client('message/send')], x);
    expect(x.err.join('')).toBe('');
    expect(code).toBe(0);
    expect(x.out.join('')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\n$/);
    expect([...x.files.keys()].map((p) => p.slice(out.length + 1)).sort()).toEqual(
      ['a2a-tap.har', 'a2a-tap.html', 'a2a-tap.json', 'a2a-tap.junit.xml', 'a2a-tap.md', 'a2a-tap.sarif'].sort(),
    );
    const report = JSON.parse(x.files.get(join(out, 'a2a-tap.json'))!) as { exchanges: unknown[]; summary: { client: { verdict: string } } };
    expect(report.exchanges.length).toBe(2);
    expect(report.summary.client.verdict).toBe('pass');
  });

  it('a client using the wrong method: exit 1 under --fail-on client (and any), 0 under --fail-on agent', async () => {
    const run = async (failOn: string) => {
      const x = io();
      const code = await main(['tap', agent(), '--fail-on', failOn, '--', process.execPath, '--input-type=module', '-e', client('SendMessage')], x);
      return { code, err: x.err.join('') };
    };
    const c = await run('client');
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/CLIENT MUST client\.method: SendMessage is the v1\.0 method; this v0\.3 interface speaks message\/send/);
    expect(c.err).toMatch(/exit 1: the client side broke a MUST or SHOULD/);
    expect((await run('any')).code).toBe(1);
    expect((await run('agent')).code).toBe(0);
  });

  it("the command's own failure is the exit code; usage errors are 2", async () => {
    expect(await main(['tap', agent(), '--quiet', '--', process.execPath, '-e', 'process.exit(3)'], io())).toBe(3);
    expect(await main(['tap', agent(), '--fail-on', 'nobody', '--', 'true'], io())).toBe(2);
    expect(await main(['tap', 'ftp://x', '--', 'true'], io())).toBe(2);
    expect(await main(['tap', agent(), '--'], io())).toBe(2);
  });

  it('tapExitCode: only MUST/SHOULD of the chosen side fail', () => {
    const r = (client: string, agent: string) => ({ summary: { client: { verdict: client }, agent: { verdict: agent } } }) as never;
    expect(tapExitCode(r('advisory', 'pass'), 'any')).toBe(0);
    expect(tapExitCode(r('pass', 'fail'), 'client')).toBe(0);
    expect(tapExitCode(r('pass', 'fail'), 'agent')).toBe(1);
    expect(tapExitCode(r('pass', 'pass'), 'any', 4)).toBe(4);
  });
});

describe('--record on disk (the real writeFile)', () => {
  it('writes readable files', async () => {
    const out = join(dir, 'disk');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { dirname } = await import('node:path');
    const x = { ...io(), writeFile: (p: string, b: string) => (mkdirSync(dirname(p), { recursive: true }), writeFileSync(p, b)) };
    expect(await main(['tap', agent(), '--record', out, '--quiet', '--', process.execPath, '--input-type=module', '-e', client('message/send')], x)).toBe(0);
    expect(readdirSync(out).length).toBe(6);
    expect(JSON.parse(readFileSync(join(out, 'a2a-tap.har'), 'utf8')).log.version).toBe('1.2');
  });
});
