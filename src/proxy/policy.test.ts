import { describe, expect, it } from 'vitest';
import { PROXY_ERROR_CODES, proxyErrorBlame } from '../engine/model/proxy';
import { PROXY_ERROR_STATUS, UpstreamError, classifyUpstreamError, problemResponse, redactUrl } from './errors';
import { explainTarget } from './explain';
import {
  checkTargetAllowed,
  classifyOrigin,
  declaredForwardHeaders,
  defaultAddressPolicy,
  filterResponseHeaders,
  forwardRequestHeaders,
  isAllowedLocalHost,
  isPublicUnicast,
  parseTarget,
} from './policy';
import { createRateLimiter } from './rate-limit';
import { sseCutMarker } from './stream';

const hosted = defaultAddressPolicy('hosted');
const local = defaultAddressPolicy('local');
const blockedHosted = (u: string) => {
  const t = parseTarget(u);
  if (!t.ok) throw new Error(t.reason);
  return checkTargetAllowed(t.url, 'hosted', hosted);
};

describe('parseTarget', () => {
  it.each([
    [undefined, /missing/],
    ['', /missing/],
    ['example.com/a2a', /absolute/],
    ['http//example.com', /absolute/],
    ['ftp://example.com/', /http and https/],
    ['file:///etc/passwd', /http and https/],
    ['javascript:alert(1)', /http and https/],
    ['http://u:p@example.com/', /Credentials/],
    ['http://u@example.com/', /Credentials/],
    ['http://[::1/', /absolute/],
    [`http://example.com/${'a'.repeat(9000)}`, /8192/],
  ])('refuses %s', (raw, reason) => {
    const t = parseTarget(raw);
    expect(t.ok).toBe(false);
    if (!t.ok) expect(t.reason).toMatch(reason);
  });

  it('lets WHATWG parsing decide the host and drops the fragment', () => {
    const t = parseTarget('HTTPS://Agent.EXAMPLE.com:443/a2a?x=1#frag');
    expect(t.ok && t.url.href).toBe('https://agent.example.com/a2a?x=1');
    const weird = parseTarget('http://0x7f.1:8080/');
    expect(weird.ok && weird.url.hostname).toBe('127.0.0.1');
  });
});

describe('address policy', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '0.0.0.0',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'fc00::1',
    'fd00::1',
    'fe80::1',
    '2002:7f00:1::1', // 6to4 wrapping 127.0.0.1
    '64:ff9b::a00:1', // NAT64 wrapping 10.0.0.1
    '2001:db8::1',
  ])('hosted refuses %s', (ip) => {
    expect(isPublicUnicast(ip)).toBe(false);
    expect(hosted(ip, 443)).toBe(false);
  });

  it('hosted allows public unicast on ordinary ports, refuses browser "bad ports"', () => {
    expect(hosted('93.184.216.34', 443)).toBe(true);
    expect(hosted('2606:4700::1111', 8080)).toBe(true);
    expect(hosted('93.184.216.34', 25)).toBe(false);
    expect(hosted('93.184.216.34', 6667)).toBe(false);
  });

  it('local allows loopback and private targets', () => {
    for (const ip of ['127.0.0.1', '::1', '10.0.0.1', '192.168.1.1']) expect(local(ip, 8080)).toBe(true);
  });

  it.each([
    'http://127.1/',
    'http://0x7f.1/',
    'http://2130706433/',
    'http://017700000001/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/',
    'http://10.0.0.1/',
    'http://172.16.0.1/',
    'http://192.168.0.1/',
    'http://100.64.0.1/',
    'http://[fc00::1]/',
    'http://[fe80::1]/',
    'http://localhost/',
    'http://LocalHost./',
    'http://a.b.localhost/',
  ])('hosted blocks %s before any lookup', (u) => {
    expect(blockedHosted(u)).toBeTruthy();
  });

  it('hosted leaves names to the connect-time check and allows public literals', () => {
    expect(blockedHosted('https://agent.example.com/')).toBeUndefined();
    expect(blockedHosted('https://93.184.216.34/')).toBeUndefined();
    const t = parseTarget('http://localhost:4000/');
    expect(t.ok && checkTargetAllowed(t.url, 'local', local)).toBeUndefined();
  });
});

