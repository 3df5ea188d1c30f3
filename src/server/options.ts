/**
 * The server's settings: what startServer takes (StartServerOptions) and how `npm start` / `npm run serve` read them
 * from the environment (serverOptionsFromEnv, refusing a value it cannot use with ServerConfigError).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { InboxLimits } from '../inbox/store';
import type { ProxyLimits } from '../proxy/handler';
import type { ProxyMode } from '../proxy/policy';

export type ProxyMount = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { close?: () => void };

export interface StartServerOptions {
  /** Default 4173 (env PORT overrides in main); 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. `0.0.0.0` or `::` listen on every interface. */
  host?: string;
  /** Built SPA directory; default <repo>/dist. */
  distDir?: string;
  /** No startup banner. */
  quiet?: boolean;
  /**
   * The CORS proxy to mount at /proxy: default createNodeProxy({ mode: 'local', ... }); `false` mounts none;
   * a function replaces it (tests).
   */
  proxy?: ProxyMount | false;
  /**
   * The built-in proxy's policy: `local` (any target; only this origin, loopback Host names and
   * `allowedHosts`) or `hosted` (public unicast targets only, like the Workers proxy). Default: local when
   * `host` is a loopback address or name, hosted otherwise.
   */
  proxyMode?: ProxyMode;
  /** Dashboard origins allowed to use the proxy cross-origin (exact `scheme://host[:port]`). */
  allowedOrigins?: string[];
  /** Host names the proxy answers to (`.example.com` matches subdomains); local mode always allows loopback names. */
  allowedHosts?: string[];
  /** Proxy requests per client per minute; 0 turns the limit off. Default: 600 when hosted, off when local. */
  rateLimitPerMinute?: number;
  /** Mount the demo agents. Default: on in local mode; off in hosted mode (its proxy cannot reach loopback). */
  demoAgents?: boolean;
  /**
   * The push webhook inbox at /inbox (the dashboard's Host.inbox): on by default. Its addresses are given under
   * `inboxPublicUrl` (env INBOX_PUBLIC_URL, e.g. the team server's public https origin), else the origin the
   * dashboard's request came to. The inbox only receives; it never makes a request, so it is no relay.
   */
  inbox?: boolean;
  inboxPublicUrl?: string;
  /** The inbox's budgets (env INBOX_MAX_TOTAL_BYTES, INBOX_MAX_BOX_BYTES, INBOX_MAX_INBOXES, INBOX_MAX_PER_CLIENT). */
  inboxLimits?: Partial<InboxLimits>;
  /**
   * The proxy's per-client and per-stream budgets (env PROXY_MAX_OPEN_PER_CLIENT, PROXY_MAX_STREAM_SECONDS); hosted
   * defaults 32 open requests per client and 15 minutes per stream, local defaults none.
   */
  proxyLimits?: Partial<Pick<ProxyLimits, 'maxOpenPerClient' | 'maxStreamMs'>>;
  /** Demo agents' slow-task duration and step pacing (defaults 1500 / 50 ms). */
  slowTaskMs?: number;
  stepMs?: number;
  /** The v1.0 demo agent also serves gRPC (on an ephemeral 127.0.0.1 port; env DEMO_GRPC=1). Default off. */
  demoGrpc?: boolean;
  /**
   * Conversation taps (`/api/taps`, `/tap/<id>/…`, src/server/taps.ts): on by default; a hosted server runs them only
   * with `allowedHosts` (ALLOWED_HOSTS), reaching public addresses only.
   */
  taps?: boolean;
}

export class ServerConfigError extends Error {}

const listOf = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/**
 * The server's settings from the environment (`npm start`, `npm run serve`, a systemd unit):
 * HOST, PORT, PROXY_MODE=local|hosted, ALLOWED_ORIGINS and ALLOWED_HOSTS (comma-separated),
 * RATE_LIMIT_PER_MINUTE (0 = off), DEMO_AGENTS=0|1, DEMO_GRPC=1 (the v1.0 demo agent also serves gRPC), the inbox's
 * budgets (INBOX_MAX_TOTAL_BYTES, INBOX_MAX_BOX_BYTES, INBOX_MAX_INBOXES, INBOX_MAX_PER_CLIENT) and the proxy's
 * (PROXY_MAX_OPEN_PER_CLIENT, PROXY_MAX_STREAM_SECONDS; 0 = no limit). Throws ServerConfigError on a value it cannot use.
 */
