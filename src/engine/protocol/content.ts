/**
 * What one call's result says about a task and a Message, for a client to show: the task's state, context, status
 * text, artifacts (streamed chunks reassembled) and the parts of its status message, read with the parts reader
 * (parts.ts). Pure, and structural over the session's results (src/engine/session SessionResult) so a dashboard
 * can import it without the session code.
 */
import type { TaskState } from '../model/events';
import { answerContent, foldStreamArtifacts, frameContent, type ArtifactView, type PartView } from './parts';

/** A stream frame as the session returns it (SessionFrame), the fields read here. */
export interface FrameLike {
  kind: string;
  data: string;
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  ms: number;
}

/** A call's result as the session returns it (SessionResult), the fields read here. */
export interface ResultLike {
  task?: { id?: string; contextId?: string; state?: TaskState; rawState?: string; statusText?: string };
  message?: { text: string; taskId?: string };
  frames: readonly FrameLike[];
  exchanges: readonly { response?: { body?: string } }[];
  /** ListTasks: the page's tasks. */
  tasks?: readonly { id?: string; contextId?: string; state?: TaskState; rawState?: string }[];
}

/** What a call says about one task; absent fields say nothing (keep what was known). */
export interface TaskContent {
  id: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  statusText?: string;
  artifacts?: ArtifactView[];
  /** The parts of the task's status message (what an input-required task asks). */
  statusParts?: PartView[];
  /** A streamed artifact event was larger than a frame keeps: the artifacts shown are not whole. */
  artifactsCut?: boolean;
}

export interface CallContent {
  /** The task the call was about (its answer, or the stream's task), and the tasks a page listed. */
  tasks: TaskContent[];
  /** The Message the agent answered with. */
  message?: { parts: PartView[]; text: string; taskId?: string };
}

const lastBodyOf = (r: ResultLike) => [...r.exchanges].reverse().find((x) => x.response?.body !== undefined)?.response?.body;
const statusPartsOf = (data: string): PartView[] => answerContent(data)?.messageParts ?? [];
/** An artifact event whose data was cut (too large to keep per frame): no chunk could be read from it. */
const cutFrame = (f: FrameLike) => f.kind === 'artifact' && !frameContent(f.data).chunk;

/** What a whole call (its answer or its stream) says about tasks and the Message it answered with. */
export function callContent(r: ResultLike): CallContent {
  const tasks: TaskContent[] = [];
  for (const t of r.tasks ?? []) {
    if (!t.id) continue;
    tasks.push({ id: t.id, contextId: t.contextId, ...(t.state && { state: t.state }), ...(t.rawState && { rawState: t.rawState }) });
  }
  const t = r.task;
  const lastBody = lastBodyOf(r);
  if (t?.id && r.frames.length) {
    const streamed = foldStreamArtifacts(r.frames);
    const status = [...r.frames].reverse().find((f) => f.kind === 'status' || f.kind === 'task');
    tasks.push({
      id: t.id,
      contextId: t.contextId,
      state: t.state,
      rawState: t.rawState,
      statusText: t.statusText,
      ...(streamed.length && { artifacts: streamed }),
      statusParts: status ? statusPartsOf(status.data) : [],
      artifactsCut: r.frames.some(cutFrame),
    });
  } else if (t?.id) {
    const content = answerContent(lastBody);
    tasks.push({
      id: t.id,
      contextId: t.contextId,
      state: t.state,
      rawState: t.rawState,
      statusText: t.statusText,
      ...(content && { artifacts: content.artifacts, statusParts: content.messageParts, artifactsCut: false }),
    });
  }
  let message: CallContent['message'];
  if (r.message) {
    const fromFrame = r.frames.length ? [...r.frames].reverse().find((f) => f.kind === 'message') : undefined;
    const parts = fromFrame ? (frameContent(fromFrame.data).messageParts ?? []) : (answerContent(lastBody)?.messageParts ?? []);
    message = { parts, text: r.message.text, ...(r.message.taskId && { taskId: r.message.taskId }) };
  }
  return { tasks, ...(message && { message }) };
}

/** What a stream says about its task so far, as frame `f` arrives (`frames`: the call's frames up to it). */
export function frameTaskContent(frames: readonly FrameLike[], f: FrameLike): TaskContent | undefined {
  if (!f.taskId) return undefined;
  const artifacts = foldStreamArtifacts(frames);
  return {
    id: f.taskId,
    ...(f.contextId && { contextId: f.contextId }),
    ...(f.state && { state: f.state, rawState: f.rawState ?? f.state }),
    ...(artifacts.length && { artifacts }),
    ...(cutFrame(f) && { artifactsCut: true }),
    ...((f.kind === 'status' || f.kind === 'task') && { statusParts: statusPartsOf(f.data) }),
  };
}
