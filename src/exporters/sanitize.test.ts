import { describe, expect, it } from 'vitest';
import { CUT_CYCLE, CUT_DEEP, ExportScrubber, MAX_DEPTH, scrubForExport } from './sanitize';

const TOKEN = 'tok_9f8e7d6c5b4a39281706';
const KEY = 'ak-1234567890abcdefghij';

describe('scrubForExport: credentials', () => {
  it('masks credential header values in any header map, keeping the scheme', () => {
    const out = scrubForExport({
      request: { headers: { Authorization: `Bearer ${TOKEN}`, 'X-API-Key': KEY, accept: 'application/json', cookie: 'sid=abcdefgh1234' } },
    });
    expect(out.request.headers).toEqual({
      Authorization: 'Bearer [REDACTED]',
      'X-API-Key': '[REDACTED]',
      accept: 'application/json',
      cookie: '[REDACTED]',
    });
  });

  it('masks secret query parameters and user info in URLs, and leaves other URLs exactly as written', () => {
    const out = scrubForExport({
      a: `https://u:p4ssw0rd-long@agent.example/x?token=${TOKEN}&page=2`,
      b: `see wss://agent.example/ws?api_key=${KEY} for details`,
      c: 'https://agent.example/a2a?x=1&y=a%20b',
    });
    expect(out.a).not.toContain(TOKEN);
    expect(out.a).not.toContain('p4ssw0rd-long');
    expect(out.a).toContain('page=2');
    expect(out.b).toMatch(/^see wss:\/\/agent\.example\/ws\?api_key=%5BREDACTED%5D for details$/);
    expect(out.c).toBe('https://agent.example/a2a?x=1&y=a%20b');
  });

  it('masks bearer tokens and `name: value` / `name=value` secrets in free text', () => {
    const s = new ExportScrubber();
    expect(s.text(`sent Authorization: Bearer ${TOKEN} ok`)).toBe('sent Authorization: Bearer [REDACTED] ok');
    expect(s.text(`{"x-api-key":"${KEY}","n":1}`)).toBe('{"x-api-key":"[REDACTED]","n":1}');
    expect(s.text(`/card?api_key=${KEY}&x=1`)).toBe('/card?api_key=[REDACTED]&x=1');
    expect(s.text(`bearer ${TOKEN}`)).toBe('bearer [REDACTED]');
  });

  it('masks a discovered secret wherever else it appears, also earlier in the walk', () => {
    const out = scrubForExport({
      first: `the agent logged ${TOKEN} in plain text`,
      later: { headers: { authorization: `Bearer ${TOKEN}` } },
      key: [`key was ${KEY}`, `https://a.example/?api_key=${KEY}`],
    });
    const text = JSON.stringify(out);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(KEY);
    expect(out.first).toBe('the agent logged [REDACTED] in plain text');
    expect(out.key[0]).toBe('key was [REDACTED]');
  });

  it('leaves ordinary prose alone (no false positives on words)', () => {
    const prose = [
      'Basic send/get is broken (lifecycle.send.basic).',
      'Bearer tokens are required; send a Bearer authentication header.',
      'The token: none was given. key=value pairs are fine. password: short',
      'Error -32601 "Method not found" at https://agent.example/a2a',
    ];
    expect(scrubForExport(prose)).toEqual(prose);
  });

  it('is idempotent: scrubbing twice gives the same result', () => {
    const input = { h: { authorization: `Bearer ${TOKEN}` }, u: `https://x.example/?token=${TOKEN}`, m: `echo ${TOKEN}` };
    const once = scrubForExport(input);
    expect(scrubForExport(once)).toEqual(once);
    expect(JSON.stringify(once)).not.toContain('[[REDACTED]]');
  });
});

describe('scrubForExport: JSON safety', () => {
  it('cuts cycles but keeps shared (non-cyclic) references', () => {
    const shared = ['a', 'b'];
    const obj: Record<string, unknown> = { one: shared, two: shared };
    obj.self = obj;
    const out = scrubForExport(obj) as Record<string, unknown>;
    expect(out.one).toEqual(['a', 'b']);
    expect(out.two).toEqual(['a', 'b']);
    expect(out.self).toBe(CUT_CYCLE);
  });

  it('cuts nesting deeper than MAX_DEPTH without overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const out = scrubForExport(deep);
    const text = JSON.stringify(out);
    expect(text).toContain(CUT_DEEP);
    expect(text.replace(CUT_DEEP, '').split('[').length - 1).toBe(MAX_DEPTH);
  });

  it('turns values JSON cannot hold into what JSON.stringify would, and never throws', () => {
    const hostile = {
      big: 12n,
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      fn: () => 1,
      sym: Symbol('x'),
      undef: undefined,
      arr: [undefined, () => 2],
      date: new Date(Date.UTC(2026, 0, 2)),
      get boom(): string {
        throw new Error('getter exploded');
      },
    };
    const out = scrubForExport(hostile) as Record<string, unknown>;
    expect(out).toEqual({
      big: '12',
      nan: null,
      inf: null,
      arr: [null, null],
      date: '2026-01-02T00:00:00.000Z',
      boom: '[unreadable: getter exploded]',
    });
    expect(() => JSON.stringify(out)).not.toThrow();
  });
});
