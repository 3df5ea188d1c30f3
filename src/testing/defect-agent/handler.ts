/**
 * The defect agent's wire layer on raw node:http: card, JSON-RPC and HTTP+JSON bindings, SSE, auth,
 * CORS and version negotiation, each behaviour switchable by a named defect. Mountable under a path
 * prefix on a shared server (`handle(req, res)` returns false for paths it does not own).
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import { apiKeyHeader, BROKEN_PATH, buildCard, EXTRA_SKILLS, type AgentFeatures, type AuthConfig } from './card';
import { DEFECTS, type DefectName } from './defects';
import { PERMITTED, type PermittedName } from './permitted';
import {
  type Binding,
  type Generation,
  type HistoryPolicy,
  parseMessage,
  parseV1State,
  type RenderFlags,
  renderArtifactEvent,
  renderMessage,
  renderStatusEvent,
  renderTask,
  wrapV03Rest,
} from './dialect';
import { A2AError, E, type ErrorShape, httpMapping, rpcErrorObject, statusBody } from './errors';
import { DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, HAIKU_LINES, INPUT_QUESTION, FAIL_REASON, behaviourFor } from './skills';
import { INTERRUPTED, type IMessage, type ITask, TaskEngine, type TaskEvent, TERMINAL, textOf } from './tasks';

export type { AgentFeatures, AuthConfig } from './card';
export type { Binding, Generation } from './dialect';

export interface DefectAgentOptions {
  generation: Generation;
  binding?: Binding;
  defects?: DefectName[];
  /** Behaviours the spec permits that the plain agent does not show (see permitted.ts). */
  permitted?: PermittedName[];
  /** Optional capabilities to declare and implement: streaming (default on), push configs, extended card. */
  features?: AgentFeatures;
  auth?: AuthConfig;
  slowTaskMs?: number;
  /** Pacing of quick steps (artifact chunks, input-required, failure). Default 50 ms. */
  stepMs?: number;
  name?: string;
  description?: string;
}

