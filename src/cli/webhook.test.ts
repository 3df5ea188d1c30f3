import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../engine/model/report';
import { reportResults } from '../engine/report/build';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { main, type CliIo } from './main';

const PUSH = ['lifecycle.push-delivery', 'lifecycle.push-auth', 'lifecycle.push-after-delete'];

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), env: {}, writeFile: () => undefined };
  return { cli, out: () => out.join(''), err: () => err.join('') };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });

let agent: RunningDefectAgent;
beforeAll(async () => {
  agent = await startDefectAgent({ generation: 'v1.0', features: { push: true }, slowTaskMs: 300, stepMs: 10 });
});
afterAll(() => agent.close());

const base = () => agent.cardUrl.replace(/\/\.well-known\/.*$/, '');
const statuses = (json: string) => Object.fromEntries(reportResults(Report.parse(JSON.parse(json))).map((r) => [r.id, r.status]));

describe('a2a-interop run: the push webhook inbox', () => {
  it('hosts an inbox on an ephemeral 127.0.0.1 port: the test agent delivers and the push checks pass', async () => {
    const t = io();
    // A run of a few checks reaches no level (exit 1); what matters here is each check's verdict.
    expect(await main(['run', base(), ...PUSH.flatMap((id) => ['--only', id]), '--timeout', '5', '--quiet'], t.cli), t.err()).toBeLessThan(2);
    expect(statuses(t.out())).toEqual(Object.fromEntries(PUSH.map((id) => [id, 'pass'])));
    expect(t.out()).not.toMatch(/\/inbox\/[0-9a-f]{32}/);
  });

  it('--webhook-url names the addresses given to the agent and --webhook-port fixes the listener it forwards to', async () => {
    const port = await freePort();
    const t = io();
    const args = [
      'run',
      base(),
      '--only',
      'lifecycle.push-delivery',
      '--timeout',
      '5',
      '--webhook-port',
      String(port),
      '--webhook-url',
      `http://localhost:${port}/fwd`,
    ];
    expect(await main(args, t.cli), t.err()).toBeLessThan(2);
    expect(t.err()).toContain(`push webhook inbox: http://127.0.0.1:${port} (http://localhost:${port}/fwd must forward to it)`);
    expect(statuses(t.out())['lifecycle.push-delivery']).toBe('pass');
    const set = agent.requests.filter((r) => r.body.includes('CreateTaskPushNotificationConfig')).at(-1);
    expect(set?.body).toMatch(new RegExp(`http://localhost:${port}/fwd/inbox/[0-9a-f]{32}`));
  });

  it('refuses a malformed --webhook-url or --webhook-port (usage error, exit 2)', async () => {
    for (const bad of [
      ['--webhook-url', 'not a url'],
      ['--webhook-url', 'ftp://x.example/hook'],
      ['--webhook-url', 'https://x.example/hook?k=v'],
      ['--webhook-port', '70000'],
    ]) {
      const t = io();
      expect(await main(['run', base(), ...bad], t.cli)).toBe(2);
      expect(t.err()).toMatch(/--webhook-(url|port)/);
    }
  });
});
