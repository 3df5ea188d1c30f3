/**
 * The console's reach into the engine: single exchanges with an agent (src/engine/session), loaded on the first
 * connect so the session code stays out of the first-load bundle. Types only are imported statically.
 */
import type { Credentials, RunEvent } from './engine';
import { createHost, type HostSettings } from './engine-adapter';
import type { CallOptions, RawRequest, SendOptions, SessionOptions, SessionResult, SessionTarget, SessionUnavailable } from '../engine/session';

export type { RawRequest, SessionFinding, SessionFrame, SessionResult, SessionTarget, SessionUnavailable } from '../engine/session';

/** Every call the console makes watches the engine's events live (`onEvent`) and its stream frames (`onFrame`). */
export type ConsoleCallOptions = CallOptions;

/** What the console needs of a session (src/engine/session `Session`); optional members depend on the engine build. */
export interface ConsoleSession {
  readonly target: SessionTarget;
  readonly generation: SessionResult['generation'];
  readonly binding: SessionResult['binding'];
  send(o: SendOptions & ConsoleCallOptions): Promise<SessionResult>;
  stream(o: SendOptions & ConsoleCallOptions): Promise<SessionResult>;
  get(o: ConsoleCallOptions & { taskId: string; historyLength?: number }): Promise<SessionResult>;
  cancel(o: ConsoleCallOptions & { taskId: string }): Promise<SessionResult>;
  subscribe(o: ConsoleCallOptions & { taskId: string }): Promise<SessionResult>;
  list(o?: ConsoleCallOptions & { contextId?: string; pageSize?: number; pageToken?: string }): Promise<SessionResult>;
  pushSet?(o: ConsoleCallOptions & { taskId: string; url: string; token?: string }): Promise<SessionResult>;
  pushGet?(o: ConsoleCallOptions & { taskId: string; configId?: string }): Promise<SessionResult>;
  pushList?(o: ConsoleCallOptions & { taskId: string }): Promise<SessionResult>;
  pushDelete?(o: ConsoleCallOptions & { taskId: string; configId: string }): Promise<SessionResult>;
  raw?(o: ConsoleCallOptions & RawRequest): Promise<SessionResult>;
}

export type ConsoleOpen =
  | { ok: true; session: ConsoleSession; target: SessionTarget; events: RunEvent[] }
  | { ok: false; unavailable: SessionUnavailable; target: SessionTarget; events: RunEvent[] };

export interface ConsoleOpenInput {
  agentUrl: string;
  credentials: Credentials;
  prefer?: SessionOptions['prefer'];
  signal?: AbortSignal;
}

/** Bodies read per exchange: larger than a run's preview, so artifacts (images) arrive whole. */
const CONSOLE_PREVIEW_BYTES = 2 * 1024 * 1024;

/** Opens a session on the agent through this browser's host (proxy or direct). Never rejects for the agent's faults. */
export async function openConsoleSession(settings: HostSettings, input: ConsoleOpenInput): Promise<ConsoleOpen> {
  const { openSession } = await import('../engine/session');
  const open = await openSession(createHost(settings), {
    agentUrl: input.agentUrl,
    credentials: input.credentials,
    prefer: input.prefer,
    signal: input.signal,
    warmupRetries: 0,
    limits: { previewBytes: CONSOLE_PREVIEW_BYTES },
  });
  return open.ok
    ? { ok: true, session: open.session, target: open.target, events: open.events }
    : { ok: false, unavailable: open.unavailable, target: open.target, events: open.events };
}

/** A caller's mistake the engine refused (a skill the card lacks, an operation the generation lacks). */
export const isSessionInputError = (e: unknown): e is Error => e instanceof Error && e.name === 'SessionInputError';
