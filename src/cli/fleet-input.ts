/**
 * The agent list of `a2a-interop run-many <file>`: parsing, the no-literal-secrets rule, and sharding.
 * Pure (no I/O): fleet.ts reads the file and the environment.
 *
 * Accepted files:
 * - text: one URL per line; `#` starts a comment; blank lines are ignored;
 * - JSON: an array (or `{ "agents": [...] }`) of URLs, `{ "url", "name"?, "id"?, "headers"? }` entries, or agents
 *   of the dashboard's registry (src/engine/card/mapper.ts `RegistryAgent`, or its stored form `{ id, agent }`),
 *   whose URL is the card URL they were imported from, else their first http(s) endpoint (as the registry's
 *   "Run conformance" picks it). Headers go in `headers` beside the agent, or in the agent's `local.headers`.
 *
 * Header values reference environment variables (`"Authorization": "Bearer ${AGENT_X_TOKEN}"`); a literal value
 * in a credential header (Authorization, X-API-Key, Cookie, ...) or a credential in a URL refuses the file.
 * OAuth 2.0 client credentials go in `oauth`: `{ "clientId": "...", "clientSecret": "${AGENT_X_SECRET}", "scope"? }`
 * (the secret only as a reference, like header credentials).
 */
import type { Credentials } from '../engine';
import { agentKey } from '../engine/report/compare';
import { Redactor } from '../engine/redact';
import { isRecord } from '../engine/util/json';

export interface FleetAgent {
  /** Stable key: the registry id when there is one, else the agent's URL key (compare.ts agentKey). */
  key: string;
  url: string;
  name?: string;
  /** Header templates, e.g. `{ Authorization: 'Bearer ${TOKEN}' }`; resolved from the environment at run time. */
  headers: Record<string, string>;
  /** OAuth 2.0 client credentials; `clientSecret` is a `${VAR}` reference resolved at run time. */
  oauth?: { clientId: string; clientSecret: string; scope?: string };
}

export interface ParsedFleet {
  agents: FleetAgent[];
  /** Reasons to refuse the file (literal credentials, bad entries): nothing runs when there is one. */
  problems: string[];
  /** Things worth saying that do not stop the run (duplicates dropped). */
  warnings: string[];
}

const ENV_REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
/** A credential header's value: an optional scheme word, then only a reference. */
const REFERENCE_ONLY = /^\s*(?:(?:bearer|basic|token|digest)\s+)?\$\{[A-Za-z_][A-Za-z0-9_]*\}\s*$/i;
const CREDENTIAL_NAME = /(?:^|[-_])(?:auth|authorization|token|key|secret|password|cookie|session)(?:$|[-_])|apikey/i;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

const redactor = new Redactor();
const isCredentialHeader = (name: string) => redactor.isSensitiveHeader(name) || CREDENTIAL_NAME.test(name);

/** A URL with user info or secret-looking query parameters (`?api_key=...`): `Redactor.url` would change it. */
const urlCarriesSecret = (u: string) => {
  try {
    const parsed = new URL(u);
    return redactor.url(u) !== parsed.toString();
  } catch {
    return false;
  }
};

const httpUrl = (u: unknown): string | undefined => {
  if (typeof u !== 'string') return undefined;
  try {
    const p = new URL(u);
    return p.protocol === 'http:' || p.protocol === 'https:' ? p.toString() : undefined;
  } catch {
    return undefined;
  }
};

const PROTOCOL_ORDER: Record<string, number> = { a2a: 0, http: 1, grpc: 2 };

/**
 * Where a registry agent is run: the card URL it was imported from, else its first http(s) endpoint in card
 * order (a2a, http, grpc; by priority). The same rule as the registry page's `runTargetOf`.
 */
export function registryTarget(agent: Record<string, unknown>): string | undefined {
  const source = isRecord(agent.source) ? httpUrl(agent.source.url) : undefined;
  if (source) return source;
  const endpoints = Array.isArray(agent.endpoints) ? agent.endpoints.filter(isRecord) : [];
  const order = (e: Record<string, unknown>) => PROTOCOL_ORDER[String(e.protocol)] ?? 3;
  const prio = (e: Record<string, unknown>) => (typeof e.priority === 'number' ? e.priority : 0);
  return [...endpoints]
    .sort((a, b) => order(a) - order(b) || prio(a) - prio(b))
    .map((e) => httpUrl(e.url))
    .find(Boolean);
}

