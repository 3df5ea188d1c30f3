/**
 * The CLI's flags read into values, each refused with a usage error (exit 2) that says what is wrong: credentials
 * (--header, --bearer, --api-key, OAuth), --fail-on, --task-timeout, --only, --min-level, --jwks, --webhook-*.
 */
import { readFileSync } from 'node:fs';
import type { ConformanceLevel, Credentials } from '../engine';
import { unknownCheckIds } from '../engine/checks';
import { isFailOn, type FailOn } from './gate';
import { parseHeader, splitCliHeaders } from './headers';
import type { CliIo } from './io';
import { oauthFrom, type OAuthFlags } from './oauth';

/** A wrong command line: main prints it with the usage and exits 2. */
export class UsageError extends Error {}

const LEVELS: ConformanceLevel[] = ['full', 'partial', 'minimal', 'non-conformant'];

/** --header values: the credential among them and the extra headers (src/cli/headers.ts), or a usage error. */
export function headersFrom(header: readonly string[] | undefined): Exclude<ReturnType<typeof splitCliHeaders>, string> {
  const parsed = (header ?? []).map((h) => {
    const p = parseHeader(h);
    if (typeof p === 'string') throw new UsageError(p);
    return p;
  });
  const split = splitCliHeaders(parsed);
  if (typeof split === 'string') throw new UsageError(split);
  return split;
}

export function credentialsFrom(v: { header?: string[]; bearer?: string; 'api-key'?: string } & OAuthFlags, env: CliIo['env']): Credentials {
  const bearer = v.bearer ?? env.A2A_INTEROP_BEARER;
  const apiKey = v['api-key'] ?? env.A2A_INTEROP_API_KEY;
  const headers = headersFrom(v.header);
  const oauth = oauthFrom(v, env);
  if (typeof oauth === 'string') throw new UsageError(oauth);
  const kinds = [bearer && 'bearer', apiKey && 'api-key', headers.credentials.kind !== 'none' && 'header', oauth && 'oauth2'].filter(Boolean);
  if (kinds.length > 1) throw new UsageError(`Give one kind of credentials (got ${kinds.join(', ')})`);
  if (oauth) return oauth;
  if (bearer) return { kind: 'bearer', token: bearer };
  if (apiKey) return { kind: 'api-key', value: apiKey };
  return headers.credentials;
}

/** --fail-on: level (default), regression (needs --baseline) or never. */
export function failOnOf(s: string | undefined, haveBaseline: boolean, baseline = '--baseline FILE (a previous JSON report to compare with)'): FailOn {
  const f = s ?? 'level';
  if (!isFailOn(f)) throw new UsageError('--fail-on must be level, regression or never');
  if (f === 'regression' && !haveBaseline) throw new UsageError(`--fail-on regression needs ${baseline}`);
  return f;
}

export const cleanCategoryOk = (s: string) => s.trim().replace(/\/+$/, '').length > 0;

/** --task-timeout (the procedure's per-task timeout; --timeout is its older name): seconds. */
export function taskTimeoutOf(v: { timeout?: string; 'task-timeout'?: string }): number {
  if (v.timeout !== undefined && v['task-timeout'] !== undefined) throw new UsageError('Give --task-timeout or --timeout (its older name), not both');
  return v['task-timeout'] !== undefined ? secondsOf(v['task-timeout'], 60, '--task-timeout') : secondsOf(v.timeout, 60, '--timeout');
}

/** --only ids must name checks: an unknown id is a usage error with suggestions, never a run of nothing. */
export function checkOnly(only: readonly string[] | undefined): void {
  const unknown = unknownCheckIds(only ?? []);
  if (!unknown.length) return;
  throw new UsageError(
    unknown
      .map((u) => `--only: no check "${u.id}".${u.suggestions.length ? ` Did you mean: ${u.suggestions.join(', ')}?` : ''}`)
      .concat('List them with a2a-interop checks.')
      .join('\n'),
  );
}

export function minLevelOf(s: string | undefined): ConformanceLevel {
  const minLevel = (s ?? 'minimal') as ConformanceLevel;
  if (!LEVELS.includes(minLevel) || minLevel === 'non-conformant') throw new UsageError('--min-level must be full, partial or minimal');
  return minLevel;
}

export function secondsOf(s: string | undefined, fallback: number, flag: string, max = 3600): number {
  const n = s === undefined ? fallback : Number(s);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`${flag} must be a number of seconds between 0 and ${max}`);
  return n;
}

/** The --jwks file, parsed: a JSON Web Key Set (`{ "keys": [...] }`) of public keys. */
export function readJwks(path: string, io: CliIo): unknown {
  let text: string;
  try {
    text = (io.readFile ?? ((p: string) => readFileSync(p, 'utf8')))(path);
  } catch (e) {
    throw new UsageError(`--jwks: cannot read ${path} (${e instanceof Error ? e.message : String(e)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UsageError(`--jwks: ${path} is not JSON`);
  }
  const keys = typeof value === 'object' && value !== null && 'keys' in value ? value.keys : undefined;
  if (!Array.isArray(keys) || keys.length === 0) throw new UsageError(`--jwks: ${path} is not a JWKS (a JSON object with a non-empty "keys" list)`);
  if (keys.some((k) => typeof k === 'object' && k !== null && 'd' in k))
    throw new UsageError(`--jwks: ${path} holds a private key ("d"); give the public keys only`);
  return value;
}

export type ParsedValues = Parameters<typeof credentialsFrom>[0] & {
  format?: string[];
  'out-dir'?: string;
  'baseline-dir'?: string;
  concurrency?: string;
  shard?: string;
  deadline?: string;
  timeout?: string;
  'task-timeout'?: string;
  only?: string[];
  'min-level'?: string;
  'fail-on'?: string;
  quiet?: boolean;
};

/** --webhook-url (an absolute http(s) URL) and --webhook-port (1-65535). */
export function webhookOf(url: string | undefined, port: string | undefined): { publicUrl?: string; port?: number } {
  const out: { publicUrl?: string; port?: number } = {};
  if (url !== undefined) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new UsageError(`--webhook-url is not a URL: ${JSON.stringify(url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new UsageError('--webhook-url must be an http(s) URL');
    if (u.search || u.hash || u.username || u.password) throw new UsageError('--webhook-url takes no query, fragment or credentials');
    out.publicUrl = u.toString();
  }
  if (port !== undefined) {
    const n = Number(port);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new UsageError('--webhook-port must be a port number from 1 to 65535');
    out.port = n;
  }
  return out;
}
