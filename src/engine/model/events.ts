import { z } from 'zod';
import { Binding, Category, CheckResult, Generation, Obligation } from './check';

/**
 * An observation window a run used: a check watched for something not happening for `ms` (sized from what the run
 * measured, `basis`), or less when a decisive answer came first (`usedMs`, `closedEarly`).
 */
export const ObservationWindowUse = z.object({
  name: z.string(),
  ms: z.number().nonnegative(),
  basis: z.string(),
  usedMs: z.number().nonnegative().optional(),
  closedEarly: z.string().optional(),
});
export type ObservationWindowUse = z.infer<typeof ObservationWindowUse>;

/** Task states folded across generations (`TASK_STATE_CANCELLED`, `canceled`, ... all map here). */
export const TASK_STATES = ['submitted', 'working', 'input-required', 'auth-required', 'completed', 'canceled', 'failed', 'rejected', 'unknown'] as const;
export const TaskState = z.enum(TASK_STATES);
export type TaskState = z.infer<typeof TaskState>;

export const HeaderMap = z.record(z.string(), z.string());
export type HeaderMap = z.infer<typeof HeaderMap>;

/** A request as it crossed the wire (credentials redacted, body truncated). */
export const HttpRequestInfo = z.object({
  method: z.string(),
  url: z.string(),
  headers: HeaderMap,
  body: z.string().optional(),
  bodySize: z.number().nonnegative(),
});
export type HttpRequestInfo = z.infer<typeof HttpRequestInfo>;

export const HttpResponseInfo = z.object({
  status: z.number(),
  statusText: z.string().optional(),
  headers: HeaderMap,
  /** Body preview (truncated, decoded as UTF-8 with replacement). For streams: not set; see sse-event. */
  body: z.string().optional(),
  bodySize: z.number().nonnegative(),
  /** The body exceeded our read limit and was cut. */
  truncated: z.boolean().default(false),
  stream: z.boolean().default(false),
});
export type HttpResponseInfo = z.infer<typeof HttpResponseInfo>;

/**
 * Why an exchange produced no (complete) response.
 * - `proxy`: the CORS proxy answered with X-Proxy-Error (code = the proxy's code). Our side, not the agent's.
 * - `network`: fetch rejected (connection refused, reset, DNS) without a proxy in between.
 * - `timeout`: the agent did not answer within our budget (first byte, idle or total).
 * - `abort`: the user stopped the run.
 * - `limit`: the response exceeded our size limit (the part read is kept).
 */
export const TransportErrorSource = z.enum(['proxy', 'network', 'timeout', 'abort', 'limit']);
export const TransportError = z.object({
  source: TransportErrorSource,
  code: z.string(),
  message: z.string(),
  /** Whose fault it most likely is: `agent` (reset mid-body, never answered) or `tool` (proxy refused, our bug). */
  blame: z.enum(['agent', 'tool', 'unknown']),
});
export type TransportError = z.infer<typeof TransportError>;

export const Timings = z.object({
  startedAt: z.number(),
  /** Response headers received. */
  headersAt: z.number().optional(),
  /** Body fully read, stream closed, or failure. */
  endedAt: z.number().optional(),
});
export type Timings = z.infer<typeof Timings>;

export const DiscoveryAttempt = z.object({
  url: z.string(),
  status: z.number().optional(),
  ok: z.boolean(),
  note: z.string().optional(),
  exchangeId: z.string().optional(),
});
export type DiscoveryAttempt = z.infer<typeof DiscoveryAttempt>;