/** The environment variables a header template names. */
const envRefs = (template: string): string[] => [...template.matchAll(ENV_REF)].map((m) => m[1]!);

/** Parses an agent list (text or JSON). Never throws; `problems` says what is wrong. */
export function parseFleetFile(text: string): ParsedFleet {
  const problems: string[] = [];
  const warnings: string[] = [];
  const raw: { where: string; url?: string; name?: string; id?: string; headers?: unknown; oauth?: unknown }[] = [];
  const trimmed = text.replace(/^\uFEFF/, '').trim();

  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (e) {
      return { agents: [], problems: [`The file looks like JSON but does not parse: ${e instanceof Error ? e.message : String(e)}`], warnings };
    }
    const list = Array.isArray(json) ? json : isRecord(json) && Array.isArray(json.agents) ? json.agents : undefined;
    if (!list) return { agents: [], problems: ['A JSON agent list is an array, or an object with an "agents" array.'], warnings };
    list.forEach((item: unknown, i) => {
      const where = `entry ${i + 1}`;
      if (typeof item === 'string') {
        raw.push({ where, url: item });
        return;
      }
      if (!isRecord(item)) {
        problems.push(`${where}: expected a URL or an object, got ${item === null ? 'null' : typeof item}.`);
        return;
      }
      // The registry's stored form `{ id, agent: RegistryAgent }`, a bare RegistryAgent, or `{ url, ... }`.
      const agent = isRecord(item.agent) ? item.agent : item;
      const local = isRecord(agent.local) ? agent.local : {};
      const url = typeof item.url === 'string' ? item.url : registryTarget(agent);
      const id = typeof agent.id === 'string' ? agent.id : typeof item.id === 'string' ? item.id : undefined;
      const name = typeof agent.name === 'string' ? agent.name : undefined;
      if (!url) problems.push(`${where}${id ? ` (${id})` : ''}: no URL to run (no "url", no source URL and no http(s) endpoint).`);
      else raw.push({ where: id ? `${where} (${id})` : where, url, name, id, headers: item.headers ?? local.headers, oauth: item.oauth ?? local.oauth });
    });
  } else {
    text.split(/\r?\n/).forEach((line, i) => {
      const l = line.replace(/(^|\s)#.*$/, '').trim();
      if (l) raw.push({ where: `line ${i + 1}`, url: l });
    });
  }

  const seen = new Map<string, { where: string; same: string }>();
  const agents: FleetAgent[] = [];
  for (const r of raw) {
    const url = httpUrl(r.url);
    if (!url) {
      problems.push(`${r.where}: not an http(s) URL: ${JSON.stringify(String(r.url).slice(0, 200))}`);
      continue;
    }
    if (urlCarriesSecret(url)) {
      problems.push(
        `${r.where}: the URL carries a credential (user info or a secret query parameter); put it in a header that references an environment variable.`,
      );
      continue;
    }
    const headers: Record<string, string> = {};
    if (r.headers !== undefined) {
      if (!isRecord(r.headers)) {
        problems.push(`${r.where}: "headers" must be an object of "Name": "value" pairs.`);
        continue;
      }
      for (const [name, value] of Object.entries(r.headers)) {
        if (!HEADER_NAME.test(name)) problems.push(`${r.where}: ${JSON.stringify(name.slice(0, 100))} is not a valid header name.`);
        else if (typeof value !== 'string') problems.push(`${r.where}: header ${name} must be a string.`);
        else if (isCredentialHeader(name) && !REFERENCE_ONLY.test(value))
          // Never echo the value: it may be the secret.
          problems.push(`${r.where}: header ${name} has a literal value; credentials must reference an environment variable, e.g. "Bearer \${AGENT_TOKEN}".`);
        else headers[name] = value;
      }
      if (Object.keys(headers).length > 1)
        problems.push(`${r.where}: one header per agent is supported (it carries the credential); got ${Object.keys(headers).join(', ')}.`);
    }
    const oauth = r.oauth === undefined ? undefined : oauthOf(r.oauth, r.where, problems);
    if (oauth && Object.keys(headers).length) problems.push(`${r.where}: give "headers" or "oauth", not both (one credential per agent).`);
    const key = r.id ?? agentKey(url);
    // What makes two entries the same run: the name, the headers and the OAuth client (never the secret's value).
    const same = JSON.stringify([r.name ?? '', headers, oauth ?? null]);
    const dup = seen.get(key);
    if (dup) {
      // The same entry twice runs once; the same URL with another name or credential is two runs the file must tell
      // apart (an "id" each), never one dropped quietly.
      if (dup.same === same) warnings.push(`${r.where}: same agent as ${dup.where} (${key}); run once.`);
      else problems.push(`${r.where}: same URL as ${dup.where} (${key}) with another name or credentials; give each entry its own "id" to run both.`);
      continue;
    }
    seen.set(key, { where: r.where, same });
    agents.push({ key, url, ...(r.name ? { name: r.name } : {}), headers, ...(oauth ? { oauth } : {}) });
  }
  if (!agents.length && !problems.length) problems.push('The file lists no agents.');
  // Sorted by key: the order (and so every shard) does not depend on the file's order.
  agents.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { agents, problems, warnings };
}

