/**
 * OAuth 2.0 client credentials end to end: the OAuth demo agent (v0.3 SDK agent behind a bearer-validating
 * middleware, its own in-process oauth2-mock-server issuer) judged by a full run with and without client
 * credentials, with a wrong secret, with tokens that expire during the run, through OIDC discovery, and through a
 * hosted-mode proxy that refuses a private token endpoint. The secret and the tokens appear in no report or export.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthDemoAgent, DEMO_OAUTH_CLIENT } from '../../demo-agents/oauth-agent';
import { exportReport, EXPORT_FORMATS } from '../../exporters';
import { createBrowserHost } from '../../hosts/browser';
import { createNodeHost } from '../../hosts/node';
import { startProxy, startUpstream, type ProxyServer, type Recorder } from '../../proxy/node-testing';
import type { RunEvent } from '../model/events';
import type { Report } from '../model/report';
import type { Host } from '../ports';
import { reportResults } from '../report/build';
import type { Credentials } from '../model/credentials';
import { runConformance } from '../runner/run';
import { openSession } from '../session';

interface Agent {
  base: string;
  close(): Promise<void>;
}

async function startAgent(o: { ttl?: number; oidc?: boolean; slowTaskMs?: number } = {}): Promise<Agent> {
  let handle: ((req: http.IncomingMessage, res: http.ServerResponse) => boolean) | undefined;
  const server = http.createServer((req, res) => {
    if (!handle?.(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  const base = `http://127.0.0.1:${port}/demo/oauth`;
  handle = createOAuthDemoAgent({
    basePath: '/demo/oauth',
    publicUrl: base,
    tokenTtlSeconds: o.ttl,
    oidc: o.oidc,
    slowTaskMs: o.slowTaskMs ?? 300,
    stepMs: 5,
  }).handle;
  return { base, close: () => new Promise((r) => server.close(() => r())) };
}

/** A host that remembers every access token the token endpoint handed out (to prove none leaks). */
function spyHost(inner: Host, tokens: string[]): Host {
  return {
    ...inner,
    fetch: async (url, init) => {
      const res = await inner.fetch(url, init);
      if (String(url).includes('token')) {
        const body = await res.clone().text();
        const m = /"access_token":"([^"]+)"/.exec(body);
        if (m?.[1]) tokens.push(m[1]);
      }
      return res;
    },
  };
}

const oauth = (secret: string = DEMO_OAUTH_CLIENT.clientSecret): Credentials => ({
  kind: 'oauth2',
  clientId: DEMO_OAUTH_CLIENT.clientId,
  clientSecret: secret,
});

async function run(agentUrl: string, credentials?: Credentials, host: Host = createNodeHost()) {
  const events: RunEvent[] = [];
  const report = await runConformance(host, { agentUrl, credentials, timeoutMs: 8000 }, (e) => events.push(e));
  const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
  return { report, events, byId };
}

/** Everything a user can take away from a run: the events, the report and every export format. */
function outputs(report: Report, events: RunEvent[]): string {
  return [JSON.stringify(events), JSON.stringify(report), ...EXPORT_FORMATS.map((f) => exportReport(report, f).file.body)].join('\n');
}

const tokenExchanges = (events: RunEvent[]) =>
  events.filter((e): e is Extract<RunEvent, { type: 'http-request' }> => e.type === 'http-request' && e.lane === 'oauth token');

let agent: Agent;
beforeAll(async () => {
  // 2 s tokens (refreshed a quarter of their life early: at 1.5 s) and a 2 s slow task polled until it ends: requests
  // go out after the refresh point whatever the machine's speed (with a 1 s task a fast run finished inside one
  // token; 1 s tokens meet the whole-second `exp` of the token server's JWTs).
  agent = await startAgent({ ttl: 2, slowTaskMs: 2000 });
});
afterAll(async () => {
  await agent?.close();
});

describe('OAuth 2.0 client credentials from the card', () => {
  it('with the demo client: every call with a fresh bearer token, refreshed when it expires, nothing secret anywhere', async () => {
    const tokens: string[] = [];
    const { report, events, byId } = await run(agent.base, oauth(), spyHost(createNodeHost(), tokens));
    const bad = reportResults(report).filter((r) => r.status === 'fail' || r.status === 'error');
    const detail = bad.map((r) => `${r.id}: ${r.message}`).join('\n');
    // Only the SDK's own deviation (@a2a-js/sdk 0.3.14: get/cancel without an id answer TaskNotFound, not -32602;
    // pinned in src/engine/checks/sdk-agents.test.ts) fails: everything behind the OAuth token passes.
    expect(
      bad.map((r) => r.id),
      detail,
    ).toEqual(['errors.invalid-params']);
    expect(report.conformanceLevel, detail).toBe('partial');
    expect(byId['auth.required']?.status).toBe('pass');
    expect(byId['auth.required']?.message).toMatch(/with the credentials given got past authentication/);
    expect(byId['auth.accepted']?.status).toBe('pass');
    expect(byId['auth.oauth-token']?.status).toBe('pass');
    expect(byId['auth.oauth-discovery']?.status).toBe('skip');
    // Tokens live 2 s: the slow task's polls outlast the first, so it was fetched again (each fetch is on the timeline).
    const requests = tokenExchanges(events);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(tokens.length).toBe(requests.length);
    expect(requests[0]?.request.headers.authorization).toBe('Basic [REDACTED]');
    const out = outputs(report, events);
    expect(out).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
    for (const t of tokens) expect(out).not.toContain(t);
    expect(out).not.toContain(Buffer.from(`${DEMO_OAUTH_CLIENT.clientId}:${DEMO_OAUTH_CLIENT.clientSecret}`).toString('base64'));
  }, 30_000);

  it('without client credentials: not assessed, credentials required', async () => {
    const { report, byId } = await run(agent.base);
    expect(report.conformanceLevel).toBeNull();
    expect(report.notAssessed?.reason).toBe('credentials-required');
    expect(byId['auth.oauth-token']?.status).toBe('skip');
    expect(byId['auth.oauth-token']?.message).toMatch(/No OAuth client id and secret/);
  }, 20_000);

  it('with a wrong secret: not assessed, credentials rejected, the token answer as the reason; the secret is masked', async () => {
    const wrong = 'not-the-demo-secret-42';
    const { report, events, byId } = await run(agent.base, oauth(wrong));
    expect(report.conformanceLevel).toBeNull();
    expect(report.notAssessed?.reason).toBe('credentials-rejected');
    expect(report.notAssessed?.message).toMatch(/token endpoint .*idp\/token refused the client credentials: HTTP 401 invalid_client/);
    // A well-formed refusal (RFC 6749 §5.2): the token endpoint itself is fine.
    expect(byId['auth.oauth-token']?.status).toBe('pass');
    expect(tokenExchanges(events)).toHaveLength(1);
    expect(outputs(report, events)).not.toContain(wrong);
  }, 20_000);
});

