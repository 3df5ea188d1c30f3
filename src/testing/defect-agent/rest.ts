/** The HTTP+JSON binding: routes per generation (v0.3 under /v1), google.rpc.Status errors and their variants. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Auth } from './auth';
import type { CardServing } from './card-serving';
import { A2AError, E, statusBody } from './errors';
import { gateExtensions } from './extensions';
import type { Operations } from './operations';
import { parseSend } from './params';
import type { Plumbing } from './plumbing';
import type { PushConfigs } from './push';
import type { Streaming } from './streaming';
import { AuthError, CrashError, isObj, type AgentState, type Json, type RecordedRequest } from './state';

export interface RestDeps {
  ops: Operations;
  push: PushConfigs;
  streaming: Streaming;
  auth: Auth;
  card: CardServing;
  plumbing: Plumbing;
}

export function createRest(s: AgentState, { ops, push, streaming, auth, card, plumbing }: RestDeps) {
  const { gen, binding, features, has, permits, restCt, notFoundError, errShape } = s;
  const { send, getTask, cancelTask, listTasks } = ops;
  const { storePush, findPush, listPush, deletePush, validateWebhook } = push;
  const { makeSink, streamSend, resubscribe } = streaming;
  const { REALM, credentialState, refuseAuth } = auth;
  const { extendedCard } = card;
  const { readBody, crash, versionError, rateLimit } = plumbing;

  /** The error the v0.3 REST payload-style negotiation relies on (a proto-style role refused with 400): never altered by variants. */
  const styleProbeError = (e: A2AError) => gen === 'v0.3' && binding === 'HTTP+JSON' && e.code === -32602 && /^message\.role is invalid/.test(e.message);

  function restError(res: ServerResponse, e: A2AError): void {
    if (res.headersSent) return void res.end();
    const ct = restCt();
    const { http, body } = statusBody(e, errShape());
    if (has('rest-error-html')) {
      res
        .writeHead(http, { 'Content-Type': 'text/html; charset=utf-8' })
        .end(`<!doctype html><html><body><h1>Error ${http}</h1><p>${e.message.replace(/[<&>]/g, '')}</p></body></html>`);
      return;
    }
    if (has('rest-error-not-status')) {
      res.writeHead(http, { 'Content-Type': ct }).end(JSON.stringify({ error: e.message, code: e.code }));
      return;
    }
    if (e.code === -32009 && permits('version-problem-json') && gen === 'v1.0') {
      // RFC 9457 problem details instead of google.rpc.Status.
      res
        .writeHead(400, { 'Content-Type': 'application/problem+json' })
        .end(JSON.stringify({ type: 'https://a2a-protocol.org/errors/version-not-supported', title: 'Version not supported', status: 400, detail: e.message }));
      return;
    }
    if (gen === 'v0.3') {
      // a2a-python 0.3: 501 for what it does not implement.
      if (permits('rest-501-unsupported') && (e.code === -32003 || e.code === -32004)) {
        res.writeHead(501, { 'Content-Type': ct }).end(JSON.stringify({ message: e.message }));
        return;
      }
      const status =
        permits('validation-422') && (e.code === -32700 || e.code === -32602) && !styleProbeError(e)
          ? 422
          : e.code === -32002 && permits('rest-409-not-cancelable')
            ? 409
            : http;
      if (permits('rest-message-error-body')) {
        res.writeHead(status, { 'Content-Type': ct }).end(JSON.stringify({ message: e.message }));
        return;
      }
      res.writeHead(status, { 'Content-Type': ct }).end(JSON.stringify(status === http ? body : { error: { ...(body.error as Json), code: status } }));
      return;
    }
    const status = e.code === -32002 && permits('rest-409-not-cancelable') ? 409 : http;
    res
      .writeHead(status, { 'Content-Type': ct })
      .end(
        JSON.stringify(
          status === http ? body : { error: { ...(body.error as Json), code: status, ...(errShape().noStatusField ? {} : { status: 'FAILED_PRECONDITION' }) } },
        ),
      );
  }

  function restOk(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'Content-Type': restCt() }).end(JSON.stringify(body));
  }

  /** An unknown HTTP+JSON route: 404 (variants: 400; the SPA-fallback defect: 200 HTML). */
  function noRoute(res: ServerResponse, what: string): void {
    if (has('unknown-route-spa-fallback')) {
      res
        .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
        .end('<!doctype html><html><head><title>Agent</title></head><body><div id="root"></div></body></html>');
      return;
    }
    restError(
      res,
      permits('unknown-route-400') ? E.invalidRequest(`No route for ${what.slice(0, 100)}`) : E.methodNotFound(`No route for ${what.slice(0, 100)}`),
    );
  }

  async function handleRest(req: IncomingMessage, res: ServerResponse, url: URL, sub: string, rec: RecordedRequest): Promise<void> {
    const prefix = gen === 'v0.3' ? '/v1' : '';
    if (!sub.startsWith(`${prefix}/`)) return noRoute(res, sub);
    const path = sub.slice(prefix.length);
    const method = req.method ?? 'GET';
    if (
      rateLimit(
        res,
        `rest ${method} ${path.replace(/\/tasks\/[^/:]+/, '/tasks/{id}').replace(/\/pushNotificationConfigs\/.*/, '/pushNotificationConfigs/{id}')}`,
      )
    )
      return;
    const ac = new AbortController();
    res.on('close', () => ac.abort());
    const body = async (): Promise<Json> => {
      const text = await readBody(req, rec);
      if (text === null) throw E.invalidRequest('Request body too large or aborted');
      if (text.trim() === '') return {};
      try {
        const v: unknown = JSON.parse(text);
        if (!isObj(v)) throw E.invalidRequest('The body must be a JSON object');
        return v;
      } catch (e) {
        if (e instanceof A2AError) throw e;
        if (has('invalid-json-500')) throw new CrashError();
        throw E.parse();
      }
    };
    const q = (name: string) => url.searchParams.get(name) ?? undefined;
    const qInt = (name: string): number | undefined => {
      const v = q(name);
      if (v === undefined) return undefined;
      if (!/^\d{1,9}$/.test(v)) throw E.invalidParams(`${name} must be a non-negative integer`, name);
      return Number(v);
    };
    const notAllowed = (allow: string) => res.writeHead(405, { Allow: allow, 'Content-Type': 'text/plain' }).end('Method Not Allowed');
    const sse = () =>
      makeSink(
        res,
        (p) => p,
        (e) => statusBody(e, errShape()).body,
      );
    try {
      const vErr = versionError(req, url);
      if (vErr) throw vErr;
      let m: RegExpExecArray | null;
      if (path === '/message:send' || path === '/message:stream') {
        if (method !== 'POST') return void notAllowed('POST');
        const b = await body();
        const p = parseSend(s, b);
        gateExtensions(s, req, res);
        if (path === '/message:send') return restOk(res, await send(p, ac.signal));
        return streamSend(sse(), p);
      }
      if (path === '/tasks' && gen === 'v1.0') {
        if (method !== 'GET') return void notAllowed('GET');
        const query: Json = {};
        for (const k of ['contextId', 'status', 'pageToken', 'statusTimestampAfter']) if (q(k) !== undefined) query[k] = q(k);
        if (q('pageSize') !== undefined) query.pageSize = qInt('pageSize');
        if (q('historyLength') !== undefined) query.historyLength = qInt('historyLength');
        if (q('includeArtifacts') !== undefined) {
          const v = q('includeArtifacts');
          if (v !== 'true' && v !== 'false') throw E.invalidParams('includeArtifacts must be true or false', 'includeArtifacts');
          query.includeArtifacts = v === 'true';
        }
        return restOk(res, listTasks(query));
      }
      if ((m = /^\/tasks\/([^/:]+):cancel$/.exec(path))) {
        if (method !== 'POST') return void notAllowed('POST');
        await body();
        return restOk(res, cancelTask(decodeURIComponent(m[1]!)));
      }
      if ((m = /^\/tasks\/([^/:]+):subscribe$/.exec(path))) {
        if (method !== 'POST' && method !== 'GET') return void notAllowed('GET, POST');
        if (has('sse-no-resubscribe')) throw E.methodNotFound('Subscribe is not implemented');
        return resubscribe(sse(), decodeURIComponent(m[1]!));
      }
      if ((m = /^\/tasks\/([^/:]+)\/pushNotificationConfigs(?:\/([^/]+))?$/.exec(path))) {
        if (!features.push) {
          if (has('push-wrong-code')) throw E.methodNotFound('No route for push notification configs');
          if (m[2] === undefined && method === 'POST') {
            const b = await body();
            validateWebhook(gen === 'v1.0' ? b : isObj(b.pushNotificationConfig) ? b.pushNotificationConfig : b);
          }
          throw E.pushNotSupported();
        }
        const taskId = decodeURIComponent(m[1]!);
        const cid = m[2] === undefined ? undefined : decodeURIComponent(m[2]);
        if (cid === undefined && method === 'POST') {
          const b = await body();
          return restOk(res, storePush(taskId, gen === 'v1.0' ? b : b.pushNotificationConfig));
        }
        if (cid === undefined && method === 'GET') return restOk(res, gen === 'v1.0' ? { configs: listPush(taskId), nextPageToken: '' } : listPush(taskId));
        if (cid !== undefined && method === 'GET') return restOk(res, findPush(taskId, cid));
        if (cid !== undefined && method === 'DELETE') {
          deletePush(taskId, cid);
          if (permits('push-delete-204')) return void res.writeHead(204).end();
          return restOk(res, {});
        }
        return void notAllowed(cid === undefined ? 'GET, POST' : 'GET, DELETE');
      }
      if ((m = /^\/tasks\/([^/:]+)$/.exec(path))) {
        if (method !== 'GET') return void notAllowed('GET');
        return restOk(res, getTask(decodeURIComponent(m[1]!), qInt('historyLength'), credentialState(req).state === 'valid'));
      }
      if ((gen === 'v1.0' && path === '/extendedAgentCard') || (gen === 'v0.3' && path === '/card')) return restOk(res, extendedCard());
      return noRoute(res, `${method} ${sub}`);
    } catch (e) {
      if (e instanceof CrashError) return crash(res);
      if (e instanceof AuthError) return refuseAuth(res, 401, `Bearer ${REALM}, error="invalid_token"`);
      if (e instanceof A2AError) {
        const err = e.code === -32602 && has('invalid-params-wrong-code') && !styleProbeError(e) ? E.internal(e.message) : notFoundError(e);
        if (err instanceof CrashError) return crash(res);
        return restError(res, err);
      }
      if (!res.headersSent) return restError(res, E.internal());
      res.end();
    }
  }

  return { handleRest, noRoute };
}
