import type { CheckResult, CheckRunState } from '../../lib/engine';
import { openInConsole } from '../../lib/console-link';
import { STATUS_LABEL, toolErrorText } from '../../lib/format';
import { useRunSession, useSessionState } from '../../lib/run-session';
import { useRunSelector, useRunStoreHandle, type RerunOutcome } from '../../lib/run-store';

/** The details of one result: message, why (skip/advisory/tool error), spec sentences, evidence, fix. */
export function CheckDetails({
  check,
  showMessage = true,
  showRecommendation = true,
}: {
  check: CheckRunState;
  showMessage?: boolean;
  showRecommendation?: boolean;
}) {
  const handle = useRunStoreHandle();
  const r = check.result;
  if (!r) return <p>Still running.</p>;
  return (
    <dl className="check-details">
      {showMessage ? (
        <>
          <dt>Message</dt>
          <dd>{r.message}</dd>
        </>
      ) : null}
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
      <dt>What the spec says</dt>
      <dd>
        <RequirementQuotes result={r} />
      </dd>
      {r.evidence.length ? (
        <>
          <dt>Evidence</dt>
          <dd>
            <ul className="evidence">
              {r.evidence.map((ev, i) => (
                <li key={i}>
                  <span className="ev-label">{ev.label}</span>
                  {ev.path && ev.path !== ev.label ? (
                    <>
                      {' '}
                      <code className="ev-path">{ev.path}</code>
                    </>
                  ) : null}
                  : <code className="ev-value">{ev.value}</code>{' '}
                  {ev.exchangeId ? (
                    <>
                      <button type="button" className="linklike" onClick={() => handle.reveal(ev.exchangeId!, check.id)}>
                        Open exchange {ev.exchangeId} in the wire inspector
                      </button>{' '}
                      <OpenInConsoleButton exchangeId={ev.exchangeId} checkId={check.id} />
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
      {showRecommendation ? (
        <>
          <dt>Recommendation</dt>
          <dd>{r.recommendation ?? (r.status === 'pass' ? 'Nothing to fix.' : '–')}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** Loads the exchange's request into the console, editable and ready to send again (with this run's credentials). */
function OpenInConsoleButton({ exchangeId, checkId }: { exchangeId: string; checkId: string }) {
  const session = useRunSession();
  const x = useRunSelector((s) => s.run.exchanges[exchangeId]);
  const agentUrl = useRunSelector((s) => s.run.agentUrl);
  const runId = useRunSelector((s) => s.run.runId);
  if (!x) return null;
  const credentials = session.input && session.input.agentUrl === agentUrl ? session.input.credentials : undefined;
  return (
    <button type="button" className="linklike" onClick={() => openInConsole({ exchange: x, agentUrl, runId, checkId, credentials })}>
      Open in console: exchange {exchangeId}
    </button>
  );
}

const SKIP_TEXT: Record<NonNullable<CheckResult['skipKind']>, string> = {
  precondition: 'The situation to test could not be set up, so this requirement stays unverified.',
  'not-applicable': 'Not applicable to this agent (feature not declared, or another protocol generation).',
  'tool-limit': 'Our time or size budget ended before the agent finished: not judged, never counted against the agent.',
  credentials: 'The agent refused the call for lack of (valid) credentials: enter them and run again.',
  unreachable: 'Nothing answered at the endpoint, so the agent was not reached: not assessed.',
  'not-run': 'Not run: the run was stopped before this check ran or finished. Nothing was judged.',
};

/** The sentences the check enforces in the generation spoken, quoted, with the section they come from. */
function RequirementQuotes({ result }: { result: CheckResult }) {
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

const OUTCOME_WORDS: Record<string, string> = { pass: 'passes', fail: 'fails', skip: 'skipped', advisory: 'an advisory', error: 'a tool error' };

/** "still fails", "now passes", …: what a re-run changed, in words. */
export function rerunText(o: RerunOutcome): string {
  if (o.after === null) return 'the re-run gave no result';
  const after = OUTCOME_WORDS[o.after] ?? STATUS_LABEL[o.after] ?? o.after;
  return o.before === o.after ? `still ${after}` : `now ${after}`;
}

/** The outcome of the last re-run of a check (role status: announced when it arrives). */
export function useRerunOutcome(checkId: string): RerunOutcome | undefined {
  return useRunSelector((s) => s.reruns[checkId]);
}

/** Alternating class that restarts the row's flash animation on every re-run outcome. */
export const flashClass = (o: RerunOutcome | undefined) => (o ? ` flash-${o.seq % 2 ? 'a' : 'b'}` : '');

export function RerunButton({ checkId, title }: { checkId: string; title: string }) {
  const session = useRunSession();
  const handle = useRunStoreHandle();
  const busy = useSessionState((s) => s.phase !== 'idle' || s.rerunning !== null);
  const rerunning = useSessionState((s) => s.rerunning === checkId);
  const canRerun = useRunSelector((s) => s.run.status !== 'running' && !!s.run.agentUrl);
  const outcome = useRerunOutcome(checkId);
  return (
    <span className="rerun">
      <button type="button" disabled={busy || !canRerun} aria-label={`Re-run ${title}`} onClick={() => void session.rerun(handle, checkId)}>
        {rerunning ? (
          <>
            <span className="spinner" aria-hidden="true" /> Re-running…
          </>
        ) : (
          'Re-run'
        )}
      </button>
      <span className={`rerun-outcome${outcome?.after === 'pass' ? ' outcome-pass' : ''}`} role="status">
        {rerunning ? 'Re-running: the earlier result stays until the new one lands' : outcome ? `Re-run: ${rerunText(outcome)}` : ''}
      </span>
    </span>
  );
}
