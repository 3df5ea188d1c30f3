import { useEffect, useEffectEvent, useId, useLayoutEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Exchange, HeaderMap, SseRecord } from '../../lib/engine';
import { openInConsole } from '../../lib/console-link';
import { fmtBytes, fmtMs, prettyBody } from '../../lib/format';
import { useRunSession } from '../../lib/run-session';
import { useRunSelector, useRunStoreHandle, type RunStoreState } from '../../lib/run-store';
import { exchangeJson, splitHeaders, toCurl, type HeaderLine } from './wire';

const PAGE = 100;

/** The opener is part of this check's own rows (its failure's evidence, its result row): going back is closing. */
function openerOfCheck(opener: Element | null, checkId: string): opener is HTMLElement {
  if (!(opener instanceof HTMLElement) || !opener.isConnected) return false;
  const row = opener.closest('tr');
  const id = row?.getAttribute('data-check') ?? row?.id.replace(/^(failure|details)-/, '');
  return id === checkId;
}

/**
 * The wire inspector (region "Wire inspector"): the selected exchange, Postman-like. One status line, the
 * response body first, the agent's own headers apart from what our proxy added, the request, SSE events one
 * by one, Copy as cURL / Copy JSON, and a link back to the check. Everything shown is already redacted by
 * the engine; agent text is rendered as text.
 */
export function WireInspector() {
  const selected = useRunSelector((s) => s.selected);
  const revealSeq = useRunSelector((s) => s.revealSeq);
  const revealedFrom = useRunSelector((s) => s.revealedFrom);
  const handle = useRunStoreHandle();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Who opened the inspector gets focus back on close: read before any effect of this commit moves focus.
  const opener = useRef<Element | null>(null);
  const open = !!selected;
  useLayoutEffect(() => {
    if (open) opener.current = document.activeElement;
  }, [open]);
  useEffect(() => {
    if (revealSeq === 0 || !headingRef.current) return;
    // A side pane over the page at every width: it is already on screen, the page does not move.
    headingRef.current.focus({ preventScroll: true });
  }, [revealSeq]);
  // Resolve the selection to an exchange id (+ SSE seq) or a task-state record; each selector
  // returns stable references so the inspector re-renders only when its own item changes.
  const sseRec = useRunSelector((s) => (selected?.startsWith('sse:') ? s.run.sse[Number(selected.slice(4))] : undefined));
  const stateRec = useRunSelector((s) => (selected?.startsWith('state:') ? s.run.taskStates[Number(selected.slice(6))] : undefined));
  const exchangeId = selected && !selected.startsWith('state:') ? (sseRec?.exchangeId ?? (selected.startsWith('sse:') ? undefined : selected)) : undefined;
  const x = useRunSelector((s) => (exchangeId ? s.run.exchanges[exchangeId] : undefined));
  const events = useRunSelector(useShallow((s: RunStoreState) => (exchangeId && x?.sseCount ? s.run.sse.filter((e) => e.exchangeId === exchangeId) : EMPTY)));
  const close = () => {
    handle.select(null);
    const back = opener.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };
  // A side pane over the page: Escape closes it wherever focus is, at every width.
  const closeOnEscape = useEffectEvent(close);
  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) {
        e.preventDefault();
        closeOnEscape();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  if (!selected) {
    return (
      <section className="inspector inspector-empty" aria-label="Wire inspector">
        <h2>Wire inspector</h2>
        <p className="help">Select an item in the timeline, or use Open exchange on a result, to see what crossed the wire.</p>
      </section>
    );
  }
  const checkId = x?.checkId ?? revealedFrom ?? undefined;
  return (
    <section className="inspector inspector-open" aria-label="Wire inspector">
      <div className="inspector-head">
        <h2 ref={headingRef} tabIndex={-1}>
          Wire inspector
        </h2>
        <button type="button" onClick={close}>
          Close inspector
        </button>
      </div>
      {checkId ? (
        <p className="inspector-check">
          Check:{' '}
          <button
            type="button"
            className="linklike"
            onClick={() => {
              // Opened from this check's failure (or result row): back is where the user came from.
              if (openerOfCheck(opener.current, checkId)) return close();
              handle.select(null);
              handle.showCheck(checkId);
            }}
          >
            {checkId}
          </button>
        </p>
      ) : null}
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
        <ExchangeView key={x.id} x={x} events={events} highlightSeq={sseRec?.seq} />
      ) : (
        <p>Exchange {exchangeId ?? selected} is not in this run's log.</p>
      )}
    </section>
  );
}

const EMPTY: SseRecord[] = [];

