/**
 * The defect agent's wire layer on raw node:http: card, JSON-RPC and HTTP+JSON bindings, SSE, auth,
 * CORS and version negotiation, each behaviour switchable by a named defect. Mountable under a path
 * prefix on a shared server (`handle(req, res)` returns false for paths it does not own).
 *
 * This file routes a request to its behaviour group; the groups live beside it, each built on the agent's
 * state (state.ts): operations.ts (send/get/cancel/list), push.ts, streaming.ts, card-serving.ts, auth.ts,
 * cors.ts, plumbing.ts (bodies, crash page, rate limit, version, gzip), jsonrpc.ts and rest.ts (the bindings).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createAuth } from './auth';
import { BROKEN_PATH } from './card';
import { createCardServing } from './card-serving';
import { createCors } from './cors';
import type { DefectName } from './defects';
import type { Binding, Generation } from './dialect';
import { createJsonRpc } from './jsonrpc';
import { createOperations } from './operations';
import type { PermittedName } from './permitted';
import { createPlumbing, gzipResponse } from './plumbing';
import { createPushConfigs } from './push';
import { createRest } from './rest';
import { createStreaming } from './streaming';
import { CARD_PATH_NEW, CARD_PATH_OLD, createAgentState, MAX_RECORDED, versionHeader, type DefectAgentMountOptions, type RecordedRequest } from './state';

export type { Binding, Generation } from './dialect';
export type { DefectAgentMountOptions, DefectAgentOptions, RecordedRequest } from './state';

export interface DefectAgentHandler {
  /** Handles the request if its path is under basePath; returns false (without touching res) otherwise. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
  setDefects(d: DefectName[]): void;
  readonly defects: readonly DefectName[];
  /** Replaces the permitted behaviours (tests switch them on one at a time). */
  setPermitted(p: PermittedName[]): void;
  readonly requests: RecordedRequest[];
  setPublicUrl(url: string): void;
  /** The agent endpoint (JSON-RPC URL or REST base), absolute. */
  readonly url: string;
  /** Absolute URL of the public card. */
  readonly cardUrl: string;
  readonly generation: Generation;
  readonly binding: Binding;
  close(): Promise<void>;
}

