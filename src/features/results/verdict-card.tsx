import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { CATEGORIES, failureTally, failureWords, isInformational, summarize, timingOf, verdictOf, type Category, type CheckRunState } from '../../lib/engine';
import { checkCatalogSize } from '../../lib/engine-adapter';
import { VERDICT_HEADING_ID } from '../../lib/focus-request';
import { CATEGORY_LABEL, NOT_ASSESSED_LABELS } from '../../lib/format';
import { useRunChecks, useRunResults, useRunSelector } from '../../lib/run-store';
import { setCategoryFilter, useCategoryFilter } from './category-filter';

const RUN_STATUS_TEXT: Record<string, string> = {
  idle: 'No run yet',
  running: 'Running…',
  completed: 'Completed',
  interrupted: 'Interrupted: partial results',
  errored: 'Errored: our tool failed during the run',
};

/** What stands in place of a level: a stopped run and a run of selected checks were judged, just not whole. */
const noLevelName = (reason: string | undefined) => (reason === 'stopped' ? 'stopped' : reason === 'selected-checks' ? 'selected checks' : 'not assessed');
/** The results a level is made of (the informational security review aside), as the engine counts "Stopped at N/M". */
const leveled = <T extends { category: Category }>(rs: readonly T[]) => rs.filter((r) => !isInformational(r));
/** Results that were judged (not the "not run" ones a stop leaves). */
const judgedCount = (rs: readonly { status: string; skipKind?: string }[]) => rs.filter((r) => !(r.status === 'skip' && r.skipKind === 'not-run')).length;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The full catalogue size once the runner has loaded (the denominator of "Running 41/76"). */
function usePlannedChecks(running: boolean, only: readonly string[] | undefined): number | undefined {
  const [size, setSize] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (!running || size !== undefined) return undefined;
    let live = true;
    checkCatalogSize().then(
      (n) => live && setSize(n),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [running, size]);
  return only?.length ? only.length : size;
}

interface Tile {
  category: Category;
  started: number;
  done: number;
  pass: number;
  fail: number;
  advisory: number;
  skip: number;
  error: number;
  /** Checks a stopped run never ran (or never finished): nothing was judged, so never "skipped". */
  notRun: number;
}

function tilesOf(checks: readonly CheckRunState[]): Tile[] {
  const tiles = new Map<Category, Tile>(
    CATEGORIES.map((c) => [c, { category: c, started: 0, done: 0, pass: 0, fail: 0, advisory: 0, skip: 0, error: 0, notRun: 0 }]),
  );
  for (const c of checks) {
    const t = tiles.get(c.category)!;
    t.started++;
    if (c.status !== 'running') {
      t.done++;
      if (c.status === 'skip' && c.result?.skipKind === 'not-run') t.notRun++;
      else t[c.status]++;
    }
  }
  // The informational security review gets a tile only when its checks ran (older reports and --only runs have none).
  return [...tiles.values()].filter((t) => !isInformational(t) || t.started > 0);
}

/**
 * One category: counts in words (colour never carries the meaning alone) and a small bar. Once the run has ended
 * the tile is a button that shows its category's results (pressed while the Results are filtered to it).
 */
