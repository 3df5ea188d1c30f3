import { describe, expect, it } from 'vitest';
import type { SessionResult, SessionTarget } from '../engine/session';
import { fetchWithHeaders, isHttpUrl, outputRedactor, redactAll, sessionView, splitHeaders, toolError, toolResult } from './format';

describe('headers for a run: one credential, the rest sent as they are', () => {
  it('takes Authorization: Bearer as a bearer token, other headers apart', () => {
    expect(splitHeaders({ Authorization: 'Bearer abc123', 'X-Tenant': 't1' })).toEqual({
      credentials: { kind: 'bearer', token: 'abc123' },
      extra: { 'X-Tenant': 't1' },
    });
  });
  it('takes a known secret header as the credential, or the only header given', () => {
    expect(splitHeaders({ 'X-Trace': '1', 'X-API-Key': 'k-123456' }).credentials).toEqual({ kind: 'header', name: 'X-API-Key', value: 'k-123456' });
    expect(splitHeaders({ 'X-Custom-Auth': 'v-123456' }).credentials).toEqual({ kind: 'header', name: 'X-Custom-Auth', value: 'v-123456' });
    expect(splitHeaders({ 'X-A': '1', 'X-B': '2' })).toEqual({ credentials: { kind: 'none' }, extra: { 'X-A': '1', 'X-B': '2' } });
    expect(splitHeaders(undefined)).toEqual({ credentials: { kind: 'none' }, extra: {} });
  });
  it("adds extra headers to requests to the agent's origin only, unless the request sets them", async () => {
    const seen: Headers[] = [];
    const f = fetchWithHeaders(
      async (_u, init) => {
        seen.push(new Headers(init?.headers));
        return new Response('ok');
      },
      { 'X-Tenant': 't1', Accept: 'text/plain' },
      'http://a.test/agent',
    );
    await f('http://a.test/', { headers: { Accept: 'application/json' } });
    expect(seen[0]!.get('x-tenant')).toBe('t1');
    expect(seen[0]!.get('accept')).toBe('application/json');
    await f('http://keys.other.test/jwks.json', {});
    await f('https://a.test/', {});
    expect(seen[1]!.get('x-tenant')).toBeNull();
    expect(seen[2]!.get('x-tenant')).toBeNull();
  });
});

describe('what comes back', () => {
  it('masks every header value given, in keys and values, at any depth', () => {
    const r = outputRedactor({ 'X-Secret': 'sekret-value-1' });
    const out = redactAll(r, { a: 'x sekret-value-1 y', nested: [{ 'sekret-value-1': ['sekret-value-1'] }], gone: undefined, n: Number.NaN });
    expect(JSON.stringify(out)).not.toContain('sekret-value-1');
    expect(out).toEqual({ a: 'x [REDACTED] y', nested: [{ '[REDACTED]': ['[REDACTED]'] }], n: null });
    const res = toolResult(r, { v: 'sekret-value-1' }, false, ['report sekret-value-1']);
    expect(JSON.stringify(res)).not.toContain('sekret-value-1');
    expect(res.isError).toBeUndefined();
    const err = toolError(r, 'failed with sekret-value-1', { detail: 'sekret-value-1' });
    expect(err.isError).toBe(true);
    expect(JSON.stringify(err)).not.toContain('sekret-value-1');
  });

  it('accepts only absolute http(s) URLs', () => {
    expect(isHttpUrl('http://127.0.0.1:4173/demo/v03')).toBe(true);
    expect(isHttpUrl('https://agent.example.com/.well-known/agent-card.json')).toBe(true);
    for (const bad of ['not a url', 'ftp://x.test/', 'file:///etc/passwd', '/relative', 'javascript:alert(1)']) expect(isHttpUrl(bad)).toBe(false);
  });

  it('says when a stream was asked of an agent whose card does not declare streaming', () => {
    const result: SessionResult = {
      operation: 'stream',
      method: 'message/stream',
      generation: 'v0.3',
      binding: 'JSONRPC',
      ok: false,
      outcome: 'error',
      summary: 'refused',
      frames: [],
      exchanges: [],
      findings: [],
      durationMs: 1,
      events: [],
    };
    const target: SessionTarget = { inputUrl: 'http://a.test', attempts: [], evidence: [], skills: [], streaming: false };
    expect(sessionView(result, target).note).toMatch(/does not declare streaming/);
    expect(sessionView({ ...result, operation: 'send' }, target).note).toBeUndefined();
    expect(sessionView(result, { ...target, streaming: true }).note).toBeUndefined();
  });
});
