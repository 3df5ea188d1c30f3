import { useId, useState, type FormEvent } from 'react';
import { toCurl } from '../../lib/curl';
import { useConsole, useConsoleState } from './console-context';
import { parseHeaderLines, rawRequestOf } from './raw';

const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'];

/**
 * A request loaded from a run's exchange (Open in console), editable and sent again through the session: the
 * answer is judged as the operation it is. Masked credential values are filled in from the session's credentials.
 */
export function RequestEditor() {
  const ctl = useConsole();
  const id = useId();
  const editor = useConsoleState((s) => s.editor);
  const open = useConsoleState((s) => s.phase === 'open');
  const grpc = useConsoleState((s) => s.target?.binding === 'GRPC');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  if (!editor) return null;
  const set = (patch: Partial<typeof editor>) => {
    ctl.setEditor({ ...editor, ...patch });
    setError(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const req = rawRequestOf(editor);
    if (!req.ok) {
      setError(req.error);
      document.getElementById(`${id}-${req.field}`)?.focus();
      return;
    }
    void ctl.raw(req.request, editor.source);
  };
  const copyCurl = async () => {
    const headers = parseHeaderLines(editor.headers);
    const text = toCurl({
      request: {
        method: editor.method,
        url: editor.url,
        headers: headers.ok ? headers.headers : {},
        body: editor.body || undefined,
        bodySize: editor.body.length,
      },
    });
    try {
      await navigator.clipboard.writeText(text);
      setNote('cURL command copied (credentials stay masked).');
    } catch {
      setNote(`The browser did not allow copying: ${text}`);
    }
  };
  return (
    <form className="request-editor" aria-labelledby={`${id}-h`} onSubmit={submit} noValidate>
      <h2 id={`${id}-h`}>Request editor</h2>
      <p className="help">
        Loaded from <span className="untrusted-text">{editor.source}</span>. Edit it and send it again: the answer is judged as the operation it is. Masked
        values (<code>[REDACTED]</code>) are replaced by the session's credentials.
      </p>
      <div className="field-row">
        <span className="field-inline">
          <label htmlFor={`${id}-method`}>Method</label>
          <select id={`${id}-method`} value={editor.method} onChange={(e) => set({ method: e.target.value })}>
            {[...new Set([editor.method, ...METHODS])].map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </span>
      </div>
      <div className="field">
        <label htmlFor={`${id}-url`}>Request URL</label>
        <input id={`${id}-url`} value={editor.url} onChange={(e) => set({ url: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-headers`}>Request headers (one "Name: value" per line)</label>
        <textarea id={`${id}-headers`} className="mono" rows={4} value={editor.headers} onChange={(e) => set({ headers: e.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-body`}>Request body</label>
        <textarea id={`${id}-body`} className="mono" rows={10} value={editor.body} onChange={(e) => set({ body: e.target.value })} />
      </div>
      {error ? (
        <p className="help field-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="actions">
        <button type="submit" className="primary" disabled={!open || !ctl.supports.raw}>
          Send request again
        </button>
        <button type="button" onClick={() => void copyCurl()}>
          Copy request as cURL
        </button>
        <button type="button" onClick={() => ctl.setEditor(null)}>
          Close the request editor
        </button>
        {!open ? <span className="help">Connect to the agent to send it.</span> : null}
        {open && grpc ? (
          <span className="help">This session speaks gRPC: connect to a JSON-RPC or HTTP+JSON interface of the agent to re-send an HTTP request.</span>
        ) : null}
      </div>
      <p className="help" role="status">
        {note ?? ''}
      </p>
    </form>
  );
}
