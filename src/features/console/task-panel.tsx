import { useId, useState } from 'react';
import { ArtifactList, PartsList } from './artifact-view';
import { useConsole, useConsoleState } from './console-context';
import type { ConsoleTask } from './console-store';
import { shortId } from './transcript-model';

const TERMINAL = new Set(['completed', 'canceled', 'failed', 'rejected']);

function stateTone(t: ConsoleTask): string {
  if (t.state === 'completed') return 'pass';
  if (t.state === 'failed' || t.state === 'rejected') return 'fail';
  if (t.state === 'canceled') return 'skip';
  if (t.state === 'input-required' || t.state === 'auth-required') return 'error';
  return 'running';
}

function PushConfig({ task, disabled }: { task: ConsoleTask; disabled: boolean }) {
  const ctl = useConsole();
  const id = useId();
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [configId, setConfigId] = useState('');
  const legacy = useConsoleState((s) => (s.target?.testedGeneration ?? s.target?.generation) === 'legacy');
  return (
    <details className="push-config">
      <summary>
        Push notification configs<span className="visually-hidden"> of {task.id}</span>
      </summary>
      <div className="field">
        <label htmlFor={`${id}-url`}>Webhook URL</label>
        <input id={`${id}-url`} type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://example.com/a2a-webhook" />
      </div>
      <div className="field">
        <label htmlFor={`${id}-token`}>Token (optional, kept in memory, masked in what is shown)</label>
        <input id={`${id}-token`} type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cfg`}>Config id (get/delete)</label>
        <input id={`${id}-cfg`} value={configId} onChange={(e) => setConfigId(e.target.value)} />
      </div>
      <div className="actions">
        <button
          type="button"
          disabled={disabled || !url.trim()}
          onClick={() => void ctl.push('push-set', { taskId: task.id, url: url.trim(), token: token || undefined })}
        >
          Set push config
        </button>
        <button type="button" disabled={disabled} onClick={() => void ctl.push('push-get', { taskId: task.id, configId: configId.trim() || undefined })}>
          Get push config
        </button>
        {!legacy ? (
          <>
            <button type="button" disabled={disabled} onClick={() => void ctl.push('push-list', { taskId: task.id })}>
              List push configs
            </button>
            <button
              type="button"
              disabled={disabled || !configId.trim()}
              onClick={() => void ctl.push('push-delete', { taskId: task.id, configId: configId.trim() })}
            >
              Delete push config
            </button>
          </>
        ) : null}
      </div>
    </details>
  );
}

function TaskItem({ task }: { task: ConsoleTask }) {
  const ctl = useConsole();
  const id = useId();
  const [history, setHistory] = useState('');
  const open = useConsoleState((s) => s.phase === 'open');
  const supportsPush = ctl.supports.push;
  const historyLength = history.trim() === '' ? undefined : Number(history);
  const badHistory = historyLength !== undefined && (!Number.isInteger(historyLength) || historyLength < 0);
  const waiting = task.state === 'input-required' || task.state === 'auth-required';
  return (
    <li className="task">
      <article aria-label={`Task ${task.id}`}>
        <h3 className="task-title">
          Task{' '}
          <code className="untrusted-text" title={task.id}>
            {shortId(task.id)}
          </code>{' '}
          <span className={`chip chip-${stateTone(task)}`}>{task.rawState ?? task.state ?? 'state unknown'}</span>
        </h3>
        {task.contextId ? (
          <p className="help">
            Context <code className="untrusted-text">{task.contextId}</code>
          </p>
        ) : null}
        {task.statusParts.length ? (
          <section aria-label={`Status message of task ${task.id}`}>
            <h4>Status message</h4>
            <PartsList parts={task.statusParts} label={`Status message of ${task.id}`} />
          </section>
        ) : task.statusText ? (
          <p className="untrusted-text">{task.statusText}</p>
        ) : null}
        <div className="actions">
          {waiting ? (
            <button type="button" className="primary" disabled={!open} onClick={() => ctl.answer(task.id)} aria-label={`Answer task ${task.id}`}>
              Answer
            </button>
          ) : null}
          <span className="field-inline">
            <label htmlFor={`${id}-hl`}>History length</label>
            <input
              id={`${id}-hl`}
              className="narrow"
              inputMode="numeric"
              value={history}
              onChange={(e) => setHistory(e.target.value)}
              aria-invalid={badHistory}
            />
          </span>
          <button type="button" disabled={!open || badHistory} onClick={() => void ctl.get(task.id, historyLength)} aria-label={`Get task ${task.id}`}>
            Get
          </button>
          <button type="button" disabled={!open} onClick={() => void ctl.cancel(task.id)} aria-label={`Cancel task ${task.id}`}>
            Cancel
          </button>
          <button
            type="button"
            disabled={!open}
            onClick={() => void ctl.subscribe(task.id)}
            aria-label={`Resubscribe${TERMINAL.has(task.state ?? '') ? ' (the task has ended)' : ''} to task ${task.id}`}
          >
            Resubscribe
          </button>
        </div>
        {supportsPush ? <PushConfig task={task} disabled={!open} /> : null}
        {task.artifactsCut ? (
          <p className="help">Some streamed artifact events were larger than the console keeps per event (4 KB): Get task shows the whole artifacts.</p>
        ) : null}
        <ArtifactList artifacts={task.artifacts} taskId={task.id} />
      </article>
    </li>
  );
}

function ListTasks() {
  const ctl = useConsole();
  const id = useId();
  const [contextId, setContextId] = useState('');
  const [pageSize, setPageSize] = useState('');
  const [pageToken, setPageToken] = useState('');
  const open = useConsoleState((s) => s.phase === 'open');
  const size = pageSize.trim() ? Number(pageSize) : undefined;
  const bad = size !== undefined && (!Number.isInteger(size) || size < 1 || size > 1000);
  return (
    <fieldset className="list-tasks">
      <legend>List tasks (v1.0)</legend>
      <span className="field-inline">
        <label htmlFor={`${id}-ctx`}>Context id</label>
        <input id={`${id}-ctx`} value={contextId} onChange={(e) => setContextId(e.target.value)} />
      </span>
      <span className="field-inline">
        <label htmlFor={`${id}-ps`}>Page size</label>
        <input id={`${id}-ps`} className="narrow" inputMode="numeric" value={pageSize} onChange={(e) => setPageSize(e.target.value)} aria-invalid={bad} />
      </span>
      <span className="field-inline">
        <label htmlFor={`${id}-pt`}>Page token</label>
        <input id={`${id}-pt`} value={pageToken} onChange={(e) => setPageToken(e.target.value)} />
      </span>
      <button
        type="button"
        disabled={!open || bad}
        onClick={() => void ctl.list({ contextId: contextId.trim() || undefined, pageSize: size, pageToken: pageToken.trim() || undefined })}
      >
        List tasks
      </button>
    </fieldset>
  );
}

/** The tasks seen in this session, most recent first: state, status message, artifacts, and what can be done with each. */
export function TaskPanel() {
  const order = useConsoleState((s) => s.taskOrder);
  const tasks = useConsoleState((s) => s.tasks);
  const lastMessage = useConsoleState((s) => s.lastMessage);
  const v1 = useConsoleState((s) => (s.target?.testedGeneration ?? s.target?.generation) === 'v1.0');
  return (
    <section className="task-panel" aria-labelledby="console-tasks-h">
      <h2 id="console-tasks-h">Tasks ({order.length})</h2>
      {v1 ? <ListTasks /> : null}
      {lastMessage ? (
        <section className="last-message" aria-label="Latest message from the agent">
          <h3>Latest message from the agent ({lastMessage.callId})</h3>
          {lastMessage.parts.length ? <PartsList parts={lastMessage.parts} label="Latest message" /> : <p className="untrusted-text">{lastMessage.text}</p>}
        </section>
      ) : null}
      {order.length ? (
        <ol className="tasks">
          {order.map((id) => {
            const t = tasks[id];
            return t ? <TaskItem key={id} task={t} /> : null;
          })}
        </ol>
      ) : (
        <p className="help">No task yet: tasks the agent creates appear here with their state, artifacts and actions.</p>
      )}
    </section>
  );
}
