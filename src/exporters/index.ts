/**
 * Report exporters: pure functions `(report) => ExportFile`, used by the dashboard's export buttons and
 * the CLI's `--format`. Call `exportReport` (validates, never throws, falls back to raw JSON) rather than
 * the per-format functions, unless you already hold a validated `Report`.
 *
 * @example
 * const { file, fallback } = exportReport(report, 'markdown');
 * if (fallback) warn(fallback.reason); // file is then the raw JSON report
 * download(file.filename, file.mimeType, file.body);
 */
import { Report } from '../engine/model/report';
import { describeVersion, migrateReport } from '../engine/report/migrate';
import type { ExportFile } from './common';
import { HTML_MIME, toHtml } from './html';
import { JSON_MIME, rawJson, toJson } from './json';
import { JUNIT_MIME, toJunit } from './junit';
import { describeIssues } from './load';
import { MARKDOWN_MIME, toMarkdown } from './markdown';
import { SARIF_MIME, toSarif } from './sarif';

export type { ExportFile } from './common';
export { exportFilename } from './common';
export { toJson, rawJson } from './json';
export { toMarkdown, mdText } from './markdown';
export { toJunit } from './junit';
export { toHtml } from './html';
export { toSarif, sarifText, sarifArtifact, sarifCategory, cleanCategory, SARIF_MIME, SARIF_LEVEL, SECURITY_SEVERITY, type SarifOptions } from './sarif';
export { toBadge, badgeSvg, badgeOf, BADGE_MIME, type Badge } from './badge';
export { loadReport, MAX_REPORT_CHARS, MAX_REPORT_DEPTH, type LoadResult } from './load';
export { reportJsonSchema, reportJsonSchemaText, REPORT_SCHEMA_PATH } from './schema';
export { scrubForExport, ExportScrubber } from './sanitize';

export type ExportFormat = 'json' | 'markdown' | 'junit' | 'html' | 'sarif';

export interface FormatInfo {
  /** For buttons: `Export ${label}`. */
  label: string;
  extension: string;
  mimeType: string;
  build: (report: Report, options?: ExportOptions) => ExportFile;
}

/** Options some formats take (the others ignore them). */
export interface ExportOptions {
  /** SARIF: the code-scanning category (`automationDetails.id`); default from the agent URL (`sarifCategory`). */
  sarifCategory?: string;
}

/** The export formats, in the order the UI lists them. `build` is looked up at call time (tests may replace it). */
export const FORMATS: Record<ExportFormat, FormatInfo> = {
  json: { label: 'JSON', extension: 'json', mimeType: JSON_MIME, build: toJson },
  markdown: { label: 'Markdown', extension: 'md', mimeType: MARKDOWN_MIME, build: toMarkdown },
  junit: { label: 'JUnit', extension: 'xml', mimeType: JUNIT_MIME, build: toJunit },
  html: { label: 'HTML', extension: 'html', mimeType: HTML_MIME, build: toHtml },
  sarif: { label: 'SARIF', extension: 'sarif', mimeType: SARIF_MIME, build: (r, o) => toSarif(r, { category: o?.sarifCategory }) },
};

export const EXPORT_FORMATS = Object.keys(FORMATS) as ExportFormat[];

export const isExportFormat = (s: unknown): s is ExportFormat => typeof s === 'string' && Object.hasOwn(FORMATS, s);

export interface ExportResult {
  file: ExportFile;
  /** Set when `file` is the raw JSON report instead of the requested format; `reason` says why. */
  fallback?: { reason: string };
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * Exports a report (any value: a `Report`, an older schema version, parsed JSON of unknown shape) in
 * `format`. Never throws and never loses data: when the report does not validate, or building the format
 * fails, `file` is the raw JSON of the input (as much as can be serialized, credentials masked) and
 * `fallback.reason` says why (docs/conformance-procedure.md#on-failure).
 */
export function exportReport(report: unknown, format: ExportFormat, options?: ExportOptions): ExportResult {
  let reason: string;
  try {
    const info = isExportFormat(format) ? FORMATS[format] : undefined;
    if (!info) {
      reason = `Unknown export format ${JSON.stringify(String(format)).slice(0, 40)} (expected one of ${EXPORT_FORMATS.join(', ')}); here is the report as JSON.`;
    } else {
      const versionProblem = describeVersion(report);
      const parsed = versionProblem ? undefined : Report.safeParse(migrateReport(report).report);
      if (parsed?.success) {
        try {
          return { file: info.build(parsed.data, options) };
        } catch (e) {
          reason = `Building the ${info.label} export failed (${errorText(e)}); here is the report as JSON instead.`;
        }
      } else {
        const why = versionProblem ?? (parsed ? describeIssues(parsed.error) : 'unknown problem');
        reason = `The report is not valid, so no ${info.label} export could be built (${why.replace(/\.$/, '')}); here is the raw report as JSON instead.`;
      }
    }
  } catch (e) {
    reason = `Export failed (${errorText(e)}); here is the raw report as JSON instead.`;
  }
  return { file: rawJson(report), fallback: { reason } };
}
