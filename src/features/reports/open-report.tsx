import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { runsQueryKey, useArchive } from '../../lib/archive-context';
import { loadReport } from '../../lib/engine-adapter';
import { navigate } from '../../lib/router';
import { eventsFromReport } from './report-events';

const MAX_FILE = 100 * 1024 * 1024;

/** "Open a JSON report": validates it, adds it to the history and shows it in the run views. */
export function OpenReport() {
  const id = useId();
  const archive = useArchive();
  const qc = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_FILE) {
      setError(`${file.name} is ${Math.round(file.size / 1024 / 1024)} MB; reports up to 100 MB can be opened.`);
      return;
    }
    setBusy(true);
    try {
      const loaded = await loadReport(await file.text());
      if (!loaded.ok) {
        setError(`${file.name}: ${loaded.error}`);
        return;
      }
      const meta = await archive.replace(eventsFromReport(loaded.report), 'imported');
      void qc.invalidateQueries({ queryKey: runsQueryKey });
      void qc.invalidateQueries({ queryKey: ['run', meta.runId] });
      navigate(`/runs/${encodeURIComponent(meta.runId)}`);
    } catch (e) {
      setError(`Could not open ${file.name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="open-report">
      <label htmlFor={id}>Open a JSON report</label>
      <input
        id={id}
        type="file"
        accept="application/json,.json"
        disabled={busy}
        onChange={(e) => {
          void onFile(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      {error ? (
        <Notice kind="error" title="This file could not be opened.">
          {error}
        </Notice>
      ) : null}
    </div>
  );
}
