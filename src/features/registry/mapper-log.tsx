import type { MapperLogEntry } from '../../lib/registry-db';

const when = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

/** Every export and import, newest first (seed 002's "Mapper log"). */
export function MapperLog({ entries, error }: { entries: MapperLogEntry[] | undefined; error?: unknown }) {
  return (
    <section className="registry-log" aria-labelledby="registry-log-h">
      <h2 id="registry-log-h">Mapper log</h2>
      <p className="help">Direction, agent id + version, source URL, mapper a2a-mapper.v1. Kept in this browser.</p>
      {error ? <p role="alert">Could not read the mapper log: {String(error)}</p> : null}
      <div className="table-scroll-x">
        <table aria-label="Mapper log">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Dir</th>
              <th scope="col">Type</th>
              <th scope="col">Agent</th>
              <th scope="col">Schema</th>
              <th scope="col">Source</th>
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
                </tr>
              ))
            ) : (
              <tr>
                <td colSpan={6}>{entries ? 'No export or import recorded yet.' : 'Loading…'}</td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
