import { memo, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { judgeTwoAgents, type TwoAgentResult } from '../../engine/tap/two-agent';
import type { TapFinding, TapReport, TapSide, TapSideSummary } from '../../engine/tap/types';
import type { ExportFile } from '../../exporters/common';
import { exportTapReport, type TapExportFormat } from '../../exporters/tap';
import { downloadFile } from '../../lib/download';
import { useRunStoreHandle } from '../../lib/run-store';
import { useTap, useTapState } from './tap-context';
import { foldTap, turnOf, type TapExchangeView, type TapView } from './tap-model';

const SIDE_LABEL: Record<TapSide, string> = { client: 'client', agent: 'agent' };

/** Who broke it, as text (never colour alone). */
function SideBadge({ side }: { side: TapSide }) {
  return <span className={`side-badge side-${side}`}>{SIDE_LABEL[side]}</span>;
}

/** The folded view of the events on screen (recomputed when they change). */
export function useTapView(): TapView {
  // Deferred: under heavy traffic, typing and clicking stay responsive while the view catches up.
  const events = useDeferredValue(useTapState((s) => s.events));
  return useMemo(() => foldTap(events), [events]);
}

/** The URL to give the client, with a Copy button (region "Tap address"). */
export function TapAddress() {
  const tap = useTapState((s) => s.tap);
  const phase = useTapState((s) => s.phase);
  const connection = useTapState((s) => s.connection);
  const [copied, setCopied] = useState<string | null>(null);
  const id = useId();
  // A tap started while the page is open: the URL to give the client is what the user needs next (focus goes there).
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(tap?.id);
  useEffect(() => {
    if (!tap || shown.current === tap.id) return;
    shown.current = tap.id;
    heading.current?.focus();
  }, [tap]);
  if (!tap) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(tap.url);
      setCopied('Copied.');
    } catch {
      setCopied('Copy failed: select the URL and copy it.');
    }
  };
  const closed = phase !== 'open';
  return (
    <section className="tap-address" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} ref={heading} tabIndex={-1}>
        {closed ? 'The tap was here' : 'Give this URL to your client'}
      </h2>
      <p className="tap-url">
        <code id={`${id}-url`}>{tap.url}</code>{' '}
        <button type="button" onClick={() => void copy()} disabled={closed} aria-describedby={`${id}-url`}>
          Copy the tap URL
        </button>{' '}
        <span role="status" className="help">
          {copied ?? ''}
        </span>
      </p>
      <p className="help">
        Its card: <code>{tap.url}.well-known/agent-card.json</code>. In CI: <code>a2a-interop tap &lt;agent-url&gt; -- &lt;command&gt;</code> runs your tests
        with this kind of URL in <code>A2A_TAP_URL</code>.
      </p>
      <p className="help">
        Events:{' '}
        {closed
          ? 'the tap is stopped'
          : connection === 'live'
            ? 'live'
            : connection === 'reconnecting'
              ? 'reconnecting…'
              : connection === 'connecting'
                ? 'connecting…'
                : 'ended'}
        .
      </p>
    </section>
  );
}

function summaryWords(s: TapSideSummary): string {
  if (s.verdict === 'not-observed') return 'nothing judged yet';
  const parts = [s.must && `${s.must} MUST`, s.should && `${s.should} SHOULD`, s.advisory && `${s.advisory} advisory`].filter(Boolean);
  return parts.length ? `${parts.join(', ')} finding(s)` : 'no finding';
}
const VERDICT_LABEL: Record<TapSideSummary['verdict'], string> = { pass: 'Pass', fail: 'Fail', advisory: 'Advisories only', 'not-observed': 'Not observed' };
const VERDICT_TONE: Record<TapSideSummary['verdict'], string> = { pass: 'pass', fail: 'fail', advisory: 'advisory', 'not-observed': 'skip' };

/** One verdict per side (region "Verdicts"). */
export function TapVerdicts({ view }: { view: TapView }) {
  const id = useId();
  return (
    <section className="tap-verdicts" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Verdicts</h2>
      <ul>
        {(['client', 'agent'] as const).map((side) => (
          <li key={side} aria-label={`${side === 'client' ? 'Client' : 'Agent'} verdict`}>
            <SideBadge side={side} /> <span className={`chip chip-${VERDICT_TONE[view[side].verdict]}`}>{VERDICT_LABEL[view[side].verdict]}</span>{' '}
            <span className="help">{summaryWords(view[side])}</span>
          </li>
        ))}
      </ul>
      <p className="help">
        {view.exchanges.length} exchange(s){view.target?.agentName ? ` with "${view.target.agentName.slice(0, 120)}"` : ''}
        {view.target?.generation ? `, ${view.target.generation}${view.target.binding ? ` over ${view.target.binding}` : ''}` : ''}.
      </p>
    </section>
  );
}

