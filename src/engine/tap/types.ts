/**
 * The conversation tap's contract (issue 26): a recording, judging relay between any A2A client and any agent.
 * The core (`createTap`, src/engine/tap/tap.ts) is Web-standard (`fetch(Request) => Response`, no `node:` modules);
 * the CLI (`a2a-interop tap`) and the local server (`/api/taps`, `/tap/<id>/…`) mount it.
 *
 * Stable: later changes to this file are additive only (new optional fields, new event kinds).
 *
 * Local server API (src/server/main.ts):
 * - `POST /api/taps` `{ agentUrl, faults? }` -> `201 { id, url }` where `url` is `<origin>/tap/<id>/` (give it to the client);
 * - `GET /api/taps/:id/events`: SSE, one `TapEvent` per message (`event: tap`, `id: <seq>`, `data: <json>`): every
 *   event kept so far (replay), then live ones; `Last-Event-ID` resumes after that seq;
 * - `GET /api/taps/:id/report`: the `TapReport` as JSON;
 * - `PATCH /api/taps/:id` `{ faults }`: replaces the fault toggles (`TapFaults`), answers `{ faults }`;
 * - `DELETE /api/taps/:id`: closes the tap (204);
 * - `/tap/<id>/*`: the tap itself (the card at `/tap/<id>/.well-known/agent-card.json` and the agent's endpoints).
 */
import type { Binding, Generation } from '../model/check';

export type TapSide = 'client' | 'agent';

/** The strength of a finding: the strongest keyword of the sentences behind it; `advisory` = nothing above MAY. */
export type TapFindingLevel = 'MUST' | 'SHOULD' | 'advisory';

/** One thing wrong in the conversation, and who broke it. */
export interface TapFinding {
  /** Who broke the rule: the client (its request) or the agent (its answer). */
  side: TapSide;
  /** A client judge's id (`client.method`, `client.message-id`, … src/engine/judges/client.ts) or the run's check id (`streaming.after-final`). */
  checkId: string;
  level: TapFindingLevel;
  /** One sentence with the evidence (what was sent or answered). */
  message: string;
  /** Where the rule is written, in the generation the card speaks (e.g. `A2A v1.0.1 §3.2.6`). */
  specRef?: string;
  /** The sentence of the specification behind it, verbatim. */
  quote?: string;
  /** What to change, on the side that broke it. */
  recommendation?: string;
  /** The exchange the finding is about. */
  exchangeId: string;
  /** The SSE frame (its seq, from 1) of that exchange the finding belongs to, when it is about one frame. */
  frame?: number;
}

/** Fault injection, to see how a client copes. Every field optional; `{}` = relay faithfully. */
export interface TapFaults {
  /** Hold every request (card included) this long before forwarding it, ms. */
  delayMs?: number;
  /** Cut every streamed answer (SSE) after this many events have been relayed (the connection ends mid-stream). */
  dropStreamAfter?: number;
  /** The next A2A request (not the card) fails once: answered 503 by the tap, or its connection is reset. */
  failOnce?: 503 | 'reset';
  /** Hold the card's answer this long, ms. */
  slowCardMs?: number;
}

interface TapEventBase {
  /** Position of the event in this tap, from 1, strictly increasing (SSE `id`, replay cursor). */
  seq: number;
  /** The exchange the event belongs to (`x1`, `x2`, …): one client request and the agent's answer. */
  id: string;
  /** Wall clock, epoch ms (the tap's `now()`). */
  at: number;
  side?: TapSide;
}

/** What the tap found the agent to be (emitted once, when the card was first read through the tap). */
export interface TapTargetInfo {
  agentUrl: string;
  cardUrl?: string;
  agentName?: string;
  generation?: Generation;
  binding?: Binding;
  /** The agent's interfaces as its card declares them (before the rewrite). */
  interfaces: { url: string; binding: string; protocolVersion?: string }[];
  /** Extensions the card declares as required (a client must send them). */
  requiredExtensions: string[];
  /** Transports the tap cannot relay (gRPC), said plainly. */
  notRelayed: { url: string; binding: string; reason: string }[];
  /** What the client should know about the relayed card (e.g. a signed card no longer matches its signatures). */
  notes?: string[];
}

/** The client's request as received by the tap (credentials masked, body capped). */
export interface TapExchangeStart extends TapEventBase {
  kind: 'exchange-start';
  side: 'client';
  method: string;
  /** The URL the client called on the tap. */
  url: string;
  /** The agent URL it was forwarded to. */
  upstreamUrl: string;
  headers: Record<string, string>;
  body?: string;
  bodySize: number;
  bodyTruncated: boolean;
  /** What the request is: `card`, the JSON-RPC method (`message/send`) or the HTTP+JSON route (`POST /message:send`). */
  operation: string;
  /** The client asked for a stream (SSE). */
  streaming: boolean;
}

