/**
 * The CLI's OAuth flags: the secret only from an environment variable, usage errors that say what to do, and a run
 * against the OAuth demo agent whose report and stderr never carry the secret.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthDemoAgent, DEMO_OAUTH_CLIENT } from '../demo-agents/oauth-agent';
import { main, type CliIo } from './main';
import { oauthFrom } from './oauth';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = { stdout: (s) => out.push(s), stderr: (s) => err.push(s), env, writeFile: () => undefined };
  return { cli, out: () => out.join(''), err: () => err.join('') };
}

describe('oauthFrom', () => {
  it('takes the secret from A2A_OAUTH_CLIENT_SECRET, or the variable named', () => {
    expect(oauthFrom({ 'oauth-client-id': 'c' }, { A2A_OAUTH_CLIENT_SECRET: 's1' })).toEqual({ kind: 'oauth2', clientId: 'c', clientSecret: 's1' });
    expect(oauthFrom({ 'oauth-client-id': 'c', 'oauth-client-secret-env': 'MY_SECRET', 'oauth-scope': ' a b ' }, { MY_SECRET: 's2' })).toEqual({
      kind: 'oauth2',
      clientId: 'c',
      clientSecret: 's2',
      scope: 'a b',
    });
    expect(oauthFrom({}, { A2A_OAUTH_CLIENT_SECRET: 's1' })).toBeUndefined();
  });

  it('refuses a literal secret flag, a missing variable, a bad name, and scope without a client id', () => {
    expect(oauthFrom({ 'oauth-client-id': 'c', 'oauth-client-secret': 'literal' }, {})).toMatch(/not accepted .*environment variable/);
    expect(oauthFrom({ 'oauth-client-id': 'c' }, {})).toMatch(/A2A_OAUTH_CLIENT_SECRET \(empty or not set\)/);
    expect(oauthFrom({ 'oauth-client-id': 'c', 'oauth-client-secret-env': 'not a name' }, {})).toMatch(/name of an environment variable/);
    expect(oauthFrom({ 'oauth-scope': 'x' }, {})).toMatch(/need --oauth-client-id/);
  });
});

describe('a2a-interop run --oauth-client-id', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
    server = http.createServer((req, res) => {
      if (!handle?.(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/demo/oauth`;
    handle = createOAuthDemoAgent({ basePath: '/demo/oauth', publicUrl: base, stepMs: 5, slowTaskMs: 200 }).handle;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('gets a token and passes the send; the secret is in neither the report nor stderr', async () => {
    const t = io({ DEMO_SECRET: DEMO_OAUTH_CLIENT.clientSecret });
    const code = await main(
      [
        'run',
        base,
        '--oauth-client-id',
        DEMO_OAUTH_CLIENT.clientId,
        '--oauth-client-secret-env',
        'DEMO_SECRET',
        '--only',
        'lifecycle.send',
        '--only',
        'auth.oauth-token',
      ],
      t.cli,
    );
    const report = JSON.parse(t.out()) as { options: { credentials: string }; categories: Record<string, { id: string; status: string }[]> };
    expect(report.options.credentials).toBe('oauth2');
    const results = Object.values(report.categories).flat();
    expect(results.find((r) => r.id === 'lifecycle.send')?.status).toBe('pass');
    expect(results.find((r) => r.id === 'auth.oauth-token')?.status).toBe('pass');
    expect(code).toBe(0);
    expect(t.out() + t.err()).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
  }, 20_000);

  it('a usage error (exit 2) for a secret given on the command line', async () => {
    const t = io();
    expect(await main(['run', base, '--oauth-client-id', 'c', '--oauth-client-secret', 'oops'], t.cli)).toBe(2);
    expect(t.err()).toMatch(/--oauth-client-secret is not accepted/);
    expect(t.err()).not.toContain('oops');
  });
});

describe('run-many files: oauth', () => {
  it('takes a client id and a ${VAR} secret, refuses a literal secret (never echoed) and resolves from the environment', async () => {
    const { parseFleetFile, resolveCredentials } = await import('./fleet-input');
    const ok = parseFleetFile(JSON.stringify([{ url: 'https://a.example/', oauth: { clientId: 'c1', clientSecret: '${A_SECRET}', scope: 'x y' } }]));
    expect(ok.problems).toEqual([]);
    const agent = ok.agents[0]!;
    expect(resolveCredentials(agent, {})).toEqual({ missing: ['A_SECRET'] });
    expect(resolveCredentials(agent, { A_SECRET: 'shh-123' })).toEqual({
      credentials: { kind: 'oauth2', clientId: 'c1', clientSecret: 'shh-123', scope: 'x y' },
      secrets: ['shh-123'],
    });
    const literal = parseFleetFile(JSON.stringify([{ url: 'https://a.example/', oauth: { clientId: 'c1', clientSecret: 'literal-secret-9' } }]));
    expect(literal.problems.join(' ')).toMatch(/clientSecret must reference an environment variable/);
    expect(literal.problems.join(' ')).not.toContain('literal-secret-9');
    const both = parseFleetFile(
      JSON.stringify([{ url: 'https://a.example/', headers: { Authorization: 'Bearer ${T}' }, oauth: { clientId: 'c', clientSecret: '${S}' } }]),
    );
    expect(both.problems.join(' ')).toMatch(/not both/);
  });
});
