import { useId, useState, type FormEvent } from 'react';
import { CredentialFields } from '../../components/credential-fields';
import { Notice } from '../../components/notice';
import { credentialsOf, draftFrom, type CredentialDraft } from '../../lib/credentials';
import type { Binding, Credentials } from '../../lib/engine';
import { useDemoAgents } from '../../lib/queries';
import { useRunSession } from '../../lib/run-session';
import { useSettings } from '../../lib/settings-store';
import { checkAgentUrl } from '../../lib/url';
import { useConsole, useConsoleState } from './console-context';
import { declaredInterfaces } from './interfaces';

/** Choices of interface before the card is known; once it is, the interfaces the card declares (see ConnectPanel). */
const BINDINGS: { value: string; label: string }[] = [
  { value: '', label: "The card's preferred binding" },
  { value: 'JSONRPC', label: 'JSON-RPC' },
  { value: 'HTTP+JSON', label: 'HTTP+JSON (REST)' },
  // v1.0 gRPC, as a run speaks it: through the local server's gRPC bridge in the browser (src/grpc), gRPC itself in Node.
  { value: 'GRPC', label: 'gRPC (v1.0)' },
];
const VERSIONS: { value: string; label: string }[] = [
  { value: '', label: "The card's version" },
  { value: '1.0', label: '1.0' },
  { value: '0.3', label: '0.3 (a v1.0 card’s compatibility interfaces)' },
];

/** The agent to talk to: URL, interface, credentials (in memory only); what discovery found once connected. */
export function ConnectPanel() {
  const ctl = useConsole();
  const id = useId();
  const runSession = useRunSession();
  const remembered = useSettings((s) => s.credentials);
  const phase = useConsoleState((s) => s.phase);
  const agentUrl = useConsoleState((s) => s.agentUrl);
  const target = useConsoleState((s) => s.target);
  const unavailable = useConsoleState((s) => s.unavailable);
  const sessionId = useConsoleState((s) => s.sessionId);
  const declared = target?.interfaces ? declaredInterfaces(target.interfaces) : null;
  const [url, setUrl] = useState(agentUrl);
  const [binding, setBinding] = useState('');
  const [version, setVersion] = useState('');
  const initialCredentials = (): Credentials | undefined =>
    ctl.sessionCredentials.kind !== 'none'
      ? ctl.sessionCredentials
      : runSession.input && runSession.input.agentUrl === agentUrl
        ? runSession.input.credentials
        : remembered;
  const [draft, setDraft] = useState<CredentialDraft>(() => draftFrom(initialCredentials()));
  // A session opened elsewhere (Open in console, a saved session): show its agent and the credentials it uses.
  const [shownSession, setShownSession] = useState(sessionId);
  if (shownSession !== sessionId) {
    setShownSession(sessionId);
    if (agentUrl) setUrl(agentUrl);
    if (ctl.sessionCredentials.kind !== 'none') setDraft(draftFrom(ctl.sessionCredentials));
  }
  const [urlError, setUrlError] = useState<string | null>(null);
  const [credError, setCredError] = useState<string | null>(null);
  const demo = useDemoAgents();
  const connect = (e?: FormEvent, to = url) => {
    e?.preventDefault();
    const u = checkAgentUrl(to);
    const c = credentialsOf(draft);
    setUrlError(u.ok ? null : u.error);
    setCredError(c.ok ? null : c.error);
    if (!u.ok) return document.getElementById(`${id}-url`)?.focus();
    if (!c.ok) return document.getElementById(`${id}-ckind`)?.focus();
    const prefer = binding || version ? { ...(binding && { binding: binding as Binding }), ...(version && { protocolVersion: version }) } : undefined;
    void ctl.connect({ agentUrl: to.trim(), credentials: c.value, prefer });
  };
  const connected = phase === 'open';
  const generation = target?.testedGeneration ?? target?.generation;
  return (
    <section className="connect" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Agent</h2>
      <form onSubmit={connect} noValidate aria-label="Connect to an agent">
        <div className="field">
          <label htmlFor={`${id}-url`}>Agent URL</label>
          <input
            id={`${id}-url`}
            type="url"
            value={url}
            placeholder="https://agent.example.com"
            aria-invalid={!!urlError}
            aria-describedby={urlError ? `${id}-url-err` : undefined}
            onChange={(e) => setUrl(e.target.value)}
          />
          {urlError ? (
            <p id={`${id}-url-err`} className="help field-error">
              {urlError}
            </p>
          ) : null}
        </div>
        {demo.data?.length ? (
          <div className="demo-picks" role="group" aria-label="Demo agents">
            <span className="help">Demo agents:</span>
            {demo.data.map((d) => (
              <button key={d.id} type="button" onClick={() => setUrl(d.baseUrl ?? d.url)} aria-label={`${d.id}: use the demo agent ${d.label}`}>
                {d.id}
              </button>
            ))}
          </div>
        ) : null}
        <fieldset className="interface">
          <legend>Interface</legend>
          <span className="field-inline">
            <label htmlFor={`${id}-binding`}>Binding</label>
            <select id={`${id}-binding`} value={binding} onChange={(e) => setBinding(e.target.value)}>
              {BINDINGS.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </select>
          </span>
          <span className="field-inline">
            <label htmlFor={`${id}-version`}>Protocol version</label>
            <select id={`${id}-version`} value={version} onChange={(e) => setVersion(e.target.value)}>
              {VERSIONS.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </select>
          </span>
          {declared && declared.count > 1 ? (
            <p className="help">
              The card declares {declared.count} interfaces: {declared.list}. Choose one above and connect again.
            </p>
          ) : null}
        </fieldset>
        <CredentialFields
          id={id}
          draft={draft}
          onChange={setDraft}
          offerOAuth={draft.kind === 'oauth2' || !!target?.oauth}
          error={credError ?? undefined}
          help="Kept in memory only; masked in everything shown, saved and exported."
          layout="inline"
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={phase === 'connecting'}>
            {phase === 'connecting' ? 'Connecting…' : connected && agentUrl === url.trim() ? 'Reconnect' : 'Connect'}
          </button>
          {connected ? (
            <button type="button" onClick={() => ctl.disconnect()}>
              Disconnect
            </button>
          ) : null}
          {phase !== 'idle' ? (
            <button type="button" onClick={() => ctl.reset()}>
              New session
            </button>
          ) : null}
        </div>
      </form>
      <div role="status" className="connect-status">
        {phase === 'connecting' ? <p>Reading the agent card…</p> : null}
        {connected && target ? (
          <p>
            Connected to <strong className="untrusted-text">{target.agentName ?? agentUrl}</strong>: A2A {generation} over {target.binding}
            {target.endpointUrl ? (
              <>
                {' '}
                at <code className="untrusted-text">{target.endpointUrl}</code>
              </>
            ) : null}
            {target.streaming === false ? ' (no streaming declared)' : ''}.
          </p>
        ) : null}
        {phase === 'saved' ? <p>A saved session: connect to send more.</p> : null}
      </div>
      {unavailable ? (
        <Notice kind="error" title="No session could be opened.">
          <span className="untrusted-text">{unavailable.message}</span>
        </Notice>
      ) : null}
      {connected && target?.evidence.length ? (
        <details className="evidence">
          <summary>Why this interface</summary>
          <ul>
            {target.evidence.map((e, i) => (
              <li key={i} className="untrusted-text">
                {e}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
