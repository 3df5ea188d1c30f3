/**
 * The `npm start` / `npm run serve` server: one node:http server serving the built dashboard (dist/), the
 * demo agents under /demo/<id>, their list at /api/demo-agents, the CORS proxy under /proxy and the gRPC bridge at
 * /grpc-bridge (local mode only: how the dashboard reaches gRPC agents).
 *
 * On 127.0.0.1 (the default) the proxy runs in local mode: any target, loopback and private included,
 * for this origin only. For a team server (`HOST`, `PORT`, `PROXY_MODE=hosted`, `ALLOWED_ORIGINS`; see
 * `serverOptionsFromEnv` and the README's "Self-hosting the dashboard for a team") it applies the hosted
 * policy of the Workers proxy: public unicast targets only, configured origins, a per-client rate limit.
 *
 * @example
 * const s = await startServer({ port: 0, quiet: true });
 * const agents = await (await fetch(`${s.url}/api/demo-agents`)).json();
 * await s.close();
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEMO_AGENTS, type DemoAgentInfo, type MountedDemoAgent } from '../demo-agents';
import { startV1GrpcDemoAgent } from '../demo-agents/v1-agent';
import { mountDemoOrchestrator, serveDemoOrchestrator, type DemoOrchestratorListing } from './demo-orchestrator';
import { createInboxHandler } from '../inbox/handler';
import { createTapHub, type TapHub } from './taps';
import { createNodeInboxMount, type NodeInboxMount } from '../inbox/node';
import { INBOX_DEFAULT_LIMITS, type InboxLimits } from '../inbox/store';
import { createNodeGrpcBridgeMount } from '../grpc/bridge-node';
import { lazyGrpc } from '../grpc/lazy';
import { PROXY_DEFAULT_RATE_LIMIT, type ProxyLimits } from '../proxy/handler';
import { createNodeProxy } from '../proxy/node';
import { addressRange, isLocalhostName, type ProxyMode } from '../proxy/policy';
import { createRateLimiter } from '../proxy/rate-limit';
import { createStaticHandler } from './static';

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

/** One demo agent as /api/demo-agents lists it: the registry entry with absolute URLs. */
export interface DemoAgentListing extends Omit<DemoAgentInfo, 'create'> {
  /** Absolute base URL (`<server>/demo/<id>`). */
  baseUrl: string;
  /** Absolute URL of the public card. */
  cardUrl: string;
  /** Absolute URL of the preferred endpoint. */
  url: string;
}

export type { DemoOrchestratorListing } from './demo-orchestrator';

