/**
 * Streaming checks that leave and rejoin a task: closing the stream mid-task leaves the task and the server well,
 * and resubscribing to a running task streams its updates.
 */
import { urgent, withUrgentHttp } from '../../http/context';
import type { Evidence } from '../../model/check';
import type { StreamRun } from '../../protocol/dialect';
import { isA2AError, JSONRPC_CODE } from '../../protocol/errors';
import { isInterrupted, isTerminal } from '../../protocol/states';
import { isRecord } from '../../util/json';
import type { CheckContext, CheckContextWith } from '../context';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip, toolLimit, transportVerdict, type Verdict } from '../define';
import { BUDGET_ENDS, CLOSE_GRACE_MS } from '../setups/stream';
import { firstEventFinding, streamIdFindings } from '../../judges/stream';
import { agentDurationMs } from '../setups/durations';
import { emitState, finishingCandidates, primarySkill, runningSkill, skillInput, skillRuns, skillRunsButOne, startRunningTask } from '../setups/tasks';
import { brokeOff, budgetKnob, errorText, itemEvidence, streamEnd } from './shared';
import { gapMeter, reportWindow, roundTrip, sized, STREAM_CLOSE, STREAM_PAUSE } from '../windows';

/** The first read of the task while a resubscribed stream is silent (then x1.5, every second at most). */
const WATCHDOG_FIRST_MS = 250;

/**
 * How long a task must run for our close to meet it running, in multiples of the slowest round trip the test tasks
 * saw: the close reaches the agent only after the stream's first event came and the close went back (at least a round
 * trip, more through a gateway or on a busy machine), within a floor and a ceiling. Said in the evidence.
 */
const DISCONNECT_LEAD = { factor: 4, floorMs: 100, ceilingMs: 2000 } as const;

/**
 * The skill to disconnect from, chosen by what this run measured (never by binding): the one whose test task ran
 * longest before it ended (a quick task may end before our close reaches the agent, and then nothing was left
 * mid-task). Durations are the agent's own (its status timestamps, from the first seen to the terminal one) when every
 * finished test task has them: the durations we measure include our round trips and polling, which on a busy machine
 * can outweigh the work itself; else the measured ones. Nothing waits for the task to end, so a long one costs no
 * time. Without a finished test task, the skill whose task stayed running after a non-blocking send.
 */
async function disconnectSkill(ctx: CheckContextWith<'dialect'>): Promise<{ skillId?: string; why?: string }> {
  const early = await stillRunningLongest(ctx);
  if (early) return early;
  const runs = await skillRuns(ctx);
  const ended = runs
    .filter((r) => r.outcome === 'terminal')
    .map((r) => ({ skillId: r.skillId, measured: Math.round(r.endedAt - r.startedAt), own: agentDurationMs(r) }));
  const byOwn = ended.length > 0 && ended.every((r) => r.own !== undefined);
  const ms = (r: (typeof ended)[number]) => (byOwn ? (r.own ?? 0) : r.measured);
  const pick = ended.sort((x, y) => ms(y) - ms(x))[0];
  if (!pick) return { skillId: await runningSkill(ctx) };
  const slowest = Math.max(0, ...runs.flatMap((r) => [r.send.http, ...r.gets.map((g) => g.http)]).map(roundTrip));
  const needMs = sized(slowest, DISCONNECT_LEAD);
  const what = pick.skillId ? `skill ${pick.skillId}` : 'the test message';
  const took = byOwn
    ? `${Math.round(ms(pick))} ms by the agent's status timestamps, ${pick.measured} ms as we measured it`
    : `${pick.measured} ms as we measured it`;
  return {
    skillId: pick.skillId,
    why: `${what}, the longest test task (${took}): ${ms(pick) >= needMs ? 'long enough' : 'maybe too short'} for our close to meet it running (${needMs} ms: ${DISCONNECT_LEAD.factor} × the slowest round trip of the test tasks, ${Math.round(slowest)} ms, within ${DISCONNECT_LEAD.floorMs}-${DISCONNECT_LEAD.ceilingMs} ms)`,
  };
}

/**
 * The one skill run still going, when it has run at least twice as long as every test task that ended (by our measure
 * and the agent's timestamps) and as long as our close needs: it is the longest whatever its end, so the check need not
 * wait for it. Undefined when it ends first, or when every run ended: then the finished tasks are ranked.
 */
