import { useState } from 'react';
import { buildReport } from '../../lib/engine';
import { Notice } from '../../components/notice';
import { exportReport, type ExportFormat } from '../../lib/engine-adapter';
import { useRunSelector, useRunStoreHandle } from '../../lib/run-store';
import { downloadFile } from '../../lib/download';

const FORMATS: { format: ExportFormat; label: string }[] = [
  { format: 'json', label: 'Export JSON' },
  { format: 'markdown', label: 'Export Markdown' },
  { format: 'junit', label: 'Export JUnit' },
  { format: 'html', label: 'Export HTML' },
  { format: 'sarif', label: 'Export SARIF' },
];

/** Download buttons for the run on screen (the report embeds the redacted event log). */
export function ExportButtons({ only }: { only?: readonly ExportFormat[] } = {}) {
  const handle = useRunStoreHandle();
  const status = useRunSelector((s) => s.run.status);
  const [note, setNote] = useState<string | null>(null);
  if (status === 'idle') return null;
  const onExport = async (format: ExportFormat) => {
    const { run, events } = handle.store.getState();
    try {
      const { file, fallback } = await exportReport(buildReport(run, events), format);
      downloadFile(file.filename, file.mimeType, file.body);
      setNote(fallback ? fallback.reason : null);
    } catch (e) {
      setNote(`Export failed in our tool: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <div className="export-buttons" role="group" aria-label="Export report">
      {FORMATS.filter((f) => !only || only.includes(f.format)).map((f) => (
        <button key={f.format} type="button" onClick={() => void onExport(f.format)}>
          {f.label}
          {only ? ' (for CI)' : ''}
        </button>
      ))}
      {note ? <Notice kind="warn">{note}</Notice> : null}
    </div>
  );
}