function CategoryTile({ tile, running, runId }: { tile: Tile; running: boolean; runId: string | undefined }) {
  const shown = useCategoryFilter(runId);
  // The security review is informational: its tile says so, and its findings are never shown as failures.
  const info = isInformational(tile);
  const name = info ? `${CATEGORY_LABEL[tile.category]} (informational)` : CATEGORY_LABEL[tile.category];
  if (running) {
    const pct = tile.started ? (tile.done / tile.started) * 100 : 0;
    return (
      <li className="cat-tile">
        <span className="cat-name">{name}</span>
        <span className="cat-counts">{tile.started ? `${tile.done} of ${tile.started} done` : 'not started'}</span>
        <span className="cat-bar" aria-hidden="true">
          <span className="seg seg-progress" style={{ width: `${pct}%` }} />
        </span>
      </li>
    );
  }
  const total = tile.done || 1;
  const parts: [keyof Tile & string, string][] = [
    ['pass', 'pass'],
    ['fail', 'fail'],
    ['advisory', info ? 'finding' : 'advisory'],
    ['skip', 'skipped'],
    ['error', 'tool error'],
    ['notRun', 'not run'],
  ];
  const words = parts.filter(([k]) => (tile[k] as number) > 0).map(([k, label]) => `${tile[k] as number} ${label}`);
  const pressed = shown === tile.category;
  const show = () => {
    setCategoryFilter(runId, pressed ? 'all' : tile.category);
    // The results are the point of the click: bring them (filtered) into view, focus on their heading.
    requestAnimationFrame(() => {
      const h = document.getElementById('results-heading');
      if (!h) return;
      if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
      h.scrollIntoView?.({ block: 'start' });
      h.focus({ preventScroll: true });
    });
  };
  const counts = words.length ? words.join(' · ') : 'no checks';
  return (
    <li className={`cat-tile${tile.fail ? ' cat-has-fail' : ''}${pressed ? ' cat-shown' : ''}`}>
      {/* Named by what it shows (the category and its counts); pressed while the Results show only this category. */}
      <button type="button" className="cat-button" aria-pressed={pressed} aria-describedby="cat-button-hint" onClick={show}>
        <span className="cat-name">{name}</span> <span className="cat-counts">{counts}</span>
        <span className="cat-bar" aria-hidden="true">
          {parts.map(([k]) =>
            (tile[k] as number) > 0 ? <span key={k} className={`seg seg-${k}`} style={{ width: `${((tile[k] as number) / total) * 100}%` }} /> : null,
          )}
        </span>
      </button>
    </li>
  );
}

/**
 * The verdict card (region "Verdict"): neutral progress while the run goes on (no level, no red: checks
 * finish in any order and the level is decided at the end), then the level badge (role status, named
 * "Conformance level"), the agent, required failures apart from advisories, one tile per category, and a
 * not-assessed outcome as its own state.
 */
