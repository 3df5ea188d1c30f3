/**
 * card.signatures.verified against the test agent's real ES256 signatures (one v1.0 and one v0.3 agent, switched
 * between variants): valid, tampered (the card changed after signing), unverifiable (unknown kid, jku 404), a key
 * set the user gives, and the canonical forms a signer may have signed.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent';
import type { DefectName } from '../../../testing/defect-agent/defects';
import type { PermittedName } from '../../../testing/defect-agent/permitted';
import type { CheckResult } from '../../model/check';
import { judgeCard } from '../../api';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';
import type { RunOptions } from '../../runner/options';
import { createHttpContext } from '../../http/client';
import { fakeHost } from '../../../testing/fake-host';
import { canonicalPayloads, verifySignatures } from './signature-verify';

const ID = 'card.signatures.verified';
let v1: RunningDefectAgent;
let v03: RunningDefectAgent;

beforeAll(async () => {
  [v1, v03] = await Promise.all([
    startDefectAgent({ generation: 'v1.0', features: { signed: true } }),
    startDefectAgent({ generation: 'v0.3', features: { signed: true } }),
  ]);
});
afterAll(async () => {
  await Promise.all([v1?.close(), v03?.close()]);
});

const base = (a: RunningDefectAgent) => a.cardUrl.replace(/\/\.well-known\/.*$/, '');

async function judge(
  a: RunningDefectAgent,
  o: { defects?: DefectName[]; permitted?: PermittedName[]; extra?: Partial<RunOptions> } = {},
): Promise<CheckResult> {
  a.setDefects(o.defects ?? []);
  a.setPermitted(o.permitted ?? []);
  const report = await runConformance(createNodeHost(), { agentUrl: base(a), only: [ID, 'card.signatures'], ...o.extra }, () => {});
  const r = reportResults(report).find((x) => x.id === ID);
  if (!r) throw new Error('no result');
  return r;
}

describe('card.signatures.verified', () => {
  it('a card signed as v1.0 says, with its key fetched from the jku, passes and names where the key came from', async () => {
    const r = await judge(v1);
    expect(r.status).toBe('pass');
    expect(r.message).toMatch(/^1 of 1 signature\(s\) verified\./);
    expect(r.message).toMatch(/proves the card is intact, not who signed it/);
    expect(r.evidence.map((e) => e.value).join('\n')).toMatch(
      /kid "test-key-1", ES256\): valid: verified with a key from the jku http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json/,
    );
  });

  it('a card changed after signing fails in v1.0 (MUST) and is an advisory in v0.3 (no canonical form is required there)', async () => {
    const r1 = await judge(v1, { defects: ['card-signature-tampered'] });
    expect(r1.status).toBe('fail');
    expect(r1.level).toBe('MUST');
    expect(r1.message).toMatch(/1 of 1 signature\(s\) do not verify over the card: it was changed after signing/);
    expect(r1.requirement?.sentences.some((s) => /canonicalized using the JSON Canonicalization Scheme/.test(s.quote))).toBe(true);
    const r03 = await judge(v03, { defects: ['card-signature-tampered'] });
    expect(r03.status).toBe('advisory');
  });

  it('a kid the key set does not hold, or a jku that answers 404, is unverifiable: skipped with the reason', async () => {
    const kid = await judge(v1, { permitted: ['card-signature-unknown-kid'] });
    expect(kid.status).toBe('skip');
    expect(kid.message).toMatch(/unverifiable: the jku \S+ has no key with kid "retired-key-0"/);
    const jku = await judge(v1, { permitted: ['card-signature-jku-404'] });
    expect(jku.status).toBe('skip');
    expect(jku.message).toMatch(/unverifiable: its jku answered HTTP 404/);
  });

  it('a key set the user gives is used first: the right key verifies, a wrong key with the same kid finds the card invalid', async () => {
    const jwks = await (await fetch(`${base(v1)}/.well-known/jwks.json`)).json();
    const given = await judge(v1, { permitted: ['card-signature-jku-404'], extra: { jwks } });
    expect(given.status).toBe('pass');
    expect(given.evidence.map((e) => e.value).join('\n')).toMatch(/verified with a key from the key set you gave/);
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const wrong = await judge(v1, { permitted: ['card-signature-jku-404'], extra: { jwks: { keys: [{ ...other, kid: 'test-key-1', alg: 'ES256' }] } } });
    expect(wrong.status).toBe('fail');
    const junk = await judge(v1, { permitted: ['card-signature-jku-404'], extra: { jwks: 'not a key set' } });
    expect(junk.status).toBe('skip');
    expect(junk.message).toMatch(/the key set you gave is not a JWKS/);
  });

  it('v0.3 with alg in the unprotected header verifies', async () => {
    expect((await judge(v03, { permitted: ['card-alg-unprotected'] })).status).toBe('pass');
  });

  it('without a jku or a key set, and with alg none, nothing can be verified (no network in a card-only judgement)', async () => {
    const b = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const card = {
      name: 'x',
      description: 'd',
      version: '1',
      supportedInterfaces: [{ url: 'https://a.invalid/a2a', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    };
    const { results } = await judgeCard({
      ...card,
      signatures: [
        { protected: b({ alg: 'ES256', kid: 'k' }), signature: 'c2ln' },
        { protected: b({ alg: 'none', kid: 'k' }), signature: '' },
        { protected: b({ alg: 'ES256', kid: 'k', jku: 'https://keys.invalid/jwks.json' }), signature: 'c2ln' },
      ],
    });
    const r = results.find((x) => x.id === ID);
    expect(r?.status).toBe('skip');
    expect(r?.message).toMatch(/signatures\[0\].*it has no jku and no key set was given/);
    expect(r?.message).toMatch(/signatures\[1\].*alg is "none"/);
    expect(r?.message).toMatch(/signatures\[2\].*could not fetch its jku|signatures\[2\].*nothing answered at its jku/);
  });

  it('tries the card as served, with default values removed (v1.0.1 §8.4.1) and as the SDKs clean it', () => {
    const forms = canonicalPayloads({
      name: 'Example Agent',
      description: '',
      capabilities: { streaming: false, pushNotifications: false, extensions: [] },
      skills: [],
      signatures: [],
    });
    expect(forms.map((f) => f.text)).toEqual([
      '{"capabilities":{"extensions":[],"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}',
      // The specification's own example (§8.4.1, "After applying RFC 8785").
      '{"capabilities":{"pushNotifications":false,"streaming":false},"description":"","name":"Example Agent","skills":[]}',
      '{"capabilities":{"pushNotifications":false,"streaming":false},"name":"Example Agent"}',
    ]);
  });

  it('a signature over the SDK-cleaned form (empty values dropped) verifies with a key set given', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const card = { name: 'A', description: '', version: '1', capabilities: { extensions: [] }, skills: [{ id: 's', name: 'S', description: 'x', tags: [] }] };
    const payload = canonicalize({ name: 'A', version: '1', skills: [{ id: 's', name: 'S', description: 'x' }] }) ?? '';
    const head = Buffer.from(JSON.stringify({ alg: 'ES256', typ: 'JOSE', kid: 'sdk' })).toString('base64url');
    const sig = sign('sha256', Buffer.from(`${head}.${Buffer.from(payload).toString('base64url')}`), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'sdk' }] };
    const ctx = { jwks, http: createHttpContext(createNodeHost()) } as unknown as Parameters<typeof verifySignatures>[0];
    const { outcomes } = await verifySignatures(ctx, card, [{ protected: head, signature: sig.toString('base64url') }]);
    expect(outcomes).toMatchObject([{ status: 'valid', payload: 'empty values removed (as the A2A SDKs canonicalize)' }]);
  });

  it('a hostile jku (an HTML page, a body over 256 KB, a key set without keys) leaves the signature unverifiable, fetched once', async () => {
    const b = (x: unknown) => Buffer.from(JSON.stringify(x)).toString('base64url');
    const { host, requests } = fakeHost((req) => {
      const path = new URL(req.url).pathname;
      if (path === '/html') return new Response('<!doctype html><title>Login</title>', { headers: { 'content-type': 'text/html' } });
      if (path === '/huge') return new Response(`{"keys":[],"pad":"${'x'.repeat(400_000)}"}`, { headers: { 'content-type': 'application/json' } });
      return new Response('{"keys": []}', { headers: { 'content-type': 'application/json' } });
    });
    const ctx = { http: createHttpContext(host) } as unknown as Parameters<typeof verifySignatures>[0];
    const sig = (jku: string) => ({ protected: b({ alg: 'ES256', kid: 'k', jku }), signature: 'c2ln' });
    const { outcomes } = await verifySignatures(ctx, { name: 'x' }, [
      sig('https://keys.test/html'),
      sig('https://keys.test/huge'),
      sig('https://keys.test/empty'),
      sig('https://keys.test/html'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['unverifiable', 'unverifiable', 'unverifiable', 'unverifiable']);
    expect(outcomes[0]?.detail).toMatch(/its jku did not answer JSON/);
    expect(outcomes[1]?.detail).toMatch(/its jku answered more than 256 KB/);
    expect(outcomes[2]?.detail).toMatch(/the JWKS has no keys/);
    expect(requests.filter((r) => r.url.endsWith('/html'))).toHaveLength(1);
  });
});
