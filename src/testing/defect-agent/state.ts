/**
 * The defect agent's state: its options, the switchable defects and permitted behaviours, the task engine and
 * what every behaviour group reads (render flags, history policy, task lookup). One per agent; the behaviour
 * modules (operations, push, streaming, card serving, auth/CORS, JSON-RPC, HTTP+JSON) each take it.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentFeatures, AuthConfig } from './card';
import { DEFECTS, type DefectName } from './defects';
import type { Binding, Generation, HistoryPolicy, RenderFlags } from './dialect';
import { A2AError, E, type ErrorShape } from './errors';
import { PERMITTED, type PermittedName } from './permitted';
import { DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, behaviourFor } from './skills';
import { type ITask, TaskEngine } from './tasks';

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

export type Json = Record<string, unknown>;
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MAX_BODY = 1024 * 1024;
export const MAX_RECORDED = 5000;
export const MAX_STREAM_MS = 5 * 60_000;
export const KEEPALIVE_MS = 1000;
export const V1_REST_CT = 'application/a2a+json';
export const HUGE_CARD_BYTES = 20 * 1024 * 1024;
export const CARD_PATH_NEW = '/.well-known/agent-card.json';
export const CARD_PATH_OLD = '/.well-known/agent.json';

/** Thrown to refuse a request as if its credentials were missing or wrong (HTTP 401; defect auth-inconsistent). */
export class AuthError extends Error {}

/** Thrown to make the agent answer like a crashed server (HTTP 500, HTML). */
export class CrashError extends A2AError {
  constructor() {
    super(-32603, 'crash');
  }
}

/** The A2A-Version a request asks for (header, else the query parameter v1.0 §3.6.1 allows), trimmed; '' when none. */
export function versionHeader(req: IncomingMessage, url: URL): string {
  const h = req.headers['a2a-version'];
  return (typeof h === 'string' ? h : (url.searchParams.get('A2A-Version') ?? '')).trim();
}

