import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Notice } from '../../components/notice';
import { StatusChip } from '../../components/status-chip';
import { exportCard, type CardVerdicts, type StoredAgent } from '../../lib/registry-db';

const MAX_PREVIEW_CHARS = 200_000;

/** The selected agent's exported v1.0 card (as text) and the engine's card checks on it. */
export function CardPreview({
  stored,
  dbName,
  check,
}: {
  stored: StoredAgent;
  dbName: string;
  check: (card: Record<string, unknown>, signal?: AbortSignal) => Promise<CardVerdicts>;
}) {
  const { agent } = stored;
  const card = useMemo(() => exportCard(agent), [agent]);
  const text = useMemo(() => {
    const t = JSON.stringify(card, null, 2);
    return t.length > MAX_PREVIEW_CHARS ? `${t.slice(0, MAX_PREVIEW_CHARS)}\n… ${t.length - MAX_PREVIEW_CHARS} more characters` : t;
  }, [card]);
  const verdicts = useQuery({
    queryKey: ['registry', dbName, 'verdicts', stored.id, stored.updatedAt],
    queryFn: ({ signal }) => check(card, signal),
    staleTime: Infinity,
    retry: false,
  });
  const v = verdicts.data;
  return (
    <section className="registry-preview" aria-label="Exported card">
      <h2>
        Exported card: <span className="untrusted-text">{agent.name}</span>
      </h2>
      <p className="help">
        {agent.id}@{agent.version} · A2A v1.0 · what “Export card” downloads. Local fields are never exported.
      </p>
      <div role="status" aria-label="Card checks" className="registry-verdicts">
        {verdicts.isPending ? 'Running the card checks…' : null}
        {verdicts.isError ? `The card checks could not run (our tool failed): ${String(verdicts.error)}` : null}
        {v ? (
          <strong>
            {v.passed} of {v.judged} card checks pass
          </strong>
        ) : null}
        {v?.skipped ? <span className="help"> ({v.skipped} not applicable to this card; how the card is served is judged when you run the agent)</span> : null}
      </div>
      {v && v.generation !== 'v1.0' ? (
        <Notice kind="warn" title={`Read as a ${v.generation} card.`}>
          None of its interfaces declares protocol version 1.0, so clients (and our checks) read this v1.0-shaped card as a {v.generation} card, which it is not
          shaped like. Add an endpoint that serves A2A 1.0, or keep publishing the agent's own {v.generation} card.
        </Notice>
      ) : null}
      {v?.failures.length ? (
        // Focusable so a keyboard can scroll it sideways on a narrow screen.
        <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Card check failures (scrolls sideways on narrow screens)">
          <table className="cards-on-phone" aria-label="Card check failures">
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Level</th>
                <th scope="col">Status</th>
                <th scope="col">Why</th>
                <th scope="col">How to fix</th>
              </tr>
            </thead>
            <tbody>
              {v.failures.map((f) => (
                <tr key={f.id}>
                  <th scope="row">
                    {f.test}
                    <div className="check-id">{f.id}</div>
                  </th>
                  <td data-label="Level">{f.level}</td>
                  <td data-label="Status">
                    <StatusChip status={f.status} />
                  </td>
                  <td data-label="Why">{f.message}</td>
                  <td data-label="How to fix">{f.recommendation ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {v && !v.failures.length ? <Notice kind="info">Every card check that applies passes.</Notice> : null}
      <pre className="body registry-card-json" aria-label="Exported card JSON" tabIndex={0}>
        {text}
      </pre>
    </section>
  );
}
