import { judgedWithoutLevel, type ConformanceLevel, type Report } from '../engine/model/report';
import { NOT_ASSESSED_LABELS, agentSlug, type ExportFile } from './common';
import { esc } from './svg';

export const BADGE_MIME = 'image/svg+xml';

/** What a badge says: `A2A | full`, `A2A | not assessed: unreachable`; colours with text readable on them. */
export interface Badge {
  label: string;
  message: string;
  /** Background of the message half. */
  color: string;
  /** Text on it: white or near-black, whichever meets WCAG AA (4.5:1) on `color` (badge.test.ts checks). */
  textColor: string;
}

/** Background of the label half (`A2A`): white text on it is 7.5:1. */
export const LABEL_COLOR = '#555555';

const LEVEL_COLORS: Record<ConformanceLevel, string> = {
  full: '#1a7f37',
  partial: '#9a6700',
  minimal: '#bc4c00',
  'non-conformant': '#cf222e',
};
const NOT_ASSESSED_COLOR = '#57606a';

/** The badge of a report: the level in words (never colour alone), or why the agent was not assessed. */
export function badgeOf(report: Pick<Report, 'conformanceLevel' | 'notAssessed' | 'provisional'>, label = 'A2A'): Badge {
  if (report.conformanceLevel) {
    return {
      label,
      message: `${report.conformanceLevel}${report.provisional ? ' (provisional)' : ''}`,
      color: LEVEL_COLORS[report.conformanceLevel],
      textColor: '#ffffff',
    };
  }
  // A stopped run and a run of selected checks were judged, not whole: "no level", never a level.
  const na = report.notAssessed?.reason;
  if (na && judgedWithoutLevel(na)) return { label, message: `no level: ${NOT_ASSESSED_LABELS[na]}`, color: NOT_ASSESSED_COLOR, textColor: '#ffffff' };
  const why = report.notAssessed ? `: ${NOT_ASSESSED_LABELS[report.notAssessed.reason]}` : '';
  return { label, message: `not assessed${why}`, color: NOT_ASSESSED_COLOR, textColor: '#ffffff' };
}

// Advance widths of Verdana at 11 px (what shields.io measures with), by character class; textLength
// then makes the renderer fit the text to exactly this width whatever font it has.
const NARROW = new Set("ijl.,:;!|'()[]");
const SEMI = new Set('frt I-');
const WIDE = new Set('mwMW');
function charWidth(c: string): number {
  if (NARROW.has(c)) return 3.6;
  if (SEMI.has(c)) return 4.6;
  if (WIDE.has(c)) return 10.2;
  if (/[A-Z]/.test(c)) return 7.6;
  return 6.8;
}
/** Width of `s` in px at 11 px Verdana, rounded up. */
export const textWidth = (s: string): number => Math.ceil([...s].reduce((w, c) => w + charWidth(c), 0));

/** Longest message shown; longer text is cut with an ellipsis (a badge is one short line). */
const MAX_CHARS = 60;

/**
 * A shields.io-style flat badge (20 px high, two halves, rounded), self-contained: no script, no external
 * font or link. `role="img"`, `aria-label` and `<title>` carry the same words as the text. Text is escaped.
 */
export function badgeSvg(b: Badge): string {
  const cut = (s: string) => ([...s].length > MAX_CHARS ? `${[...s].slice(0, MAX_CHARS - 1).join('')}…` : s);
  const label = cut(b.label);
  const message = cut(b.message);
  const lw = textWidth(label) + 10;
  const mw = textWidth(message) + 10;
  const w = lw + mw;
  const title = `${label}: ${message}`;
  const text = (s: string, x: number, fill: string) =>
    `<text x="${x * 10}" y="140" transform="scale(.1)" fill="${fill}" textLength="${(textWidth(s) * 10).toFixed(0)}">${esc(s)}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="20" role="img" aria-label="${esc(title)}">` +
    `<title>${esc(title)}</title>` +
    `<clipPath id="r"><rect width="${w}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="${LABEL_COLOR}"/><rect x="${lw}" width="${mw}" height="20" fill="${b.color}"/></g>` +
    `<g text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(label, lw / 2, '#ffffff') +
    text(message, lw + mw / 2, b.textColor) +
    `</g></svg>\n`
  );
}

/** The badge of a report as a file: `a2a-badge-<agent>.svg`. */
export function toBadge(report: Report, label = 'A2A'): ExportFile {
  return { filename: `a2a-badge-${agentSlug(report.agentName, report.agentUrl)}.svg`, mimeType: BADGE_MIME, body: badgeSvg(badgeOf(report, label)) };
}
