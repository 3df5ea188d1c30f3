import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Exchange, HeaderMap, SseRecord } from '../../lib/engine';
import { fmtBytes, fmtMs, prettyBody } from '../../lib/format';
import { useRunSelector, useRunStoreHandle, type RunStoreState } from '../../lib/run-store';

const PAGE = 100;

/** The wire inspector: request and response of the selected exchange (already redacted by the engine). */
export function WireInspector() {
  const selected = useRunSelector((s) => s.selected);
  const revealSeq = useRunSelector((s) => s.revealSeq);
  const handle = useRunStoreHandle();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (revealSeq === 0 || !headingRef.current) return;
    headingRef.current.scrollIntoView({ block: 'nearest' });
    headingRef.current.focus({ preventScroll: true });
  }, [revealSeq]);
  // Resolve the selection to an exchange id (+ SSE seq) or a task-state record; each selector
  // returns stable references so the inspector re-renders only when its own item changes.
  const sseRec = useRunSelector((s) => (selected?.startsWith('sse:') ? s.run.sse[Number(selected.slice(4))] : undefined));
  const stateRec = useRunSelector((s) => (selected?.startsWith('state:') ? s.run.taskStates[Number(selected.slice(6))] : undefined));
  const exchangeId = selected && !selected.startsWith('state:') ? (sseRec?.exchangeId ?? (selected.startsWith('sse:') ? undefined : selected)) : undefined;
  const x = useRunSelector((s) => (exchangeId ? s.run.exchanges[exchangeId] : undefined));
  const events = useRunSelector(useShallow((s: RunStoreState) => (exchangeId && x?.sseCount ? s.run.sse.filter((e) => e.exchangeId === exchangeId) : EMPTY)));
  if (!selected) return null;
  return (
    <section className="inspector" aria-label="Wire inspector">
      <div className="inspector-head">
        <h2 ref={headingRef} tabIndex={-1}>
          Wire inspector
        </h2>
        <button type="button" onClick={() => handle.select(null)}>
          Close inspector
        </button>
      </div>
      {selected.startsWith('state:') ? (
        stateRec ? (
          <dl className="kv">
            <dt>Task</dt>
            <dd>{stateRec.taskId}</dd>
            <dt>State</dt>
            <dd>{stateRec.state}</dd>
            <dt>As sent by the agent</dt>
            <dd>{stateRec.rawState}</dd>
            <dt>Seen via</dt>
            <dd>{stateRec.source}</dd>
            <dt>Lane</dt>
            <dd>{stateRec.lane}</dd>
          </dl>
        ) : (
          <p>Unknown item.</p>
        )
      ) : x ? (
        <ExchangeView x={x} events={events} highlightSeq={sseRec?.seq} />
      ) : (
        <p>Exchange {exchangeId ?? selected} is not in this run's log.</p>
      )}
    </section>
  );
}

const EMPTY: SseRecord[] = [];

function Headers({ headers, label }: { headers: HeaderMap; label: string }) {
  const entries = Object.entries(headers);
  if (!entries.length) return <p>No headers.</p>;
  return (
    <table className="headers" aria-label={label}>
      <tbody>
        {entries.map(([k, v]) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ExchangeView({ x, events, highlightSeq }: { x: Exchange; events: SseRecord[]; highlightSeq?: number }) {
  const [shown, setShown] = useState(PAGE);
  const t = x.timings;
  return (
    <div className="exchange">
      <p className="exchange-line">
        <strong>
          {x.request.method} {x.request.url}
        </strong>{' '}
        ({x.id}, lane {x.lane}
        {x.checkId ? `, check ${x.checkId}` : ''})
      </p>
      <div className="exchange-cols">
        <section aria-label="Request">
          <h3>Request</h3>
          <Headers headers={x.request.headers} label="Request headers" />
          <p>Body: {fmtBytes(x.request.bodySize)}</p>
          {x.request.body ? <pre className="body">{prettyBody(x.request.body)}</pre> : null}
        </section>
        <section aria-label="Response">
          <h3>Response</h3>
          {x.error ? (
            <p className={`transport-error blame-${x.error.blame}`}>
              {x.error.source === 'proxy' || x.error.blame === 'tool' ? 'Not the agent’s fault: ' : ''}
              {x.error.message} ({x.error.source}/{x.error.code})
            </p>
          ) : null}
          {x.response ? (
            <>
              <p>
                Status: <strong>{x.response.status}</strong> {x.response.statusText ?? ''}
                {x.response.truncated ? ' (body truncated by our size limit)' : ''}
              </p>
              <Headers headers={x.response.headers} label="Response headers" />
              <p>Body: {fmtBytes(x.response.bodySize)}</p>
              {x.response.body ? <pre className="body">{prettyBody(x.response.body)}</pre> : null}
            </>
          ) : !x.error ? (
            <p>Waiting for the response…</p>
          ) : null}
        </section>
      </div>
      <section aria-label="Timings">
        <h3>Timings</h3>
        <dl className="kv">
          <dt>Time to headers</dt>
          <dd>{fmtMs(t.headersAt !== undefined ? t.headersAt - t.startedAt : undefined)}</dd>
          <dt>Total</dt>
          <dd>{fmtMs(t.endedAt !== undefined ? t.endedAt - t.startedAt : undefined)}</dd>
          {events.length ? (
            <>
              <dt>First SSE event</dt>
              <dd>{fmtMs(events[0]!.at - t.startedAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>
      {events.length ? (
        <section aria-label="SSE events">
          <h3>SSE events ({events.length})</h3>
          <ol className="sse-list">
            {events.slice(0, shown).map((e) => (
              <li key={e.seq} className={e.seq === highlightSeq ? 'highlight' : undefined}>
                <span className="sse-meta">
                  #{e.seq} +{fmtMs(e.at - t.startedAt)}
                  {e.event ? ` event: ${e.event}` : ''}
                  {e.id ? ` id: ${e.id}` : ''}
                  {e.summary ? ` · ${e.summary}` : ''}
                </span>
                <pre className="body">{prettyBody(e.data, 8192)}</pre>
              </li>
            ))}
          </ol>
          {events.length > shown ? (
            <button type="button" onClick={() => setShown((n) => n + PAGE)}>
              Show {Math.min(PAGE, events.length - shown)} more SSE events
            </button>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