/** The agent's answer as relayed (or the failure), credentials masked, body capped; for a stream: when it ended. */
export interface TapExchangeEnd extends TapEventBase {
  kind: 'exchange-end';
  side: 'agent';
  status?: number;
  statusText?: string;
  headers?: Record<string, string>;
  /** Body preview (not for streams: see `sse-frame`). */
  body?: string;
  bodySize: number;
  bodyTruncated: boolean;
  stream: boolean;
  /** SSE events relayed. */
  frames: number;
  /** From the request reaching the tap to the agent's response headers, ms. */
  headersMs?: number;
  /** From the request reaching the tap to the end of the body or stream, ms. */
  durationMs: number;
  /** The relay failed: the agent was unreachable, reset the connection, or the client went away. */
  error?: { code: 'unreachable' | 'reset' | 'client-closed' | 'fault' | 'tool'; message: string };
}

/** One SSE event of a streamed answer, as relayed. */
export interface TapSseFrame extends TapEventBase {
  kind: 'sse-frame';
  side: 'agent';
  /** From 1 within the exchange. */
  frame: number;
  /** Since the request reached the tap, ms. */
  ms: number;
  event?: string;
  /** The data as relayed (masked, capped). */
  data: string;
}

export interface TapFindingEvent extends TapEventBase {
  kind: 'finding';
  side: TapSide;
  finding: TapFinding;
}

/** A fault the tap injected (so a reader sees what the client was reacting to). */
export interface TapFaultEvent extends TapEventBase {
  kind: 'fault';
  fault: 'delay' | 'drop-stream' | 'fail-503' | 'reset' | 'slow-card';
  detail: string;
}

/** The target was resolved (from the card) or changed. */
export interface TapTargetEvent extends TapEventBase {
  kind: 'target';
  target: TapTargetInfo;
}

export type TapEvent = TapExchangeStart | TapExchangeEnd | TapSseFrame | TapFindingEvent | TapFaultEvent | TapTargetEvent;

/** One side's verdict: `fail` = a MUST or SHOULD broken; `advisory` = only advisories; `pass`; `not-observed` = no traffic judged. */
export interface TapSideSummary {
  verdict: 'pass' | 'advisory' | 'fail' | 'not-observed';
  must: number;
  should: number;
  advisory: number;
}

/** One exchange in a report (request and answer as recorded). */
export interface TapExchangeRecord {
  id: string;
  request: Omit<TapExchangeStart, 'kind' | 'seq' | 'at' | 'side' | 'id'> & { at: number };
  response?: Omit<TapExchangeEnd, 'kind' | 'seq' | 'at' | 'side' | 'id'> & { at: number };
  frames: { frame: number; ms: number; event?: string; data: string }[];
}

export interface TapReport {
  tool: 'a2a-interop tap';
  agentUrl: string;
  target?: TapTargetInfo;
  startedAt: number;
  /** When the report was made (the tap may still be open). */
  at: number;
  exchanges: TapExchangeRecord[];
  findings: TapFinding[];
  faults: TapFaults;
  summary: { client: TapSideSummary; agent: TapSideSummary; exchanges: number };
  /** Bounded memory: what was dropped to stay within the budgets (oldest events first). */
  dropped: { events: number; exchanges: number };
}

export interface TapLimits {
  /** Events kept (oldest dropped first). Default 5,000. */
  maxEvents: number;
  /** Bytes of each recorded body or frame (the relayed bytes are never cut). Default 64 KiB. */
  maxBodyBytes: number;
  /** Bytes of a client request body the tap reads to judge and forward. Default 4 MiB (larger: 413 from the tap). */
  maxRequestBytes: number;
  /** Exchanges kept in a report (oldest dropped first). Default 1,000. */
  maxExchanges: number;
}

export interface TapOptions {
  /** The agent: base URL, base URL with a path, or its card URL. */
  agentUrl: string;
  /** How the tap reaches the agent (the host's fetch: Node's global fetch, or a policy-checked one in hosted mode). */
  fetch: (req: Request) => Promise<Response>;
  faults?: TapFaults;
  now?: () => number;
  limits?: Partial<TapLimits>;
}

export interface TapEvents {
  /** Called with every event from now on; returns the unsubscribe function. */
  subscribe(cb: (e: TapEvent) => void): () => void;
  /** Events kept so far (bounded), oldest first; `afterSeq` for a replay cursor. */
  list(afterSeq?: number): TapEvent[];
}

export interface Tap {
  /**
   * Handles one request the client made to the tap. `base` is the tap's own base URL as the client reaches it
   * (e.g. `http://127.0.0.1:4173/tap/ab12/`): the card's interface URLs are rewritten to it, and the request's
   * path below it is forwarded to the agent.
   */
  handle(req: Request, base: string): Promise<Response>;
  events: TapEvents;
  report(): TapReport;
  faults(): TapFaults;
  setFaults(faults: TapFaults): void;
  /** Resolves when the judgements running in the background (the card's) have landed. */
  settled(): Promise<void>;
  /** Ends open streams and drops subscribers. */
  close(): void;
}
