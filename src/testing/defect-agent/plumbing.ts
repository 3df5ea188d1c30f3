/** HTTP plumbing shared by both bindings: request bodies, the crash page, rate limiting, version negotiation, gzip. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as zlibConstants, createGzip } from 'node:zlib';
import { type A2AError, E } from './errors';
import { MAX_BODY, versionHeader, type AgentState, type RecordedRequest } from './state';

export type Plumbing = ReturnType<typeof createPlumbing>;

export function createPlumbing(s: AgentState) {
  const { gen, has, permits } = s;
  /** Calls already limited once (permitted rate-limit-once), by kind. */
  const limited = new Set<string>();

  function readBody(req: IncomingMessage, rec: RecordedRequest): Promise<string | null> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      req.on('data', (c: Buffer) => {
        if (done) return;
        size += c.length;
        if (size > MAX_BODY) {
          done = true;
          resolve(null);
          return;
        }
        chunks.push(c);
      });
      req.on('end', () => {
        if (done) return;
        done = true;
        const s = Buffer.concat(chunks).toString('utf8');
        rec.body = s;
        resolve(s);
      });
      req.on('error', () => {
        if (!done) {
          done = true;
          resolve(null);
        }
      });
      req.on('close', () => {
        if (!done) {
          done = true;
          resolve(null);
        }
      });
    });
  }

  function crash(res: ServerResponse): void {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end("<!doctype html><html><body><pre>TypeError: Cannot read properties of undefined (reading 'state')\n    at handler.js:42:17</pre></body></html>");
  }

  function versionError(req: IncomingMessage, url: URL): A2AError | undefined {
    if (gen !== 'v1.0' || has('version-lenient')) return undefined;
    const v = versionHeader(req, url);
    if (/^1(\.0(\.\d+)?)?$/.test(v)) return undefined;
    return E.versionNotSupported(v || '0.3 (no A2A-Version header)');
  }

  /** Permitted rate-limit-once: true (and the 429 sent) for the first call of each kind. */
  function rateLimit(res: ServerResponse, kind: string): boolean {
    if (!permits('rate-limit-once') || limited.has(kind)) return false;
    limited.add(kind);
    res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'Too many requests: retry in 1 s' }));
    return true;
  }

  return { readBody, crash, versionError, rateLimit };
}

/**
 * Permitted variant gzip: everything written to `res` goes through gzip (flushed per write, so streams stay
 * live), with Content-Encoding: gzip and no Content-Length.
 */
export function gzipResponse(res: ServerResponse): void {
  const gz = createGzip({ flush: zlibConstants.Z_SYNC_FLUSH });
  const write = res.write.bind(res) as (c: Buffer) => boolean;
  const end = res.end.bind(res) as () => ServerResponse;
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: Record<string, string | number>) => ServerResponse;
  gz.on('data', (c: Buffer) => {
    if (!res.destroyed) write(c);
  });
  gz.on('end', () => {
    if (!res.destroyed) end();
  });
  res.on('close', () => gz.destroy());
  const patched = res as unknown as Record<string, unknown>;
  patched.writeHead = (status: number, a?: unknown, b?: unknown) => {
    const headers = { ...((typeof a === 'object' && a) || (typeof b === 'object' && b) || {}) } as Record<string, string | number>;
    for (const k of Object.keys(headers)) if (k.toLowerCase() === 'content-length') delete headers[k];
    res.removeHeader('Content-Length');
    if (status !== 204 && status !== 304) headers['Content-Encoding'] = 'gzip';
    return writeHead(status, headers);
  };
  patched.write = (chunk: string | Buffer) => {
    if (!res.headersSent) (patched.writeHead as (s: number) => void)(res.statusCode);
    gz.write(chunk);
    return true;
  };
  patched.end = (chunk?: string | Buffer | (() => void)) => {
    if (!res.headersSent) (patched.writeHead as (s: number) => void)(res.statusCode);
    if (res.statusCode === 204 || res.statusCode === 304) {
      gz.destroy();
      end();
      return res;
    }
    if (chunk !== undefined && typeof chunk !== 'function') gz.write(chunk);
    gz.end();
    return res;
  };
}
