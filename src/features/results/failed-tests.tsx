import { useMemo } from 'react';
import { toolErrorText } from '../../lib/format';
import { useRunResults } from '../../lib/run-store';
import { CATEGORY_LABEL } from './filter';

/** Failures with their fixes (seed step 5.4), then our tool's errors, kept apart from the agent's failures. */
export function FailedTests() {
  const rs = useRunResults();
  const { failed, errors } = useMemo(
    () => ({ failed: rs.filter((r) => r.status === 'fail'), errors: rs.filter((r) => r.status === 'error') }),
    [rs],
  );
  return (
    <>
      {failed.length ? (
        <section aria-labelledby="failed-heading">
          <h2 id="failed-heading">Failed tests</h2>
          <div className="table-scroll-x">
            <table className="failed-table" aria-label="Failed tests">
              <thead>
                <tr>
                  <th scope="col">Test</th>
                  <th scope="col">Category</th>
                  <th scope="col">Message</th>
                  <th scope="col">Recommendation</th>
                </tr>
              </thead>
              <tbody>
                {failed.map((r) => (
                  <tr key={r.id}>
                    <th scope="row">
                      {r.test}
                      <div className="check-id">
                        {r.id} · {r.level}
                        {r.critical ? ' · critical' : ''}
                      </div>
                    </th>
                    <td>{CATEGORY_LABEL[r.category]}</td>
                    <td>{r.message}</td>
                    <td>{r.recommendation ?? '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}
      {errors.length ? (
        <section aria-labelledby="tool-errors-heading">
          <h2 id="tool-errors-heading">Checks our tool could not run</h2>
          <p>These are not the agent's failures; they make the level provisional.</p>
          <ul className="tool-errors">
            {errors.map((r) => (
              <li key={r.id}>
                <strong>{r.test}</strong>: {toolErrorText(r.proxyError)} {r.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
