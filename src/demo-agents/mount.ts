/** Mounting demo agents under a path prefix of a shared node:http server. */
import express, { type Router } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface DemoAgentOptions {
  /** Path prefix on the shared server, e.g. `/demo/v1`. */
  basePath: string;
  /** Absolute URL of basePath as clients reach it, e.g. `http://127.0.0.1:4173/demo/v1`. */
  publicUrl: string;
  /** Slow skill duration (default 1500 ms). */
  slowTaskMs?: number;
  /** Quick step (artifact chunk, input-required, failure) pacing (default 50 ms). */
  stepMs?: number;
}

export interface MountedDemoAgent {
  /** Handles the request when its path is under the agent's basePath; returns false otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  /** Preferred endpoint URL (JSON-RPC). */
  url: string;
  cardUrl: string;
  close(): Promise<void>;
}

export const trimSlash = (s: string) => s.replace(/\/+$/, '');

function underBase(basePath: string, rawUrl: string | undefined): boolean {
  const path = (rawUrl ?? '/').split('?')[0] ?? '/';
  return path === basePath || path.startsWith(`${basePath}/`);
}

/** Wraps an express router mounted at basePath as a `(req, res) => boolean` handler. */
export function mountExpress(basePath: string, router: Router, urls: { url: string; cardUrl: string }): MountedDemoAgent {
  const app = express();
  app.disable('x-powered-by');
  app.use(basePath, router);
  // Unknown paths under the agent: a plain 404 (express' default would be HTML).
  app.use((_req, res) => {
    res.status(404).json({ error: 'not found' });
  });
  return {
    handle(req, res) {
      if (!underBase(basePath, req.url)) return false;
      app(req as express.Request, res as express.Response);
      return true;
    },
    ...urls,
    async close() {},
  };
}
