/** JSON helpers that never throw on hostile input (deep nesting, huge strings, cycles). */

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

export function safeJsonParse(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

export interface BoundOptions {
  maxDepth?: number;
  maxNodes?: number;
  maxString?: number;
  maxKeys?: number;
}

/**
 * A copy of `value` that is safe to store, serialize and render: depth, node count and string
 * lengths are capped; cut parts are replaced by a marker string. Iterative, so 100,000-deep input
 * cannot overflow the stack.
 */
export function boundedClone(value: unknown, opts: BoundOptions = {}): unknown {
  const maxDepth = opts.maxDepth ?? 32;
  const maxNodes = opts.maxNodes ?? 5000;
  const maxString = opts.maxString ?? 4000;
  const maxKeys = opts.maxKeys ?? 500;
  let nodes = 0;
  const clip = (s: string) => (s.length > maxString ? `${s.slice(0, maxString)}… [${s.length - maxString} more chars]` : s);

  const root: { v: unknown } = { v: undefined };
  type Job = { src: unknown; depth: number; set: (v: unknown) => void };
  const stack: Job[] = [{ src: value, depth: 0, set: (v) => (root.v = v) }];
  while (stack.length) {
    const { src, depth, set } = stack.pop()!;
    nodes++;
    if (typeof src === 'string') {
      set(clip(src));
      continue;
    }
    if (src === null || typeof src !== 'object') {
      set(typeof src === 'bigint' ? String(src) : src);
      continue;
    }
    if (depth >= maxDepth) {
      set('[nested too deep: cut]');
      continue;
    }
    if (nodes > maxNodes) {
      set('[too large: cut]');
      continue;
    }
    if (Array.isArray(src)) {
      const out: unknown[] = [];
      set(out);
      const n = Math.min(src.length, maxKeys);
      for (let i = 0; i < n; i++) out.push(undefined);
      // Pushed last-first, so the first items are visited (and get the node budget) first.
      for (let i = n - 1; i >= 0; i--) stack.push({ src: src[i], depth: depth + 1, set: (v) => (out[i] = v) });
      if (src.length > n) out.push(`[${src.length - n} more items cut]`);
      continue;
    }
    const out: Record<string, unknown> = {};
    set(out);
    const keys = Object.keys(src);
    const n = Math.min(keys.length, maxKeys);
    // Keys are created in the source's order (the card is shown in its own field order), then filled; jobs are
    // pushed last-first so the first fields are visited (and get the node budget) first.
    for (let i = 0; i < n; i++) out[clip(keys[i]!)] = undefined;
    for (let i = n - 1; i >= 0; i--) {
      const k = keys[i]!;
      stack.push({ src: (src as Record<string, unknown>)[k], depth: depth + 1, set: (v) => (out[clip(k)] = v) });
    }
    if (keys.length > n) out['…'] = `[${keys.length - n} more keys cut]`;
  }
  return root.v;
}

/** JSON.stringify that never throws (deep/cyclic input is bounded first) and caps the output length. */
export function stringifyBounded(value: unknown, maxLength = 2000, indent?: number): string {
  let s: string;
  try {
    s = JSON.stringify(boundedClone(value), null, indent) ?? String(value);
  } catch (e) {
    s = `[unserializable: ${e instanceof Error ? e.message : String(e)}]`;
  }
  return truncate(s, maxLength);
}

export function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max)}… [${s.length - max} more chars]` : s;
}

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
