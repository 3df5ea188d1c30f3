/**
 * The inbox's memory: addresses (random tokens) and what was POSTed to each, bounded in every direction
 * (addresses in all and per client, deliveries per address, bytes per address and in all, body bytes, lifetime).
 * Web-standard only: it runs in Node and in Workers. Secrets are masked on the way in (the expected token /
 * Authorization value and credential headers), so nothing read back from the store, by the engine or over HTTP,
 * carries them. Bodies are kept as UTF-8 bytes and decoded when read, and every byte kept (body, headers, a fixed
 * cost per delivery) counts against two budgets: `maxBoxBytes` per address (its oldest deliveries make room) and
 * `maxTotalBytes` for the whole store (the address holding the most bytes makes room: a flood fills its own
 * addresses, never a small legitimate one).
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
  /** Open addresses per client (the address that opened them); one more is refused. */
  maxInboxesPerClient: number;
  /** Bytes kept per address (bodies, headers and a fixed cost per delivery); older deliveries make room. */
  maxBoxBytes: number;
  /** Bytes kept by the whole store; the address holding the most makes room. */
  maxTotalBytes: number;
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
  maxInboxesPerClient: 20,
  maxBoxBytes: 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
  ttlMs: 15 * 60_000,
  maxWaitMs: 25_000,
};

export const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

/** A delivery as kept: the body as (masked) UTF-8 bytes, decoded only when read. */
interface Stored extends Omit<InboxDelivery, 'body'> {
  body: Uint8Array;
  /** What it counts against the budgets. */
  cost: number;
}

interface Box {
  token: string;
  client: string;
  expect: InboxExpectation;
  redactor: Redactor;
  deliveries: Stored[];
  bytes: number;
  /** Deliveries dropped to stay within the byte budgets (maxDeliveries drops are not counted). */
  dropped: number;
  seq: number;
  expiresAt: number;
  listeners: Set<() => void>;
}

/** Open addresses a client keeps even when every address is in use (see InboxStore.open). */
const FAIR_SHARE = 2;

/** Bookkeeping cost of one delivery besides its body and headers (objects, strings, array slot). */
const DELIVERY_OVERHEAD = 512;

export type OpenResult = { ok: true; token: string } | { ok: false; reason: 'full' | 'client' };

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

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class InboxStore {
  private readonly boxes = new Map<string, Box>();
  private total = 0;
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

  /** Bytes kept by every address together (what `maxTotalBytes` bounds). */
  get bytes(): number {
    return this.total;
  }

  /** A fresh address, or undefined when `maxInboxes` are open. */
  create(expect: InboxExpectation = {}): string | undefined {
    const r = this.open(expect);
    return r.ok ? r.token : undefined;
  }

  /**
   * A fresh address for `client`, or why not: `client` (this client has maxInboxesPerClient open), `full` (maxInboxes
   * are open and no client holds more than FAIR_SHARE of them). When every address is in use, the client holding the
   * most (more than FAIR_SHARE) loses its oldest: a flood from a few client addresses cannot lock everyone else out.
   */
  open(expect: InboxExpectation = {}, client = ''): OpenResult {
    this.sweep();
    const held = new Map<string, number>();
    for (const b of this.boxes.values()) held.set(b.client, (held.get(b.client) ?? 0) + 1);
    if ((held.get(client) ?? 0) >= this.limits.maxInboxesPerClient) return { ok: false, reason: 'client' };
    if (this.boxes.size >= this.limits.maxInboxes) {
      let top: string | undefined;
      for (const [c, n] of held) if (top === undefined || n > (held.get(top) ?? 0)) top = c;
      if (top === undefined || (held.get(top) ?? 0) <= FAIR_SHARE) return { ok: false, reason: 'full' };
      // Map order is opening order: the first box of `top` is its oldest.
      for (const b of this.boxes.values())
        if (b.client === top) {
          this.delete(b.token);
          break;
        }
    }
    const token = randomToken();
    const redactor = new Redactor().addHeaderName(NOTIFICATION_TOKEN_HEADER).addSecret(expect.token).addSecret(expect.authorization);
    this.boxes.set(token, {
      token,
      client,
      expect: { ...expect },
      redactor,
      deliveries: [],
      bytes: 0,
      dropped: 0,
      seq: 0,
      expiresAt: this.now() + this.limits.ttlMs,
      listeners: new Set(),
    });
    return { ok: true, token };
  }

  has(token: string): boolean {
    return this.box(token) !== undefined;
  }

  /** Records a POST to `token`; undefined when the address is unknown or expired. */
  receive(token: string, post: ReceivedPost): InboxDelivery | undefined {
    const box = this.box(token);
    if (!box) return undefined;
    const text = decoder.decode(post.body.subarray(0, this.limits.maxBodyBytes));
    const headers = box.redactor.headers(post.headers);
    const body = encoder.encode(box.redactor.text(text));
    let headerBytes = 0;
    for (const [k, v] of Object.entries(headers)) headerBytes += k.length + v.length;
    const d: Stored = {
      seq: ++box.seq,
      at: this.now(),
      method: post.method,
      headers,
      body,
      bodySize: post.bodySize,
      truncated: post.truncated || post.body.byteLength > this.limits.maxBodyBytes,
      token: compare(post.headers.get(NOTIFICATION_TOKEN_HEADER), box.expect.token, false),
      authorization: compare(post.headers.get('authorization'), box.expect.authorization, true),
      cost: body.byteLength + 2 * headerBytes + DELIVERY_OVERHEAD,
    };
    // Room in this address first (its own oldest deliveries), then in the store (the address holding the most).
    while (box.deliveries.length && (box.bytes + d.cost > this.limits.maxBoxBytes || box.deliveries.length >= this.limits.maxDeliveries)) {
      const overCount = box.deliveries.length >= this.limits.maxDeliveries;
      this.dropOldest(box);
      if (!overCount) box.dropped++;
    }
    while (this.total + d.cost > this.limits.maxTotalBytes) {
      let largest: Box | undefined;
      for (const b of this.boxes.values()) if (b.deliveries.length && (!largest || b.bytes > largest.bytes)) largest = b;
      if (!largest) break;
      this.dropOldest(largest);
      largest.dropped++;
    }
    box.deliveries.push(d);
    box.bytes += d.cost;
    this.total += d.cost;
    for (const l of [...box.listeners]) l();
    return view(d);
  }

  /** Deliveries dropped from `token` to stay within the byte budgets; undefined when the address is unknown. */
  droppedFrom(token: string): number | undefined {
    return this.box(token)?.dropped;
  }

  /** Deliveries of `token` with seq > `after` (all when omitted); undefined when the address is unknown. */
  since(token: string, after = 0): InboxDelivery[] | undefined {
    return this.box(token)
      ?.deliveries.filter((d) => d.seq > after)
      .map(view);
  }

  private dropOldest(box: Box): void {
    const d = box.deliveries.shift();
    if (!d) return;
    box.bytes -= d.cost;
    this.total -= d.cost;
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
    this.total -= box.bytes;
    box.bytes = 0;
    box.deliveries = [];
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

function view(d: Stored): InboxDelivery {
  const { cost: _cost, body, ...rest } = d;
  return { ...rest, body: decoder.decode(body) };
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
