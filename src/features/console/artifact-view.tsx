import { useMemo } from 'react';
import { SafeLink } from '../../components/safe-link';
import { decodeBase64, downloadName, imageSrc, parseJson, renderingOf, type ArtifactView, type PartView } from './parts';

/** Nodes a JSON tree renders before it says "… more": a hostile answer can hold millions. */
const TREE_BUDGET = 2_000;
const MAX_TEXT = 100_000;

interface TreeNode {
  name: string | null;
  /** Leaves: the value as JSON text and its type (for colour). */
  leaf?: { text: string; type: string };
  children?: TreeNode[];
  /** Branches: how many entries, and how many were left out for the budget. */
  count?: number;
  more?: number;
}

/** The value as a bounded tree: at most `budget` nodes, breadth kept in order. Pure. */
function treeOf(value: unknown, budget = TREE_BUDGET): TreeNode {
  let left = budget;
  const walk = (name: string | null, v: unknown): TreeNode => {
    left--;
    if (v === null || typeof v !== 'object') {
      const text = typeof v === 'string' ? JSON.stringify(v.length > 4_000 ? `${v.slice(0, 4_000)}…` : v) : String(v);
      return { name, leaf: { text, type: v === null ? 'null' : typeof v } };
    }
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [String(i), x]) : Object.entries(v);
    const children: TreeNode[] = [];
    for (const [k, x] of entries) {
      if (left <= 0) break;
      children.push(walk(k, x));
    }
    return { name, children, count: entries.length, more: entries.length - children.length };
  };
  return walk(null, value);
}

/** A JSON value as a tree of native disclosure widgets (keyboard and screen reader friendly); strings as text. */
function JsonTree({ value, label }: { value: unknown; label: string }) {
  const tree = useMemo(() => treeOf(value), [value]);
  return (
    <div className="json-tree" role="group" aria-label={label}>
      <JsonNode node={tree} depth={0} />
    </div>
  );
}

function JsonNode({ node, depth }: { node: TreeNode; depth: number }) {
  const key = node.name === null ? null : <span className="jt-key">{node.name}: </span>;
  if (node.leaf) {
    return (
      <div className="jt-leaf">
        {key}
        <span className={`jt-${node.leaf.type}`}>{node.leaf.text}</span>
      </div>
    );
  }
  return (
    <details className="jt-node" open={depth < 2}>
      <summary>
        {key}
        <span className="jt-count">{`${node.count ?? 0} ${node.count === 1 ? 'entry' : 'entries'}`}</span>
      </summary>
      <div className="jt-children">
        {node.children?.map((c, i) => (
          <JsonNode key={`${c.name ?? ''}-${i}`} node={c} depth={depth + 1} />
        ))}
        {node.more ? <div className="jt-leaf help">… {node.more} more (too large to show here; use Copy JSON in the wire inspector)</div> : null}
      </div>
    </details>
  );
}

function download(p: PartView & { kind: 'file' }) {
  const bytes = p.bytes !== undefined ? decodeBase64(p.bytes) : undefined;
  if (!bytes) return;
  // Always octet-stream: the browser saves the file and never renders what the agent sent as a page of ours.
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = downloadName(p.name);
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One part by its media type: text as text (HTML too), JSON as a tree, raster images inline, the rest downloadable. */
export function PartViewer({ part, label }: { part: PartView; label: string }) {
  const how = renderingOf(part);
  const json = useMemo(
    () => (how === 'json' ? (part.kind === 'data' ? part.data : part.kind === 'text' ? parseJson(part.text) : undefined) : undefined),
    [how, part],
  );
  const type = part.kind === 'file' || part.mediaType ? <span className="part-type">{part.mediaType ?? 'no media type'}</span> : null;
  switch (how) {
    case 'text': {
      const text = part.kind === 'text' ? part.text : '';
      return (
        <div className="part part-text">
          {type}
          <pre className="body untrusted-text">{text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n… ${text.length - MAX_TEXT} more characters` : text}</pre>
        </div>
      );
    }
    case 'json':
      return (
        <div className="part part-json">
          {type ?? <span className="part-type">JSON data</span>}
          <JsonTree value={json} label={`${label}: JSON`} />
        </div>
      );
    case 'image':
      return (
        <figure className="part part-image">
          <img src={imageSrc(part)} alt={`${label}: image${part.kind === 'file' && part.name ? ` ${part.name}` : ''} sent by the agent`} />
          <figcaption>
            {type} {part.kind === 'file' && part.name ? <span className="untrusted-text">{part.name}</span> : null}{' '}
            {part.kind === 'file' ? (
              <button type="button" onClick={() => download(part)}>
                Download {label}
              </button>
            ) : null}
          </figcaption>
        </figure>
      );
    case 'download':
      return part.kind === 'file' ? (
        <div className="part part-file">
          {type} <span className="untrusted-text">{part.name ?? '(no name)'}</span>{' '}
          {part.bytes !== undefined && decodeBase64(part.bytes) ? (
            <button type="button" onClick={() => download(part)}>
              Download {label}
            </button>
          ) : (
            <span className="help">(the bytes are not valid base64)</span>
          )}
        </div>
      ) : null;
    case 'link':
      return part.kind === 'file' ? (
        <div className="part part-file">
          {type} File by URI: <SafeLink href={part.uri}>{part.uri ?? '(no URI)'}</SafeLink>
        </div>
      ) : null;
  }
}

export function PartsList({ parts, label }: { parts: readonly PartView[]; label: string }) {
  if (!parts.length) return <p className="help">No parts.</p>;
  return (
    <ol className="parts">
      {parts.map((p, i) => (
        <li key={i}>
          <PartViewer part={p} label={`${label}, part ${i + 1}`} />
        </li>
      ))}
    </ol>
  );
}

export function ArtifactList({ artifacts, taskId }: { artifacts: readonly ArtifactView[]; taskId: string }) {
  if (!artifacts.length) return null;
  return (
    <section className="artifacts" aria-label={`Artifacts of task ${taskId}`}>
      <h4>Artifacts ({artifacts.length})</h4>
      {artifacts.map((a) => (
        <article key={a.key} className="artifact" aria-label={`Artifact ${a.name ?? a.key}`}>
          <p className="artifact-head">
            <strong className="untrusted-text">{a.name ?? a.artifactId ?? a.key}</strong>
            {a.description ? <span className="help untrusted-text"> {a.description}</span> : null}
            {!a.complete ? <span className="help"> (still streaming)</span> : null}
          </p>
          <PartsList parts={a.parts} label={`Artifact ${a.name ?? a.key}`} />
        </article>
      ))}
    </section>
  );
}
