/**
 * Streaming checks on how the shared stream opens: HTTP 200 text/event-stream, well-formed SSE events with a
 * valid payload, and (v1.0) the Task first.
 */
import { emptyStreamFinding, firstEventFinding, lostData, notAStreamFinding, streamFramingFindings, visibleLine } from '../../judges/stream';
import { quantile } from '../../util/stats';
import { isRecord } from '../../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, refusedForCredentials, skip, toolLimit, transportVerdict } from '../define';
import { rateLimited } from '../setups/outcomes';
import { BUDGET_ENDS, streamFixture } from '../setups/stream';
import { brokeOff, budgetKnob, errorText, itemEvidence, refusalVerdict, STREAM, streamEnd } from './shared';

export const streamingContentType = defineCheck({
  id: 'streaming.content-type',
  title: 'The streaming method answers 200 with text/event-stream',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: STREAM,
  recommendation:
    'Answer the streaming method with HTTP 200 and Content-Type: text/event-stream, then write one SSE event per update. If a proxy (nginx, a CDN) sits in front, disable response buffering for this route.',
  requires: ['streaming', 'sse-streams'],
  run: async (ctx) => {
    const f = await streamFixture(ctx);
    const r = f.run.result;
    if (!r.responded) return transportVerdict(r, 'opening the stream');
    const refused = refusedForCredentials(ctx, r);
    if (refused) return refused;
    if (r.status === 200 && /^\s*text\/event-stream/i.test(r.contentType)) {
      const ttfe = f.run.firstEventMs;
      return pass(`HTTP 200 text/event-stream${ttfe !== undefined ? `; first event after ${ttfe} ms` : ''}.`, [
        exchangeEvidence(r, `${ctx.dialect.describe('stream')} response`),
      ]);
    }
    // An error answer (a JSON-RPC error, a google.rpc.Status, an HTTP error with an error body) is a refusal, not
    // a framing defect: v0.1.0 §7.2 even allows an initial failure as an HTTP error with a JSON-RPC error body.
    const d = ctx.dialect;
    const body = r.json();
    const bodyId = body.ok && isRecord(body.value) ? body.value.id : undefined;
    const answer = d.isRest ? d.parseRest(r, 'send') : d.parseRpc(r, typeof bodyId === 'string' ? bodyId : String(bodyId ?? ''), 'send');
    const limited = rateLimited(answer, 'Opening the stream');
    if (limited) return limited;
    if (answer.kind === 'error') return refusalVerdict(ctx, answer.error, r.status, 'instead of opening a stream', [exchangeEvidence(r)]);
    if (r.status === 404 || r.status === 405) return refusalVerdict(ctx, undefined, r.status, 'instead of opening a stream', [exchangeEvidence(r)]);
    return {
      status: 'fail',
      critical: r.status >= 500,
      message: notAStreamFinding(ctx.generation, 'stream', r)?.message ?? `The stream endpoint answered HTTP ${r.status}, not an event stream.`,
      evidence: [exchangeEvidence(r)],
    };
  },
});

