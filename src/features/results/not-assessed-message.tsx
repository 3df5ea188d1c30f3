import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { VERDICT_HEADING_ID } from '../../lib/focus-request';
import { judgedWithoutLevel, verdictOf, type NotAssessed, type TargetInfo } from '../../lib/engine';
import { NOT_ASSESSED_LABELS } from '../../lib/format';
import { useRunSelector } from '../../lib/run-store';

/**
 * Outcomes where the agent was never exercised: the page says so in one message (what happened, what to do),
 * not as a report of skipped checks. A stopped run and a run of selected checks judged the agent: they keep
 * their result grid (no level, but results).
 */

/** The not-assessed outcome of the run on screen when it is one the page shows as a message; null otherwise (running, judged, stopped, selected). */
export function useNotAssessedOutcome(): NotAssessed | null {
  const run = useRunSelector((s) => s.run);
  return useMemo(() => {
    if (run.status === 'idle' || run.status === 'running') return null;
    const v = verdictOf(run);
    return v.level === null && v.notAssessed && !judgedWithoutLevel(v.notAssessed.reason) ? v.notAssessed : null;
  }, [run]);
}

const hostOf = (url: string | undefined): string => {
  if (!url) return 'this address';
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** An answer that is an HTML page (a web site, an SPA's fallback), read from the body's first bytes. */
const looksLikeWebPage = (t: TargetInfo | undefined) => !!t?.rawText && /^\s*(<!doctype html|<html|<head|<body|<!--)/i.test(t.rawText);

/** The headline: what happened, in the user's words, and what to do about it. */
function notAssessedHeadline(outcome: NotAssessed, agentUrl: string | undefined, target: TargetInfo | undefined): string {
  const host = hostOf(agentUrl);
  switch (outcome.reason) {
    case 'unreachable':
      return target?.normalizedCard
        ? `The card was read, but nothing is listening at the endpoint it declares — check the card's URL`
        : `Nothing is listening at ${host} — check the port`;
    case 'not-a2a':
      return looksLikeWebPage(target) ? 'This is a web page, not an A2A agent' : `No A2A agent card at ${host} — check the URL`;
    case 'invalid-url':
      return 'This URL cannot be tested — check it';
    case 'credentials-required':
      return 'This agent needs credentials — enter them and try again';
    case 'credentials-rejected':
      return 'The agent refused these credentials — check them';
    case 'untestable':
      return 'The agent could not be exercised';
    case 'tool-limit':
      return 'Our budget ran out before the agent could be judged';
    default:
      return 'Our tool failed before the agent was assessed — this says nothing about the agent';
  }
}

/**
 * The not-assessed state (region "Verdict"): a message, not a report. A heading that says what happened, the
 * engine's explanation, Edit and Try again (when the page can run), and `children` (the JSON export for CI).
 * No level colour, no red, no result grid.
 */
export function NotAssessedMessage({
  outcome,
  onEdit,
  onRetry,
  children,
}: {
  outcome: NotAssessed;
  onEdit?: () => void;
  onRetry?: () => void;
  children?: ReactNode;
}) {
  const agentUrl = useRunSelector((s) => s.run.agentUrl);
  const target = useRunSelector((s) => s.run.targets.agent);
  const status = useRunSelector((s) => s.run.status);
  const headline = notAssessedHeadline(outcome, agentUrl, target);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // The running verdict (which had focus after Run) was just replaced by this message: focus is not left on <body>.
    if (!document.activeElement || document.activeElement === document.body) heading.current?.focus();
  }, []);
  return (
    <section className="verdict-card not-assessed-state level-not-assessed" aria-label="Verdict">
      <h2 id={VERDICT_HEADING_ID} className="na-headline" tabIndex={-1} ref={heading}>
        {headline}
      </h2>
      <p className="level level-not-assessed" role="status" aria-label="Conformance level">
        <span className="level-name">not assessed</span>
        <span className="level-na-reason"> ({NOT_ASSESSED_LABELS[outcome.reason]})</span>
      </p>
      <p className="not-assessed-message">{outcome.message}</p>
      <p className="run-status">
        Run: <strong>{status === 'errored' ? 'Errored: our tool failed during the run' : status === 'interrupted' ? 'Interrupted' : 'Completed'}</strong>
      </p>
      {agentUrl ? <p className="check-id level-url">{agentUrl}</p> : null}
      {onEdit || onRetry ? (
        <div className="na-actions">
          {onEdit ? (
            <button type="button" onClick={onEdit}>
              Edit
            </button>
          ) : null}
          {onRetry ? (
            <button type="button" className="primary" onClick={onRetry}>
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
      {children}
    </section>
  );
}
