import { memo } from 'react';
import type { SessionFinding, SessionFrame } from '../../lib/console-adapter';
import { fmtMs, prettyBody } from '../../lib/format';
import { useRunStoreHandle } from '../../lib/run-store';
import { useConsole, useConsoleState } from './console-context';
import type { ConsoleCall } from './console-store';

const EMPTY: SessionFinding[] = [];
/** How a stream ended, in words (never "error" for a stream the user stopped). */
const STREAM_END: Record<string, string> = {
  closed: 'closed by the agent',
  grace: 'still open after its end (we stopped reading)',
  timeout: 'cut at our budget',
  idle: 'silent too long',
  limit: 'too many events',
  oversize: 'an event over our size limit',
  error: 'broke off',
  'not-stream': 'not a stream',
  stopped: 'stopped by you',
};
const LEVEL_TEXT: Record<SessionFinding['level'], string> = { MUST: 'MUST', SHOULD: 'SHOULD', advisory: 'advisory' };

/** One finding: its strength, the check that judges the same rule in a run, the message and where the rule is written. */
function FindingItem({ f }: { f: SessionFinding }) {
  return (
    <li className={`finding finding-${f.level === 'advisory' ? 'advisory' : 'required'}`}>
      <span className={`chip chip-${f.level === 'advisory' ? 'advisory' : 'fail'}`}>{LEVEL_TEXT[f.level]}</span>{' '}
      <code className="finding-check">{f.checkId}</code> <span className="untrusted-text">{f.message}</span>
      {f.specRef ? <span className="help"> ({f.specRef})</span> : null}
    </li>
  );
}

export function Findings({ findings, label }: { findings: readonly SessionFinding[]; label: string }) {
  if (!findings.length) return null;
  return (
    <ul className="findings" aria-label={label}>
      {findings.map((f, i) => (
        <FindingItem key={i} f={f} />
      ))}
    </ul>
  );
}

/** One SSE event with its findings beside it, so a protocol slip shows where it happened. */
const FrameRow = memo(function FrameRow({ f, findings, callId }: { f: SessionFrame; findings: readonly SessionFinding[]; callId: string }) {
  const required = findings.filter((x) => x.level !== 'advisory').length;
  return (
    <li className={`frame${required ? ' frame-flagged' : ''}`} aria-label={`Event ${f.seq}${required ? `, ${required} finding(s)` : ''}`}>
      <p className="frame-head">
        <span className="frame-seq">#{f.seq}</span> <span className="help">+{fmtMs(f.ms)}</span> <strong>{f.kind}</strong>
        {f.rawState ? <span> {f.rawState}</span> : null}
        {f.final ? <span> final</span> : null}
        {f.artifact ? (
          <span className="help">
            {' '}
            artifact {f.artifact.id ?? f.artifact.index ?? ''}
            {f.artifact.append ? ' (append)' : ''}
            {f.artifact.lastChunk ? ' (last chunk)' : ''}
          </span>
        ) : null}
        {f.error ? (
          <span className="untrusted-text">
            {' '}
            error {f.error.code ?? f.error.status ?? ''} {f.error.message}
          </span>
        ) : null}
      </p>
      <Findings findings={findings} label={`Findings of event ${f.seq} of call ${callId}`} />
      <details className="frame-data">
        <summary>Event data</summary>
        <pre className="body untrusted-text">{prettyBody(f.data, 16_384)}</pre>
      </details>
    </li>
  );
});

