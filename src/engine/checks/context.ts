import type { DiscoveryResult } from '../card/discover';
import type { Detection } from '../card/detect';
import type { NormalizedCard } from '../card/normalize';
import type { HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { Dialect } from '../protocol/dialect';
import type { OAuthClient } from '../auth/client';
import type { Credentials } from '../model/credentials';
import type { ResolvedTarget } from '../target';
import type { ObservedRun, StreamFixture } from './setups/records';

/** What a check sees of the run: the target as resolved, the HTTP context, and run-wide helpers. */
export interface CheckContext {
  readonly checkId: string;
  readonly generation: Generation;
  readonly binding: Binding | undefined;
  readonly endpointUrl: string | undefined;
  readonly card: NormalizedCard;
  readonly raw: unknown;
  readonly discovery: DiscoveryResult;
  readonly detection: Detection;
  readonly http: HttpContext;
  /** Present when the binding is testable. */
  readonly dialect: Dialect | undefined;
  readonly credentials: Credentials;
  /** Headers carrying the user's credentials, shaped for this card (never logged unredacted). */
  readonly authHeaders: Record<string, string>;
  readonly authQuery: Record<string, string>;
  /** Per-task budget, ms. */
  readonly taskTimeoutMs: number;
  /** Skill ids to exercise. */
  readonly skills: string[];
  /** A fresh timeline lane name for a test task of this check. */
  lane(label?: string): string;
  /** Shared, memoized setup (e.g. a completed task) that several checks use; made once per run. */
  fixture<T>(key: string, make: () => Promise<T>): Promise<T>;
  uuid(): string;
  /** The second agent, when the user gave one (two-agent interop checks). */
  readonly peer?: ResolvedTarget;
  /** The run's OAuth client (client credentials given): its discovery and token exchanges, its failure. */
  readonly oauth?: OAuthClient;
  /** Trusted public keys for card signatures the user gave (RunOptions.jwks), as parsed JSON. */
  readonly jwks?: unknown;
}

/**
 * What a check can declare it needs before it can judge (`requires` in defineCheck). Unmet, the check is skipped
 * with the standard reason (preconditions.ts); met, its body receives a context where what it needs is present
 * (CheckContextWith). Evaluated in the order listed; each implies the ones it names:
 * - `card`: the card was read as a JSON object (`raw` is a record);
 * - `dialect`: the binding is testable, so the agent can be called (`dialect`);
 * - `streaming`: the card declares streaming, and `dialect`;
 * - `push`: the card declares push notifications, and `dialect`;
 * - `stream`: `streaming`, and the run's shared stream answered with an event stream (`stream`);
 * - `task-runs`: `dialect`, and at least one test task of the run was created (`taskRuns`: the runs with a task);
 * - `task-run`: as `task-runs`, known once at most one test task is still going (the slowest skill need not hold up a
 *   check that does not read them all); provides only `dialect`;
 * - `peer`: a peer agent was given (`peer`);
 * - `peer-callable`: `peer`, and both agents can be called (`dialect`, `peer.dialect`);
 * - a BindingNeed: `dialect`, and the binding under test has what the check needs; the bindings it applies to are
 *   declared this way, not branched on (on any other binding the check is not applicable, and says why).
 */
export type Precondition = 'card' | 'dialect' | 'streaming' | 'push' | 'stream' | 'task-runs' | 'task-run' | 'peer' | 'peer-callable' | BindingNeed;

/**
 * What a check may need of the binding it speaks (preconditions.ts BINDING_NEEDS: which bindings have it, why the
 * others do not): `http-binding` (a hand-made JSON-RPC or HTTP+JSON request), `sse-streams` (streams are Server-Sent
 * Events), `json-wire` (JSON on the wire), `browser-callable` (a browser can call it: CORS), `jsonrpc-binding`
 * (JSON-RPC envelopes), `grpc-binding` (gRPC statuses), `http-routing` (operations named by a JSON-RPC method or an
 * HTTP route), `http-auth-challenge` (a 401 and its WWW-Authenticate challenge).
 */
export type BindingNeed = 'sse-streams' | 'json-wire' | 'browser-callable' | 'jsonrpc-binding' | 'grpc-binding' | 'http-routing' | 'http-auth-challenge';

/** What each precondition puts in the context. */
export interface Provided {
  card: { readonly raw: Record<string, unknown> };
  dialect: { readonly dialect: Dialect };
  streaming: { readonly dialect: Dialect };
  push: { readonly dialect: Dialect };
  stream: { readonly dialect: Dialect; readonly stream: StreamFixture };
  'task-runs': { readonly dialect: Dialect; readonly taskRuns: readonly [ObservedRun, ...ObservedRun[]] };
  'task-run': { readonly dialect: Dialect };
  peer: { readonly peer: ResolvedTarget };
  'peer-callable': { readonly dialect: Dialect; readonly peer: CallablePeer };
  'sse-streams': { readonly dialect: Dialect };
  'json-wire': { readonly dialect: Dialect };
  'browser-callable': { readonly dialect: Dialect };
  'jsonrpc-binding': { readonly dialect: Dialect };
  'grpc-binding': { readonly dialect: Dialect };
  'http-routing': { readonly dialect: Dialect };
  'http-auth-challenge': { readonly dialect: Dialect };
}

/** A peer agent with a testable binding. */
export type CallablePeer = ResolvedTarget & { readonly dialect: Dialect };

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The context a check that requires `R` receives: CheckContext with what `R` provides present. */
export type CheckContextWith<R extends Precondition> = [R] extends [never] ? CheckContext : CheckContext & Intersection<Provided[R]>;
