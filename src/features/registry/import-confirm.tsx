import { useId, useState } from 'react';
import type { PendingImport } from './use-registry';

/** Asked when an imported card names an agent that is already registered: keep its local fields or overwrite. */
export function ImportConfirm({
  pending,
  busy,
  onAnswer,
  onCancel,
}: {
  pending: PendingImport;
  busy: boolean;
  onAnswer: (keepLocal: boolean) => void;
  onCancel: () => void;
}) {
  const uid = useId();
  const [keepLocal, setKeepLocal] = useState(true);
  return (
    <form
      className="registry-confirm"
      aria-label="Agent already registered"
      onSubmit={(e) => {
        e.preventDefault();
        onAnswer(keepLocal);
      }}
    >
      <fieldset>
        <legend>
          <span className="untrusted-text">{pending.existing.name}</span> ({pending.existing.id}) is already registered. Its local fields:
        </legend>
        <label className="field-inline">
          <input type="radio" name={`${uid}-keep`} checked={keepLocal} onChange={() => setKeepLocal(true)} /> Keep its local fields
        </label>
        <label className="field-inline">
          <input type="radio" name={`${uid}-keep`} checked={!keepLocal} onChange={() => setKeepLocal(false)} /> Overwrite (replace the agent with the card)
        </label>
      </fieldset>
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          Import card
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
