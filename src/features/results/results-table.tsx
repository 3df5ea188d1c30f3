import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import type { CheckRunState } from '../../lib/engine';
import { SelectField } from '../../components/select-field';
import { StatusChip } from '../../components/status-chip';
import { fmtMs } from '../../lib/format';
import { useRunChecks, useRunSelector } from '../../lib/run-store';
import { CheckDetails, flashClass, RerunButton, useRerunOutcome } from './check-details';
import { setCategoryFilter, useCategoryFilter } from './category-filter';
import { CATEGORY_LABEL, groupChecks, matches, NO_FILTER, type ResultFilter } from './filter';

const STATUS_OPTIONS = [
  { value: 'all', label: 'All statuses' },
  { value: 'pass', label: 'Pass' },
  { value: 'fail', label: 'Fail' },
  { value: 'advisory', label: 'Advisory' },
  { value: 'skip', label: 'Skipped' },
  { value: 'error', label: 'Tool error' },
  { value: 'running', label: 'Running' },
] as const;
const CATEGORY_OPTIONS = [
  { value: 'all', label: 'All categories' },
  ...Object.entries(CATEGORY_LABEL).map(([value, label]) => ({ value: value as ResultFilter['category'], label })),
] as const;
const LEVEL_OPTIONS = [
  { value: 'all', label: 'All levels' },
  { value: 'MUST', label: 'MUST' },
  { value: 'SHOULD', label: 'SHOULD' },
  { value: 'MAY', label: 'MAY' },
] as const;

/** The results table (named "Results"), grouped by category, filterable, rows expand to the details. */
export function ResultsTable() {
  const checks = useRunChecks();
  const runId = useRunSelector((s) => s.run.runId);
  // The category is shared with the verdict's category tiles (a tile shows its results); status and level are local.
  const [local, setLocal] = useState<Omit<ResultFilter, 'category'>>(NO_FILTER);
  const category = useCategoryFilter(runId);
  const filter = useMemo<ResultFilter>(() => ({ ...local, category }), [local, category]);
  const setFilter = (f: ResultFilter) => {
    setLocal({ status: f.status, level: f.level });
    setCategoryFilter(runId, f.category);
  };
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const groups = useMemo(() => groupChecks(checks, filter), [checks, filter]);
  const tableRef = useRef<HTMLTableElement>(null);
  // The inspector's link back to a check: show its row (filters cleared if they hide it), opened and focused.
  // Each request (a new `seq`) is applied once, while rendering: `checks` and `filter` are read as they are then.
  const focus = useRunSelector((s) => s.checkFocus);
  const [applied, setApplied] = useState<{ seq: number; id: string | null } | null>(null);
  if (focus && focus.seq !== applied?.seq) {
    const c = checks.find((x) => x.id === focus.id);
    setApplied({ seq: focus.seq, id: c ? focus.id : null });
    if (c && !matches(c, filter)) setLocal(NO_FILTER);
    if (c) setOpen((prev) => new Set(prev).add(focus.id));
  }
  // Moving focus is DOM work: after the row is rendered, once per request.
  const focusedSeq = useRef<number | null>(null);
  useEffect(() => {
    if (!applied?.id || focusedSeq.current === applied.seq) return;
    // A category filter that hides the row is cleared here (it is shared: not set while rendering).
    const target = checks.find((x) => x.id === applied.id);
    if (target && category !== 'all' && target.category !== category) {
      setCategoryFilter(runId, 'all');
      return;
    }
    const btn = tableRef.current?.querySelector<HTMLElement>(`tr[data-check="${applied.id.replace(/["\\]/g, '\\$&')}"] .row-toggle`);
    if (btn) {
      focusedSeq.current = applied.seq;
      btn.scrollIntoView({ block: 'center' });
      btn.focus({ preventScroll: true });
    }
  });
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  if (!checks.length) return null;
  return (
    <section className="results" aria-labelledby="results-heading">
      <h2 id="results-heading">Results</h2>
      <div className="filters" role="group" aria-label="Filter results">
        <SelectField label="Status" value={filter.status} options={STATUS_OPTIONS} onChange={(status) => setFilter({ ...filter, status })} />
        <SelectField label="Category" value={filter.category} options={CATEGORY_OPTIONS} onChange={(category) => setFilter({ ...filter, category })} />
        <SelectField label="Level" value={filter.level} options={LEVEL_OPTIONS} onChange={(level) => setFilter({ ...filter, level })} />
      </div>
      <div className="results-wrap">
        <table ref={tableRef} className="results-table stack-on-phone" aria-label="Results">
          <thead>
            <tr>
              <th scope="col">Status</th>
              <th scope="col">Check</th>
              <th scope="col">Level</th>
              <th scope="col">Time</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          {groups.map((g) => (
            <tbody key={g.category} aria-label={CATEGORY_LABEL[g.category]}>
              <tr className="group-row">
                <th scope="rowgroup" colSpan={5}>
                  {CATEGORY_LABEL[g.category]} ({g.rows.length})
                </th>
              </tr>
              {g.rows.map((c) => (
                <ResultRow key={c.id} check={c} open={open.has(c.id)} onToggle={() => toggle(c.id)} />
              ))}
            </tbody>
          ))}
        </table>
      </div>
      {groups.length === 0 ? <p>No result matches these filters.</p> : null}
    </section>
  );
}

function ResultRow({ check, open, onToggle }: { check: CheckRunState; open: boolean; onToggle: () => void }) {
  const r = check.result;
  const detailsId = `details-${check.id}`;
  const outcome = useRerunOutcome(check.id);
  return (
    <Fragment>
      <tr className={`result-row status-${check.status}${flashClass(outcome)}`} data-check={check.id}>
        <td className="col-status">
          {/* A check a stopped run never ran is "not run", never "skipped" (nothing was judged). */}
          <StatusChip status={check.status === 'skip' && r?.skipKind === 'not-run' ? 'not-run' : check.status} />
        </td>
        <th scope="row" className="col-test">
          <button type="button" className="linklike row-toggle" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
            {check.title}
          </button>
          <div className="check-id">{check.id}</div>
        </th>
        <td className="col-level">{check.level}</td>
        <td className="col-time">{r ? fmtMs(r.duration_ms) : '…'}</td>
        <td className="col-actions">
          <RerunButton checkId={check.id} title={check.title} />
        </td>
      </tr>
      {open ? (
        <tr id={detailsId} className="details-row">
          <td colSpan={5}>
            <CheckDetails check={check} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}
