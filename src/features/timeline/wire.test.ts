import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exchangeJson, operationOf, shellQuote, splitHeaders, toCurl } from './wire';

const proxied = {
  'content-type': 'application/json',
  vary: 'Accept-Encoding, Origin',
  'server-timing': 'app;dur=3, proxy;dur=1.2;desc="until agent response head"',
  'content-security-policy': "default-src 'self', default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'x-accel-buffering': 'no',
  'x-proxy-upstream-status': '200',
  'x-proxy-upstream-url': 'http://127.0.0.1:1/a',
  'x-proxy-sent-headers': 'accept, content-type',
};

describe('splitHeaders', () => {
  it('keeps the agent’s own values apart from what the proxy appended or set', () => {
    const { agent, proxy, viaProxy } = splitHeaders(proxied);
    expect(viaProxy).toBe(true);
    const a = Object.fromEntries(agent.map((h) => [h.name, h.value]));
    expect(a).toEqual({
      'content-type': 'application/json',
      vary: 'Accept-Encoding',
      'server-timing': 'app;dur=3',
      'content-security-policy': "default-src 'self'",
    });
    const p = Object.fromEntries(proxy.map((h) => [h.name, h.value]));
    expect(p.vary).toBe('Origin');
    expect(p['server-timing']).toMatch(/^proxy;dur=1.2/);
    expect(p['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(Object.keys(p)).toEqual(
      expect.arrayContaining(['x-content-type-options', 'x-accel-buffering', 'x-proxy-upstream-status', 'x-proxy-upstream-url', 'x-proxy-sent-headers']),
    );
  });

  it('restores CORS headers the proxy renamed to x-upstream-… and files the proxy’s own CORS answer under the proxy', () => {
    const { agent, proxy } = splitHeaders({
      'x-proxy-upstream-status': '200',
      'x-upstream-access-control-allow-origin': '*',
      'access-control-allow-origin': 'https://dash.example',
      'access-control-expose-headers': '*',
      vary: 'Origin',
    });
    expect(agent).toEqual([expect.objectContaining({ name: 'access-control-allow-origin', value: '*', note: expect.stringContaining('x-upstream-') })]);
    expect(proxy.map((h) => h.name)).toEqual(['x-proxy-upstream-status', 'access-control-allow-origin', 'access-control-expose-headers', 'vary']);
  });

  it('same-origin dashboard: an agent’s own access-control-* header stays the agent’s', () => {
    const { agent } = splitHeaders({ 'x-proxy-upstream-status': '200', 'access-control-allow-origin': '*' }, 'http://127.0.0.1:4173');
    expect(agent).toEqual([{ name: 'access-control-allow-origin', value: '*' }]);
    const ours = splitHeaders(
      { 'x-proxy-upstream-status': '200', 'access-control-allow-origin': 'http://127.0.0.1:4173', 'access-control-expose-headers': '*' },
      'http://127.0.0.1:4173',
    );
    expect(ours.agent).toEqual([]);
  });

  it('direct mode (no proxy markers): every header is the agent’s, vary included', () => {
    const r = splitHeaders({ vary: 'Origin', 'x-content-type-options': 'nosniff' });
    expect(r.viaProxy).toBe(false);
    expect(r.proxy).toEqual([]);
    expect(r.agent).toHaveLength(2);
  });
});

describe('toCurl', () => {
  const x = {
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4173/demo/v03',
      headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]', 'content-length': '40' },
      body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"text":"it's"}}`,
      bodySize: 60,
    },
  };

  it('masks credentials unless they are given, and quotes for sh', () => {
    const masked = toCurl(x);
    expect(masked).toContain(`-H 'authorization: Bearer [REDACTED]'`);
    expect(masked).not.toContain('content-length');
    expect(masked).toContain(`-X POST 'http://127.0.0.1:4173/demo/v03'`);
    const clear = toCurl(x, { kind: 'bearer', token: 's3cret' });
    expect(clear).toContain(`-H 'authorization: Bearer s3cret'`);
    expect(toCurl(x, { kind: 'header', name: 'X-Other', value: 'v' })).toContain('[REDACTED]');
  });

  it('the command sh parses gives back the exact body and headers', () => {
    // printf prints each argument curl would get, one per line: the quoting survives a real shell.
    const cmd = toCurl(x).replace(/^curl /, "printf '%s\\n' ");
    const out = execFileSync('sh', ['-c', cmd], { encoding: 'utf8' }).split('\n');
    expect(out).toContain(x.request.body);
    expect(out).toContain('authorization: Bearer [REDACTED]');
  });

  it('GET without a body has no -X; streams get -N', () => {
    expect(toCurl({ request: { method: 'GET', url: 'http://a/b', headers: {}, bodySize: 0 } })).toBe(`curl -sS 'http://a/b'`);
    expect(toCurl({ request: { method: 'POST', url: 'http://a/b', headers: { accept: 'text/event-stream' }, body: '{}', bodySize: 2 } })).toMatch(
      /^curl -sS -N -X POST/,
    );
  });

  it('shellQuote escapes single quotes', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`);
  });
});

describe('operationOf and exchangeJson', () => {
  it('names the JSON-RPC method first, then the HTTP method and path', () => {
    expect(operationOf({ method: 'POST', url: 'http://h/a2a?x=1', body: '{"method":"tasks/get"}' })).toBe('tasks/get · POST /a2a?…');
    expect(operationOf({ method: 'GET', url: 'http://h/.well-known/agent-card.json' })).toBe('GET /.well-known/agent-card.json');
  });

  it('exchangeJson carries the request, response and SSE events', () => {
    const json = JSON.parse(
      exchangeJson({ id: 'x1', lane: 'l', request: { method: 'GET', url: 'u', headers: {}, bodySize: 0 }, timings: { startedAt: 1 }, sseCount: 1 }, [
        { exchangeId: 'x1', lane: 'l', seq: 1, at: 2, data: '{}' },
      ]),
    ) as { id: string; sseEvents: unknown[] };
    expect(json.id).toBe('x1');
    expect(json.sseEvents).toHaveLength(1);
  });
});