function HeaderTable({ lines, label }: { lines: HeaderLine[]; label: string }) {
  if (!lines.length) return <p className="help">No headers.</p>;
  return (
    <table className="headers" aria-label={label}>
      <tbody>
        {lines.map((h, i) => (
          <tr key={`${h.name}-${i}`}>
            <th scope="row">{h.name}</th>
            <td>
              {h.value}
              {h.note ? <span className="header-note"> ({h.note})</span> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const asLines = (headers: HeaderMap): HeaderLine[] => Object.entries(headers).map(([name, value]) => ({ name, value }));

function statusText(x: Exchange): string {
  if (x.error) return `${x.error.source === 'proxy' || x.error.blame === 'tool' ? 'not the agent’s fault: ' : ''}${x.error.source} ${x.error.code}`;
  if (!x.response) return 'waiting for the response';
  return `${x.response.status}${x.response.statusText ? ` ${x.response.statusText}` : ''}`;
}

function CopyButtons({ x, events }: { x: Exchange; events: SseRecord[] }) {
  const id = useId();
  const session = useRunSession();
  const agentUrl = useRunSelector((s) => s.run.agentUrl);
  const runId = useRunSelector((s) => s.run.runId);
  const creds = session.input && session.input.agentUrl === agentUrl && session.input.credentials.kind !== 'none' ? session.input.credentials : undefined;
  const [withCreds, setWithCreds] = useState(false);
  const [note, setNote] = useState<{ text: string; fallback?: string } | null>(null);
  const copy = async (what: string, text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setNote({ text: `${what} copied.` });
    } catch {
      setNote({ text: `The browser did not allow copying; select the ${what} below and copy it.`, fallback: text });
    }
  };
  return (
    <div className="inspector-actions">
      <button type="button" onClick={() => void copy('cURL command', toCurl(x, withCreds ? creds : undefined))}>
        Copy as cURL
      </button>
      <button type="button" onClick={() => void copy('JSON', exchangeJson(x, events))}>
        Copy JSON
      </button>
      <button type="button" onClick={() => openInConsole({ exchange: x, agentUrl, runId, checkId: x.checkId, credentials: creds })}>
        Open in console
      </button>
      {creds ? (
        <label className="field-inline" htmlFor={`${id}-creds`}>
          <input id={`${id}-creds`} type="checkbox" checked={withCreds} onChange={(e) => setWithCreds(e.target.checked)} /> Include credentials in cURL
        </label>
      ) : null}
      <p className="help" role="status">
        {note?.text ?? (withCreds ? 'The cURL command will contain your credentials.' : 'Credentials stay masked in what is copied.')}
      </p>
      {note?.fallback ? <textarea className="copy-fallback" aria-label="Text to copy" readOnly value={note.fallback} rows={6} /> : null}
    </div>
  );
}

function ExchangeView({ x, events, highlightSeq }: { x: Exchange; events: SseRecord[]; highlightSeq?: number }) {
  const highlightIndex = highlightSeq === undefined ? -1 : events.findIndex((e) => e.seq === highlightSeq);
  const [shown, setShown] = useState(PAGE);
  const visible = Math.max(shown, highlightIndex + 1);
  const listRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (highlightSeq === undefined) return;
    listRef.current?.querySelector<HTMLElement>(`[data-seq="${highlightSeq}"]`)?.scrollIntoView({ block: 'center' });
  }, [highlightSeq]);
  const t = x.timings;
  const origin = typeof window !== 'undefined' ? window.location.origin : undefined;
  const split = x.response ? splitHeaders(x.response.headers, origin) : null;
  const total = t.endedAt !== undefined ? t.endedAt - t.startedAt : undefined;
  return (
    <div className="exchange">
      <p className="exchange-line">
        <strong>
          {x.request.method} {x.request.url}
        </strong>
      </p>
      <p className={`status-line tone-${x.error ? 'bad' : !x.response ? 'pending' : x.response.status >= 400 ? 'bad' : 'ok'}`}>
        <span className="sl-status">{statusText(x)}</span>
        <span> · {fmtMs(total)}</span>
        <span> · {x.response ? fmtBytes(x.response.bodySize) : '–'}</span>
        {x.response?.stream ? <span> · stream, {events.length} events</span> : null}
        {x.response?.truncated ? <span> · cut at our size limit</span> : null}
      </p>
      <p className="check-id">
        {x.id} · lane {x.lane}
      </p>
      <CopyButtons x={x} events={events} />
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
            {x.response.body ? <pre className="body">{prettyBody(x.response.body)}</pre> : !x.response.stream ? <p className="help">Empty body.</p> : null}
            {events.length ? (
              <section aria-label="SSE events">
                <h4>SSE events ({events.length})</h4>
                <ol className="sse-list" ref={listRef}>
                  {events.slice(0, visible).map((e) => (
                    <li
                      key={e.seq}
                      data-seq={e.seq}
                      className={e.seq === highlightSeq ? 'highlight' : undefined}
                      aria-current={e.seq === highlightSeq ? 'true' : undefined}
                    >
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
                {events.length > visible ? (
                  <button type="button" onClick={() => setShown(visible + PAGE)}>
                    Show {Math.min(PAGE, events.length - visible)} more SSE events
                  </button>
                ) : null}
              </section>
            ) : null}
            <h4>Headers from the agent ({split?.agent.length ?? 0})</h4>
            <HeaderTable lines={split?.agent ?? []} label="Response headers" />
            {split?.viaProxy ? (
              <details className="proxy-headers">
                <summary>Added by our proxy ({split.proxy.length})</summary>
                <HeaderTable lines={split.proxy} label="Headers added by our proxy" />
              </details>
            ) : null}
          </>
        ) : !x.error ? (
          <p>Waiting for the response…</p>
        ) : null}
      </section>
      <section aria-label="Request">
        <h3>Request</h3>
        <HeaderTable lines={asLines(x.request.headers)} label="Request headers" />
        <p className="help">Body: {fmtBytes(x.request.bodySize)}</p>
        {x.request.body ? <pre className="body">{prettyBody(x.request.body)}</pre> : null}
      </section>
      <section aria-label="Timings">
        <h3>Timings</h3>
        <dl className="kv">
          <dt>Time to headers</dt>
          <dd>{fmtMs(t.headersAt !== undefined ? t.headersAt - t.startedAt : undefined)}</dd>
          <dt>Total</dt>
          <dd>{fmtMs(total)}</dd>
          {events.length ? (
            <>
              <dt>First SSE event</dt>
              <dd>{fmtMs(events[0]!.at - t.startedAt)}</dd>
            </>
          ) : null}
        </dl>
      </section>
    </div>
  );
}