/** An entry's `oauth` object, checked: a client id, the secret as a `${VAR}` reference only, an optional scope. */
function oauthOf(o: unknown, where: string, problems: string[]): FleetAgent['oauth'] {
  const ref = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;
  if (!isRecord(o) || typeof o.clientId !== 'string' || !o.clientId.trim()) {
    problems.push(`${where}: "oauth" needs a "clientId" string and a "clientSecret" that references an environment variable.`);
    return undefined;
  }
  if (typeof o.clientSecret !== 'string' || !ref.test(o.clientSecret.trim())) {
    // Never echo the value: it may be the secret.
    problems.push(`${where}: oauth.clientSecret must reference an environment variable, e.g. "\${AGENT_CLIENT_SECRET}" (no literal secrets).`);
    return undefined;
  }
  if (o.scope !== undefined && typeof o.scope !== 'string') problems.push(`${where}: oauth.scope must be a string of space-separated scopes.`);
  const scope = typeof o.scope === 'string' && o.scope.trim() ? o.scope.trim() : undefined;
  return { clientId: o.clientId.trim(), clientSecret: o.clientSecret.trim(), ...(scope ? { scope } : {}) };
}

/** `i/n` (1-based) -> `{ index, total }`, or undefined when malformed. */
export function parseShard(s: string): { index: number; total: number } | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) return undefined;
  const index = Number(m[1]);
  const total = Number(m[2]);
  return total >= 1 && index >= 1 && index <= total ? { index, total } : undefined;
}

/**
 * Shard `index` of `total` (1-based) of the key-sorted list: every `total`-th agent starting at `index - 1`.
 * Deterministic, balanced (sizes differ by at most one), and the shards partition the list.
 */
export const shardOf = <T>(sorted: readonly T[], shard: { index: number; total: number }): T[] => sorted.filter((_, i) => i % shard.total === shard.index - 1);

/**
 * An agent's headers with the environment filled in, as the engine's credentials; or the names of the
 * variables that are not set (the agent is then not run).
 */
export function resolveCredentials(
  agent: FleetAgent,
  env: Record<string, string | undefined>,
): { credentials: Credentials; secrets: string[] } | { missing: string[] } {
  const entries = Object.entries(agent.headers);
  const missing = [...new Set([...entries.map(([, v]) => v), agent.oauth?.clientSecret ?? ''].flatMap((v) => envRefs(v)).filter((n) => !env[n]))];
  if (missing.length) return { missing };
  if (agent.oauth) {
    const secret = agent.oauth.clientSecret.replace(ENV_REF, (_, n: string) => env[n] ?? '');
    const { clientId, scope } = agent.oauth;
    return { credentials: { kind: 'oauth2', clientId, clientSecret: secret, ...(scope ? { scope } : {}) }, secrets: [secret] };
  }
  const [h] = entries;
  if (!h) return { credentials: { kind: 'none' }, secrets: [] };
  const value = h[1].replace(ENV_REF, (_, n: string) => env[n] ?? '');
  const secrets = envRefs(h[1]).map((n) => env[n] ?? '');
  const m = /^bearer\s+(.+)$/i.exec(value);
  if (h[0].toLowerCase() === 'authorization' && m?.[1]) return { credentials: { kind: 'bearer', token: m[1] }, secrets };
  return { credentials: { kind: 'header', name: h[0], value }, secrets };
}
