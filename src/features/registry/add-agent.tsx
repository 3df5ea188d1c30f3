import { useId, useState } from 'react';

/** "Add agent by URL": the card is found the way a run finds it. */
export function AddByUrl({ busy, onAdd }: { busy: boolean; onAdd: (url: string) => void }) {
  const uid = useId();
  const [url, setUrl] = useState('');
  return (
    <form
      className="registry-add"
      onSubmit={(e) => {
        e.preventDefault();
        onAdd(url);
      }}
      aria-label="Add agent by URL"
      noValidate
    >
      <div className="field">
        <label htmlFor={`${uid}-url`}>Agent or card URL</label>
        <input
          id={`${uid}-url`}
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={`${window.location.origin}/demo/v03`}
          aria-describedby={`${uid}-url-help`}
        />
        <p id={`${uid}-url-help`} className="help">
          The card is found the way a run finds it (well-known paths), through the proxy or directly as set in Settings.
        </p>
      </div>
      <button type="submit" disabled={busy}>
        Add agent by URL
      </button>
    </form>
  );
}

/** "Import card JSON": a file or pasted text, any generation. */
export function ImportCard({ busy, onText, onFile }: { busy: boolean; onText: (text: string, source: string) => void; onFile: (file: File) => Promise<void> }) {
  const uid = useId();
  const [paste, setPaste] = useState('');
  return (
    <section className="registry-import" aria-labelledby={`${uid}-imp`}>
      <h2 id={`${uid}-imp`}>Import card JSON</h2>
      <div className="field">
        <label htmlFor={`${uid}-file`}>Card JSON file</label>
        <input
          id={`${uid}-file`}
          type="file"
          accept="application/json,.json"
          onChange={(e) => {
            const input = e.currentTarget;
            const file = input.files?.[0];
            // Cleared once read, so choosing the same file again imports it again.
            if (file) void onFile(file).finally(() => (input.value = ''));
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${uid}-paste`}>Card JSON</label>
        <textarea
          id={`${uid}-paste`}
          className="registry-json"
          rows={5}
          spellCheck={false}
          value={paste}
          onChange={(e) => setPaste(e.target.value)}
          placeholder='{"name": "…", "supportedInterfaces": […]}'
        />
      </div>
      <button type="button" disabled={busy} onClick={() => onText(paste, 'pasted JSON')}>
        Import pasted JSON
      </button>
    </section>
  );
}