async function stillRunningLongest(ctx: CheckContextWith<'dialect'>): Promise<{ skillId?: string; why: string } | undefined> {
  const { ended, left } = await skillRunsButOne(ctx);
  const terminal = ended.filter((r) => r.outcome === 'terminal');
  if (!left || !terminal.length) return undefined;
  const longest = Math.max(...terminal.map((r) => Math.max(r.endedAt - r.startedAt, agentDurationMs(r) ?? 0)));
  const slowest = Math.max(0, ...ended.flatMap((r) => [r.send.http, ...r.gets.map((g) => g.http)]).map(roundTrip));
  const needMs = Math.max(2 * longest, sized(slowest, DISCONNECT_LEAD));
  const wait = left.startedAt + needMs - ctx.http.host.now();
  const endedFirst = await Promise.race([
    left.run.then(
      () => true,
      () => true,
    ),
    ctx.http.host.sleep(Math.max(0, wait), ctx.http.signal).then(
      () => false,
      () => true,
    ),
  ]);
  if (endedFirst) return undefined;
  const what = left.skillId ? `skill ${left.skillId}` : 'the test message';
  return {
    skillId: left.skillId,
    why: `${what}, the longest test task: still running ${Math.round(ctx.http.host.now() - left.startedAt)} ms after it was sent, when every other one had ended within ${Math.round(longest)} ms (the longer of our measure and the agent's status timestamps), and long enough for our close to meet it running (${sized(slowest, DISCONNECT_LEAD)} ms: ${DISCONNECT_LEAD.factor} × the slowest round trip of the test tasks, ${Math.round(slowest)} ms, within ${DISCONNECT_LEAD.floorMs}-${DISCONNECT_LEAD.ceilingMs} ms)`,
  };
}

export const streamingDisconnect = defineCheck({
  id: 'streaming.disconnect',
  title: 'Closing the stream mid-task leaves the task retrievable and the server healthy',
  category: 'streaming',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { legacy: 'v0.1.0 §7.2', 'v0.2': 'v0.2.6 §7.2', 'v0.3': 'v0.3.0 §7.2 (seed procedure 3.5)', 'v1.0': 'v1.0.1 §3.5.2, §3.1.6' },
  recommendation:
    'Do not tie the task to the client connection: when the SSE client goes away, keep the task running (or cancel it cleanly) and keep it in the task store; never crash the handler on a closed socket.',
  requires: ['streaming'],
  run: async (ctx) => {
    const d = ctx.dialect;
    const { skillId, why } = await disconnectSkill(ctx);
    const chosen = why ? [ev('task disconnected from', why)] : [];
    const lane = ctx.lane('disconnect');
    let named: string | undefined;
    // Legacy: the client chooses the task id (TaskSendParams.id) and the server MUST use it: read that one back
    // (events naming another id are streaming.consistency's finding).
    const sentId = d.generation === 'legacy' ? ctx.uuid() : undefined;
    // Urgent: the close must meet the task still running, so the stream must not queue behind bulk requests.
    const run = await d.streamSend(
      urgent(ctx.http),
      { ...skillInput(ctx, skillId), lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs, taskId: sentId },
      (it) => {
        named ??= it.taskId ?? it.task?.id;
        return named ? 'stop' : undefined;
      },
    );
    const taskId = named && (sentId ?? named);
    if (!run.result.responded) return transportVerdict(run.result, 'opening the stream');
    if (!taskId)
      return skip('No event with a task id arrived before the stream ended, so there was nothing to disconnect from.', 'precondition', [
        exchangeEvidence(run.result),
      ]);
    await ctx.http.host.sleep(200, ctx.http.signal).catch(() => undefined);
    // Health first: a crash is the finding that matters most; then whether the task survived.
    const newMessage = () =>
      d.send(ctx.http, {
        ...skillInput(ctx, primarySkill(ctx)),
        lane,
        checkId: ctx.checkId,
        timeoutMs: ctx.taskTimeoutMs,
        taskId: d.generation === 'legacy' ? ctx.uuid() : undefined,
      });
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
        evidence: [exchangeEvidence(health.http), ...chosen],
      };
    }
    const g = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
    if (g.kind !== 'task') {
      const gone = g.kind === 'error' && (isA2AError(g, 'TaskNotFound') || g.http.status === 404);
      return {
        status: 'fail',
        critical: d.serverFailed(g),
        message: gone
          ? `After we closed the stream, task ${taskId} is gone (${errorText(g.kind === 'error' ? g.error : undefined)}): the agent dropped the task of a client that left. The spec describes the task as outliving its stream but does not require it.`
          : `After we closed the stream, get of task ${taskId} failed (${g.kind === 'error' ? `${g.error.code ?? g.error.status ?? g.http.status} ${g.error.message}` : g.kind}).`,
        evidence: [exchangeEvidence(g.http), ...chosen],
      };
    }
    emitState(ctx, lane, { source: 'get', at: ctx.http.host.now(), task: g.task, exchangeId: g.http.exchangeId });
    return pass(`Task ${taskId} is still retrievable (${g.task.rawState}) and the agent answers new messages.`, [exchangeEvidence(g.http), ...chosen]);
  },
});

