/**
 * Conversation taps on the local server (issue 26): `POST /api/taps {agentUrl, faults}` starts one and answers
 * `{id, url}` (`url` = `<origin>/tap/<id>/`, given to the client); `GET /api/taps/:id/events` is an SSE stream of its
 * TapEvents (every kept one, then live; `Last-Event-ID` resumes); `GET /api/taps/:id/report`; `PATCH /api/taps/:id
 * {faults}`; `DELETE /api/taps/:id`; `GET /api/taps` lists them; `/tap/<id>/…` is the tap itself.
 *
 * Safety: a tap is a relay. Local mode (the default, loopback) answers to loopback Host names and the configured ones
 * only (DNS rebinding) and to no foreign Origin (a web page cannot start one); hosted mode runs taps only when
 * ALLOWED_HOSTS is set, reaches public unicast addresses only (the proxy's SSRF policy, checked on every resolved
 * address), and rate-limits by client. A tap's memory is bounded (src/engine/tap limits); at most `maxTaps` live,
 * and an idle one is closed.
 */
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createTap, type Tap, type TapEvent, type TapFaults } from '../engine/tap';
import { checkTargetAllowed, classifyOrigin, defaultAddressPolicy, isAllowedLocalHost, matchesHostList, portOf, type ProxyMode } from '../proxy/policy';
import type { RateLimiter } from '../proxy/rate-limit';
import { nodeFetch, serveTap } from './tap-node';

export interface TapHubOptions {
  mode: ProxyMode;
  /** Extra Host names answered to (ALLOWED_HOSTS); hosted mode runs no tap without them. */
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
  rateLimit?: RateLimiter | false;
  /** Live taps at most (default 16). */
  maxTaps?: number;
  /** A tap nobody used for this long is closed (default 30 minutes). */
  idleMs?: number;
  /** How taps reach agents (tests); default: global fetch, behind the hosted policy in hosted mode. */
  fetch?: (req: Request) => Promise<Response>;
}

interface Entry {
  id: string;
  tap: Tap;
  agentUrl: string;
  createdAt: number;
  lastUsed: number;
}

export type TapHub = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { close(): void; size(): number };

const json = (res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}) => {
  const s = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(s), ...extra }).end(s);
};

async function readJson(req: IncomingMessage, max = 16 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > max) throw new Error('body too large');
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}

/** Validates fault toggles (unknown fields dropped, numbers bounded). */
export function parseFaults(v: unknown): TapFaults | string {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) return 'faults must be an object';
  const f = v as Record<string, unknown>;
  const out: TapFaults = {};
  const ms = (k: 'delayMs' | 'slowCardMs'): string | undefined => {
    const n = f[k];
    if (n === undefined || n === null || n === 0) return undefined;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 60_000) return `${k} must be 0 to 60000`;
    out[k] = Math.round(n);
    return undefined;
  };
  const bad = ms('delayMs') ?? ms('slowCardMs');
  if (bad) return bad;
  if (f.dropStreamAfter !== undefined && f.dropStreamAfter !== null) {
    if (typeof f.dropStreamAfter !== 'number' || !Number.isInteger(f.dropStreamAfter) || f.dropStreamAfter < 0 || f.dropStreamAfter > 10_000)
      return 'dropStreamAfter must be an integer 0 to 10000';
    out.dropStreamAfter = f.dropStreamAfter;
  }
  if (f.failOnce !== undefined && f.failOnce !== null) {
    if (f.failOnce !== 503 && f.failOnce !== 'reset') return 'failOnce must be 503 or "reset"';
    out.failOnce = f.failOnce;
  }
  return out;
}

