/**
 * The OAuth client on a fake host (no network, a controllable clock): client_secret_basic first and
 * client_secret_post when the server refuses Basic as such, a refresh before `expires_in` runs out, one renewal
 * after a 401 (bounded), and the auth checks' positive control.
 */
import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { createHttpContext, exchange, stream } from '../http/client';
import type { RunEvent } from '../model/events';
import { Redactor } from '../redact';
import { reportResults } from '../report/build';
import type { Credentials } from '../model/credentials';
import { runConformance } from '../runner/run';
import { OAuthClient } from './client';
import type { OAuthPlan } from './plan';

const TOKEN_URL = 'https://idp.test/token';
const plan: OAuthPlan = { scheme: 'o', kind: 'client-credentials', tokenUrl: TOKEN_URL, scopes: ['a2a'] };
const creds = { kind: 'oauth2', clientId: 'client id', clientSecret: 's3cret+/=' } as const;

interface IdpOpts {
  /** Refuse client_secret_basic with 400 invalid_client and no Basic challenge (a post-only server). */
  postOnly?: boolean;
  expiresIn?: number;
  /** Tokens the agent refuses (by issue number, 1-based). */
  revoked?: (n: number) => boolean;
}

function setup(o: IdpOpts = {}) {
  let issued = 0;
  let clock = 1_000_000;
  const forms: URLSearchParams[] = [];
  const seenTokens: string[] = [];
  const { host, requests } = fakeHost(
    async (req) => {
      if (req.url === TOKEN_URL) {
        const form = new URLSearchParams(await req.text());
        forms.push(form);
        const basic = req.headers.get('authorization');
        if (o.postOnly && basic) return json({ error: 'invalid_client' }, { status: 400, headers: { 'cache-control': 'no-store' } });
        if (!basic && form.get('client_secret') !== creds.clientSecret) return json({ error: 'invalid_client' }, { status: 400 });
        if (basic && basic !== `Basic ${btoa('client+id:s3cret%2B%2F%3D')}`)
          return json({ error: 'invalid_client' }, { status: 401, headers: { 'www-authenticate': 'Basic realm="idp"' } });
        issued++;
        return json(
          { access_token: `tok-${issued}-abcdef`, token_type: 'Bearer', expires_in: o.expiresIn ?? 60 },
          { headers: { 'cache-control': 'no-store' } },
        );
      }
      const m = /^Bearer tok-(\d+)-abcdef$/.exec(req.headers.get('authorization') ?? '');
      seenTokens.push(m?.[1] ?? 'none');
      if (!m || o.revoked?.(Number(m[1])))
        return json({ error: 'invalid_token' }, { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } });
      if (req.url.endsWith('/stream')) return new Response('data: {"ok":true}\n\n', { headers: { 'content-type': 'text/event-stream' } });
      return json({ ok: true });
    },
    { now: () => clock },
  );
  const events: RunEvent[] = [];
  const redactor = new Redactor();
  const http = createHttpContext(host, { emit: (e) => events.push(e), redactor, concurrency: 1 });
  const client = new OAuthClient(http, plan, creds);
  http.auth = client;
  const call = () =>
    exchange(http, { method: 'POST', url: 'http://agent.test/rpc', headers: { Authorization: client.authorization ?? '' }, body: '{}', lane: 't' });
  return { client, http, events, forms, seenTokens, requests, call, tick: (ms: number) => (clock += ms), issued: () => issued };
}

