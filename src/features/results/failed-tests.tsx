import { Fragment, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { StatusChip } from '../../components/status-chip';
import { isInformational, type CheckRunState } from '../../lib/engine';
import { toolErrorText } from '../../lib/format';
import { useRunChecks, useRunSelector, useRunStoreHandle, type RunStoreState } from '../../lib/run-store';
import { CheckDetails, flashClass, RerunButton, useRerunOutcome } from './check-details';
import { CATEGORY_LABEL } from './filter';

/**
 * The exchange a failure is best shown with: its first evidence exchange, else the check's first exchange,
 * else (card checks judge the card fetched once by discovery) the exchange that fetched the card.
 */
function useExchangeOf(check: CheckRunState): string | undefined {
  const fromEvidence = check.result?.evidence.find((e) => e.exchangeId)?.exchangeId;
  return useRunSelector(
    (s: RunStoreState) =>
      fromEvidence ??
      s.run.exchangeOrder.find((id) => s.run.exchanges[id]?.checkId === check.id) ??
      (check.category === 'agent-card' ? [...(s.run.targets.agent?.attempts ?? [])].reverse().find((a) => a.ok && a.exchangeId)?.exchangeId : undefined),
  );
}

function FailureRow({ check, open, onToggle }: { check: CheckRunState; open: boolean; onToggle: () => void }) {
  const r = check.result;
  const detailsId = `failure-${check.id}`;
  const outcome = useRerunOutcome(check.id);
  const handle = useRunStoreHandle();
  const exchangeId = useExchangeOf(check);
  if (!r) return null;
  return (
    <Fragment>
      <tr className={`failure-row status-${check.status}${open ? ' open' : ''}${flashClass(outcome)}`}>
        <td className="col-status">
          <StatusChip status={check.status} />
        </td>
        <th scope="row" className="col-test">
          <button type="button" className="linklike row-toggle" aria-expanded={open} aria-controls={detailsId} onClick={onToggle}>
            <span aria-hidden="true" className="disclosure">
              {open ? '▾' : '▸'}
            </span>{' '}
            {r.test}
          </button>
          <div className="check-id">
            {r.id} · {r.level} · {CATEGORY_LABEL[r.category]}
            {r.critical ? ' · critical' : ''}
          </div>
        </th>
        <td className="col-msg">{r.message}</td>
        <td className="col-rec">{r.recommendation ?? '–'}</td>
      </tr>
      {open ? (
        <tr id={detailsId} className="details-row failure-details">
          <td colSpan={4}>
            <div className="failure-actions">
              <button type="button" className="primary" disabled={!exchangeId} onClick={() => exchangeId && handle.reveal(exchangeId, check.id)}>
                Open exchange
              </button>
              <RerunButton checkId={check.id} title={r.test} />
            </div>
            <CheckDetails check={check} showMessage={false} showRecommendation={false} />
          </td>
        </tr>
      ) : null}
    </Fragment>
  );
}

/**
 * Failures first (the report's "Failed tests" part): each required failure with its message and fix; a row expands in place to
 * the spec sentence, the evidence, Open exchange and Re-run (which says "still fails" or "now passes"). Then
 * the advisories (never lower the level) and our tool's errors, kept apart from the agent's failures.
 */
export function FailedTests() {
  const checks = useRunChecks();
  const rerun = useRunSelector(useShallow((s: RunStoreState) => Object.keys(s.reruns).filter((id) => s.reruns[id]?.before === 'fail')));
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const { failed, advisories, findings, errors } = useMemo(() => {
    const wasFailing = new Set(rerun);
    return {
      // A failure that was re-run stays listed (with "now passes") so the outcome is not lost from view.
      failed: checks.filter((c) => c.result && (c.status === 'fail' || wasFailing.has(c.id))),
      advisories: checks.filter((c) => c.status === 'advisory' && !isInformational(c)),
      // The security review: informational findings, listed apart (never a failure, never part of the level).
      findings: checks.filter((c) => isInformational(c) && (c.status === 'advisory' || c.status === 'fail')),
      errors: checks.filter((c) => c.status === 'error'),
    };
  }, [checks, rerun]);
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <>
      {failed.length ? (
        <section className="failures" aria-labelledby="failed-heading">
          <h2 id="failed-heading">Failed tests ({failed.filter((c) => c.status === 'fail').length})</h2>
          <table className="failed-table stack-on-phone" aria-label="Failed tests">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Test</th>
                <th scope="col">Message</th>
                <th scope="col">Recommendation</th>
              </tr>
            </thead>
            <tbody>
              {failed.map((c) => (
                <FailureRow key={c.id} check={c} open={open.has(c.id)} onToggle={() => toggle(c.id)} />
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {advisories.length ? (
        <section className="advisories" aria-labelledby="advisories-heading">
          <h2 id="advisories-heading">Advisories ({advisories.length})</h2>
          <details>
            <summary>Shown for information; they never lower the level</summary>
            <ul className="advisory-list">
              {advisories.map((c) => (
                <li key={c.id}>
                  <strong>{c.title}</strong> <span className="check-id">{c.id}</span>
                  <p>{c.result?.message}</p>
                  {c.result?.advisoryReason ? <p className="help">Why only an advisory: {c.result.advisoryReason}</p> : null}
                </li>
              ))}
            </ul>
          </details>
        </section>
      ) : null}
      {findings.length ? (
        <section className="security-findings" aria-labelledby="security-heading">
          <h2 id="security-heading">Security review ({findings.length})</h2>
          <p className="help">Informational: what we noticed in the public card and endpoints. These findings never change the conformance level.</p>
          <ul className="advisory-list">
            {findings.map((c) => (
              <li key={c.id}>
                <strong>{c.title}</strong> <span className="check-id">{c.id} · informational</span>
                <p>{c.result?.message}</p>
                {c.result?.evidence.slice(0, 5).map((e, i) => (
                  <p key={i} className="help">
                    {e.label}: <code>{e.value}</code>
                  </p>
                ))}
                {c.result?.recommendation ? <p className="help">Fix: {c.result.recommendation}</p> : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {errors.length ? (
        <section aria-labelledby="tool-errors-heading">
          <h2 id="tool-errors-heading">Checks our tool could not run</h2>
          <p>These are not the agent's failures; they make the level provisional.</p>
          <ul className="tool-errors">
            {errors.map((c) => (
              <li key={c.id}>
                <strong>{c.title}</strong>: {toolErrorText(c.result?.proxyError)} {c.result?.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
