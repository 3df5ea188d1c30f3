import type { InterfacePreference } from '../card/detect';
import type { Limits } from '../http/client';
import type { Credentials } from '../model/credentials';

export type { Credentials, OAuthCredentials } from '../model/credentials';

export interface RunOptions {
  /** Base URL, base URL with a path, or a direct card URL. */
  agentUrl: string;
  /** Optional second agent for two-agent interop checks. */
  peerUrl?: string;
  credentials?: Credentials;
  /** Budget per test task (send until terminal), ms. Default 60,000. */
  timeoutMs?: number;
  /** Skill ids to exercise; default: all skills in the card. */
  skills?: string[];
  /** Run only these check ids (plus what they depend on). Used for "Re-run" of a single check. */
  only?: string[];
  /** Stop the run (the partial result is kept, the run is marked interrupted). */
  signal?: AbortSignal;
  /** Requests in flight at once (browsers allow 6 connections per origin). Default 6. */
  concurrency?: number;
  limits?: Partial<Limits>;
  /** Test this binding / protocol version when the card declares several interfaces (default: the card's first). */
  prefer?: InterfacePreference;
  /** Reported as `options.transport`. */
  transport?: 'proxy' | 'direct';
  /**
   * Trusted public keys for card signatures (a JWKS, `{ keys: [...] }`, as parsed JSON): used before a signature's
   * `jku` (v1.0.1 §8.4.3 "or from a trusted key store"). Public keys only; never reported.
   */
  jwks?: unknown;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