describe('headers', () => {
  it('accepts declared API-key header names but never denied ones', () => {
    const h = new Headers({
      'x-proxy-forward-headers':
        'X-Card-Key, cookie, Host, origin, referer, x-forwarded-for, forwarded, via, connection, proxy-authorization, sec-fetch-site, cf-connecting-ip, x-proxy-error, bad name, x-card-key, authorization',
    });
    expect(declaredForwardHeaders(h)).toEqual(['x-card-key']);
    const many = new Headers({ 'x-proxy-forward-headers': Array.from({ length: 20 }, (_, i) => `x-k${i}`).join(',') });
    expect(declaredForwardHeaders(many)).toHaveLength(8);
  });

  it('forwards the allowlist only and asks for identity', () => {
    const out = forwardRequestHeaders(
      new Headers({ accept: 'a', cookie: 'c', 'x-other': 'o', authorization: 'Bearer t', 'accept-encoding': 'gzip, br', 'x-k': 'v' }),
      ['x-k'],
      'ua/1',
    );
    expect(Object.fromEntries(out)).toEqual({ accept: 'a', authorization: 'Bearer t', 'accept-encoding': 'identity', 'user-agent': 'ua/1', 'x-k': 'v' });
  });

  it('filters response headers and renames upstream CORS when the proxy speaks CORS itself', () => {
    const up = new Headers([
      ['set-cookie', 'a=1'],
      ['x-proxy-error', 'forged'],
      ['X-Proxy-Anything', 'x'],
      ['connection', 'close, x-hop'],
      ['x-hop', '1'],
      ['keep-alive', 'timeout=5'],
      ['transfer-encoding', 'chunked'],
      ['clear-site-data', '"*"'],
      ['access-control-allow-origin', '*'],
      ['content-type', 'application/json'],
      ['vary', 'A2A-Version'],
    ]);
    expect(Object.fromEntries(filterResponseHeaders(up, { renameCors: true }))).toEqual({
      'content-type': 'application/json',
      vary: 'A2A-Version',
      'x-upstream-access-control-allow-origin': '*',
    });
    expect(filterResponseHeaders(up, { renameCors: false }).get('access-control-allow-origin')).toBe('*');
  });
});

describe('clients', () => {
  it.each([
    ['127.0.0.1:5173', true],
    ['localhost:5173', true],
    ['LOCALHOST', true],
    ['[::1]:4173', true],
    ['127.0.0.2:80', true],
    ['dash.test:80', true],
    ['sub.corp.test', true],
    ['evil.example:5173', false],
    ['evil.example@127.0.0.1:5173', false],
    ['127.0.0.1.nip.io:5173', false],
    ['', false],
  ])('local Host %s -> %s', (host, ok) => {
    expect(isAllowedLocalHost(host, ['dash.test', '.corp.test'])).toBe(ok);
  });

  it('classifies origins', () => {
    expect(classifyOrigin(null, '127.0.0.1:4173', [])).toBe('none');
    expect(classifyOrigin('http://127.0.0.1:4173', '127.0.0.1:4173', [])).toBe('same');
    expect(classifyOrigin('http://127.0.0.1:5173', '127.0.0.1:4173', [])).toBe('foreign');
    expect(classifyOrigin('http://127.0.0.1:5173', '127.0.0.1:4173', ['http://127.0.0.1:5173'])).toBe('allowed');
    expect(classifyOrigin('https://dash.example.evil', 'p', ['https://dash.example'])).toBe('foreign');
    expect(classifyOrigin('null', '127.0.0.1:4173', [])).toBe('foreign');
  });

  it('rate limiter: burst, refusal with Retry-After, refill, per key', () => {
    let t = 0;
    const rl = createRateLimiter({ limit: 2, windowMs: 1_000, now: () => t });
    expect(rl.take('a').ok).toBe(true);
    expect(rl.take('a').ok).toBe(true);
    const no = rl.take('a');
    expect(no).toEqual({ ok: false, retryAfterSec: 1 });
    expect(rl.take('b').ok).toBe(true);
    t = 500;
    expect(rl.take('a').ok).toBe(true);
    expect(rl.take('a').ok).toBe(false);
  });

  it('rate limiter memory is bounded', () => {
    const rl = createRateLimiter({ limit: 1, windowMs: 60_000, maxKeys: 3, now: () => 0 });
    for (const k of ['a', 'b', 'c', 'd']) rl.take(k);
    // 'a' was evicted, so it has a fresh bucket again.
    expect(rl.take('a').ok).toBe(true);
    expect(rl.take('d').ok).toBe(false);
  });
});

