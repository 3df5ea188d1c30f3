import { useEffect, useEffectEvent, useId, useImperativeHandle, useMemo, useRef, useState, type FormEvent, type ReactNode, type Ref } from 'react';
import { CredentialFields, cardOffersOAuth } from '../../components/credential-fields';
import { Notice } from '../../components/notice';
import { buildRunLink, parseRunLink } from '../../lib/deep-link';
import { CardError, explainTarget } from '../../lib/engine-adapter';
import { useCardPreview, useDemoAgents, useProxyHealth, type DemoAgent } from '../../lib/queries';
import { navigate, useLocation } from '../../lib/router';
import { useRunSession, useSessionState } from '../../lib/run-session';
import { useRunSelector, useRunStoreHandle } from '../../lib/run-store';
import { settingsStore, useSettings } from '../../lib/settings-store';
import { focusWhenPresent, VERDICT_HEADING_ID } from '../../lib/focus-request';
import { checkAgentUrl, completeAgentUrl } from '../../lib/url';
import { credentialsOf, draftFrom, type CredentialDraft } from './credentials';
import { JwksField, parseJwks } from './jwks-field';
import { useDebounced } from './use-debounced';

type FieldKey = 'agent' | 'peer' | 'credentials' | 'timeout';

/**
 * The Run form: agent, peer, credentials, timeout, skills; Run / Stop / Copy link; demo agents. Once a run
 * is on screen it collapses to a one-line bar (agent, Edit, Stop, Run again) so the results come first.
 * `children` (e.g. "Open a JSON report") show with the expanded form.
 */
/** What the page around the form may ask of it: open it for editing, or start the same run again. */
export interface RunFormHandle {
  edit(): void;
  retry(): void;
}

