import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Notice } from '../../components/notice';
import { SafeLink } from '../../components/safe-link';
import { RunArchive, type RunMeta } from '../../lib/db';
import { Redactor } from '../../lib/engine';
import { checkProxyHealth, CardError, createHost, discoverCard } from '../../lib/engine-adapter';
import { fmtDate } from '../../lib/format';
import { Link } from '../../lib/link';
import {
  checkCard,
  exportCard,
  importCard,
  logEntry,
  MAPPER_ID,
  RegistryDb,
  type CardVerdicts,
  type RegistryAgent,
  type RegistryLogEntry,
  type StoredAgent,
} from '../../lib/registry-db';
import { settingsStore } from '../../lib/settings-store';
import { checkAgentUrl } from '../../lib/url';
import { AgentEditor } from './agent-editor';
import { CardPreview } from './card-preview';
import { canExportV03, exportCardV03 } from './card-v03';
import { cardFilename, cardType, explainAddError, generationOf, isJsonObject, lastRunOf, orderedEndpoints, parseCardText, runLink, runTargetOf } from './helpers';
import { LastLevelChip } from './level-chip';
import { MapperLog } from './mapper-log';
import './registry.css';
import { downloadFile } from '../../lib/download';

/** What the page needs from outside; tests pass their own. */
export interface RegistryDeps {
  db: RegistryDb;
  /** Finds an agent's card from a URL and returns it (the dashboard's discovery, proxy or direct per Settings). Rejects with an explained error. */
  discover: (url: string, signal?: AbortSignal) => Promise<{ cardUrl: string; raw: unknown }>;
  checkCard: (card: Record<string, unknown>, signal?: AbortSignal) => Promise<CardVerdicts>;
  download: (filename: string, mimeType: string, body: string) => void;
  /** Runs saved in this browser (the run history), for each agent's last level. */
  runs: () => Promise<RunMeta[]>;
}

/** The dashboard's own discovery (Run view's card preview path), with the proxy's health asked when it is the problem. */
async function discoverWithSettings(url: string, signal?: AbortSignal): Promise<{ cardUrl: string; raw: unknown }> {
  const { mode, proxyUrl } = settingsStore.getState();
  try {
    const found = await discoverCard(createHost({ mode, proxyUrl }), url, signal);
    return { cardUrl: found.target.cardUrl ?? url, raw: found.target.rawCard };
  } catch (e) {
    if (mode === 'proxy' && !(e instanceof CardError && e.kind === 'not-found')) {
      const health = await checkProxyHealth(proxyUrl, signal);
      if (!health.ok) throw new Error(explainAddError(e, mode, health.error ?? 'no answer'));
    }
    throw new Error(explainAddError(e, mode));
  }
}

let defaultDeps: RegistryDeps | null = null;
let archive: RunArchive | null = null;
const getDefaultDeps = (): RegistryDeps =>
  (defaultDeps ??= { db: new RegistryDb(), discover: discoverWithSettings, checkCard, download: downloadFile, runs: () => (archive ??= new RunArchive()).list() });

/** A log entry for an add or import that failed before any agent was stored. Credentials in the URL are masked. */
const failedEntry = (source: string, message: string): RegistryLogEntry => ({
  when: new Date().toISOString(),
  dir: 'import',
  type: '–',
  agent: '–',
  schema: MAPPER_ID,
  source: /^https?:/i.test(source.trim()) ? new Redactor().url(source.trim()) : source,
  outcome: 'failed',
  notes: [message],
});

/** An export whose card checks failed, waiting for the user: export v1.0 anyway, the v0.3 shape, or cancel. */
interface PendingExport {
  stored: StoredAgent;
  v1: CardVerdicts;
  /** The v0.3 card and its verdicts, when the agent serves A2A 0.3. */
  v03?: { card: Record<string, unknown>; verdicts: CardVerdicts | null };
}

/** True when the exported card would fail our own card checks (advisories never block). */
const wouldFail = (v: CardVerdicts) => v.generation !== 'v1.0' || v.failures.some((f) => f.status === 'fail');

/** An import waiting for the user: the agent already exists, keep its local fields or overwrite? */
interface PendingImport {
  raw: Record<string, unknown>;
  sourceUrl?: string;
  /** The log's Source column. */
  source: string;
  existing: RegistryAgent;
  generation: string;
}

