import type { SseIgnoredLine } from '../http/client';
import type { Evidence } from '../model/check';
import type { ProtocolError, StreamItem, StreamRun } from '../protocol/dialect';
import { isInterrupted, isTerminal } from '../protocol/states';
import { quantile } from '../report/series';
import { isRecord } from '../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip, TIMEOUT_KNOB, toolLimit, transportVerdict, type CheckContext, type CheckDef, type Verdict } from './define';
import { rateLimited } from './fixtures/outcomes';
import { BUDGET_ENDS, CLOSE_GRACE_MS, streamFixture, type StreamFixture } from './fixtures/stream';
import { emitState, finishingCandidates, primarySkill, runningSkill, skillInput, startRunningTask } from './fixtures/tasks';
import { needDialect } from './preconditions';

const STREAM = {
  legacy: 'v0.1.0 §7.2 tasks/sendSubscribe, §3.3 Streaming Transport',
  'v0.2': 'v0.2.6 §7.2 message/stream, §3.3',
  'v0.3': 'v0.3.0 §7.2 message/stream, §3.3.1 JSON-RPC Streaming',
  'v1.0': 'v1.0.1 §3.1.2 Send Streaming Message, §9.4.2 / §11.7 Streaming',
};

/** Preconditions of streaming checks: declared, callable. */
function streamingPre(ctx: CheckContext): Verdict | undefined {
  if (!ctx.card.capabilities.streaming) return skip('The card says streaming is not supported (capabilities.streaming is not true).', 'not-applicable');
  return needDialect(ctx);
}

/** Runs `body` once the stream fixture produced an SSE response; otherwise explains why it could not. */
async function withStream(ctx: CheckContext, body: (f: StreamFixture) => Verdict | Promise<Verdict>): Promise<Verdict> {
  const pre = streamingPre(ctx);
  if (pre) return pre;
  const f = await streamFixture(ctx);
  const r = f.run.result;
  if (!r.responded) return transportVerdict(r, 'opening the stream');
  const refused = refusedForCredentials(ctx, r);
  if (refused) return refused;
  if (f.run.reason === 'not-stream') {
    if (r.status === 429) return toolLimit(`The stream endpoint answered HTTP 429 Too Many Requests (after one polite retry where Retry-After allowed it): a rate limit, so the stream could not be judged. Allow the test client more requests or run again later.`, [exchangeEvidence(r)]);
    return skip('The stream endpoint did not answer with an event stream (see streaming.content-type).', 'precondition', [exchangeEvidence(r)]);
  }
  return body(f);
}

/** Invisible characters that break SSE lines, named (a byte order mark before a field name is the usual one). */
const visible = (s: string) => s.replace(/\uFEFF/g, '\\uFEFF (a byte order mark)').replace(/\r/g, '\\r');

/** How the stream ended, in words (our budgets named, so a flood or a stall is not mistaken for a close). */
function streamEnd(ctx: CheckContext, run: StreamRun): string {
  switch (run.reason) {
    case 'closed':
      return 'closed';
    case 'timeout':
      return `was still open when the ${ctx.taskTimeoutMs} ms budget ran out`;
    case 'idle':
      return `went silent for ${ctx.http.limits.streamIdleTimeoutMs} ms`;
    case 'limit':
      return `sent more than ${ctx.http.limits.maxStreamEvents} events (our per-stream limit; we stopped reading)`;
    case 'oversize':
      return `sent an event larger than our ${ctx.http.limits.maxBodyBytes} byte limit (we stopped reading)`;
    case 'error':
      return `broke off (${run.result.error?.message ?? 'transport error'})`;
    default:
      return `ended (${run.reason})`;
  }
}

/** Which of our budgets ended the stream, and how to raise it. */
function budgetKnob(ctx: CheckContext, run: StreamRun): string {
  switch (run.reason) {
    case 'idle':
      return `Our stream silence limit (${ctx.http.limits.streamIdleTimeoutMs} ms, limits.streamIdleTimeoutMs) ended it; it is not settable from the CLI or dashboard yet, and a longer per-task budget does not raise it.`;
    case 'limit':
      return `Our per-stream event cap (${ctx.http.limits.maxStreamEvents} events, limits.maxStreamEvents) ended it.`;
    case 'oversize':
      return `Our size limit for one event (${ctx.http.limits.maxBodyBytes} bytes, limits.maxBodyBytes) ended it.`;
    default:
      return `To give the agent more time, ${TIMEOUT_KNOB}.`;
  }
}

/** The stream broke off: our tool or the proxy (error result), or the agent (a failure naming the break). */
function brokeOff(ctx: CheckContext, run: StreamRun, what: string): Verdict {
  const e = run.result.error;
  // Our side (a proxy refusal, the user's stop) is never the agent's fault; a cut the proxy saw upstream is.
  if (e && (e.blame === 'tool' || e.source === 'abort')) return transportVerdict(run.result, what);
  return { status: 'fail', critical: e?.code === 'reset' || e?.code === 'upstream_reset', message: `The stream ${streamEnd(ctx, run)} ${what}.`, evidence: [exchangeEvidence(run.result)] };
}

const errorText = (e: ProtocolError | undefined) => (e ? `${[e.code, e.status, e.reason].filter((x) => x !== undefined && x !== '').join(' ')}${e.message ? ` "${e.message}"` : ''}`.trim() || 'no details' : 'no details');

const isContentTypeError = (e: ProtocolError | undefined) => !!e && (e.code === -32005 || e.reason === 'CONTENT_TYPE_NOT_SUPPORTED' || e.httpStatus === 415);

