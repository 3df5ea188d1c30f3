import type { InterfacePreference } from '../card/detect';
import type { Limits } from '../http/client';
import type { ExchangeOperation } from '../judges/exchange';
import type { Finding } from '../judges/finding';
import type { Binding, Generation } from '../model/check';
import type { DiscoveryAttempt, HttpRequestInfo, HttpResponseInfo, RunEvent, TaskState, Timings, TransportError } from '../model/events';
import type { ProtocolError } from '../protocol/dialect';
import type { InputPart } from '../protocol/input';
import type { Credentials } from '../model/credentials';
import type { TargetProblem } from '../target/problem';

/** The operations a session performs, one exchange (or one stream) each. */
export type SessionOperation = ExchangeOperation;

/**
 * One finding about an answer, judged with the suite's own rule for it (src/engine/judges): the check that judges
 * the same rule in a run (`checkId`) and the strength its quoted sentences give it in the generation spoken.
 */
export type SessionFinding = Finding;

/** One HTTP exchange as it crossed the wire, credentials redacted (the engine's http-request/http-response events). */
export interface SessionExchange {
  exchangeId: string;
  request: HttpRequestInfo;
  response?: HttpResponseInfo;
  error?: TransportError;
  timings?: Timings;
  /** SSE events read from this exchange. */
  sseEvents: number;
}

/** The parts of a Task a reader needs first; `raw` is the task as received (bounded, redacted). */
export interface TaskSummary {
  id?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  timestamp?: string;
  statusText?: string;
  artifacts: { artifactId?: string; name?: string; text: string; parts: number }[];
  historyLength?: number;
  raw: unknown;
}

export interface MessageSummary {
  messageId?: string;
  role?: string;
  taskId?: string;
  contextId?: string;
  text: string;
  raw: unknown;
}

/** One SSE event of a stream, parsed with the dialect of the generation, with the findings about it. */
export interface SessionFrame {
  seq: number;
  /** Milliseconds since the call started. */
  ms: number;
  event?: string;
  /** The event's data as received (redacted, truncated). */
  data: string;
  kind: 'task' | 'message' | 'status' | 'artifact' | 'error' | 'invalid';
  taskId?: string;
  contextId?: string;
  state?: TaskState;
  rawState?: string;
  /** Pre-1.0 status events carry `final`. */
  final?: boolean;
  artifact?: { id?: string; index?: number; append?: boolean; lastChunk?: boolean; text: string; parts: number };
  error?: ProtocolError;
  findings: SessionFinding[];
}

/** How a stream ended. `closed`: the agent closed it; `grace`: we stopped reading a while after its last event. */
export interface StreamSummary {
  end: 'closed' | 'grace' | 'timeout' | 'idle' | 'limit' | 'oversize' | 'error' | 'not-stream' | 'stopped';
  events: number;
  firstEventMs?: number;
  /** The frame after which the stream had to end (a terminal state, final: true, a Message or an error), if any. */
  finalFrame?: number;
}

/**
 * The result of one session operation: the exchange(s) on the wire, what the answer means, and what is wrong
 * with it. `ok` says the operation produced what it returns (a Task, a Message, a page, a stream of events);
 * findings are reported either way.
 */
export interface SessionResult {
  operation: SessionOperation;
  /** The operation as spelled on the wire, e.g. `SendStreamingMessage` or `GET /tasks/{id}`. */
  method: string;
  generation: Generation;
  binding: Binding;
  ok: boolean;
  outcome: 'task' | 'message' | 'ok' | 'error' | 'invalid' | 'transport' | 'stream';
  /** One sentence: what happened. */
  summary: string;
  task?: TaskSummary;
  message?: MessageSummary;
  /** The A2A error the agent answered with. */
  error?: ProtocolError;
  /** What the operation returned when it is neither a Task nor a Message (ListTasks page), bounded and redacted. */
  value?: unknown;
  /** ListTasks: the tasks of the page, read as the generation spells them (at most 50). */
  tasks?: TaskSummary[];
  frames: SessionFrame[];
  stream?: StreamSummary;
  exchanges: SessionExchange[];
  /** Every finding, those of frames included (they carry `frame`). */
  findings: SessionFinding[];
  /** Wall time of the call, ms. */
  durationMs: number;
  /** The engine's events of this call (redacted), for a timeline. */
  events: RunEvent[];
}

