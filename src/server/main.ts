/**
 * The `npm start` server: one node:http server on 127.0.0.1 serving the built dashboard (dist/), the demo
 * agents under /demo/<id>, their list at /api/demo-agents, and the local CORS proxy under /proxy.
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
import { createNodeProxy } from '../proxy/node';
import { createStaticHandler } from './static';

export type ProxyMount = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { close?: () => void };

export interface StartServerOptions {
  /** Default 4173 (env PORT overrides in main); 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
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
  /** Demo agents' slow-task duration and step pacing (defaults 1500 / 50 ms). */
  slowTaskMs?: number;
  stepMs?: number;
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

export interface RunningServer {
  url: string;
  agents: DemoAgentListing[];
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
const DEFAULT_DIST = resolve(here, '../../dist');

export async function startServer(opts: StartServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const serveStatic = createStaticHandler(opts.distDir ?? DEFAULT_DIST);
  const mounted: MountedDemoAgent[] = [];
  let listing: DemoAgentListing[] = [];
  let proxy: ProxyMount | undefined;

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
    for (const agent of mounted) if (agent.handle(req, res)) return;
    if (url.pathname === '/demo' || url.pathname.startsWith('/demo/')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'no such demo agent' }));
      return;
    }
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
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  for (const info of DEMO_AGENTS) {
    const { create, ...rest } = info;
    const baseUrl = `${origin}${info.path}`;
    const agent = create({
      basePath: info.path,
      publicUrl: baseUrl,
      ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
      ...(opts.stepMs !== undefined ? { stepMs: opts.stepMs } : {}),
    });
    mounted.push(agent);
    listing.push({ ...rest, baseUrl, cardUrl: agent.cardUrl, url: agent.url });
  }

  if (opts.proxy !== false) {
    proxy =
      opts.proxy ??
      createNodeProxy({
        mode: 'local',
        allowedHosts: ['127.0.0.1', 'localhost'],
        allowedOrigins: [origin, `http://localhost:${port}`, 'http://127.0.0.1:5173', 'http://localhost:5173'],
      });
  }

  if (!opts.quiet) {
    const lines = [
      '',
      `  a2a-interop dashboard:  ${origin}/`,
      '',
      '  Demo agents (paste a card URL into the dashboard):',
      ...listing.map((a) => `    ${a.id.padEnd(7)} ${a.cardUrl}\n            ${a.label}; expected: ${a.expectedLevel}`),
      '',
      `  CLI example:  npx a2a-interop run ${listing[0]?.baseUrl ?? `${origin}/demo/v1`}`,
      '',
    ];
    console.log(lines.join('\n'));
  }

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    agents: listing,
    close() {
      closing ??= (async () => {
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
  const port = process.env.PORT ? Number(process.env.PORT) : 4173;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a port number, got ${process.env.PORT}`);
    process.exit(2);
  }
  const s = await startServer({ port });
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
