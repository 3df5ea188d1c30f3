import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Notice } from '../../components/notice';
import { useArchive } from '../../lib/archive-context';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import { navigate } from '../../lib/router';
import { useRunSession, useSessionState } from '../../lib/run-session';
import { createRunStore, RunStoreProvider } from '../../lib/run-store';
import { RunViewer } from '../run-viewer';

/** A run from history (or an opened report), in the same views as a live run. */
export function SavedRunRoute({ runId }: { runId: string }) {
  const archive = useArchive();
  const session = useRunSession();
  const idle = useSessionState((s) => s.phase === 'idle');
  const q = useQuery({
    queryKey: ['run', runId],
    queryFn: async () => {
      const [meta, events] = await Promise.all([archive.get(runId), archive.events(runId)]);
      if (!meta) throw new Error(`No saved run with id ${runId}.`);
      return { meta, events };
    },
    staleTime: Infinity,
    gcTime: 0,
  });
  const handle = useMemo(() => {
    if (!q.data) return null;
    const h = createRunStore();
    h.load(q.data.events, q.data.meta.origin === 'imported' ? 'report' : 'history');
    return h;
  }, [q.data]);
  return (
    <section aria-labelledby="saved-h">
      <h1 id="saved-h">{q.data ? `Run of ${q.data.meta.agentName ?? q.data.meta.agentUrl}` : 'Saved run'}</h1>
      <p>
        <Link to="/history">Back to history</Link>
        {q.data
          ? ` · ${q.data.meta.origin === 'imported' ? 'opened from a report file' : 'recorded in this browser'} · started ${fmtDate(q.data.meta.startedAt)}`
          : ''}
      </p>
      {q.data ? (
        <p>
          <button
            type="button"
            disabled={!idle}
            onClick={() => {
              navigate('/');
              void session.replay(q.data.events);
            }}
          >
            Replay live
          </button>{' '}
          <span className="help">Plays the recorded events back in the Run view, as they arrived.</span>
        </p>
      ) : null}
      {q.isPending ? <p>Loading…</p> : null}
      {q.isError ? <Notice kind="error">{String(q.error)}</Notice> : null}
      {handle ? (
        <RunStoreProvider value={handle}>
          <RunViewer />
        </RunStoreProvider>
      ) : null}
    </section>
  );
}
