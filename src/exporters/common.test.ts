import { describe, expect, it } from 'vitest';
import { agentSlug, cleanText, exportFilename, fileStamp, oneLine, slugify } from './common';

describe('export file names', () => {
  it('is a2a-report-<agent-slug>-<yyyymmdd-hhmmss>.<ext> in UTC', () => {
    expect(exportFilename({ agentName: 'Currency Agent', agentUrl: 'https://x.example', testDate: '2026-11-29T19:57:36.123Z' }, 'md')).toBe(
      'a2a-report-currency-agent-20261129-195736.md',
    );
    expect(fileStamp('2026-01-02T03:04:05+02:00')).toBe('20260102-010405');
    expect(fileStamp('not a date')).toBe('00000000-000000');
    expect(fileStamp(undefined)).toBe('00000000-000000');
  });

  it('slugs are safe on every OS: ASCII letters, digits and single dashes, at most 40 chars', () => {
    const nasty = ['CON', 'a/b\\c:d*e?f"g<h>i|j', '../../etc/passwd', 'Ünïcödé Àgent', '\u0000\u202Eevil', ' . ', '😀'.repeat(30), 'x'.repeat(500)];
    for (const name of nasty) {
      const slug = agentSlug(name, 'https://fallback.example:8443/a2a/v1');
      expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(slug.length).toBeLessThanOrEqual(40);
    }
    expect(slugify('Ünïcödé Àgent')).toBe('unicode-agent');
    expect(slugify('../../etc/passwd')).toBe('etc-passwd');
  });

  it('falls back from an unknown name to the URL host and path, then to `agent`', () => {
    expect(agentSlug('(unknown)', 'https://fallback.example:8443/a2a/v1')).toBe('fallback-example-8443-a2a-v1');
    expect(agentSlug('', 'not a url at all')).toBe('not-a-url-at-all');
    expect(agentSlug(undefined, undefined)).toBe('agent');
    expect(agentSlug('😀', '::')).toBe('agent');
  });
});

describe('cleanText', () => {
  it('drops controls, noncharacters and bidi controls; replaces lone surrogates; keeps emoji', () => {
    expect(cleanText('a\u0000b\u0007c\u001bd\u007fe\u009bf\uFFFEg\uFFFFh\u202Ei\u2066j\uD83F\uDFFEk')).toBe('abcdefghijk');
    expect(cleanText('x\uD800y\uDFFFz')).toBe('x\uFFFDy\uFFFDz');
    expect(cleanText('ok 😀 é')).toBe('ok 😀 é');
  });

  it('normalizes every line break to \\n and keeps tabs; oneLine collapses them', () => {
    expect(cleanText('a\r\nb\rc\u2028d\u2029e\u0085f\tg')).toBe('a\nb\nc\nd\ne\nf\tg');
    expect(oneLine('  a\r\n\tb  \u2028 c ')).toBe('a b c');
  });

  it('leaves only characters XML 1.0 allows', () => {
    let all = '';
    for (let c = 0; c < 0x10000; c++) all += String.fromCharCode(c);
    const cleaned = cleanText(all);
    // XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF] (and \r is normalized away).
    const allowed = /^[\t\n\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]$/u;
    const bad = [...cleaned].filter((c) => !allowed.test(c)).map((c) => c.codePointAt(0)!.toString(16));
    expect(bad).toEqual([]);
    expect(cleaned.length).toBeGreaterThan(60_000);
  });
});