describe('console session', () => {
  it('gets a token for the session and sends with it; a wrong secret makes the session unavailable (credentials rejected)', async () => {
    const open = await openSession(createNodeHost(), { agentUrl: agent.base, credentials: oauth() });
    if (!open.ok) throw new Error(open.unavailable.message);
    expect(open.target.oauth).toBe(true);
    const sent = await open.session.send({ text: 'hello' });
    expect(sent.ok, sent.summary).toBe(true);
    expect(JSON.stringify(open.events)).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
    const bad = await openSession(createNodeHost(), { agentUrl: agent.base, credentials: oauth('wrong-secret-xyz') });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.unavailable).toMatchObject({ reason: 'credentials-rejected', message: expect.stringMatching(/invalid_client/) });
  });
});

describe('OpenID Connect discovery', () => {
  let oidc: Agent;
  beforeAll(async () => {
    oidc = await startAgent({ oidc: true });
  });
  afterAll(async () => {
    await oidc?.close();
  });

  it('reads the discovery document, gets a token from its token_endpoint and judges both', async () => {
    const { report, events, byId } = await run(oidc.base, oauth());
    expect(byId['auth.oauth-discovery']?.status, byId['auth.oauth-discovery']?.message).toBe('pass');
    expect(byId['auth.oauth-token']?.status).toBe('pass');
    expect(byId['auth.accepted']?.status).toBe('pass');
    // partial only for the SDK's invalid-params deviation (see the test above).
    expect(report.conformanceLevel).toBe('partial');
    const urls = tokenExchanges(events).map((e) => e.request.url);
    expect(urls[0]).toMatch(/\/idp\/\.well-known\/openid-configuration$/);
    expect(urls[1]).toMatch(/\/idp\/token$/);
  }, 30_000);
});

describe('hosted mode', () => {
  let card: Recorder;
  let privateIdp: Recorder;
  let proxy: ProxyServer;
  beforeAll(async () => {
    privateIdp = await startUpstream((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ access_token: 'leaked-if-reached', token_type: 'Bearer' }));
    });
    card = await startUpstream((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (!req.url?.startsWith('/.well-known/agent-card.json')) return void res.writeHead(401, { 'www-authenticate': 'Bearer' }).end('{}');
      res.end(
        JSON.stringify({
          name: 'Public agent, private token endpoint',
          description: 'd',
          url: `http://127.0.0.1:${card.port}/rpc`,
          protocolVersion: '0.3.0',
          preferredTransport: 'JSONRPC',
          version: '1',
          capabilities: {},
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [{ id: 's', name: 's', description: 'd', tags: ['t'] }],
          securitySchemes: { o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `http://127.0.0.1:${privateIdp.port}/token`, scopes: {} } } } },
          security: [{ o: [] }],
        }),
      );
    });
    // The agent stands for a public one; every other address (the token endpoint) is private, as on a hosted proxy.
    proxy = await startProxy({
      mode: 'hosted',
      allowedOrigins: ['https://dash.example'],
      addressPolicy: (address, port) => address === '127.0.0.1' && port === card.port,
      rateLimit: false,
    });
  });
  afterAll(async () => {
    await Promise.all([card?.close(), privateIdp?.close(), proxy?.close()]);
  });

  it('the token request goes through the proxy, which refuses the private token endpoint: our side, not the agent', async () => {
    const host = createBrowserHost({
      mode: 'proxy',
      proxyUrl: `${proxy.origin}/proxy`,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set('origin', 'https://dash.example');
        return globalThis.fetch(input, { ...init, headers });
      },
    });
    const { report, events } = await run(`http://127.0.0.1:${card.port}/`, oauth(), host);
    expect(privateIdp.requests).toHaveLength(0);
    expect(report.notAssessed?.reason).toBe('tool-failure');
    expect(report.notAssessed?.message).toMatch(/OAuth: no access token/);
    expect(tokenExchanges(events)).toHaveLength(1);
    expect(outputs(report, events)).not.toContain(DEMO_OAUTH_CLIENT.clientSecret);
  }, 20_000);
});
