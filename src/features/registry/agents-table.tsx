import { SafeLink } from '../../components/safe-link';
import type { RunMeta } from '../../lib/db';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import type { StoredAgent } from '../../lib/registry-db';
import { generationOf, lastRunOf, orderedEndpoints, runLink, runTargetOf } from './helpers';
import { LastLevelChip } from './level-chip';
import type { Registry } from './use-registry';

/** What a row may do; the page passes the registry's actions. */
type RowActions = Pick<Registry, 'toggleSelected' | 'exportAgent' | 'edit' | 'askDelete' | 'keep' | 'remove'>;

/** The table "Registered agents" (labelled by the heading `labelledBy`): one row per agent with its last run and actions. */
export function AgentsTable({
  labelledBy,
  list,
  loading,
  runs,
  runsLoading,
  selected,
  exporting,
  confirmDelete,
  actions,
}: {
  labelledBy: string;
  list: readonly StoredAgent[];
  loading: boolean;
  /** The run history, for each agent's last run. */
  runs: readonly RunMeta[];
  runsLoading: boolean;
  selected: string | null;
  exporting: string | null;
  confirmDelete: string | null;
  actions: RowActions;
}) {
  return (
    <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Registered agents (scrolls sideways on narrow screens)">
      <table className="registry-table cards-on-phone" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Id@version</th>
            <th scope="col">Generation</th>
            <th scope="col">Endpoints</th>
            <th scope="col">Last run</th>
            <th scope="col">Updated</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {list.length === 0 ? (
            <tr>
              <td colSpan={7}>{loading ? 'Loading…' : 'No agents yet. Add one by URL, import a card, or create a new agent.'}</td>
            </tr>
          ) : null}
          {list.map((s) => (
            <AgentRow
              key={s.id}
              stored={s}
              runs={runs}
              runsLoading={runsLoading}
              selected={s.id === selected}
              exporting={exporting === s.id}
              confirmingDelete={confirmDelete === s.id}
              actions={actions}
            />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AgentRow({
  stored: s,
  runs,
  runsLoading,
  selected,
  exporting,
  confirmingDelete,
  actions,
}: {
  stored: StoredAgent;
  runs: readonly RunMeta[];
  runsLoading: boolean;
  selected: boolean;
  exporting: boolean;
  confirmingDelete: boolean;
  actions: RowActions;
}) {
  const target = runTargetOf(s.agent);
  const label = `${s.agent.name} (${s.id})`;
  const last = lastRunOf(s.agent, runs);
  return (
    <tr className={selected ? 'selected' : undefined}>
      <th scope="row">
        <button
          type="button"
          className="linklike untrusted-text"
          aria-pressed={selected}
          aria-label={`Show exported card of ${label}`}
          onClick={() => actions.toggleSelected(s.id)}
        >
          {s.agent.name}
        </button>
      </th>
      <td className="check-id" data-label="Id@version">
        {s.id}@{s.agent.version}
      </td>
      <td data-label="Generation">{generationOf(s.agent)}</td>
      <td data-label="Endpoints">
        <Endpoints stored={s} />
      </td>
      <td data-label="Last run">
        {last ? (
          <div className="registry-last-run">
            <LastLevelChip run={last} />
            <Link to={`/runs/${encodeURIComponent(last.runId)}`} aria-label={`Open the last run of ${label}, ${fmtDate(last.startedAt)}`}>
              {fmtDate(last.startedAt)}
            </Link>
          </div>
        ) : (
          <span className="help">{runsLoading ? 'Loading…' : 'Never run here'}</span>
        )}
      </td>
      <td data-label="Updated">{fmtDate(s.updatedAt)}</td>
      <td className="row-actions" data-label="Actions">
        {target ? (
          <>
            <Link to={runLink(target, { start: true })} className="button-link" aria-label={`Run now on ${label}`}>
              Run now
            </Link>
            <Link to={runLink(target)} aria-label={`Set up run for ${label}`}>
              Set up run
            </Link>
          </>
        ) : (
          <span className="help">No http(s) URL to run</span>
        )}
        <button type="button" aria-label={`Export card of ${label}`} disabled={exporting} onClick={() => actions.exportAgent(s)}>
          Export card
        </button>
        <button type="button" aria-label={`Edit ${label}`} onClick={() => actions.edit(s.id)}>
          Edit
        </button>
        {confirmingDelete ? (
          <>
            <button type="button" onClick={() => actions.remove(s.id)}>
              Confirm delete
            </button>
            <button type="button" onClick={actions.keep}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" aria-label={`Delete ${label}`} onClick={() => actions.askDelete(s.id)}>
            Delete
          </button>
        )}
      </td>
    </tr>
  );
}

/** The first five endpoints in the order the exported card lists them. */
function Endpoints({ stored: s }: { stored: StoredAgent }) {
  if (!s.agent.endpoints.length) return <>none</>;
  return (
    <ul className="registry-endpoints">
      {orderedEndpoints(s.agent)
        .slice(0, 5)
        .map((e, i) => (
          <li key={i}>
            {e.protocol}
            {e.binding ? ` ${e.binding}` : ''}
            {e.protocolVersion ? ` ${e.protocolVersion}` : ''} <SafeLink href={e.url} />
          </li>
        ))}
      {s.agent.endpoints.length > 5 ? <li>{s.agent.endpoints.length - 5} more</li> : null}
    </ul>
  );
}
