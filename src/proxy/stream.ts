/**
 * Body plumbing for the proxy: the client's request body on its way up (counted, copied for 307/308
 * replays) and the agent's response body on its way down (no buffering, idle timeout, size limit,
 * SSE cut marker). Web streams only; `highWaterMark: 0` so nothing is read ahead of the consumer.
 */
import { PROXY_STREAM_ERROR_COMMENT, type ProxyErrorCode } from '../engine/model/proxy.js';
import { UpstreamError } from './errors.js';

const noop = () => undefined;
const encoder = new TextEncoder();

/** Bytes all request bodies of a proxy may keep for replays at once (a request takes, `release()` gives back). */
export interface ReplayBudget {
  take(bytes: number): boolean;
  give(bytes: number): void;
}

export function replayBudget(max: number): ReplayBudget & { readonly used: number } {
  let used = 0;
  return {
    get used() {
      return used;
    },
    take(n) {
      if (used + n > max) return false;
      used += n;
      return true;
    },
    give(n) {
      used = Math.max(0, used - n);
    },
  };
}

/**
 * The client's request body. `stream()` passes chunks upstream as they arrive (streaming, counted
 * against `max`); the first `keepMax` bytes are also kept so a 307/308 redirect can resend the body,
 * until `release()` (the response head arrived: no redirect will need them). A body larger than
 * `keepMax`, or one the shared `budget` has no room for, cannot be replayed (`replayable` false).
 */
export class RequestBody {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private chunks: Uint8Array[] = [];
  private lock: Promise<unknown> = Promise.resolve();
  private done = false;
  private keeping = true;
  size = 0;
  tooLarge = false;

  constructor(
    src: ReadableStream<Uint8Array>,
    private readonly max: number,
    private readonly keepMax = max,
    private readonly budget?: ReplayBudget,
  ) {
    this.reader = src.getReader();
  }

  /** Bytes held for a replay. */
  get kept(): number {
    let n = 0;
    for (const c of this.chunks) n += c.byteLength;
    return n;
  }

  /** True while every byte read so far is kept (a redirect can resend the body). */
  get replayable(): boolean {
    return this.keeping;
  }

  /** Drops the replay copy and keeps nothing more (the response head arrived, or the method never replays). */
  release(): void {
    this.budget?.give(this.kept);
    this.keeping = false;
    this.chunks = [];
  }

  /** Reads the next chunk (reads are serialized so the copy stays in order). */
  private next(): Promise<Uint8Array | null> {
    const p = this.lock.then(async () => {
      if (this.done) return null;
      const r = await this.reader.read();
      if (r.done) {
        this.done = true;
        return null;
      }
      this.size += r.value.byteLength;
      if (this.size > this.max) {
        this.tooLarge = true;
        this.done = true;
        this.reader.cancel().catch(noop);
        throw new UpstreamError('request_too_large', `The request body exceeds ${this.max} bytes.`);
      }
      if (this.keeping && this.size <= this.keepMax && (this.budget?.take(r.value.byteLength) ?? true)) this.chunks.push(r.value);
      else this.release();
      return r.value;
    });
    this.lock = p.then(noop, noop);
    return p;
  }