export interface RunningServer {
  url: string;
  agents: DemoAgentListing[];
  /** The demo orchestrator (agent A of the Tap page's two-agent demo), when the demo agents are served. */
  orchestrator?: DemoOrchestratorListing;
  /** The built-in proxy's policy (undefined when a custom proxy or none is mounted). */
  proxyMode?: ProxyMode;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DIST = resolve(here, '../../dist');

/** True for loopback addresses and `localhost` names: a server only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return isLocalhostName(h) || addressRange(h) === 'loopback';
}

/** Host names the inbox answers to: the server's, and the host of INBOX_PUBLIC_URL (unless hosted answers to any). */
function inboxHosts(mode: ProxyMode, opts: StartServerOptions): string[] {
  const hosts = opts.allowedHosts ?? [];
  if (mode === 'hosted' && hosts.length === 0) return [];
  let pub: string | undefined;
  try {
    pub = opts.inboxPublicUrl ? new URL(opts.inboxPublicUrl).hostname : undefined;
  } catch {
    pub = undefined;
  }
  return pub ? [...hosts, pub] : [...hosts];
}

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const proxyMode: ProxyMode = opts.proxyMode ?? (isLoopbackHost(host) ? 'local' : 'hosted');
  const withDemos = opts.demoAgents ?? proxyMode === 'local';
  const serveStatic = createStaticHandler(opts.distDir ?? DEFAULT_DIST);
  const mounted: MountedDemoAgent[] = [];
  const listing: DemoAgentListing[] = [];
  let orchestrator: DemoOrchestratorListing | undefined;
  let proxy: ProxyMount | undefined;
  let grpcBridge: ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) | undefined;
  // One rate limit per client address for the proxy and the inbox together (hosted default 600 a minute; local off).
  const rate = opts.rateLimitPerMinute ?? (proxyMode === 'hosted' ? PROXY_DEFAULT_RATE_LIMIT.limit : 0);
  const limiter = rate > 0 ? createRateLimiter({ limit: rate, windowMs: 60_000 }) : false;
  const inbox: NodeInboxMount | undefined =
    opts.inbox === false
      ? undefined
      : createNodeInboxMount(
          createInboxHandler({
            publicBaseUrl: opts.inboxPublicUrl,
            // Local mode serves one user on loopback (every address is 127.0.0.1): no per-client cap unless asked.
            limits: {
              ...(proxyMode === 'local' && { maxInboxesPerClient: opts.inboxLimits?.maxInboxes ?? INBOX_DEFAULT_LIMITS.maxInboxes }),
              ...opts.inboxLimits,
            },
            // The proxy's client policy: Host names (DNS rebinding), origins, the shared rate limit.
            // The public inbox name (INBOX_PUBLIC_URL, a tunnel or reverse proxy that keeps its Host) is answered to too.
            access: { mode: proxyMode, allowedOrigins: opts.allowedOrigins ?? [], allowedHosts: inboxHosts(proxyMode, opts), rateLimit: limiter },
          }),
        );

  const taps: TapHub | undefined =
    opts.taps === false
      ? undefined
      : createTapHub({ mode: proxyMode, allowedHosts: opts.allowedHosts ?? [], allowedOrigins: opts.allowedOrigins ?? [], rateLimit: limiter });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://server.invalid');
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad Request');
      return;
    }
    if (url.pathname === '/api/demo-agents') {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { Allow: 'GET, HEAD' }).end();
        return;
      }
      const body = JSON.stringify(listing);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(body) });
      res.end(req.method === 'HEAD' ? undefined : body);
      return;
    }
    if (url.pathname === '/api/demo-orchestrator') return serveDemoOrchestrator(req, res, orchestrator);
    if (taps && (await taps(req, res))) return;
    for (const agent of mounted) if (agent.handle(req, res)) return;
    if (url.pathname === '/demo' || url.pathname.startsWith('/demo/')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'no such demo agent' }));
      return;
    }
    if (inbox && (await inbox(req, res))) return;
    if (grpcBridge && (await grpcBridge(req, res))) return;
    if (proxy && (await proxy(req, res))) return;
    await serveStatic(req, res, url.pathname);
  }

  const server = createServer((req, res) => {
    res.on('error', () => {});
    req.on('error', () => {});
    route(req, res).catch((e: unknown) => {
      if (!opts.quiet) console.error('request failed:', e instanceof Error ? e.message : e);
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Internal Server Error');
      else res.destroy();
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 4173, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  // Every interface: URLs (banner, demo agents' cards) name this machine by its loopback address.
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  const origin = `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`;

  for (const info of withDemos ? DEMO_AGENTS : []) {
    const { create, ...rest } = info;
    const baseUrl = `${origin}${info.path}`;
    const demoOpts = {
      basePath: info.path,
      publicUrl: baseUrl,
      ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
      ...(opts.stepMs !== undefined ? { stepMs: opts.stepMs } : {}),
    };
    // The v1.0 agent also serves gRPC on its own 127.0.0.1 port when asked (its card then declares it).
    const agent = info.id === 'v1' && opts.demoGrpc ? await startV1GrpcDemoAgent(demoOpts) : create(demoOpts);
    mounted.push(agent);
    listing.push({ ...rest, baseUrl, cardUrl: agent.cardUrl, url: agent.url });
  }
  // Agent A of the Tap page's two-agent demo: forwards a message to the agent it is given (loopback only).
  if (withDemos) orchestrator = mountDemoOrchestrator(origin, listing, mounted);

  if (opts.proxy !== false) {
    const pl = opts.proxyLimits ?? {};
    proxy =
      opts.proxy ??
      createNodeProxy({
        mode: proxyMode,
        allowedHosts: proxyMode === 'local' ? ['127.0.0.1', 'localhost', ...(opts.allowedHosts ?? [])] : (opts.allowedHosts ?? []),
        // Local: this origin (and ALLOWED_ORIGINS, e.g. a Vite dev server on :5173, which `npm run dev` does not need:
        // it mounts its own proxy); hosted: the same origin and the configured ones.
        allowedOrigins: proxyMode === 'local' ? [origin, `http://localhost:${port}`, ...(opts.allowedOrigins ?? [])] : (opts.allowedOrigins ?? []),
        rateLimit: limiter,
        limits: {
          ...(pl.maxOpenPerClient !== undefined && { maxOpenPerClient: pl.maxOpenPerClient }),
          ...(pl.maxStreamMs !== undefined && { maxStreamMs: pl.maxStreamMs }),
        },
      });
    // The browser's way to gRPC agents (src/grpc/bridge.ts): local mode only; a hosted server answers that gRPC needs
    // the local server. Same origins and Host names as the local proxy.
    grpcBridge = createNodeGrpcBridgeMount({
      transport: lazyGrpc(),
      mode: proxyMode,
      allowedHosts: ['127.0.0.1', 'localhost', ...(opts.allowedHosts ?? [])],
      allowedOrigins: [origin, `http://localhost:${port}`, ...(opts.allowedOrigins ?? [])],
    });
  }

  if (!opts.quiet) {
    const builtIn = opts.proxy === undefined;
    const lines = [
      '',
      `  a2a-interop dashboard:  ${origin}/${host !== urlHost ? `  (listening on ${host})` : ''}`,
      ...(builtIn
        ? [
            `  proxy: ${proxyMode} mode${proxyMode === 'hosted' ? ' (public targets only)' : ' (any target, loopback and private included)'}${opts.allowedOrigins?.length ? `; allowed origins: ${opts.allowedOrigins.join(', ')}` : ''}`,
          ]
        : []),
      ...(builtIn && proxyMode === 'local' && !isLoopbackHost(host)
        ? ['  warning: local proxy mode on a non-loopback address lets every client of this server reach your private network']
        : []),
      ...(builtIn && proxyMode === 'hosted' && !opts.allowedHosts?.length
        ? [
            '  WARNING: ALLOWED_HOSTS is not set. This hosted server answers to any Host name: any client that reaches it',
            '  (not only a browser on the dashboard) can use its proxy as a relay to public targets, limited per client',
            '  address only. Set ALLOWED_HOSTS to the name(s) the dashboard is served under. /proxy/health says the same.',
          ]
        : []),
      '',
      ...(listing.length
        ? [
            '  Demo agents (paste a card URL into the dashboard):',
            ...listing.map((a) => `    ${a.id.padEnd(7)} ${a.cardUrl}\n            ${a.label}; expected: ${a.expectedLevel}`),
            '',
            `  CLI example:  npm run cli -- run ${listing[0]?.baseUrl ?? `${origin}/demo/v1`}`,
            '',
          ]
        : []),
    ];
    console.log(lines.join('\n'));
  }

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    agents: listing,
    ...(orchestrator ? { orchestrator } : {}),
    proxyMode: opts.proxy === undefined ? proxyMode : undefined,
    close() {
      closing ??= (async () => {
        taps?.close();
        await Promise.all(mounted.map((a) => a.close().catch(() => {})));
        proxy?.close?.();
        await new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
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

/** Entry point for `npm start` / `npm run serve`. */
async function main(): Promise<void> {
  let options: ReturnType<typeof serverOptionsFromEnv>;
  try {
    options = serverOptionsFromEnv(process.env);
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(2);
  }
  const s = await startServer(options);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n  ${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 5000);
    force.unref();
    void s.close().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
