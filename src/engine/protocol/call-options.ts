/** The options of a Dialect call and the Dialect's configuration (dialect.ts re-exports them). */
import type { Binding, Generation } from '../model/check';
import type { MessageArgs } from './messages';

export interface CallOpts {
  lane: string;
  checkId?: string;
  timeoutMs?: number;
  /** Extra headers for this call (override the defaults, e.g. a different A2A-Version). */
  headers?: Record<string, string>;
  /** Leave out headers (e.g. `A2A-Version` for the negotiation check, or credentials for auth checks). */
  omitHeaders?: string[];
  /** Send without the user's credentials. */
  anonymous?: boolean;
  /** Streams only: our own early stop. */
  stopSignal?: AbortSignal;
}

export interface SendArgs extends CallOpts, MessageArgs {}

export interface ListArgs extends CallOpts {
  contextId?: string;
  pageSize?: number;
  pageToken?: string;
}

export interface DialectConfig {
  generation: Generation;
  binding: Binding;
  endpointUrl: string;
  tenant?: string;
  /** Credential headers (added unless `anonymous`). */
  authHeaders: Record<string, string>;
  /** Credential query parameters (API key `in: query`). */
  authQuery: Record<string, string>;
  acceptedOutputModes: string[];
  uuid(): string;
}
