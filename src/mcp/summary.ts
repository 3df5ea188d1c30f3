/**
 * What run_a2a_conformance returns to an assistant: a bounded summary (the level, the counts, each failure with the
 * sentence of the spec it breaks and the fix) that fits in an assistant's context, never the whole report (a JSON
 * report of a full run is hundreds of thousands of characters); the full report is a file whose path is returned.
 */
import { lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { CheckResult, Report } from '../engine';
import { reportResults } from '../engine';
import { failureTally, failureWords } from '../engine/report/level';
import { exportReport, type ExportFormat } from '../exporters';

/** Characters of the summary as returned (its JSON, indented as the tool result prints it). */
export const SUMMARY_MAX_CHARS = 8_000;

const cut = (s: string | undefined, n: number) => (s === undefined ? undefined : s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** One failure: the check, what went wrong, the sentence it breaks, the fix. */
function failureLine(r: CheckResult, chars: number) {
  const q = r.requirement?.sentences[0];
  return {
    check: r.id,
    status: r.status,
    level: r.level,
    message: cut(r.message.split('\n')[0], chars),
    ...(q && { spec: cut(`${q.doc} ${q.section} (${q.keyword}): "${q.quote}"`, chars) }),
    ...(r.recommendation && { fix: cut(r.recommendation, chars) }),
  };
}

export interface SummaryInput {
  report: Report;
  /** The agent as the tool result names it. */
  agent?: Record<string, unknown>;
  /** Paths of the report files written, by format. */
  files: Partial<Record<ExportFormat, string>>;
  /** Anything else to include (small): unknown skills, a fallback note. */
  extra?: Record<string, unknown>;
}

/**
 * The summary object, at most SUMMARY_MAX_CHARS as `JSON.stringify(value, null, 2)`: failures first (required
 * failures, then our tool's errors), each cut shorter, then fewer of them (`more_failures` says how many are left
 * out: they are in the report file), until it fits.
 */
export function boundedSummary({ report, agent, files, extra = {} }: SummaryInput): Record<string, unknown> {
  const s = report.summary;
  const results = reportResults(report);
  const failures = [...results.filter((x) => x.status === 'fail'), ...results.filter((x) => x.status === 'error')];
  const advisories = results.filter((x) => x.status === 'advisory').map((x) => x.id);
  const head = report.notAssessed
    ? `Not assessed (${report.notAssessed.reason}): ${report.notAssessed.message}`
    : `Conformance level: ${report.conformanceLevel ?? 'none'}${report.provisional ? ' (provisional)' : ''}: ${failureWords(failureTally(results))}; ${s.passed} passed, ${s.advisories} advisor${s.advisories === 1 ? 'y' : 'ies'}, ${s.skipped} skipped, ${s.errors} tool error(s).`;
  const build = (chars: number, count: number, advisoryCount: number) => ({
    summary: cut(head, 600),
    level: report.conformanceLevel,
    ...(report.notAssessed && { not_assessed: { reason: report.notAssessed.reason, message: cut(report.notAssessed.message, 400) } }),
    provisional: report.provisional,
    level_reason: cut(report.levelReason, 600),
    ...(agent && { agent }),
    counts: s,
    failures: failures.slice(0, count).map((r) => failureLine(r, chars)),
    ...(failures.length > count && { more_failures: `${failures.length - count} more failure(s) in the report file` }),
    advisories: advisories.slice(0, advisoryCount),
    ...(advisories.length > advisoryCount && { more_advisories: advisories.length - advisoryCount }),
    run_status: report.runStatus,
    duration_ms: report.durationMs,
    report_files: files,
    ...extra,
  });
  const fits = (v: object) => JSON.stringify(v, null, 2).length <= SUMMARY_MAX_CHARS;
  for (const chars of [400, 240, 160]) {
    let v = build(chars, failures.length, 30);
    if (fits(v)) return v;
    // Fewer failures, keeping the first ones (the card and core checks come first in the manifest order).
    for (let n = failures.length - 1; n >= 3; n--) {
      v = build(chars, n, 10);
      if (fits(v)) return v;
    }
  }
  return build(120, 3, 0);
}

/**
 * Writes the report as JSON (always) and in `format` to `dir` (created when missing) under the exporters' file
 * names (`a2a-report-<agent>-<yyyymmdd-hhmmss>.<ext>`, a slug: no path from the agent), each body passed through
 * `redact` (the call's header values). Returns absolute paths.
 */
export function writeReports(
  dir: string,
  report: Report,
  format: ExportFormat,
  redact: (text: string) => string = (t) => t,
): { files: Partial<Record<ExportFormat, string>>; fallback?: string; error?: string } {
  const base = isAbsolute(dir) ? dir : resolve(dir);
  // Reports may quote the agent's answers: a folder only this user reads (when it creates it), and never one another
  // user prepared (a link, or a folder someone else owns in a shared temp directory).
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const st = lstatSync(base);
  if (!st.isDirectory()) throw new Error(`${base} is not a directory (a link?)`);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) throw new Error(`${base} belongs to another user`);
  const files: Partial<Record<ExportFormat, string>> = {};
  let fallback: string | undefined;
  for (const f of new Set<ExportFormat>(['json', format])) {
    const { file, fallback: fb } = exportReport({ ...report, events: undefined } satisfies Report, f);
    if (fb) fallback = fb.reason;
    const path = join(base, file.filename);
    writeFileSync(path, redact(file.body));
    files[f] = path;
  }
  return { files, ...(fallback && { fallback }) };
}
