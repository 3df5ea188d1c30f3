import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { TapFaults } from '../../engine/tap/types';
import { useTap, useTapState } from './tap-context';
import type { OpenTap, OrchestratorInfo } from './tap-api';

/** The fault toggles as typed (strings, so a field can be empty while it is edited). */
interface FaultDraft {
  delayMs: string;
  dropStreamAfter: string;
  failOnce: '' | '503' | 'reset';
  slowCardMs: string;
}

const draftOf = (f: TapFaults): FaultDraft => ({
  delayMs: f.delayMs ? String(f.delayMs) : '',
  dropStreamAfter: f.dropStreamAfter ? String(f.dropStreamAfter) : '',
  failOnce: f.failOnce === 503 ? '503' : f.failOnce === 'reset' ? 'reset' : '',
  slowCardMs: f.slowCardMs ? String(f.slowCardMs) : '',
});

const LIMITS = { delayMs: 60_000, dropStreamAfter: 10_000, slowCardMs: 60_000 } as const;

/** The faults a draft asks for, or the first field that is not a whole number in range. */
function faultsOf(d: FaultDraft): { faults: TapFaults } | { field: keyof typeof LIMITS; error: string } {
  const faults: TapFaults = {};
  for (const key of ['delayMs', 'dropStreamAfter', 'slowCardMs'] as const) {
    const raw = d[key].trim();
    if (!raw) continue;
    const n = Number(raw);
    const min = key === 'dropStreamAfter' ? 1 : 0;
    if (!Number.isInteger(n) || n < min || n > LIMITS[key]) return { field: key, error: `A whole number from ${min} to ${LIMITS[key]}, or empty for none.` };
    if (n > 0) faults[key] = n;
  }
  if (d.failOnce === '503') faults.failOnce = 503;
  if (d.failOnce === 'reset') faults.failOnce = 'reset';
  return { faults };
}