export interface DefectAgentMountOptions extends DefectAgentOptions {
  /** Path prefix this agent owns, e.g. `/demo/flawed`. Default '' (the whole server). */
  basePath?: string;
  /** Absolute URL of `basePath` as clients reach it; may be set later with setPublicUrl. */
  publicUrl?: string;
}

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface DefectAgentHandler {
  /** Handles the request if its path is under basePath; returns false (without touching res) otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  setDefects(d: DefectName[]): void;
  readonly defects: readonly DefectName[];
  /** Replaces the permitted behaviours (tests switch them on one at a time). */
  setPermitted(p: PermittedName[]): void;
  readonly requests: RecordedRequest[];
  setPublicUrl(url: string): void;
  /** The agent endpoint (JSON-RPC URL or REST base), absolute. */
  readonly url: string;
  /** Absolute URL of the public card. */
  readonly cardUrl: string;
  readonly generation: Generation;
  readonly binding: Binding;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const MAX_BODY = 1024 * 1024;
const MAX_RECORDED = 5000;
const MAX_STREAM_MS = 5 * 60_000;
const KEEPALIVE_MS = 1000;
const V1_REST_CT = 'application/a2a+json';
const HUGE_CARD_BYTES = 20 * 1024 * 1024;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validated send parameters, generation-neutral. */
interface SendReq {
  message: IMessage;
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** false: return as soon as the task exists. */
  blocking: boolean;
  /** A streaming send. */
  stream?: boolean;
}

type SendResult = { task: ITask } | { message: IMessage };

/** Where stream frames go: JSON-RPC wraps each payload in a response with the request id; REST sends it bare. */
interface StreamSink {
  start(): void;
  event(payload: Json): void;
  /** An error event (JSON-RPC error response; HTTP+JSON google.rpc.Status). */
  error(e: A2AError): void;
  comment(text: string): void;
  end(): void;
  onClose(fn: () => void): void;
  readonly closed: boolean;
}

export function createDefectAgentHandler(opts: DefectAgentMountOptions): DefectAgentHandler {
  const gen = opts.generation;
  const binding: Binding = opts.binding ?? 'JSONRPC';
  if (binding === 'HTTP+JSON' && gen !== 'v1.0' && gen !== 'v0.3') {
    throw new Error(`HTTP+JSON is defined only for v0.3 and v1.0, not ${gen}`);
  }
  const basePath = (opts.basePath ?? '').replace(/\/+$/, '');
  let publicUrl = (opts.publicUrl ?? 'http://127.0.0.1').replace(/\/+$/, '');
  let defects = new Set<DefectName>(opts.defects ?? []);
  for (const d of defects) if (!(d in DEFECTS)) throw new Error(`unknown defect ${d}`);
  const has = (d: DefectName) => defects.has(d);
  let permitted = new Set<PermittedName>(opts.permitted ?? []);
  for (const x of permitted) if (!(x in PERMITTED)) throw new Error(`unknown permitted behaviour ${x}`);
  const permits = (x: PermittedName) => permitted.has(x);
  const features: AgentFeatures = { streaming: true, ...opts.features };
  const restCt = () => (gen === 'v1.0' && !permits('rest-json-content-type') ? V1_REST_CT : 'application/json');
  const requests: RecordedRequest[] = [];
  const openResponses = new Set<ServerResponse>();
  const stepMs = opts.stepMs ?? DEFAULT_STEP_MS;
  let seq = 0;
  const hex12 = () => randomUUID().replace(/-/g, '').slice(0, 12);
  /** Recent blocking sends, by message text (defect duplicate-task-ids). */
  const recentSends = new Map<string, { id: string; at: number }>();
  const engine = new TaskEngine({
    stepMs,
    slowTaskMs: opts.slowTaskMs ?? DEFAULT_SLOW_TASK_MS,
    neverFinish: () => has('task-never-finishes'),
    goBackwards: () => permits('back-to-submitted'),
    cancelIgnored: () => has('cancel-ignored'),
    skipWorking: () => permits('skip-working'),
    classify: (text) => {
      const t = text.toLowerCase();
      if (permits('task-rejected-initial') && gen !== 'legacy' && /\bgate\b/.test(t)) return 'rejected';
      if (permits('stream-open-at-auth-required') && gen === 'v1.0' && /\bsign in\b/.test(t)) return 'auth';
      return behaviourFor(text);
    },
    newTaskId: () => {
      if (permits('sequential-task-ids')) return `t-${String(++seq).padStart(6, '0')}`;
      if (permits('prefixed-task-ids')) return `task-${hex12()}`;
      return randomUUID();
    },
    newContextId: () => (permits('prefixed-task-ids') ? `ctx-${hex12()}` : randomUUID()),
  });
  /** Tasks whose stream handler "crashed" when the client left (defect crash-after-disconnect). */
  const crashed = new Set<string>();
  /** Calls already limited once (permitted rate-limit-once), by kind. */
  const limited = new Set<string>();
  /** The v0.3 compatibility layer of a v1.0 agent (version-compat-03, card-dual-v03-v1): header-less calls. */
  let compat: DefectAgentHandler | undefined;
  const compatOn = () => gen === 'v1.0' && (permits('version-compat-03') || permits('card-dual-v03-v1'));
  const cardPathNew = '/.well-known/agent-card.json';
  const cardPathOld = '/.well-known/agent.json';
  const servesOldPath = () => gen === 'legacy' || gen === 'v0.2' || has('card-legacy-path-only');
  /** Permitted endpoint-path: the A2A endpoint lives under /a2a. */
  const endpointPrefix = () => (permits('endpoint-path') ? '/a2a' : '');
  const endpointUrl = () => `${publicUrl}${endpointPrefix()}`;

  const flags = (idOverride?: string): RenderFlags => ({
    noTaskId: has('no-task-id'),
    pendingState: has('bad-initial-state'),
    badTimestamps: has('bad-timestamps'),
    plainTimestamps: permits('timestamps-offset'),
    zonelessTimestamps: permits('timestamps-zoneless') && (gen === 'v0.2' || gen === 'v0.3'),
    lowercaseTimestamps: permits('timestamps-lowercase') && gen === 'legacy',
    noTaskContext: permits('v1-no-task-context') && gen === 'v1.0',
    extraFields: permits('extra-fields'),
    ...(idOverride ? { idOverride } : {}),
  });
  const movedId = (t: ITask) => `${t.id}-moved`;
  const historyPolicy = (historyLength?: number, includeArtifacts?: boolean): HistoryPolicy => ({
    historyLength,
    noHistory: has('no-history'),
    ignoreLength: has('history-ignores-length'),
    zeroEmpty: has('history-zero-empty'),
    fewer: permits('history-fewer'),
    ...(includeArtifacts === undefined ? {} : { includeArtifacts }),
  });
  const findTask = (id: string): ITask | undefined =>
    engine.tasks.get(id) ?? (has('task-id-changes') && id.endsWith('-moved') ? engine.tasks.get(id.slice(0, -6)) : undefined);
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  const PREFIXED = /^task-[0-9a-f]{12}$/;
  /** Permitted id validation (strict-task-ids, prefixed-task-ids): a malformed id is a validation error. */
  const validateId = (id: string) => {
    if (permits('strict-task-ids') && !UUID.test(id)) throw E.invalidParams(`Invalid task ID format: ${id.slice(0, 80)} is not a UUID`, 'id');
    if (permits('prefixed-task-ids') && !PREFIXED.test(id)) throw E.invalidParams(`Invalid task ID format: ${id.slice(0, 80)} is not task-<12 hex digits>`, 'id');
  };
  const requireTask = (id: string): ITask => {
    validateId(id);
    if (crashed.has(id)) throw new CrashError();
    const t = findTask(id);
    if (!t) throw E.taskNotFound(id);
    return t;
  };
  /** Error override for unknown tasks (task-not-found-* defects). */
  const notFoundError = (e: A2AError): A2AError => {
    if (e.code !== -32001) return e;
    if (has('task-not-found-500')) return new CrashError();
    if (has('task-not-found-wrong-code')) return E.invalidParams(e.message, 'id');
    return e;
  };

  // ------------------------------------------------------------------ operations (binding-neutral)

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
      if (permits('content-type-validation-error') && (gen === 'v1.0' || (gen === 'v0.3' && binding === 'HTTP+JSON'))) throw E.invalidParams(m, 'message.parts');
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
      const ack: IMessage = { messageId: randomUUID(), role: 'agent', parts: [{ text: 'Thanks, I will go on with that.' }], taskId: t.id, contextId: t.contextId };
      const m = renderMessage(gen, ack);
      return gen === 'v1.0' || binding === 'HTTP+JSON' ? { message: m } : m;
    }
    if (p.blocking && !r.dropped && !(has('blocking-returns-working') && gen !== 'legacy')) {
      // A just-continued task may still show its interrupted state: wait for the next event first.
      const before = t.status;
      await engine.waitFor(t, (x) => (r.twin || x.status !== before) && settled(x), signal);
    }
    const body = renderTask(gen, t, flags(has('task-id-changes') ? movedId(t) : undefined), historyPolicy(p.historyLength));
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
      .sort((a, b) => b.t.updatedAt - a.t.updatedAt || b.i - a.i)
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

  // ------------------------------------------------------------------ push notification configs (features.push)

  interface PushCfg {
    id: string;
    url: string;
    token?: string;
    authentication?: unknown;
  }
  const pushConfigs = new Map<string, Map<string, PushCfg>>();

  /** A config as the generation spells it: legacy/v0.x {taskId|id, pushNotificationConfig}, v1.0 flat. */
  function renderPush(taskId: string, c: PushCfg): Json {
    const url = has('push-config-wrong-url') ? `${c.url.replace(/\/+$/, '')}/v2` : c.url;
    const token = c.token && permits('push-token-masked') ? '****' : c.token;
    const inner: Json = { url, ...(token ? { token } : {}), ...(c.authentication ? { authentication: c.authentication } : {}) };
    if (gen === 'v1.0') return { id: c.id, taskId, ...inner };
    if (gen === 'legacy') return { id: taskId, pushNotificationConfig: inner };
    return { taskId, pushNotificationConfig: { id: c.id, ...inner } };
  }

  function storePush(taskId: string, cfg: unknown): Json {
    requireTask(taskId);
    if (!isObj(cfg) || typeof cfg.url !== 'string' || !/^https?:\/\//.test(cfg.url)) throw E.invalidParams('the push config needs an absolute http(s) url', 'url');
    const c: PushCfg = {
      id: typeof cfg.id === 'string' && cfg.id ? cfg.id : randomUUID(),
      url: cfg.url,
      ...(typeof cfg.token === 'string' ? { token: cfg.token } : {}),
      ...(cfg.authentication !== undefined ? { authentication: cfg.authentication } : {}),
    };
    let m = pushConfigs.get(taskId);
    if (!m) pushConfigs.set(taskId, (m = new Map()));
    if (gen === 'legacy') m.clear();
    m.set(c.id, c);
    return renderPush(taskId, c);
  }

  function findPush(taskId: string, configId?: string): Json {
    requireTask(taskId);
    const m = pushConfigs.get(taskId);
    const c = configId ? m?.get(configId) : m?.values().next().value;
    if (!c) throw E.invalidParams(`no push notification config ${configId ?? ''} for task ${taskId}`, 'id');
    return renderPush(taskId, c);
  }

  function listPush(taskId: string): Json[] {
    requireTask(taskId);
    return [...(pushConfigs.get(taskId)?.values() ?? [])].map((c) => renderPush(taskId, c));
  }

  function deletePush(taskId: string, configId: string): void {
    requireTask(taskId);
    const m = pushConfigs.get(taskId);
    if (permits('push-second-delete-not-found') && gen !== 'legacy' && !m?.has(configId)) {
      throw E.invalidParams(`no push notification config ${configId.slice(0, 80)} for task ${taskId.slice(0, 80)}`, 'id');
    }
    if (has('push-config-not-deleted')) return;
    m?.delete(configId);
  }

  function pushRpc(op: 'pushSet' | 'pushGet' | 'pushList' | 'pushDelete', p: Json): unknown {
    if (gen === 'v1.0') {
      const taskId = idParam(p, 'taskId');
      if (op === 'pushSet') return storePush(taskId, p);
      if (op === 'pushGet') return findPush(taskId, idParam(p));
      if (op === 'pushList') return { configs: listPush(taskId), nextPageToken: '' };
      deletePush(taskId, idParam(p));
      return {};
    }
    if (op === 'pushSet') return storePush(gen === 'legacy' ? idParam(p) : idParam(p, 'taskId'), p.pushNotificationConfig);
    const taskId = idParam(p);
    if (op === 'pushGet') return findPush(taskId, typeof p.pushNotificationConfigId === 'string' ? p.pushNotificationConfigId : undefined);
    if (op === 'pushList') return listPush(taskId);
    deletePush(taskId, idParam(p, 'pushNotificationConfigId'));
    return null;
  }

  /** Permitted push-url-validation: the webhook URL is validated before anything else (v1.0.1 §13.2). */
  function validateWebhook(cfg: Json): void {
    if (!permits('push-url-validation')) return;
    const u = typeof cfg.url === 'string' ? cfg.url : '';
    let host = '';
    try {
      host = new URL(u).hostname;
    } catch {
      /* not a URL */
    }
    if (!host || /(^|\.)(invalid|localhost|test|example)$/i.test(host) || /^(127\.|10\.|192\.168\.)/.test(host)) {
      throw E.invalidParams(`webhook URL ${u.slice(0, 120)} is not allowed (it must resolve to a public address)`, 'url');
    }
  }

  /** The authenticated extended card (features.extendedCard with auth; auth is enforced by the endpoint). */
  function extendedCard(): Json {
    if (!features.extendedCard || !opts.auth) {
      throw gen === 'v1.0' ? E.unsupported('This agent does not declare capabilities.extendedAgentCard') : E.extendedCardNotConfigured();
    }
    if (permits('extended-not-configured')) throw E.extendedCardNotConfigured();
    const card = cardNow();
    card.description = `${String(card.description)} (extended card for authenticated clients)`;
    return card;
  }

  // ------------------------------------------------------------------ streaming

  /**
   * Streams a task's events to `sink`: first the Task (v0.x, v1.0) or the current status (legacy resubscribe),
   * then live events until a terminal or interrupted state.
   */
  function streamTask(sink: StreamSink, t: ITask, kind: 'send' | 'resubscribe'): void {
    let first = true;
    const f = () => {
      const fl = flags(has('task-id-changes') && !first ? movedId(t) : undefined);
      first = false;
      return fl;
    };
    const out = (payload: Json) => sink.event(binding === 'HTTP+JSON' && gen === 'v0.3' ? wrapV03Rest(payload) : payload);
    const taskEvent = () => {
      const body = renderTask(gen, t, f(), historyPolicy());
      out(gen === 'v1.0' ? { task: body } : body);
    };
    let ended = false;
    let unsub = () => {};
    const timers: ReturnType<typeof setTimeout>[] = [];
    const finish = () => {
      if (ended) return;
      ended = true;
      unsub();
      for (const x of timers) clearTimeout(x);
      clearInterval(keepalive);
      sink.end();
    };
    const keepOpen = () => {
      // Defects that never close: only comments until the client leaves (or a safety cap).
      timers.push(setTimeout(finish, MAX_STREAM_MS));
    };
    const keepalive = setInterval(() => {
      if (sink.closed) finish();
      else sink.comment('keep-alive');
    }, KEEPALIVE_MS);
    sink.onClose(() => {
      if (!ended && !isEnd(t)) {
        // The client left mid-task.
        if (has('crash-after-disconnect')) crashed.add(t.id);
        if (permits('disconnect-cancels')) engine.cancel(t);
      }
      finish();
    });

    sink.start();
    // stream-first-terminal-status (before v1.0): one event, the final status, once the task settles.
    const single = permits('stream-first-terminal-status') && gen !== 'v1.0';
    // artifact-in-task (v0.2+): the first Task waits for, and carries, the first artifact chunk of a quick task.
    let deferTask = permits('artifact-in-task') && gen !== 'legacy' && kind === 'send' && t.behaviour === 'quick' && !isEnd(t);
    if (!has('sse-first-not-task') && !single && !deferTask) {
      if (gen === 'legacy') {
        if (kind === 'resubscribe') out(renderStatusEvent(gen, t, t.status, isEnd(t), f()));
      } else taskEvent();
    }
    if (isEnd(t)) {
      if (single) out(renderStatusEvent(gen, t, t.status, true, f()));
      finishOrLinger(t.status.state);
      return;
    }
    unsub = engine.subscribe(t.id, (e: TaskEvent) => {
      if (ended) return;
      if (e.type === 'artifact') {
        if (single) return;
        if (deferTask) {
          deferTask = false;
          taskEvent();
          return;
        }
        const append = e.append || (has('artifact-append-without-start') && !e.append);
        out(renderArtifactEvent(gen, t, e.artifact, e.chunk, append, e.lastChunk, f()));
        return;
      }
      const terminal = TERMINAL.has(e.status.state);
      const final = terminal || INTERRUPTED.has(e.status.state);
      if (single) {
        if (final) {
          out(renderStatusEvent(gen, t, e.status, true, f()));
          finishOrLinger(e.status.state);
        }
        return;
      }
      if (deferTask) {
        // The Task (sent with the first chunk) carries the state; earlier status updates are folded into it.
        if (!final) return;
        deferTask = false;
        taskEvent();
      }
      if (terminal && has('sse-stall-after-complete')) {
        // The task is done, but the stream neither says so nor closes.
        unsub();
        keepOpen();
        return;
      }
      if (terminal && has('sse-error-event') && gen !== 'legacy') {
        sink.error(E.internal('The stream broke while sending the result'));
        finish();
        return;
      }
      if (final && gen === 'v1.0' && has('sse-no-final')) {
        finish();
        return;
      }
      if (terminal && permits('stream-ends-with-task') && (gen === 'v0.2' || gen === 'v0.3')) {
        // The stream ends with the Task in its terminal state (what a2a-python's clients treat as the end).
        taskEvent();
        finishOrLinger(e.status.state);
        return;
      }
      const finalFlag = gen === 'v1.0' ? undefined : final && !has('sse-no-final');
      out(renderStatusEvent(gen, t, e.status, finalFlag, f()));
      if (final) {
        if (has('sse-events-after-final')) out(renderStatusEvent(gen, t, { ...e.status, state: 'working' }, gen === 'v1.0' ? undefined : false, f()));
        if (terminal && permits('stream-task-snapshot') && gen === 'v1.0') taskEvent();
        finishOrLinger(e.status.state);
      }
    });
    if (has('task-never-finishes')) keepOpen();
    function finishOrLinger(state: string) {
      // stream-open-at-auth-required (v1.0): the stream stays open while the task waits for the user to sign in.
      if (has('sse-never-ends') || (state === 'auth-required' && permits('stream-open-at-auth-required') && gen === 'v1.0')) keepOpen();
      else setImmediate(finish);
    }
    function isEnd(x: ITask) {
      return TERMINAL.has(x.status.state) || INTERRUPTED.has(x.status.state);
    }
  }

  function streamingOff(): A2AError {
    return E.unsupported('This agent does not declare capabilities.streaming');
  }

  /** Streaming off: the refusal (or, with the streaming-undeclared-* defects, the wrong answer); undefined to serve. */
  function streamingOffError(): A2AError | undefined {
    if (features.streaming !== false || has('streaming-undeclared-served')) return undefined;
    if (has('streaming-undeclared-wrong-code')) return E.internal('Streaming failed');
    if (permits('no-streaming-method-not-found') && gen !== 'v1.0') return E.methodNotFound('Streaming is not available on this agent');
    return streamingOff();
  }

  /** A refusal of a streaming method: an error answer, or (sse-error-first-event, v1.0) the first and only SSE event. */
  function refuseStream(sink: StreamSink, e: A2AError): void {
    if (!(permits('sse-error-first-event') && gen === 'v1.0')) throw e;
    sink.start();
    sink.error(e);
    sink.end();
  }

  function streamSend(sink: StreamSink, p: SendReq): void {
    const off = streamingOffError();
    if (off) return refuseStream(sink, off);
    if (has('sse-error-body')) throw E.internal('The stream could not be opened');
    const r = startOrContinue({ ...p, stream: true });
    if ('message' in r) {
      sink.start();
      const m = renderMessage(gen, r.message);
      sink.event(gen === 'v1.0' || binding === 'HTTP+JSON' ? { message: m } : m);
      if (has('sse-never-ends')) setTimeout(() => sink.end(), MAX_STREAM_MS);
      else sink.end();
      return;
    }
    streamTask(sink, r.task, 'send');
  }

  function resubscribe(sink: StreamSink, id: string): void {
    const off = streamingOffError();
    if (off) return refuseStream(sink, off);
    const t = requireTask(id);
    if (TERMINAL.has(t.status.state)) {
      if (gen === 'v1.0' && !has('subscribe-terminal-replays')) {
        return refuseStream(sink, E.unsupported(`Task ${t.id} is ${t.status.state}; cannot subscribe to a terminal task`));
      }
      if (gen !== 'v1.0' && permits('subscribe-terminal-error')) throw E.invalidParams(`Task ${t.id} is ${t.status.state}; there is nothing to subscribe to`, 'id');
    }
    streamTask(sink, t, 'resubscribe');
  }

  // ------------------------------------------------------------------ parameter parsing

  function optInt(v: unknown, field: string): number | undefined {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw E.invalidParams(`${field} must be a non-negative integer`, field);
    return v;
  }

  function parseSend(params: Json): SendReq {
    if (gen === 'legacy') {
      if (typeof params.id !== 'string' || params.id === '') throw E.invalidParams('params.id (the task id) is required', 'id');
      const pm = parseMessage(gen, params.message);
      if (typeof pm === 'string') throw E.invalidParams(pm, 'message');
      const existing = findTask(params.id);
      const sessionId = typeof params.sessionId === 'string' && params.sessionId ? params.sessionId : undefined;
      return {
        message: pm.message,
        taskId: params.id,
        contextId: existing ? existing.contextId : sessionId,
        historyLength: optInt(params.historyLength, 'historyLength'),
        blocking: true,
      };
    }
    const pm = parseMessage(gen, params.message);
    if (typeof pm === 'string') throw E.invalidParams(pm, 'message');
    const cfg = params.configuration;
    if (cfg !== undefined && cfg !== null && !isObj(cfg)) throw E.invalidParams('configuration must be an object', 'configuration');
    const c = (cfg ?? {}) as Json;
    const blocking = gen === 'v1.0' ? c.returnImmediately !== true : c.blocking !== false;
    return {
      message: pm.message,
      taskId: pm.taskId,
      contextId: pm.contextId,
      historyLength: optInt(c.historyLength, 'configuration.historyLength'),
      blocking,
    };
  }

  function idParam(params: Json, field = 'id'): string {
    const id = params[field];
    if (typeof id !== 'string' || id.trim() === '') throw E.invalidParams(`params.${field} must be a non-empty string`, field);
    return id;
  }

  // ------------------------------------------------------------------ HTTP plumbing

  function setCors(req: IncomingMessage, res: ServerResponse): void {
    if (has('no-cors')) return;
    if (permits('cors-minimal')) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      return;
    }
    const origin = req.headers.origin;
    res.setHeader('Access-Control-Allow-Origin', typeof origin === 'string' && origin ? origin : '*');
    res.setHeader('Vary', permits('card-varies-by-version') ? 'Origin, A2A-Version' : 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, ETag, A2A-Version, A2A-Extensions, Content-Type');
  }

  function preflight(req: IncomingMessage, res: ServerResponse, sub: string): void {
    const card = sub === cardPathNew || sub === cardPathOld;
    if (has('no-cors') || (permits('cors-minimal') && card && gen !== 'v1.0')) {
      // cors-minimal: before v1.0 no client sends a header that makes the card GET need a preflight.
      res.writeHead(405, { Allow: 'GET, POST', 'Content-Type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    const reqHeaders = req.headers['access-control-request-headers'];
    const allowHeaders = [
      'Content-Type',
      'Authorization',
      'A2A-Version',
      'A2A-Extensions',
      'X-A2A-Extensions',
      'Last-Event-ID',
      'If-None-Match',
      opts.auth?.scheme === 'apiKey' ? apiKeyHeader(opts.auth) : 'X-API-Key',
    ];
    if (typeof reqHeaders === 'string') {
      for (const h of reqHeaders.split(',').map((s) => s.trim()).filter(Boolean)) {
        if (/^[A-Za-z0-9-]{1,64}$/.test(h) && !allowHeaders.some((a) => a.toLowerCase() === h.toLowerCase())) allowHeaders.push(h);
      }
    }
    if (permits('cors-minimal')) {
      // GET and POST are CORS-safelisted methods: a preflight for them needs no Allow-Methods.
      res.writeHead(204, { 'Access-Control-Allow-Headers': allowHeaders.join(', ') }).end();
      return;
    }
    res.writeHead(204, {
      'Access-Control-Allow-Methods': binding === 'HTTP+JSON' ? 'GET, POST, DELETE, OPTIONS' : 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': allowHeaders.join(', '),
      'Access-Control-Max-Age': '600',
    });
    res.end();
  }

  const REALM = 'realm="a2a-interop"';

  /** The credentials presented: 'none', 'valid', or the refusal (status and challenge) they earn. */
  function credentialState(req: IncomingMessage): { state: 'none' | 'valid' | 'wrong'; status: number; challenge: string } {
    const auth = opts.auth;
    if (!auth || auth.scheme === 'bearer') {
      const h = req.headers.authorization;
      const m = typeof h === 'string' ? /^Bearer\s+(.+)$/i.exec(h.trim()) : null;
      if (!m) return { state: 'none', status: 401, challenge: `Bearer ${REALM}` };
      if (!auth || !safeEqual(m[1]!, auth.secret)) return { state: 'wrong', status: 401, challenge: `Bearer ${REALM}, error="invalid_token"` };
      return { state: 'valid', status: 0, challenge: '' };
    }
    const name = apiKeyHeader(auth);
    const v = req.headers[name.toLowerCase()];
    if (typeof v !== 'string' || v === '') return { state: 'none', status: 401, challenge: `ApiKey ${REALM}, header="${name}"` };
    if (!safeEqual(v, auth.secret)) return { state: 'wrong', status: 403, challenge: '' };
    return { state: 'valid', status: 0, challenge: '' };
  }

  /** Sends the refusal of a request for its credentials. */
  function refuseAuth(res: ServerResponse, status: number, challenge: string): void {
    const headers: Record<string, string> = {};
    if (status === 401 && !has('auth-no-www-authenticate')) {
      // auth-multi-challenge: two challenges in one header (RFC 9110 §11.6.1 allows a list).
      headers['WWW-Authenticate'] = permits('auth-multi-challenge') ? `${challenge}, Signature ${REALM}, headers="date"` : challenge;
    }
    const message = status === 401 ? 'Authentication required' : 'Credentials not accepted';
    if (binding === 'HTTP+JSON') {
      headers['Content-Type'] = gen === 'v1.0' ? V1_REST_CT : 'application/json';
      res.writeHead(status, headers).end(JSON.stringify({ error: { code: status, status: status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', message, details: [] } }));
    } else if (permits('auth-jsonrpc-error') && gen === 'v1.0') {
      // v1.0.1 §3.3.2 names a JSON-RPC custom error as one form of the rejection.
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
    } else {
      headers['Content-Type'] = 'application/json';
      res.writeHead(status, headers).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
    }
  }

  /** true when authorised; otherwise the refusal was sent. */
  function checkAuth(req: IncomingMessage, res: ServerResponse, force = false): boolean {
    const auth = opts.auth;
    if (!auth && !force) return true;
    if (auth && has('auth-not-enforced') && !force) return true;
    const c = credentialState(req);
    if (c.state === 'valid') return true;
    // auth-optional: anonymous calls are served (credentials, when sent, must be right).
    if (c.state === 'none' && permits('auth-optional') && !force) return true;
    // auth-403: a missing credential is refused with 403 Forbidden.
    if (c.state === 'none' && permits('auth-403')) refuseAuth(res, 403, '');
    else refuseAuth(res, c.status, c.challenge);
    return false;
  }

  function serveCard(req: IncomingMessage, res: ServerResponse, sub: string): boolean {
    const isNew = sub === cardPathNew;
    const served = permits('card-both-paths') || (servesOldPath() ? !isNew : isNew);
    if (has('card-html-404') || !served) {
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain' }).end('Method Not Allowed');
      return true;
    }
    if ((has('card-behind-auth') || permits('card-protected') || permits('card-protected-spa')) && !checkAuth(req, res, true)) return true;
    const card = cardNow();
    // card-varies-*: a different card for requests without A2A-Version (e.g. for old clients).
    if ((has('card-varies-no-vary') || permits('card-varies-by-version')) && !versionHeader(req, new URL(req.url ?? '/', 'http://agent.invalid'))) {
      card.description = `${String(card.description)} (card for clients without A2A-Version)`;
    }
    const contentType = has('card-wrong-content-type') ? 'text/plain; charset=utf-8' : permits('card-content-type-charset') ? 'application/json; charset=utf-8' : 'application/json';
    if (has('card-huge')) {
      sendHugeCard(req, res, card, contentType);
      return true;
    }
    const text = JSON.stringify(card);
    const body = has('card-bom') ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]) : Buffer.from(text);
    const etag = `W/"${hash(text)}"`;
    const headers: Record<string, string> = { 'Content-Type': contentType };
    if (!has('card-no-cache-headers')) {
      headers['Cache-Control'] = permits('card-revalidate') ? 'no-cache, max-age=0' : 'public, max-age=60';
      headers.ETag = etag;
    }
    if (permits('card-varies-by-version') && !permits('cors-minimal') && !has('no-cors')) headers.Vary = 'Origin, A2A-Version';
    else if (permits('card-varies-by-version')) headers.Vary = 'A2A-Version';
    if (headers.ETag && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  function cardNow(): Json {
    return buildCard({
      generation: gen,
      binding,
      url: endpointUrl(),
      name: opts.name ?? `Defect agent (${gen}, ${binding})`,
      description: opts.description ?? 'A wire-controlled A2A test agent with switchable defects.',
      ...(opts.auth ? { auth: opts.auth } : {}),
      has,
      permits,
      features,
    });
  }

  function sendHugeCard(req: IncomingMessage, res: ServerResponse, card: Json, contentType: string): void {
    const marker = '__PADDING__';
    const [head, tail] = JSON.stringify({ ...card, description: marker }).split(`"${marker}"`) as [string, string];
    const prefix = Buffer.from(`${head}"`);
    const suffix = Buffer.from(`"${tail}`);
    res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'public, max-age=60', ETag: 'W/"huge-card"', 'Content-Length': prefix.length + HUGE_CARD_BYTES + suffix.length });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = HUGE_CARD_BYTES;
    res.write(prefix);
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end(suffix);
    };
    pump();
  }

  function readBody(req: IncomingMessage, rec: RecordedRequest): Promise<string | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (c: Buffer) => {
        if (done) return;
        size += c.length;
        if (size > MAX_BODY) {
          done = true;
          resolve(null);
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        const s = Buffer.concat(chunks).toString('utf8');
        rec.body = s;
        resolve(s);
      });
      req.on('error', () => {
        if (!done) {
          done = true;
          resolve(null);
        }
      });
      req.on('close', () => {
        if (!done) {
          done = true;
          resolve(null);
        }
      });
    });
  }

  function crash(res: ServerResponse): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html><body><pre>TypeError: Cannot read properties of undefined (reading \'state\')\n    at handler.js:42:17</pre></body></html>');
  }

  /** The line ending of SSE frames (permitted variants sse-crlf / sse-cr; LF by default). */
  const eol = () => (permits('sse-crlf') ? '\r\n' : permits('sse-cr') ? '\r' : '\n');
  let sseSeq = 0;
  /** One SSE event: `data:` lines (several when sse-multiline-data), plus comments, id, event and retry (sse-fields). */
  function sseFrame(payload: Json): string {
    const n = eol();
    const multi = permits('sse-multiline-data') || has('sse-multiline-no-prefix');
    const data = multi ? JSON.stringify(payload, null, 1).split('\n') : [JSON.stringify(payload)];
    // sse-multiline-no-prefix: "data:" on the first line only (the layout of the v0.2.6/v0.3.0 §9.3 examples).
    const lines = data.map((l, i) => (i > 0 && has('sse-multiline-no-prefix') ? l : `data: ${l}`));
    if (permits('sse-fields')) lines.unshift(': an SSE comment line, to be ignored', `id: ${++sseSeq}`, 'event: message', 'retry: 3000');
    if (permits('sse-unknown-fields')) lines.unshift('foo: bar', 'retry: soon');
    return `${lines.join(n)}${n}${n}`;
  }

  function makeSink(res: ServerResponse, frame: (payload: Json) => Json, errorFrame: (e: A2AError) => Json): StreamSink {
    openResponses.add(res);
    res.on('close', () => openResponses.delete(res));
    return {
      get closed() {
        return res.destroyed || res.writableEnded;
      },
      start() {
        if (res.headersSent) return;
        res.writeHead(200, {
          'Content-Type': has('sse-wrong-content-type') ? 'application/json' : 'text/event-stream',
          'Cache-Control': 'no-cache',
          Connection: 'keep-alive',
          'X-Accel-Buffering': 'no',
        });
        res.flushHeaders();
      },
      onClose(fn) {
        res.on('close', fn);
      },
      event(payload) {
        if (this.closed) return;
        res.write(sseFrame(frame(payload)));
      },
      error(e) {
        if (!this.closed) res.write(sseFrame(errorFrame(e)));
      },
      comment(text) {
        if (!this.closed) res.write(`: ${text}${eol()}${eol()}`);
      },
      end() {
        if (!this.closed) res.end();
      },
    };
  }

  // ------------------------------------------------------------------ JSON-RPC binding

  const rpcId = (id: unknown): unknown => {
    if (!has('wrong-rpc-id')) return id;
    return typeof id === 'number' ? id + 1000 : `${String(id ?? 'null')}-x`;
  };

  const errShape = (): ErrorShape => ({
    noErrorInfo: has('error-data-no-errorinfo'),
    untyped: has('error-data-untyped'),
    noStatusField: permits('rest-status-no-status-field') && gen === 'v1.0',
  });

  function rpcSend(res: ServerResponse, id: unknown, body: { result: unknown } | { error: A2AError }, notification = false): void {
    if (res.destroyed) return;
    if (notification && !has('notification-answered')) {
      // JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.
      if (permits('notification-202')) return void res.writeHead(202).end();
      if (!permits('notification-invalid-request')) return void res.writeHead(204).end();
      const msg = { jsonrpc: '2.0', id: null, error: rpcErrorObject(gen, E.invalidRequest('Requests need an id'), errShape()) };
      return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(msg));
    }
    const msg: Json = { jsonrpc: '2.0', id: rpcId(id ?? null) };
    if ('result' in body) {
      msg.result = body.result;
      if (has('result-and-error')) msg.error = null;
    } else {
      msg.error = rpcErrorObject(gen, body.error, errShape());
      if (has('result-and-error')) msg.result = null;
    }
    const status = 'error' in body && permits('jsonrpc-error-http-status') ? httpMapping(body.error.code).http : 200;
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(msg));
  }

  const METHODS: Record<Generation, Record<string, string>> = {
    legacy: {
      'tasks/send': 'send',
      'tasks/sendSubscribe': 'stream',
      'tasks/get': 'get',
      'tasks/cancel': 'cancel',
      'tasks/resubscribe': 'resubscribe',
      'tasks/pushNotification/set': 'pushSet',
      'tasks/pushNotification/get': 'pushGet',
    },
    'v0.2': {
      'message/send': 'send',
      'message/stream': 'stream',
      'tasks/get': 'get',
      'tasks/cancel': 'cancel',
      'tasks/resubscribe': 'resubscribe',
      'tasks/pushNotificationConfig/set': 'pushSet',
      'tasks/pushNotificationConfig/get': 'pushGet',
      'tasks/pushNotificationConfig/list': 'pushList',
      'tasks/pushNotificationConfig/delete': 'pushDelete',
    },
    'v0.3': {
      'message/send': 'send',
      'message/stream': 'stream',
      'tasks/get': 'get',
      'tasks/cancel': 'cancel',
      'tasks/resubscribe': 'resubscribe',
      'tasks/pushNotificationConfig/set': 'pushSet',
      'tasks/pushNotificationConfig/get': 'pushGet',
      'tasks/pushNotificationConfig/list': 'pushList',
      'tasks/pushNotificationConfig/delete': 'pushDelete',
      'agent/getAuthenticatedExtendedCard': 'extendedCard',
    },
    'v1.0': {
      SendMessage: 'send',
      SendStreamingMessage: 'stream',
      GetTask: 'get',
      ListTasks: 'list',
      CancelTask: 'cancel',
      SubscribeToTask: 'resubscribe',
      CreateTaskPushNotificationConfig: 'pushSet',
      GetTaskPushNotificationConfig: 'pushGet',
      ListTaskPushNotificationConfigs: 'pushList',
      DeleteTaskPushNotificationConfig: 'pushDelete',
      GetExtendedAgentCard: 'extendedCard',
    },
  };

  /** The JSON-RPC methods of the generation (v0.2 with extended-v02-rpc: plus agent/authenticatedExtendedCard). */
  const methodTable = (): Record<string, string> =>
    gen === 'v0.2' && permits('extended-v02-rpc') ? { ...METHODS['v0.2'], 'agent/authenticatedExtendedCard': 'extendedCard' } : METHODS[gen];

  function versionError(req: IncomingMessage, url: URL): A2AError | undefined {
    if (gen !== 'v1.0' || has('version-lenient')) return undefined;
    const v = versionHeader(req, url);
    if (/^1(\.0(\.\d+)?)?$/.test(v)) return undefined;
    return E.versionNotSupported(v || '0.3 (no A2A-Version header)');
  }

  /** Permitted rate-limit-once: true (and the 429 sent) for the first call of each kind. */
  function rateLimit(res: ServerResponse, kind: string): boolean {
    if (!permits('rate-limit-once') || limited.has(kind)) return false;
    limited.add(kind);
    res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'Too many requests: retry in 1 s' }));
    return true;
  }

  async function handleRpc(req: IncomingMessage, res: ServerResponse, url: URL, text: string, authorised: boolean): Promise<void> {
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      if (!authorised && !checkAuth(req, res)) return;
      if (has('invalid-json-500')) return crash(res);
      return rpcSend(res, null, { error: E.parse() });
    }
    const method = isObj(msg) && typeof msg.method === 'string' ? msg.method : '';
    // extended-card-anonymous: the extended card method skips the authentication every other call gets.
    const anonymousOk = has('extended-card-anonymous') && methodTable()[method] === 'extendedCard';
    if (!authorised && !anonymousOk && !checkAuth(req, res)) return;
    if (method && rateLimit(res, `rpc ${method}`)) return;
    const invalidRequest = (m: string) => (has('invalid-request-wrong-code') ? E.internal(m) : E.invalidRequest(m));
    if (!isObj(msg)) return rpcSend(res, null, { error: invalidRequest('The request must be a JSON-RPC 2.0 object') });
    const id = msg.id;
    const idOk = id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (msg.jsonrpc !== '2.0' || typeof msg.method !== 'string' || !idOk) {
      return rpcSend(res, idOk ? (id ?? null) : null, { error: invalidRequest('Not a valid JSON-RPC 2.0 request') });
    }
    const notification = !('id' in msg);
    const vErr = versionError(req, url);
    if (vErr) return rpcSend(res, id ?? null, { error: vErr }, notification);
    const op = Object.prototype.hasOwnProperty.call(methodTable(), msg.method) ? methodTable()[msg.method] : undefined;
    if (!op || (op === 'resubscribe' && has('sse-no-resubscribe'))) {
      const e = has('unknown-method-wrong-code') && op !== 'resubscribe' ? E.invalidRequest(`Unknown method ${msg.method.slice(0, 80)}`) : E.methodNotFound(`Method not found: ${msg.method.slice(0, 80)}`);
      return rpcSend(res, id ?? null, { error: e }, notification);
    }
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    try {
      const params = msg.params === undefined && (op === 'extendedCard' || op === 'list') ? {} : msg.params;
      if (!isObj(params)) throw E.invalidParams('params must be an object');
      switch (op) {
        case 'send':
          return rpcSend(res, id, { result: await send(parseSend(params), ac.signal) }, notification);
        case 'get':
          return rpcSend(res, id, { result: getTask(idParam(params), optInt(params.historyLength, 'historyLength'), credentialState(req).state === 'valid') }, notification);
        case 'cancel':
          return rpcSend(res, id, { result: cancelTask(idParam(params)) }, notification);
        case 'list':
          return rpcSend(res, id, { result: listTasks(params) }, notification);
        case 'pushSet':
        case 'pushGet':
        case 'pushList':
        case 'pushDelete':
          if (!features.push) {
            if (has('push-wrong-code')) throw E.methodNotFound(`Method not found: ${msg.method}`);
            if (op === 'pushSet') validateWebhook(gen === 'v1.0' ? params : isObj(params.pushNotificationConfig) ? params.pushNotificationConfig : {});
            throw E.pushNotSupported();
          }
          return rpcSend(res, id, { result: pushRpc(op, params) }, notification);
        case 'extendedCard':
          return rpcSend(res, id, { result: extendedCard() }, notification);
        case 'stream':
        case 'resubscribe': {
          const frame = (payload: Json): Json => (has('sse-bare-payload') ? payload : { jsonrpc: '2.0', id: rpcId(id), result: payload });
          const sink = makeSink(res, frame, (e) => ({ jsonrpc: '2.0', id: rpcId(id), error: rpcErrorObject(gen, e, errShape()) }));
          if (op === 'stream') streamSend(sink, parseSend(params));
          else resubscribe(sink, idParam(params));
          return;
        }
        default:
          // Every method in METHODS has a case; a gap must answer, never hang the client.
          throw E.internal(`unhandled operation ${op}`);
      }
    } catch (e) {
      if (e instanceof CrashError) return crash(res);
      if (e instanceof AuthError) return refuseAuth(res, 401, `Bearer ${REALM}, error="invalid_token"`);
      if (e instanceof A2AError) {
        const err = e.code === -32602 && has('invalid-params-wrong-code') ? E.internal(e.message) : notFoundError(e);
        if (err instanceof CrashError) return crash(res);
        if (res.headersSent) return void res.end();
        return rpcSend(res, id, { error: err }, notification);
      }
      if (!res.headersSent) return rpcSend(res, id, { error: E.internal() }, notification);
      res.end();
    }
  }

  // ------------------------------------------------------------------ HTTP+JSON binding

  /** The error the v0.3 REST payload-style negotiation relies on (a proto-style role refused with 400): never altered by variants. */
  const styleProbeError = (e: A2AError) => gen === 'v0.3' && binding === 'HTTP+JSON' && e.code === -32602 && /^message\.role is invalid/.test(e.message);

  function restError(res: ServerResponse, e: A2AError): void {
    if (res.headersSent) return void res.end();
    const ct = restCt();
    const { http, body } = statusBody(e, errShape());
    if (has('rest-error-html')) {
      res.writeHead(http, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><body><h1>Error ${http}</h1><p>${e.message.replace(/[<&>]/g, '')}</p></body></html>`);
      return;
    }
    if (has('rest-error-not-status')) {
      res.writeHead(http, { 'Content-Type': ct }).end(JSON.stringify({ error: e.message, code: e.code }));
      return;
    }
    if (e.code === -32009 && permits('version-problem-json') && gen === 'v1.0') {
      // RFC 9457 problem details instead of google.rpc.Status.
      res.writeHead(400, { 'Content-Type': 'application/problem+json' }).end(JSON.stringify({ type: 'https://a2a-protocol.org/errors/version-not-supported', title: 'Version not supported', status: 400, detail: e.message }));
      return;
    }
    if (gen === 'v0.3') {
      // a2a-python 0.3: 501 for what it does not implement.
      if (permits('rest-501-unsupported') && (e.code === -32003 || e.code === -32004)) {
        res.writeHead(501, { 'Content-Type': ct }).end(JSON.stringify({ message: e.message }));
        return;
      }
      const status = permits('validation-422') && (e.code === -32700 || e.code === -32602) && !styleProbeError(e) ? 422 : e.code === -32002 && permits('rest-409-not-cancelable') ? 409 : http;
      if (permits('rest-message-error-body')) {
        res.writeHead(status, { 'Content-Type': ct }).end(JSON.stringify({ message: e.message }));
        return;
      }
      res.writeHead(status, { 'Content-Type': ct }).end(JSON.stringify(status === http ? body : { error: { ...(body.error as Json), code: status } }));
      return;
    }
    const status = e.code === -32002 && permits('rest-409-not-cancelable') ? 409 : http;
    res.writeHead(status, { 'Content-Type': ct }).end(JSON.stringify(status === http ? body : { error: { ...(body.error as Json), code: status, ...(errShape().noStatusField ? {} : { status: 'FAILED_PRECONDITION' }) } }));
  }

  function restOk(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'Content-Type': restCt() }).end(JSON.stringify(body));
  }

  /** An unknown HTTP+JSON route: 404 (variants: 400; the SPA-fallback defect: 200 HTML). */
  function noRoute(res: ServerResponse, what: string): void {
    if (has('unknown-route-spa-fallback')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><title>Agent</title></head><body><div id="root"></div></body></html>');
      return;
    }
    restError(res, permits('unknown-route-400') ? E.invalidRequest(`No route for ${what.slice(0, 100)}`) : E.methodNotFound(`No route for ${what.slice(0, 100)}`));
  }

  async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL, sub: string, rec: RecordedRequest): Promise<void> {
    const prefix = gen === 'v0.3' ? '/v1' : '';
    if (!sub.startsWith(`${prefix}/`)) return noRoute(res, sub);
    const path = sub.slice(prefix.length);
    const method = req.method ?? 'GET';
    if (rateLimit(res, `rest ${method} ${path.replace(/\/tasks\/[^/:]+/, '/tasks/{id}').replace(/\/pushNotificationConfigs\/.*/, '/pushNotificationConfigs/{id}')}`)) return;
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const body = async (): Promise<Json> => {
      const text = await readBody(req, rec);
      if (text === null) throw E.invalidRequest('Request body too large or aborted');
      if (text.trim() === '') return {};
      try {
        const v: unknown = JSON.parse(text);
        if (!isObj(v)) throw E.invalidRequest('The body must be a JSON object');
        return v;
      } catch (e) {
        if (e instanceof A2AError) throw e;
        if (has('invalid-json-500')) throw new CrashError();
        throw E.parse();
      }
    };
    const q = (name: string) => url.searchParams.get(name) ?? undefined;
    const qInt = (name: string): number | undefined => {
      const v = q(name);
      if (v === undefined) return undefined;
      if (!/^\d{1,9}$/.test(v)) throw E.invalidParams(`${name} must be a non-negative integer`, name);
      return Number(v);
    };
    const notAllowed = (allow: string) => res.writeHead(405, { Allow: allow, 'Content-Type': 'text/plain' }).end('Method Not Allowed');
    const sse = () => makeSink(res, (p) => p, (e) => statusBody(e, errShape()).body);
    try {
      const vErr = versionError(req, url);
      if (vErr) throw vErr;
      let m: RegExpExecArray | null;
      if (path === '/message:send' || path === '/message:stream') {
        if (method !== 'POST') return void notAllowed('POST');
        const b = await body();
        const p = parseSend(b);
        if (path === '/message:send') return restOk(res, await send(p, ac.signal));
        return streamSend(sse(), p);
      }
      if (path === '/tasks' && gen === 'v1.0') {
        if (method !== 'GET') return void notAllowed('GET');
        const query: Json = {};
        for (const k of ['contextId', 'status', 'pageToken', 'statusTimestampAfter']) if (q(k) !== undefined) query[k] = q(k);
        if (q('pageSize') !== undefined) query.pageSize = qInt('pageSize');
        if (q('historyLength') !== undefined) query.historyLength = qInt('historyLength');
        if (q('includeArtifacts') !== undefined) {
          const v = q('includeArtifacts');
          if (v !== 'true' && v !== 'false') throw E.invalidParams('includeArtifacts must be true or false', 'includeArtifacts');
          query.includeArtifacts = v === 'true';
        }
        return restOk(res, listTasks(query));
      }
      if ((m = /^\/tasks\/([^/:]+):cancel$/.exec(path))) {
        if (method !== 'POST') return void notAllowed('POST');
        await body();
        return restOk(res, cancelTask(decodeURIComponent(m[1]!)));
      }
      if ((m = /^\/tasks\/([^/:]+):subscribe$/.exec(path))) {
        if (method !== 'POST' && method !== 'GET') return void notAllowed('GET, POST');
        if (has('sse-no-resubscribe')) throw E.methodNotFound('Subscribe is not implemented');
        return resubscribe(sse(), decodeURIComponent(m[1]!));
      }
      if ((m = /^\/tasks\/([^/:]+)\/pushNotificationConfigs(?:\/([^/]+))?$/.exec(path))) {
        if (!features.push) {
          if (has('push-wrong-code')) throw E.methodNotFound('No route for push notification configs');
          if (m[2] === undefined && method === 'POST') {
            const b = await body();
            validateWebhook(gen === 'v1.0' ? b : isObj(b.pushNotificationConfig) ? b.pushNotificationConfig : b);
          }
          throw E.pushNotSupported();
        }
        const taskId = decodeURIComponent(m[1]!);
        const cid = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
        if (cid === undefined && method === 'POST') {
          const b = await body();
          return restOk(res, storePush(taskId, gen === 'v1.0' ? b : b.pushNotificationConfig));
        }
        if (cid === undefined && method === 'GET') return restOk(res, gen === 'v1.0' ? { configs: listPush(taskId), nextPageToken: '' } : listPush(taskId));
        if (cid !== undefined && method === 'GET') return restOk(res, findPush(taskId, cid));
        if (cid !== undefined && method === 'DELETE') {
          deletePush(taskId, cid);
          if (permits('push-delete-204')) return void res.writeHead(204).end();
          return restOk(res, {});
        }
        return void notAllowed(cid === undefined ? 'GET, POST' : 'GET, DELETE');
      }
      if ((m = /^\/tasks\/([^/:]+)$/.exec(path))) {
        if (method !== 'GET') return void notAllowed('GET');
        return restOk(res, getTask(decodeURIComponent(m[1]!), qInt('historyLength'), credentialState(req).state === 'valid'));
      }
      if ((gen === 'v1.0' && path === '/extendedAgentCard') || (gen === 'v0.3' && path === '/card')) return restOk(res, extendedCard());
      return noRoute(res, `${method} ${sub}`);
    } catch (e) {
      if (e instanceof CrashError) return crash(res);
      if (e instanceof AuthError) return refuseAuth(res, 401, `Bearer ${REALM}, error="invalid_token"`);
      if (e instanceof A2AError) {
        const err = e.code === -32602 && has('invalid-params-wrong-code') && !styleProbeError(e) ? E.internal(e.message) : notFoundError(e);
        if (err instanceof CrashError) return crash(res);
        return restError(res, err);
      }
      if (!res.headersSent) return restError(res, E.internal());
      res.end();
    }
  }

  // ------------------------------------------------------------------ entry

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://agent.invalid');
    } catch {
      return false;
    }
    const path = url.pathname;
    if (basePath && path !== basePath && !path.startsWith(`${basePath}/`)) return false;
    const sub = path.slice(basePath.length) || '/';
    const rec: RecordedRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').slice(basePath.length) || '/',
      headers: Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      ),
      body: '',
      at: Date.now(),
    };
    if (requests.length >= MAX_RECORDED) requests.shift();
    requests.push(rec);
    res.on('error', () => {});
    if (permits('gzip') && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) gzipResponse(res);
    try {
      setCors(req, res);
      if (req.method === 'OPTIONS') {
        preflight(req, res, sub);
        return true;
      }
      if (sub === cardPathNew || sub === cardPathOld) return serveCard(req, res, sub);
      const notFound = () => res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      // interface-broken: the second interface the card declares is a dead path of this agent.
      if (sub === `/${BROKEN_PATH}` || sub.startsWith(`/${BROKEN_PATH}/`)) {
        notFound();
        return true;
      }
      // A v1.0 agent with a v0.3 compatibility layer serves header-less calls as 0.3.
      if (compatOn() && !versionHeader(req, url)) return compatHandler().handle(req, res);
      const ep = endpointPrefix();
      const inApi = !ep || sub === ep || sub.startsWith(`${ep}/`);
      const inner = inApi ? sub.slice(ep.length) || '/' : sub;
      // v0.2 extended card: GET {url}/../agent/authenticatedExtendedCard (v0.2.6 §7.10).
      const extendedGet = gen === 'v0.2' && sub === '/agent/authenticatedExtendedCard' && req.method === 'GET';
      if (extendedGet && permits('extended-v02-rpc')) {
        notFound();
        return true;
      }
      // card-protected-spa: paths outside the API are pages of a web app (200 HTML, no authentication).
      const outside = !inApi || (binding === 'JSONRPC' && inner !== '/');
      if (permits('card-protected-spa') && outside && !extendedGet) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><html><head><title>Agent console</title></head><body><div id="app"></div></body></html>');
        return true;
      }
      const anonymousExtended =
        has('extended-card-anonymous') && (extendedGet || (binding === 'HTTP+JSON' && ((gen === 'v1.0' && inner === '/extendedAgentCard') || (gen === 'v0.3' && inner === '/v1/card'))));
      if (extendedGet) {
        if (!anonymousExtended && !checkAuth(req, res)) return true;
        try {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(extendedCard()));
        } catch (e) {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: e instanceof Error ? e.message : 'error' }));
        }
        return true;
      }
      if (binding === 'JSONRPC') {
        // The JSON-RPC body decides whether authentication applies (extended-card-anonymous), so it is read first.
        const deferAuth = has('extended-card-anonymous');
        if (!deferAuth && !checkAuth(req, res)) return true;
        if (inner !== '/' || !inApi) {
          if (deferAuth && !checkAuth(req, res)) return true;
          notFound();
          return true;
        }
        if (req.method !== 'POST') {
          if (deferAuth && !checkAuth(req, res)) return true;
          res.writeHead(405, { Allow: 'POST, OPTIONS', 'Content-Type': 'text/plain' }).end('Method Not Allowed: use POST for JSON-RPC');
          return true;
        }
        void readBody(req, rec).then((text) => {
          if (text === null) {
            if (!res.headersSent && !res.destroyed) res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Payload Too Large');
            return;
          }
          return handleRpc(req, res, url, text, !deferAuth);
        }).catch(() => crash(res));
        return true;
      }
      if (!anonymousExtended && !checkAuth(req, res)) return true;
      if (!inApi) {
        noRoute(res, sub);
        return true;
      }
      void handleRest(req, res, url, inner, rec).catch(() => crash(res));
      return true;
    } catch {
      crash(res);
      return true;
    }
  }

  /** The v0.3 layer of a v1.0 agent (version-compat-03, card-dual-v03-v1), made on first use; its own task store. */
  function compatHandler(): DefectAgentHandler {
    compat ??= createDefectAgentHandler({
      generation: 'v0.3',
      binding,
      basePath: opts.basePath,
      publicUrl,
      ...(opts.auth ? { auth: opts.auth } : {}),
      features: { streaming: features.streaming, push: features.push },
      stepMs,
      ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
    });
    return compat;
  }

  return {
    handle,
    setDefects(d) {
      for (const x of d) if (!(x in DEFECTS)) throw new Error(`unknown defect ${x}`);
      defects = new Set(d);
    },
    get defects() {
      return [...defects];
    },
    setPermitted(p) {
      for (const x of p) if (!(x in PERMITTED)) throw new Error(`unknown permitted behaviour ${x}`);
      permitted = new Set(p);
    },
    requests,
    setPublicUrl(u) {
      publicUrl = u.replace(/\/+$/, '');
    },
    get url() {
      return endpointUrl();
    },
    get cardUrl() {
      return `${publicUrl}${servesOldPath() ? cardPathOld : cardPathNew}`;
    },
    generation: gen,
    binding,
    async close() {
      await compat?.close();
      engine.close();
      for (const r of openResponses) r.destroy();
      openResponses.clear();
    },
  };
}

/**
 * Permitted variant gzip: everything written to `res` goes through gzip (flushed per write, so streams stay
 * live), with Content-Encoding: gzip and no Content-Length.
 */
function gzipResponse(res: ServerResponse): void {
  const gz = createGzip({ flush: zlibConstants.Z_SYNC_FLUSH });
  const write = res.write.bind(res) as (c: Buffer) => boolean;
  const end = res.end.bind(res) as () => ServerResponse;
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string | number>) => ServerResponse;
  gz.on('data', (c: Buffer) => {
    if (!res.destroyed) write(c);
  });
  gz.on('end', () => {
    if (!res.destroyed) end();
  });
  res.on('close', () => gz.destroy());
  const patched = res as unknown as Record<string, unknown>;
  patched.writeHead = (status: number, a?: unknown, b?: unknown) => {
    const headers = { ...((typeof a === 'object' && a) || (typeof b === 'object' && b) || {}) } as Record<string, string | number>;
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-length') delete headers[k];
    res.removeHeader('Content-Length');
    if (status !== 204 && status !== 304) headers['Content-Encoding'] = 'gzip';
    return writeHead(status, headers);
  };
  patched.write = (chunk: string | Buffer) => {
    if (!res.headersSent) (patched.writeHead as (s: number) => void)(res.statusCode);
    gz.write(chunk);
    return true;
  };
  patched.end = (chunk?: string | Buffer | (() => void)) => {
    if (!res.headersSent) (patched.writeHead as (s: number) => void)(res.statusCode);
    if (res.statusCode === 204 || res.statusCode === 304) {
      gz.destroy();
      end();
      return res;
    }
    if (chunk !== undefined && typeof chunk !== 'function') gz.write(chunk);
    gz.end();
    return res;
  };
}

/** The A2A-Version a request asks for (header, else the query parameter v1.0 §3.6.1 allows), trimmed; '' when none. */
function versionHeader(req: IncomingMessage, url: URL): string {
  const h = req.headers['a2a-version'];
  return (typeof h === 'string' ? h : (url.searchParams.get('A2A-Version') ?? '')).trim();
}

/** Thrown to refuse a request as if its credentials were missing or wrong (HTTP 401; defect auth-inconsistent). */
class AuthError extends Error {}

/** Thrown to make the agent answer like a crashed server (HTTP 500, HTML). */
class CrashError extends A2AError {
  constructor() {
    super(-32603, 'crash');
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(16);
}