function FindingItem({ f, showExchange }: { f: TapFinding; showExchange: boolean }) {
  const timeline = useRunStoreHandle();
  return (
    <li className={`tap-finding level-${f.level === 'advisory' ? 'advisory' : 'required'}`}>
      <p className="tap-finding-head">
        <SideBadge side={f.side} /> <span className={`chip chip-${f.level === 'advisory' ? 'advisory' : 'fail'}`}>{f.level}</span>{' '}
        <code className="check-id">{f.checkId}</code>
        {showExchange ? (
          <>
            {' '}
            <button
              type="button"
              className="linklike"
              onClick={() => timeline.reveal(f.exchangeId)}
              aria-label={`Inspect exchange ${f.exchangeId} (${f.checkId})`}
            >
              {f.exchangeId}
              {f.frame ? `, event ${f.frame}` : ''}
            </button>
          </>
        ) : null}
      </p>
      <p className="untrusted-text tap-finding-message">{f.message}</p>
      {f.specRef || f.quote || f.recommendation ? (
        <details>
          <summary>Why{f.specRef ? `: ${f.specRef}` : ''}</summary>
          {f.quote ? <blockquote className="requirement">{f.quote}</blockquote> : null}
          {f.recommendation ? <p>Fix: {f.recommendation}</p> : null}
        </details>
      ) : null}
    </li>
  );
}

/** Every finding, client and agent, newest last (region "Findings"). */
export function TapFindings({ view }: { view: TapView }) {
  const id = useId();
  const [side, setSide] = useState<'all' | TapSide>('all');
  const shown = side === 'all' ? view.findings : view.findings.filter((f) => f.side === side);
  return (
    <section className="tap-findings" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Findings ({view.findings.length})</h2>
      <span className="field-inline">
        <label htmlFor={`${id}-side`}>Show</label>
        <select id={`${id}-side`} value={side} onChange={(e) => setSide(e.target.value as 'all' | TapSide)}>
          <option value="all">Both sides</option>
          <option value="client">Client findings</option>
          <option value="agent">Agent findings</option>
        </select>
      </span>
      {shown.length ? (
        <ul className="tap-finding-list">
          {shown.map((f, i) => (
            <FindingItem key={`${f.exchangeId}-${f.checkId}-${i}`} f={f} showExchange />
          ))}
        </ul>
      ) : (
        <p className="help">{view.exchanges.length ? 'No finding so far.' : 'Findings show here as the client and the agent talk.'}</p>
      )}
    </section>
  );
}

const TONE: Record<string, string> = { pass: 'pass', fail: 'fail', running: 'running', error: 'error' };

/** A turn re-renders (and re-reads its bodies) only when its exchange got something new. */
const sameTurn = (a: { x: TapExchangeView }, b: { x: TapExchangeView }) =>
  a.x.start.seq === b.x.start.seq &&
  a.x.end?.seq === b.x.end?.seq &&
  a.x.frames.length === b.x.frames.length &&
  a.x.findings.length === b.x.findings.length &&
  a.x.faults.length === b.x.faults.length;

const Turn = memo(function Turn({ x }: { x: TapExchangeView }) {
  const timeline = useRunStoreHandle();
  const t = turnOf(x);
  return (
    <li className="tap-turn">
      <article aria-label={`Exchange ${x.id}`}>
        <div className="tap-bubble tap-bubble-client">
          <p className="tap-who">
            <SideBadge side="client" /> {t.request} <span className="help">({x.id})</span>
          </p>
          {t.said ? <p className="untrusted-text tap-text">{t.said}</p> : null}
        </div>
        <div className="tap-bubble tap-bubble-agent">
          <p className="tap-who">
            <SideBadge side="agent" /> <span className={`chip chip-${TONE[t.tone]}`}>{t.answer}</span>
          </p>
          {t.answered ? <p className="untrusted-text tap-text">{t.answered}</p> : null}
          {x.faults.map((f) => (
            <p key={f.seq} className="tap-fault-note">
              Fault injected: <span className="untrusted-text">{f.detail}</span>
            </p>
          ))}
          <p className="tap-turn-actions">
            <button type="button" className="linklike" onClick={() => timeline.reveal(x.id)} aria-label={`Inspect exchange ${x.id}`}>
              Inspect
            </button>
          </p>
          {x.findings.length ? (
            <ul className="tap-finding-list" aria-label={`Findings of ${x.id}`}>
              {x.findings.map((f, i) => (
                <FindingItem key={`${f.checkId}-${i}`} f={f} showExchange={false} />
              ))}
            </ul>
          ) : null}
        </div>
      </article>
    </li>
  );
}, sameTurn);

