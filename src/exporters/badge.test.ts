// @vitest-environment jsdom
// (for DOMParser: jsdom parses XML with saxes, a strict XML parser)
import { describe, expect, it } from 'vitest';
import { ConformanceLevel, NotAssessedReason, type Report } from '../engine/model/report';
import { conformantReport, hostileReport, unreachableReport } from '../testing/fixtures/reports';
import { LABEL_COLOR, badgeOf, badgeSvg, textWidth, toBadge } from './badge';
import { NOT_ASSESSED_LABELS } from './common';

/** Parses with a real, strict XML parser (saxes, in jsdom): a malformed document yields <parsererror>. */
function parseSvg(svg: string): Document {
  const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const err = doc.getElementsByTagName('parsererror')[0];
  expect(err?.textContent ?? null).toBeNull();
  expect(doc.documentElement.namespaceURI).toBe('http://www.w3.org/2000/svg');
  return doc;
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

type Outcome = Pick<Report, 'conformanceLevel' | 'notAssessed' | 'provisional'>;
const OUTCOMES: [string, Outcome][] = [
  ...ConformanceLevel.options.flatMap((level): [string, Outcome][] => [
    [level, { conformanceLevel: level, provisional: false }],
    [`${level} (provisional)`, { conformanceLevel: level, provisional: true }],
  ]),
  ...NotAssessedReason.options.map((reason): [string, Outcome] => [
    `${reason === 'stopped' || reason === 'selected-checks' ? 'no level' : 'not assessed'}: ${NOT_ASSESSED_LABELS[reason]}`,
    { conformanceLevel: null, notAssessed: { reason, message: 'why' }, provisional: false },
  ]),
  ['not assessed', { conformanceLevel: null, provisional: false }],
];

describe('badge', () => {
  it('the XML parser rejects what is not well-formed (so the tests below can fail)', () => {
    const bad = badgeSvg(badgeOf({ conformanceLevel: 'full', provisional: false })).replace('>full<', '>full & <');
    const doc = new DOMParser().parseFromString(bad, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror').length).toBeGreaterThan(0);
  });

  it.each(OUTCOMES)('"A2A | %s" is well-formed SVG with its words in the text, <title> and aria-label', (words, outcome) => {
    const svg = badgeSvg(badgeOf(outcome));
    const doc = parseSvg(svg);
    const root = doc.documentElement;
    expect(root.getAttribute('role')).toBe('img');
    expect(root.getAttribute('aria-label')).toBe(`A2A: ${words}`);
    expect(doc.getElementsByTagName('title')[0]!.textContent).toBe(`A2A: ${words}`);
    const texts = [...doc.getElementsByTagName('text')].map((t) => t.textContent);
    expect(texts).toEqual(['A2A', words]);
    // No script, no external reference.
    expect(doc.getElementsByTagName('script')).toHaveLength(0);
    expect(svg).not.toMatch(/href|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    // The badge is as wide as its two texts plus padding.
    expect(Number(root.getAttribute('width'))).toBe(textWidth('A2A') + textWidth(words) + 20);
  });

  it.each(OUTCOMES)('"%s": text meets WCAG AA contrast (4.5:1) on both halves', (_w, outcome) => {
    const b = badgeOf(outcome);
    expect(contrast(b.textColor, b.color)).toBeGreaterThanOrEqual(4.5);
    expect(contrast('#ffffff', LABEL_COLOR)).toBeGreaterThanOrEqual(4.5);
  });

  it('each level has its own colour, and not assessed is never a level colour', () => {
    const colors = ConformanceLevel.options.map((level) => badgeOf({ conformanceLevel: level, provisional: false }).color);
    expect(new Set(colors).size).toBe(4);
    expect(colors).not.toContain(badgeOf({ conformanceLevel: null, provisional: false }).color);
  });

  it('escapes the label and cuts long text, and stays well-formed', () => {
    const svg = badgeSvg({ label: '<A2A & "x">', message: `${'<script>]]>&amp;'.repeat(20)}\u0000\u202e`, color: '#57606a', textColor: '#ffffff' });
    const doc = parseSvg(svg);
    const texts = [...doc.getElementsByTagName('text')].map((t) => t.textContent!);
    expect(texts[0]).toBe('<A2A & "x">');
    expect([...texts[1]!].length).toBeLessThanOrEqual(60);
    expect(texts[1]).toMatch(/…$/);
    expect(svg).not.toContain('<script>');
  });

  it('toBadge names the file after the agent and reads the report', () => {
    expect(toBadge(conformantReport())).toMatchObject({ mimeType: 'image/svg+xml', body: expect.stringContaining('>full</text>') });
    expect(toBadge(unreachableReport()).body).toContain('>not assessed: unreachable</text>');
    const hostile = toBadge(hostileReport());
    expect(hostile.filename).toMatch(/^a2a-badge-[a-z0-9-]+\.svg$/);
    parseSvg(hostile.body);
  });
});
