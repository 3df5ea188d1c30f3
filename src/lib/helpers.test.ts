import { describe, expect, it } from 'vitest';
import { buildRunLink, parseRunLink } from './deep-link';
import { prettyBody, toolErrorText } from './format';
import { matchPath } from './router';
import { checkAgentUrl, httpUrl } from './url';

describe('deep links', () => {
  it('parses agent, peer and run=1, and builds a link that never carries credentials', () => {
    const l = parseRunLink(new URLSearchParams('agent=http%3A%2F%2Fa.test%2Fx&peer=http://p.test&run=1'));
    expect(l).toEqual({ agent: 'http://a.test/x', peer: 'http://p.test', run: true });
    expect(parseRunLink(new URLSearchParams('agent=&run=0'))).toEqual({ agent: undefined, peer: undefined, run: false });
    const href = buildRunLink('http://127.0.0.1:4173/history?token=abc#x', { agent: 'http://a.test/x?y=1', peer: 'http://p.test' });
    const u = new URL(href);
    expect(u.pathname).toBe('/');
    expect([...u.searchParams.keys()]).toEqual(['agent', 'peer', 'run']);
    expect(u.searchParams.get('agent')).toBe('http://a.test/x?y=1');
    expect(href).not.toContain('token');
  });
});

describe('urls', () => {
  it('links only http(s) URLs', () => {
    expect(httpUrl('https://example.com/x')).toBe('https://example.com/x');
    expect(httpUrl('javascript:alert(1)')).toBeNull();
    expect(httpUrl('JAVASCRIPT:alert(1)')).toBeNull();
    expect(httpUrl('data:text/html,<script>')).toBeNull();
    expect(httpUrl(' http://x')).toBe('http://x/');
    expect(httpUrl(42)).toBeNull();
  });

  it('explains what is wrong with an agent URL and what to do', () => {
    expect(checkAgentUrl('')).toMatchObject({ ok: false, error: expect.stringContaining('empty') });
    expect(checkAgentUrl('localhost:3000')).toMatchObject({ ok: false });
    expect(checkAgentUrl('ftp://x.test')).toMatchObject({ ok: false, error: expect.stringContaining('http://') });
    expect(checkAgentUrl('http://u:p@x.test')).toMatchObject({ ok: false, error: expect.stringContaining('credentials') });
    expect(checkAgentUrl(' http://127.0.0.1:4173/demo/v1 ')).toEqual({ ok: true, url: 'http://127.0.0.1:4173/demo/v1' });
  });
});

describe('format', () => {
  it('pretty-prints JSON bodies and leaves other text alone', () => {
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyBody('<html>')).toBe('<html>');
    expect(prettyBody('x'.repeat(20), 10)).toBe(`${'x'.repeat(10)}\n… 10 more characters`);
  });
  it('words tool errors as ours, never the agent’s', () => {
    expect(toolErrorText('connect_failed')).toMatch(/proxy could not reach the agent/);
    expect(toolErrorText(undefined)).toMatch(/Our tool failed/);
  });
});

describe('router', () => {
  it('matches params and rejects other paths', () => {
    expect(matchPath('/runs/:id', '/runs/abc%20d')).toEqual({ id: 'abc d' });
    expect(matchPath('/runs/:id', '/runs')).toBeNull();
    expect(matchPath('/runs/:id', '/runs/%E0%A4%A')).toBeNull();
  });
});