const notImplementedError = (e: ProtocolError | undefined, httpStatus: number) => httpStatus === 404 || httpStatus === 405 || e?.code === -32601 || e?.status === 'UNIMPLEMENTED';

/**
 * The agent answered our (valid) streaming request with an error, as an HTTP error body or as an error event:
 * a refusal, judged for what it says. The card declares streaming, so the method must work; a media type the
 * skill does not accept (and we could not produce) is a correct refusal.
 */
function refusalVerdict(ctx: CheckContext, e: ProtocolError | undefined, httpStatus: number, where: string, evidence: Evidence[]): Verdict {
  if (isContentTypeError(e) && skillInput(ctx, primarySkill(ctx)).unsupported) {
    return skip(`The agent refused the test input's media type (${errorText(e)}), which its skill does not declare and this tool could not produce another way.`, 'not-applicable', evidence);
  }
  const what = notImplementedError(e, httpStatus) ? 'answered that the streaming method does not exist' : 'refused the streaming request with an error';
  return {
    status: 'fail',
    critical: httpStatus >= 500,
    message: `The agent ${what} ${where} (${errorText(e)}${httpStatus ? `, HTTP ${httpStatus}` : ''}), although the card declares streaming (capabilities.streaming: true), so the streaming method must answer with the task's event stream.`,
    evidence,
    recommendation:
      'Serve the streaming method for the inputs your skills declare, or set capabilities.streaming to false. If the error is an internal failure of the agent, fix it: the request was a valid message built from the card.',
  };
}

const itemEvidence = (items: StreamItem[], max = 12): Evidence[] =>
  items
    .slice(0, max)
    .map((i) =>
      ev(
        `event ${i.seq}${i.event ? ` (${i.event})` : ''}`,
        `${i.kind}${i.state ? ` ${i.rawState}` : ''}${i.final ? ' final' : ''}${i.kind === 'error' ? ` ${errorText(i.error)}` : ''}\n${i.data}`,
      ),
    );

/**
 * An ignored SSE line that carried content: its data is lost. WHATWG ignores unknown fields and a non-numeric
 * retry, which is legal; but a field name that starts with a byte order mark, with JSON punctuation or white
 * space, or that spells "data" differently, is an event's data that no client will see.
 */