  /** The body as a stream for the first hop. */
  stream(): ReadableStream<Uint8Array> {
    return new ReadableStream<Uint8Array>(
      {
        pull: async (c) => {
          try {
            const v = await this.next();
            if (v === null) c.close();
            else c.enqueue(v);
          } catch (e) {
            try {
              c.error(e);
            } catch {
              /* the consumer went away */
            }
          }
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** The whole body (the part already sent plus the rest), for a redirect that keeps the method. */
  async all(): Promise<Uint8Array> {
    while ((await this.next()) !== null) if (!this.keeping) break;
    if (!this.keeping) throw new UpstreamError('redirect_blocked', `The request body is larger than ${this.keepMax} bytes and cannot be sent again.`);
    const out = new Uint8Array(this.size);
    let off = 0;
    for (const c of this.chunks) {
      out.set(c, off);
      off += c.byteLength;
    }
    return out;
  }

  /** Releases the client body when it will not be read (refused request). */
  discard(): void {
    this.release();
    this.done = true;
    this.reader.cancel().catch(noop);
  }
}

export interface RelayOptions {
  /** `text/event-stream`: failures end the stream with the `: x-proxy-error <code>` comment instead of an error. */
  sse: boolean;
  /** Decoded bytes allowed (non-streams); undefined for no limit. */
  maxBytes?: number;
  /** Silence allowed between two chunks while the consumer is waiting. */
  idleMs: number;
  /** Longest the relay may last in all (a stream's lifetime); undefined for no limit. Cut as `stream_limit`. */
  maxMs?: number;
  /** Aborts the upstream request (client went away, idle, too large, failed). */
  abortUpstream(reason: unknown): void;
  /** Called once when the relay ends, with the proxy error code if it cut the body. */
  onEnd?(outcome: { bytes: number; cut?: ProxyErrorCode }): void;
}

/** The SSE comment that marks a stream the proxy had to cut; starts on a fresh line, never completes a pending event. */
export function sseCutMarker(code: ProxyErrorCode, lastByte: number | undefined): Uint8Array {
  const fresh = lastByte === undefined || lastByte === 0x0a || lastByte === 0x0d;
  return encoder.encode(`${fresh ? '' : '\n'}${PROXY_STREAM_ERROR_COMMENT} ${code}\n`);
}

/**
 * Relays an upstream body chunk by chunk, pulling only when the client reads. Enforces the idle
 * timeout and (for non-streams) the size limit. Mid-body failures: SSE ends with the cut marker then
 * closes cleanly; other bodies error (the adapter then drops the connection so the client sees a
 * truncated body, never a complete-looking one).
 */
export function relayBody(src: ReadableStream<Uint8Array>, opts: RelayOptions): ReadableStream<Uint8Array> {
  const reader = src.getReader();
  let bytes = 0;
  let lastByte: number | undefined;
  let ended = false;
  let lifetime: ReturnType<typeof setTimeout> | undefined;
  const end = (cut?: ProxyErrorCode) => {
    if (ended) return;
    ended = true;
    clearTimeout(lifetime);
    opts.onEnd?.({ bytes, cut });
  };
  const cut = (c: ReadableStreamDefaultController<Uint8Array>, err: UpstreamError) => {
    opts.abortUpstream(err);
    reader.cancel(err).catch(noop);
    end(err.code);
    try {
      if (opts.sse) {
        c.enqueue(sseCutMarker(err.code, lastByte));
        c.close();
      } else {
        c.error(err);
      }
    } catch {
      /* cancelled meanwhile */
    }
  };
  return new ReadableStream<Uint8Array>(
    {
      start(c) {
        if (opts.maxMs === undefined) return;
        const ms = opts.maxMs;
        lifetime = setTimeout(() => {
          if (!ended) cut(c, new UpstreamError('stream_limit', `The proxy ends a response after ${Math.round(ms / 1000)} s (its limit for one stream).`));
        }, ms);
      },
      async pull(c) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const idle = new Promise<'idle'>((resolve) => {
          timer = setTimeout(() => resolve('idle'), opts.idleMs);
        });
        let r: ReadableStreamReadResult<Uint8Array> | 'idle';
        try {
          r = await Promise.race([reader.read(), idle]);
        } catch (e) {
          clearTimeout(timer);
          if (ended) return;
          const err = e instanceof UpstreamError ? e : new UpstreamError('upstream_reset', `The connection to the agent failed mid-body (${describe(e)}).`);
          cut(c, err);
          return;
        }
        clearTimeout(timer);
        if (ended) return;
        if (r === 'idle') {
          cut(c, new UpstreamError('upstream_timeout', `The agent sent nothing for ${opts.idleMs} ms.`));
          return;
        }
        if (r.done) {
          end();
          try {
            c.close();
          } catch {
            /* cancelled meanwhile */
          }
          return;
        }
        bytes += r.value.byteLength;
        if (opts.maxBytes !== undefined && bytes > opts.maxBytes) {
          cut(c, new UpstreamError('response_too_large', `The response body exceeds ${opts.maxBytes} bytes.`));
          return;
        }
        if (r.value.byteLength > 0) {
          lastByte = r.value[r.value.byteLength - 1];
          c.enqueue(r.value);
        }
      },
      cancel(reason) {
        end();
        opts.abortUpstream(reason);
        return reader.cancel(reason).catch(noop);
      },
    },
    { highWaterMark: 0 },
  );
}

function describe(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown } | null;
  return String(err?.code ?? err?.message ?? e).slice(0, 200);
}
