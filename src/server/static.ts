/**
 * Serves the built SPA from dist/: exact files with their content types, long cache for hashed assets,
 * SPA fallback to index.html for non-asset paths, and no way out of the directory.
 */
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
};

/**
 * The dashboard's Content-Security-Policy: scripts and frames only from this origin (no inline script, no
 * eval, no plugins, never framed; styles may be inline: React and the charts set style attributes), images and media
 * also from data:/blob: (artifacts, downloads). `connect-src` stays
 * open to http(s): the dashboard's "direct" mode and a proxy on another origin call agents the user names.
 */
const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' http: https:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Vite's content-hashed output names, e.g. assets/index-BxK2a9_Q.js. */
const HASHED = /[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

function contentTypeFor(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export function createStaticHandler(distDir: string) {
  const root = resolve(distDir);

  async function fileAt(rel: string): Promise<{ path: string; st: Stats } | undefined> {
    const full = resolve(join(root, rel));
    if (full !== root && !full.startsWith(root + sep)) return undefined;
    try {
      const st = await stat(full);
      return st.isFile() ? { path: full, st } : undefined;
    } catch {
      return undefined;
    }
  }

  function send(req: IncomingMessage, res: ServerResponse, file: { path: string; st: Stats }, cache: string): void {
    const etag = `W/"${file.st.size.toString(16)}-${Math.floor(file.st.mtimeMs).toString(16)}"`;
    const headers: Record<string, string | number> = {
      'Content-Type': contentTypeFor(file.path),
      'Cache-Control': cache,
      ETag: etag,
      'Last-Modified': file.st.mtime.toUTCString(),
      'X-Content-Type-Options': 'nosniff',
      ...(file.path.endsWith('.html') && { 'Content-Security-Policy': DASHBOARD_CSP, 'Referrer-Policy': 'no-referrer' }),
    };
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Length': file.st.size });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const stream = createReadStream(file.path);
    stream.on('error', () => res.destroy());
    res.on('close', () => stream.destroy());
    stream.pipe(res);
  }

  /** Always answers (404/405/503 when it cannot serve). */
  return async function serveStatic(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Method Not Allowed');
      return;
    }
    let rel: string;
    try {
      rel = decodeURIComponent(pathname);
    } catch {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad Request: malformed path');
      return;
    }
    if (rel.includes('\0') || rel.split(/[\\/]/).includes('..')) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Bad Request: path traversal');
      return;
    }
    const file = rel.endsWith('/') ? undefined : await fileAt(rel);
    if (file) {
      const isIndex = file.path === join(root, 'index.html');
      const immutable = rel.startsWith('/assets/') && HASHED.test(rel);
      send(req, res, file, isIndex ? 'no-cache' : immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300');
      return;
    }
    // Asset-looking paths (an extension, or under /assets/) that do not exist are real 404s, not the SPA.
    if (rel.startsWith('/assets/') || /\.[A-Za-z0-9]{1,8}$/.test(rel)) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not Found');
      return;
    }
    const index = await fileAt('index.html');
    if (!index) {
      res
        .writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' })
        .end('The dashboard is not built yet: run `npm run build` (npm start does it for you).');
      return;
    }
    send(req, res, index, 'no-cache');
  };
}
