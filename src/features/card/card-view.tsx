import { useMemo, useState } from 'react';
import type { CheckResult, TargetInfo } from '../../lib/engine';
import { prettyBody } from '../../lib/format';
import { useRunResults, useRunSelector, useRunStoreHandle, type RunStoreState } from '../../lib/run-store';
import { CardSignals } from './card-signals';
import { CardTree } from './card-tree';
import { orderLike, verdictsByPath } from './paths';

/** The card's bytes as received (the body of the exchange that fetched it), when the log has them. */
function useCardBody(cardUrl: string | undefined): string | undefined {
  return useRunSelector((s: RunStoreState) => {
    if (!cardUrl) return undefined;
    for (const id of s.run.exchangeOrder) {
      const x = s.run.exchanges[id];
      if (x?.request.url === cardUrl && x.response && x.response.status < 300 && x.response.body && !x.response.truncated) return x.response.body;
    }
    return undefined;
  });
}

function parse(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

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
      {agent ? <TargetCard target={agent} verdicts={verdicts} results={results} /> : null}
      {peer ? <TargetCard target={peer} verdicts={new Map()} results={results} /> : null}
    </section>
  );
}

function TargetCard({ target, verdicts, results }: { target: TargetInfo; verdicts: ReturnType<typeof verdictsByPath>; results: readonly CheckResult[] }) {
  const [view, setView] = useState<'raw' | 'normalized' | 'json'>('raw');
  const who = target.role === 'agent' ? 'Agent' : 'Peer agent';
  const body = useCardBody(target.cardUrl);
  const handle = useRunStoreHandle();
  // The card's own field order (the stored copy's order is not it): from the bytes received.
  const received = useMemo(() => {
    const ref = parse(body);
    return ref === undefined ? target.rawCard : orderLike(target.rawCard, ref);
  }, [body, target.rawCard]);
  const normalized = useMemo(() => orderLike(target.normalizedCard, received), [target.normalizedCard, received]);
  const card = view === 'raw' ? received : normalized;
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
      <CardSignals target={target} results={results} />
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
                {a.note ? ` (${a.note})` : ''}{' '}
                {a.exchangeId ? (
                  <button type="button" className="linklike" onClick={() => handle.reveal(a.exchangeId!)}>
                    Open exchange {a.exchangeId} in the wire inspector
                  </button>
                ) : null}
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
        <button type="button" aria-pressed={view === 'json'} onClick={() => setView('json')} disabled={target.rawCard === undefined && !target.rawText}>
          Raw JSON
        </button>
      </div>
      {view === 'json' ? (
        <div className="card-json" role="region" tabIndex={0} aria-label={`${who} card as raw JSON`}>
          <pre className="body">{body ? prettyBody(body) : (target.rawText ?? JSON.stringify(received, null, 2))}</pre>
        </div>
      ) : card !== undefined ? (
        <CardTree
          value={card}
          verdicts={view === 'raw' || target.role === 'agent' ? verdicts : new Map()}
          label={`${who} card ${view === 'raw' ? 'as received' : 'normalized'}`}
        />
      ) : target.rawText ? (
        <pre className="body">{target.rawText}</pre>
      ) : (
        <p>No card.</p>
      )}
    </section>
  );
}
