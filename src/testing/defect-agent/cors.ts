/** CORS: the headers on every answer and the preflight (defect no-cors, permitted cors-minimal). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiKeyHeader } from './card';
import { CARD_PATH_NEW, CARD_PATH_OLD, type AgentState } from './state';

export function createCors(s: AgentState) {
  const { gen, binding, opts, has, permits } = s;
  const cardPathNew = CARD_PATH_NEW;
  const cardPathOld = CARD_PATH_OLD;

  function setCors(req: IncomingMessage, res: ServerResponse): void {
    if (has('no-cors')) return;
    if (permits('cors-minimal')) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      return;
    }
    const origin = req.headers.origin;
    res.setHeader('Access-Control-Allow-Origin', typeof origin === 'string' && origin ? origin : '*');
    // cors-credentials: credentialed calls allowed from whatever origin asks (a security-review finding).
    if (has('cors-credentials')) res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', permits('card-varies-by-version') ? 'Origin, A2A-Version' : 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'WWW-Authenticate, ETag, A2A-Version, A2A-Extensions, Content-Type');
  }

  function preflight(req: IncomingMessage, res: ServerResponse, sub: string): void {
    const card = sub === cardPathNew || sub === cardPathOld;
    if (has('no-cors') || (permits('cors-minimal') && card && gen !== 'v1.0')) {
      // cors-minimal: before v1.0 no client sends a header that makes the card GET need a preflight.
      res.writeHead(405, { Allow: 'GET, POST', 'Content-Type': 'text/plain' }).end('Method Not Allowed');
      return;
    }
    const reqHeaders = req.headers['access-control-request-headers'];
    const allowHeaders = [
      'Content-Type',
      'Authorization',
      'A2A-Version',
      'A2A-Extensions',
      'X-A2A-Extensions',
      'Last-Event-ID',
      'If-None-Match',
      opts.auth?.scheme === 'apiKey' ? apiKeyHeader(opts.auth) : 'X-API-Key',
    ];
    if (typeof reqHeaders === 'string') {
      for (const h of reqHeaders
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        if (/^[A-Za-z0-9-]{1,64}$/.test(h) && !allowHeaders.some((a) => a.toLowerCase() === h.toLowerCase())) allowHeaders.push(h);
      }
    }
    if (permits('cors-minimal')) {
      // GET and POST are CORS-safelisted methods: a preflight for them needs no Allow-Methods.
      res.writeHead(204, { 'Access-Control-Allow-Headers': allowHeaders.join(', ') }).end();
      return;
    }
    res.writeHead(204, {
      'Access-Control-Allow-Methods': binding === 'HTTP+JSON' ? 'GET, POST, DELETE, OPTIONS' : 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': allowHeaders.join(', '),
      'Access-Control-Max-Age': '600',
    });
    res.end();
  }

  return { setCors, preflight };
}
