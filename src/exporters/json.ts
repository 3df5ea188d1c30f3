import { Report } from '../engine/model/report';
import { exportFilename, type ExportFile } from './common';
import { scrubForExport } from './sanitize';

export const JSON_MIME = 'application/json';

/**
 * The versioned report as JSON, credentials masked, validated by the zod schema on the way out
 * (throws if the masked report no longer validates; `exportReport` turns that into the raw-JSON fallback).
 * Everything is kept, the event log included, so the file reopens and replays in the dashboard.
 */
export function toJson(report: Report): ExportFile {
  const out = Report.parse(scrubForExport(report));
  return { filename: exportFilename(out, 'json'), mimeType: JSON_MIME, body: `${JSON.stringify(out, null, 2)}\n` };
}

/**
 * Any value as JSON, as much of it as can be serialized, credentials masked: the fallback when a report
 * does not validate or a format fails. Never throws.
 */
export function rawJson(value: unknown): ExportFile {
  const filenameOf = (v: unknown) => exportFilename(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {}, 'json');
  try {
    const safe = scrubForExport(value);
    return { filename: filenameOf(safe), mimeType: JSON_MIME, body: `${JSON.stringify(safe, null, 2) ?? 'null'}\n` };
  } catch (e) {
    // Only a body too large for one string gets here.
    const error = `report could not be serialized: ${e instanceof Error ? e.message : String(e)}`;
    return { filename: filenameOf(undefined), mimeType: JSON_MIME, body: `${JSON.stringify({ error })}\n` };
  }
}
