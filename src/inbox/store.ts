/**
 * The inbox's memory: addresses (random tokens) and what was POSTed to each, bounded in every direction
 * (addresses, deliveries per address, body bytes, lifetime). Web-standard only: it runs in Node and in Workers.
 * Secrets are masked on the way in (the expected token / Authorization value and credential headers), so nothing
 * read back from the store, by the engine or over HTTP, carries them.
 */
import { NOTIFICATION_TOKEN_HEADER, type CredentialMatch, type InboxDelivery, type InboxExpectation, type InboxLease } from '../engine/model/inbox';
import { Redactor } from '../engine/redact';

export interface InboxLimits {
  /** Body bytes kept per delivery (the rest is read up to `maxReadBytes`, then the connection is dropped). */
  maxBodyBytes: number;
  /** Bytes read from one delivery at most (a larger or endless body is cut there). */
  maxReadBytes: number;
  /** Deliveries kept per address; older ones are dropped (`seq` keeps counting). */
  maxDeliveries: number;
  /** Open addresses at once; creating one more is refused. */
  maxInboxes: number;
  /** An address expires this long after it was opened. */
  ttlMs: number;
  /** Longest long-poll wait of the read side. */
  maxWaitMs: number;
}

export const INBOX_DEFAULT_LIMITS: InboxLimits = {
  maxBodyBytes: 64 * 1024,
  maxReadBytes: 1024 * 1024,
  maxDeliveries: 100,
  maxInboxes: 200,
  ttlMs: 15 * 60_000,
  maxWaitMs: 25_000,
};

export const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

interface Box {
  token: string;
  expect: InboxExpectation;
  redactor: Redactor;
  deliveries: InboxDelivery[];
  seq: number;
  expiresAt: number;
  listeners: Set<() => void>;
}

/** What the HTTP side hands the store for one POST. */
export interface ReceivedPost {
  method: string;
  headers: Headers;
  body: Uint8Array;
  bodySize: number;
  truncated: boolean;
}

function randomToken(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
}

function compare(got: string | null, want: string | undefined, scheme: boolean): CredentialMatch {
  if (got === null || got.trim() === '') return 'absent';
  if (want === undefined) return 'mismatch';
  if (!scheme) return got.trim() === want ? 'match' : 'mismatch';
  const [gs = '', ...gr] = got.trim().split(/\s+/);
  const [ws = '', ...wr] = want.trim().split(/\s+/);
  return gs.toLowerCase() === ws.toLowerCase() && gr.join(' ') === wr.join(' ') ? 'match' : 'mismatch';
}

export class InboxStore {
  private readonly boxes = new Map<string, Box>();
  readonly limits: InboxLimits;

  constructor(
    limits: Partial<InboxLimits> = {},
    private readonly now: () => number = () => Date.now(),
  ) {
    this.limits = { ...INBOX_DEFAULT_LIMITS, ...limits };
  }

  get size(): number {
    this.sweep();
    return this.boxes.size;
  }

  /** A fresh address, or undefined when `maxInboxes` are open. */
  create(expect: InboxExpectation = {}): string | undefined {
    this.sweep();
    if (this.boxes.size >= this.limits.maxInboxes) return undefined;
    const token = randomToken();
    const redactor = new Redactor().addHeaderName(NOTIFICATION_TOKEN_HEADER).addSecret(expect.token).addSecret(expect.authorization);
    this.boxes.set(token, { token, expect: { ...expect }, redactor, deliveries: [], seq: 0, expiresAt: this.now() + this.limits.ttlMs, listeners: new Set() });
    return token;
  }

  has(token: string): boolean {
    return this.box(token) !== undefined;
  }

  /** Records a POST to `token`; undefined when the address is unknown or expired. */
  receive(token: string, post: ReceivedPost): InboxDelivery | undefined {
    const box = this.box(token);
    if (!box) return undefined;
    const text = new TextDecoder('utf-8', { fatal: false }).decode(post.body.subarray(0, this.limits.maxBodyBytes));
    const d: InboxDelivery = {
      seq: ++box.seq,
      at: this.now(),
      method: post.method,
      headers: box.redactor.headers(post.headers),
      body: box.redactor.text(text),
      bodySize: post.bodySize,
      truncated: post.truncated || post.body.byteLength > this.limits.maxBodyBytes,
      token: compare(post.headers.get(NOTIFICATION_TOKEN_HEADER), box.expect.token, false),
      authorization: compare(post.headers.get('authorization'), box.expect.authorization, true),
    };
    box.deliveries.push(d);
    if (box.deliveries.length > this.limits.maxDeliveries) box.deliveries.splice(0, box.deliveries.length - this.limits.maxDeliveries);
    for (const l of [...box.listeners]) l();
    return d;
  }

  /** Deliveries of `token` with seq > `after` (all when omitted); undefined when the address is unknown. */
  since(token: string, after = 0): InboxDelivery[] | undefined {
    return this.box(token)?.deliveries.filter((d) => d.seq > after);
  }

  /** Calls `fn` after each delivery to `token` (and once when it is deleted); returns the unsubscribe. */
  listen(token: string, fn: () => void): () => void {
    const box = this.box(token);
    if (!box) return () => undefined;
    box.listeners.add(fn);
    return () => box.listeners.delete(fn);
  }

  delete(token: string): boolean {
    const box = this.boxes.get(token);
    if (!box) return false;
    this.boxes.delete(token);
    for (const l of [...box.listeners]) l();
    return true;
  }

  private box(token: string): Box | undefined {
    const box = this.boxes.get(token);
    if (box && box.expiresAt <= this.now()) {
      this.delete(token);
      return undefined;
    }
    return box;
  }

  private sweep(): void {
    const t = this.now();
    for (const [token, box] of this.boxes) if (box.expiresAt <= t) this.delete(token);
  }
}

/**
 * Waits until `until(read())` holds, `ms` passed, or `signal` aborts (rejects). `subscribe(fn)` calls fn on each
 * change and returns its unsubscribe. The one waiting loop of every lease (in-process and remote).
 */
export function waitUntil<T>(read: () => T, until: (v: T) => boolean, subscribe: (fn: () => void) => () => void, ms: number, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    if (until(read())) return resolve(read());
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
    };
    const unsubscribe = subscribe(() => {
      if (!until(read())) return;
      done();
      resolve(read());
    });
    const timer = setTimeout(
      () => {
        done();
        resolve(read());
      },
      Math.max(0, ms),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A lease on an address of an in-process store (the CLI's inbox, tests). */
export function storeLease(store: InboxStore, token: string, url: string): InboxLease {
  let last: readonly InboxDelivery[] = [];
  const read = () => (last = store.since(token) ?? last);
  return {
    url,
    deliveries: read,
    waitFor: (until, ms, signal) => waitUntil(read, until, (fn) => store.listen(token, fn), ms, signal),
    close: async () => {
      read();
      store.delete(token);
    },
  };
}
