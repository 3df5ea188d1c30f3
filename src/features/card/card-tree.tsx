import type { ReactNode } from 'react';
import { SafeLink } from '../../components/safe-link';
import { StatusChip } from '../../components/status-chip';
import { useRunStoreHandle } from '../../lib/run-store';
import { pathKey, type FieldVerdict } from './paths';

const MAX_DEPTH = 12;
const MAX_NODES = 3000;
const MAX_STRING = 2000;

const FAILING = new Set(['fail', 'error']);

function Verdicts({ list }: { list: FieldVerdict[] | undefined }) {
  const handle = useRunStoreHandle();
  if (!list?.length) return null;
  return (
    <span className="field-verdicts">
      {list.map((v) => (
        <span key={v.checkId} className={`field-verdict verdict-${v.status}`} title={v.message}>
          <StatusChip status={v.status} />{' '}
          {FAILING.has(v.status) || v.status === 'advisory' ? (
            <button
              type="button"
              className="linklike verdict-title"
              onClick={() => handle.showCheck(v.checkId)}
              aria-label={`Show check ${v.checkId}: ${v.title}`}
            >
              {v.checkId}
            </button>
          ) : (
            <span className="verdict-title">{v.title}</span>
          )}
          {v.status !== 'pass' ? <span className="verdict-msg">: {v.message}</span> : null}
        </span>
      ))}
    </span>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    const text = value.length > MAX_STRING ? `${value.slice(0, MAX_STRING)}… (${value.length - MAX_STRING} more characters)` : value;
    // Agent text: rendered as text by React, a link only for http(s) URLs.
    return /^https?:\/\//i.test(value) ? <SafeLink href={value}>{text}</SafeLink> : <span className="json-string">{text}</span>;
  }
  if (value === null) return <span className="json-null">null</span>;
  return <span className={`json-${typeof value}`}>{String(value)}</span>;
}

/**
 * An agent card as a tree of fields, each card check's verdict next to the field it concerns.
 * Bounded in depth and node count so a hostile card cannot stall the page.
 */
export function CardTree({ value, verdicts, label }: { value: unknown; verdicts: Map<string, FieldVerdict[]>; label: string }) {
  let nodes = 0;
  const render = (v: unknown, path: string[], depth: number): ReactNode => {
    if (++nodes > MAX_NODES) return <span className="json-cut">… (card too large to show in full)</span>;
    if (v === null || typeof v !== 'object') return <Scalar value={v} />;
    if (depth >= MAX_DEPTH) return <span className="json-cut">… (nested too deeply)</span>;
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v as Record<string, unknown>);
    if (!entries.length) return <span className="json-empty">{Array.isArray(v) ? '[]' : '{}'}</span>;
    return (
      <ul className="json-obj">
        {entries.map(([k, child]) => {
          const p = [...path, k];
          const here = verdicts.get(pathKey(p));
          const failing = here?.some((v) => FAILING.has(v.status));
          return (
            <li key={k} className={failing ? 'field-fail' : undefined}>
              <span className="json-key">{Array.isArray(v) ? `[${k}]` : k}</span>: {render(child, p, depth + 1)}
              <Verdicts list={verdicts.get(pathKey(p))} />
            </li>
          );
        })}
      </ul>
    );
  };
  return (
    <div className="card-tree" role="group" aria-label={label}>
      <Verdicts list={verdicts.get('/')} />
      {render(value, [], 0)}
    </div>
  );
}