export const streamingResubscribe = defineCheck({
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
  recommendation:
    'Implement resubscribe (SubscribeToTask in v1.0) for tasks that are still running: send the current Task first (v1.0) and then the remaining updates, closing at the terminal state.',
  requires: ['streaming'],
  run: async (check) => {
    // Urgent: the subscription must meet the task still running, so its requests must not queue behind bulk ones.
    const ctx = withUrgentHttp(check);
    const d = ctx.dialect;
    const g = ctx.generation;
    const lane = ctx.lane('resubscribe');
    let from = 0;
    let lastSkip: Verdict = skip('No task could be started to resubscribe to.', 'precondition');
    // A task that finished between its start and our subscription says more than one that was over at its start.
    let missed = false;
    // Tasks that finish first, quickest first (known once the skill runs ended: started at once, on a loaded machine
    // every candidate finished before its subscription landed and the clean agent's check was skipped); a quick task
    // may finish before the subscription lands: then try the next skill (at most 4). A task that pauses tests less
    // than one that finishes: its verdict is kept while the next skill is tried.
    const candidates = await finishingCandidates(ctx);
    let pausedVerdict: Verdict | undefined;
    for (;;) {
      const started = await startRunningTask(ctx, 'resubscribe', from, lane, candidates);
      if (!started) return pausedVerdict ?? lastSkip;
      const { send } = started;
      from = started.index + 1;
      if (send.kind !== 'task' || !send.task.id) return skip('Could not start a task to resubscribe to.', 'precondition', [exchangeEvidence(send.http)]);
      if (!started.running) {
        if (!missed) lastSkip = skip(`The tasks finished (${send.task.rawState}) before we could resubscribe.`, 'precondition');
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
      // After a pause nothing is owed (no close, no later event until someone answers): watched only for a short
      // window sized from the agent's round trip (stream.pause), not the close grace a terminal state gets.
      const pauseMs = sized(roundTrip(send.http), STREAM_PAUSE);
      let paused: { at: number } | undefined;
      // The close grace after the terminal state: the window stream.close, sized from the slowest gap between the
      // resubscribed stream's events (windows.ts).
      const gaps = gapMeter(ctx.http.host.now());
      let closeMs: number = CLOSE_GRACE_MS;
      let closeFrom: number | undefined;
      // (Re)starts the grace period: a later end (a pause, then the terminal state) gets its own full period.
      const stopAfterGrace = (fixedMs?: number) => {
        const ms = fixedMs ?? (closeMs = sized(gaps.slowestMs, STREAM_CLOSE));
        if (fixedMs === undefined) closeFrom = ctx.http.host.now();
        grace?.abort();
        const mine = new AbortController();
        grace = mine;
        return ctx.http.host.sleep(ms, AbortSignal.any([mine.signal, quit.signal])).then(
          () => stop.abort(),
          () => undefined,
        );
      };
      const watchdog = (async () => {
        // Reads the task while the stream is silent: soon at first (an agent that answers at once), then every second.
        let every = WATCHDOG_FIRST_MS;
        for (;;) {
          const wait = every;
          every = Math.min(1000, Math.round(every * 1.5));
          const ok = await ctx.http.host.sleep(wait, quit.signal).then(
            () => true,
            () => false,
          );
          if (!ok || finishedAs || endSeenAs) return;
          const got = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
          if (got.kind === 'task' && (isTerminal(got.task.state, g) || isInterrupted(got.task.state))) {
            finishedAs = got.task.rawState;
            finishedTerminal = isTerminal(got.task.state, g);
            // Finished, but the stream did not say so: the full grace for it to deliver the end (not sized: no end seen).
            if (!endSeenAs) await stopAfterGrace(CLOSE_GRACE_MS);
            return;
          }
        }
      })();
      const run = await d.subscribe(ctx.http, { id: taskId, lane, checkId: ctx.checkId, timeoutMs: ctx.taskTimeoutMs, stopSignal: stop.signal }, (it) => {
        gaps.see(it.at);
        const terminal = isTerminal(it.state, g) || (g !== 'v1.0' && it.final === true) || it.kind === 'message' || it.kind === 'error';
        if (!mustClose && terminal) {
          mustClose = true;
          endSeenAs = it.rawState ?? (it.final ? 'final' : it.kind);
          void stopAfterGrace();
        } else if (!endSeenAs && isInterrupted(it.state)) {
          endSeenAs = it.rawState;
          paused = { at: ctx.http.host.now() };
          void stopAfterGrace(pauseMs);
        }
      });
      quit.abort();
      await watchdog;
      if (paused && !mustClose)
        reportWindow(ctx.http, {
          name: 'stream.pause',
          ms: pauseMs,
          basis: `${STREAM_PAUSE.factor} × ${Math.round(roundTrip(send.http))} ms, the round trip of the send that started the task, within ${STREAM_PAUSE.floorMs}-${STREAM_PAUSE.ceilingMs} ms, after the resubscribed stream reported ${endSeenAs}`,
          ...(run.reason !== 'stopped' && { usedMs: Math.round(ctx.http.host.now() - paused.at), closedEarly: 'the stream ended' }),
        });
      if (mustClose && closeFrom !== undefined) {
        const usedMs = Math.round(ctx.http.host.now() - closeFrom);
        reportWindow(ctx.http, {
          name: 'stream.close',
          ms: closeMs,
          basis: `${STREAM_CLOSE.factor} × ${Math.round(gaps.slowestMs)} ms, the slowest gap between the resubscribed stream's events (the first from the request), within ${STREAM_CLOSE.floorMs}-${STREAM_CLOSE.ceilingMs} ms, after its terminal state`,
          ...(run.reason === 'closed' && usedMs < closeMs && { usedMs, closedEarly: 'the stream closed' }),
        });
      }
      const evd = [exchangeEvidence(run.result, `${d.describe('subscribe', taskId)} response`), ...itemEvidence(run.items, 5)];
      const openAtEnd = run.reason === 'stopped' || BUDGET_ENDS.has(run.reason);
      if (openAtEnd && mustClose) {
        // The rule "the stream ends at its final event", as streaming.terminal / streaming.closes judge it.
        return {
          ...fail(
            `The resubscribed stream delivered ${endSeenAs} but was still open ${run.reason === 'stopped' ? `${closeMs} ms later` : 'when our budget ran out'}${g === 'v1.0' ? ' (v1.0 §3.1.6: the stream MUST terminate when the task reaches a terminal state)' : ''}.`,
            evd,
            'Close the subscription stream right after sending the terminal status; clients otherwise hold a connection open for nothing.',
          ),
          rule: 'stream-ends',
        };
      }
      if (openAtEnd && finishedAs && finishedTerminal && !endSeenAs) {
        return fail(
          `The task reached ${finishedAs} but the resubscribed stream neither delivered that nor closed (${run.items.length} event(s), still open ${run.reason === 'stopped' ? `${closeMs} ms later` : `when our budget ended: it ${streamEnd(ctx, run)}`}).`,
          evd,
          'When a subscription starts, send the current Task and then every later update; if the task finishes between the snapshot and the subscription, send the terminal status and close. Subscribe to the event bus before taking the snapshot so no transition falls in between.',
        );
      }
      if (!run.result.responded) return transportVerdict(run.result, 'resubscribing');
      if (run.reason === 'error') return brokeOff(ctx, run, 'while resubscribed');
      if (run.reason === 'not-stream') {
        const body = run.result.json();
        const isErrorAnswer = run.result.status >= 400 || (body.ok && isRecord(body.value) && body.value.error !== undefined);
        if (!isErrorAnswer)
          return fail(`Resubscribe answered HTTP ${run.result.status} ${run.result.contentType || ''} with a result, not an event stream.`, evd);
        const code = body.ok && isRecord(body.value) && isRecord(body.value.error) ? body.value.error.code : undefined;
        // "No such method" says nothing of the task: whatever its state, resubscribe is not there (no read-back, so the
        // verdict does not hang on whether a busy run subscribed before the task ended).
        if (code === JSONRPC_CODE.MethodNotFound || run.result.status === 405) return fail('Resubscribe is not implemented (method not found).', evd);
        // A task that finished before the subscription may be refused legitimately (v1.0: UnsupportedOperation).
        const now = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
        if (now.kind === 'task' && isTerminal(now.task.state, g)) {
          missed = true;
          lastSkip = skip(
            `The task finished (${now.task.rawState}) before the subscription, so resubscribing to a running task could not be exercised.`,
            'precondition',
            evd,
          );
          continue;
        }
        // Unread, we cannot tell a refusal of a finished task from one of a running task: say what failed instead.
        if (!now.http.responded) return transportVerdict(now.http, 'reading the task back after resubscribe was refused');
        if (run.result.status === 404) return fail('Resubscribe is not implemented (method not found).', evd);
        if (code === JSONRPC_CODE.UnsupportedOperation) return fail('The agent declares streaming but answers resubscribe with UnsupportedOperation.', evd);
        return fail(`Resubscribe answered HTTP ${run.result.status} ${run.result.contentType}, not an event stream.`, evd);
      }
      if (run.items[0]?.kind === 'error') {
        // The same refusal, delivered as the first event of a stream: judged like the JSON answer above.
        if (run.items[0].error?.code === JSONRPC_CODE.MethodNotFound)
          return fail('Resubscribe is not implemented (method not found, as the first event).', evd);
        const now = await d.get(ctx.http, { id: taskId, lane, checkId: ctx.checkId });
        if (now.kind === 'task' && isTerminal(now.task.state, g)) {
          missed = true;
          lastSkip = skip(
            `The task finished (${now.task.rawState}) before the subscription, and the agent refused it with an error event, so resubscribing to a running task could not be exercised.`,
            'precondition',
            evd,
          );
          continue;
        }
        const e = run.items[0].error;
        if (e?.httpStatus === 404) return fail('Resubscribe is not implemented (method not found, as the first event).', evd);
        return fail(`Resubscribe to running task ${taskId} was refused with an error event (${e?.code ?? e?.httpStatus ?? ''} ${e?.message ?? ''}).`, evd);
      }
      const verdict = judgeResubscribe(ctx, run, taskId, evd, endSeenAs, finishedAs);
      if (verdict.status === 'pass' && paused && !mustClose && from < candidates.length) {
        pausedVerdict = verdict;
        continue;
      }
      return verdict;
    }
  },
});

function judgeResubscribe(
  ctx: CheckContext,
  run: StreamRun,
  taskId: string,
  evd: Evidence[],
  endSeenAs: string | undefined,
  finishedAs: string | undefined,
): Verdict {
  const [first] = run.items;
  if (!first) {
    if (BUDGET_ENDS.has(run.reason))
      return toolLimit(`The resubscribed stream carried no event before our budget ended (it ${streamEnd(ctx, run)}). ${budgetKnob(ctx, run)}`, evd);
    return fail('The resubscribed stream carried no event.', evd);
  }
  // The judges the console uses for a subscription too: the Task first (v1.0), only the task subscribed to.
  const wrongFirst = ctx.generation === 'v1.0' && first.kind !== 'task' ? firstEventFinding(ctx.generation, 'subscribe', first) : undefined;
  if (ctx.generation === 'v1.0' && first.kind !== 'task')
    return fail(
      wrongFirst?.message ?? `SubscribeToTask sent a ${first.kind} first; v1.0 §3.1.6: the operation MUST return a Task object as the first event.`,
      evd,
    );
  const [foreign] = streamIdFindings(ctx.generation, 'subscribe', run.items, taskId).filter((x) => x.checkId === 'streaming.resubscribe');
  if (foreign) return fail(foreign.message, evd);
  const paused = endSeenAs ?? finishedAs;
  if ((run.reason === 'stopped' || BUDGET_ENDS.has(run.reason)) && paused) {
    return pass(
      `Resubscribed to task ${taskId}: ${run.items.length} event(s); the task paused at ${paused} and the stream stayed open, which is allowed (only terminal states end a subscription).`,
      evd,
    );
  }
  if (BUDGET_ENDS.has(run.reason))
    return toolLimit(
      `Resubscribed to task ${taskId} (${run.items.length} event(s)), but the task was still running when our budget ended: the stream ${streamEnd(ctx, run)}. ${budgetKnob(ctx, run)}`,
      evd,
    );
  return pass(`Resubscribed to task ${taskId}: ${run.items.length} event(s), ended ${run.reason}.`, evd);
}