/** What discovery found, redacted: enough to show the agent and pick a skill. */
export interface SessionTarget {
  inputUrl: string;
  cardUrl?: string;
  cardSource?: 'agent-card.json' | 'agent.json' | 'direct';
  attempts: DiscoveryAttempt[];
  /** The card's generation, and the one spoken (differs when a v1.0 card's 0.3 interfaces were asked for). */
  generation?: Generation;
  testedGeneration?: Generation;
  binding?: Binding;
  endpointUrl?: string;
  evidence: string[];
  agentName?: string;
  streaming?: boolean;
  skills: { id: string; name: string; examples: string[]; inputModes?: string[]; outputModes?: string[] }[];
  /** Every interface the card declares (a console offers the choice: SessionOptions.prefer). */
  interfaces?: { url: string; binding: string; protocolVersion?: string }[];
  /** The extensions the card declares (capabilities.extensions), for a console to activate (SendOptions.extensions). */
  extensions?: { uri: string; required: boolean; description?: string }[];
  /** The card declares an OAuth 2.0 / OpenID Connect scheme (a console offers client id and secret). */
  oauth?: boolean;
}

/** Why a session could not be opened (the agent cannot be talked to): the front door's own words (target/problem.ts). */
export type SessionUnavailable = TargetProblem;

export interface SessionOptions {
  /** Base URL, base URL with a path, or the card URL. */
  agentUrl: string;
  credentials?: Credentials;
  /**
   * Extra headers sent on every request (card included). Their values are treated as credentials: masked in
   * everything returned.
   */
  headers?: Record<string, string>;
  /** The interface to talk to when the card declares several. */
  prefer?: InterfacePreference;
  limits?: Partial<Limits>;
  /** Task states seen before (by an earlier session on the same agent), to judge transitions across calls. */
  memory?: TaskMemoryLike;
  /** Retries of card discovery when nothing answered (a cold start). Default 1. */
  warmupRetries?: number;
  signal?: AbortSignal;
}

/** Options every operation takes. */
export interface CallOptions {
  /** Budget for the whole call (a stream: until it ends), ms. Default 30,000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each frame of a stream as it arrives (findings of the frame itself; sequence findings come at the end). */
  onFrame?: (f: SessionFrame) => void;
  /** Called with each engine event of the call as it happens (redacted): a live timeline. */
  onEvent?: (e: RunEvent) => void;
}

export interface SendOptions extends CallOptions {
  text: string;
  /** A skill of the card: its output modes are the ones accepted. */
  skill?: string;
  taskId?: string;
  contextId?: string;
  historyLength?: number;
  /** Default true: wait until the task finishes or pauses (v1.0 without returnImmediately; v0.x blocking: true). */
  blocking?: boolean;
  acceptedOutputModes?: string[];
  /** The message's parts (text, data, file by bytes or URI); default one text part with `text`. */
  parts?: InputPart[];
  /** The message's metadata. */
  metadata?: Record<string, unknown>;
  /** Extension URIs to activate: sent in the generation's A2A-Extensions (v0.2/v0.3: X-A2A-Extensions) header. */
  extensions?: string[];
}

export interface TaskMemoryLike {
  observe(taskId: string, state: TaskState, rawState: string, source: string): { from: { rawState: string; source: string } } | undefined;
  /** The last state recorded for a task (a terminal one stays), if any. */
  last?(taskId: string): { state: TaskState; rawState: string; source: string } | undefined;
}