export function RunForm({ children, ref }: { children?: ReactNode; ref?: Ref<RunFormHandle> }) {
  const id = useId();
  const session = useRunSession();
  const live = useRunStoreHandle();
  const liveStatus = useRunSelector((s) => s.run.status);
  const liveAgent = useRunSelector((s) => s.run.agentUrl);
  const phase = useSessionState((s) => s.phase);
  const sessionError = useSessionState((s) => s.error);
  const location = useLocation();
  const mode = useSettings((s) => s.mode);
  const proxyUrl = useSettings((s) => s.proxyUrl);
  const proxyKind = useSettings((s) => s.proxyKind);
  const remembered = useSettings((s) => s.credentials);
  const remember = useSettings((s) => s.rememberCredentials);

  const link = useMemo(() => parseRunLink(location.search), [location.search]);
  const [agentUrl, setAgentUrl] = useState(link.agent ?? session.input?.agentUrl ?? '');
  const [peerUrl, setPeerUrl] = useState(link.peer ?? session.input?.peerUrl ?? '');
  const [draft, setDraft] = useState<CredentialDraft>(() => draftFrom(session.input?.credentials ?? remembered));
  const [timeoutS, setTimeoutS] = useState(String((session.input?.timeoutMs ?? 60_000) / 1000));
  const [jwksText, setJwksText] = useState('');
  const jwks = parseJwks(jwksText);
  const [skillChoice, setSkillChoice] = useState<Record<string, boolean>>({});
  const [errors, setErrors] = useState<string[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const [copied, setCopied] = useState<string | null>(null);
  const autoStarted = useRef(false);
  // A run on screen collapses the form; a link that names an agent (without run=1) opens it for editing.
  const [editing, setEditing] = useState(() => liveStatus === 'idle' || (!!link.agent && !link.run));
  const agentRef = useRef<HTMLInputElement>(null);
  const peerRef = useRef<HTMLInputElement>(null);
  const credentialsRef = useRef<HTMLSelectElement>(null);
  const timeoutRef = useRef<HTMLInputElement>(null);
  const focusField = (key: FieldKey) => {
    const field = { agent: agentRef, peer: peerRef, credentials: credentialsRef, timeout: timeoutRef }[key];
    field.current?.focus();
  };

  // A URL typed without a scheme is completed (http:// for this machine, https:// otherwise), not refused.
  const completion = completeAgentUrl(agentUrl);
  const urlCheck = checkAgentUrl(completion.url);
  const debouncedUrl = useDebounced(urlCheck.ok ? urlCheck.url : null, 500);
  const card = useCardPreview(debouncedUrl, { mode, proxyUrl });
  const health = useProxyHealth(proxyUrl, mode === 'proxy');
  const demos = useDemoAgents();
  const skills = card.data?.skills ?? [];
  const running = phase !== 'idle';

  // Typing a credential is what remembers it (when Settings says so): an event, not an effect of rendering.
  const editDraft = (next: CredentialDraft) => {
    setDraft(next);
    if (remember) {
      const c = credentialsOf(next);
      settingsStore.getState().setCredentials(c.ok ? c.value : undefined);
    }
  };

  /** Starts a run of the form as it is, or of `over` (a demo agent picked: its URL and credentials, run at once). */
  const start = (over?: { agentUrl: string; draft: CredentialDraft }) => {
    // Field problems are shown once, under their field, and focus goes to the first; the rest in one alert.
    const problems: string[] = [];
    const bad: Partial<Record<FieldKey, string>> = {};
    const typed = completeAgentUrl(over?.agentUrl ?? agentUrl);
    const agent = checkAgentUrl(typed.url);
    if (!agent.ok) bad.agent = agent.error;
    // The completed URL is what runs, so it is what the field shows from now on.
    else if (typed.added) setAgentUrl(typed.url);
    const peer = peerUrl.trim() ? checkAgentUrl(peerUrl, 'Peer agent URL') : null;
    if (peer && !peer.ok) bad.peer = peer.error;
    const creds = credentialsOf(over?.draft ?? draft);
    if (!creds.ok) bad.credentials = creds.error;
    const timeout = Number(timeoutS);
    if (!Number.isFinite(timeout) || timeout < 1 || timeout > 600) bad.timeout = 'Per-task timeout must be between 1 and 600 seconds.';
    if (mode === 'proxy' && health.data && !health.data.ok) {
      problems.push(
        `The proxy at ${proxyUrl || '/proxy'} is unreachable (${health.data.error ?? 'no answer'}). Start the dashboard with npm start, fix the Proxy URL in Settings, or switch to direct mode.`,
      );
    }
    setErrors(problems);
    setFieldErrors(bad);
    const firstBad = (['agent', 'peer', 'credentials', 'timeout'] as const).find((k) => bad[k]);
    if (!jwks.ok) problems.push(jwks.error);
    if (firstBad || problems.length || !agent.ok || !creds.ok || !jwks.ok) {
      // The previous agent's verdict must not stay on screen next to a URL it was not made for.
      if (!running) live.reset();
      if (firstBad) focusField(firstBad);
      return;
    }
    setEditing(false);
    // The form collapses (the field that had focus goes away): focus goes to the verdict's heading once it shows.
    focusWhenPresent(VERDICT_HEADING_ID);
    const picked = skills.filter((s) => skillChoice[s.id] !== false).map((s) => s.id);
    void session.start({
      agentUrl: agent.url,
      peerUrl: peer?.ok ? peer.url : undefined,
      credentials: creds.value,
      timeoutMs: Math.round(timeout * 1000),
      // The skills offered are the previewed card's: a demo picked and run at once has not been previewed.
      skills: !over && skills.length && picked.length < skills.length ? picked : undefined,
      jwks: jwks.value,
    });
  };

  useImperativeHandle(ref, () => ({ edit: () => setEditing(true), retry: () => start() }));

  /** A demo agent button fills the form with the demo (its credentials, or none) and runs it. */
  const runDemo = (url: string, demoCreds?: DemoAgent['demoCredentials']) => {
    const next = draftFrom(demoCreds);
    setAgentUrl(url);
    // A demo behind OAuth comes with its own client: picking it fills the credentials in (remembered as typed ones are).
    if (demoCreds) editDraft(next);
    else setDraft(next);
    setErrors([]);
    setFieldErrors({});
    if (!running) start({ agentUrl: url, draft: next });
  };

  // Deep link: ?agent=&peer=&run=1 fills the form and starts once; run=1 is then dropped from the
  // address so a reload does not start another run. The start reads the form as it is at that moment.
  const startFromLink = useEffectEvent(() => start());
  useEffect(() => {
    if (!link.run || autoStarted.current || !link.agent) return;
    autoStarted.current = true;
    const u = new URL(window.location.href);
    u.searchParams.delete('run');
    navigate(`${u.pathname}${u.search}`, { replace: true });
    startFromLink();
  }, [link]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!running) start();
  };

  const copyLink = async () => {
    const href = buildRunLink(window.location.href, { agent: urlCheck.ok ? urlCheck.url : agentUrl.trim(), peer: peerUrl.trim() || undefined });
    try {
      await navigator.clipboard.writeText(href);
      setCopied(`Link copied: ${href}`);
    } catch {
      setCopied(`Copy this link: ${href}`);
    }
  };

  const agentError = fieldErrors.agent ?? (agentUrl !== '' && !urlCheck.ok ? urlCheck.error : null);
  const hostedNote = mode === 'proxy' ? explainTarget(completion.url, { kind: proxyKind }) : undefined;
  const collapsed = !editing && (running || liveStatus !== 'idle');
  // After Stop, focus goes to the button that runs again once it can be pressed (Stop itself is disabled then).
  const stopAsked = useRef(false);
  const runButton = useRef<HTMLButtonElement>(null);
  const stop = () => {
    stopAsked.current = true;
    session.stop();
  };
  useEffect(() => {
    if (phase !== 'idle' || !stopAsked.current) return;
    stopAsked.current = false;
    runButton.current?.focus();
  }, [phase]);
  const wasCollapsed = useRef(collapsed);
  useEffect(() => {
    // Edit moves focus into the form; collapsing after Run keeps it on the bar.
    if (wasCollapsed.current && !collapsed) agentRef.current?.focus();
    wasCollapsed.current = collapsed;
  }, [collapsed]);

  if (collapsed) {
    return (
      <section className="run-bar" aria-labelledby={`${id}-h`}>
        <h1 id={`${id}-h`} className="run-bar-title">
          Run conformance
        </h1>
        <p className="run-bar-agent">
          <span className="help">Agent </span>
          <span className="run-bar-url">{liveAgent ?? agentUrl}</span>
        </p>
        <div className="run-bar-actions">
          <button type="button" onClick={() => setEditing(true)} aria-label="Edit the run setup">
            Edit
          </button>
          <button type="button" onClick={stop} disabled={phase !== 'running'}>
            Stop
          </button>
          <button ref={runButton} type="button" className="primary" onClick={() => start()} disabled={running}>
            Run again
          </button>
          {phase === 'stopping' ? <span role="status">Stopping…</span> : null}
        </div>
        {sessionError ? <Notice kind="error">{sessionError}</Notice> : null}
      </section>
    );
  }
  const cardProblem = card.error instanceof CardError || card.error instanceof Error ? cardErrorText(card.error, mode) : null;

  return (
    <section className="run-form" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Run conformance</h1>
      <div className="run-form-main">
        <form onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-agent`}>Agent URL</label>
            <input
              ref={agentRef}
              id={`${id}-agent`}
              type="url"
              inputMode="url"
              autoComplete="url"
              // An example, said as one: a bare URL in grey read as a value ("Agent URL is empty" surprised users).
              placeholder={`e.g. ${typeof window !== 'undefined' ? window.location.origin : 'http://127.0.0.1:4173'}/demo/v1`}
              value={agentUrl}
              onChange={(e) => {
                setAgentUrl(e.target.value);
                setFieldErrors((f) => ({ ...f, agent: undefined }));
              }}
              aria-invalid={!!agentError}
              aria-describedby={`${id}-agent-help`}
              required
            />
            <p id={`${id}-agent-help`} className={agentError ? 'help field-error' : 'help'}>
              {agentError ??
                (completion.added && urlCheck.ok
                  ? `No scheme typed: runs ${urlCheck.url} (${completion.added} added).`
                  : 'Base URL of the agent, or the URL of its card.')}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-peer`}>Peer agent URL (optional)</label>
            <input
              ref={peerRef}
              id={`${id}-peer`}
              type="url"
              inputMode="url"
              value={peerUrl}
              onChange={(e) => {
                setPeerUrl(e.target.value);
                setFieldErrors((f) => ({ ...f, peer: undefined }));
              }}
              aria-invalid={!!fieldErrors.peer}
              aria-describedby={`${id}-peer-help`}
            />
            <p id={`${id}-peer-help`} className={fieldErrors.peer ? 'help field-error' : 'help'}>
              {fieldErrors.peer ?? 'A second agent for the two-agent interop checks.'}
            </p>
          </div>
          <CredentialFields
            id={id}
            draft={draft}
            onChange={editDraft}
            offerOAuth={cardOffersOAuth(card.data?.target.rawCard)}
            error={fieldErrors.credentials}
            help={remember ? 'Remembered in this browser (see Settings).' : 'Kept in memory only; never saved with runs, reports or links.'}
            selectRef={credentialsRef}
          />
          <div className="field">
            <label htmlFor={`${id}-timeout`}>Per-task timeout (seconds)</label>
            <input
              ref={timeoutRef}
              id={`${id}-timeout`}
              type="number"
              min={1}
              max={600}
              value={timeoutS}
              onChange={(e) => setTimeoutS(e.target.value)}
              aria-invalid={!!fieldErrors.timeout}
              aria-describedby={fieldErrors.timeout ? `${id}-timeout-help` : undefined}
            />
            {fieldErrors.timeout ? (
              <p id={`${id}-timeout-help`} className="help field-error">
                {fieldErrors.timeout}
              </p>
            ) : null}
          </div>
          <JwksField value={jwksText} onChange={setJwksText} error={jwks.ok ? undefined : jwks.error} />
          {skills.length ? (
            <fieldset className="skills">
              <legend>Skills to exercise</legend>
              {skills.slice(0, 100).map((s) => (
                <label key={s.id} className="field-inline">
                  <input type="checkbox" checked={skillChoice[s.id] !== false} onChange={(e) => setSkillChoice({ ...skillChoice, [s.id]: e.target.checked })} />{' '}
                  {s.name} <span className="check-id">({s.id})</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          <div className="actions">
            <button ref={runButton} type="submit" className="primary" disabled={running}>
              Run conformance
            </button>
            <button type="button" onClick={stop} disabled={phase !== 'running'}>
              Stop
            </button>
            <button type="button" onClick={() => void copyLink()} disabled={!urlCheck.ok}>
              Copy link
            </button>
            {phase === 'stopping' ? <span role="status">Stopping…</span> : null}
          </div>
          {copied ? <p className="help">{copied}</p> : null}
        </form>
        {Object.values(fieldErrors).some(Boolean) ? <p className="help form-summary">Cannot start the run: fix the field marked above.</p> : null}
        {errors.length ? (
          <Notice kind="error" title="Cannot start the run.">
            <ul>
              {errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {sessionError ? <Notice kind="error">{sessionError}</Notice> : null}
        {hostedNote ? <Notice kind="warn">{hostedNote}</Notice> : null}
        {mode === 'proxy' && health.data && !health.data.ok ? (
          <Notice kind="error" title="The proxy is unreachable.">
            Start the dashboard with <code>npm start</code>, set a working Proxy URL in Settings, or switch to direct mode.
          </Notice>
        ) : null}
        {cardProblem ? (
          <Notice kind="warn" title="Card preview:">
            {cardProblem}
          </Notice>
        ) : null}
        {card.data ? (
          <p className="help">
            Card found at {card.data.target.cardUrl}: {skills.length} skill(s).
          </p>
        ) : null}
      </div>
      <div className="run-form-side">
        <DemoAgents demos={demos.data} error={demos.error} disabled={running} onPick={runDemo} />
        {children}
      </div>
    </section>
  );
}

function cardErrorText(e: Error, mode: string): string {
  if (e instanceof CardError && e.kind === 'not-found') {
    return `${e.message} Check the URL; if the card lives elsewhere, enter the card's own URL.`;
  }
  if (e instanceof CardError && e.kind === 'proxy') return `${e.message} Check that the agent is running and the URL is right.`;
  if (mode === 'direct') {
    return `The browser could not fetch the card (${e.message}). In direct mode this is usually CORS: the agent does not allow this page's origin. Use the proxy (Settings) or enable CORS on the agent.`;
  }
  return `Could not fetch the card: ${e.message}`;
}

function DemoAgents({
  demos,
  error,
  disabled,
  onPick,
}: {
  demos: DemoAgent[] | undefined;
  error: unknown;
  disabled: boolean;
  onPick: (url: string, creds?: DemoAgent['demoCredentials']) => void;
}) {
  if (error || !demos?.length) return null;
  return (
    <section className="demo-agents" aria-labelledby="demo-h">
      <h2 id="demo-h">Try a demo agent</h2>
      <ul>
        {demos.map((d) => (
          <li key={d.id}>
            <button type="button" disabled={disabled} onClick={() => onPick(d.baseUrl ?? d.url, d.demoCredentials)} aria-label={`Run demo agent ${d.label}`}>
              {d.label}
            </button>{' '}
            <span className="check-id">
              {d.generation ? `${d.generation} · ` : ''}
              {d.baseUrl ?? d.url}
              {d.expectedLevel ? ` · expected: ${d.expectedLevel}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
