import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { CHANGE_LABELS, compareRuns, previousRunOf, sameAgent, type CheckChange, type Comparison } from '../../engine/report/compare';
import { applyEvents, initialRunState, resultsOf, type SkipKind } from '../../lib/engine';
import { Notice } from '../../components/notice';
import { StatusChip } from '../../components/status-chip';
import { runsQueryKey, useArchive } from '../../lib/archive-context';
import type { RunArchive, RunMeta } from '../../lib/db';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import { LevelChip } from './level-chip';
import './history.css';

const agentLabel = (m: RunMeta) => m.agentName ?? m.agentUrl;
const runLabel = (m: RunMeta) => `${agentLabel(m)} at ${fmtDate(m.startedAt)}`;

const SKIP_WHY: Record<SkipKind, string> = {
  'not-applicable': 'feature not declared',
  precondition: 'precondition not met',
  'tool-limit': 'our time budget ran out',
  credentials: 'credentials needed',
  unreachable: 'endpoint unreachable',
  'not-run': 'not run (stopped)',
};

interface Compared {
  before: RunMeta;
  after: RunMeta;
  result: Comparison;
}

/** Loads two runs' events and compares the later one with the earlier one (engine/report/compare.ts). */
async function loadComparison(archive: RunArchive, metas: RunMeta[]): Promise<Compared> {
  const [before, after] = [...metas].sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId));
  if (!before || !after) throw new Error('Pick two runs to compare.');
  const [ea, eb] = await Promise.all([archive.events(before.runId), archive.events(after.runId)]);
  const side = (m: RunMeta, events: Awaited<ReturnType<RunArchive['events']>>) => ({
    level: m.level,
    notAssessed: m.notAssessed,
    provisional: m.provisional,
    results: resultsOf(applyEvents(initialRunState(), events)),
  });
  return { before, after, result: compareRuns(side(before, ea), side(after, eb)) };
}