export interface AgentState {
  readonly opts: DefectAgentMountOptions;
  readonly gen: Generation;
  readonly binding: Binding;
  /** Path prefix this agent owns, without a trailing slash. */
  readonly basePath: string;
  /** Absolute URL of basePath as clients reach it (setPublicUrl changes it). */
  publicUrl: string;
  readonly features: AgentFeatures;
  readonly stepMs: number;
  readonly engine: TaskEngine;
  readonly requests: RecordedRequest[];
  /** Open SSE responses, destroyed on close. */
  readonly openResponses: Set<ServerResponse>;
  /** Tasks whose stream handler "crashed" when the client left (defect crash-after-disconnect). */
  readonly crashed: Set<string>;
  /** Whether a defect is switched on (setDefects replaces them). */
  has(d: DefectName): boolean;
  /** Whether a permitted behaviour is switched on (setPermitted replaces them). */
  permits(x: PermittedName): boolean;
  setDefects(d: DefectName[]): void;
  setPermitted(p: PermittedName[]): void;
  readonly defects: readonly DefectName[];
  /** Content type of HTTP+JSON answers. */
  restCt(): string;
  /** Permitted endpoint-path: the A2A endpoint lives under /a2a. */
  endpointPrefix(): string;
  endpointUrl(): string;
  /** Legacy and v0.2 agents (and defect card-legacy-path-only) serve the card at /.well-known/agent.json. */
  servesOldPath(): boolean;
  flags(idOverride?: string): RenderFlags;
  historyPolicy(historyLength?: number, includeArtifacts?: boolean): HistoryPolicy;
  /** The id a task is reported under with defect task-id-changes. */
  movedId(t: ITask): string;
  findTask(id: string): ITask | undefined;
  /** Permitted id validation (strict-task-ids, prefixed-task-ids): a malformed id is a validation error. */
  validateId(id: string): void;
  requireTask(id: string): ITask;
  /** Error override for unknown tasks (task-not-found-* defects). */
  notFoundError(e: A2AError): A2AError;
  /** How error objects are shaped (error-data-* defects, rest-status-no-status-field). */
  errShape(): ErrorShape;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PREFIXED = /^task-[0-9a-f]{12}$/;

function checkedDefects(d: readonly DefectName[]): Set<DefectName> {
  for (const x of d) if (!(x in DEFECTS)) throw new Error(`unknown defect ${x}`);
  return new Set(d);
}

function checkedPermitted(p: readonly PermittedName[]): Set<PermittedName> {
  for (const x of p) if (!(x in PERMITTED)) throw new Error(`unknown permitted behaviour ${x}`);
  return new Set(p);
}

export function createAgentState(opts: DefectAgentMountOptions): AgentState {
  const gen = opts.generation;
  const binding: Binding = opts.binding ?? 'JSONRPC';
  if (binding === 'HTTP+JSON' && gen !== 'v1.0' && gen !== 'v0.3') {
    throw new Error(`HTTP+JSON is defined only for v0.3 and v1.0, not ${gen}`);
  }
  let defects = checkedDefects(opts.defects ?? []);
  let permitted = checkedPermitted(opts.permitted ?? []);
  const has = (d: DefectName) => defects.has(d);
  const permits = (x: PermittedName) => permitted.has(x);
  const stepMs = opts.stepMs ?? DEFAULT_STEP_MS;
  let seq = 0;
  const hex12 = () => randomUUID().replace(/-/g, '').slice(0, 12);
  const engine = new TaskEngine({
    stepMs,
    slowTaskMs: opts.slowTaskMs ?? DEFAULT_SLOW_TASK_MS,
    neverFinish: () => has('task-never-finishes'),
    goBackwards: () => permits('back-to-submitted'),
    cancelIgnored: () => has('cancel-ignored'),
    cancelReverts: () => has('cancel-reverts'),
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
  const crashed = new Set<string>();
  const findTask = (id: string): ITask | undefined =>
    engine.tasks.get(id) ?? (has('task-id-changes') && id.endsWith('-moved') ? engine.tasks.get(id.slice(0, -6)) : undefined);
  const validateId = (id: string) => {
    if (permits('strict-task-ids') && !UUID.test(id)) throw E.invalidParams(`Invalid task ID format: ${id.slice(0, 80)} is not a UUID`, 'id');
    if (permits('prefixed-task-ids') && !PREFIXED.test(id))
      throw E.invalidParams(`Invalid task ID format: ${id.slice(0, 80)} is not task-<12 hex digits>`, 'id');
  };
  const endpointPrefix = () => (permits('endpoint-path') ? '/a2a' : '');

  const state: AgentState = {
    opts,
    gen,
    binding,
    basePath: (opts.basePath ?? '').replace(/\/+$/, ''),
    publicUrl: (opts.publicUrl ?? 'http://127.0.0.1').replace(/\/+$/, ''),
    features: { streaming: true, ...opts.features },
    stepMs,
    engine,
    requests: [],
    openResponses: new Set(),
    crashed,
    has,
    permits,
    setDefects(d) {
      defects = checkedDefects(d);
    },
    setPermitted(p) {
      permitted = checkedPermitted(p);
    },
    get defects() {
      return [...defects];
    },
    restCt: () => (gen === 'v1.0' && !permits('rest-json-content-type') ? V1_REST_CT : 'application/json'),
    endpointPrefix,
    endpointUrl: () => `${state.publicUrl}${endpointPrefix()}`,
    servesOldPath: () => gen === 'legacy' || gen === 'v0.2' || has('card-legacy-path-only'),
    flags: (idOverride) => ({
      noTaskId: has('no-task-id'),
      pendingState: has('bad-initial-state'),
      badTimestamps: has('bad-timestamps'),
      plainTimestamps: permits('timestamps-offset'),
      zonelessTimestamps: permits('timestamps-zoneless') && (gen === 'v0.2' || gen === 'v0.3'),
      lowercaseTimestamps: permits('timestamps-lowercase') && gen === 'legacy',
      noTaskContext: permits('v1-no-task-context') && gen === 'v1.0',
      extraFields: permits('extra-fields'),
      ...(idOverride ? { idOverride } : {}),
    }),
    historyPolicy: (historyLength, includeArtifacts) => ({
      historyLength,
      noHistory: has('no-history'),
      ignoreLength: has('history-ignores-length'),
      zeroEmpty: has('history-zero-empty'),
      fewer: permits('history-fewer'),
      ...(includeArtifacts === undefined ? {} : { includeArtifacts }),
    }),
    movedId: (t) => `${t.id}-moved`,
    findTask,
    validateId,
    requireTask: (id) => {
      validateId(id);
      if (crashed.has(id)) throw new CrashError();
      const t = findTask(id);
      if (!t) throw E.taskNotFound(id);
      return t;
    },
    notFoundError: (e) => {
      if (e.code !== -32001) return e;
      if (has('task-not-found-500')) return new CrashError();
      if (has('task-not-found-wrong-code')) return E.invalidParams(e.message, 'id');
      return e;
    },
    errShape: () => ({
      noErrorInfo: has('error-data-no-errorinfo'),
      untyped: has('error-data-untyped'),
      noStatusField: permits('rest-status-no-status-field') && gen === 'v1.0',
    }),
  };
  return state;
}
