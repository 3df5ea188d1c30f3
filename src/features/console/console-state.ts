/**
 * The console's state as the page reads it (calls, tasks, the session's target, drafts), what the controller needs
 * (ConsoleDeps) and the bounds on what a session keeps. Types and pure helpers only: console-store.ts changes it.
 */
import type { ConsoleOpen, ConsoleOpenInput, SessionFrame, SessionResult, SessionTarget, SessionUnavailable } from '../../lib/console-adapter';
import type { ConsoleRecord } from '../../lib/console-db';
import type { ArtifactView, PartView, TaskState } from '../../lib/engine';
import type { RunStoreHandle } from '../../lib/run-store';
import { EMPTY_DRAFT, type ComposeDraft, type SendRequest } from './compose';

export type CallOp = 'send' | 'stream' | 'get' | 'cancel' | 'subscribe' | 'list' | 'push-set' | 'push-get' | 'push-list' | 'push-delete' | 'raw';

/** A result as kept and saved: everything but the engine events (those live in the timeline's store). */
export type StoredResult = Omit<SessionResult, 'events'>;

export interface ConsoleCall {
  id: string;
  op: CallOp;
  /** One line: the operation and what was asked. */
  title: string;
  /** What was asked (never credentials), for the log, exports and "Edit again". */
  input: Record<string, unknown>;
  startedAt: number;
  status: 'running' | 'done' | 'error';
  /** The stream's frames as they arrive; replaced by the judged frames at the end. */
  frames: SessionFrame[];
  result?: StoredResult;
  /** Our side's failure (not the agent's): a refused input, a crash. */
  error?: string;
  /** The user stopped reading. */
  stopped?: boolean;
}

export interface ConsoleTask {
  id: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  statusText?: string;
  artifacts: ArtifactView[];
  /** The parts of the task's status message (what an input-required task asks). */
  statusParts: PartView[];
  /** Some streamed artifact event was larger than the console keeps per event: Get task shows the whole artifacts. */
  artifactsCut?: boolean;
  lastCallId: string;
  updatedAt: number;
}

type ConsolePhase = 'idle' | 'connecting' | 'open' | 'unavailable' | 'saved';

export interface ConsoleState {
  phase: ConsolePhase;
  /** The session being shown (live, or saved and opened from history). */
  sessionId: string | null;
  agentUrl: string;
  startedAt: number | null;
  target: SessionTarget | null;
  unavailable: SessionUnavailable | null;
  calls: ConsoleCall[];
  tasks: Record<string, ConsoleTask>;
  /** Task ids, most recently updated first. */
  taskOrder: string[];
  /** The latest Message answer (a reply without a task). */
  lastMessage: { callId: string; parts: PartView[]; text: string } | null;
  /** Our own error (never the agent's): shown as an alert. */
  error: string | null;
  draft: ComposeDraft;
  /** A request loaded from a run's exchange (Open in console), editable and re-sendable. */
  editor: RawDraft | null;
  /** Bumped when the composer should take focus (Answer, Edit again). */
  composeFocus: number;
  /** Bumped after each save to this browser's history (the saved sessions list follows it). */
  savedSeq: number;
}

export interface RawDraft {
  /** Where it came from, e.g. "exchange x12 of check lifecycle.get". */
  source: string;
  method: string;
  url: string;
  /** One `Name: value` per line. */
  headers: string;
  body: string;
}

export interface ConsoleDeps {
  open(input: ConsoleOpenInput): Promise<ConsoleOpen>;
  /** The run store the console's timeline and wire inspector read. */
  timeline: RunStoreHandle;
  save?(record: ConsoleRecord<ConsoleCall>): Promise<void>;
  now?: () => number;
  newId?: () => string;
  /** Budget of one call (a stream: until it ends), ms. */
  callTimeoutMs?: number;
}

/** Calls, frames per call and engine events kept per session (and saved): a session can run for hours. */
export const MAX_CALLS = 200;
export const MAX_FRAMES = 500;
export const MAX_EVENTS = 20_000;

/** A console with no session: nothing asked, nothing seen. */
export const initialConsoleState = (): ConsoleState => ({
  phase: 'idle',
  sessionId: null,
  agentUrl: '',
  startedAt: null,
  target: null,
  unavailable: null,
  calls: [],
  tasks: {},
  taskOrder: [],
  lastMessage: null,
  error: null,
  draft: EMPTY_DRAFT,
  editor: null,
  composeFocus: 0,
  savedSeq: 0,
});

/** The composer's draft that would send `i` again (an earlier send's input, as kept in its call). */
export function draftOfSend(i: Partial<SendRequest>): ComposeDraft {
  const text = (i.parts ?? [])
    .filter((p) => p.kind === 'text')
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join('\n');
  const data = (i.parts ?? []).find((p) => p.kind === 'data');
  return {
    ...EMPTY_DRAFT,
    text,
    dataJson: data && data.kind === 'data' ? JSON.stringify(data.data, null, 2) : '',
    skill: i.skill ?? '',
    mode: i.stream ? 'streaming' : i.blocking === false ? 'non-blocking' : 'blocking',
    historyLength: i.historyLength !== undefined ? String(i.historyLength) : '',
    outputModes: (i.acceptedOutputModes ?? []).join(', '),
    metadataJson: i.metadata ? JSON.stringify(i.metadata, null, 2) : '',
    target: i.taskId || i.contextId ? 'continue' : 'new',
    taskId: i.taskId ?? '',
    contextId: i.contextId ?? '',
  };
}
