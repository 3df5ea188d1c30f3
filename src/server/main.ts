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
import { INBOX_DEFAULT_LIMITS } from '../inbox/store';
import { createNodeGrpcBridgeMount } from '../grpc/bridge-node';
import { lazyGrpc } from '../grpc/lazy';
import { PROXY_DEFAULT_RATE_LIMIT } from '../proxy/handler';
import { createNodeProxy } from '../proxy/node';
import { addressRange, isLocalhostName, type ProxyMode } from '../proxy/policy';
import { createRateLimiter } from '../proxy/rate-limit';
import { createStaticHandler } from './static';
import { serverOptionsFromEnv, type ProxyMount, type StartServerOptions } from './options';

export { ServerConfigError, serverOptionsFromEnv } from './options';

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
