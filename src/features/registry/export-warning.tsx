import { useEffect, useId, useRef } from 'react';
import type { PendingExport } from './use-registry';

/** Asks before exporting a card that would fail our own card checks, and offers the v0.3 shape when it fits the agent. */
export function ExportWarning({ pending, onExport, onCancel }: { pending: PendingExport; onExport: (shape: 'v1.0' | 'v0.3') => void; onCancel: () => void }) {
  const uid = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'nearest' });
    heading.current?.focus();
  }, []);
  const { stored, v1, v03 } = pending;
  const failing = v1.failures.filter((f) => f.status === 'fail');
  const v03Ok = v03?.verdicts && !v03.verdicts.failures.some((f) => f.status === 'fail');
  return (
    <section className="registry-export-warning" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`} ref={heading} tabIndex={-1}>
        The v1.0 card of <span className="untrusted-text">{stored.agent.name}</span> would fail our card checks
      </h2>
      {v1.generation !== 'v1.0' ? (
        <p>
          None of its interfaces serves A2A 1.0, so clients (and our checks) read this v1.0-shaped card as a {v1.generation} card, which it is not shaped like.
        </p>
      ) : null}
      {failing.length ? (
        <ul aria-label="Card checks the v1.0 card fails">
          {failing.map((f) => (
            <li key={f.id}>
              <strong>{f.test}</strong> <span className="check-id">{f.id}</span> ({f.level}): <span className="untrusted-text">{f.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {v03 ? (
        <p>
          This agent serves A2A 0.3: its v0.3 card{' '}
          {v03.verdicts
            ? v03Ok
              ? `passes every card check that applies (${v03.verdicts.passed} of ${v03.verdicts.judged}).`
              : `fails ${v03.verdicts.failures.filter((f) => f.status === 'fail').length} card check(s) too: ${v03.verdicts.failures.map((f) => f.id).join(', ')}.`
            : 'could not be checked (our tool failed).'}
        </p>
      ) : (
        <p>No interface of this agent serves A2A 0.x, so there is no v0.3 card to offer. Fix the agent's entry (Edit), or export the v1.0 card as it is.</p>
      )}
      <div className="actions">
        {v03 ? (
          <button type="button" className="primary" onClick={() => onExport('v0.3')}>
            Export v0.3 card
          </button>
        ) : null}
        <button type="button" onClick={() => onExport('v1.0')}>
          Export v1.0 card anyway
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
