import type { z } from 'zod';
import { Report, SCHEMA_VERSION } from '../engine/model/report';
import { describeVersion, migrateReport } from '../engine/report/migrate';
import { safeJsonParse } from '../engine/util/json';
import { scrubForExport } from './sanitize';

/** Largest report text `loadReport` reads (characters). A 10,000-event report is about 5 MB. */
export const MAX_REPORT_CHARS = 64 * 1024 * 1024;
/** Deepest nesting `loadReport` accepts; real reports are about 12 levels deep, agent cards included. */
export const MAX_REPORT_DEPTH = 64;

export type LoadResult = { ok: true; report: Report; migratedFrom?: number } | { ok: false; error: string };

/**
 * Opens a saved report: parse, check size and depth, migrate older schema versions, validate with zod,
 * mask credentials. Never throws; `error` is one or two sentences a user can act on.
 */
export function loadReport(text: string): LoadResult {
  try {
    if (typeof text !== 'string') return { ok: false, error: 'Expected the text of a report file.' };
    if (text.length > MAX_REPORT_CHARS) {
      return { ok: false, error: `The file is ${mb(text.length)}; reports up to ${mb(MAX_REPORT_CHARS)} can be opened.` };
    }
    const body = text.replace(/^\uFEFF/, '');
    if (!body.trim()) return { ok: false, error: 'The file is empty.' };
    const parsed = safeJsonParse(body);
    if (!parsed.ok) return { ok: false, error: `The file is not valid JSON: ${parsed.error}` };
    if (exceedsDepth(parsed.value, MAX_REPORT_DEPTH)) {
      return { ok: false, error: `The JSON is nested more than ${MAX_REPORT_DEPTH} levels deep, which no report is.` };
    }
    const versionProblem = describeVersion(parsed.value);
    if (versionProblem) return { ok: false, error: versionProblem };
    const { report, from } = migrateReport(parsed.value);
    const result = Report.safeParse(scrubForExport(report));
    if (!result.success) {
      const origin = from < SCHEMA_VERSION ? ` (migrated from schemaVersion ${from})` : '';
      return { ok: false, error: `Not a valid a2a-interop report${origin}: ${describeIssues(result.error)}` };
    }
    return from < SCHEMA_VERSION ? { ok: true, report: result.data, migratedFrom: from } : { ok: true, report: result.data };
  } catch (e) {
    return { ok: false, error: `The report could not be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const mb = (chars: number) => `${(chars / 1024 / 1024).toFixed(1)} MB`;

/** `path: message` for the first few zod issues, e.g. `summary.total: Invalid input: expected number, received string`. */
export function describeIssues(error: z.ZodError, max = 5): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`);
  const more = error.issues.length - max;
  return `${parts.join('; ')}${more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : ''}.`;
}

/** True when `value` nests deeper than `max`. Iterative: a 1,000,000-deep array cannot overflow the stack. */
export function exceedsDepth(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
