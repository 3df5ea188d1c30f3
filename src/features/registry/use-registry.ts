import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Redactor } from '../../lib/engine';
import {
  exportCard,
  importCard,
  logEntry,
  MAPPER_ID,
  type CardVerdicts,
  type RegistryAgent,
  type RegistryLogEntry,
  type StoredAgent,
} from '../../lib/registry-db';
import { checkAgentUrl } from '../../lib/url';
import { canExportLegacy, exportCardLegacy, unseenVersionEndpoints } from './card-legacy';
import { canExportV03, exportCardV03 } from './card-v03';
import { cardFilename, cardType, isJsonObject, orderedEndpoints, parseCardText } from './helpers';
import type { RegistryDeps } from './registry-deps';

/** An export whose card checks failed, waiting for the user: export v1.0 anyway, the v0.3 shape, or cancel. */
export interface PendingExport {
  stored: StoredAgent;
  v1: CardVerdicts;
  /** The v0.3 card and its verdicts, when the agent serves A2A 0.3. */
  v03?: { card: Record<string, unknown>; verdicts: CardVerdicts | null };
  /**
   * Interfaces whose protocol version the registry never saw (registered from a legacy card): the v1.0 card would
   * claim "1.0" for them. With the legacy card offered instead, when one of them is JSON-RPC.
   */
  unseen?: { urls: string[]; legacy?: { card: Record<string, unknown>; verdicts: CardVerdicts | null } };
}

/** An import waiting for the user: the agent already exists, keep its local fields or overwrite? */
export interface PendingImport {
  raw: Record<string, unknown>;
  sourceUrl?: string;
  /** The log's Source column. */
  source: string;
  existing: RegistryAgent;
  generation: string;
}

/** What the page says after an action: one status line, or a problem, and the mapper's notes of the last import. */
export interface Feedback {
  status: string | null;
  problem: string | null;
  warnings: string[];
}

interface ImportRequest {
  raw: Record<string, unknown>;
  sourceUrl?: string;
  source: string;
  existing?: RegistryAgent;
  overwrite?: boolean;
  /** The user answered "already registered"; do not ask again. */
  decided?: boolean;
}
type ImportOutcome = { asked: PendingImport } | { stored: StoredAgent; generation: string; warnings: string[]; replaced: boolean; overwrite: boolean };

const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** True when the exported card would fail our own card checks (advisories never block). */
const wouldFail = (v: CardVerdicts) => v.generation !== 'v1.0' || v.failures.some((f) => f.status === 'fail');

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

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

/**
 * The registry's state and actions: the agent list, the mapper log and the run history as queries; add by
 * URL, import, save, delete and export as mutations; which agent is selected, edited, about to be deleted or exported.
 * Components receive what they show and call these actions; none of them talks to the database.
 */