function CallItem({ c }: { c: ConsoleCall }) {
  const ctl = useConsole();
  const timeline = useRunStoreHandle();
  const r = c.result;
  const frames = c.frames;
  // Each finding next to the event it is about (the sequence rules judged at the end too: a stream that never said
  // final is flagged on its terminal event); the rest under the call.
  const seqs = new Set(frames.map((f) => f.seq));
  const byFrame = new Map<number, SessionFinding[]>();
  if (r) for (const f of r.findings) if (f.frame !== undefined && seqs.has(f.frame)) byFrame.set(f.frame, [...(byFrame.get(f.frame) ?? []), f]);
  const wholeFindings = r ? r.findings.filter((f) => f.frame === undefined || !seqs.has(f.frame)) : [];
  const required = r ? r.findings.filter((f) => f.level !== 'advisory').length : 0;
  const advisories = r ? r.findings.length - required : 0;
  const status = c.stopped
    ? 'stopped by you'
    : c.status === 'running'
      ? frames.length
        ? `streaming, ${frames.length} event(s)`
        : 'waiting for the answer'
      : c.status === 'error'
        ? 'not sent'
        : r?.ok
          ? 'answered'
          : 'answered with a problem';
  return (
    <li className={`call call-${c.status}`}>
      <article aria-labelledby={`call-${c.id}-h`}>
        <h3 id={`call-${c.id}-h`} className="call-title">
          <span className="call-id">{c.id}</span> <span className="untrusted-text">{c.title}</span>
        </h3>
        <p className="call-status" role={c.status === 'running' ? undefined : 'status'}>
          <span
            className={`chip chip-${c.stopped ? 'skip' : c.status === 'running' ? 'running' : c.status === 'error' ? 'error' : required ? 'fail' : 'pass'}`}
          >
            {status}
          </span>{' '}
          {r ? (
            <>
              {r.method} · {fmtMs(r.durationMs)} · {required} required finding(s), {advisories} advisory
            </>
          ) : null}
        </p>
        {c.error ? <p className="field-error">{c.error}</p> : null}
        {r ? <p className="call-summary untrusted-text">{r.summary}</p> : null}
        <div className="actions">
          {c.status === 'running' && (c.op === 'stream' || c.op === 'subscribe' || c.op === 'raw') ? (
            <button type="button" onClick={() => ctl.stop(c.id)}>
              Stop reading {c.id}
            </button>
          ) : null}
          {c.status !== 'running' && (c.op === 'send' || c.op === 'stream') ? (
            <button type="button" onClick={() => ctl.editAgain(c.id)}>
              Edit {c.id} again
            </button>
          ) : null}
          {r?.exchanges.map((x) => (
            <button key={x.exchangeId} type="button" className="linklike" onClick={() => timeline.reveal(x.exchangeId)}>
              Inspect exchange {x.exchangeId}
            </button>
          ))}
        </div>
        <Findings findings={wholeFindings} label={`Findings of call ${c.id}`} />
        {frames.length ? (
          <section aria-label={`Events of call ${c.id}`}>
            <h4>
              Events ({frames.length}){r?.stream ? `, stream ${c.stopped ? 'stopped by you' : STREAM_END[r.stream.end]}` : ''}
            </h4>
            <ol className="frames">
              {frames.map((f) => (
                <FrameRow key={f.seq} f={f} findings={r ? (byFrame.get(f.seq) ?? EMPTY) : f.findings} callId={c.id} />
              ))}
            </ol>
          </section>
        ) : null}
        {r?.value !== undefined && r.value !== null ? (
          <details className="call-value">
            <summary>Result value</summary>
            <pre className="body untrusted-text">{prettyBody(JSON.stringify(r.value))}</pre>
          </details>
        ) : null}
      </article>
    </li>
  );
}

/** Every call of the session, newest first, each with its status, findings and events. */
export function CallLog() {
  const calls = useConsoleState((s) => s.calls);
  return (
    <section className="call-log" aria-labelledby="console-calls-h">
      <h2 id="console-calls-h">Calls ({calls.length})</h2>
      {calls.length ? (
        <ol className="calls" reversed>
          {[...calls].reverse().map((c) => (
            <CallItem key={c.id} c={c} />
          ))}
        </ol>
      ) : (
        <p className="help">Nothing sent yet. Every answer and every streamed event is judged as it arrives, with the suite's own rules.</p>
      )}
    </section>
  );
}