describe('OAuthClient', () => {
  it('client_secret_basic with form-encoded id and secret; the secret, the Basic value and the token are masked in events', async () => {
    const s = setup();
    expect(await s.client.start()).toBe(true);
    expect(s.client.authorization).toBe('Bearer tok-1-abcdef');
    expect(s.forms[0]?.get('grant_type')).toBe('client_credentials');
    expect(s.forms[0]?.get('scope')).toBe('a2a');
    const text = JSON.stringify(s.events);
    expect(text).not.toContain('tok-1-abcdef');
    expect(text).not.toContain(btoa('client+id:s3cret%2B%2F%3D'));
    expect(text).toContain('oauth token');
  });

  it('falls back to client_secret_post when Basic is refused as such; the secret in the body is masked', async () => {
    const s = setup({ postOnly: true });
    expect(await s.client.start()).toBe(true);
    expect(s.client.steps.map((x) => [x.method, x.http.status])).toEqual([
      ['client_secret_basic', 400],
      ['client_secret_post', 200],
    ]);
    expect(s.forms[1]?.get('client_id')).toBe('client id');
    expect(JSON.stringify(s.events)).not.toContain('s3cret');
  });

  it('a wrong secret: no token, failure "rejected" quoting the error code', async () => {
    const s = setup();
    const bad = new OAuthClient(s.http, plan, { ...creds, clientSecret: 'wrong-secret' });
    expect(await bad.start()).toBe(false);
    expect(bad.failure?.kind).toBe('rejected');
    expect(bad.failure?.message).toMatch(/refused the client credentials: HTTP 401 invalid_client/);
    // RFC 6749 §5.2: a 401 with a Basic challenge means Basic is fine and the credentials are not: no post retry.
    expect(bad.steps).toHaveLength(1);
  });

  it('never sends the client secret over plain HTTP to a host that is not loopback', async () => {
    const s = setup();
    const plain = new OAuthClient(s.http, { ...plan, tokenUrl: 'http://idp.example/token' }, creds);
    expect(await plain.start()).toBe(false);
    expect(plain.failure?.message).toMatch(/not https: the client secret is not sent over plain HTTP/);
    expect(s.requests).toHaveLength(0);
  });

  it('refreshes a token that is about to expire before sending it', async () => {
    const s = setup({ expiresIn: 10 });
    await s.client.start();
    expect((await s.call()).status).toBe(200);
    s.tick(9_000);
    expect((await s.call()).status).toBe(200);
    expect(s.seenTokens).toEqual(['1', '2']);
    expect(s.issued()).toBe(2);
  });

  it('renews once after a 401 and retries with the new token (both exchanges recorded)', async () => {
    const s = setup({ revoked: (n) => n === 1 });
    await s.client.start();
    const r = await s.call();
    expect(r.status).toBe(200);
    expect(s.seenTokens).toEqual(['1', '2']);
    const agentCalls = s.events.filter((e) => e.type === 'http-request' && e.lane === 't');
    expect(agentCalls).toHaveLength(2);
  });

  it('a stream refused with 401 is opened again once with a new token', async () => {
    const s = setup({ revoked: (n) => n === 1 });
    await s.client.start();
    const events: unknown[] = [];
    const out = await stream(
      s.http,
      { method: 'POST', url: 'http://agent.test/stream', headers: { Authorization: s.client.authorization ?? '' }, body: '{}', lane: 't' },
      (e) => void events.push(e),
    );
    expect(out.result.status).toBe(200);
    expect(out.events).toBe(1);
    expect(s.seenTokens).toEqual(['1', '2']);
  });

  it('an agent that refuses every token gets a bounded number of renewals', async () => {
    const s = setup({ revoked: () => true });
    await s.client.start();
    for (let i = 0; i < 6; i++) expect((await s.call()).status).toBe(401);
    expect(s.issued()).toBe(4);
  });

  it('leaves requests that carry none of its tokens alone (anonymous probes stay anonymous)', async () => {
    const s = setup();
    await s.client.start();
    const r = await exchange(s.http, { method: 'POST', url: 'http://agent.test/rpc', body: '{}', lane: 't' });
    expect(r.status).toBe(401);
    expect(s.seenTokens).toEqual(['none']);
    expect(s.issued()).toBe(1);
  });
});

describe('auth.required positive control', () => {
  const secured = (c: Record<string, unknown>) => ({ ...c, securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, security: [{ bearer: [] }] });
  const card = secured(sampleCard('v0.3'));
  const agent = (acceptToken: boolean) =>
    fakeHost(async (req) => {
      if (req.url.includes('agent-card.json')) return json(card);
      if (acceptToken && req.headers.get('authorization') === 'Bearer good-token') {
        const body = (await req.json()) as { id: unknown };
        return json({ jsonrpc: '2.0', id: body.id, error: { code: -32001, message: 'Task not found' } });
      }
      return json({ error: 'unauthorized' }, { status: 401, headers: { 'www-authenticate': 'Bearer' } });
    });
  const bearer: Credentials = { kind: 'bearer', token: 'good-token' };

  it('credits the refusal once the same call with the credentials got past authentication', async () => {
    const report = await runConformance(
      agent(true).host,
      { agentUrl: 'http://agent.test', only: ['auth.required'], credentials: bearer, timeoutMs: 2000 },
      () => {},
    );
    const r = reportResults(report).find((x) => x.id === 'auth.required');
    expect(r?.status).toBe('pass');
    expect(r?.message).toMatch(/got past authentication/);
  });

  it('does not credit it when the call with the credentials is refused too', async () => {
    const report = await runConformance(
      agent(false).host,
      { agentUrl: 'http://agent.test', only: ['auth.required'], credentials: bearer, timeoutMs: 2000 },
      () => {},
    );
    const r = reportResults(report).find((x) => x.id === 'auth.required');
    expect(r?.status).toBe('skip');
    expect(r?.message).toMatch(/so was the same call with the credentials given \(HTTP 401\)/);
    expect(r?.evidence?.length).toBe(2);
  });
});
