/**
 * Relaying a response body while watching it: every chunk goes to the client as soon as it arrives (pull-based, no
 * buffering), and a copy is read on the side: a bounded copy of a plain body, or the SSE events of a stream (parsed
 * as the engine's stream reader does). A fault can cut a stream after N events, at an event boundary.
 */
import { createParser } from 'eventsource-parser';
import { lineEndNormalizer, type SseIgnoredLine } from '../http/client';
import { truncate } from '../util/json';

export type BodyEnd = 'closed' | 'error' | 'client-closed' | 'fault';

export interface SseSeen {
  seq: number;
  at: number;
  event?: string;
  id?: string;
  data: string;
}

export interface WatchOptions {
  sse: boolean;
  now: () => number;
  /** Aborting it cuts the relay (the tap closes). */
  signal?: AbortSignal;
  /** Bytes of a plain body kept for judging and recording (the relay itself is never cut). */
  keepBytes: number;
  /** Bytes one SSE event may take before parsing stops (the relay goes on). */
  maxEventBytes: number;
  /** Cut the stream after this many events (fault injection). */
  dropAfter?: number;
  onEvent?(e: SseSeen): void;
  onEnd(end: BodyEnd, seen: BodySeen): void;
}

export interface BodySeen {
  bytes: number;
  /** The kept copy (plain bodies), decoded as UTF-8 with replacement. */
  text: string;
  truncated: boolean;
  bom: boolean;
  invalidUtf8: boolean;
  events: number;
  ignoredLines: SseIgnoredLine[];
  ignoredLineCount: number;
  error?: string;
}

const LF = 10;
const CR = 13;

/** Splits bytes after each blank line (the end of an SSE event: LF LF, CRLF CRLF, CR CR), across chunks. */
export class EventSplitter {
  private lineStart = true;
  /** The previous byte was a CR: an LF now completes its CRLF. */
  private afterCr = false;

  split(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    let from = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (this.afterCr) {
        this.afterCr = false;
        if (b === LF) continue;
      }
      if (b !== LF && b !== CR) {
        this.lineStart = false;
        continue;
      }
      // A CRLF is one line end: take its LF along when it is in this chunk.
      let last = i;
      if (b === CR) {
        if (chunk[i + 1] === LF) last = i + 1;
        else if (i + 1 === chunk.length) this.afterCr = true;
      }
      if (this.lineStart) {
        out.push(chunk.subarray(from, last + 1));
        from = last + 1;
      }
      this.lineStart = true;
      i = last;
    }
    if (from < chunk.length) out.push(chunk.subarray(from));
    return out;
  }
}

/** The body the client gets: the same bytes, read on the side. Never throws; `onEnd` is called once. */
export function watchBody(body: ReadableStream<Uint8Array>, o: WatchOptions): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const seen: BodySeen = { bytes: 0, text: '', truncated: false, bom: false, invalidUtf8: false, events: 0, ignoredLines: [], ignoredLineCount: 0 };
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let ended = false;
  let parsing = o.sse;
  let cut = false;
  const strict = new TextDecoder('utf-8', { fatal: true });
  const loose = new TextDecoder('utf-8');
  const normalize = lineEndNormalizer();
  const splitter = new EventSplitter();
  const parser = createParser({
    maxBufferSize: o.maxEventBytes,
    onEvent: (m) => {
      seen.events++;
      try {
        o.onEvent?.({ seq: seen.events, at: o.now(), ...(m.event !== undefined && { event: m.event }), ...(m.id !== undefined && { id: m.id }), data: m.data });
      } catch {
        /* a failing observer must not break the relay */
      }
    },
    onError: (e) => {
      if (e.type === 'max-buffer-size-exceeded') {
        parsing = false;
        return;
      }
      seen.ignoredLineCount++;
      if (seen.ignoredLines.length < 20 && (e.type === 'unknown-field' || e.type === 'invalid-retry')) {
        seen.ignoredLines.push({
          type: e.type,
          field: e.field ?? (e.type === 'invalid-retry' ? 'retry' : ''),
          value: truncate(e.value ?? '', 200),
          line: truncate(e.line ?? '', 300),
        });
      }
    },
  });
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    if (!seen.invalidUtf8) {
      try {
        return strict.decode(bytes, { stream });
      } catch {
        seen.invalidUtf8 = true;
      }
    }
    return loose.decode(bytes, { stream });
  };
  const onAbort = () => void reader.cancel().catch(() => undefined);
  o.signal?.addEventListener('abort', onAbort, { once: true });
  if (o.signal?.aborted) onAbort();
  const end = (how: BodyEnd, error?: string) => {
    if (ended) return;
    ended = true;
    o.signal?.removeEventListener('abort', onAbort);
    if (!o.sse) {
      const all = new Uint8Array(keptBytes);
      let at = 0;
      for (const k of kept) {
        all.set(k, at);
        at += k.length;
      }
      seen.bom = all.length >= 3 && all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf;
      seen.text = decode(seen.bom ? all.subarray(3) : all, false);
    }
    if (error) seen.error = error;
    try {
      o.onEnd(how, seen);
    } catch {
      /* the observer's failure is not the relay's */
    }
  };
  const feed = (segment: Uint8Array) => {
    if (!parsing) return;
    if (seen.bytes === segment.length && segment[0] === 0xef && segment[1] === 0xbb && segment[2] === 0xbf) seen.bom = true;
    parser.feed(normalize(decode(segment, true)));
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (cut) {
          // The events before the cut were read by the client (erroring at once would discard them): now break.
          controller.error(new Error('the tap dropped the stream (fault injection)'));
          void reader.cancel().catch(() => undefined);
          end('fault');
          return;
        }
        let r: ReadableStreamReadResult<Uint8Array>;
        try {
          r = await reader.read();
        } catch (e) {
          controller.error(e);
          end('error', e instanceof Error ? e.message : String(e));
          return;
        }
        if (r.done) {
          if (o.sse && parsing) parser.feed(normalize(decode(new Uint8Array(0), false)));
          controller.close();
          end('closed');
          return;
        }
        const chunk = r.value;
        if (!o.sse) {
          seen.bytes += chunk.length;
          controller.enqueue(chunk);
          if (keptBytes < o.keepBytes) {
            const part = chunk.subarray(0, o.keepBytes - keptBytes);
            kept.push(part.slice());
            keptBytes += part.length;
          }
          if (seen.bytes > o.keepBytes) seen.truncated = true;
          return;
        }
        for (const segment of splitter.split(chunk)) {
          seen.bytes += segment.length;
          controller.enqueue(segment);
          feed(segment);
          if (o.dropAfter !== undefined && seen.events >= o.dropAfter) {
            cut = true;
            return;
          }
        }
      },
      async cancel(reason) {
        end('client-closed');
        await reader.cancel(reason).catch(() => undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** What a plain body read whole shows (the small-body path: its bytes are all here already). */
export function plainSeen(all: Uint8Array, keepBytes: number): BodySeen {
  const bom = all.length >= 3 && all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf;
  const kept = all.subarray(bom ? 3 : 0, Math.min(all.length, keepBytes));
  let invalidUtf8 = false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(kept);
  } catch {
    invalidUtf8 = true;
    text = new TextDecoder('utf-8').decode(kept);
  }
  return { bytes: all.length, text, truncated: all.length > keepBytes, bom, invalidUtf8, events: 0, ignoredLines: [], ignoredLineCount: 0 };
}
