import { useId, useRef, useState } from 'react';
import { Notice } from '../../components/notice';
import { CATEGORY_LABELS } from '../../exporters/common';
import { fleetHtml, fleetMarkdown, totalsLine, type FleetRow, type FleetSummary } from '../../exporters/fleet-summary';
import type { RunMeta } from '../../lib/db';
import { CATEGORIES, DEFAULT_TIMEOUT_MS, type Report } from '../../lib/engine';
import type { StoredAgent } from '../../lib/registry-db';
import { FLEET_CONCURRENCY, fleetSummaryOf, fleetTargets, levelHistory, runFleet, type FleetTarget } from './fleet-run';
import { LastLevelChip } from './level-chip';

type Phase = { kind: 'idle' } | { kind: 'running'; done: number; total: number } | { kind: 'finished'; summary: FleetSummary; skipped: number };

/**
 * "Run all": every registered agent (or the ones ticked) through the suite, a few at a time, each run kept in the
 * History; then agents x categories with each agent's levels over time, and the summary `a2a-interop run-many`
 * writes (summary.json / .md / .html) to download.
 */
export function FleetPanel({
  list,
  runs,
  runAgent,
  download,
  onFinished,
}: {
  list: readonly StoredAgent[];
  /** The run history: levels over time per agent. */
  runs: readonly RunMeta[];
  runAgent: (target: FleetTarget, signal: AbortSignal) => Promise<Report>;
  download: (filename: string, mimeType: string, body: string) => void;
  /** After a fleet run: the History has new runs. */
  onFinished?: () => void;
}) {
  const uid = useId();
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const [concurrency, setConcurrency] = useState<number>(FLEET_CONCURRENCY.default);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [rows, setRows] = useState<FleetRow[]>([]);
  const abort = useRef<AbortController | null>(null);

  const chosen = new Set(list.filter((s) => !excluded.has(s.id)).map((s) => s.id));
  const running = phase.kind === 'running';

  async function start() {
    const { targets, skipped } = fleetTargets(list, chosen);
    const ctl = new AbortController();
    abort.current = ctl;
    setRows([]);
    setPhase({ kind: 'running', done: 0, total: targets.length });
    const started = performance.now();
    const done = await runFleet(targets, {
      concurrency,
      run: runAgent,
      signal: ctl.signal,
      onRow: (row, n, total) => {
        setRows((r) => [...r, row]);
        setPhase({ kind: 'running', done: n, total });
      },
    });
    abort.current = null;
    setRows(done);
    setPhase({
      kind: 'finished',
      summary: fleetSummaryOf(done, { timeoutMs: DEFAULT_TIMEOUT_MS, wallMs: performance.now() - started }),
      skipped: skipped.length,
    });
    onFinished?.();
  }

  const toggle = (id: string) =>
    setExcluded((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const summary = phase.kind === 'finished' ? phase.summary : undefined;
  const byKey = new Map(list.map((s) => [s.id, s]));
  return (
    <section className="registry-fleet" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`}>Fleet run</h2>
      <p>
        Runs the suite on every agent ticked below, a few at a time; each run is kept in the History. The summary is the one <code>a2a-interop run-many</code>{' '}
        writes.
      </p>
      <fieldset disabled={running}>
        <legend>Agents to run</legend>
        {list.length === 0 ? <p>No agents yet.</p> : null}
        <ul className="registry-fleet-agents">
          {list.map((s) => (
            <li key={s.id}>
              <label>
                <input type="checkbox" checked={chosen.has(s.id)} onChange={() => toggle(s.id)} /> {s.agent.name || s.id}
              </label>
            </li>
          ))}
        </ul>
        <label className="field">
          Agents at once
          <input
            type="number"
            min={1}
            max={FLEET_CONCURRENCY.max}
            value={concurrency}
            onChange={(e) => setConcurrency(Math.max(1, Math.min(FLEET_CONCURRENCY.max, Math.floor(Number(e.target.value)) || 1)))}
            aria-describedby={`${uid}-conc`}
          />
        </label>
        <p id={`${uid}-conc`}>
          At most {FLEET_CONCURRENCY.max}: a browser keeps 6 connections to a site and each agent&apos;s stream holds one, so more would only queue and use up
          the agents&apos; time budgets (the CLI&apos;s <code>run-many</code> has no such limit).
        </p>
      </fieldset>
      <p>
        <button type="button" onClick={() => void start()} disabled={running || chosen.size === 0}>
          {chosen.size === list.length ? `Run all (${chosen.size})` : `Run selected (${chosen.size})`}
        </button>{' '}
        {running ? (
          <button type="button" onClick={() => abort.current?.abort(new Error('stopped'))}>
            Stop fleet run
          </button>
        ) : null}
      </p>
      <div role="status" aria-label="Fleet status">
        {phase.kind === 'running' ? `Fleet run: ${phase.done} of ${phase.total} agents done…` : null}
        {summary
          ? `Fleet run finished: ${totalsLine(summary)}${phase.kind === 'finished' && phase.skipped ? ` (${phase.skipped} without a URL to run)` : ''}`
          : null}
      </div>
      {rows.length ? <FleetTable rows={rows} byKey={byKey} runs={runs} /> : null}
      {summary ? (
        <p className="registry-fleet-exports">
          <button type="button" onClick={() => download('summary.json', 'application/json', `${JSON.stringify(summary, null, 2)}\n`)}>
            Export summary.json
          </button>{' '}
          <button type="button" onClick={() => download('summary.md', 'text/markdown', fleetMarkdown(summary))}>
            Export summary.md
          </button>{' '}
          <button type="button" onClick={() => download('summary.html', 'text/html', fleetHtml(summary))}>
            Export summary.html
          </button>
        </p>
      ) : null}
      {summary?.agents.some((r) => r.outcome !== 'assessed') ? (
        <Notice kind="warn">Agents not assessed are listed with the reason; their runs are in the History.</Notice>
      ) : null}
    </section>
  );
}

/** Agents x categories: the level, passed / failed per category, and the agent's levels over time (History). */
function FleetTable({ rows, byKey, runs }: { rows: readonly FleetRow[]; byKey: ReadonlyMap<string, StoredAgent>; runs: readonly RunMeta[] }) {
  return (
    <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Fleet results (scrolls sideways on narrow screens)">
      <table className="registry-table" aria-label="Fleet results">
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Level</th>
            {CATEGORIES.map((c) => (
              <th scope="col" key={c}>
                {CATEGORY_LABELS[c]}
              </th>
            ))}
            <th scope="col">Levels over time</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const stored = byKey.get(r.key);
            const history = stored ? levelHistory(stored, runs) : [];
            return (
              <tr key={r.key}>
                <th scope="row" className="untrusted-text">
                  {r.name}
                </th>
                <td>
                  {r.levelLabel}
                  {r.message ? <div className="untrusted-text">{r.message}</div> : null}
                </td>
                {CATEGORIES.map((c) => {
                  const cell = r.categories[c];
                  return <td key={c}>{cell.total ? `${cell.passed} passed, ${cell.failed} failed${cell.errors ? `, ${cell.errors} errors` : ''}` : '—'}</td>;
                })}
                <td>
                  {history.length ? (
                    <ol className="registry-fleet-history" aria-label={`Levels over time of ${r.name}`}>
                      {history.map((h) => (
                        <li key={h.runId} title={new Date(h.startedAt).toISOString()}>
                          <LastLevelChip run={h} />
                        </li>
                      ))}
                    </ol>
                  ) : (
                    'no runs yet'
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
