import { memo, useEffect, useRef } from 'react';
import { useRunStoreHandle } from '../../lib/run-store';
import { PartViewer } from './artifact-view';
import { Findings } from './call-log';
import { useConsole, useConsoleState } from './console-context';
import type { ConsoleCall } from './console-store';
import type { PartView } from './parts';
import { shortId, turnOf } from './transcript-model';

const TONE: Record<string, string> = { waiting: 'running', streaming: 'running', answered: 'pass', problem: 'fail', 'not-sent': 'error', stopped: 'skip' };

/** Moves focus to a call of the call log (its heading), scrolled into view. */
function showInCallLog(callId: string) {
  const h = document.getElementById(`call-${callId}-h`);
  if (!h) return;
  if (!h.hasAttribute('tabindex')) h.setAttribute('tabindex', '-1');
  h.scrollIntoView({ block: 'start' });
  h.focus({ preventScroll: true });
}

/** Parts as a chat shows them: plain text as prose, anything else (data, files, other media types) by its viewer. */
function TurnParts({ parts, label }: { parts: readonly PartView[]; label: string }) {
  return (
    <>
      {parts.map((p, i) =>
        p.kind === 'text' && (!p.mediaType || p.mediaType.startsWith('text/plain')) ? (
          <p key={i} className="untrusted-text bubble-text">
            {p.text}
          </p>
        ) : (
          <div key={i} className="turn-part">
            <PartViewer part={p} label={`${label}, part ${i + 1}`} />
          </div>
        ),
      )}
    </>
  );
}

/** One exchange as a turn: the user's words, then the agent's (status changes as separators, message, artifacts). */
const Turn = memo(function Turn({ c }: { c: ConsoleCall }) {
  const ctl = useConsole();
  const timeline = useRunStoreHandle();
  const t = turnOf(c);
  const exchanges = c.result?.exchanges ?? [];
  return (
    <li className="turn" data-call={c.id}>
      <article aria-label={`Turn ${c.id}`}>
        <div className="bubble bubble-you">
          <p className="bubble-who">You</p>
          <p className="untrusted-text bubble-text">{t.you}</p>
        </div>
        <div className="bubble bubble-agent">
          <p className="bubble-who">
            Agent <span className={`chip chip-${TONE[t.status]}`}>{t.statusText}</span>
            {c.result ? (
              <span className="help">
                {' '}
                {t.required} required finding(s){t.advisories ? `, ${t.advisories} advisory` : ''}
              </span>
            ) : null}
          </p>
          {t.states.map((s, i) => (
            <p key={`${i}-${s}`} className="turn-sep">
              <span>
                {t.taskId ? (
                  <>
                    Task <span title={t.taskId}>{shortId(t.taskId)}</span>{' '}
                  </>
                ) : null}
                <span className="untrusted-text">{s}</span>
              </span>
            </p>
          ))}
          {t.messageParts.length ? (
            <TurnParts parts={t.messageParts} label={`Message of ${c.id}`} />
          ) : t.messageText ? (
            <p className="untrusted-text bubble-text">{t.messageText}</p>
          ) : null}
          {t.artifacts.map((a) => (
            <div key={a.key} className="turn-artifact">
              <p className="artifact-head">
                <strong className="untrusted-text">{a.name ?? a.artifactId ?? a.key}</strong>
                {!a.complete ? <span className="help"> (still streaming)</span> : null}
              </p>
              <TurnParts parts={a.parts} label={`Artifact ${a.name ?? a.key} of ${c.id}`} />
            </div>
          ))}
          {t.error ? <p className="field-error untrusted-text">{t.error}</p> : null}
          <div className="turn-actions">
            {c.status === 'running' && (c.op === 'stream' || c.op === 'subscribe' || c.op === 'raw') ? (
              <button type="button" onClick={() => ctl.stop(c.id)} aria-label={`Stop reading ${c.id}`}>
                Stop
              </button>
            ) : null}
            <button type="button" className="linklike" onClick={() => showInCallLog(c.id)} aria-label={`Show ${c.id} in the call log`}>
              Call log
            </button>
            {exchanges.slice(0, 3).map((x) => (
              <button
                key={x.exchangeId}
                type="button"
                className="linklike"
                onClick={() => timeline.reveal(x.exchangeId)}
                aria-label={`Inspect exchange ${x.exchangeId} of ${c.id}`}
              >
                Inspect exchange {x.exchangeId}
              </button>
            ))}
          </div>
          {c.result?.findings.length ? (
            <details className="turn-findings">
              <summary>Findings ({c.result.findings.length})</summary>
              <Findings findings={c.result.findings} label={`Findings of turn ${c.id}`} />
            </details>
          ) : null}
        </div>
      </article>
    </li>
  );
});

/**
 * The session as a conversation (region "Conversation", a live log): one turn per call, oldest first, the newest
 * kept in view when it is added and when it ends, and announced to screen readers as it lands.
 */
export function Transcript() {
  const calls = useConsoleState((s) => s.calls);
  const list = useRef<HTMLOListElement>(null);
  const seen = useRef<number | null>(null);
  const last = calls.at(-1);
  useEffect(() => {
    // Only a turn added while the page is open scrolls (a saved session opened here does not move the page).
    const count = calls.length;
    const before = seen.current;
    seen.current = count;
    if (before === null || count === 0 || (count <= before && last?.status === 'running')) return;
    const el = list.current?.lastElementChild;
    // (jsdom has no layout, hence no scrollIntoView)
    if (el instanceof HTMLElement && typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'nearest' });
  }, [calls.length, last?.id, last?.status]);
  return (
    <section className="transcript" aria-labelledby="console-transcript-h">
      <h2 id="console-transcript-h">Conversation</h2>
      {calls.length ? (
        /* A scroll box: focusable, so a keyboard can scroll it. */
        <div className="turns" role="log" aria-label="Conversation" tabIndex={0}>
          <ol ref={list}>
            {calls.map((c) => (
              <Turn key={c.id} c={c} />
            ))}
          </ol>
        </div>
      ) : (
        <p className="help">Nothing said yet. Your messages and the agent&apos;s answers show here, newest at the bottom.</p>
      )}
    </section>
  );
}