/** The conversation, one turn per exchange, newest at the bottom (region "Conversation", a live log). */
export function TapConversation({ view }: { view: TapView }) {
  const id = useId();
  const list = useRef<HTMLOListElement>(null);
  const count = view.exchanges.length;
  const dropped = useTapState((s) => s.droppedEvents);
  useEffect(() => {
    const box = list.current?.parentElement;
    if (box && count) box.scrollTop = box.scrollHeight;
  }, [count]);
  return (
    <section className="tap-conversation" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Conversation</h2>
      {dropped ? <p className="help">The oldest {dropped} event(s) were let go to keep the page light; the exports hold what the tap kept.</p> : null}
      {count ? (
        <div className="tap-turns" role="log" aria-label="Conversation" tabIndex={0}>
          <ol ref={list}>
            {view.exchanges.map((x) => (
              <Turn key={x.id} x={x} />
            ))}
          </ol>
        </div>
      ) : (
        <p className="help">Nothing yet. Point a client at the tap URL: its requests and the agent&apos;s answers show here as they happen.</p>
      )}
    </section>
  );
}

const STATUS_LABEL: Record<TwoAgentResult['status'], string> = { pass: 'Pass', fail: 'Fail', advisory: 'Advisory', 'not-observed': 'Not observed yet' };
const STATUS_TONE: Record<TwoAgentResult['status'], string> = { pass: 'pass', fail: 'fail', advisory: 'advisory', 'not-observed': 'skip' };

/** The seed's two-agent checks, judged from the conversation (region "Two-agent checks"). */
export function TwoAgentChecks({ results }: { results: TwoAgentResult[] }) {
  const id = useId();
  return (
    <section className="tap-two-agents" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Two-agent checks (A -&gt; B)</h2>
      <p className="help">The client is agent A, the agent behind the tap is agent B (conformance procedure, step 5.5).</p>
      <ul className="tap-finding-list">
        {results.map((r) => (
          <li key={r.id} aria-label={r.title}>
            <p className="tap-finding-head">
              <span className={`chip chip-${STATUS_TONE[r.status]}`}>{STATUS_LABEL[r.status]}</span> <strong>{r.title}</strong>{' '}
              <code className="check-id">{r.id}</code> <span className="help">about {r.side === 'client' ? 'A (the client)' : 'B (the agent)'}</span>
            </p>
            <p className="untrusted-text tap-finding-message">{r.message}</p>
            <details>
              <summary>Why: {r.specRef}</summary>
              <blockquote className="requirement">{r.quote}</blockquote>
              {r.status === 'fail' || r.status === 'advisory' ? <p>Fix: {r.recommendation}</p> : null}
            </details>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The two-agent results over the events on screen (memoized). */
export function useTwoAgents(on: boolean): TwoAgentResult[] | null {
  const events = useDeferredValue(useTapState((s) => s.events));
  return useMemo(() => (on ? judgeTwoAgents(events) : null), [on, events]);
}

const FORMATS: { format: TapExportFormat; label: string }[] = [
  { format: 'json', label: 'Export JSON' },
  { format: 'har', label: 'Export HAR' },
  { format: 'markdown', label: 'Export Markdown' },
  { format: 'junit', label: 'Export JUnit' },
  { format: 'html', label: 'Export HTML' },
  { format: 'sarif', label: 'Export SARIF' },
];

/** The tap's report in one format (src/exporters/tap.ts); the JSON carries the two-agent results when they are judged. */
export function tapExport(report: TapReport, format: TapExportFormat, twoAgents: TwoAgentResult[] | null): ExportFile {
  const file = exportTapReport(report, format);
  if (format !== 'json' || !twoAgents) return file;
  return { ...file, body: `${JSON.stringify({ ...report, twoAgents }, null, 2)}\n` };
}

/** Download the tap's report: JSON, HAR 1.2 (the conversation for browsers' tools and Postman), Markdown, JUnit, HTML, SARIF. */
export function TapExports({ twoAgents }: { twoAgents: TwoAgentResult[] | null }) {
  const ctl = useTap();
  const tap = useTapState((s) => s.tap);
  const [note, setNote] = useState<string | null>(null);
  if (!tap) return null;
  const onExport = async (format: TapExportFormat) => {
    try {
      const report = await ctl.report();
      if (!report) {
        setNote('No report: the tap was stopped before it could be read.');
        return;
      }
      const file = tapExport(report, format, twoAgents);
      downloadFile(file.filename, file.mimeType, file.body);
      setNote(null);
    } catch (e) {
      setNote(`Export failed in our tool: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <div className="export-buttons" role="group" aria-label="Export the tap's report">
      {FORMATS.map((f) => (
        <button key={f.format} type="button" onClick={() => void onExport(f.format)}>
          {f.label}
        </button>
      ))}
      {note ? (
        <p className="help" role="status">
          {note}
        </p>
      ) : null}
    </div>
  );
}
