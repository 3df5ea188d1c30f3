import { useEffect, useId, useRef } from 'react';
import type { PendingExport } from './use-registry';

/**
 * Asks before exporting a card that would fail our own card checks, or claim a protocol version the agent was never
 * seen to speak (a legacy entry's interfaces have none: the v1.0 card would say "1.0"); offers the v0.3 shape or the
 * legacy shape when it fits the agent.
 */
export function ExportWarning({
  pending,
  onExport,
  onCancel,
}: {
  pending: PendingExport;
  onExport: (shape: 'v1.0' | 'v0.3' | 'legacy') => void;
  onCancel: () => void;
}) {
  const uid = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'nearest' });
    heading.current?.focus();
  }, []);
  const { stored, v1, v03, unseen } = pending;
  const failing = v1.failures.filter((f) => f.status === 'fail');
  const legacy = unseen?.legacy;
  const legacyFails = legacy?.verdicts?.failures.filter((f) => f.status === 'fail') ?? [];
  const v03Ok = v03?.verdicts && !v03.verdicts.failures.some((f) => f.status === 'fail');
  return (
    <section className="registry-export-warning" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`} ref={heading} tabIndex={-1}>
        The v1.0 card of <span className="untrusted-text">{stored.agent.name}</span>{' '}
        {failing.length || v1.generation !== 'v1.0' ? 'would fail our card checks' : 'would claim a protocol version never seen'}
      </h2>
      {unseen ? (
        <p>
          {unseen.urls.length === 1 ? 'One interface' : `${unseen.urls.length} interfaces`} of this agent {unseen.urls.length === 1 ? 'has' : 'have'} no
          protocol version (the entry came from a legacy card): the v1.0 card would declare {unseen.urls.length === 1 ? 'it' : 'them'}{' '}
          <code>protocolVersion: &quot;1.0&quot;</code>, a version this agent was never seen to speak.{' '}
          {legacy
            ? legacy.verdicts
              ? legacyFails.length
                ? `Its legacy card fails ${legacyFails.length} card check(s): ${legacyFails.map((f) => f.id).join(', ')}.`
                : `Its legacy card passes every card check that applies (${legacy.verdicts.passed} of ${legacy.verdicts.judged}).`
              : 'Its legacy card could not be checked (our tool failed).'
            : 'None of them is JSON-RPC, so there is no legacy card to offer.'}
        </p>
      ) : null}
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
      ) : unseen ? null : (
        <p>No interface of this agent serves A2A 0.x, so there is no v0.3 card to offer. Fix the agent's entry (Edit), or export the v1.0 card as it is.</p>
      )}
      <div className="actions">
        {legacy ? (
          <button type="button" className="primary" onClick={() => onExport('legacy')}>
            Export as legacy card
          </button>
        ) : null}
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