/** Past runs: list, open, delete, compare two (or a run with the same agent's previous run). */
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
  const [comparison, setComparison] = useState<Compared | null>(null);
  const del = useMutation({
    mutationFn: (runId: string) => archive.delete(runId),
    onSuccess: (_, runId) => {
      setPicked((p) => p.filter((id) => id !== runId));
      setConfirming(null);
      setComparison((c) => (c && (c.before.runId === runId || c.after.runId === runId) ? null : c));
      void qc.invalidateQueries({ queryKey: runsQueryKey });
    },
  });
  const compare = useMutation({
    mutationFn: (ids: string[]) =>
      loadComparison(
        archive,
        (runs.data ?? []).filter((m) => ids.includes(m.runId)),
      ),
    onSuccess: (c) => {
      setComparison(c);
      setPicked([c.before.runId, c.after.runId]);
    },
  });
  const list = runs.data ?? [];
  const previousOf = (m: RunMeta) => previousRunOf(list, m);
  const toggle = (id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : [...p.slice(-1), id]));
  return (
    <section className="history" aria-labelledby="history-heading">
      <h1 id="history-heading">Run history</h1>
      <p>Runs are saved in this browser (IndexedDB) as they progress. Credentials are never saved with them.</p>
      {runs.isError ? (
        <Notice kind="error" title="Could not read the history.">
          {String(runs.error)} IndexedDB may be disabled (private mode).
        </Notice>
      ) : null}
      {runs.data && !runs.data.length ? <p>No runs yet. Run the suite or open a report.</p> : null}
      {list.length ? (
        <>
          <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Past runs (scrolls sideways on narrow screens)">
            <table className="history-table cards-on-phone" aria-label="Past runs">
              <thead>
                <tr>
                  <th scope="col">Compare</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Date</th>
                  <th scope="col">Level</th>
                  <th scope="col">Passed</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Advisories</th>
                  <th scope="col">Skipped</th>
                  <th scope="col">Tool errors</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((m) => {
                  const prev = previousOf(m);
                  return (
                    <tr key={m.runId}>
                      <td data-label="Compare">
                        <input
                          type="checkbox"
                          aria-label={`Select ${runLabel(m)} for comparison`}
                          checked={picked.includes(m.runId)}
                          onChange={() => toggle(m.runId)}
                        />
                      </td>
                      <th scope="row">
                        <span className="untrusted-text">{agentLabel(m)}</span>
                        <div className="check-id">{m.agentUrl}</div>
                      </th>
                      <td data-label="Date">{fmtDate(m.startedAt)}</td>
                      <td data-label="Level">
                        <LevelChip level={m.level} notAssessed={m.notAssessed} provisional={m.provisional} />
                      </td>
                      <td className="num" data-label="Passed">
                        {m.summary.passed}
                      </td>
                      <td className="num" data-label="Failed">
                        {m.summary.failed}
                      </td>
                      <td className="num" data-label="Advisories">
                        {m.summary.advisories ?? 0}
                      </td>
                      <td className="num" data-label="Skipped">
                        {m.summary.skipped}
                      </td>
                      <td className="num" data-label="Tool errors">
                        {m.summary.errors}
                      </td>
                      <td data-label="Status">
                        {m.status}
                        {m.origin === 'imported' ? ' (imported)' : ''}
                      </td>
                      <td className="row-actions" data-label="Actions">
                        <Link to={`/runs/${encodeURIComponent(m.runId)}`} aria-label={`Open run of ${runLabel(m)}`}>
                          Open
                        </Link>{' '}
                        {prev ? (
                          <>
                            <button
                              type="button"
                              disabled={compare.isPending}
                              aria-label={`Compare with previous run of this agent: ${runLabel(m)}`}
                              onClick={() => compare.mutate([prev.runId, m.runId])}
                            >
                              Compare with previous
                            </button>{' '}
                          </>
                        ) : null}
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
                          <button type="button" aria-label={`Delete run of ${runLabel(m)}`} onClick={() => setConfirming(m.runId)}>
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })}
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
      {comparison ? (
        <ComparisonView
          key={`${comparison.before.runId}:${comparison.after.runId}`}
          {...comparison}
          previousOfAfter={previousOf(comparison.after)}
          busy={compare.isPending}
          onCompare={(ids) => compare.mutate(ids)}
        />
      ) : null}
    </section>
  );
}

function changeText(c: CheckChange): string {
  if (c.kind === 'not-applicable' && c.skipKind) return `${CHANGE_LABELS[c.kind]} (${SKIP_WHY[c.skipKind]})`;
  return CHANGE_LABELS[c.kind];
}

const statusCell = (s: CheckChange['before']) => (s === 'absent' ? 'not run' : <StatusChip status={s} />);

function ComparisonView({
  before,
  after,
  result,
  previousOfAfter,
  busy,
  onCompare,
}: Compared & { previousOfAfter: RunMeta | undefined; busy: boolean; onCompare: (ids: string[]) => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The comparison appears below the list: take the reader there.
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'start' });
    heading.current?.focus();
  }, []);
  const different = !sameAgent(before, after);
  const offerPrevious = different && previousOfAfter && previousOfAfter.runId !== before.runId;
  return (
    <section className="comparison" aria-labelledby="comparison-heading">
      <h2 id="comparison-heading" ref={heading} tabIndex={-1}>
        Comparison
      </h2>
      <p className="runs">
        Earlier: <span className="untrusted-text">{agentLabel(before)}</span> at {fmtDate(before.startedAt)}{' '}
        <LevelChip level={before.level} notAssessed={before.notAssessed} provisional={before.provisional} />
        <br />
        Later: <span className="untrusted-text">{agentLabel(after)}</span> at {fmtDate(after.startedAt)}{' '}
        <LevelChip level={after.level} notAssessed={after.notAssessed} provisional={after.provisional} />
      </p>
      <p className="compare-summary" role="status" aria-label="Comparison summary">
        {result.summary}
      </p>
      {different ? (
        <Notice kind="warn" title="These runs are of different agents.">
          The earlier run tested <span className="untrusted-text">{before.agentUrl}</span>, the later one{' '}
          <span className="untrusted-text">{after.agentUrl}</span>: the differences below are between two agents, not changes of one agent.{' '}
          {offerPrevious ? (
            <button type="button" disabled={busy} onClick={() => onCompare([previousOfAfter.runId, after.runId])}>
              Compare with this agent's previous run
            </button>
          ) : (
            'This browser has no earlier run of the later agent.'
          )}
        </Notice>
      ) : null}
      {result.changes.length === 0 ? (
        <p>No check changed status.</p>
      ) : (
        <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Changed checks (scrolls sideways on narrow screens)">
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
              {result.changes.map((c) => (
                <tr key={c.id}>
                  <th scope="row">
                    {c.title}
                    <div className="check-id">{c.id}</div>
                  </th>
                  <td>{statusCell(c.before)}</td>
                  <td>{statusCell(c.after)}</td>
                  <td>{changeText(c)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