/** 0.4 s, 12.3 s, 2 min 5 s. */
function formatSeconds(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/**
 * `children`: what the page puts right under the verdict line (the run view's "Jump to" links), so the first Tab from
 * the verdict heading, which gets focus when a run ends, reaches "Skip to first failure" before the category tiles.
 */
export function VerdictCard({ children }: { children?: ReactNode } = {}) {
  const status = useRunSelector((s) => s.run.status);
  const error = useRunSelector((s) => s.run.error);
  const results = useRunResults();
  const checks = useRunChecks();
  const run = useRunSelector((s) => s.run);
  const running = status === 'running';
  // The level is computed only once the run has ended: a live run never shows (or announces) one.
  const verdict = useMemo(() => (running ? null : verdictOf(run)), [run, running]);
  // Time to verdict and what decided it (the report's timing section), once the run has ended.
  const timing = useMemo(() => (running ? undefined : timingOf(run)), [run, running]);
  const summary = useMemo(() => summarize(results), [results]);
  const tally = useMemo(() => failureTally(results), [results]);
  const runId = useRunSelector((s) => s.run.runId);
  const tiles = useMemo(() => tilesOf(checks), [checks]);
  const notice = useRunSelector((s) => s.notice);
  const agent = useRunSelector((s) => s.run.targets.agent);
  const agentUrl = useRunSelector((s) => s.run.agentUrl);
  const startedAt = useRunSelector((s) => s.run.startedAt);
  const only = useRunSelector((s) => s.run.options?.only);
  const planned = usePlannedChecks(running, only);
  if (status === 'idle') return null;
  const card = (agent?.normalizedCard ?? {}) as { name?: unknown; version?: unknown };
  const name = typeof card.name === 'string' && card.name ? card.name : (agentUrl ?? 'Agent');
  const done = results.length;
  const total = Math.max(planned ?? 0, checks.length);
  const na = verdict && verdict.level === null;
  const levelClass = running ? 'level-running' : `level-${verdict?.level ?? 'not-assessed'}`;
  return (
    <section className={`verdict-card ${levelClass}`} aria-label="Verdict">
      <div className="verdict-top">
        <div className={`level ${levelClass}`} role="status" aria-label="Conformance level">
          {running ? (
            <span className="level-name">Running</span>
          ) : (
            <>
              <span className="level-name">{verdict?.level ?? noLevelName(verdict?.notAssessed?.reason)}</span>
              {na && verdict?.notAssessed ? (
                <span className="level-na-reason">
                  {' '}
                  (
                  {verdict.notAssessed.reason === 'stopped'
                    ? `no level: ${judgedCount(leveled(results))}/${leveled(results).length} checks ran`
                    : NOT_ASSESSED_LABELS[verdict.notAssessed.reason]}
                  )
                </span>
              ) : null}
              {verdict?.provisional ? <span className="level-provisional"> (provisional)</span> : null}
            </>
          )}
        </div>
        {running ? (
          <div className="run-progress">
            <span className="progress-text" aria-hidden="true">
              {done}/{total || '…'}
            </span>
            <progress className="progress" max={total || 1} value={done} aria-label={`Checks finished: ${done} of ${total}`} />
          </div>
        ) : null}
      </div>
      <h2 id={VERDICT_HEADING_ID} className="level-agent" tabIndex={-1}>
        <strong>{name}</strong>
        {typeof card.version === 'string' && card.version ? <span> {card.version}</span> : null}
        {agent?.generation ? <span> · A2A {agent.generation}</span> : null}
        {agent?.binding ? <span> · {agent.binding}</span> : null}
      </h2>
      <p className="check-id level-url">
        {[name === agentUrl ? null : agentUrl, startedAt ? new Date(startedAt).toLocaleString() : null].filter(Boolean).join(' · ')}
      </p>
      {running ? (
        <p className="verdict-line">Checks finish in any order; the level is decided when the run ends.</p>
      ) : na ? (
        <p className="verdict-line not-assessed-message">{verdict?.notAssessed?.message ?? verdict?.reason}</p>
      ) : (
        <>
          <p className="verdict-line">
            {/* Counted by what lowers the level: MUST and SHOULD apart, the critical ones named. */}
            <strong>{failureWords(tally)}</strong> · {plural(summary.advisories, 'advisory', 'advisories')} (never lower the level)
          </p>
          <p className="level-reason">{verdict?.reason}</p>
        </>
      )}
      {children}
      <p className="run-status">
        Run: <strong>{RUN_STATUS_TEXT[status] ?? status}</strong>
        {error ? <span className="run-error"> ({error})</span> : null}
      </p>
      {timing && run.finishedAt !== undefined ? (
        <p className="run-timing">
          Time to verdict: <strong>{formatSeconds(timing.timeToVerdictMs)}</strong>
          {timing.criticalPath.length ? <span className="check-id"> · decided by {timing.decidedBy}</span> : null}
        </p>
      ) : null}
      {notice ? <p className="run-notice">{notice}</p> : null}
      {checks.length ? (
        <ul className="cat-tiles" aria-label="Results by category">
          {tiles.map((t) => (
            <CategoryTile key={t.category} tile={t} running={running} runId={runId} />
          ))}
        </ul>
      ) : null}
      {/* Describes the tile buttons (a description may point at hidden text). */}
      <p id="cat-button-hint" hidden>
        Shows only this category in the Results table; pressed again, every category.
      </p>
      <dl className="counts" aria-label="Counts">
        <div>
          <dt>Total</dt>
          <dd>{summary.total}</dd>
        </div>
        <div>
          <dt>Passed</dt>
          <dd>{summary.passed}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{summary.failed}</dd>
        </div>
        <div>
          <dt>Advisories</dt>
          <dd>{summary.advisories}</dd>
        </div>
        <div>
          <dt>Skipped</dt>
          <dd>{summary.skipped}</dd>
        </div>
        <div>
          <dt>Tool errors</dt>
          <dd>{summary.errors}</dd>
        </div>
      </dl>
    </section>
  );
}