/** What discovery found for one agent (the one under test, or the peer). */
export const TargetInfo = z.object({
  role: z.enum(['agent', 'peer']),
  inputUrl: z.string(),
  attempts: z.array(DiscoveryAttempt),
  cardUrl: z.string().optional(),
  /** Which well-known path answered: `agent-card.json`, the legacy `agent.json`, or a direct URL. */
  cardSource: z.enum(['agent-card.json', 'agent.json', 'direct']).optional(),
  /** Card JSON as received (null when it was not JSON). */
  rawCard: z.unknown().optional(),
  /** First bytes of the body when it was not JSON. */
  rawText: z.string().optional(),
  normalizedCard: z.unknown().optional(),
  generation: Generation.optional(),
  binding: Binding.optional(),
  /** URL the suite sends requests to. */
  endpointUrl: z.string().optional(),
  /** Interface `tenant` to echo (v1.0). */
  tenant: z.string().optional(),
  /** Human-readable reasons for the generation/binding decision. */
  evidence: z.array(z.string()).default([]),
  vary: z.string().optional(),
  cacheControl: z.string().optional(),
  etag: z.string().optional(),
  error: z.string().optional(),
  /**
   * What discovery concluded: `card` (a card, valid or not, was served), `no-card` (answers, but no card),
   * `unreachable` (nothing answered), `credentials-required` / `credentials-rejected` (401/403 without / with the
   * credentials given), `tool-failure` (our proxy refused), `invalid-url`.
   */
  reach: z.enum(['card', 'no-card', 'unreachable', 'credentials-required', 'credentials-rejected', 'tool-failure', 'invalid-url']).optional(),
});
export type TargetInfo = z.infer<typeof TargetInfo>;

/** Options of a run as recorded in events and reports (never any credential value). */
export const RunOptionsPublic = z.object({
  timeoutMs: z.number(),
  skills: z.array(z.string()).optional(),
  credentials: z.enum(['none', 'bearer', 'api-key', 'header', 'oauth2']).default('none'),
  credentialHeader: z.string().optional(),
  only: z.array(z.string()).optional(),
  transport: z.enum(['proxy', 'direct']).optional(),
  /** The interface asked for, when the card declares several. */
  prefer: z.object({ binding: Binding.optional(), protocolVersion: z.string().optional() }).optional(),
});
export type RunOptionsPublic = z.infer<typeof RunOptionsPublic>;

const base = { at: z.number() };

/**
 * The engine's one output: a stream of plain, serializable events.
 * The UI store, the CLI and saved reports all fold this stream with `applyEvents` (state/run-state.ts).
 */
export const RunEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('run-started'),
    ...base,
    runId: z.string(),
    agentUrl: z.string(),
    peerUrl: z.string().optional(),
    options: RunOptionsPublic,
    tool: z.object({ name: z.string(), version: z.string() }),
  }),
  z.object({ type: z.literal('target-resolved'), ...base, target: TargetInfo }),
  z.object({
    type: z.literal('check-started'),
    ...base,
    checkId: z.string(),
    title: z.string(),
    category: Category,
    level: Obligation,
  }),
  z.object({ type: z.literal('check-finished'), ...base, result: CheckResult }),
  z.object({
    type: z.literal('http-request'),
    ...base,
    exchangeId: z.string(),
    checkId: z.string().optional(),
    lane: z.string(),
    request: HttpRequestInfo,
  }),
  z.object({
    type: z.literal('http-response'),
    ...base,
    exchangeId: z.string(),
    response: HttpResponseInfo.optional(),
    error: TransportError.optional(),
    timings: Timings,
  }),
  z.object({
    type: z.literal('sse-event'),
    ...base,
    exchangeId: z.string(),
    lane: z.string(),
    seq: z.number(),
    event: z.string().optional(),
    id: z.string().optional(),
    data: z.string(),
    /** Short description, e.g. `status-update working` or `task submitted`. */
    summary: z.string().optional(),
  }),
  z.object({
    type: z.literal('task-state'),
    ...base,
    lane: z.string(),
    taskId: z.string(),
    state: TaskState,
    rawState: z.string(),
    source: z.enum(['send', 'get', 'cancel', 'stream', 'subscribe']),
  }),
  z.object({
    type: z.literal('log'),
    ...base,
    level: z.enum(['info', 'warn', 'error']),
    message: z.string(),
    /** Set when the log reports an observation window the run used (src/engine/checks/windows.ts). */
    window: ObservationWindowUse.optional(),
  }),
  z.object({
    type: z.literal('run-finished'),
    ...base,
    status: z.enum(['completed', 'interrupted', 'errored']),
    error: z.string().optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEvent>;
export type RunEventType = RunEvent['type'];
export type RunEventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
