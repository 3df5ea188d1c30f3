import { CATEGORIES, CATEGORY_KEYS, isInformational, type Category, type CheckResult } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { failureTally, failureWords } from '../engine/report/level';

/** One exported file, ready to download (browser) or write (CLI). */
export interface ExportFile {
  filename: string;
  mimeType: string;
  body: string;
}

export const CATEGORY_LABELS: Record<Category, string> = {
  'agent-card': 'Agent card',
  lifecycle: 'Task lifecycle',
  streaming: 'Streaming (SSE)',
  'error-handling': 'Error handling and auth',
  interop: 'Interop',
  security: 'Security review (informational)',
};

/** The results of each category, in the report's category order (empty categories included). */
export const resultsByCategory = (report: Report): { category: Category; results: CheckResult[] }[] =>
  CATEGORIES.map((category) => ({ category, results: report.categories[CATEGORY_KEYS[category]] }));

const UNKNOWN_NAMES = new Set(['', '(unknown)', 'unknown']);

/** A file-name part safe on every OS: lowercase ASCII letters, digits and single dashes, at most 40 characters. */
export function slugify(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 40)
    .replace(/^-+|-+$/g, '');
}

/** Slug of the agent: its name, else the host (and path) of its URL, else `agent`. */
export function agentSlug(agentName: unknown, agentUrl: unknown): string {
  const name = typeof agentName === 'string' ? agentName.trim() : '';
  if (!UNKNOWN_NAMES.has(name.toLowerCase())) {
    const s = slugify(name);
    if (s) return s;
  }
  if (typeof agentUrl === 'string') {
    let hostAndPath = agentUrl;
    try {
      const u = new URL(agentUrl);
      hostAndPath = `${u.hostname}${u.port ? `-${u.port}` : ''}${u.pathname}`;
    } catch {
      /* not a URL: slug the raw text */
    }
    const s = slugify(hostAndPath);
    if (s) return s;
  }
  return 'agent';
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `yyyymmdd-hhmmss` of an ISO date in UTC; `00000000-000000` when it does not parse. */
export function fileStamp(isoDate: unknown): string {
  const t = typeof isoDate === 'string' ? Date.parse(isoDate) : NaN;
  if (!Number.isFinite(t)) return '00000000-000000';
  const d = new Date(t);
  return (
    `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-` +
    `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`
  );
}

/** `a2a-report-<agent-slug>-<yyyymmdd-hhmmss>.<ext>`; takes unknown input so the raw-JSON fallback can use it. */
export function exportFilename(report: { agentName?: unknown; agentUrl?: unknown; testDate?: unknown }, ext: string): string {
  return `a2a-report-${agentSlug(report.agentName, report.agentUrl)}-${fileStamp(report.testDate)}.${ext}`;
}

// Characters no text export should carry: C0/C1 controls (tab and line breaks are kept for the caller),
// noncharacters, and bidi overrides/isolates (they reorder what a reader sees, "Trojan Source").
// eslint-disable-next-line no-control-regex -- matching C0 control characters is the point (they are unsafe in exports)
const UNWANTED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u0084\u0086-\u009F\u202A-\u202E\u2066-\u2069\uFDD0-\uFDEF\uFFFE\uFFFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
// Supplementary-plane noncharacters (U+1FFFE, U+1FFFF, ... U+10FFFF).
const ASTRAL_NONCHAR = /[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/g;

/**
 * Agent text made safe to print in any text format: lone surrogates become U+FFFD, controls,
 * noncharacters and bidi controls are dropped, and line breaks are normalized to `\n`.
 * What is left is valid in XML 1.0, HTML and Markdown (escaping is still each format's job).
 */
export function cleanText(s: string): string {
  return s
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(ASTRAL_NONCHAR, '')
    .replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n')
    .replace(UNWANTED, '');
}

/** `cleanText`, on one line: every run of whitespace (line breaks, tabs) becomes one space. */
export const oneLine = (s: string): string => cleanText(s).replace(/\s+/g, ' ').trim();

/** `1.234 s` or `87 ms`. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 1 : 2)} s` : `${Math.round(ms)} ms`;
}

/** The run's date as `2026-11-29 19:57:36 UTC`, or the raw text when it does not parse. */
export function formatDate(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return iso;
  return `${new Date(t).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export const STATUS_LABELS: Record<CheckResult['status'], string> = {
  pass: 'pass',
  fail: 'fail',
  advisory: 'advisory',
  skip: 'skip',
  error: 'error (tool)',
};

const SKIP_WHY: Record<NonNullable<CheckResult['skipKind']>, string> = {
  'not-applicable': 'not applicable',
  precondition: 'precondition not met',
  'tool-limit': 'our budget ran out',
  credentials: 'credentials needed',
  unreachable: 'endpoint unreachable',
  'not-run': 'not run: the run was stopped',
};

/** The message of a result, with why it was skipped or why it is only an advisory. */
export function resultMessage(r: CheckResult): string {
  if (r.status === 'advisory' && r.advisoryReason) return `${r.message} (${isInformational(r) ? 'informational' : 'advisory'}: ${r.advisoryReason})`;
  if (r.status !== 'skip' || !r.skipKind) return r.message;
  const why = SKIP_WHY[r.skipKind];
  return r.message ? `${r.message} (${why})` : `(${why})`;
}

export const NOT_ASSESSED_LABELS: Record<NonNullable<Report['notAssessed']>['reason'], string> = {
  'invalid-url': 'invalid URL',
  unreachable: 'unreachable',
  'not-a2a': 'not an A2A agent',
  'credentials-required': 'credentials needed',
  'credentials-rejected': 'credentials refused',
  untestable: 'untestable interface',
  'tool-limit': 'our budget ran out',
  'tool-failure': 'tool failure',
  stopped: 'stopped',
  'selected-checks': 'selected checks only',
};

/** The level in words: `full`, ..., or `not assessed (unreachable)` when the agent was never assessed. */
export function levelLabel(report: Pick<Report, 'conformanceLevel' | 'notAssessed'>): string {
  if (report.conformanceLevel) return report.conformanceLevel;
  // A stopped run and a run of selected checks judged the agent, but not the whole suite: no level, not "not assessed".
  if (report.notAssessed?.reason === 'stopped') return 'no level (stopped: incomplete run)';
  if (report.notAssessed?.reason === 'selected-checks') return 'no level (selected checks only)';
  return `not assessed${report.notAssessed ? ` (${NOT_ASSESSED_LABELS[report.notAssessed.reason]})` : ''}`;
}

/** The heading of a report without a level: a stopped run and a run of selected checks were judged, just not whole. */
export function noLevelTitle(na: Report['notAssessed']): string {
  if (na?.reason === 'stopped') return 'Stopped: an incomplete run has no level';
  if (na?.reason === 'selected-checks') return 'Selected checks only: no agent level';
  return na ? `Not assessed: ${NOT_ASSESSED_LABELS[na.reason]}` : 'Not assessed';
}

/**
 * One line for the top of a report: `partial · 6 lower the level: 2 MUST, 4 SHOULD; 2 critical · 3 advisories`, or the
 * not-assessed reason. Failures are counted by what lowers the level, as the dashboard's verdict counts them.
 */
export function verdictLine(report: Report): string {
  if (!report.conformanceLevel) return levelLabel(report);
  const a = report.summary.advisories;
  const tally = failureTally(CATEGORIES.flatMap((c) => report.categories[CATEGORY_KEYS[c]] ?? []));
  return `${report.conformanceLevel}${report.provisional ? ' (provisional)' : ''} · ${failureWords(tally)} · ${a} advisor${a === 1 ? 'y' : 'ies'}`;
}

/** The spec sentences a result enforces, one per line: `A2A v1.0.1 §3.1.5 Cancel Task (MUST): "..."`. */
export function requirementLines(r: CheckResult): string[] {
  const req = r.requirement;
  if (!req) return r.specRef ? [r.specRef] : [];
  const lines = req.sentences.map(
    (s) =>
      `${s.doc} ${s.section} (${s.keyword === 'required-field' ? 'required field' : s.keyword === 'none' ? 'no requirement word' : s.keyword}): "${s.quote}"`,
  );
  if (req.note) lines.push(`Note: ${req.note}`);
  return lines;
}

/** Failed checks (required failures) across categories, in report order. */
export const failedResults = (report: Report): CheckResult[] => resultsByCategory(report).flatMap(({ results }) => results.filter((r) => r.status === 'fail'));

/** Advisories across categories, in report order (the security review's findings are listed apart: `securityFindings`). */
export const advisoryResults = (report: Report): CheckResult[] =>
  resultsByCategory(report).flatMap(({ results }) => results.filter((r) => r.status === 'advisory' && !isInformational(r)));

/** The security review's findings (informational: never part of the level), in report order. */
export const securityFindings = (report: Report): CheckResult[] => report.categories.security.filter((r) => r.status === 'advisory' || r.status === 'fail');

/** What every export says about the security review. */
export const SECURITY_NOTE =
  'Informational: what a security review of the public card and endpoints found (evidence and a fix for each). These findings never change the conformance level.';

/** Checks our tool could not run (status `error`), in report order. */
export const toolErrorResults = (report: Report): CheckResult[] =>
  resultsByCategory(report).flatMap(({ results }) => results.filter((r) => r.status === 'error'));

/** The report's timing section as text (Markdown and HTML show the same lines); none for a report without one. */
export interface TimingLines {
  timeToVerdict: string;
  decidedBy: string;
  /** The checks that finished last, last first: `id (duration, ended at t)`. */
  lastChecks: string[];
  /** Every observation window the run used: its name, size, the time it ran and why it was that long. */
  windows: { name: string; size: string; used: string; basis: string }[];
}

export function timingLines(report: Pick<Report, 'timing'>): TimingLines | undefined {
  const t = report.timing;
  if (!t) return undefined;
  // Durations in ms, as the engine's own sentences (decidedBy, a window's basis) give them.
  const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : '—');
  return {
    timeToVerdict: formatMs(t.timeToVerdictMs),
    decidedBy: t.decidedBy,
    lastChecks: t.criticalPath.map((c) => `${c.id} (${ms(c.durationMs)}, ended at ${ms(c.finishedAtMs)})`),
    windows: t.windows.map((w) => ({
      name: w.name,
      size: ms(w.ms),
      used: w.closedEarly ? `${ms(w.usedMs ?? w.ms)}, closed early: ${w.closedEarly}` : ms(w.usedMs ?? w.ms),
      basis: w.basis,
    })),
  };
}
