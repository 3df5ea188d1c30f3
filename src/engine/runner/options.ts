import type { InterfacePreference } from '../card/detect';
import type { Limits } from '../http/client';

/** Credentials supplied by the user. Values never appear in events, reports or logs (see redact.ts). */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'bearer'; token: string }
  /** API key; `name` defaults to the header/query name the card's apiKey scheme declares, else X-API-Key. */
  | { kind: 'api-key'; value: string; name?: string; in?: 'header' | 'query' }
  | { kind: 'header'; name: string; value: string }
  /** OAuth 2.0 client credentials: a token is fetched from the endpoint the card declares (src/engine/auth). */
  | OAuthCredentials;

export interface OAuthCredentials {
  kind: 'oauth2';
  clientId: string;
  clientSecret: string;
  /** Space-separated scopes to ask for (default: none, the token endpoint's default). */
  scope?: string;
}

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
