/**
 * The conversation tap (issue 26): a recording, judging relay between any A2A client and an agent. Web-standard
 * (`handle(Request) => Response`): the CLI and the local server mount it. It serves the agent's card with every
 * interface URL pointing at itself, forwards every other request and relays the answer as it comes (a stream is
 * piped, never buffered), and records both sides as TapEvents, judging the client's requests
 * (src/engine/judges/client.ts) and the agent's answers (as the console session judges them).
 */
import { clientFinding, judgeTaskNotFound, type ClientFinding } from '../judges/client';
import type { Finding } from '../judges';
import { timerSleep } from '../ports';
import { Redactor } from '../redact';
import { truncate } from '../util/json';
import { StreamJudge, cardFindings, judgePlainAnswer, type AnswerContext, type TaskShown } from './agent';
import { plainSeen, watchBody, type BodyEnd, type BodySeen } from './body';
import { Conversation } from './conversation';
import { DEFAULT_TAP_LIMITS, TapRecord, type NewTapEvent } from './record';
import { forwardHeaders, learnSecrets, pickInterface, readBounded, readRequest, relayHeaders, TooLarge } from './request';
import { isCardPath, RouteTable, rewriteCard } from './routes';
import { interfacesFor, resolveTarget, tapHost, type TapTarget } from './target';
import type { Tap, TapFaults, TapFinding, TapLimits, TapOptions, TapSide } from './types';

/** Plain answers up to this size with a declared length are read whole before they are relayed (no stream set up). */
const SMALL_BODY_BYTES = 64 * 1024;

const text = (status: number, body: string, extra: Record<string, string> = {}) =>
  new Response(JSON.stringify({ error: body }), { status, headers: { 'content-type': 'application/json', 'x-tap-error': 'true', ...extra } });

