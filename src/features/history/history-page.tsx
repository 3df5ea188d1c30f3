import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { applyEvents, initialRunState, resultsOf } from '../../lib/engine';
import { Notice } from '../../components/notice';
import { StatusChip } from '../../components/status-chip';
import { runsQueryKey, useArchive } from '../../lib/archive-context';
import type { RunMeta } from '../../lib/db';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import { compareRuns, type CheckChange } from './compare';

const agentLabel = (m: RunMeta) => m.agentName ?? m.agentUrl;

/** Past runs: list, open, delete, compare two. */
export function HistoryPage() {
  const archive = useArchive();
  const qc = useQueryClient();
  const runs = useQuery({
    queryKey: runsQueryKey,
    queryFn: () => archive.list(),
    staleTime: 0,
    // A run in progress (here or in another tab) updates its row as it is saved.
    refetchInterval: (q) => (q.state.data?.some((m) => m.status === 'running') ? 1000 : false),
  });
  const [picked, setPicked] = useState<string[]>([]);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [comparison, setComparison] = useState<{ before: RunMeta; after: RunMeta; changes: CheckChange[] } | null>(null);
  const del = useMutation({
    mutationFn: (runId: string) => archive.delete(runId),
    onSuccess: (_, runId) => {
      setPicked((p) => p.filter((id) => id !== runId));
      setConfirming(null);
      void qc.invalidateQueries({ queryKey: runsQueryKey });
    },
  });
  const compare = useMutation({
    mutationFn: async (ids: string[]) => {
      const metas = (runs.data ?? []).filter((m) => ids.includes(m.runId)).sort((a, b) => a.startedAt - b.startedAt);
      const [before, after] = metas;
      if (!before || !after) throw new Error('Pick two runs to compare.');
      const [ea, eb] = await Promise.all([archive.events(before.runId), archive.events(after.runId)]);
      const ra = resultsOf(applyEvents(initialRunState(), ea));
      const rb = resultsOf(applyEvents(initialRunState(), eb));
      return { before, after, changes: compareRuns(ra, rb) };
    },
    onSuccess: setComparison,
  });
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  return (
    <section className="history" aria-labelledby="history-heading">
      <h1 id="history-heading">Run history</h1>
      <p>Runs are saved in this browser (IndexedDB) as they progress. Credentials are never saved with them.</p>
      {runs.isError ? <Notice kind="error" title="Could not read the history.">{String(runs.error)} IndexedDB may be disabled (private mode).</Notice> : null}
      {runs.data && !runs.data.length ? <p>No runs yet. Run the suite or open a report.</p> : null}
      {runs.data?.length ? (
        <>
          <div className="table-scroll-x">
            <table className="history-table" aria-label="Past runs">
              <thead>
                <tr>
                  <th scope="col">Compare</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Date</th>
                  <th scope="col">Level</th>
                  <th scope="col">Passed</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Skipped</th>
                  <th scope="col">Tool errors</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {runs.data.map((m) => (
                  <tr key={m.runId}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${agentLabel(m)} at ${fmtDate(m.startedAt)} for comparison`}
                        checked={picked.includes(m.runId)}
                        onChange={() => toggle(m.runId)}
                      />
                    </td>
                    <th scope="row">
                      {agentLabel(m)}
                      <div className="check-id">{m.agentUrl}</div>
                    </th>
                    <td>{fmtDate(m.startedAt)}</td>
                    <td>
                      {m.level ?? 'not assessed'}
                      {m.provisional ? ' (provisional)' : ''}
                    </td>
                    <td>{m.summary.passed}</td>
                    <td>{m.summary.failed}</td>
                    <td>{m.summary.skipped}</td>
                    <td>{m.summary.errors}</td>
                    <td>
                      {m.status}
                      {m.origin === 'imported' ? ' (imported)' : ''}
                    </td>
                    <td className="actions">
                      <Link to={`/runs/${encodeURIComponent(m.runId)}`} aria-label={`Open run of ${agentLabel(m)} at ${fmtDate(m.startedAt)}`}>
                        Open
                      </Link>{' '}
                      {confirming === m.runId ? (
                        <>
                          <button type="button" onClick={() => del.mutate(m.runId)}>
                            Confirm delete
                          </button>{' '}
                          <button type="button" onClick={() => setConfirming(null)}>
                            Keep
                          </button>
                        </>
                      ) : (
                        <button type="button" aria-label={`Delete run of ${agentLabel(m)} at ${fmtDate(m.startedAt)}`} onClick={() => setConfirming(m.runId)}>
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p>
            <button type="button" disabled={picked.length !== 2 || compare.isPending} onClick={() => compare.mutate(picked)}>
              Compare selected runs
            </button>{' '}
            {picked.length !== 2 ? <span>Select two runs to compare.</span> : null}
          </p>
        </>
      ) : null}
      {compare.isError ? <Notice kind="error">{String(compare.error)}</Notice> : null}
      {comparison ? <Comparison {...comparison} /> : null}
    </section>
  );
}

function Comparison({ before, after, changes }: { before: RunMeta; after: RunMeta; changes: CheckChange[] }) {
  return (
    <section className="comparison" aria-labelledby="comparison-heading">
      <h2 id="comparison-heading">Comparison</h2>
      <p>
        {agentLabel(before)} at {fmtDate(before.startedAt)} ({before.level ?? 'not assessed'}) → {agentLabel(after)} at {fmtDate(after.startedAt)} ({after.level ?? 'not assessed'})
      </p>
      {changes.length === 0 ? (
        <p>No check changed status.</p>
      ) : (
        <table aria-label="Changed checks">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
              <th scope="col">Change</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  {c.title}
                  <div className="check-id">{c.id}</div>
                </th>
                <td>{c.before === 'absent' ? 'not run' : <StatusChip status={c.before} />}</td>
                <td>{c.after === 'absent' ? 'not run' : <StatusChip status={c.after} />}</td>
                <td>{c.kind}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
