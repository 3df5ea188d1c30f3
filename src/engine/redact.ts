/**
 * Credential redaction, applied before anything leaves the engine (events, reports, logs, exports).
 * Redaction is by header name, by query-parameter name and by exact secret value (the user's
 * credentials are registered as secrets for the run, so they are caught wherever they appear).
 */
import { SENSITIVE_QUERY_PARAM } from './model/secrets';

export const REDACTED = '[REDACTED]';

const SENSITIVE_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'apikey',
  'cookie',
  'set-cookie',
  'x-auth-token',
  'x-access-token',
]);

const SENSITIVE_QUERY = SENSITIVE_QUERY_PARAM;

export class Redactor {
  private readonly secrets: string[] = [];
  private readonly headerNames = new Set(SENSITIVE_HEADERS);
  private readonly queryNames = new Set<string>();

  /** Registers a secret value (token, API key); it is masked wherever it appears. Values under 4 chars are ignored. */
  addSecret(value: string | undefined): this {
    if (value && value.length >= 4 && !this.secrets.includes(value)) {
      this.secrets.push(value);
      this.secrets.sort((a, b) => b.length - a.length);
      // Bearer tokens also appear without the prefix.
      const m = /^\s*(?:bearer|basic|token)\s+(.+)$/i.exec(value);
      if (m?.[1]) this.addSecret(m[1]);
    }
    return this;
  }

  /** Registers a header name that carries credentials (e.g. the API-key header a card declares). */
  addHeaderName(name: string | undefined): this {
    if (name) this.headerNames.add(name.toLowerCase());
    return this;
  }

  addQueryName(name: string | undefined): this {
    if (name) this.queryNames.add(name.toLowerCase());
    return this;
  }

  isSensitiveHeader(name: string): boolean {
    return this.headerNames.has(name.toLowerCase());
  }

  text(s: string): string {
    let out = s;
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return out;
  }

  headers(h: Record<string, string> | Headers | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    if (!h) return out;
    const entries: [string, string][] = h instanceof Headers ? [...h.entries()] : Object.entries(h);
    for (const [k, v] of entries) {
      out[k.toLowerCase()] = this.isSensitiveHeader(k) ? redactHeaderValue(v) : this.text(v);
    }
    return out;
  }

  url(u: string): string {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      return this.text(u);
    }
    if (parsed.username || parsed.password) {
      parsed.username = parsed.username ? 'REDACTED' : '';
      parsed.password = parsed.password ? 'REDACTED' : '';
    }
    for (const key of [...parsed.searchParams.keys()]) {
      if (SENSITIVE_QUERY.test(key) || this.queryNames.has(key.toLowerCase())) parsed.searchParams.set(key, REDACTED);
    }
    return this.text(parsed.toString());
  }
}

/** Keeps the scheme (`Bearer`) so a reader sees which kind of credential was sent. */
function redactHeaderValue(v: string): string {
  const m = /^(bearer|basic|token|digest)\s+/i.exec(v);
  return m ? `${m[1]} ${REDACTED}` : REDACTED;
}
