import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Notice } from '../../components/notice';
import type { ConsoleArchive, ConsoleRecord } from '../../lib/console-db';
import { downloadFile } from '../../lib/download';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import { useConsole, useConsoleArchive, useConsoleState } from './console-context';
import type { ConsoleCall } from './console-store';
import type { SessionExport } from './export';

export const CONSOLE_SESSIONS_KEY = ['console-sessions'] as const;

const exportOf = (r: ConsoleRecord<ConsoleCall>): SessionExport => ({
  agentUrl: r.agentUrl,
  agentName: r.agentName,
  generation: r.generation,
  binding: r.binding,
  startedAt: r.startedAt,
  calls: Array.isArray(r.calls) ? r.calls : [],
});

/** Saves a session as a file; the exporters load on first use (they stay out of the first-load bundle). */
async function saveAs(data: SessionExport, format: 'json' | 'md') {
  const { sessionJson, sessionMarkdown } = await import('./export');
  const f = format === 'json' ? sessionJson(data) : sessionMarkdown(data);
  downloadFile(f.filename, f.mimeType, f.body);
}

async function exportSaved(archive: ConsoleArchive, id: string, format: 'json' | 'md') {
  const r = (await archive.get(id)) as ConsoleRecord<ConsoleCall> | undefined;
  if (r) await saveAs(exportOf(r), format);
}

/** The session on screen as JSON or Markdown. */
export function CurrentSessionExport() {
  const st = useConsoleState((s) => s);
  if (!st.calls.length || !st.startedAt) return null;
  const data: SessionExport = {
    agentUrl: st.agentUrl,
    agentName: st.target?.agentName,
    generation: st.target?.testedGeneration ?? st.target?.generation,
    binding: st.target?.binding,
    startedAt: st.startedAt,
    calls: st.calls.filter((c) => c.status !== 'running'),
  };
  const save = (format: 'json' | 'md') => void saveAs(data, format);
  return (
    <div className="actions export-session" role="group" aria-label="Export this session">
      <button type="button" onClick={() => save('json')}>
        Export session as JSON
      </button>
      <button type="button" onClick={() => save('md')}>
        Export session as Markdown
      </button>
    </div>
  );
}

/**
 * Console sessions kept in this browser, newest first: open one (its calls, tasks and timeline come back),
 * export it or delete it. `compact`: the History page's list, which links to the console.
 */
export function SessionsList({ compact = false }: { compact?: boolean }) {
  const archive = useConsoleArchive();
  const qc = useQueryClient();
  const q = useQuery({ queryKey: CONSOLE_SESSIONS_KEY, queryFn: () => archive.list() });
  const remove = async (id: string) => {
    await archive.delete(id);
    await qc.invalidateQueries({ queryKey: CONSOLE_SESSIONS_KEY });
  };
  return (
    <section className="console-sessions" aria-labelledby="console-sessions-h">
      <h2 id="console-sessions-h">Console sessions</h2>
      {q.isError ? <Notice kind="error">The saved sessions could not be read: {String(q.error)}</Notice> : null}
      {q.data && !q.data.length ? <p className="help">No console session saved in this browser yet.</p> : null}
      {q.data?.length ? (
        <div className="table-scroll" tabIndex={0} role="region" aria-label="Saved console sessions">
          <table aria-label="Console sessions">
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Protocol</th>
                <th scope="col">Last call</th>
                <th scope="col">Calls</th>
                <th scope="col">Required findings</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {q.data.map((s) => {
                const name = s.agentName ?? s.agentUrl;
                return (
                  <tr key={s.id}>
                    <td data-label="Agent">
                      <span className="untrusted-text">{name}</span>
                      {s.agentName ? <div className="check-id untrusted-text">{s.agentUrl}</div> : null}
                    </td>
                    <td data-label="Protocol">{s.generation ? `${s.generation}${s.binding ? ` ${s.binding}` : ''}` : '–'}</td>
                    <td data-label="Last call">{fmtDate(s.updatedAt)}</td>
                    <td data-label="Calls">{s.calls}</td>
                    <td data-label="Required findings">{s.findings}</td>
                    <td data-label="Actions">
                      <span className="actions">
                        {compact ? (
                          <Link
                            to={`/console?session=${encodeURIComponent(s.id)}`}
                            aria-label={`Open console session with ${name} from ${fmtDate(s.updatedAt)}`}
                          >
                            Open
                          </Link>
                        ) : (
                          <OpenButton id={s.id} label={`console session with ${name} from ${fmtDate(s.updatedAt)}`} />
                        )}
                        <button
                          type="button"
                          onClick={() => void exportSaved(archive, s.id, 'json')}
                          aria-label={`Export console session with ${name} as JSON`}
                        >
                          JSON
                        </button>
                        <button
                          type="button"
                          onClick={() => void exportSaved(archive, s.id, 'md')}
                          aria-label={`Export console session with ${name} as Markdown`}
                        >
                          Markdown
                        </button>
                        <button type="button" onClick={() => void remove(s.id)} aria-label={`Delete console session with ${name} from ${fmtDate(s.updatedAt)}`}>
                          Delete
                        </button>
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}

function OpenButton({ id, label }: { id: string; label: string }) {
  const ctl = useConsole();
  const archive = useConsoleArchive();
  const current = useConsoleState((s) => s.sessionId === id);
  return (
    <button
      type="button"
      disabled={current}
      aria-label={`${current ? 'Shown' : 'Open'}: ${label}`}
      onClick={() =>
        void archive.get(id).then((r) => {
          if (r) ctl.loadSaved(r as ConsoleRecord<ConsoleCall>);
        })
      }
    >
      {current ? 'Shown' : 'Open'}
    </button>
  );
}
