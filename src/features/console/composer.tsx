import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { buildSend, MAX_UPLOAD_BYTES, readUpload, type ComposeDraft, type DraftErrors, type FileMode, type SendMode } from './compose';
import { useConsole, useConsoleState } from './console-context';
import { ExtensionPicker } from './extension-picker';

const MODES: { value: SendMode; label: string; help: string }[] = [
  { value: 'blocking', label: 'Blocking', help: 'wait for the task to finish or pause' },
  { value: 'non-blocking', label: 'Non-blocking', help: 'answer at once (v1.0 returnImmediately, v0.x blocking: false)' },
  { value: 'streaming', label: 'Streaming', help: 'the streaming method: every event as it arrives' },
];

function Field({ id, label, error, help, children }: { id: string; label: string; error?: string; help?: string; children: React.ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error || help ? (
        <p id={`${id}-help`} className={error ? 'help field-error' : 'help'}>
          {error ?? help}
        </p>
      ) : null}
    </div>
  );
}

/** The message to send: text, a JSON data part, a file, the skill and its examples, how to send, and which task. */
export function Composer() {
  const ctl = useConsole();
  const id = useId();
  const draft = useConsoleState((s) => s.draft);
  const target = useConsoleState((s) => s.target);
  const open = useConsoleState((s) => s.phase === 'open');
  const focusSeq = useConsoleState((s) => s.composeFocus);
  const running = useConsoleState((s) => s.calls.some((c) => c.status === 'running' && (c.op === 'send' || c.op === 'stream')));
  const [errors, setErrors] = useState<DraftErrors>({});
  const textRef = useRef<HTMLTextAreaElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusSeq === 0) return;
    formRef.current?.scrollIntoView({ block: 'start' });
    textRef.current?.focus({ preventScroll: true });
  }, [focusSeq]);
  const set = (patch: Partial<ComposeDraft>) => {
    ctl.setDraft(patch);
    const touched = Object.keys(patch) as (keyof DraftErrors)[];
    if (touched.some((k) => errors[k])) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.includes(k as keyof DraftErrors))));
  };
  const generation = target?.testedGeneration ?? target?.generation;
  const skill = target?.skills.find((s) => s.id === draft.skill);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = buildSend(draft, { generation, streaming: target?.streaming });
    if (!built.ok) {
      setErrors(built.errors);
      const first = (['text', 'dataJson', 'file', 'fileUri', 'mode', 'historyLength', 'outputModes', 'metadataJson', 'taskId', 'extensions'] as const).find(
        (k) => built.errors[k],
      );
      if (first) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setErrors({});
    void ctl.send(built.request);
  };
  const describedBy = (k: keyof DraftErrors) => (errors[k] ? `${id}-${k}-help` : undefined);
  return (
    <form ref={formRef} className="composer" aria-labelledby={`${id}-h`} onSubmit={submit} noValidate>
      <h2 id={`${id}-h`}>Compose a message</h2>
      {target?.skills.length ? (
        <fieldset className="skills">
          <legend>Skill</legend>
          <div className="field">
            <label htmlFor={`${id}-skill`}>Skill of the card</label>
            <select id={`${id}-skill`} value={draft.skill} onChange={(e) => set({ skill: e.target.value })}>
              <option value="">No skill (the card's default output modes)</option>
              {target.skills.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name} ({s.id})
                </option>
              ))}
            </select>
          </div>
          {(skill ? [skill] : target.skills).some((s) => s.examples.length) ? (
            <div className="examples" role="group" aria-label="Example prompts">
              <p className="help">Examples from the card (one click fills the message):</p>
              {(skill ? [skill] : target.skills).flatMap((s) =>
                s.examples.map((ex, i) => (
                  <button key={`${s.id}-${i}`} type="button" className="example" onClick={() => set({ text: ex, ...(skill ? {} : { skill: s.id }) })}>
                    {ex}
                  </button>
                )),
              )}
            </div>
          ) : null}
        </fieldset>
      ) : null}
      <Field id={`${id}-text`} label="Message" error={errors.text}>
        <textarea
          id={`${id}-text`}
          ref={textRef}
          rows={3}
          value={draft.text}
          aria-invalid={!!errors.text}
          aria-describedby={describedBy('text')}
          onChange={(e) => set({ text: e.target.value })}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              formRef.current?.requestSubmit();
            }
          }}
        />
      </Field>
      <fieldset className="send-mode">
        <legend>How to send</legend>
        {MODES.map((m) => (
          <label key={m.value} className="field-inline">
            <input type="radio" name={`${id}-mode`} value={m.value} checked={draft.mode === m.value} onChange={() => set({ mode: m.value })} /> {m.label}
            <span className="help"> ({m.help})</span>
          </label>
        ))}
        {errors.mode ? (
          <p id={`${id}-mode`} tabIndex={-1} className="help field-error">
            {errors.mode}
          </p>
        ) : target && target.streaming === false ? (
          <p className="help">The card does not declare streaming.</p>
        ) : null}
      </fieldset>
      <fieldset className="send-target">
        <legend>Task</legend>
        <label className="field-inline">
          <input type="radio" name={`${id}-target`} checked={draft.target === 'new'} onChange={() => set({ target: 'new' })} /> New task
        </label>
        <label className="field-inline">
          <input type="radio" name={`${id}-target`} checked={draft.target === 'continue'} onChange={() => set({ target: 'continue' })} /> Continue a task or
          context
        </label>
        {draft.target === 'continue' ? (
          <>
            <Field
              id={`${id}-taskId`}
              label="Task id"
              error={errors.taskId}
              help="The task to answer (input-required), or empty to start a task in the context."
            >
              <input
                id={`${id}-taskId`}
                value={draft.taskId}
                aria-invalid={!!errors.taskId}
                aria-describedby={describedBy('taskId')}
                onChange={(e) => set({ taskId: e.target.value })}
              />
            </Field>
            <Field id={`${id}-contextId`} label="Context id">
              <input id={`${id}-contextId`} value={draft.contextId} onChange={(e) => set({ contextId: e.target.value })} />
            </Field>
          </>
        ) : null}
      </fieldset>
      <details className="more-parts" open={!!(draft.dataJson || draft.fileMode !== 'none' || errors.dataJson || errors.file || errors.fileUri)}>
        <summary>Data and file parts</summary>
        <Field id={`${id}-dataJson`} label="Data part (a JSON object; empty: none)" error={errors.dataJson}>
          <textarea
            id={`${id}-dataJson`}
            rows={3}
            className="mono"
            value={draft.dataJson}
            aria-invalid={!!errors.dataJson}
            aria-describedby={describedBy('dataJson')}
            onChange={(e) => set({ dataJson: e.target.value })}
          />
        </Field>
        <fieldset>
          <legend>File part</legend>
          {(
            [
              ['none', 'No file'],
              ['upload', 'Upload (sent inline as base64)'],
              ['uri', 'By URI'],
            ] as [FileMode, string][]
          ).map(([v, label]) => (
            <label key={v} className="field-inline">
              <input type="radio" name={`${id}-filemode`} checked={draft.fileMode === v} onChange={() => set({ fileMode: v })} /> {label}
            </label>
          ))}
          {draft.fileMode === 'upload' ? (
            <Field
              id={`${id}-file`}
              label="File to send"
              error={errors.file}
              help={draft.file ? `${draft.file.name} (${draft.file.mediaType}, ${draft.file.size} bytes)` : `Up to ${MAX_UPLOAD_BYTES / 1024 / 1024} MB.`}
            >
              <input
                id={`${id}-file`}
                type="file"
                aria-invalid={!!errors.file}
                aria-describedby={`${id}-file-help`}
                onChange={(e) => {
                  const f = e.target.files?.[0];
                  if (!f) return set({ file: null });
                  void readUpload(f).then(
                    (file) => set({ file }),
                    (err: unknown) => setErrors((x) => ({ ...x, file: `The file could not be read: ${String(err)}` })),
                  );
                }}
              />
            </Field>
          ) : null}
          {draft.fileMode === 'uri' ? (
            <>
              <Field id={`${id}-fileUri`} label="File URI" error={errors.fileUri}>
                <input
                  id={`${id}-fileUri`}
                  type="url"
                  value={draft.fileUri}
                  aria-invalid={!!errors.fileUri}
                  aria-describedby={describedBy('fileUri')}
                  onChange={(e) => set({ fileUri: e.target.value })}
                />
              </Field>
              <Field id={`${id}-fileUriType`} label="Media type of the file">
                <input
                  id={`${id}-fileUriType`}
                  value={draft.fileUriType}
                  placeholder="application/pdf"
                  onChange={(e) => set({ fileUriType: e.target.value })}
                />
              </Field>
            </>
          ) : null}
        </fieldset>
      </details>
      <details className="more-options" open={!!(errors.historyLength || errors.outputModes || errors.metadataJson)}>
        <summary>History length, output modes, metadata</summary>
        <Field id={`${id}-historyLength`} label="History length (empty: not sent)" error={errors.historyLength}>
          <input
            id={`${id}-historyLength`}
            className="narrow"
            inputMode="numeric"
            value={draft.historyLength}
            aria-invalid={!!errors.historyLength}
            aria-describedby={describedBy('historyLength')}
            onChange={(e) => set({ historyLength: e.target.value })}
          />
        </Field>
        <Field
          id={`${id}-outputModes`}
          label="Accepted output modes (comma-separated)"
          error={errors.outputModes}
          help={skill?.outputModes?.length ? `Empty: the skill's (${skill.outputModes.join(', ')}).` : "Empty: the card's default output modes."}
        >
          <input
            id={`${id}-outputModes`}
            value={draft.outputModes}
            aria-invalid={!!errors.outputModes}
            aria-describedby={`${id}-outputModes-help`}
            onChange={(e) => set({ outputModes: e.target.value })}
          />
        </Field>
        <Field id={`${id}-metadataJson`} label="Message metadata (a JSON object; empty: none)" error={errors.metadataJson}>
          <textarea
            id={`${id}-metadataJson`}
            rows={2}
            className="mono"
            value={draft.metadataJson}
            aria-invalid={!!errors.metadataJson}
            aria-describedby={describedBy('metadataJson')}
            onChange={(e) => set({ metadataJson: e.target.value })}
          />
        </Field>
      </details>
      <ExtensionPicker id={id} target={target} value={draft.extensions ?? ''} error={errors.extensions} onChange={(v) => set({ extensions: v })} />
      <div className="actions">
        <button type="submit" className="primary" disabled={!open}>
          {draft.mode === 'streaming' ? 'Send (streaming)' : 'Send'}
        </button>
        {!open ? (
          <span className="help">Connect to an agent first.</span>
        ) : running ? (
          <span className="help">A send is in progress; you can send another.</span>
        ) : null}
      </div>
    </form>
  );
}
