/**
 * A call of the console as a turn of a conversation: what the user asked, then what the agent said (its message,
 * the task's status changes in order, its artifacts), how the call ended and how many findings it has.
 * Pure: the transcript renders it, tests build it from calls.
 */
import type { ConsoleCall } from './console-store';
import { answerContent, foldStreamArtifacts, frameContent, type ArtifactView, type PartView } from './parts';

export type TurnStatus = 'waiting' | 'streaming' | 'answered' | 'problem' | 'not-sent' | 'stopped';

export interface TurnView {
  id: string;
  /** What the user asked, in words (the message text, or the action with short ids). */
  you: string;
  /** The task's states in the order they came (consecutive repeats dropped). */
  states: string[];
  /** The agent's message (a Message answer, or the task's status message). */
  messageParts: PartView[];
  messageText?: string;
  artifacts: ArtifactView[];
  taskId?: string;
  /** An error the agent answered with, or our side's failure. */
  error?: string;
  status: TurnStatus;
  statusText: string;
  required: number;
  advisories: number;
}

const UUIDISH = /\b([0-9a-f]{8})-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** Ids shortened for reading (the first 8 hex digits and an ellipsis); the full id stays in accessible names. */
export const shortIds = (s: string): string => s.replace(UUIDISH, '$1…');

/** An id for a label: a UUID (or any long id) cut to its first 8 characters. */
export const shortId = (id: string): string => (id.length > 12 ? `${id.slice(0, 8)}…` : id);

const STATUS_TEXT: Record<TurnStatus, string> = {
  waiting: 'waiting for the answer',
  streaming: 'streaming',
  answered: 'answered',
  problem: 'answered with a problem',
  'not-sent': 'not sent',
  stopped: 'stopped by you',
};

function lastBodyOf(c: ConsoleCall): string | undefined {
  const xs = c.result?.exchanges ?? [];
  for (let i = xs.length - 1; i >= 0; i--) {
    const body = xs[i]!.response?.body;
    if (typeof body === 'string') return body;
  }
  return undefined;
}

export function turnOf(c: ConsoleCall): TurnView {
  const r = c.result;
  const text = typeof c.input.text === 'string' ? c.input.text : undefined;
  const you = (c.op === 'send' || c.op === 'stream') && text !== undefined ? text : shortIds(c.title);
  const states: string[] = [];
  const push = (s: string | undefined) => {
    if (s && states.at(-1) !== s) states.push(s);
  };
  let messageParts: PartView[] = [];
  let artifacts: ArtifactView[] = [];
  if (c.frames.length) {
    for (const f of c.frames) push(f.rawState);
    const msg = [...c.frames].reverse().find((f) => f.kind === 'message');
    const status = [...c.frames].reverse().find((f) => f.kind === 'status' || f.kind === 'task');
    messageParts = msg ? (frameContent(msg.data).messageParts ?? []) : status ? (answerContent(status.data)?.messageParts ?? []) : [];
    artifacts = foldStreamArtifacts(c.frames);
  } else if (r) {
    push(r.task?.rawState);
    const content = answerContent(lastBodyOf(c));
    messageParts = content?.messageParts ?? [];
    artifacts = content?.artifacts ?? [];
  }
  const required = r ? r.findings.filter((f) => f.level !== 'advisory').length : 0;
  const status: TurnStatus = c.stopped
    ? 'stopped'
    : c.status === 'running'
      ? c.frames.length
        ? 'streaming'
        : 'waiting'
      : c.status === 'error'
        ? 'not-sent'
        : r?.ok
          ? 'answered'
          : 'problem';
  const agentError = r?.error ? `${r.error.code ?? r.error.status ?? r.error.httpStatus} ${r.error.message}` : undefined;
  return {
    id: c.id,
    you,
    states,
    messageParts,
    messageText: r?.message?.text,
    artifacts,
    taskId: r?.task?.id ?? c.frames.find((f) => f.taskId)?.taskId ?? (typeof c.input.taskId === 'string' ? c.input.taskId : undefined),
    error: c.error ?? agentError,
    status,
    statusText: status === 'streaming' ? `streaming, ${c.frames.length} event(s)` : STATUS_TEXT[status],
    required,
    advisories: r ? r.findings.length - required : 0,
  };
}