const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The agent registry (seed 002): registered agents, card import/export through the mapper, the mapper log. */
export function RegistryPage({ deps: given }: { deps?: RegistryDeps }) {
  const deps = given ?? getDefaultDeps();
  const { db } = deps;
  const uid = useId();
  const qc = useQueryClient();
  const agentsKey = ['registry', db.name, 'agents'];
  const logKey = ['registry', db.name, 'log'];
  const agents = useQuery({ queryKey: agentsKey, queryFn: () => db.list(), staleTime: 0 });
  const log = useQuery({ queryKey: logKey, queryFn: () => db.log(), staleTime: 0 });
  const refresh = () => qc.invalidateQueries({ queryKey: ['registry', db.name] });

  const [url, setUrl] = useState('');
  const [paste, setPaste] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<string[]>([]);
  const [pending, setPending] = useState<PendingImport | null>(null);
  const [keepLocal, setKeepLocal] = useState(true);
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [pendingExport, setPendingExport] = useState<PendingExport | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const lastRuns = useQuery({ queryKey: ['registry', db.name, 'runs'], queryFn: () => deps.runs(), staleTime: 0 });
  const fileRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController | null>(null);

  const list = agents.data ?? [];
  const selectedAgent = list.find((s) => s.id === selected);
  const editedAgent = editing?.id ? list.find((s) => s.id === editing.id) : undefined;

  const report = (ok: string | null, err: string | null = null) => {
    setStatus(ok);
    setProblem(err);
  };

  /** Imports now, or asks first when an agent with the same id exists. */
  const importMutation = useMutation({
    mutationFn: async (p: {
      raw: Record<string, unknown>;
      sourceUrl?: string;
      source: string;
      existing?: RegistryAgent;
      overwrite?: boolean;
      decided?: boolean;
    }): Promise<{ asked: PendingImport } | { stored: StoredAgent; generation: string; warnings: string[]; replaced: boolean; overwrite: boolean }> => {
      const first = importCard(p.raw, { sourceUrl: p.sourceUrl });
      if (!p.decided) {
        const existing = await db.get(first.agent.id);
        if (existing) return { asked: { raw: p.raw, sourceUrl: p.sourceUrl, source: p.source, existing: existing.agent, generation: first.generation } };
      }
      const r = p.existing ? importCard(p.raw, { sourceUrl: p.sourceUrl, existing: p.existing, overwrite: p.overwrite }) : first;
      const entry: RegistryLogEntry = { ...logEntry('import', r.agent, cardType(r.generation), p.source), ...(r.warnings.length ? { outcome: 'warnings', notes: r.warnings } : {}) };
      const stored = await db.put(r.agent, entry);
      return { stored, generation: r.generation, warnings: r.warnings, replaced: Boolean(p.existing), overwrite: Boolean(p.overwrite) };
    },
    onSuccess: (r) => {
      if ('asked' in r) {
        setKeepLocal(true);
        setPending(r.asked);
        report(null);
        return;
      }
      setPending(null);
      setWarnings(r.warnings);
      setSelected(r.stored.id);
      report(
        `${r.replaced ? 'Re-imported' : 'Imported'} ${r.stored.agent.name} (${r.stored.id}@${r.stored.agent.version}) from a ${r.generation} card${r.replaced ? (r.overwrite ? '; local fields overwritten' : '; local fields kept') : ''}.`,
      );
      void refresh();
    },
    onError: (e, p) => {
      const msg = e instanceof Error ? e.message : String(e);
      report(null, `The card could not be imported: ${msg}`);
      void logFailure(p.source, msg);
    },
  });

  const addByUrl = useMutation({
    mutationFn: async (input: string) => {
      const checked = checkAgentUrl(input, 'Agent or card URL');
      if (!checked.ok) throw new Error(checked.error);
      abortRef.current?.abort();
      const ac = new AbortController();
      abortRef.current = ac;
      const found = await deps.discover(checked.url, ac.signal);
      if (!isJsonObject(found.raw)) throw new Error(`The document at ${found.cardUrl} is not a JSON object, so it is not an agent card.`);
      return { raw: found.raw, cardUrl: found.cardUrl };
    },
    onSuccess: ({ raw, cardUrl }) => importMutation.mutate({ raw, sourceUrl: cardUrl, source: cardUrl }),
    onError: (e, input) => {
      const msg = e instanceof Error ? e.message : String(e);
      report(null, msg);
      void logFailure(input, msg);
    },
  });

  const save = useMutation({
    mutationFn: (agent: RegistryAgent) => db.put(agent),
    onSuccess: (stored) => {
      setEditing(null);
      setSelected(stored.id);
      report(`Saved ${stored.agent.name} (${stored.id}@${stored.agent.version}).`);
      void refresh();
    },
    onError: (e) => report(null, `The agent was not saved: ${e instanceof Error ? e.message : String(e)}`),
  });

  const del = useMutation({
    mutationFn: (id: string) => db.delete(id),
    onSuccess: (_, id) => {
      setConfirmDelete(null);
      if (selected === id) setSelected(null);
      if (editing?.id === id) setEditing(null);
      report(`Deleted ${id}.`);
      void refresh();
    },
    onError: (e) => report(null, `The agent was not deleted: ${String(e)}`),
  });

  /** Records a failed add or import in the mapper log (a log that cannot be written is not worth a second error). */
  const logFailure = async (source: string, message: string) => {
    await db.addLog(failedEntry(source, message)).catch(() => undefined);
    void refresh();
  };

  /** Downloads a card and logs the export (with the card check failures the user exported anyway). */
  const download = async (s: StoredAgent, shape: 'v1.0' | 'v0.3', card: Record<string, unknown>, failing: CardVerdicts['failures'] = []) => {
    const filename = cardFilename(s.id, shape);
    deps.download(filename, 'application/json', `${JSON.stringify(card, null, 2)}\n`);
    const source = shape === 'v0.3' ? String(card.url) : orderedEndpoints(s.agent)[0]?.url;
    const notes = failing.filter((f) => f.status !== 'pass').map((f) => `${f.id} (${f.status}): ${f.message}`);
    await db.addLog({ ...logEntry('export', s.agent, cardType(shape), source), ...(notes.length ? { outcome: 'warnings', notes } : {}) });
    setPendingExport(null);
    report(`Exported ${s.agent.name} as ${filename} (A2A ${shape})${notes.length ? `, with ${notes.length} card check finding${notes.length === 1 ? '' : 's'}` : ''}.`);
    void refresh();
  };

  /** Export: the v1.0 card is checked first; if it would fail our own card checks, the user is asked. */
  const onExport = async (s: StoredAgent) => {
    setPendingExport(null);
    setExporting(s.id);
    report('Checking the exported card…');
    try {
      const card = exportCard(s.agent);
      let v1: CardVerdicts | null = null;
      try {
        v1 = await deps.checkCard(card);
      } catch {
        v1 = null; // our checks failed: export as asked, unchecked (the preview says why)
      }
      if (!v1 || !wouldFail(v1)) return await download(s, 'v1.0', card, v1?.failures);
      let v03: PendingExport['v03'];
      if (canExportV03(s.agent)) {
        const c = exportCardV03(s.agent);
        v03 = { card: c, verdicts: await deps.checkCard(c).catch(() => null) };
      }
      setPendingExport({ stored: s, v1, v03 });
      report(null);
    } catch (e) {
      report(null, `Export failed in our tool: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setExporting(null);
    }
  };

  const onAddUrl = (e: FormEvent) => {
    e.preventDefault();
    setWarnings([]);
    setPending(null);
    addByUrl.mutate(url);
  };

  const importText = (text: string, source: string) => {
    setWarnings([]);
    setPending(null);
    const parsed = parseCardText(text);
    if (!parsed.ok) {
      void logFailure(source, parsed.error);
      return report(null, `${source}: ${parsed.error}`);
    }
    importMutation.mutate({ raw: parsed.card, source });
  };

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      const msg = `${file.name} is ${file.size} bytes; cards larger than ${MAX_FILE_BYTES} bytes are not imported.`;
      void logFailure(`file ${file.name}`, msg);
      return report(null, msg);
    }
    try {
      importText(await file.text(), `file ${file.name}`);
    } catch (e) {
      report(null, `Could not read ${file.name}: ${String(e)}`);
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const busy = addByUrl.isPending || importMutation.isPending;

  return (
    <section className="registry" aria-labelledby={`${uid}-h`}>
      <h1 id={`${uid}-h`}>Registry</h1>
      <p>
        Agents known to this browser, mapped both ways: an agent exports as an official A2A v1.0 card; an external card of any generation imports as a registry
        stub. Platform-native (local) fields stay internal. A mapping boundary, not an A2A runtime.
      </p>

      <div className="registry-inputs">
        <form className="registry-add" onSubmit={onAddUrl} aria-label="Add agent by URL" noValidate>
          <div className="field">
            <label htmlFor={`${uid}-url`}>Agent or card URL</label>
            <input id={`${uid}-url`} type="url" inputMode="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder={`${window.location.origin}/demo/v03`} aria-describedby={`${uid}-url-help`} />
            <p id={`${uid}-url-help`} className="help">
              The card is found the way a run finds it (well-known paths), through the proxy or directly as set in Settings.
            </p>
          </div>
          <button type="submit" disabled={busy}>
            Add agent by URL
          </button>
        </form>

        <section className="registry-import" aria-labelledby={`${uid}-imp`}>
          <h2 id={`${uid}-imp`}>Import card JSON</h2>
          <div className="field">
            <label htmlFor={`${uid}-file`}>Card JSON file</label>
            <input id={`${uid}-file`} ref={fileRef} type="file" accept="application/json,.json" onChange={(e) => void onFile(e.target.files?.[0])} />
          </div>
          <div className="field">
            <label htmlFor={`${uid}-paste`}>Card JSON</label>
            <textarea id={`${uid}-paste`} className="registry-json" rows={5} spellCheck={false} value={paste} onChange={(e) => setPaste(e.target.value)} placeholder='{"name": "…", "supportedInterfaces": […]}' />
          </div>
          <button type="button" disabled={busy} onClick={() => importText(paste, 'pasted JSON')}>
            Import pasted JSON
          </button>
        </section>
      </div>

      <p>
        <button type="button" onClick={() => setEditing({ id: null })} disabled={editing !== null && editing.id === null}>
          New agent
        </button>
      </p>

      <div role="status" aria-label="Registry status" className="registry-status">
        {busy ? 'Working…' : status}
      </div>
      {problem ? <Notice kind="error">{problem}</Notice> : null}
      {warnings.length ? (
        <Notice kind="warn" title="Mapper notes:">
          <ul>
            {warnings.slice(0, 20).map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
          {warnings.length > 20 ? `${warnings.length - 20} more.` : null}
        </Notice>
      ) : null}

      {pendingExport ? (
        <ExportWarning
          key={`${pendingExport.stored.id}@${pendingExport.stored.updatedAt}`}
          pending={pendingExport}
          onExport={(shape) =>
            void (shape === 'v0.3' && pendingExport.v03
              ? download(pendingExport.stored, 'v0.3', pendingExport.v03.card, pendingExport.v03.verdicts?.failures)
              : download(pendingExport.stored, 'v1.0', exportCard(pendingExport.stored.agent), pendingExport.v1.failures)
            ).catch((e: unknown) => report(null, `Export failed in our tool: ${e instanceof Error ? e.message : String(e)}`))
          }
          onCancel={() => {
            setPendingExport(null);
            report('Export canceled.');
          }}
        />
      ) : null}

      {pending ? (
        <form
          className="registry-confirm"
          aria-label="Agent already registered"
          onSubmit={(e) => {
            e.preventDefault();
            importMutation.mutate({ raw: pending.raw, sourceUrl: pending.sourceUrl, source: pending.source, existing: pending.existing, overwrite: !keepLocal, decided: true });
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
            <button type="button" onClick={() => setPending(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}

      {editing ? (
        <AgentEditor
          key={editing.id ?? 'new'}
          agent={editedAgent?.agent}
          takenIds={list.map((s) => s.id)}
          saving={save.isPending}
          onSave={(a) => save.mutate(a)}
          onCancel={() => setEditing(null)}
        />
      ) : null}

      <h2 id={`${uid}-list`}>Registered agents</h2>
      {agents.isError ? (
        <Notice kind="error" title="Could not read the registry.">
          {String(agents.error)} IndexedDB may be disabled (private mode).
        </Notice>
      ) : null}
      <div className="table-scroll-x" tabIndex={0} role="group" aria-label="Registered agents (scrolls sideways on narrow screens)">
        <table className="registry-table" aria-labelledby={`${uid}-list`}>
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
                <td colSpan={7}>{agents.isPending ? 'Loading…' : 'No agents yet. Add one by URL, import a card, or create a new agent.'}</td>
              </tr>
            ) : null}
            {list.map((s) => {
              const target = runTargetOf(s.agent);
              const label = `${s.agent.name} (${s.id})`;
              const last = lastRunOf(s.agent, lastRuns.data ?? []);
              return (
                <tr key={s.id} className={s.id === selected ? 'selected' : undefined}>
                  <th scope="row">
                    <button type="button" className="linklike untrusted-text" aria-pressed={s.id === selected} aria-label={`Show exported card of ${label}`} onClick={() => setSelected(s.id === selected ? null : s.id)}>
                      {s.agent.name}
                    </button>
                  </th>
                  <td className="check-id">
                    {s.id}@{s.agent.version}
                  </td>
                  <td>{generationOf(s.agent)}</td>
                  <td>
                    {s.agent.endpoints.length ? (
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
                    ) : (
                      'none'
                    )}
                  </td>
                  <td>
                    {last ? (
                      <div className="registry-last-run">
                        <LastLevelChip run={last} />
                        <Link to={`/runs/${encodeURIComponent(last.runId)}`} aria-label={`Open the last run of ${label}, ${fmtDate(last.startedAt)}`}>
                          {fmtDate(last.startedAt)}
                        </Link>
                      </div>
                    ) : (
                      <span className="help">{lastRuns.isPending ? 'Loading…' : 'Never run here'}</span>
                    )}
                  </td>
                  <td>{fmtDate(s.updatedAt)}</td>
                  <td className="actions">
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
                    <button type="button" aria-label={`Export card of ${label}`} disabled={exporting === s.id} onClick={() => void onExport(s)}>
                      Export card
                    </button>
                    <button type="button" aria-label={`Edit ${label}`} onClick={() => setEditing({ id: s.id })}>
                      Edit
                    </button>
                    {confirmDelete === s.id ? (
                      <>
                        <button type="button" onClick={() => del.mutate(s.id)}>
                          Confirm delete
                        </button>
                        <button type="button" onClick={() => setConfirmDelete(null)}>
                          Keep
                        </button>
                      </>
                    ) : (
                      <button type="button" aria-label={`Delete ${label}`} onClick={() => setConfirmDelete(s.id)}>
                        Delete
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>

      {selectedAgent ? <CardPreview stored={selectedAgent} dbName={db.name} check={deps.checkCard} /> : null}

      <MapperLog entries={log.data} error={log.error} />
    </section>
  );
}

/** Asks before exporting a card that would fail our own card checks, and offers the v0.3 shape when it fits the agent. */
function ExportWarning({ pending, onExport, onCancel }: { pending: PendingExport; onExport: (shape: 'v1.0' | 'v0.3') => void; onCancel: () => void }) {
  const uid = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.scrollIntoView?.({ block: 'nearest' });
    heading.current?.focus();
  }, []);
  const { stored, v1, v03 } = pending;
  const failing = v1.failures.filter((f) => f.status === 'fail');
  const v03Ok = v03?.verdicts && !v03.verdicts.failures.some((f) => f.status === 'fail');
  return (
    <section className="registry-export-warning" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`} ref={heading} tabIndex={-1}>
        The v1.0 card of <span className="untrusted-text">{stored.agent.name}</span> would fail our card checks
      </h2>
      {v1.generation !== 'v1.0' ? (
        <p>
          None of its interfaces serves A2A 1.0, so clients (and our checks) read this v1.0-shaped card as a {v1.generation} card, which it is not shaped like.
        </p>
      ) : null}
      {failing.length ? (
        <ul aria-label="Card checks the v1.0 card fails">
          {failing.map((f) => (
            <li key={f.id}>
              <strong>{f.test}</strong> <span className="check-id">{f.id}</span> ({f.level}): <span className="untrusted-text">{f.message}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {v03 ? (
        <p>
          This agent serves A2A 0.3: its v0.3 card{' '}
          {v03.verdicts
            ? v03Ok
              ? `passes every card check that applies (${v03.verdicts.passed} of ${v03.verdicts.judged}).`
              : `fails ${v03.verdicts.failures.filter((f) => f.status === 'fail').length} card check(s) too: ${v03.verdicts.failures.map((f) => f.id).join(', ')}.`
            : 'could not be checked (our tool failed).'}
        </p>
      ) : (
        <p>No interface of this agent serves A2A 0.x, so there is no v0.3 card to offer. Fix the agent's entry (Edit), or export the v1.0 card as it is.</p>
      )}
      <div className="actions">
        {v03 ? (
          <button type="button" className="primary" onClick={() => onExport('v0.3')}>
            Export v0.3 card
          </button>
        ) : null}
        <button type="button" onClick={() => onExport('v1.0')}>
          Export v1.0 card anyway
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
