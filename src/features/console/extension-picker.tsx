import type { SessionTarget } from '../../lib/console-adapter';
import { extensionList } from './compose';

/** The header the generation activates extensions with (for the help text; the engine sets it). */
const headerOf = (g: SessionTarget['generation']) => (g === 'v1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions');

/**
 * Extensions to activate on the message: a checkbox per extension the card declares and the list as text, where any
 * URI can be typed. Sent in the generation's header (v1.0 A2A-Extensions, v0.x X-A2A-Extensions). The card's required
 * extensions are activated on every request by the engine, as in a run (shown checked, not a choice).
 */
export function ExtensionPicker({
  id,
  target,
  value,
  error,
  onChange,
}: {
  id: string;
  target: SessionTarget | null | undefined;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  const declared = target?.extensions ?? [];
  const list = extensionList(value);
  const g = target?.testedGeneration ?? target?.generation;
  const toggle = (uri: string, on: boolean) => onChange((on ? [...list, uri] : list.filter((u) => u !== uri)).join(', '));
  const required = declared.filter((e) => e.required).map((e) => e.uri);
  const activated = new Set([...required, ...list]).size;
  return (
    <details className="more-options extensions" open={!!(value.trim() || error)}>
      <summary>Extensions{activated ? ` (${activated} activated)` : ''}</summary>
      {declared.length ? (
        <fieldset>
          <legend>Declared by the card</legend>
          {declared.map((e) => (
            <label key={e.uri} className="field-inline">
              <input type="checkbox" checked={e.required || list.includes(e.uri)} disabled={e.required} onChange={(ev) => toggle(e.uri, ev.target.checked)} />
              <span>
                <code>{e.uri}</code>
                {e.required ? ' (required: always activated)' : ''}
                {e.description ? ` · ${e.description}` : ''}
              </span>
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="field">
        <label htmlFor={`${id}-extensions`}>Extension URIs to activate (comma-separated)</label>
        <input
          id={`${id}-extensions`}
          className="mono"
          value={value}
          aria-invalid={!!error}
          aria-describedby={`${id}-extensions-help`}
          onChange={(e) => onChange(e.target.value)}
        />
        <p id={`${id}-extensions-help`} className={error ? 'help field-error' : 'help'}>
          {error ??
            (required.length
              ? `Sent in the ${headerOf(g)} header after the card's required ${required.join(', ')}, which every request activates (as in a run); empty: none more.`
              : `Sent in the ${headerOf(g)} header; empty: none.`)}
        </p>
      </div>
    </details>
  );
}