describe('errors', () => {
  it('every code has a status, and blame follows the model', () => {
    for (const code of PROXY_ERROR_CODES) expect(PROXY_ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
    expect(proxyErrorBlame('upstream_reset')).toBe('agent');
    expect(proxyErrorBlame('target_blocked')).toBe('tool');
    expect(proxyErrorBlame('proxy_unreachable')).toBe('tool');
  });

  it('problem responses carry X-Proxy-Error and a redacted target', async () => {
    const res = problemResponse('connect_failed', 'nope', { target: 'https://a.example/x?api_key=SECRET&q=1' });
    expect(res.status).toBe(502);
    expect(res.headers.get('x-proxy-error')).toBe('connect_failed');
    const body = (await res.json()) as { target: string; code: string };
    expect(body.code).toBe('connect_failed');
    expect(body.target).toBe('https://a.example/x?api_key=%5BREDACTED%5D&q=1');
    expect(redactUrl('http://u:p@h.example/?token=t')).toBe('http://h.example/?token=%5BREDACTED%5D');
  });

  it.each([
    [{ code: 'ENOTFOUND' }, 'dns_failed'],
    [{ code: 'EAI_AGAIN' }, 'dns_failed'],
    [{ code: 'ECONNREFUSED' }, 'connect_failed'],
    [{ code: 'EHOSTUNREACH' }, 'connect_failed'],
    [{ code: 'ECONNRESET', message: 'socket hang up' }, 'upstream_reset'],
    [{ code: 'HPE_INVALID_CONSTANT' }, 'upstream_reset'],
    [{ code: 'EPROTO' }, 'tls_failed'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, 'tls_failed'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'tls_failed'],
    [new TypeError('Network connection lost.'), 'upstream_reset'],
    [{ cause: { code: 'ECONNREFUSED' } }, 'connect_failed'],
    [new Error('something else'), 'connect_failed'],
  ])('classifies %o as %s', (e, code) => {
    expect(classifyUpstreamError(e).code).toBe(code);
  });

  it('keeps an UpstreamError as is', () => {
    const e = new UpstreamError('upstream_timeout', 'x');
    expect(classifyUpstreamError(e)).toBe(e);
  });
});

describe('SSE cut marker', () => {
  it('starts on a fresh line and never adds the blank line that would dispatch a partial event', () => {
    const d = new TextDecoder();
    expect(d.decode(sseCutMarker('upstream_reset', 0x0a))).toBe(': x-proxy-error upstream_reset\n');
    expect(d.decode(sseCutMarker('upstream_reset', 0x3a))).toBe('\n: x-proxy-error upstream_reset\n');
    expect(d.decode(sseCutMarker('upstream_timeout', undefined))).toBe(': x-proxy-error upstream_timeout\n');
  });
});

describe('explainTarget', () => {
  it.each([
    'http://127.0.0.1:8080/',
    'http://192.168.1.20/',
    'http://10.0.0.2:9999/a2a',
    'http://[::1]:4000/',
    'http://localhost:3000/',
    'http://agent.localhost/',
    'http://my-laptop:8000/',
    'http://printer.local/',
    'https://svc.internal/',
    'https://93.184.216.34/',
  ])('explains why a hosted proxy cannot reach %s', (url) => {
    const text = explainTarget(url, { kind: 'hosted' });
    expect(text).toMatch(/hosted proxy|Cloudflare/);
    expect(text).toMatch(/local proxy/);
  });

  it('says nothing for public names or other transports', () => {
    expect(explainTarget('https://agent.example.com/', { kind: 'hosted' })).toBeUndefined();
    expect(explainTarget('http://127.0.0.1:8080/', { kind: 'local' })).toBeUndefined();
    expect(explainTarget('http://127.0.0.1:8080/', { kind: 'direct' })).toBeUndefined();
    expect(explainTarget('not a url', { kind: 'hosted' })).toBeUndefined();
  });
});