export function serverOptionsFromEnv(env: Record<string, string | undefined>): StartServerOptions & { port: number; host: string } {
  const host = env.HOST?.trim() || '127.0.0.1';
  const port = env.PORT?.trim() ? Number(env.PORT) : 4173;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServerConfigError(`PORT must be a port number (0-65535), got ${JSON.stringify(env.PORT)}`);
  const mode = env.PROXY_MODE?.trim().toLowerCase();
  if (mode && mode !== 'local' && mode !== 'hosted') throw new ServerConfigError(`PROXY_MODE must be local or hosted, got ${JSON.stringify(env.PROXY_MODE)}`);
  const allowedOrigins = listOf(env.ALLOWED_ORIGINS);
  for (const o of allowedOrigins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(o);
    } catch {
      /* reported below */
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.origin !== o) {
      const hint = parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? ` (did you mean ${parsed.origin}?)` : '';
      throw new ServerConfigError(`ALLOWED_ORIGINS entries are origins, scheme://host[:port] without a path: ${JSON.stringify(o)}${hint}`);
    }
  }
  const allowedHosts = listOf(env.ALLOWED_HOSTS);
  const badHost = allowedHosts.find((h) => !/^\.?[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(h));
  if (badHost !== undefined) throw new ServerConfigError(`ALLOWED_HOSTS entries are host names without scheme or port: ${JSON.stringify(badHost)}`);
  let rateLimitPerMinute: number | undefined;
  if (env.RATE_LIMIT_PER_MINUTE?.trim()) {
    rateLimitPerMinute = Number(env.RATE_LIMIT_PER_MINUTE);
    if (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 0)
      throw new ServerConfigError(`RATE_LIMIT_PER_MINUTE must be a whole number (0 = no limit), got ${JSON.stringify(env.RATE_LIMIT_PER_MINUTE)}`);
  }
  const whole = (name: string, bytes = false): number | undefined => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    const m = (bytes ? /^(\d{1,15})\s*([kmg]i?b?)?$/i : /^(\d{1,15})$/).exec(raw);
    if (!m) throw new ServerConfigError(`${name} must be a whole number${bytes ? ' of bytes (suffixes K, M, G: 32M)' : ''}, got ${JSON.stringify(env[name])}`);
    const unit = (m[2] ?? '').charAt(0).toLowerCase();
    return Number(m[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1);
  };
  const inboxLimits: Partial<InboxLimits> = {};
  const setLimit = <K extends keyof InboxLimits>(k: K, name: string, bytes = false, min = 1) => {
    const v = whole(name, bytes);
    if (v === undefined) return;
    if (v < min) throw new ServerConfigError(`${name} must be at least ${min}${bytes ? ' bytes' : ''}, got ${JSON.stringify(env[name])}`);
    inboxLimits[k] = v;
  };
  setLimit('maxTotalBytes', 'INBOX_MAX_TOTAL_BYTES', true, 64 * 1024);
  setLimit('maxBoxBytes', 'INBOX_MAX_BOX_BYTES', true, 64 * 1024);
  setLimit('maxInboxes', 'INBOX_MAX_INBOXES');
  setLimit('maxInboxesPerClient', 'INBOX_MAX_PER_CLIENT');
  const maxOpen = whole('PROXY_MAX_OPEN_PER_CLIENT');
  const maxStreamSeconds = whole('PROXY_MAX_STREAM_SECONDS');
  const proxyLimits = {
    ...(maxOpen !== undefined && { maxOpenPerClient: maxOpen }),
    ...(maxStreamSeconds !== undefined && { maxStreamMs: maxStreamSeconds * 1000 }),
  };
  const inboxPublicUrl = env.INBOX_PUBLIC_URL?.trim();
  if (inboxPublicUrl && !/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(inboxPublicUrl))
    throw new ServerConfigError(`INBOX_PUBLIC_URL must be an http(s) URL without query, got ${JSON.stringify(env.INBOX_PUBLIC_URL)}`);
  let demoAgents: boolean | undefined;
  const demos = env.DEMO_AGENTS?.trim().toLowerCase();
  if (demos) {
    if (['1', 'true', 'yes', 'on'].includes(demos)) demoAgents = true;
    else if (['0', 'false', 'no', 'off'].includes(demos)) demoAgents = false;
    else throw new ServerConfigError(`DEMO_AGENTS must be 1 or 0, got ${JSON.stringify(env.DEMO_AGENTS)}`);
  }
  return {
    host,
    port,
    ...(mode ? { proxyMode: mode as ProxyMode } : {}),
    ...(allowedOrigins.length ? { allowedOrigins } : {}),
    ...(allowedHosts.length ? { allowedHosts } : {}),
    ...(rateLimitPerMinute !== undefined ? { rateLimitPerMinute } : {}),
    ...(demoAgents !== undefined ? { demoAgents } : {}),
    ...(['1', 'true', 'yes', 'on'].includes(env.DEMO_GRPC?.trim().toLowerCase() ?? '') ? { demoGrpc: true } : {}),
    ...(inboxPublicUrl ? { inboxPublicUrl } : {}),
    ...(Object.keys(inboxLimits).length ? { inboxLimits } : {}),
    ...(Object.keys(proxyLimits).length ? { proxyLimits } : {}),
  };
}