function lostData(l: SseIgnoredLine): boolean {
  if (l.type !== 'unknown-field') return false;
  const f = l.field;
  return /^[\uFEFF{}[\]"\s,]/.test(f) || /data/i.test(f);
}

/** Why lines were lost, in words (the usual causes named). */
function lostCause(lines: SseIgnoredLine[]): string {
  if (lines.some((l) => l.field.startsWith('\uFEFF'))) return 'a byte order mark before a field name (allowed only once, at the very start of the stream)';
  if (lines.some((l) => /^[{}[\]"\s,]/.test(l.field))) {
    return 'continuation lines lack the "data:" prefix (a multi-line JSON value needs "data:" on every line, or one line per event; the v0.2.6/v0.3.0 §9.3 examples show this invalid layout)';
  }
  return 'a misspelled "data" field';
}

export const streamingChecks: CheckDef[] = [
  defineCheck({
    id: 'streaming.content-type',
    title: 'The streaming method answers 200 with text/event-stream',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: STREAM,
    recommendation:
      'Answer the streaming method with HTTP 200 and Content-Type: text/event-stream, then write one SSE event per update. If a proxy (nginx, a CDN) sits in front, disable response buffering for this route.',
    run: async (ctx) => {
      const pre = streamingPre(ctx);
      if (pre) return pre;
      const f = await streamFixture(ctx);
      const r = f.run.result;
      if (!r.responded) return transportVerdict(r, 'opening the stream');
      const refused = refusedForCredentials(ctx, r);
      if (refused) return refused;
      if (r.status === 200 && /^\s*text\/event-stream/i.test(r.contentType)) {
        const ttfe = f.run.firstEventMs;
        return pass(`HTTP 200 text/event-stream${ttfe !== undefined ? `; first event after ${ttfe} ms` : ''}.`, [exchangeEvidence(r, `${ctx.dialect!.describe('stream')} response`)]);
      }
      // An error answer (a JSON-RPC error, a google.rpc.Status, an HTTP error with an error body) is a refusal, not
      // a framing defect: v0.1.0 §7.2 even allows an initial failure as an HTTP error with a JSON-RPC error body.
      const d = ctx.dialect!;
      const body = r.json();
      const bodyId = body.ok && isRecord(body.value) ? body.value.id : undefined;
      const answer = d.isRest ? d.parseRest(r, 'send') : d.parseRpc(r, typeof bodyId === 'string' ? bodyId : String(bodyId ?? ''), 'send');
      const limited = rateLimited(answer, 'Opening the stream');
      if (limited) return limited;
      if (answer.kind === 'error') return refusalVerdict(ctx, answer.error, r.status, 'instead of opening a stream', [exchangeEvidence(r)]);
      if (r.status === 404 || r.status === 405) return refusalVerdict(ctx, undefined, r.status, 'instead of opening a stream', [exchangeEvidence(r)]);
      return { status: 'fail', critical: r.status >= 500, message: `The stream endpoint answered HTTP ${r.status} with ${r.contentType ? `Content-Type ${r.contentType}` : 'no Content-Type'}, not an event stream (HTTP 200, text/event-stream).`, evidence: [exchangeEvidence(r)] };
    },
  }),
  defineCheck({
    id: 'streaming.framing',
    title: 'Every SSE event carries a valid payload for the generation (a JSON-RPC response with the request id on JSON-RPC)',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.2.3 Stream Response, §9.4.2, §11.7' },
    recommendation:
      'Write each event as `data: <json>` followed by a blank line (a multi-line value needs "data:" on every line). On JSON-RPC every data line is a complete JSON-RPC response {"jsonrpc":"2.0","id":<the request id>,"result":…}; on HTTP+JSON a bare StreamResponse. v0.2/v0.3 results carry "kind"; v1.0 results are {"task"|"message"|"statusUpdate"|"artifactUpdate": …}.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const run = f.run;
        const items = run.items;
        const lost = run.ignoredLines.filter(lostData);
        const benign = run.ignoredLines.filter((l) => !lostData(l));
        const bad = items.filter((i) => i.kind === 'invalid' || i.problems.length);
        const invalidUtf8 = run.result.invalidUtf8;
        const problems = [
          ...(invalidUtf8 ? ['The stream is not valid UTF-8 (SSE streams MUST be UTF-8; clients replace or reject the bytes)'] : []),
          ...(lost.length
            ? [`${lost.length}${run.ignoredLineCount >= 20 ? '+' : ''} line(s) are not SSE fields (e.g. ${visible(lost[0]!.line)}): ${lostCause(lost)}; clients ignore such lines, so their content is lost`]
            : []),
          ...(bad.length ? [`${bad.length} of ${items.length} event(s) are malformed: ${[...new Set(bad.flatMap((b) => (b.problems.length ? b.problems : ['not a valid event'])))].slice(0, 3).join('; ')}`] : []),
        ];
        const lostEvidence = lost.slice(0, 5).map((l) => ev('SSE line ignored (content lost)', visible(l.line)));
        if (!items.length && !problems.length) {
          if (run.reason === 'error') return brokeOff(ctx, run, 'before its first event');
          if (BUDGET_ENDS.has(run.reason)) return toolLimit(`No event arrived before our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`, [exchangeEvidence(run.result)]);
          return fail(`The stream ended without any event (${run.reason}): a JSON-RPC request MUST get a response, and a task stream carries at least the task.`, [exchangeEvidence(run.result)]);
        }
        if (problems.length) return fail(`${problems.join('. ')}.`, [...lostEvidence, ...itemEvidence(bad)]);
        if (run.reason === 'oversize') {
          return toolLimit(`The ${items.length} event(s) read are well-formed, but then an event exceeded our size limit and we stopped reading, so the rest of the stream was not judged. ${budgetKnob(ctx, run)}`, [exchangeEvidence(run.result)]);
        }
        const ignored = benign.length
          ? ` ${run.ignoredLineCount} line(s) were ignored as WHATWG SSE says clients must (${[...new Set(benign.map((l) => (l.type === 'invalid-retry' ? `retry "${l.value}"` : `field "${l.field}"`)))].slice(0, 3).join(', ')}): legal, nothing lost.`
          : '';
        const notes = [...new Set(items.flatMap((i) => i.notes ?? []))];
        const tail = run.reason === 'limit' ? ` We stopped reading after ${items.length} events (our limit).` : '';
        const summary = `${items.length} event(s), all well-formed${run.comments ? ` (${run.comments} comment line(s) ignored)` : ''}.${ignored}${tail}`;
        if (notes.length) {
          return {
            status: 'fail',
            advisory: `Only findings the ${ctx.generation} specification describes without requiring remain${ctx.generation === 'v1.0' ? ' (v1.0.1 §5.7: receivers SHOULD ignore unrecognized fields; sending them is no violation)' : ''}.`,
            message: `${summary} Findings the ${ctx.generation} specification does not require: ${notes.slice(0, 3).join('; ')}.`,
            evidence: itemEvidence(items.filter((i) => i.notes?.length), 3),
            recommendation: 'Drop fields the generation removed ("kind", "final" in v1.0) and write timestamps as RFC 3339 UTC (e.g. 2025-01-01T10:00:00Z): strict clients may reject anything else.',
          };
        }
        return pass(summary);
      }),
  }),
  defineCheck({
    id: 'streaming.first-event',
    title: 'The first event is the task (v1.0); before v1.0 any event may come first',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.1.2 (a task stream MUST start with the Task)' },
    recommendation: 'Send the Task as the first event (v1.0 requires it; v0.2/v0.3 SDKs do it too) before any status or artifact update.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const run = f.run;
        const first = run.items[0];
        if (!first) {
          if (run.reason === 'error') return brokeOff(ctx, run, 'before its first event');
          if (BUDGET_ENDS.has(run.reason)) return toolLimit(`No event arrived before our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`, [exchangeEvidence(run.result)]);
          return fail(`No event arrived: the stream ${streamEnd(ctx, run)} empty.`, [exchangeEvidence(run.result)]);
        }
        const timing = `first event after ${run.firstEventMs} ms; gaps p50 ${quantile(run.gapsMs, 0.5) ?? '-'} ms, max ${run.gapsMs.length ? Math.max(...run.gapsMs.slice(0, 10000)) : '-'} ms`;
        const evd = [...itemEvidence([first], 1), ev('timing', timing)];
        if (first.kind === 'error') return skip(`The agent answered the stream with an error event first (${errorText(first.error)}): the request was refused, so there is no event order to judge (streaming.terminal judges the error).`, 'precondition', evd);
        if (first.kind === 'invalid') return skip('The first event is not a valid event for the generation, so its type cannot be told (see streaming.framing).', 'precondition', evd);
        if (first.kind === 'message') return pass(`The stream is a single Message (message-only reply); ${timing}.`, evd);
        if (ctx.generation === 'v1.0') {
          return first.kind === 'task' ? pass(`The first event is the Task (${first.rawState}); ${timing}.`, evd) : fail(`The first event is a ${first.kind === 'status' ? 'status update' : 'artifact update'}${first.rawState ? ` (${first.rawState})` : ''}, but a v1.0 task stream MUST begin with the Task object (§3.1.2).`, evd);
        }
        const order = run.items.slice(0, 4).map((i) => `${i.kind}${i.rawState ? ` ${i.rawState}` : ''}`).join(' → ');
        return pass(`The first event is a ${first.kind}${first.rawState ? ` (${first.rawState})` : ''}; no release before v1.0 fixes the first event (order: ${order}); ${timing}.`, evd);
      }),
  }),
  defineCheck({
    id: 'streaming.terminal',
    title: 'The stream reaches the end of the task: final:true before v1.0, closing at a terminal state in v1.0',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §7.2.2 TaskStatusUpdateEvent.final',
      'v0.2': 'v0.2.6 §7.2.2 TaskStatusUpdateEvent.final',
      'v0.3': 'v0.3.0 §7.2.2 TaskStatusUpdateEvent.final',
      'v1.0': 'v1.0.1 §3.1.2 (MUST close at a terminal state), §11.7, §7.6.1',
    },
    recommendation:
      'Before v1.0: mark the last status update with "final": true (terminal or input-required) and close the response. v1.0: there is no "final"; close the stream right after the terminal status (at input-required/auth-required you may close or keep it open). In @a2a-js/sdk publish the final status and call eventBus.finished().',
    run: (ctx) => withStream(ctx, (f) => judgeTerminal(ctx, f)),
  }),
  defineCheck({
    id: 'streaming.after-final',
    title: 'Nothing arrives after the final event (v1.0: except one final Task snapshot)',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.1.2, §3.5.2 Streaming Event Delivery, §11.7' },
    recommendation: 'Stop publishing once the final status is out (v1.0: the terminal status, optionally followed by one final Task snapshot): close the stream; late artifacts belong before the final status.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const items = f.run.items;
        if (f.finalIndex < 0) {
          const end = items[f.endIndex];
          if (end) return skip(`The stream paused at ${end.rawState ?? end.kind} and never sent a final event; events after an interrupted state are allowed.`, 'not-applicable');
          return skip('No final event arrived (see streaming.terminal).', 'precondition');
        }
        const final = items[f.finalIndex]!;
        let after = items.slice(f.finalIndex + 1);
        let snapshot = '';
        if (ctx.generation === 'v1.0' && final.kind !== 'message') {
          // §11.7: "MAY optionally resend a final Task snapshot before closing".
          const i = after.findIndex((x) => x.kind === 'task' && isTerminal(x.state, ctx.generation));
          if (i === 0) {
            snapshot = ` (one final Task snapshot in ${after[0]!.rawState} followed, which §11.7 allows)`;
            after = after.slice(1);
          }
        }
        return after.length
          ? fail(`${after.length} event(s) arrived after the final one (${final.kind}${final.rawState ? ` ${final.rawState}` : ''}${final.final ? ', final: true' : ''}, event ${final.seq})${snapshot}.`, itemEvidence(after))
          : pass(`No event after the final one${snapshot}.`);
      }),
  }),
  defineCheck({
    id: 'streaming.closes',
    title: 'The server closes the stream after the final event',
    category: 'streaming',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §7.2 (the server closes the stream after final)', 'v0.2': 'v0.2.6 §7.2', 'v0.3': 'v0.3.0 §7.2' },
    recommendation: 'End the HTTP response after the final event; clients otherwise keep a connection (and a browser slot) open.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const endAt = f.finalIndex >= 0 ? f.finalIndex : f.endIndex;
        const end = f.run.items[endAt];
        if (!end) return skip('No final event arrived (see streaming.terminal).', 'precondition');
        if (f.finalIndex < 0 && end.kind === 'status' && isInterrupted(end.state)) {
          return skip(`The stream paused at ${end.rawState} without final: true, so it did not claim to end; nothing requires closing there.`, 'not-applicable');
        }
        return f.closed ? pass(`The stream closed after the final event (${end.kind}${end.rawState ? ` ${end.rawState}` : ''}).`) : fail(`The stream was still open ${CLOSE_GRACE_MS} ms after the final event (${end.kind}${end.rawState ? ` ${end.rawState}` : ''}, event ${end.seq}).`);
      }),
  }),
  defineCheck({
    id: 'streaming.artifacts',
    title: 'Artifact chunks reassemble (append only to an existing artifact, nothing after lastChunk)',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §7.2.3 TaskArtifactUpdateEvent (index, append, lastChunk)',
      'v0.2': 'v0.2.6 §7.2.3 TaskArtifactUpdateEvent',
      'v0.3': 'v0.3.0 §7.2.3 TaskArtifactUpdateEvent',
      'v1.0': 'v1.0.1 §4.2.2 TaskArtifactUpdateEvent',
    },
    recommendation: 'Send the first chunk of an artifact with append false (or absent) and a stable artifactId, later chunks with append: true and the same artifactId, and mark the last chunk with lastChunk: true.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const arts = f.run.items.filter((i) => i.kind === 'artifact');
        if (!arts.length) return skip('The stream carried no artifact events.', 'not-applicable');
        const seen = new Map<string, { closed: boolean; text: string; chunks: number }>();
        const problems: string[] = [];
        for (const it of f.run.items) {
          // An artifact may start inside a Task event (the first Task, or a v1.0 snapshot): appends to it are fine.
          if (it.kind === 'task') {
            for (const a of it.task?.artifacts ?? []) {
              if (!isRecord(a)) continue;
              const key = typeof a.artifactId === 'string' ? a.artifactId : String(typeof a.index === 'number' ? a.index : 0);
              if (!seen.has(key)) seen.set(key, { closed: false, text: partsText(a.parts ?? a.content), chunks: 1 });
            }
            continue;
          }
          if (it.kind !== 'artifact') continue;
          const a = it;
          const key = a.artifact?.id ?? String(a.artifact?.index ?? 0);
          const cur = seen.get(key);
          if (a.artifact?.append) {
            if (!cur) problems.push(`event ${a.seq} appends to artifact ${key}, which was never started`);
            else if (cur.closed) problems.push(`event ${a.seq} appends to artifact ${key} after its lastChunk`);
            else {
              cur.text += a.artifact.text;
              cur.chunks++;
            }
          } else seen.set(key, { closed: false, text: a.artifact?.text ?? '', chunks: 1 });
          const now = seen.get(key);
          if (now && a.artifact?.lastChunk) now.closed = true;
        }
        const summary = [...seen].map(([k, v]) => `${k}: ${v.chunks} chunk(s), ${v.text.length} chars`).join('; ');
        return problems.length ? fail(`Artifact chunks do not reassemble: ${problems.slice(0, 3).join('; ')}.`, itemEvidence(arts)) : pass(`${arts.length} artifact event(s) reassemble (${summary}).`, [ev('reassembled', [...seen].map(([k, v]) => `${k}: ${v.text}`).join('\n'))]);
      }),
  }),
  defineCheck({
    id: 'streaming.consistency',
    title: 'All events of a stream belong to one task and context',
    category: 'streaming',
    level: 'MUST',
    tier: 'optional',
    phase: 'suite',
    specRefs: STREAM,
    recommendation: 'Stamp every status and artifact update with the taskId (and contextId) of the task the stream is about.',
    run: (ctx) =>
      withStream(ctx, (f) => {
        const ids = new Set(f.run.items.map((i) => i.taskId).filter(Boolean));
        const ctxs = new Set(f.run.items.map((i) => i.contextId).filter(Boolean));
        if (ids.size > 1 || ctxs.size > 1) return fail(`The stream mixes task ids ${[...ids].join(', ')}${ctxs.size > 1 ? ` and contexts ${[...ctxs].join(', ')}` : ''}.`, itemEvidence(f.run.items));
        return pass(ids.size ? `All events are about task ${[...ids][0]}.` : 'No task ids to compare (message-only stream).');
      }),
  }),
  defineCheck({
    id: 'streaming.disconnect',
    title: 'Closing the stream mid-task leaves the task retrievable and the server healthy',
    category: 'streaming',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: { legacy: 'v0.1.0 §7.2', 'v0.2': 'v0.2.6 §7.2', 'v0.3': 'v0.3.0 §7.2 (seed procedure 3.5)', 'v1.0': 'v1.0.1 §3.5.2, §3.1.6' },
    recommendation: 'Do not tie the task to the client connection: when the SSE client goes away, keep the task running (or cancel it cleanly) and keep it in the task store; never crash the handler on a closed socket.',
    run: async (ctx) => {
      const pre = streamingPre(ctx);
      if (pre) return pre;
      const d = ctx.dialect!;
      const skillId = await runningSkill(ctx);
      const lane = ctx.lane('disconnect');
      let taskId: string | undefined;
      const run = await d.streamSend(ctx.http, { ...skillInput(ctx, skillId), lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs, taskId: d.generation === 'legacy' ? ctx.uuid() : undefined }, (it) => {
        taskId ??= it.taskId ?? it.task?.id;
        return taskId ? 'stop' : undefined;
      });
      if (!run.result.responded) return transportVerdict(run.result, 'opening the stream');
      if (!taskId) return skip('No event with a task id arrived before the stream ended, so there was nothing to disconnect from.', 'precondition', [exchangeEvidence(run.result)]);
      await ctx.http.host.sleep(200, ctx.http.signal).catch(() => undefined);
      // Health first: a crash is the finding that matters most; then whether the task survived.
      const newMessage = () => d.send(ctx.http, { ...skillInput(ctx, primarySkill(ctx)), lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs, taskId: d.generation === 'legacy' ? ctx.uuid() : undefined });
      let health = await newMessage();
      if (health.kind !== 'task' && health.kind !== 'message') {
        // An agent that restarts a worker may refuse one request: ask again once before calling it a crash.
        await ctx.http.host.sleep(1000, ctx.http.signal).catch(() => undefined);
        health = await newMessage();
      }
      if (health.kind !== 'task' && health.kind !== 'message') {
        const crash = health.kind === 'transport' || health.http.status >= 500;
        return {
          status: 'fail',
          critical: crash,
          message: `After we closed the stream, the agent no longer answers a new message (twice, 1 s apart${health.http.responded ? `; HTTP ${health.http.status}` : ''})${crash ? ': it may have crashed' : ''}.`,
          evidence: [exchangeEvidence(health.http)],
        };
      }
      const g = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
      if (g.kind !== 'task') {
        const gone = g.kind === 'error' && (g.error.code === -32001 || g.error.reason === 'TASK_NOT_FOUND' || g.http.status === 404);
        return {
          status: 'fail',
          critical: g.http.status >= 500 || g.kind === 'transport',
          message: gone
            ? `After we closed the stream, task ${taskId} is gone (${errorText(g.kind === 'error' ? g.error : undefined)}): the agent dropped the task of a client that left. The spec describes the task as outliving its stream but does not require it.`
            : `After we closed the stream, get of task ${taskId} failed (${g.kind === 'error' ? `${g.error.code ?? g.http.status} ${g.error.message}` : g.kind}).`,
          evidence: [exchangeEvidence(g.http)],
        };
      }
      emitState(ctx, lane, { source: 'get', at: ctx.http.host.now(), task: g.task, exchangeId: g.http.exchangeId });
      return pass(`Task ${taskId} is still retrievable (${g.task.rawState}) and the agent answers new messages.`, [exchangeEvidence(g.http)]);
    },
  }),
  defineCheck({
    id: 'streaming.resubscribe',
    title: 'Resubscribing to a running task streams its updates (v1.0: the Task first)',
    category: 'streaming',
    level: 'SHOULD',
    phase: 'suite',
    specRefs: {
      legacy: 'v0.1.0 §7.7 tasks/resubscribe',
      'v0.2': 'v0.2.6 §7.9 tasks/resubscribe',
      'v0.3': 'v0.3.0 §7.9 tasks/resubscribe',
      'v1.0': 'v1.0.1 §3.1.6 Subscribe to Task',
    },
    recommendation: 'Implement resubscribe (SubscribeToTask in v1.0) for tasks that are still running: send the current Task first (v1.0) and then the remaining updates, closing at the terminal state.',
    run: async (ctx) => {
      const pre = streamingPre(ctx);
      if (pre) return pre;
      const d = ctx.dialect!;
      const g = ctx.generation;
      const lane = ctx.lane('resubscribe');
      let from = 0;
      let lastSkip: Verdict = skip('No task could be started to resubscribe to.', 'precondition');
      // Prefer tasks that finish (a paused one tests something else); a quick task may finish before the
      // subscription lands: then try the next skill (at most 4).
      const candidates = await finishingCandidates(ctx);
      for (;;) {
        const started = await startRunningTask(ctx, 'resubscribe', from, lane, candidates);
        if (!started) return lastSkip;
        const { send } = started;
        from = started.index + 1;
        if (send.kind !== 'task' || !send.task.id) return skip('Could not start a task to resubscribe to.', 'precondition', [exchangeEvidence(send.http)]);
        if (!started.running) {
          lastSkip = skip(`The tasks finished (${send.task.rawState}) before we could resubscribe.`, 'precondition');
          continue;
        }
        const taskId = send.task.id;
        // Read until the stream ends by itself. After the end of the task (a terminal state; before v1.0 also
        // final:true) allow a grace period to close; an interrupted state ends the test too, without requiring a
        // close (v1.0 §3.1.6 lists terminal states only). A watchdog polls the task: finished but not delivered
        // is a hanging stream.
        const stop = new AbortController();
        const quit = new AbortController();
        let endSeenAs: string | undefined;
        let mustClose = false;
        let finishedAs: string | undefined;
        let finishedTerminal = false;
        let grace: AbortController | undefined;
        // (Re)starts the grace period: a later end (a pause, then the terminal state) gets its own full period.
        const stopAfterGrace = () => {
          grace?.abort();
          const mine = new AbortController();
          grace = mine;
          return ctx.http.host.sleep(CLOSE_GRACE_MS, AbortSignal.any([mine.signal, quit.signal])).then(
            () => stop.abort(),
            () => undefined,
          );
        };
        const watchdog = (async () => {
          for (;;) {
            const ok = await ctx.http.host.sleep(1000, quit.signal).then(
              () => true,
              () => false,
            );
            if (!ok || finishedAs || endSeenAs) return;
            const got = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
            if (got.kind === 'task' && (isTerminal(got.task.state, g) || isInterrupted(got.task.state))) {
              finishedAs = got.task.rawState;
              finishedTerminal = isTerminal(got.task.state, g);
              if (!endSeenAs) await stopAfterGrace();
              return;
            }
          }
        })();
        const run = await d.subscribe(ctx.http, { id: taskId, lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs, stopSignal: stop.signal }, (it) => {
          const terminal = isTerminal(it.state, g) || (g !== 'v1.0' && it.final === true) || it.kind === 'message' || it.kind === 'error';
          if (!mustClose && terminal) {
            mustClose = true;
            endSeenAs = it.rawState ?? (it.final ? 'final' : it.kind);
            void stopAfterGrace();
          } else if (!endSeenAs && isInterrupted(it.state)) {
            endSeenAs = it.rawState;
            void stopAfterGrace();
          }
        });
        quit.abort();
        await watchdog;
        const evd = [exchangeEvidence(run.result, `${d.describe('subscribe', taskId)} response`), ...itemEvidence(run.items, 5)];
        const openAtEnd = run.reason === 'stopped' || BUDGET_ENDS.has(run.reason);
        if (openAtEnd && mustClose) {
          return fail(
            `The resubscribed stream delivered ${endSeenAs} but was still open ${run.reason === 'stopped' ? `${CLOSE_GRACE_MS} ms later` : 'when our budget ran out'}${g === 'v1.0' ? ' (v1.0 §3.1.6: the stream MUST terminate when the task reaches a terminal state)' : ''}.`,
            evd,
            'Close the subscription stream right after sending the terminal status; clients otherwise hold a connection open for nothing.',
          );
        }
        if (openAtEnd && finishedAs && finishedTerminal && !endSeenAs) {
          return fail(
            `The task reached ${finishedAs} but the resubscribed stream neither delivered that nor closed (${run.items.length} event(s), still open ${run.reason === 'stopped' ? `${CLOSE_GRACE_MS} ms later` : `when our budget ended: it ${streamEnd(ctx, run)}`}).`,
            evd,
            'When a subscription starts, send the current Task and then every later update; if the task finishes between the snapshot and the subscription, send the terminal status and close. Subscribe to the event bus before taking the snapshot so no transition falls in between.',
          );
        }
        if (!run.result.responded) return transportVerdict(run.result, 'resubscribing');
        if (run.reason === 'error') return brokeOff(ctx, run, 'while resubscribed');
        if (run.reason === 'not-stream') {
          const body = run.result.json();
          const isErrorAnswer = run.result.status >= 400 || (body.ok && isRecord(body.value) && body.value.error !== undefined);
          if (!isErrorAnswer) return fail(`Resubscribe answered HTTP ${run.result.status} ${run.result.contentType || ''} with a result, not an event stream.`, evd);
          // A task that finished before the subscription may be refused legitimately (v1.0: UnsupportedOperation).
          const now = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
          if (now.kind === 'task' && isTerminal(now.task.state, g)) {
            lastSkip = skip(`The task finished (${now.task.rawState}) before the subscription, so resubscribing to a running task could not be exercised.`, 'precondition', evd);
            continue;
          }
          const code = body.ok ? (body.value as { error?: { code?: unknown } })?.error?.code : undefined;
          if (code === -32601 || run.result.status === 404 || run.result.status === 405) return fail('Resubscribe is not implemented (method not found).', evd);
          if (code === -32004) return fail('The agent declares streaming but answers resubscribe with UnsupportedOperation.', evd);
          return fail(`Resubscribe answered HTTP ${run.result.status} ${run.result.contentType}, not an event stream.`, evd);
        }
        if (run.items[0]?.kind === 'error') {
          // The same refusal, delivered as the first event of a stream: judged like the JSON answer above.
          const now = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
          if (now.kind === 'task' && isTerminal(now.task.state, g)) {
            lastSkip = skip(`The task finished (${now.task.rawState}) before the subscription, and the agent refused it with an error event, so resubscribing to a running task could not be exercised.`, 'precondition', evd);
            continue;
          }
          const e = run.items[0].error;
          if (e?.code === -32601 || e?.httpStatus === 404) return fail('Resubscribe is not implemented (method not found, as the first event).', evd);
          return fail(`Resubscribe to running task ${taskId} was refused with an error event (${e?.code ?? e?.httpStatus ?? ''} ${e?.message ?? ''}).`, evd);
        }
        return judgeResubscribe(ctx, run, taskId, evd, endSeenAs, finishedAs);
      }
    },
  }),
];

