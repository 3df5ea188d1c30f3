import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Notice } from '../../components/notice';
import type { RegistryAgent, RegistryEndpoint } from '../../lib/registry-db';
import { agentFromDraft, draftOf, emptyEndpoint, emptySkill, type AgentDraft, type EndpointDraft, type FieldError, type SkillDraft } from './agent-form';

/** Rows beyond these are kept as they are but not shown (a hostile card can declare thousands). */
const MAX_ENDPOINT_ROWS = 100;
const MAX_SKILL_ROWS = 200;

const PROTOCOLS: { value: RegistryEndpoint['protocol']; label: string }[] = [
  { value: 'a2a', label: 'a2a (JSON-RPC)' },
  { value: 'http', label: 'http (HTTP+JSON)' },
  { value: 'grpc', label: 'grpc' },
];

/**
 * The form for an agent's internal fields (a new agent when `agent` is undefined). Invalid input is
 * reported with every problem at once and nothing typed is lost.
 */
export function AgentEditor({
  agent,
  takenIds,
  saving,
  onSave,
  onCancel,
}: {
  agent?: RegistryAgent;
  takenIds: readonly string[];
  saving?: boolean;
  onSave: (agent: RegistryAgent) => void;
  onCancel: () => void;
}) {
  const uid = useId();
  const [draft, setDraft] = useState<AgentDraft>(() => draftOf(agent));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const title = agent ? `Edit ${agent.name}` : 'New agent';
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form opens above the table: bring it into view and move focus to it.
  useEffect(() => {
    headingRef.current?.scrollIntoView?.({ block: 'start' });
    headingRef.current?.focus();
  }, []);
  const errorOf = (field: string) => errors.find((e) => e.field === field)?.message;
  const fid = (field: string) => `${uid}-${field.replace(/\W/g, '-')}`;
  const patch = (p: Partial<AgentDraft>) => setDraft((d) => ({ ...d, ...p }));
  const setEndpoint = (i: number, p: Partial<EndpointDraft>) =>
    setDraft((d) => ({ ...d, endpoints: d.endpoints.map((e, j) => (j === i ? { ...e, ...p } : e)) }));
  const setSkill = (i: number, p: Partial<SkillDraft>) => setDraft((d) => ({ ...d, skills: d.skills.map((s, j) => (j === i ? { ...s, ...p } : s)) }));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = agentFromDraft(draft, agent, takenIds);
    if (!r.ok) return setErrors(r.errors);
    setErrors([]);
    onSave(r.agent);
  };

  /** A labelled input with its error (aria-invalid + aria-describedby). */
  const field = (
    key: string,
    label: string,
    input: (props: { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }) => ReactNode,
    help?: string,
  ) => {
    const err = errorOf(key);
    const id = fid(key);
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        {input({ id, 'aria-invalid': Boolean(err), 'aria-describedby': err || help ? `${id}-msg` : undefined })}
        {err || help ? (
          <p id={`${id}-msg`} className={err ? 'field-error' : 'help'}>
            {err ?? help}
          </p>
        ) : null}
      </div>
    );
  };

  return (
    <section className="registry-editor" aria-labelledby={`${uid}-h`}>
      <h2 id={`${uid}-h`} ref={headingRef} tabIndex={-1}>
        {title}
      </h2>
      <form onSubmit={submit} noValidate aria-label={title}>
        {errors.length ? (
          <Notice kind="error" title="The agent was not saved:">
            <ul>
              {errors.slice(0, 20).map((e) => (
                <li key={`${e.field}:${e.message}`}>{e.message}</li>
              ))}
            </ul>
          </Notice>
        ) : null}
        {agent ? (
          <p className="help">
            Id <span className="check-id">{agent.id}</span> (fixed: it is the registry key). Provider, security schemes and source are kept as they are.
          </p>
        ) : (
          field(
            'id',
            'Id (optional)',
            (p) => <input {...p} value={draft.id} onChange={(e) => patch({ id: e.target.value })} placeholder="agent:host.name" />,
            'Left empty, it is made from the first endpoint host and the name.',
          )
        )}
        {field('name', 'Name', (p) => (
          <input {...p} value={draft.name} onChange={(e) => patch({ name: e.target.value })} required />
        ))}
        {field('version', 'Version', (p) => (
          <input {...p} value={draft.version} onChange={(e) => patch({ version: e.target.value })} required />
        ))}
        {field('description', 'Description', (p) => (
          <textarea {...p} rows={3} value={draft.description} onChange={(e) => patch({ description: e.target.value })} />
        ))}

        <fieldset>
          <legend>Endpoints</legend>
          <p className="help">The exported card lists a2a endpoints first, then http, then grpc; lower priority first within each.</p>
          {draft.endpoints.slice(0, MAX_ENDPOINT_ROWS).map((ep, i) => (
            <fieldset key={i} className="registry-row">
              <legend>Endpoint {i + 1}</legend>
              {field(`endpoints.${i}.protocol`, `Endpoint ${i + 1} protocol`, (p) => (
                <select {...p} value={ep.protocol} onChange={(e) => setEndpoint(i, { protocol: e.target.value as RegistryEndpoint['protocol'] })}>
                  {PROTOCOLS.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ))}
              {field(`endpoints.${i}.url`, `Endpoint ${i + 1} URL`, (p) => (
                <input {...p} type="url" value={ep.url} onChange={(e) => setEndpoint(i, { url: e.target.value })} />
              ))}
              {field(`endpoints.${i}.priority`, `Endpoint ${i + 1} priority`, (p) => (
                <input {...p} type="number" step={1} value={ep.priority} onChange={(e) => setEndpoint(i, { priority: e.target.value })} />
              ))}
              <button type="button" onClick={() => patch({ endpoints: draft.endpoints.filter((_, j) => j !== i) })}>
                Remove endpoint {i + 1}
              </button>
            </fieldset>
          ))}
          {draft.endpoints.length > MAX_ENDPOINT_ROWS ? (
            <p className="help">{draft.endpoints.length - MAX_ENDPOINT_ROWS} more endpoints are kept unchanged.</p>
          ) : null}
          <button type="button" onClick={() => patch({ endpoints: [...draft.endpoints, emptyEndpoint()] })}>
            Add endpoint
          </button>
        </fieldset>

        <fieldset>
          <legend>Capabilities</legend>
          {(
            [
              ['streaming', 'Streaming'],
              ['pushNotifications', 'Push notifications'],
              ['extendedAgentCard', 'Extended agent card'],
            ] as const
          ).map(([k, label]) => (
            <label key={k} className="field-inline">
              <input type="checkbox" checked={draft[k]} onChange={(e) => patch({ [k]: e.target.checked })} /> {label}
            </label>
          ))}
        </fieldset>

        {field(
          'inputModes',
          'Input modes',
          (p) => (
            <input {...p} value={draft.inputModes} onChange={(e) => patch({ inputModes: e.target.value })} />
          ),
          'Media types, comma-separated, e.g. text/plain, application/json.',
        )}
        {field(
          'outputModes',
          'Output modes',
          (p) => (
            <input {...p} value={draft.outputModes} onChange={(e) => patch({ outputModes: e.target.value })} />
          ),
          'Media types, comma-separated.',
        )}

        <fieldset>
          <legend>Skills</legend>
          {draft.skills.slice(0, MAX_SKILL_ROWS).map((s, i) => (
            <fieldset key={i} className="registry-row">
              <legend>Skill {i + 1}</legend>
              {field(`skills.${i}.id`, `Skill ${i + 1} id`, (p) => (
                <input {...p} value={s.id} onChange={(e) => setSkill(i, { id: e.target.value })} />
              ))}
              {field(`skills.${i}.name`, `Skill ${i + 1} name`, (p) => (
                <input {...p} value={s.name} onChange={(e) => setSkill(i, { name: e.target.value })} />
              ))}
              {field(`skills.${i}.description`, `Skill ${i + 1} description`, (p) => (
                <input {...p} value={s.description} onChange={(e) => setSkill(i, { description: e.target.value })} />
              ))}
              {field(
                `skills.${i}.tags`,
                `Skill ${i + 1} tags`,
                (p) => (
                  <input {...p} value={s.tags} onChange={(e) => setSkill(i, { tags: e.target.value })} />
                ),
                'Comma-separated.',
              )}
              <button type="button" onClick={() => patch({ skills: draft.skills.filter((_, j) => j !== i) })}>
                Remove skill {i + 1}
              </button>
            </fieldset>
          ))}
          {draft.skills.length > MAX_SKILL_ROWS ? <p className="help">{draft.skills.length - MAX_SKILL_ROWS} more skills are kept unchanged.</p> : null}
          <button type="button" onClick={() => patch({ skills: [...draft.skills, emptySkill()] })}>
            Add skill
          </button>
        </fieldset>

        {field(
          'local',
          'Local fields',
          (p) => (
            <textarea {...p} className="registry-json" rows={8} spellCheck={false} value={draft.local} onChange={(e) => patch({ local: e.target.value })} />
          ),
          'Platform-native fields as a JSON object. Never exported; kept when the agent is re-imported unless you overwrite.',
        )}

        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>
            {agent ? 'Save agent' : 'Create agent'}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
