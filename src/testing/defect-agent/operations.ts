/** Binding-neutral task operations: send (start or continue), get, cancel, list; each defect and permitted variant of them. */
import { randomUUID } from 'node:crypto';
import { EXTRA_SKILLS } from './card';
import { parseV1State, renderMessage, renderTask } from './dialect';
import { A2AError, E } from './errors';
import { optInt, type SendReq } from './params';
import { FAIL_REASON, HAIKU_LINES, INPUT_QUESTION, behaviourFor } from './skills';
import { AuthError, CrashError, type AgentState, type Json } from './state';
import { INTERRUPTED, type IMessage, type ITask, TERMINAL, textOf } from './tasks';

export type SendResult = { task: ITask } | { message: IMessage };

export type Operations = ReturnType<typeof createOperations>;

export function createOperations(s: AgentState) {
  const { gen, binding, opts, engine, has, permits, flags, historyPolicy, movedId, findTask, requireTask, validateId } = s;
  /** Recent blocking sends, by message text (defect duplicate-task-ids). */
  const recentSends = new Map<string, { id: string; at: number }>();

  /** Permitted variants image-only-skill / video-only-skill: refuse content the skill does not accept. */
  function refuseContent(p: SendReq): void {
    const text = textOf(p.message).toLowerCase();
    const files = p.message.parts.map((x) => x.file).filter((f): f is NonNullable<typeof f> => !!f);
    const hasType = (re: RegExp) => files.some((f) => re.test(String(f.mimeType ?? '')));
    if (permits('image-only-skill') && /thumbnail/.test(text) && !hasType(/^image\/png$/i)) {
      throw E.contentTypeNotSupported(`Skill ${EXTRA_SKILLS['image-only-skill'].id} accepts only image/png`);
    }
    if ((permits('video-only-skill') || permits('content-type-validation-error')) && /transcode/.test(text) && !hasType(/^video\/mp4$/i)) {
      const m = `Skill ${EXTRA_SKILLS['video-only-skill'].id} accepts only video/mp4: unsupported content type`;
      if (permits('content-type-validation-error') && (gen === 'v1.0' || (gen === 'v0.3' && binding === 'HTTP+JSON')))
        throw E.invalidParams(m, 'message.parts');
      throw E.contentTypeNotSupported(m);
    }
  }

  function startOrContinue(p: SendReq): SendResult & { answered?: boolean; dropped?: boolean; twin?: boolean } {
    refuseContent(p);
    if (permits('context-rejected') && gen === 'v1.0' && p.contextId && !p.taskId) {
      throw E.invalidParams(`contextId ${p.contextId.slice(0, 80)} was not issued by this agent; omit it to start a new context`, 'message.contextId');
    }
    if (has('send-returns-message')) {
      return { message: replyMessage(p.message, p.contextId) };
    }
    if (p.taskId && gen !== 'legacy') validateId(p.taskId);
    const existing = p.taskId ? findTask(p.taskId) : undefined;
    if (existing) {
      const marked = { ...p.message, taskId: existing.id, contextId: existing.contextId };
      if (gen === 'v1.0' && p.contextId && p.contextId !== existing.contextId && !has('context-mismatch-accepted')) {
        if (permits('context-mismatch-not-found')) throw E.taskNotFound(existing.id);
        throw E.invalidParams(`contextId ${p.contextId.slice(0, 80)} does not match task ${existing.id}`, 'message.contextId');
      }
      const st = existing.status.state;
      if (TERMINAL.has(st)) {
        if (!has('message-to-terminal-accepted')) {
          if (has('message-to-terminal-appends')) existing.history.push(marked);
          throw E.unsupported(`Task ${existing.id} is ${st}; a terminal task cannot accept messages`);
        }
        engine.continueTask(existing, p.message, 'resume');
      } else if (INTERRUPTED.has(st)) {
        const dropped = has('input-answer-dropped');
        engine.continueTask(existing, p.message, dropped ? 'drop' : permits('asks-again') ? 'ask-again' : 'resume');
        return { task: existing, answered: true, dropped };
      } else {
        existing.history.push(marked);
      }
      return { task: existing };
    }
    if (p.taskId && gen !== 'legacy' && !has('unknown-task-created')) throw E.taskNotFound(p.taskId);
    if (has('relay-input-refused') && behaviourFor(textOf(p.message)) === 'plain') {
      throw E.invalidParams('This message matches none of the skills this agent offers', 'message');
    }
    // context-replaced: the client's contextId is dropped for a new task.
    const contextId = has('context-replaced') && gen !== 'legacy' ? undefined : p.contextId;
    // duplicate-task-ids: a blocking send with the same text as one less than 5 s ago is taken for a retry and
    // answered with that task (an over-eager de-duplication window).
    const key = textOf(p.message);
    const dup = has('duplicate-task-ids') && p.blocking && !p.stream && gen !== 'legacy';
    const recent = dup ? recentSends.get(key) : undefined;
    const twin = recent && Date.now() - recent.at < 5000 ? engine.tasks.get(recent.id) : undefined;
    if (twin) {
      twin.history.push({ ...p.message, taskId: twin.id, contextId: twin.contextId });
      return { task: twin, twin: true };
    }
    const task = engine.create(p.taskId, contextId, p.message);
    if (dup) recentSends.set(key, { id: task.id, at: Date.now() });
    return { task };
  }

  function replyMessage(user: IMessage, contextId?: string): IMessage {
    const text = textOf(user);
    const reply =
      {
        quick: HAIKU_LINES.join('\n'),
        slow: 'The slow report is ready.',
        input: INPUT_QUESTION,
        fail: FAIL_REASON,
        plain: `You said: ${text.slice(0, 200)}`,
      }[behaviourFor(text)] ?? '';
    return { messageId: randomUUID(), role: 'agent', parts: [{ text: reply }], contextId: contextId ?? randomUUID() };
  }

  /** The state a blocking send waits for: terminal or interrupted (working, for never-finishing or legacy slow tasks). */
  const settled = (t: ITask) =>
    TERMINAL.has(t.status.state) ||
    INTERRUPTED.has(t.status.state) ||
    ((has('task-never-finishes') || (gen === 'legacy' && t.behaviour === 'slow')) && t.status.state === 'working');

  async function send(p: SendReq, signal: AbortSignal): Promise<Json> {
    const r = startOrContinue(p);
    if ('message' in r) {
      const m = renderMessage(gen, r.message);
      return gen === 'v1.0' || binding === 'HTTP+JSON' ? { message: m } : m;
    }
    const t = r.task;
    if (r.answered && permits('answer-message-reply') && gen !== 'legacy') {
      // The answer is acknowledged with a Message; the task resumes on its own.
      const ack: IMessage = {
        messageId: randomUUID(),
        role: 'agent',
        parts: [{ text: 'Thanks, I will go on with that.' }],
        taskId: t.id,
        contextId: t.contextId,
      };
      const m = renderMessage(gen, ack);
      return gen === 'v1.0' || binding === 'HTTP+JSON' ? { message: m } : m;
    }
    if (p.blocking && !r.dropped && !(has('blocking-returns-working') && gen !== 'legacy')) {
      // A just-continued task may still show its interrupted state: wait for the next event first.
      const before = t.status;
      await engine.waitFor(t, (x) => (r.twin || x.status !== before) && settled(x), signal);
    }
    const body = renderTask(gen, t, flags(has('task-id-changes') ? movedId(t) : undefined), historyPolicy(p.historyLength));
    // blocking-answer-no-artifacts: the answer to a blocking send that waited for the end leaves the artifacts out.
    if (p.blocking && gen !== 'legacy' && has('blocking-answer-no-artifacts') && TERMINAL.has(t.status.state)) delete body.artifacts;
    return gen === 'v1.0' || binding === 'HTTP+JSON' ? { task: body } : body;
  }

  function getTask(id: string, historyLength?: number, authorized = true): Json {
    const t = findTask(id);
    // auth-inconsistent: an unknown task id is answered like missing credentials.
    if (!t && authorized && has('auth-inconsistent') && opts.auth) throw new AuthError();
    const task = requireTask(id);
    if (has('get-not-found-running') && !TERMINAL.has(task.status.state)) throw E.taskNotFound(id);
    return renderTask(gen, task, flags(), historyPolicy(historyLength));
  }

  function cancelTask(id: string): Json {
    const t = requireTask(id);
    if (TERMINAL.has(t.status.state)) {
      if (t.status.state === 'canceled' && permits('duplicate-cancel-not-found')) throw E.taskNotFound(id);
      if (t.status.state === 'canceled' && permits('duplicate-cancel-idempotent')) return renderTask(gen, t, flags(), historyPolicy());
      if (t.status.state === 'canceled' && has('cancel-canceled-wrong-code')) throw E.internal(`Cannot cancel task ${id}`);
      if (has('cancel-completed-500')) throw new CrashError();
      if (has('cancel-completed-succeeds')) engine.forceCancel(t);
      else throw E.notCancelable(t.status.state);
    } else {
      if (has('cancel-internal-error')) throw E.internal(`Cancel of task ${id} failed: the worker did not answer`);
      // As an independent server did: an ad-hoc -32000 "TASK_NOT_FOUND" on JSON-RPC (HTTP+JSON: 404).
      if (has('cancel-not-found-running')) throw binding === 'HTTP+JSON' ? E.taskNotFound(id) : new A2AError(-32000, `TASK_NOT_FOUND: ${id.slice(0, 200)}`);
      engine.cancel(t, permits('cancel-async') ? 300 : 0);
    }
    return renderTask(gen, t, flags(), historyPolicy());
  }

  function listTasks(q: Json): Json {
    const pageSize = q.pageSize === undefined ? 50 : q.pageSize;
    if (typeof pageSize !== 'number' || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) {
      throw E.invalidParams('pageSize must be an integer from 1 to 100', 'pageSize');
    }
    let offset = 0;
    if (q.pageToken !== undefined && q.pageToken !== '') {
      const m = typeof q.pageToken === 'string' ? /^o(\d{1,9})$/.exec(q.pageToken) : null;
      if (!m) throw E.invalidParams('pageToken is not a token this agent issued', 'pageToken');
      offset = Number(m[1]);
    }
    let status: string | undefined;
    if (q.status !== undefined && q.status !== '' && q.status !== 'TASK_STATE_UNSPECIFIED') {
      status = typeof q.status === 'string' ? parseV1State(q.status) : undefined;
      if (!status) throw E.invalidParams('status is not a TaskState', 'status');
    }
    let after: number | undefined;
    if (q.statusTimestampAfter !== undefined) {
      after = typeof q.statusTimestampAfter === 'string' ? Date.parse(q.statusTimestampAfter) : NaN;
      if (Number.isNaN(after)) throw E.invalidParams('statusTimestampAfter must be an RFC 3339 timestamp', 'statusTimestampAfter');
    }
    const historyLength = optInt(q.historyLength, 'historyLength');
    if (q.includeArtifacts !== undefined && typeof q.includeArtifacts !== 'boolean') {
      throw E.invalidParams('includeArtifacts must be a boolean', 'includeArtifacts');
    }
    const all = [...engine.tasks.values()]
      .map((t, i) => ({ t, i }))
      .filter(({ t }) => (typeof q.contextId === 'string' && q.contextId && !has('list-ignores-context') ? t.contextId === q.contextId : true))
      .filter(({ t }) => (status ? t.status.state === status : true))
      .filter(({ t }) => (after !== undefined ? t.updatedAt > after : true))
      // list-oldest-first: the order of §3.1.4 ("sorted by status timestamp, newest first") reversed.
      .sort((a, b) => (has('list-oldest-first') ? -1 : 1) * (b.t.updatedAt - a.t.updatedAt || b.i - a.i))
      .map(({ t }) => t);
    // list-small-pages: pageSize is an upper bound; this agent never returns more than 2 per page.
    const size = permits('list-small-pages') ? Math.min(pageSize, 2) : pageSize;
    const page = all.slice(offset, offset + size);
    const next = offset + size < all.length ? `o${offset + size}` : '';
    return {
      tasks: page.map((t) => renderTask(gen, t, flags(), historyPolicy(historyLength, q.includeArtifacts === true || has('list-includes-artifacts')))),
      ...(next || !has('list-no-next-page-token') ? { nextPageToken: next } : {}),
      pageSize: size,
      totalSize: all.length,
    };
  }

  return { startOrContinue, send, getTask, cancelTask, listTasks };
}
