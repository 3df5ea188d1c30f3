import type { RegistryLogEntry } from '../../lib/registry-db';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

/** How an entry went: `ok`, `failed` with why, or its warnings (mapper notes, card checks the export fails). */
function Result({ entry }: { entry: RegistryLogEntry }) {
  const notes = entry.notes ?? [];
  if (entry.outcome === 'failed') {
    return (
      <>
        <span className="registry-log-failed">failed</span>
        {notes.length ? <span className="untrusted-text">: {notes.join(' ')}</span> : null}
      </>
    );
  }
  if (!notes.length) return <>ok</>;
  return (
    <details>
      <summary>
        {notes.length} warning{notes.length === 1 ? '' : 's'}
      </summary>
      <ul className="registry-log-notes">
        {notes.map((n, i) => (
          <li key={i} className="untrusted-text">
            {n}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Every export and import, failed ones included, newest first. */
export function MapperLog({ entries, error }: { entries: RegistryLogEntry[] | undefined; error?: unknown }) {
  return (
    <section className="registry-log" aria-labelledby="registry-log-h">
      <h2 id="registry-log-h">Mapper log</h2>
      <p className="help">
        Direction, agent id + version, source URL, mapper a2a-mapper.v1, and how it went (failed adds, mapper warnings, card check failures of an export). Kept
        in this browser.
      </p>
      {error ? <p role="alert">Could not read the mapper log: {String(error)}</p> : null}
      {/* Focusable so a keyboard can scroll it sideways on a narrow screen (its rows have nothing else to focus). */}
      <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Mapper log (scrolls sideways on narrow screens)">
        <table aria-label="Mapper log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Dir</th>
              <th scope="col">Type</th>
              <th scope="col">Agent</th>
              <th scope="col">Schema</th>
              <th scope="col">Source</th>
              <th scope="col">Result</th>
            </tr>
          </thead>
          <tbody>
            {entries?.length ? (
              entries.map((e, i) => (
                <tr key={`${e.when}-${i}`}>
                  <td>{when(e.when)}</td>
                  <td>{e.dir}</td>
                  <td>{e.type}</td>
                  <td className="untrusted-text">{e.agent}</td>
                  <td>{e.schema}</td>
                  <td className="untrusted-text">{e.source ?? '–'}</td>
                  <td>
                    <Result entry={e} />
                  </td>
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={7}>{entries ? 'No export or import recorded yet.' : 'Loading…'}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
