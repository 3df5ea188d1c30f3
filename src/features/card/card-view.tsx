import { useMemo, useState } from 'react';
import type { TargetInfo } from '../../lib/engine';
import { useRunResults, useRunSelector } from '../../lib/run-store';
import { CardTree } from './card-tree';
import { verdictsByPath } from './paths';

/** The agent card as received and as normalized, with verdicts per field and the detected protocol. */
export function CardView() {
  const agent = useRunSelector((s) => s.run.targets.agent);
  const peer = useRunSelector((s) => s.run.targets.peer);
  const results = useRunResults();
  const verdicts = useMemo(() => verdictsByPath(results), [results]);
  if (!agent && !peer) return null;
  return (
    <section className="card-view" aria-labelledby="card-heading">
      <h2 id="card-heading">Agent card</h2>
      {agent ? <TargetCard target={agent} verdicts={verdicts} /> : null}
      {peer ? <TargetCard target={peer} verdicts={new Map()} /> : null}
    </section>
  );
}

function TargetCard({ target, verdicts }: { target: TargetInfo; verdicts: ReturnType<typeof verdictsByPath> }) {
  const [view, setView] = useState<'raw' | 'normalized'>('raw');
  const who = target.role === 'agent' ? 'Agent' : 'Peer agent';
  const card = view === 'raw' ? target.rawCard : target.normalizedCard;
  return (
    <section className="target" aria-label={`${who} card`}>
      <h3>{who}</h3>
      <dl className="kv">
        <dt>Generation</dt>
        <dd>{target.generation ?? 'not detected'}</dd>
        <dt>Binding</dt>
        <dd>{target.binding ?? 'not detected'}</dd>
        <dt>Endpoint</dt>
        <dd>{target.endpointUrl ?? '–'}</dd>
        <dt>Card found at</dt>
        <dd>{target.cardUrl ? `${target.cardUrl}${target.cardSource ? ` (${target.cardSource})` : ''}` : 'not found'}</dd>
      </dl>
      {target.error ? <p className="target-error">{target.error}</p> : null}
      {target.evidence.length ? (
        <>
          <h4>Why this generation and binding</h4>
          <ul className="evidence">
            {target.evidence.map((e, i) => (
              <li key={i}>{e}</li>
            ))}
          </ul>
        </>
      ) : null}
      {target.attempts.length ? (
        <>
          <h4>Discovery attempts</h4>
          <ul>
            {target.attempts.map((a, i) => (
              <li key={i}>
                {a.url}: {a.status ?? 'no response'} {a.ok ? 'ok' : 'failed'}
                {a.note ? ` (${a.note})` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="segmented" role="group" aria-label={`${who} card version`}>
        <button type="button" aria-pressed={view === 'raw'} onClick={() => setView('raw')}>
          As received
        </button>
        <button type="button" aria-pressed={view === 'normalized'} onClick={() => setView('normalized')} disabled={target.normalizedCard === undefined}>
          Normalized
        </button>
      </div>
      {card !== undefined ? (
        <CardTree value={card} verdicts={view === 'raw' || target.role === 'agent' ? verdicts : new Map()} label={`${who} card ${view === 'raw' ? 'as received' : 'normalized'}`} />
      ) : target.rawText ? (
        <pre className="body">{target.rawText}</pre>
      ) : (
        <p>No card.</p>
      )}
    </section>
  );
}
