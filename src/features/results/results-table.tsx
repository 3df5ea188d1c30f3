import { Fragment, useMemo, useState } from 'react';
import type { CheckResult, CheckRunState } from '../../lib/engine';
import { SelectField } from '../../components/select-field';
import { StatusChip } from '../../components/status-chip';
import { fmtMs, toolErrorText } from '../../lib/format';
import { useRunSession, useSessionState } from '../../lib/run-session';
import { useRunChecks, useRunSelector, useRunStoreHandle } from '../../lib/run-store';
import { CATEGORY_LABEL, groupChecks, NO_FILTER, type ResultFilter } from './filter';

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
  const [filter, setFilter] = useState<ResultFilter>(NO_FILTER);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const groups = useMemo(() => groupChecks(checks, filter), [checks, filter]);
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
      <div className="table-scroll-x">
        <table className="results-table" aria-label="Results">
          <thead>
            <tr>
              <th scope="col">Check</th>
              <th scope="col">Level</th>
              <th scope="col">Status</th>
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
  return (
    <Fragment>
      <tr className={`result-row status-${check.status}`}>
        <th scope="row">
          <button type="button" className="linklike" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
            {check.title}
          </button>
          <div className="check-id">{check.id}</div>
        </th>
        <td>{check.level}</td>
        <td>
          <StatusChip status={check.status} />
        </td>
        <td>{r ? fmtMs(r.duration_ms) : '…'}</td>
        <td>
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

function CheckDetails({ check }: { check: CheckRunState }) {
  const handle = useRunStoreHandle();
  const r = check.result;
  if (!r) return <p>Still running.</p>;
  return (
    <dl className="check-details">
      <dt>Message</dt>
      <dd>{r.message}</dd>
      {r.status === 'error' ? (
        <>
          <dt>Whose failure</dt>
          <dd>{toolErrorText(r.proxyError)}</dd>
        </>
      ) : null}
      {r.status === 'skip' ? (
        <>
          <dt>Why skipped</dt>
          <dd>{SKIP_TEXT[r.skipKind ?? 'not-applicable']}</dd>
        </>
      ) : null}
      {r.status === 'advisory' ? (
        <>
          <dt>Why only an advisory</dt>
          <dd>{r.advisoryReason ?? 'The specification of this generation does not require it.'} It does not lower the level.</dd>
        </>
      ) : null}
      {r.critical && r.status === 'fail' ? (
        <>
          <dt>Severity</dt>
          <dd>Critical defect</dd>
        </>
      ) : null}
      {r.evidence.length ? (
        <>
          <dt>Evidence</dt>
          <dd>
            <ul className="evidence">
              {r.evidence.map((ev, i) => (
                <li key={i}>
                  <span className="ev-label">{ev.label}</span>
                  {ev.path ? <code className="ev-path">{ev.path}</code> : null}: <code className="ev-value">{ev.value}</code>
                  {ev.exchangeId ? (
                    <button type="button" className="linklike" onClick={() => handle.reveal(ev.exchangeId!)}>
                      Open exchange {ev.exchangeId} in the wire inspector
                    </button>
                  ) : null}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      <dt>What the spec says</dt>
      <dd>
        <RequirementQuotes result={r} />
      </dd>
      <dt>Recommendation</dt>
      <dd>{r.recommendation ?? (r.status === 'pass' ? 'Nothing to fix.' : '–')}</dd>
    </dl>
  );
}

const SKIP_TEXT: Record<NonNullable<CheckResult['skipKind']>, string> = {
  precondition: 'The situation to test could not be set up, so this requirement stays unverified.',
  'not-applicable': 'Not applicable to this agent (feature not declared, or another protocol generation).',
  'tool-limit': 'Our time or size budget ended before the agent finished: not judged, never counted against the agent.',
  credentials: 'The agent refused the call for lack of (valid) credentials: enter them and run again.',
  unreachable: 'Nothing answered at the endpoint, so the agent was not reached.',
};

/** The sentences the check enforces in the generation spoken, quoted, with the section they come from. */
export function RequirementQuotes({ result }: { result: CheckResult }) {
  const req = result.requirement;
  if (!req) return <>{result.specRef ?? '–'}</>;
  return (
    <>
      <p className="req-level">
        {result.level} in {req.release}
      </p>
      {req.sentences.map((s, i) => (
        <blockquote className="requirement" key={i}>
          <p>{s.quote}</p>
          <footer className="req-where">
            {s.doc} {s.section}
            {s.keyword === 'none' ? ' (no requirement word)' : s.keyword === 'required-field' ? ' (required field)' : ` (${s.keyword})`}
          </footer>
        </blockquote>
      ))}
      {req.note ? <p className="req-note">{req.note}</p> : null}
    </>
  );
}

function RerunButton({ checkId, title }: { checkId: string; title: string }) {
  const session = useRunSession();
  const handle = useRunStoreHandle();
  const busy = useSessionState((s) => s.phase !== 'idle' || s.rerunning !== null);
  const rerunning = useSessionState((s) => s.rerunning === checkId);
  const canRerun = useRunSelector((s) => s.run.status !== 'running' && !!s.run.agentUrl);
  return (
    <button type="button" disabled={busy || !canRerun} aria-label={`Re-run ${title}`} onClick={() => void session.rerun(handle, checkId)}>
      {rerunning ? 'Re-running…' : 'Re-run'}
    </button>
  );
}