export const streamingFraming = defineCheck({
  id: 'streaming.framing',
  title: 'Every SSE event carries a valid payload for the generation (a JSON-RPC response with the request id on JSON-RPC)',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.2.3 Stream Response, §9.4.2, §11.7' },
  recommendation:
    'Write each event as `data: <json>` followed by a blank line (a multi-line value needs "data:" on every line). On JSON-RPC every data line is a complete JSON-RPC response {"jsonrpc":"2.0","id":<the request id>,"result":…}; on HTTP+JSON a bare StreamResponse. v0.2/v0.3 results carry "kind"; v1.0 results are {"task"|"message"|"statusUpdate"|"artifactUpdate": …}.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const run = f.run;
    const items = run.items;
    const lost = run.ignoredLines.filter(lostData);
    const benign = run.ignoredLines.filter((l) => !lostData(l));
    const bad = items.filter((i) => i.kind === 'invalid' || i.problems.length);
    const problems = [
      // The stream as bytes (UTF-8, lines whose content is lost): the judge the console uses too.
      ...streamFramingFindings(ctx.generation, run).map((f) => f.message),
      ...(bad.length
        ? [
            `${bad.length} of ${items.length} event(s) are malformed: ${[...new Set(bad.flatMap((b) => (b.problems.length ? b.problems : ['not a valid event'])))].slice(0, 3).join('; ')}`,
          ]
        : []),
    ];
    const lostEvidence = lost.slice(0, 5).map((l) => ev('SSE line ignored (content lost)', visibleLine(l.line)));
    if (!items.length && !problems.length) {
      if (run.reason === 'error') return brokeOff(ctx, run, 'before its first event');
      if (BUDGET_ENDS.has(run.reason))
        return toolLimit(`No event arrived before our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`, [
          exchangeEvidence(run.result),
        ]);
      return fail(emptyStreamFinding(ctx.generation, run)?.message ?? `The stream ended without any event (${run.reason}).`, [exchangeEvidence(run.result)]);
    }
    if (problems.length) return fail(`${problems.join('. ')}.`, [...lostEvidence, ...itemEvidence(bad)]);
    if (run.reason === 'oversize') {
      return toolLimit(
        `The ${items.length} event(s) read are well-formed, but then an event exceeded our size limit and we stopped reading, so the rest of the stream was not judged. ${budgetKnob(ctx, run)}`,
        [exchangeEvidence(run.result)],
      );
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
        evidence: itemEvidence(
          items.filter((i) => i.notes?.length),
          3,
        ),
        recommendation:
          'Drop fields the generation removed ("kind", "final" in v1.0) and write timestamps as RFC 3339 UTC (e.g. 2025-01-01T10:00:00Z): strict clients may reject anything else.',
      };
    }
    return pass(summary);
  },
});

export const streamingFirstEvent = defineCheck({
  id: 'streaming.first-event',
  title: 'The first event is the task (v1.0); before v1.0 any event may come first',
  category: 'streaming',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: { ...STREAM, 'v1.0': 'v1.0.1 §3.1.2 (a task stream MUST start with the Task)' },
  recommendation: 'Send the Task as the first event (v1.0 requires it; v0.2/v0.3 SDKs do it too) before any status or artifact update.',
  requires: ['stream'],
  run: (ctx) => {
    const f = ctx.stream;
    const run = f.run;
    const first = run.items[0];
    if (!first) {
      if (run.reason === 'error') return brokeOff(ctx, run, 'before its first event');
      if (BUDGET_ENDS.has(run.reason))
        return toolLimit(`No event arrived before our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`, [
          exchangeEvidence(run.result),
        ]);
      return fail(`No event arrived: the stream ${streamEnd(ctx, run)} empty.`, [exchangeEvidence(run.result)]);
    }
    const timing = `first event after ${run.firstEventMs} ms; gaps p50 ${quantile(run.gapsMs, 0.5) ?? '-'} ms, max ${run.gapsMs.length ? Math.max(...run.gapsMs.slice(0, 10000)) : '-'} ms`;
    const evd = [...itemEvidence([first], 1), ev('timing', timing)];
    if (first.kind === 'error')
      return skip(
        `The agent answered the stream with an error event first (${errorText(first.error)}): the request was refused, so there is no event order to judge (streaming.terminal judges the error).`,
        'precondition',
        evd,
      );
    if (first.kind === 'invalid')
      return skip('The first event is not a valid event for the generation, so its type cannot be told (see streaming.framing).', 'precondition', evd);
    if (first.kind === 'message') return pass(`The stream is a single Message (message-only reply); ${timing}.`, evd);
    if (ctx.generation === 'v1.0') {
      const wrong = firstEventFinding(ctx.generation, 'stream', first, run.result.exchangeId);
      return wrong ? fail(wrong.message, evd) : pass(`The first event is the Task (${first.rawState}); ${timing}.`, evd);
    }
    const order = run.items
      .slice(0, 4)
      .map((i) => `${i.kind}${i.rawState ? ` ${i.rawState}` : ''}`)
      .join(' → ');
    return pass(
      `The first event is a ${first.kind}${first.rawState ? ` (${first.rawState})` : ''}; no release before v1.0 fixes the first event (order: ${order}); ${timing}.`,
      evd,
    );
  },
});
