/**
 * The webhook inbox port (Host.inbox): where an agent's push notifications are received during a run. Hosts
 * implement it (src/inbox: an in-process inbox for Node, the local server's `/inbox` routes for the browser); the
 * push delivery checks (checks/lifecycle/push-delivery.ts) only use these types.
 */

/** Where push notifications can be received: each `open` gives a fresh, unguessable address. */
export interface WebhookInbox {
  /**
   * Opens a fresh address. `expect` names the credentials the agent is asked to send, so each delivery says whether
   * they came (match / mismatch / absent) while the values themselves are masked in what is recorded.
   * Rejects when no address can be opened (the inbox is full, or the server is unreachable).
   */
  open(opts?: { expect?: InboxExpectation; signal?: AbortSignal }): Promise<InboxLease>;
}

export interface InboxExpectation {
  /** The config's `token`, looked for in `X-A2A-Notification-Token`. */
  token?: string;
  /** The whole `Authorization` value the config's `authentication` asks for, e.g. `Bearer abc`. */
  authorization?: string;
}

export interface InboxLease {
  /** The webhook URL to give the agent. */
  readonly url: string;
  /** Deliveries so far, oldest first (bounded: the oldest are dropped past the inbox's retention). */
  deliveries(): readonly InboxDelivery[];
  /** Resolves with the deliveries once `until` holds for them or `ms` passed; rejects only when `signal` aborts. */
  waitFor(until: (d: readonly InboxDelivery[]) => boolean, ms: number, signal?: AbortSignal): Promise<readonly InboxDelivery[]>;
  /** Forgets the address: later POSTs to it get 404. */
  close(): Promise<void>;
}

export type CredentialMatch = 'match' | 'mismatch' | 'absent';

/** One POST received by an inbox: secrets masked, body capped. */
export interface InboxDelivery {
  /** 1, 2, ... per address. */
  seq: number;
  /** Receipt time, ms since the epoch. */
  at: number;
  method: string;
  /** Lower-case names; Authorization, the notification token header and the expected values masked. */
  headers: Record<string, string>;
  /** Body as UTF-8 (cut at the inbox's limit; expected secrets masked). */
  body: string;
  bodySize: number;
  truncated: boolean;
  /** `X-A2A-Notification-Token` compared with the expected token. */
  token: CredentialMatch;
  /** `Authorization` compared with the expected value (scheme case-insensitive). */
  authorization: CredentialMatch;
}

/** The header the token of a push config travels in (v0.1.0-v1.0.0 examples; the @a2a-js/sdk sender's default). */
export const NOTIFICATION_TOKEN_HEADER = 'x-a2a-notification-token';

/** The timeline lane the push delivery checks put each received delivery on (an exchange: the agent's POST, our answer). */
export const PUSH_INBOX_LANE = 'push inbox';
