import type { TransportError } from '../model/events';
import type { HttpContext } from './context';
import { abortPromise, classifyFetchError, type Deadline } from './transport-errors';

/** What reading a body gives: its text and how it arrived. */
export interface BodyRead {
  text: string;
  /** The body started with a UTF-8 byte order mark. */
  bom: boolean;
  /** The body was not valid UTF-8 (decoded with replacement characters). */
  invalidUtf8: boolean;
  /** Bytes received (also those past the limit, up to the chunk that crossed it). */
  bytes: number;
  truncated: boolean;
  error?: TransportError;
}

/** UTF-8 text of `bytes`, noting a byte order mark and invalid sequences (decoded with replacement characters). */
export function decode(bytes: Uint8Array): { text: string; bom: boolean; invalidUtf8: boolean } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), bom, invalidUtf8: false };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), bom, invalidUtf8: true };
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    const n = Math.min(c.byteLength, size - off);
    out.set(c.subarray(0, n), off);
    off += n;
    if (off >= size) break;
  }
  return out;
}

/** Reads at most `max` bytes of a body, bounded by the deadline; never throws. */
export async function readBody(ctx: HttpContext, res: Response, max: number, dl: Deadline): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  let error: TransportError | undefined;
  if (res.body) {
    const reader = res.body.getReader();
    const aborted = abortPromise(dl.signal);
    try {
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), aborted]);
        if (done) break;
        const room = max - total;
        if (value.byteLength > room) {
          if (room > 0) chunks.push(value.subarray(0, room));
          total += value.byteLength;
          truncated = true;
          break;
        }
        chunks.push(value);
        total += value.byteLength;
      }
    } catch (e) {
      error = classifyFetchError(e, dl, ctx, 'body');
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }
  return { ...decode(concat(chunks, Math.min(total, max))), bytes: total, truncated, error };
}