function NumberField({
  id,
  label,
  hint,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  hint: string;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field tap-fault">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-hint${error ? ` ${id}-err` : ''}`}
        aria-invalid={error ? true : undefined}
        className="narrow"
      />
      <span id={`${id}-hint`} className="help">
        {hint}
      </span>
      {error ? (
        <span id={`${id}-err`} className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** Agent URL, fault toggles, Start / Stop (region "Tap setup"). */
export function TapSetup() {
  const ctl = useTap();
  const id = useId();
  const phase = useTapState((s) => s.phase);
  const agentUrl = useTapState((s) => s.agentUrl);
  const faults = useTapState((s) => s.faults);
  const twoAgents = useTapState((s) => s.twoAgents);
  const [draft, setDraft] = useState<FaultDraft>(() => draftOf(faults));
  const [fieldError, setFieldError] = useState<{ field: string; error: string } | null>(null);
  const open = phase === 'open';
  const busy = phase === 'starting' || phase === 'stopping';
  const set = (patch: Partial<FaultDraft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setFieldError(null);
  };
  const parsed = (): TapFaults | null => {
    const r = faultsOf(draft);
    if ('error' in r) {
      setFieldError({ field: r.field, error: r.error });
      document.getElementById(`${id}-${r.field}`)?.focus();
      return null;
    }
    return r.faults;
  };
  const onStart = async (e: FormEvent) => {
    e.preventDefault();
    const f = parsed();
    if (!f) return;
    await ctl.setFaults(f);
    await ctl.start();
  };
  const onApply = async () => {
    const f = parsed();
    if (f) await ctl.setFaults(f);
  };
  const errorOf = (field: string) => (fieldError?.field === field ? fieldError.error : undefined);
  return (
    <section className="tap-setup" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Agent</h2>
      <form onSubmit={(e) => void onStart(e)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-url`}>Agent URL</label>
          <input
            id={`${id}-url`}
            type="url"
            value={agentUrl}
            placeholder="e.g. http://127.0.0.1:4173/demo/v03"
            onChange={(e) => ctl.setAgentUrl(e.target.value)}
            aria-describedby={`${id}-url-hint`}
            autoComplete="url"
          />
          <span id={`${id}-url-hint`} className="help">
            The agent&apos;s base URL or card URL. The tap serves its card with every interface pointing at the tap.
          </span>
        </div>
        <fieldset className="tap-faults">
          <legend>Fault injection</legend>
          <p className="help">To see how the client copes. Empty means none.</p>
          <NumberField
            id={`${id}-delayMs`}
            label="Delay every request (ms)"
            hint="Held before it is forwarded."
            value={draft.delayMs}
            error={errorOf('delayMs')}
            onChange={(v) => set({ delayMs: v })}
          />
          <NumberField
            id={`${id}-dropStreamAfter`}
            label="Drop streams after (events)"
            hint="The connection ends mid-stream."
            value={draft.dropStreamAfter}
            error={errorOf('dropStreamAfter')}
            onChange={(v) => set({ dropStreamAfter: v })}
          />
          <div className="field tap-fault">
            <label htmlFor={`${id}-failOnce`}>Fail the next request once</label>
            <select id={`${id}-failOnce`} value={draft.failOnce} onChange={(e) => set({ failOnce: e.target.value as FaultDraft['failOnce'] })}>
              <option value="">No</option>
              <option value="503">With 503 Service Unavailable</option>
              <option value="reset">By resetting the connection</option>
            </select>
          </div>
          <NumberField
            id={`${id}-slowCardMs`}
            label="Slow card (ms)"
            hint="The card's answer is held."
            value={draft.slowCardMs}
            error={errorOf('slowCardMs')}
            onChange={(v) => set({ slowCardMs: v })}
          />
          {open ? (
            <button type="button" onClick={() => void onApply()}>
              Apply faults
            </button>
          ) : null}
        </fieldset>
        <label className="field-inline">
          <input type="checkbox" checked={twoAgents} onChange={(e) => ctl.setTwoAgents(e.target.checked)} /> The client is an agent: judge the two-agent checks
          (A -&gt; B)
        </label>
        <div className="tap-actions">
          <button type="submit" className="primary" disabled={busy}>
            {open ? 'Restart tap' : 'Start tap'}
          </button>
          <button type="button" onClick={() => void ctl.stop()} disabled={!open}>
            Stop tap
          </button>
          {busy ? (
            <span className="help" role="status">
              {phase === 'starting' ? 'Starting…' : 'Stopping…'}
            </span>
          ) : null}
        </div>
      </form>
    </section>
  );
}

/** The two-agent demo: a tap in front of a demo agent (B), the demo orchestrator (A) asked twice at once. */
export function TapDemo({ orchestrator }: { orchestrator: () => Promise<OrchestratorInfo | null> }) {
  const ctl = useTap();
  const id = useId();
  const demo = useTapState((s) => s.demo);
  const phase = useTapState((s) => s.phase);
  const q = useQuery({ queryKey: ['demo-orchestrator'], queryFn: orchestrator, staleTime: Infinity, retry: false });
  const [peerId, setPeerId] = useState('v03');
  const [clientId, setClientId] = useState<string | null>(null);
  if (q.isPending) return null;
  const info = q.data;
  if (!info?.peers.length) return null;
  const peer = info.peers.find((p) => p.id === peerId) ?? info.peers[0]!;
  const client = info.clients.find((c) => c.id === clientId) ?? info.clients[0]!;
  const busy = demo.status === 'running' || phase === 'starting' || phase === 'stopping';
  return (
    <section className="tap-demo" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Two-agent demo</h2>
      <p className="help">
        Puts a tap in front of a demo agent (B) and asks the demo orchestrator (A, which calls B with the official SDK&apos;s client) two things at once, each
        to be forwarded to the tap: the conversation below is A talking to B.
      </p>
      <div className="tap-actions">
        <span className="field-inline">
          <label htmlFor={`${id}-peer`}>Agent B</label>
          <select id={`${id}-peer`} value={peer.id} onChange={(e) => setPeerId(e.target.value)}>
            {info.peers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </span>
        <span className="field-inline">
          <label htmlFor={`${id}-client`}>Agent A&apos;s client</label>
          <select id={`${id}-client`} value={client.id} onChange={(e) => setClientId(e.target.value)}>
            {info.clients.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </span>
        <button type="button" onClick={() => void ctl.runDemo(peer, client.url)} disabled={busy}>
          Orchestrator -&gt; demo agent
        </button>
      </div>
      {demo.status === 'running' ? (
        <p className="help" role="status">
          Asking the orchestrator…
        </p>
      ) : null}
      {demo.status === 'error' ? <p className="field-error untrusted-text">{demo.error}</p> : null}
      {demo.status === 'done' ? (
        <ul className="tap-demo-replies" aria-label="What the orchestrator answered">
          {demo.replies.map((r, i) => (
            <li key={i}>
              <strong>{r.question}</strong>: <span className={`chip chip-${r.state === 'completed' ? 'pass' : 'fail'}`}>{r.state}</span>{' '}
              <span className="untrusted-text">{r.text}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** Taps open on the server that this page does not follow (started before a reload, or in another tab). */
export function OpenTaps({ list }: { list: () => Promise<OpenTap[]> }) {
  const ctl = useTap();
  const id = useId();
  const current = useTapState((s) => (s.phase === 'open' ? s.tap?.id : undefined));
  const phase = useTapState((s) => s.phase);
  const q = useQuery({ queryKey: ['open-taps', phase], queryFn: list, staleTime: 5_000, retry: false });
  const others = (q.data ?? []).filter((t) => t.id !== current);
  if (!others.length) return null;
  return (
    <section className="tap-open" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Open taps</h2>
      <p className="help">Taps still open on this server (started before a reload, or in another tab). Follow one to see its conversation.</p>
      <ul>
        {others.slice(0, 16).map((t) => (
          <li key={t.id}>
            <code className="untrusted-text">{t.agentUrl}</code>{' '}
            <button type="button" onClick={() => void ctl.attach(t)} aria-label={`Follow tap ${t.id} (${t.agentUrl})`}>
              Follow
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