export function createTap(o: TapOptions): Tap {
  const now = o.now ?? (() => Date.now());
  const limits: TapLimits = { ...DEFAULT_TAP_LIMITS, ...o.limits };
  const record = new TapRecord(limits, now());
  const routes = new RouteTable(o.agentUrl);
  const host = tapHost(o.fetch, now);
  const redactor = new Redactor();
  const secrets = { count: 0 };
  /** Aborted by close(): cuts the answers still being relayed. */
  const closing = new AbortController();
  let faults: TapFaults = { ...o.faults };
  let failOnceArmed = faults.failOnce !== undefined;
  let conversation = new Conversation();
  let target: TapTarget | undefined;
  let resolving: Promise<TapTarget | undefined> | undefined;
  let exchangeSeq = 0;
  let lastCardJudged: string | undefined;
  /** Judgements still running in the background (the card's). */
  const background = new Set<Promise<void>>();
  let closed = false;

  const emit = (e: NewTapEvent) => record.emit(e);
  const mask = (s: string) => truncate(redactor.text(s), limits.maxBodyBytes);
  const finding = (side: TapSide, f: Finding | ClientFinding, exchangeId: string) => {
    const tf: TapFinding = {
      side,
      checkId: f.checkId,
      level: f.level,
      message: redactor.text(f.message),
      exchangeId,
      ...(f.specRef && { specRef: f.specRef }),
      ...('quote' in f && f.quote && { quote: f.quote }),
      ...('recommendation' in f && f.recommendation && { recommendation: f.recommendation }),
      ...('frame' in f && f.frame !== undefined && { frame: f.frame }),
    };
    emit({ kind: 'finding', id: exchangeId, at: now(), side, finding: tf });
  };
  const sleep = (ms: number) => timerSleep(ms);

  async function ensureTarget(): Promise<TapTarget | undefined> {
    if (target) return target;
    resolving ??= resolveTarget(host, o.agentUrl).then((t) => {
      resolving = undefined;
      if (t && !target) {
        target = t;
        conversation = new Conversation(t.generation);
        conversation.requiredExtensions = t.info.requiredExtensions;
        emit({ kind: 'target', id: 'x0', at: now(), target: t.info });
      }
      return target;
    });
    return resolving;
  }

  /** The client's request as recorded (masked, capped). */
  function start(id: string, req: Request, upstreamUrl: string, body: string | undefined, bodySize: number, operation: string, streaming: boolean) {
    learnSecrets(redactor, req.headers, secrets);
    emit({
      kind: 'exchange-start',
      id,
      at: now(),
      side: 'client',
      method: req.method,
      url: redactor.url(req.url),
      upstreamUrl: redactor.url(upstreamUrl),
      headers: redactor.headers(req.headers),
      ...(body !== undefined && { body: mask(body) }),
      bodySize,
      bodyTruncated: bodySize > limits.maxBodyBytes,
      operation,
      streaming,
    });
  }

  function endFailed(id: string, startedAt: number, code: 'unreachable' | 'reset' | 'client-closed' | 'fault' | 'tool', message: string, status?: number) {
    emit({
      kind: 'exchange-end',
      id,
      at: now(),
      side: 'agent',
      ...(status !== undefined && { status }),
      bodySize: 0,
      bodyTruncated: false,
      stream: false,
      frames: 0,
      durationMs: now() - startedAt,
      error: { code, message },
    });
  }

  /** Sends the request on (aborted when the client goes away). */
  async function upstream(id: string, req: Request, url: string, body: Uint8Array | undefined, startedAt: number): Promise<Response | undefined> {
    try {
      return await o.fetch(
        new Request(url, {
          method: req.method,
          headers: forwardHeaders(req.headers),
          ...(body && req.method !== 'GET' && req.method !== 'HEAD' && { body: body as Uint8Array<ArrayBuffer> }),
          redirect: 'manual',
          signal: req.signal,
        }),
      );
    } catch (e) {
      endFailed(id, startedAt, 'unreachable', `the agent could not be reached: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
  }

  async function handleCard(id: string, req: Request, rest: string, base: string, startedAt: number): Promise<Response> {
    const t = await ensureTarget();
    const url = t?.cardUrl ?? routes.toUpstream(rest);
    if (!url) return text(404, 'no such interface behind this tap');
    start(id, req, url, undefined, 0, 'card', false);
    if (faults.slowCardMs) {
      emit({ kind: 'fault', id, at: now(), fault: 'slow-card', detail: `the card was held ${faults.slowCardMs} ms` });
      await sleep(faults.slowCardMs);
    }
    const res = await upstream(id, req, url, undefined, startedAt);
    if (!res) return text(502, 'the tap could not reach the agent');
    const headersAt = now();
    const raw = await readBounded(res.body, 1024 * 1024).catch(() => undefined);
    const bodyText = raw ? new TextDecoder().decode(raw) : '';
    let out = bodyText;
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      parsed = undefined;
    }
    if (res.ok && parsed !== undefined) {
      // The agent's card, judged once per version of it with the run's card checks (in the background: the client
      // gets the card at once).
      if (bodyText !== lastCardJudged) {
        lastCardJudged = bodyText;
        const judging = cardFindings(parsed, url).then(
          (fs) => fs.forEach((f) => finding('agent', f, id)),
          () => undefined,
        );
        background.add(judging);
        void judging.finally(() => background.delete(judging));
      }
      const r = rewriteCard(parsed, routes, base);
      out = JSON.stringify(r.card);
      if (t && (r.notes.length || r.notRelayed.length) && !t.info.notes) {
        t.info.notes = r.notes;
        t.info.notRelayed = [...t.info.notRelayed, ...r.notRelayed.filter((n) => !t.info.notRelayed.some((x) => x.url === n.url))];
        emit({ kind: 'target', id, at: now(), target: t.info });
      }
    }
    const headers = relayHeaders(res.headers);
    emit({
      kind: 'exchange-end',
      id,
      at: now(),
      side: 'agent',
      status: res.status,
      ...(res.statusText && { statusText: res.statusText }),
      headers: redactor.headers(res.headers),
      body: mask(bodyText),
      bodySize: raw?.length ?? 0,
      bodyTruncated: (raw?.length ?? 0) > limits.maxBodyBytes,
      stream: false,
      frames: 0,
      headersMs: headersAt - startedAt,
      durationMs: now() - startedAt,
    });
    return new Response(req.method === 'HEAD' ? null : out, { status: res.status, statusText: res.statusText, headers });
  }

  function observeTasks(tasks: readonly TaskShown[], id: string) {
    for (const t of tasks) conversation.observeTask(t.taskId, t.state, t.rawState, t.contextId, now(), id);
  }

  async function handleForward(id: string, req: Request, rest: string | undefined, base: string, startedAt: number): Promise<Response> {
    const upstreamUrl = routes.toUpstream(rest);
    if (!upstreamUrl) return text(404, 'no such interface behind this tap');
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readBounded(req.body, limits.maxRequestBytes);
    } catch (e) {
      return e instanceof TooLarge ? text(413, e.message) : text(400, 'the request body could not be read');
    }
    const bodyText = bytes ? new TextDecoder().decode(bytes) : undefined;
    const t = await ensureTarget();
    const query = new URL(upstreamUrl).searchParams;
    const { candidates, path } = interfacesFor(t, upstreamUrl);
    const iface = pickInterface(candidates, req.method, path, req.headers, query, bodyText);
    const read = readRequest(
      t,
      iface,
      { method: req.method, path, headers: req.headers, query, ...(bodyText !== undefined && { body: bodyText }) },
      conversation,
    );
    const j = read.judgement;
    start(id, req, upstreamUrl, bodyText, bytes?.length ?? 0, j?.wireName ?? `${req.method} ${path}`, j?.streaming ?? false);
    for (const f of j?.findings ?? []) finding('client', f, id);
    if (j?.messageId) conversation.useMessageId(j.messageId);
    if (j?.taskId && (j.operation === 'send' || j.operation === 'stream')) conversation.clientNamedTask(j.taskId);
    if (j?.operation === 'get' || j?.operation === 'subscribe') conversation.clientFollowedUp(j.taskId);

    if (faults.delayMs) {
      emit({ kind: 'fault', id, at: now(), fault: 'delay', detail: `the request was held ${faults.delayMs} ms` });
      await sleep(faults.delayMs);
    }
    if (failOnceArmed && faults.failOnce !== undefined) {
      failOnceArmed = false;
      if (faults.failOnce === 'reset') {
        emit({ kind: 'fault', id, at: now(), fault: 'reset', detail: 'the connection was reset once (no answer)' });
        endFailed(id, startedAt, 'fault', 'the tap reset the connection (fault injection)');
        return Response.error();
      }
      emit({ kind: 'fault', id, at: now(), fault: 'fail-503', detail: 'answered 503 once instead of forwarding' });
      endFailed(id, startedAt, 'fault', 'the tap answered 503 (fault injection)', 503);
      return text(503, 'service unavailable (injected by the tap)', { 'retry-after': '1' });
    }

    const res = await upstream(id, req, upstreamUrl, bytes, startedAt);
    if (!res) return text(502, 'the tap could not reach the agent');
    const headersAt = now();
    const headers = relayHeaders(res.headers);
    const location = res.headers.get('location');
    if (location) {
      const to = routes.toTap(new URL(location, upstreamUrl).toString(), base);
      if (to) headers.set('location', to);
    }
    const sse = (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
    const g = read.generation;
    const ctx: AnswerContext | undefined =
      g && read.binding && j?.operation
        ? {
            generation: g,
            binding: read.binding,
            shapeBinding: g === 'v0.3' && read.binding === 'HTTP+JSON' && read.objectStyle ? 'JSONRPC' : read.binding,
            operation: j.operation,
            exchangeId: id,
            url: upstreamUrl,
            ...(j.rpcId !== undefined && { rpcId: j.rpcId }),
            ...(j.taskId && g !== 'legacy' && { taskId: j.taskId }),
            ...(j.taskId && g === 'legacy' && { clientTaskId: j.taskId }),
            startedAt,
            headersAt,
            status: res.status,
            headers: res.headers,
            memory: conversation.memory,
          }
        : undefined;
    const streamJudge = sse && ctx ? new StreamJudge(ctx) : undefined;
    let lastTask: string | undefined;
    const onEnd = (how: BodyEnd, seen: BodySeen) => {
      const endedAt = now();
      // Closing the tap cuts what is in flight: that end is ours, not judged.
      if (ctx && j && !closed) {
        if (streamJudge) for (const f of streamJudge.end(how, seen, endedAt)) finding('agent', f, id);
        else if (how !== 'client-closed') {
          const p = judgePlainAnswer(ctx, seen, endedAt, how);
          for (const f of p.findings) finding('agent', f, id);
          observeTasks(p.tasks, id);
          const err = p.outcome.kind === 'error' ? p.outcome.error : undefined;
          const nf = g && judgeTaskNotFound(g, j, { rpcCode: err?.code, httpStatus: res.status, reason: err?.reason });
          if (nf && (err || read.binding === 'HTTP+JSON')) finding('client', nf, id);
        }
      }
      if (how === 'fault') conversation.dropped({ exchangeId: id, ...(lastTask && { taskId: lastTask }), at: endedAt });
      emit({
        kind: 'exchange-end',
        id,
        at: endedAt,
        side: 'agent',
        status: res.status,
        ...(res.statusText && { statusText: res.statusText }),
        headers: redactor.headers(res.headers),
        ...(!sse && { body: mask(seen.text) }),
        bodySize: seen.bytes,
        bodyTruncated: seen.bytes > limits.maxBodyBytes,
        stream: sse,
        frames: seen.events,
        headersMs: headersAt - startedAt,
        durationMs: endedAt - startedAt,
        ...(how === 'error' && { error: { code: 'reset' as const, message: seen.error ?? 'the agent broke the connection off' } }),
        ...(how === 'client-closed' && { error: { code: 'client-closed' as const, message: 'the client closed the connection before the end' } }),
        ...(how === 'fault' && { error: { code: 'fault' as const, message: `the tap cut the stream after ${seen.events} event(s) (fault injection)` } }),
      });
    };
    if (!res.body || req.method === 'HEAD') {
      onEnd('closed', { bytes: 0, text: '', truncated: false, bom: false, invalidUtf8: false, events: 0, ignoredLines: [], ignoredLineCount: 0 });
      return new Response(null, { status: res.status, statusText: res.statusText, headers });
    }
    if (j?.operation === 'extendedCard' && !sse && res.ok) {
      // The extended card names the interfaces too: rewritten like the public card, or the client would leave the tap.
      const raw = await readBounded(res.body, 1024 * 1024).catch(() => undefined);
      const original = raw ? new TextDecoder().decode(raw) : '';
      let out = original;
      try {
        const v = JSON.parse(original) as Record<string, unknown>;
        out = JSON.stringify(
          read.binding === 'JSONRPC' && 'result' in v ? { ...v, result: rewriteCard(v.result, routes, base).card } : rewriteCard(v, routes, base).card,
        );
      } catch {
        /* not JSON: relayed as it is, judged as it is */
      }
      onEnd('closed', {
        bytes: raw?.length ?? 0,
        text: original,
        truncated: false,
        bom: false,
        invalidUtf8: false,
        events: 0,
        ignoredLines: [],
        ignoredLineCount: 0,
      });
      return new Response(out, { status: res.status, statusText: res.statusText, headers });
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (!sse && Number.isInteger(declared) && declared >= 0 && declared <= SMALL_BODY_BYTES) {
      // A small plain answer of declared length is read at once (it is in the first packets): no stream to set up.
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = new Uint8Array(await res.arrayBuffer());
      } catch (e) {
        onEnd('error', { ...plainSeen(new Uint8Array(0), 0), error: e instanceof Error ? e.message : String(e) });
        return Response.error();
      }
      onEnd('closed', plainSeen(bytes, Math.max(limits.maxBodyBytes, limits.maxRequestBytes)));
      return new Response(bytes, { status: res.status, statusText: res.statusText, headers });
    }
    const body = watchBody(res.body, {
      sse,
      now,
      signal: closing.signal,
      keepBytes: Math.max(limits.maxBodyBytes, limits.maxRequestBytes),
      maxEventBytes: limits.maxRequestBytes,
      ...(sse && faults.dropStreamAfter !== undefined && { dropAfter: faults.dropStreamAfter }),
      onEvent: (m) => {
        emit({
          kind: 'sse-frame',
          id,
          at: m.at,
          side: 'agent',
          frame: m.seq,
          ms: m.at - startedAt,
          ...(m.event !== undefined && { event: m.event }),
          data: mask(m.data),
        });
        if (!streamJudge) return;
        const fr = streamJudge.frame(m);
        for (const f of fr.findings) finding('agent', f, id);
        if (fr.task) {
          lastTask = fr.task.taskId;
          observeTasks([fr.task], id);
        }
      },
      onEnd,
    });
    if (sse && faults.dropStreamAfter !== undefined)
      emit({ kind: 'fault', id, at: now(), fault: 'drop-stream', detail: `the stream will be cut after ${faults.dropStreamAfter} event(s)` });
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  }

  /** Findings that only the end (or the state so far) shows: input never given, a dropped stream never resumed. */
  function pending(): TapFinding[] {
    const g = target?.generation;
    if (!g) return [];
    const out: TapFinding[] = [];
    for (const w of conversation.waiting()) {
      const f = clientFinding(g, 'client.input-required', `Task ${w.taskId} asked for input and the client has not answered it${closed ? '' : ' (so far)'}.`);
      if (f) out.push({ ...f, message: redactor.text(f.message), exchangeId: w.exchangeId ?? 'x0' });
    }
    for (const d of conversation.drops.filter((x) => !x.followedUp)) {
      const f = clientFinding(
        g,
        'client.resubscribe',
        `The tap dropped the stream of exchange ${d.exchangeId}${d.taskId ? ` (task ${d.taskId})` : ''}, and the client has not resubscribed or read the task since${closed ? '' : ' (so far)'}.`,
      );
      if (f) out.push({ ...f, message: redactor.text(f.message), exchangeId: d.exchangeId });
    }
    return out;
  }

  return {
    async handle(req: Request, base: string): Promise<Response> {
      if (closed) return text(503, 'this tap is closed');
      const baseUrl = new URL(base.endsWith('/') ? base : `${base}/`);
      const url = new URL(req.url);
      const basePath = baseUrl.pathname;
      let rest: string | undefined;
      if (url.pathname === basePath.slice(0, -1)) rest = url.search || undefined;
      else if (url.pathname.startsWith(basePath)) rest = url.pathname.slice(basePath.length) + url.search;
      else return text(404, 'not a path of this tap');
      const id = `x${++exchangeSeq}`;
      const startedAt = now();
      try {
        if ((req.method === 'GET' || req.method === 'HEAD') && rest !== undefined && isCardPath(rest))
          return await handleCard(id, req, rest, baseUrl.toString(), startedAt);
        return await handleForward(id, req, rest, baseUrl.toString(), startedAt);
      } catch (e) {
        // A failure of the tap itself: said as ours, never the agent's or the client's.
        endFailed(id, startedAt, 'tool', `the tap failed: ${e instanceof Error ? e.message : String(e)}`);
        return text(500, 'the tap failed relaying this request');
      }
    },
    events: { subscribe: (cb) => record.subscribe(cb), list: (after) => record.list(after) },
    report: () => record.report(o.agentUrl, faults, now(), pending()),
    faults: () => ({ ...faults }),
    async settled() {
      while (background.size) await Promise.all([...background]);
    },
    setFaults(f: TapFaults) {
      faults = { ...f };
      failOnceArmed = faults.failOnce !== undefined;
    },
    close() {
      closed = true;
      closing.abort();
      record.clearSubscribers();
    },
  };
}
