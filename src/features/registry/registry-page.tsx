import { useId } from 'react';
import { Notice } from '../../components/notice';
import { AddByUrl, ImportCard } from './add-agent';
import { AgentEditor } from './agent-editor';
import { AgentsTable } from './agents-table';
import { CardPreview } from './card-preview';
import { ExportWarning } from './export-warning';
import { FleetPanel } from './fleet-panel';
import { ImportConfirm } from './import-confirm';
import { MapperLog } from './mapper-log';
import { defaultRegistryDeps, type RegistryDeps } from './registry-deps';
import { useRegistry, type Feedback } from './use-registry';
import './registry.css';

export type { RegistryDeps } from './registry-deps';

/**
 * The agent registry (docs/architecture.md, "Registry"): registered agents, card import/export through the mapper, the mapper log.
 * State and actions live in `useRegistry`; this component only lays the pieces out.
 */
export function RegistryPage({ deps }: { deps?: RegistryDeps }) {
  const uid = useId();
  const r = useRegistry(deps ?? defaultRegistryDeps());
  return (
    <section className="registry" aria-labelledby={`${uid}-h`}>
      <h1 id={`${uid}-h`}>Registry</h1>
      <p>
        Agents known to this browser, mapped both ways: an agent exports as an official A2A v1.0 card; an external card of any generation imports as a registry
        stub. Platform-native (local) fields stay internal. A mapping boundary, not an A2A runtime.
      </p>

      <div className="registry-inputs">
        <AddByUrl busy={r.busy} onAdd={r.addByUrl} />
        <ImportCard busy={r.busy} onText={r.importText} onFile={r.importFile} />
      </div>

      <p>
        <button type="button" onClick={() => r.edit(null)} disabled={r.editing !== null && r.editing.id === null}>
          New agent
        </button>
      </p>

      <FeedbackView busy={r.busy} feedback={r.feedback} />

      {r.pendingExport ? (
        <ExportWarning
          key={`${r.pendingExport.stored.id}@${r.pendingExport.stored.updatedAt}`}
          pending={r.pendingExport}
          onExport={r.exportAnyway}
          onCancel={r.cancelExport}
        />
      ) : null}

      {r.pendingImport ? (
        <ImportConfirm key={r.pendingImport.existing.id} pending={r.pendingImport} busy={r.busy} onAnswer={r.answerImport} onCancel={r.cancelImport} />
      ) : null}

      {r.editing ? (
        <AgentEditor
          key={r.editing.id ?? 'new'}
          agent={r.editedAgent?.agent}
          takenIds={r.list.map((s) => s.id)}
          saving={r.saving}
          onSave={r.save}
          onCancel={r.cancelEdit}
        />
      ) : null}

      <h2 id={`${uid}-list`}>Registered agents</h2>
      {r.agents.isError ? (
        <Notice kind="error" title="Could not read the registry.">
          {String(r.agents.error)} IndexedDB may be disabled (private mode).
        </Notice>
      ) : null}
      <AgentsTable
        labelledBy={`${uid}-list`}
        list={r.list}
        loading={r.agents.isPending}
        runs={r.lastRuns.data ?? []}
        runsLoading={r.lastRuns.isPending}
        selected={r.selected}
        exporting={r.exporting}
        confirmDelete={r.confirmDelete}
        actions={r}
      />

      {r.selectedAgent ? <CardPreview stored={r.selectedAgent} dbName={r.db.name} check={r.checkCard} /> : null}

      {r.runAgent ? (
        <FleetPanel list={r.list} runs={r.lastRuns.data ?? []} runAgent={r.runAgent} download={r.download} onFinished={() => void r.lastRuns.refetch()} />
      ) : null}

      <MapperLog entries={r.log.data} error={r.log.error} />
    </section>
  );
}

/** The status line (also "Working…"), a problem, and the mapper's notes on the last import. */
function FeedbackView({ busy, feedback: { status, problem, warnings } }: { busy: boolean; feedback: Feedback }) {
  return (
    <>
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
    </>
  );
}