export function useRegistry(deps: RegistryDeps) {
  const { db } = deps;
  const qc = useQueryClient();
  const agents = useQuery({ queryKey: ['registry', db.name, 'agents'], queryFn: () => db.list(), staleTime: 0 });
  const log = useQuery({ queryKey: ['registry', db.name, 'log'], queryFn: () => db.log(), staleTime: 0 });
  const lastRuns = useQuery({ queryKey: ['registry', db.name, 'runs'], queryFn: () => deps.runs(), staleTime: 0 });
  const refresh = () => qc.invalidateQueries({ queryKey: ['registry', db.name] });

  const [feedback, setFeedback] = useState<Feedback>({ status: null, problem: null, warnings: [] });
  const [pendingImport, setPendingImport] = useState<PendingImport | null>(null);
  const [pendingExport, setPendingExport] = useState<PendingExport | null>(null);
  const [exporting, setExporting] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ id: string | null } | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const discovery = useRef<AbortController | null>(null);

  const list = agents.data ?? [];
  /** A status line or a problem; the mapper notes stay unless `warnings` is given. */
  const report = (status: string | null, problem: string | null = null, warnings?: string[]) =>
    setFeedback((f) => ({ status, problem, warnings: warnings ?? f.warnings }));

  /** Records a failed add or import in the mapper log (a log that cannot be written is not worth a second error). */
  const logFailure = async (source: string, message: string) => {
    await db.addLog(failedEntry(source, message)).catch(() => undefined);
    void refresh();
  };

  /** Imports now, or asks first when an agent with the same id exists. */
  const importMutation = useMutation({
    mutationFn: async (p: ImportRequest): Promise<ImportOutcome> => {
      const first = importCard(p.raw, { sourceUrl: p.sourceUrl });
      if (!p.decided) {
        const existing = await db.get(first.agent.id);
        if (existing) return { asked: { raw: p.raw, sourceUrl: p.sourceUrl, source: p.source, existing: existing.agent, generation: first.generation } };
      }
      const r = p.existing ? importCard(p.raw, { sourceUrl: p.sourceUrl, existing: p.existing, overwrite: p.overwrite }) : first;
      const entry: RegistryLogEntry = {
        ...logEntry('import', r.agent, cardType(r.generation), p.source),
        ...(r.warnings.length ? { outcome: 'warnings', notes: r.warnings } : {}),
      };
      const stored = await db.put(r.agent, entry);
      return { stored, generation: r.generation, warnings: r.warnings, replaced: Boolean(p.existing), overwrite: Boolean(p.overwrite) };
    },
    onSuccess: (r) => {
      if ('asked' in r) {
        setPendingImport(r.asked);
        report(null);
        return;
      }
      setPendingImport(null);
      setSelected(r.stored.id);
      report(
        `${r.replaced ? 'Re-imported' : 'Imported'} ${r.stored.agent.name} (${r.stored.id}@${r.stored.agent.version}) from a ${r.generation} card${r.replaced ? (r.overwrite ? '; local fields overwritten' : '; local fields kept') : ''}.`,
        null,
        r.warnings,
      );
      void refresh();
    },
    onError: (e, p) => {
      const msg = errorText(e);
      report(null, `The card could not be imported: ${msg}`);
      void logFailure(p.source, msg);
    },
  });

  const addMutation = useMutation({
    mutationFn: async (input: string) => {
      const checked = checkAgentUrl(input, 'Agent or card URL');
      if (!checked.ok) throw new Error(checked.error);
      discovery.current?.abort();
      const ac = new AbortController();
      discovery.current = ac;
      const found = await deps.discover(checked.url, ac.signal);
      if (!isJsonObject(found.raw)) throw new Error(`The document at ${found.cardUrl} is not a JSON object, so it is not an agent card.`);
      return { raw: found.raw, cardUrl: found.cardUrl };
    },
    onSuccess: ({ raw, cardUrl }) => importMutation.mutate({ raw, sourceUrl: cardUrl, source: cardUrl }),
    onError: (e, input) => {
      const msg = errorText(e);
      report(null, msg);
      void logFailure(input, msg);
    },
  });

  const saveMutation = useMutation({
    mutationFn: (agent: RegistryAgent) => db.put(agent),
    onSuccess: (stored) => {
      setEditing(null);
      setSelected(stored.id);
      report(`Saved ${stored.agent.name} (${stored.id}@${stored.agent.version}).`);
      void refresh();
    },
    onError: (e) => report(null, `The agent was not saved: ${errorText(e)}`),
  });

  const deleteMutation = useMutation({
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

  /** Downloads a card and logs the export (with the card check failures the user exported anyway). */
  const download = async (s: StoredAgent, shape: 'v1.0' | 'v0.3' | 'legacy', card: Record<string, unknown>, failing: CardVerdicts['failures'] = []) => {
    const filename = cardFilename(s.id, shape);
    deps.download(filename, 'application/json', `${JSON.stringify(card, null, 2)}\n`);
    const source = shape === 'v1.0' ? orderedEndpoints(s.agent)[0]?.url : String(card.url);
    const notes = failing.filter((f) => f.status !== 'pass').map((f) => `${f.id} (${f.status}): ${f.message}`);
    await db.addLog({ ...logEntry('export', s.agent, cardType(shape), source), ...(notes.length ? { outcome: 'warnings', notes } : {}) });
    setPendingExport(null);
    report(
      `Exported ${s.agent.name} as ${filename} (A2A ${shape})${notes.length ? `, with ${notes.length} card check finding${notes.length === 1 ? '' : 's'}` : ''}.`,
    );
    void refresh();
  };

  /** Export: the v1.0 card is checked first; if it would fail our own card checks, the user is asked. */
  const exportAgent = async (s: StoredAgent) => {
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
      // A version never seen is never claimed: interfaces without one (a legacy entry) are asked about, as a v0.3 mismatch is.
      const unseenUrls = unseenVersionEndpoints(s.agent).map((e) => e.url);
      if (!unseenUrls.length && (!v1 || !wouldFail(v1))) return await download(s, 'v1.0', card, v1?.failures);
      let v03: PendingExport['v03'];
      if (canExportV03(s.agent)) {
        const c = exportCardV03(s.agent);
        v03 = { card: c, verdicts: await deps.checkCard(c).catch(() => null) };
      }
      let unseen: PendingExport['unseen'];
      if (unseenUrls.length) {
        const legacy = canExportLegacy(s.agent) ? exportCardLegacy(s.agent) : undefined;
        unseen = { urls: unseenUrls, legacy: legacy ? { card: legacy, verdicts: await deps.checkCard(legacy).catch(() => null) } : undefined };
      }
      setPendingExport({ stored: s, v1: v1 ?? { judged: 0, passed: 0, failures: [], skipped: 0, generation: 'v1.0' }, v03, unseen });
      report(null);
    } catch (e) {
      report(null, `Export failed in our tool: ${errorText(e)}`);
    } finally {
      setExporting(null);
    }
  };

  /** The user's answer to the export warning. */
  const exportAnyway = (shape: 'v1.0' | 'v0.3' | 'legacy') => {
    if (!pendingExport) return;
    const { stored, v1, v03, unseen } = pendingExport;
    const legacy = unseen?.legacy;
    void (
      shape === 'v0.3' && v03
        ? download(stored, 'v0.3', v03.card, v03.verdicts?.failures)
        : shape === 'legacy' && legacy
          ? download(stored, 'legacy', legacy.card, legacy.verdicts?.failures)
          : download(stored, 'v1.0', exportCard(stored.agent), v1.failures)
    ).catch((e: unknown) => report(null, `Export failed in our tool: ${errorText(e)}`));
  };

  /** A new add or import: the previous question and mapper notes go. */
  const startOver = () => {
    setPendingImport(null);
    setFeedback((f) => ({ ...f, warnings: [] }));
  };

  const addByUrl = (url: string) => {
    startOver();
    addMutation.mutate(url);
  };

  const importText = (text: string, source: string) => {
    startOver();
    const parsed = parseCardText(text);
    if (!parsed.ok) {
      void logFailure(source, parsed.error);
      return report(null, `${source}: ${parsed.error}`);
    }
    importMutation.mutate({ raw: parsed.card, source });
  };

  const importFile = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      const msg = `${file.name} is ${file.size} bytes; cards larger than ${MAX_FILE_BYTES} bytes are not imported.`;
      void logFailure(`file ${file.name}`, msg);
      return report(null, msg);
    }
    try {
      importText(await file.text(), `file ${file.name}`);
    } catch (e) {
      report(null, `Could not read ${file.name}: ${String(e)}`);
    }
  };

  return {
    db,
    checkCard: deps.checkCard,
    /** Fleet runs ("Run all"), when the page was given a runner. */
    runAgent: deps.runAgent,
    download: deps.download,
    agents,
    log,
    lastRuns,
    list,
    feedback,
    busy: addMutation.isPending || importMutation.isPending,
    selected,
    selectedAgent: list.find((s) => s.id === selected),
    toggleSelected: (id: string) => setSelected(id === selected ? null : id),
    editing,
    editedAgent: editing?.id ? list.find((s) => s.id === editing.id) : undefined,
    edit: (id: string | null) => setEditing({ id }),
    cancelEdit: () => setEditing(null),
    save: (agent: RegistryAgent) => saveMutation.mutate(agent),
    saving: saveMutation.isPending,
    confirmDelete,
    askDelete: (id: string) => setConfirmDelete(id),
    keep: () => setConfirmDelete(null),
    remove: (id: string) => deleteMutation.mutate(id),
    exporting,
    exportAgent: (s: StoredAgent) => void exportAgent(s),
    pendingExport,
    exportAnyway,
    cancelExport: () => {
      setPendingExport(null);
      report('Export canceled.');
    },
    pendingImport,
    answerImport: (keepLocal: boolean) => {
      if (!pendingImport) return;
      const p = pendingImport;
      importMutation.mutate({ raw: p.raw, sourceUrl: p.sourceUrl, source: p.source, existing: p.existing, overwrite: !keepLocal, decided: true });
    },
    cancelImport: () => setPendingImport(null),
    addByUrl,
    importText,
    importFile,
  };
}

export type Registry = ReturnType<typeof useRegistry>;