/** Global fetch that reaches public unicast addresses only (every resolved address checked), for hosted mode. */
function hostedFetch(base: (req: Request) => Promise<Response> = (r) => fetch(r)): (req: Request) => Promise<Response> {
  const policy = defaultAddressPolicy('hosted');
  return async (req) => {
    const url = new URL(req.url);
    const blocked = checkTargetAllowed(url, 'hosted', policy);
    if (blocked) throw new Error(blocked);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addrs = await lookup(host, { all: true, verbatim: true });
    const bad = addrs.find((a) => !policy(a.address, portOf(url)));
    if (bad) throw new Error(`A hosted tap only reaches public unicast addresses; ${host} resolves to ${bad.address}.`);
    return base(req);
  };
}

export function createTapHub(o: TapHubOptions): TapHub {
  const taps = new Map<string, Entry>();
  const maxTaps = o.maxTaps ?? 16;
  const idleMs = o.idleMs ?? 30 * 60_000;
  const upstream = o.fetch ?? (o.mode === 'hosted' ? hostedFetch(nodeFetch) : nodeFetch);
  const enabled = o.mode === 'local' || o.allowedHosts.length > 0;
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const [id, e] of taps) if (now - e.lastUsed > idleMs) close(id);
    },
    Math.min(idleMs, 60_000),
  );
  sweep.unref();

  function close(id: string) {
    taps.get(id)?.tap.close();
    taps.delete(id);
  }

  const hostOk = (req: IncomingMessage) =>
    o.mode === 'local'
      ? isAllowedLocalHost(req.headers.host ?? null, o.allowedHosts)
      : !!req.headers.host && matchesHostList(new URL(`http://${req.headers.host}`).hostname, o.allowedHosts);

  function originOf(req: IncomingMessage): string {
    return `http://${req.headers.host}`;
  }

  function events(e: Entry, req: IncomingMessage, res: ServerResponse) {
    const after = Number(req.headers['last-event-id'] ?? 0) || 0;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    const send = (ev: TapEvent) => {
      if (!res.destroyed) res.write(`event: tap\nid: ${ev.seq}\ndata: ${JSON.stringify(ev)}\n\n`);
    };
    let last = after;
    for (const ev of e.tap.events.list(after)) {
      send(ev);
      last = ev.seq;
    }
    const off = e.tap.events.subscribe((ev) => {
      if (ev.seq > last) send(ev);
    });
    const ping = setInterval(() => !res.destroyed && res.write(': ping\n\n'), 15_000);
    ping.unref();
    res.on('close', () => {
      off();
      clearInterval(ping);
    });
  }

  async function api(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const method = req.method ?? 'GET';
    if (path === '/api/taps') {
      if (method === 'GET') {
        json(
          res,
          200,
          [...taps.values()].map((e) => ({ id: e.id, url: `${originOf(req)}/tap/${e.id}/`, agentUrl: e.agentUrl, createdAt: e.createdAt })),
        );
        return;
      }
      if (method !== 'POST') return json(res, 405, { error: 'use GET or POST' }, { Allow: 'GET, POST' });
      if (!(req.headers['content-type'] ?? '').toLowerCase().startsWith('application/json'))
        return json(res, 415, { error: 'send JSON (Content-Type: application/json)' });
      let body: unknown;
      try {
        body = await readJson(req);
      } catch {
        return json(res, 400, { error: 'the body is not JSON (at most 16 KiB)' });
      }
      const b = (typeof body === 'object' && body) as { agentUrl?: unknown; faults?: unknown };
      let agentUrl: URL;
      try {
        agentUrl = new URL(String(b.agentUrl ?? ''));
        if (agentUrl.protocol !== 'http:' && agentUrl.protocol !== 'https:') throw new Error('scheme');
      } catch {
        return json(res, 400, { error: 'agentUrl must be an http(s) URL' });
      }
      if (o.mode === 'hosted') {
        const blocked = checkTargetAllowed(agentUrl, 'hosted', defaultAddressPolicy('hosted'));
        if (blocked) return json(res, 403, { error: blocked });
      }
      const faults = parseFaults(b.faults);
      if (typeof faults === 'string') return json(res, 400, { error: faults });
      if (taps.size >= maxTaps) return json(res, 429, { error: `at most ${maxTaps} taps at once: delete one first` });
      const id = randomBytes(9).toString('base64url');
      const tap = createTap({ agentUrl: agentUrl.toString(), fetch: upstream, faults });
      const now = Date.now();
      taps.set(id, { id, tap, agentUrl: agentUrl.toString(), createdAt: now, lastUsed: now });
      return json(res, 201, { id, url: `${originOf(req)}/tap/${id}/` }, { Location: `/api/taps/${id}` });
    }
    const m = /^\/api\/taps\/([A-Za-z0-9_-]{1,40})(\/events|\/report)?$/.exec(path);
    const e = m && taps.get(m[1]!);
    if (!m || !e) return json(res, 404, { error: 'no such tap' });
    e.lastUsed = Date.now();
    if (m[2] === '/events') {
      if (method !== 'GET') return json(res, 405, { error: 'use GET' }, { Allow: 'GET' });
      return events(e, req, res);
    }
    if (m[2] === '/report') {
      if (method !== 'GET') return json(res, 405, { error: 'use GET' }, { Allow: 'GET' });
      return json(res, 200, e.tap.report());
    }
    if (method === 'DELETE') {
      close(e.id);
      res.writeHead(204).end();
      return;
    }
    if (method === 'PATCH') {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch {
        return json(res, 400, { error: 'the body is not JSON' });
      }
      const faults = parseFaults((body as { faults?: unknown } | null)?.faults);
      if (typeof faults === 'string') return json(res, 400, { error: faults });
      e.tap.setFaults(faults);
      return json(res, 200, { faults: e.tap.faults() });
    }
    if (method === 'GET') return json(res, 200, { id: e.id, url: `${originOf(req)}/tap/${e.id}/`, agentUrl: e.agentUrl, faults: e.tap.faults() });
    return json(res, 405, { error: 'use GET, PATCH or DELETE' }, { Allow: 'GET, PATCH, DELETE' });
  }

  const hub = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '/').split('?')[0]!;
    const isApi = path === '/api/taps' || path.startsWith('/api/taps/');
    const isTap = path.startsWith('/tap/');
    if (!isApi && !isTap) return false;
    if (!enabled) {
      json(res, 404, { error: 'taps are off on a hosted server unless ALLOWED_HOSTS names the hosts it answers to' });
      return true;
    }
    if (!hostOk(req)) {
      json(res, 403, { error: 'this Host is not served' });
      return true;
    }
    if (o.rateLimit) {
      const v = o.rateLimit.take(req.socket.remoteAddress ?? 'unknown');
      if (!v.ok) {
        json(res, 429, { error: 'too many requests' }, { 'Retry-After': String(v.retryAfterSec) });
        return true;
      }
    }
    if (isApi) {
      // The API starts relays: never for another web page (a foreign Origin), and in hosted mode only for the dashboard.
      const origin = classifyOrigin((req.headers.origin as string | undefined) ?? null, req.headers.host ?? null, o.allowedOrigins);
      if (origin === 'foreign' || (o.mode === 'hosted' && origin === 'none')) {
        json(res, 403, { error: 'cross-origin use of the tap API is not allowed' });
        return true;
      }
      await api(req, res, path);
      return true;
    }
    const m = /^\/tap\/([A-Za-z0-9_-]{1,40})(\/.*)?$/.exec(path);
    const e = m && taps.get(m[1]!);
    if (!m || !e) {
      json(res, 404, { error: 'no such tap (it may have been deleted or closed after being idle)' });
      return true;
    }
    e.lastUsed = Date.now();
    await serveTap(e.tap, req, res, `${originOf(req)}/tap/${e.id}/`);
    return true;
  };
  return Object.assign(hub, {
    close() {
      clearInterval(sweep);
      for (const id of [...taps.keys()]) close(id);
    },
    size: () => taps.size,
  });
}
