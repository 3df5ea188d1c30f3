import { useId } from 'react';
import { Notice } from '../../components/notice';
import { proxyEndpoint } from '../../lib/engine-adapter';
import { useProxyHealth } from '../../lib/queries';
import { CREDENTIALS_WHERE, settingsStore, useSettings } from '../../lib/settings-store';

/** Proxy URL, direct mode, and whether credentials are remembered. */
export function SettingsPanel() {
  const id = useId();
  const mode = useSettings((s) => s.mode);
  const proxyUrl = useSettings((s) => s.proxyUrl);
  const proxyKind = useSettings((s) => s.proxyKind);
  const remember = useSettings((s) => s.rememberCredentials);
  const insecure = useSettings((s) => s.allowInsecureCredentials);
  const update = settingsStore.getState().update;
  const health = useProxyHealth(proxyUrl, mode === 'proxy');
  return (
    <section className="settings" aria-labelledby={`${id}-h`}>
      <h1 id={`${id}-h`}>Settings</h1>
      <fieldset>
        <legend>How requests reach the agent</legend>
        <label>
          <input type="radio" name={`${id}-mode`} checked={mode === 'proxy'} onChange={() => update({ mode: 'proxy' })} /> Through the CORS proxy
        </label>
        <label>
          <input type="radio" name={`${id}-mode`} checked={mode === 'direct'} onChange={() => update({ mode: 'direct' })} /> Direct (the agent must allow CORS)
        </label>
      </fieldset>
      <div className="field">
        <label htmlFor={`${id}-proxy`}>Proxy URL</label>
        <input
          id={`${id}-proxy`}
          type="url"
          placeholder="/proxy (same origin)"
          value={proxyUrl}
          disabled={mode === 'direct'}
          onChange={(e) => update({ proxyUrl: e.target.value })}
          aria-describedby={`${id}-proxy-help`}
        />
        <p id={`${id}-proxy-help`} className="help">
          Empty means the proxy served with this page ({proxyEndpoint(proxyUrl)}).
        </p>
      </div>
      <label className="field-inline">
        <input
          type="checkbox"
          checked={proxyKind === 'hosted'}
          disabled={mode === 'direct'}
          onChange={(e) => update({ proxyKind: e.target.checked ? 'hosted' : 'local' })}
        />{' '}
        The proxy is hosted (edge), not on this machine
      </label>
      {mode === 'proxy' ? (
        <p role="status" aria-label="Proxy status" className="proxy-status">
          {health.isPending
            ? 'Checking the proxy…'
            : health.data?.ok
              ? `Proxy reachable${health.data.mode ? ` (${health.data.mode} mode)` : ''}.`
              : `Proxy unreachable: ${health.data?.error ?? String(health.error ?? 'unknown error')}`}
        </p>
      ) : null}
      {mode === 'proxy' && health.data && !health.data.ok ? (
        <Notice kind="error" title="The proxy is unreachable.">
          Start the dashboard with <code>npm start</code> (it serves the proxy at /proxy), set the Proxy URL of a running proxy, or switch to direct mode if the
          agent allows CORS.
        </Notice>
      ) : null}
      <label className="field-inline">
        <input type="checkbox" checked={remember} onChange={(e) => update({ rememberCredentials: e.target.checked })} /> Remember credentials
      </label>
      <p className="help">
        {remember
          ? `Credentials are kept in ${CREDENTIALS_WHERE}. Untick to forget them.`
          : 'Credentials stay in memory for this tab only and are never saved with runs or reports.'}
      </p>
      <label className="field-inline">
        <input type="checkbox" checked={insecure} onChange={(e) => update({ allowInsecureCredentials: e.target.checked })} /> Send credentials over plain HTTP
        to other machines (local testing)
      </label>
      <p className="help">
        {insecure
          ? 'Tokens and API keys also go to http:// agents on other machines, where anyone on the network path can read them. Untick when you are done.'
          : 'Tokens and API keys go only over https, or over http to this machine (localhost, 127.0.0.1): an http:// agent elsewhere gets a tool error instead.'}
      </p>
    </section>
  );
}