/** Text of an artifact's parts (for artifacts that arrive inside a Task event). */
function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .slice(0, 50)
    .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : ''))
    .join('');
}

/** streaming.terminal: did the stream reach the end of the task, and (v1.0) close there? */
function judgeTerminal(ctx: CheckContext, f: StreamFixture): Verdict {
  const g = ctx.generation;
  const run = f.run;
  const items = run.items;
  const evd = [...itemEvidence(items.slice(-4)), ev('stream end', `${run.reason} after ${items.length} event(s)`)];
  const lastState = [...items].reverse().find((i) => i.state)?.rawState;
  const error = items.find((i) => i.kind === 'error');
  if (error && (f.finalIndex < 0 || items[f.finalIndex] === error)) {
    // An error event legitimately ends a stream (v0.1.0 §7.2 MAY; the v0.2/v0.3 schema allows error responses);
    // what it says is the finding: our valid request failed.
    return refusalVerdict(ctx, error.error, 0, `in the stream (event ${error.seq})`, evd);
  }
  const end = items[f.endIndex];
  const final = items[f.finalIndex];
  if (!end) {
    if (run.reason === 'error') return brokeOff(ctx, run, `before the task ended (last state ${lastState ?? 'none'})`);
    if (BUDGET_ENDS.has(run.reason)) {
      const rb = f.readBack;
      if (rb?.kind === 'task' && isTerminal(rb.task.state, g)) {
        return fail(
          `The task reached ${rb.task.rawState} (read back with get), but the stream neither delivered that nor closed: it ${streamEnd(ctx, run)} (last streamed state ${lastState ?? 'none'}).`,
          [...evd, exchangeEvidence(rb.http, 'get after the stream')],
          g === 'v1.0' ? 'Publish the terminal status on the stream and close it (v1.0 §3.1.2).' : 'Publish the last status with "final": true and close the stream.',
        );
      }
      if (rb?.kind === 'task' && isInterrupted(rb.task.state)) {
        return {
          status: 'fail',
          advisory: 'The task paused (an interrupted state); nothing requires closing the stream there, only delivering its updates.',
          message: `The task is in ${rb.task.rawState} (read back with get), but the stream did not deliver that state: it ${streamEnd(ctx, run)} (last streamed state ${lastState ?? 'none'}).`,
          evidence: [...evd, exchangeEvidence(rb.http, 'get after the stream')],
        };
      }
      const state = rb?.kind === 'task' ? `still ${rb.task.rawState} (read back with get)` : rb ? `of unknown state (the get after the stream ${rb.kind === 'error' ? `failed: ${errorText(rb.error)}` : `gave ${rb.kind}`})` : 'of unknown state (no event named the task)';
      return toolLimit(`The stream ${streamEnd(ctx, run)} before the task ended; the task is ${state}. Not the agent's fault as far as we can see. ${budgetKnob(ctx, run)}`, [...evd, ...(rb ? [exchangeEvidence(rb.http, 'get after the stream')] : [])]);
    }
    if (g === 'v1.0') return fail(`The stream ${streamEnd(ctx, run)} without reaching a terminal or interrupted state (last state ${lastState ?? 'none'}): a v1.0 task stream ends at a terminal state (§3.1.2).`, evd);
    return fail(`No final event arrived: the stream ${streamEnd(ctx, run)} (last state ${lastState ?? 'none'}) and no status update had "final": true.`, evd);
  }
  if (end.kind === 'message') {
    if (g === 'v1.0' && !f.closed) return fail(`The stream carried a Message but did not close within ${CLOSE_GRACE_MS} ms (§3.1.2: exactly one Message, then close immediately).`, evd);
    return pass(`The stream is a Message reply (event ${end.seq}).`, evd);
  }
  // A break right after the end (a reset instead of a clean close) still ends the stream for the client.
  const ended = f.closed || run.reason === 'error';
  const how = f.closed ? 'closed' : `ended with a transport error instead of a clean close (${run.result.error?.message ?? 'error'})`;
  if (g === 'v1.0') {
    if (final) {
      if (!ended) return fail(`The stream reached ${final.rawState} but did not close within ${CLOSE_GRACE_MS} ms${run.reason === 'stopped' ? '' : ` (it ${streamEnd(ctx, run)})`}; v1.0 §3.1.2: the stream MUST close when the task reaches a terminal state.`, evd);
      return pass(`The stream reached ${final.rawState} at event ${final.seq} of ${items.length} and ${how}.`, evd);
    }
    // Interrupted: §3.1.2/§3.1.6 require closing at terminal states only; §11.7 describes closing at interrupted
    // ones too; §7.6.1 says streams SHOULD stay open at AUTH_REQUIRED.
    if (ended) return pass(`The stream reached ${end.rawState} at event ${end.seq} and ${how} (allowed at an interrupted state).`, evd);
    if (end.state === 'auth-required') return pass(`The stream reached ${end.rawState} and stayed open, as v1.0 §7.6.1 says it SHOULD.`, evd);
    return {
      status: 'fail',
      advisory: 'v1.0.1 §3.1.2 and §3.1.6 require closing at terminal states only; §11.7 describes the stream closing at a terminal or interrupted state. Staying open is allowed.',
      message: `The stream reached ${end.rawState} at event ${end.seq} and stayed open (still open ${CLOSE_GRACE_MS} ms later); clients that follow §11.7 wait for the close.`,
      evidence: evd,
      recommendation: 'Either close the stream at input-required (clients then send the answer as a new streaming message) or keep it open and document it; both are allowed.',
    };
  }
  if (final) return pass(`The stream reached ${final.rawState ?? final.kind} with "final": true at event ${final.seq} of ${items.length}.`, evd);
  if (end.kind === 'task') {
    // The schema lets any event be a Task; the reference SDK (a2a-python) ends a stream at a Task in a terminal or
    // input-required state.
    return pass(`The stream ended with the Task in ${end.rawState} (event ${end.seq})${f.closed ? ' and closed' : ''}; a Task in that state ends the stream for SDK clients.`, evd);
  }
  if (isTerminal(end.state, g)) return fail(`A terminal status (${end.rawState}, event ${end.seq}) arrived but no event had "final": true.`, evd);
  // Interrupted status without final:true.
  if (!f.closed) return pass(`The stream paused at ${end.rawState} (event ${end.seq}) and stayed open without "final": true; nothing before v1.0 requires closing there.`, evd);
  return {
    status: 'fail',
    advisory: `Before v1.0, "final" is described as marking the end of the stream, but no sentence says when an interrupted state must carry it.`,
    message: `The stream closed at ${end.rawState} (event ${end.seq}) without any event having "final": true.`,
    evidence: evd,
  };
}

