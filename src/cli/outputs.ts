/**
 * Report files the CLI writes: which formats were asked for (`--format json,sarif`), their file names, and
 * writing them through the exporters (never throws for a format: the exporter's raw-JSON fallback is written
 * and a warning returned).
 */
import type { Report } from '../engine/model/report';
import { EXPORT_FORMATS, exportReport, isExportFormat, type ExportFormat, type ExportOptions } from '../exporters';

/** File-name endings per format: `a2a-report.junit.xml` rather than an ambiguous `.xml`. */
const OUTPUT_EXT: Record<ExportFormat, string> = { json: 'json', markdown: 'md', junit: 'junit.xml', html: 'html', sarif: 'sarif' };

/** `--format` values (repeatable, comma-separated) as a list without duplicates; a string says what is wrong. */
export function parseFormats(values: readonly string[] | undefined, fallback: ExportFormat): ExportFormat[] | string {
  const asked = (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  if (!asked.length) return [fallback];
  const bad = asked.filter((f) => !isExportFormat(f));
  if (bad.length)
    return `--format must be one of ${EXPORT_FORMATS.join(', ')} (or several, comma-separated); got ${bad.map((b) => JSON.stringify(b)).join(', ')}`;
  return [...new Set(asked as ExportFormat[])];
}

/**
 * Writes `report` in each format to `<base>.<ext>` (e.g. `out/a2a-report.sarif`). Returns the paths by format
 * and the exporters' fallback reasons.
 */
export function writeReportFiles(
  report: Report,
  formats: readonly ExportFormat[],
  base: string,
  writeFile: (path: string, body: string) => void,
  options?: ExportOptions,
): { files: Partial<Record<ExportFormat, string>>; warnings: string[] } {
  const files: Partial<Record<ExportFormat, string>> = {};
  const warnings: string[] = [];
  for (const format of formats) {
    const { file, fallback } = exportReport(report, format, options);
    if (fallback) warnings.push(`${format}: ${fallback.reason}`);
    const path = `${base}.${OUTPUT_EXT[format]}`;
    writeFile(path, file.body);
    files[format] = path;
  }
  return { files, warnings };
}