export function createDefectAgentHandler(opts: DefectAgentMountOptions): DefectAgentHandler {
  const s = createAgentState(opts);
  const { gen, binding, basePath, features, requests, openResponses, engine, stepMs, has, permits, endpointPrefix, endpointUrl, servesOldPath } = s;
  const ops = createOperations(s);
  const push = createPushConfigs(s);
  const streaming = createStreaming(s, ops);
  const auth = createAuth(s);
  const { setCors, preflight } = createCors(s);
  const card = createCardServing(s, auth);
  const plumbing = createPlumbing(s);
  const deps = { ops, push, streaming, auth, card, plumbing };
  const { handleRpc } = createJsonRpc(s, deps);
  const { handleRest, noRoute } = createRest(s, deps);
  const { checkAuth } = auth;
  const { serveCard, extendedCard } = card;
  const { readBody, crash } = plumbing;
  const cardPathNew = CARD_PATH_NEW;
  const cardPathOld = CARD_PATH_OLD;
  /** The v0.3 compatibility layer of a v1.0 agent (version-compat-03, card-dual-v03-v1): header-less calls. */
  let compat: DefectAgentHandler | undefined;
  const compatOn = () => gen === 'v1.0' && (permits('version-compat-03') || permits('card-dual-v03-v1'));

  function handle(req: IncomingMessage, res: ServerResponse): boolean {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://agent.invalid');
    } catch {
      return false;
    }
    const path = url.pathname;
    if (basePath && path !== basePath && !path.startsWith(`${basePath}/`)) return false;
    const sub = path.slice(basePath.length) || '/';
    const rec: RecordedRequest = {
      method: req.method ?? '',
      path: (req.url ?? '').slice(basePath.length) || '/',
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')])),
      body: '',
      at: Date.now(),
    };
    if (requests.length >= MAX_RECORDED) requests.shift();
    requests.push(rec);
    res.on('error', () => {});
    if (permits('gzip') && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) gzipResponse(res);
    try {
      setCors(req, res);
      if (req.method === 'OPTIONS') {
        preflight(req, res, sub);
        return true;
      }
      // card-redirect-other-host: the card moved to another host name of this very agent (still discoverable).
      if ((sub === cardPathNew || sub === cardPathOld) && has('card-redirect-other-host') && /^127\.0\.0\.1:/.test(req.headers.host ?? '')) {
        res
          .writeHead(302, { Location: `http://${(req.headers.host ?? '').replace('127.0.0.1', 'localhost')}${basePath}${sub}`, 'Content-Type': 'text/plain' })
          .end('Moved');
        return true;
      }
      if (sub === cardPathNew || sub === cardPathOld) return serveCard(req, res, sub);
      if (card.serveJwks(req, res, sub)) return true;
      const notFound = () => res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      // interface-broken: the second interface the card declares is a dead path of this agent.
      if (sub === `/${BROKEN_PATH}` || sub.startsWith(`/${BROKEN_PATH}/`)) {
        notFound();
        return true;
      }
      // A v1.0 agent with a v0.3 compatibility layer serves header-less calls as 0.3.
      if (compatOn() && !versionHeader(req, url)) return compatHandler().handle(req, res);
      const ep = endpointPrefix();
      const inApi = !ep || sub === ep || sub.startsWith(`${ep}/`);
      const inner = inApi ? sub.slice(ep.length) || '/' : sub;
      // redirect-off-host (a security-review finding) / redirect-same-host (permitted): a GET of the endpoint redirects.
      if (req.method === 'GET' && inApi && inner === '/' && (has('redirect-off-host') || permits('redirect-same-host'))) {
        const to = has('redirect-off-host') ? 'https://elsewhere.a2a-interop.example/collect' : `${basePath}${cardPathNew}`;
        res.writeHead(302, { Location: to, 'Content-Type': 'text/plain' }).end('Moved');
        return true;
      }
      // v0.2 extended card: GET {url}/../agent/authenticatedExtendedCard (v0.2.6 §7.10).
      const extendedGet = gen === 'v0.2' && sub === '/agent/authenticatedExtendedCard' && req.method === 'GET';
      if (extendedGet && permits('extended-v02-rpc')) {
        notFound();
        return true;
      }
      // card-protected-spa: paths outside the API are pages of a web app (200 HTML, no authentication).
      const outside = !inApi || (binding === 'JSONRPC' && inner !== '/');
      if (permits('card-protected-spa') && outside && !extendedGet) {
        res
          .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
          .end('<!doctype html><html><head><title>Agent console</title></head><body><div id="app"></div></body></html>');
        return true;
      }
      const anonymousExtended =
        has('extended-card-anonymous') &&
        (extendedGet || (binding === 'HTTP+JSON' && ((gen === 'v1.0' && inner === '/extendedAgentCard') || (gen === 'v0.3' && inner === '/v1/card'))));
      if (extendedGet) {
        if (!anonymousExtended && !checkAuth(req, res)) return true;
        try {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(extendedCard()));
        } catch (e) {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: e instanceof Error ? e.message : 'error' }));
        }
        return true;
      }
      if (binding === 'JSONRPC') {
        // The JSON-RPC body decides whether authentication applies (extended-card-anonymous), so it is read first.
        const deferAuth = has('extended-card-anonymous');
        if (!deferAuth && !checkAuth(req, res)) return true;
        if (inner !== '/' || !inApi) {
          if (deferAuth && !checkAuth(req, res)) return true;
          notFound();
          return true;
        }
        if (req.method !== 'POST') {
          if (deferAuth && !checkAuth(req, res)) return true;
          res.writeHead(405, { Allow: 'POST, OPTIONS', 'Content-Type': 'text/plain' }).end('Method Not Allowed: use POST for JSON-RPC');
          return true;
        }
        void readBody(req, rec)
          .then((text) => {
            if (text === null) {
              if (!res.headersSent && !res.destroyed) res.writeHead(413, { 'Content-Type': 'text/plain', Connection: 'close' }).end('Payload Too Large');
              return;
            }
            return handleRpc(req, res, url, text, !deferAuth);
          })
          .catch(() => crash(res));
        return true;
      }
      if (!anonymousExtended && !checkAuth(req, res)) return true;
      if (!inApi) {
        noRoute(res, sub);
        return true;
      }
      void handleRest(req, res, url, inner, rec).catch(() => crash(res));
      return true;
    } catch {
      crash(res);
      return true;
    }
  }

  /** The v0.3 layer of a v1.0 agent (version-compat-03, card-dual-v03-v1), made on first use; its own task store. */
  function compatHandler(): DefectAgentHandler {
    compat ??= createDefectAgentHandler({
      generation: 'v0.3',
      binding,
      basePath: opts.basePath,
      publicUrl: s.publicUrl,
      ...(opts.auth ? { auth: opts.auth } : {}),
      features: { streaming: features.streaming, push: features.push },
      stepMs,
      ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
    });
    return compat;
  }

  return {
    handle,
    setDefects: (d) => s.setDefects(d),
    get defects() {
      return s.defects;
    },
    setPermitted: (p) => s.setPermitted(p),
    requests,
    setPublicUrl(u) {
      s.publicUrl = u.replace(/\/+$/, '');
    },
    get url() {
      return endpointUrl();
    },
    get cardUrl() {
      return `${s.publicUrl}${servesOldPath() ? cardPathOld : cardPathNew}`;
    },
    generation: gen,
    binding,
    async close() {
      await compat?.close();
      engine.close();
      for (const r of openResponses) r.destroy();
      openResponses.clear();
    },
  };
}
