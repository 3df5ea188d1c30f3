import type { DiscoveryResult } from '../card/discover';
import type { Detection } from '../card/detect';
import type { NormalizedCard } from '../card/normalize';
import type { HttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { Dialect } from '../protocol/dialect';
import type { Credentials } from '../runner/options';
import type { ResolvedTarget } from '../runner/target';

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
}
