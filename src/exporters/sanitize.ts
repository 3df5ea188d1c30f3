import { REDACTED, Redactor } from '../engine/redact';

/**
 * Defense in depth for exports. The engine redacts what it records, but a report may come from an older
 * version, another tool or a hand-edited file, so every export passes through here before printing:
 *
 * 1. Header maps: values of credential headers (Authorization, X-API-Key, Cookie, ...: `Redactor`'s list)
 *    are masked wherever such a key appears, keeping the scheme (`Bearer [REDACTED]`).
 * 2. Text: URLs get their secret-looking query parameters and user info masked (`Redactor.url`);
 *    `Bearer <token>` and `authorization: ...` / `api_key=...` pairs are masked.
 * 3. Every secret value found by 1 and 2 (8 characters or more) is then masked wherever else it appears,
 *    e.g. a token echoed in a check message or a log line (`Redactor.text`).
 *
 * The same walk makes any value JSON-safe (for the raw-JSON fallback of unknown input): cycles, depth,
 * `bigint`, `toJSON`, throwing getters and non-finite numbers are handled, so `JSON.stringify` of the
 * result cannot throw or overflow the stack.
 */

/** Depth beyond which content is cut (reports are ~10 levels deep; agent cards a little more). */
export const MAX_DEPTH = 100;
export const CUT_DEEP = '[nested too deep: cut]';
export const CUT_CYCLE = '[circular reference: cut]';

/** Shortest discovered value treated as a secret everywhere (shorter ones would mask ordinary words). */
const MIN_SECRET = 8;

// Key names (JSON keys, `name=value` pairs) that carry secrets besides the credential headers.
const SECRET_KEY =
  /^(?:api[-_]?key|x[-_]api[-_]key|access[-_]?token|refresh[-_]?token|id[-_]?token|auth[-_]?token|token|client[-_]?secret|secret|password|passwd)$/i;
const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`\\]+/gi;
const BEARER = /\b(bearer)(\s+)([A-Za-z0-9\-._~+/]+=*)/gi;
// name, separator (`: `, `=`, `": "`), value (an optional auth scheme, then one token).
const PAIR = /\b([A-Za-z][A-Za-z0-9_-]*)(["']?[ \t]*[:=][ \t]*["']?)((?:(?:bearer|basic|token|digest)[ \t]+)?[^\s"',;&<>]+)/gi;

const looksSecret = (v: string) => v.length >= MIN_SECRET || /\d/.test(v);

export class ExportScrubber {
  private readonly redactor = new Redactor();
  private readonly secrets = new Set<string>();

  /** Registers a value to mask everywhere (the engine's run secrets, when the caller knows them). */
  addSecret(value: string): this {
    const v = value.trim();
    // `REDACTED` (Redactor.url's user-info mask) and `[REDACTED]` are our own marks, not secrets.
    if (v.length >= MIN_SECRET && !v.includes('REDACTED') && !this.secrets.has(v)) {
      this.secrets.add(v);
      this.redactor.addSecret(v);
    }
    return this;
  }

  get discovered(): number {
    return this.secrets.size;
  }

  isSecretKey(key: string): boolean {
    return this.redactor.isSensitiveHeader(key) || SECRET_KEY.test(key);
  }

  /** The masked value of a credential header or secret field; remembers the secret. */
  secretValue(key: string, value: string): string {
    if (value.includes('REDACTED') || value === '') return value;
    if (!this.redactor.isSensitiveHeader(key) && !looksSecret(value)) return value;
    this.addSecret(value.replace(/^\s*(?:bearer|basic|token|digest)\s+/i, ''));
    // Redactor.headers keeps the scheme (`Bearer [REDACTED]`) for credential headers.
    return this.redactor.isSensitiveHeader(key) ? (this.redactor.headers({ [key]: value })[key.toLowerCase()] ?? REDACTED) : REDACTED;
  }

  /** Rules 2 (and 3 for secrets already known). */
  text(s: string): string {
    let out = s;
    if (out.includes('://')) out = out.replace(URL_IN_TEXT, (u) => this.url(u));
    if (/bearer/i.test(out)) {
      out = out.replace(BEARER, (m, scheme: string, space: string, token: string) => {
        if (!(token.length >= 20 || (token.length >= MIN_SECRET && /\d/.test(token)))) return m;
        this.addSecret(token);
        return `${scheme}${space}${REDACTED}`;
      });
    }
    if (/[:=]/.test(out)) {
      out = out.replace(PAIR, (m, name: string, sep: string, value: string) => (this.isSecretKey(name) ? `${name}${sep}${this.secretValue(name, value)}` : m));
    }
    return this.secrets.size ? this.redactor.text(out) : out;
  }

  private url(u: string): string {
    const masked = this.redactor.url(u);
    let before: URL;
    let after: URL;
    try {
      before = new URL(u);
      after = new URL(masked);
    } catch {
      return masked;
    }
    let changed = false;
    for (const [key, value] of before.searchParams) {
      if (after.searchParams.get(key) === REDACTED && value !== REDACTED) {
        changed = true;
        this.addSecret(value);
      }
    }
    if (before.password) this.addSecret(before.password);
    changed ||= before.username !== after.username || before.password !== after.password;
    // Leave URLs without secrets exactly as written (URL parsing would normalize them).
    return changed ? masked : u;
  }
}

/**
 * A JSON-safe copy of `value` with credentials masked (rules 1–3 above). Never throws.
 * Values JSON cannot hold follow `JSON.stringify` (undefined and functions dropped, NaN → null);
 * `bigint` becomes a string; cycles and content deeper than `MAX_DEPTH` become marker strings.
 */
export function scrubForExport<T>(value: T, scrubber = new ExportScrubber()): T {
  const first = walk(value, scrubber);
  // Secrets found late in the walk may also appear earlier: one more pass masks them everywhere.
  return (scrubber.discovered ? walk(first, scrubber) : first) as T;
}

function walk(root: unknown, scrubber: ExportScrubber): unknown {
  const ancestors = new Set<object>();
  const visit = (v: unknown, depth: number, key?: string): unknown => {
    switch (typeof v) {
      case 'string':
        return key !== undefined && scrubber.isSecretKey(key) ? scrubber.text(scrubber.secretValue(key, v)) : scrubber.text(v);
      case 'number':
        return Number.isFinite(v) ? v : null;
      case 'boolean':
        return v;
      case 'bigint':
        return v.toString();
      case 'undefined':
      case 'function':
      case 'symbol':
        return undefined;
    }
    if (v === null) return null;
    const obj = v as object;
    if (depth >= MAX_DEPTH) return CUT_DEEP;
    if (ancestors.has(obj)) return CUT_CYCLE;
    ancestors.add(obj);
    try {
      const toJSON = (obj as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return visit(toJSON.call(obj) as unknown, depth + 1);
      if (Array.isArray(obj)) {
        const out: unknown[] = new Array<unknown>(obj.length);
        for (let i = 0; i < obj.length; i++) out[i] = visit(read(obj, i), depth + 1) ?? null;
        return out;
      }
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(obj)) {
        const item = visit(read(obj, k), depth + 1, k);
        if (item !== undefined) out[k] = item;
      }
      return out;
    } catch (e) {
      return `[unreadable: ${e instanceof Error ? e.message : String(e)}]`;
    } finally {
      ancestors.delete(obj);
    }
  };
  return visit(root, 0);
}

function read(obj: object, key: string | number): unknown {
  try {
    return (obj as Record<string | number, unknown>)[key];
  } catch (e) {
    return `[unreadable: ${e instanceof Error ? e.message : String(e)}]`;
  }
}