function judgeResubscribe(ctx: CheckContext, run: StreamRun, taskId: string, evd: Evidence[], endSeenAs: string | undefined, finishedAs: string | undefined): Verdict {
  if (!run.items.length) {
    if (BUDGET_ENDS.has(run.reason)) return toolLimit(`The resubscribed stream carried no event before our budget ended (it ${streamEnd(ctx, run)}). ${budgetKnob(ctx, run)}`, evd);
    return fail('The resubscribed stream carried no event.', evd);
  }
  if (ctx.generation === 'v1.0' && run.items[0]!.kind !== 'task') return fail(`SubscribeToTask sent a ${run.items[0]!.kind} first; v1.0 §3.1.6: the operation MUST return a Task object as the first event.`, evd);
  const foreign = run.items.filter((i) => i.taskId && i.taskId !== taskId);
  if (foreign.length) return fail(`The resubscribed stream carried events of another task (${foreign[0]!.taskId}).`, evd);
  const paused = endSeenAs ?? finishedAs;
  if ((run.reason === 'stopped' || BUDGET_ENDS.has(run.reason)) && paused) {
    return pass(`Resubscribed to task ${taskId}: ${run.items.length} event(s); the task paused at ${paused} and the stream stayed open, which is allowed (only terminal states end a subscription).`, evd);
  }
  if (BUDGET_ENDS.has(run.reason)) return toolLimit(`Resubscribed to task ${taskId} (${run.items.length} event(s)), but the task was still running when our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`, evd);
  return pass(`Resubscribed to task ${taskId}: ${run.items.length} event(s), ended ${run.reason}.`, evd);
}
