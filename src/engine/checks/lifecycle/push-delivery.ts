/**
 * Push delivery, judged from what reaches the host's webhook inbox (Host.inbox) when the card declares push:
 * - lifecycle.push-delivery: a running task's state changes are POSTed with the generation's payload shape;
 * - lifecycle.push-auth: with the token / the Authorization the config asked for;
 * - lifecycle.push-order: in order (states never go back, nothing after the terminal state);
 * - lifecycle.push-after-delete: nothing is delivered once the config is deleted.
 * The first three share one task (fixture `push-delivery`), handed over when the terminal delivery lands: delivery and
 * auth judge what came until then, order also what came in the straggler window after it (windows.ts, sized from the
 * session's measured latency, closed at the first delivery after the terminal one).
 */
import type { Generation } from '../../model/check';
import type { TaskState } from '../../model/events';
import type { InboxDelivery } from '../../model/inbox';
import { isTerminal, legalTransition } from '../../protocol/states';
import type { CheckContextWith } from '../context';
import { defineCheck, exchangeEvidence, pass, skip, toolLimit, type Verdict } from '../define';
import { errText } from '../setups/outcomes';
import { readBack } from '../setups/tasks';
import {
  collect,
  isSettled,
  deliveryEvidence,
  DELIVERY_WAIT_MS,
  openPushSession,
  reachabilityDoubt,
  readDelivery,
  waitTerminal,
  type PushSession,
  type ReadDelivery,
} from './push-inbox';
import { graded } from './shared';
import { PUSH_STRAGGLER, reportWindow, sized } from '../windows';

/**
 * After the task is read back terminal, how long its terminal delivery is still awaited (the wait ends as soon as it
 * lands, so a prompt agent never waits it out; a loaded machine delays a delivery by more than a second).
 */
const TERMINAL_GRACE_MS = 3000;

type DeliveryRun =
  | { verdict: Verdict }
  | {
      session: PushSession;
      /** What arrived until the terminal delivery (the hand-over). */
      reads: ReadDelivery[];
      finalState?: TaskState;
      waitedMs: number;
      /** Everything that arrived, the straggler window included (lifecycle.push-order waits for it). */
      stragglers: () => Promise<ReadDelivery[]>;
    };

const isVerdict = (x: PushSession | Verdict): x is Verdict => 'status' in x;

/**
 * The shared scenario: set a config on a running task, collect what arrives until the terminal delivery, and hand
 * over; the straggler window then runs beside the other checks (its own fixture, so the run waits for it to end).
 */
function deliveryRun(ctx: CheckContextWith<'dialect'>): Promise<DeliveryRun> {
  return ctx.fixture('push-delivery', async (): Promise<DeliveryRun> => {
    const s = await openPushSession(ctx, 'push delivery');
    if (isVerdict(s)) return { verdict: s };
    const g = ctx.generation;
    const host = ctx.http.host;
    const started = host.now();
    const terminalIn = (ds: readonly InboxDelivery[]) => settledIn(g, ds, s);
    let handedOver = false;
    try {
      // Until the terminal delivery, or the task read back as terminal (then a grace for its delivery).
      const end = started + Math.min(ctx.taskTimeoutMs, DELIVERY_WAIT_MS);
      let finalState: TaskState | undefined;
      let settledReadAt: number | undefined;
      // Each delivery goes on the timeline as it arrives (collect emits the new ones).
      const reads: ReadDelivery[] = [];
      while (!terminalIn(await s.lease.waitFor(terminalIn, 250, ctx.http.signal)) && host.now() < end) {
        collect(ctx, s, reads);
        finalState = await waitTerminal(ctx, s.taskId, s.lane, 0, s);
        if (isSettled(finalState, g)) {
          settledReadAt = host.now();
          await s.lease.waitFor(terminalIn, TERMINAL_GRACE_MS, ctx.http.signal);
          break;
        }
      }
      collect(ctx, s, reads);
      // Delivery latency: how long after we read the task settled its delivery came (0 when it came first).
      const last = reads.findLast((r) => isSettled(r.state, g));
      const lag = last && settledReadAt !== undefined ? Math.max(0, last.d.at - settledReadAt) : 0;
      if (finalState === undefined) {
        const b = await readBack(ctx, s.taskId, s.lane);
        if (b.kind === 'task') finalState = b.task.state;
      }
      // The agent's own pace of delivering: the largest gap between two deliveries (a stale one follows as late).
      const gap = Math.max(0, ...reads.slice(1).map((r, i) => r.d.at - (reads[i]?.d.at ?? r.d.at)));
      const handOver = reads.slice();
      const stragglers = ctx.fixture('push-delivery:stragglers', () => stragglerWindow(ctx, s, reads, Math.max(lag, gap, s.slowestMs)));
      handedOver = true;
      return { session: s, reads: handOver, finalState, waitedMs: host.now() - started, stragglers: () => stragglers };
    } finally {
      if (!handedOver) await s.lease.close();
    }
  });
}

/**
 * The deliveries report the task settled: a terminal state, or an interrupted one (paused for input). A task that was
 * paused when its config was set (and resumed by our answer) may deliver that first pause too: for it, a pause counts
 * only after a delivery showed it running again.
 */
function settledIn(g: Generation, ds: readonly InboxDelivery[], s: PushSession): boolean {
  let resumed = !s.paused;
  for (const d of ds) {
    const st = readDelivery(g, d, s.taskId).state;
    if (isTerminal(st, g) || (resumed && isSettled(st, g))) return true;
    if (st === 'submitted' || st === 'working') resumed = true;
  }
  return false;
}

/**
 * After the hand-over: watches for deliveries after the terminal one for a window sized from the session's slowest
 * latency (closed at the first one: the decisive answer), then deletes the config and closes the inbox address.
 */
async function stragglerWindow(ctx: CheckContextWith<'dialect'>, s: PushSession, reads: ReadDelivery[], slowestMs: number): Promise<ReadDelivery[]> {
  const host = ctx.http.host;
  const ms = sized(slowestMs, PUSH_STRAGGLER);
  // Anything after the delivery that settled the task is a straggler (it may already be there at the hand-over).
  const all = s.lease.deliveries();
  const settledAt = all.findIndex((_, i) => settledIn(ctx.generation, all.slice(0, i + 1), s));
  const n = settledAt < 0 ? all.length : settledAt + 1;
  // The window runs from the terminal delivery's arrival (the hand-over may come a little later): what arrived in
  // between is already in the inbox and counts. An arrival time on another clock (not within the window) is not used.
  const ago = host.now() - (all[settledAt]?.at ?? host.now());
  const t0 = ago > 0 && ago < ms ? host.now() - ago : host.now();
  try {
    const left = Math.max(0, ms - (host.now() - t0));
    const after = await s.lease.waitFor((ds) => ds.length > n, left, ctx.http.signal).catch(() => s.lease.deliveries());
    collect(ctx, s, reads);
    reportWindow(ctx.http, {
      name: 'push.stragglers',
      ms,
      basis: `${PUSH_STRAGGLER.factor} × ${Math.round(slowestMs)} ms, the slowest delivery latency, gap between deliveries or round trip of the push session, within ${PUSH_STRAGGLER.floorMs}-${PUSH_STRAGGLER.ceilingMs} ms`,
      ...(after.length > n && { usedMs: Math.round(host.now() - t0), closedEarly: 'a delivery came after the terminal one' }),
    });
    if (s.configId && !ctx.http.signal.aborted)
      await ctx.dialect.pushDelete(ctx.http, { taskId: s.taskId, configId: s.configId, lane: s.lane, checkId: ctx.checkId });
    return reads.slice();
  } finally {
    await s.lease.close();
  }
}

const statesOf = (reads: readonly ReadDelivery[]) => reads.map((r) => r.rawState ?? r.kind ?? '?').join(' → ');

/** No delivery at all: the agent's fault only when the task finished and nothing suggests it cannot reach us. */
function nothingArrived(ctx: CheckContextWith<'dialect'>, run: Extract<DeliveryRun, { session: PushSession }>): Verdict {
  const { session: s, finalState } = run;
  const waited = `${(run.waitedMs / 1000).toFixed(1)} s`;
  if (!isSettled(finalState, ctx.generation))
    return toolLimit(
      `Task ${s.taskId} was still ${finalState ?? 'running'} after ${waited} and nothing had been delivered yet; our wait ended first.`,
      s.evidence,
    );
  const doubt = reachabilityDoubt(s.lease.url, ctx.endpointUrl);
  if (doubt) return toolLimit(`Nothing reached our webhook inbox although task ${s.taskId} finished (${finalState}): ${doubt}.`, s.evidence);
  return {
    status: 'fail',
    message: `Task ${s.taskId} reached ${finalState} but nothing was POSTed to the webhook of its push config within ${waited}.`,
    evidence: s.evidence,
  };
}

async function deliveryCheck(ctx: CheckContextWith<'dialect'>): Promise<Verdict> {
  const run = await deliveryRun(ctx);
  if ('verdict' in run) return run.verdict;
  const g = ctx.generation;
  const { session: s, reads } = run;
  if (!reads.length) return nothingArrived(ctx, run);
  const evidence = [...s.evidence, ...reads.slice(0, 6).map((r) => deliveryEvidence(r))];
  const hard = reads.filter((r) => r.shape).map((r) => `delivery #${r.d.seq}: ${r.shape}`);
  const weak = reads.filter((r) => r.weak).map((r) => `delivery #${r.d.seq}: ${r.weak}`);
  if (isSettled(run.finalState, g) && !reads.some((r) => r.state === run.finalState))
    hard.push(`task ${s.taskId} reached ${run.finalState} but no delivery reported it (delivered: ${statesOf(reads)})`);
  return graded(
    hard,
    weak,
    evidence,
    `${reads.length} deliver${reads.length === 1 ? 'y' : 'ies'} for task ${s.taskId} (${statesOf(reads)}), each ${g === 'v1.0' ? 'a StreamResponse' : 'the Task object'} naming the task.`,
    `The ${g} payload is shown in an example, not required.`,
    g === 'v1.0'
      ? 'POST each task update to the webhook as a StreamResponse: exactly one of {"task"}, {"statusUpdate"}, {"artifactUpdate"}, {"message"} (v1.0.1 §4.3.3), including the terminal state. @a2a-js/sdk: DefaultPushNotificationSender with an InMemoryPushNotificationStore.'
      : 'POST the Task object (id, status with the state) to the webhook on each state change, including the terminal one.',
  );
}

async function authCheck(ctx: CheckContextWith<'dialect'>): Promise<Verdict> {
  const run = await deliveryRun(ctx);
  if ('verdict' in run) return run.verdict;
  const { session: s, reads } = run;
  if (!reads.length)
    return skip('Nothing was delivered to our inbox, so no credentials could be seen (see lifecycle.push-delivery).', 'precondition', s.evidence);
  const evidence = [...s.evidence, ...reads.slice(0, 4).map((r) => deliveryEvidence(r))];
  const hard: string[] = [];
  if (s.authorization) {
    const bad = reads.filter((r) => r.d.authorization !== 'match');
    if (bad.length)
      hard.push(
        `${bad.length} of ${reads.length} deliveries came ${bad[0]?.d.authorization === 'absent' ? 'without an Authorization header' : 'with another Authorization value'} although the config's authentication asked for Bearer credentials`,
      );
  } else {
    const bad = reads.filter((r) => r.d.token !== 'match');
    if (bad.length)
      hard.push(
        `${bad.length} of ${reads.length} deliveries came ${bad[0]?.d.token === 'absent' ? 'without' : 'with another value in'} the X-A2A-Notification-Token header although the config set a token`,
      );
  }
  return graded(
    hard,
    [],
    evidence,
    s.authorization
      ? `Every delivery (${reads.length}) carried Authorization: Bearer with the credentials the config asked for.`
      : `Every delivery (${reads.length}) carried the config's token in X-A2A-Notification-Token.`,
    '',
    s.authorization
      ? "Send `Authorization: {scheme} {credentials}` from the config's authentication on every webhook request (v1.0.1 §4.3.3)."
      : "Send the config's token in the X-A2A-Notification-Token header of every webhook request, so the receiver can validate it.",
  );
}

async function orderCheck(ctx: CheckContextWith<'dialect'>): Promise<Verdict> {
  const run = await deliveryRun(ctx);
  if ('verdict' in run) return run.verdict;
  const g = ctx.generation;
  const { session: s } = run;
  const reads = (await run.stragglers()).filter((r) => r.state !== undefined);
  if (!reads.length) return skip('No delivery carried a task state (see lifecycle.push-delivery).', 'precondition', s.evidence);
  const hard: string[] = [];
  for (let i = 1; i < reads.length; i++) {
    const a = reads[i - 1];
    const b = reads[i];
    if (a?.state && b?.state && !legalTransition(a.state, b.state, g)) {
      hard.push(
        isTerminal(a.state, g)
          ? `delivery #${b.d.seq} (${b.rawState}) came after the terminal ${a.rawState} of #${a.d.seq}`
          : `delivery #${b.d.seq} went back from ${a.rawState} to ${b.rawState}`,
      );
    }
  }
  return graded(
    hard,
    [],
    [...s.evidence, ...reads.slice(0, 6).map((r) => deliveryEvidence(r))],
    `The deliveries' states follow the task's life in order (${statesOf(reads)}).`,
    '',
    'Deliver the updates of a task in the order they happened (serialize the webhook calls per task), and send nothing after the terminal state.',
  );
}

async function afterDeleteCheck(ctx: CheckContextWith<'dialect'>): Promise<Verdict> {
  const g = ctx.generation;
  const host = ctx.http.host;
  let deletedAt = 0;
  const s = await openPushSession(ctx, 'push after delete', async (x) => {
    if (!x.configId)
      return skip('The set answer carried no config id, so the config could not be deleted (see lifecycle.push-config).', 'precondition', x.evidence);
    const del = await ctx.dialect.pushDelete(ctx.http, { taskId: x.taskId, configId: x.configId, lane: x.lane, checkId: ctx.checkId });
    x.evidence.push(exchangeEvidence(del.http, ctx.dialect.pushMethod('delete', x.taskId, x.configId)));
    if (del.kind !== 'ok') return skip(`Deleting the push config failed (${errText(del)}); lifecycle.push-config judges that.`, 'precondition', x.evidence);
    deletedAt = host.now();
    return undefined;
  });
  if (isVerdict(s)) return s;
  try {
    const b = await readBack(ctx, s.taskId, s.lane);
    const stateAtDelete = b.kind === 'task' ? b.task.state : 'running';
    const finalState = await waitTerminal(ctx, s.taskId, s.lane, Math.min(ctx.taskTimeoutMs, DELIVERY_WAIT_MS), s);
    if (!isSettled(finalState, g)) return toolLimit(`Task ${s.taskId} was still ${finalState ?? 'running'} when our wait ended.`, s.evidence);
    // A task paused when its config was deleted had nothing to deliver until our answer: anything after is late.
    const isLate = (d: InboxDelivery) => d.at >= deletedAt && (s.paused || isSettled(readDelivery(g, d, s.taskId).state, g));
    // Watched for a window sized from the session's slowest round trip; closed at the first late delivery.
    const ms = sized(s.slowestMs, PUSH_STRAGGLER);
    const t0 = host.now();
    const seen = await s.lease.waitFor((ds) => ds.some(isLate), ms, ctx.http.signal);
    const closedEarly = seen.some(isLate);
    reportWindow(ctx.http, {
      name: 'push.after-delete',
      ms,
      basis: `${PUSH_STRAGGLER.factor} × ${Math.round(s.slowestMs)} ms, the slowest round trip of the push session, within ${PUSH_STRAGGLER.floorMs}-${PUSH_STRAGGLER.ceilingMs} ms, after the task was read back ${finalState}`,
      ...(closedEarly && { usedMs: Math.round(host.now() - t0), closedEarly: 'a delivery came after the delete' }),
    });
    const reads = collect(ctx, s, []);
    const late = reads.filter((r) => isLate(r.d));
    if (late.length) {
      return {
        status: 'fail',
        message: `After its push config was deleted (task still ${stateAtDelete}), the agent still POSTed the task's ${late[0]?.rawState ?? 'terminal'} state to the webhook (${late.length} deliver${late.length === 1 ? 'y' : 'ies'}).`,
        evidence: [...s.evidence, ...late.slice(0, 3).map((r) => deliveryEvidence(r, `delivery #${r.d.seq} after delete`))],
      };
    }
    return pass(
      `Config ${s.configId} deleted while task ${s.taskId} was ${s.paused ? 'paused in input-required (our answer then resumed it)' : stateAtDelete}; it then reached ${finalState} and nothing was delivered after the delete${reads.length ? ` (${reads.length} earlier deliver${reads.length === 1 ? 'y' : 'ies'})` : ''}.`,
      s.evidence,
    );
  } finally {
    await s.lease.close();
  }
}

const RECOMMEND_SDK = ' @a2a-js/sdk: DefaultPushNotificationSender reads the push store at each update, so a deleted config gets nothing.';

export const lifecyclePushDelivery = defineCheck({
  id: 'lifecycle.push-delivery',
  title: "A task's state changes are POSTed to the push config's webhook with the generation's payload",
  category: 'lifecycle',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §9.5 Push Notifications example',
    'v0.2': 'v0.2.6 §9.5 Push Notification Setup and Usage',
    'v0.3': 'v0.3.0 §9.5 Push Notification Setup and Usage',
    'v1.0': 'v1.0.1 §4.3.3 Push Notification Payload',
  },
  recommendation: `POST every task update to each configured webhook with the generation's payload (v1.0: a StreamResponse; before: the Task object), including the terminal state.${RECOMMEND_SDK}`,
  requires: ['push'],
  run: (ctx) => deliveryCheck(ctx),
});

export const lifecyclePushAuth = defineCheck({
  id: 'lifecycle.push-auth',
  title: 'Push deliveries carry the token or the authentication the push config asked for',
  category: 'lifecycle',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §6.8 PushNotificationConfig.token',
    'v0.2': 'v0.2.6 §9.5 Push Notification Setup and Usage',
    'v0.3': 'v0.3.0 §9.5 Push Notification Setup and Usage',
    'v1.0': 'v1.0.1 §4.3.3 Push Notification Payload (Authentication)',
  },
  recommendation:
    "v1.0: send `Authorization: {scheme} {credentials}` from the config's authentication; before: the config's token in X-A2A-Notification-Token.",
  requires: ['push'],
  run: (ctx) => authCheck(ctx),
});

export const lifecyclePushOrder = defineCheck({
  id: 'lifecycle.push-order',
  title: "Push deliveries follow the task's states in order and end with the terminal state",
  category: 'lifecycle',
  level: 'MAY',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §6.3 TaskState',
    'v0.2': 'v0.2.6 §7.1 message/send (terminal tasks)',
    'v0.3': 'v0.3.0 §7.1 message/send (terminal tasks)',
    'v1.0': 'v1.0.1 TaskState (terminal states)',
  },
  recommendation: 'Serialize the webhook calls of a task so updates arrive in the order they happened, and send nothing after the terminal state.',
  requires: ['push'],
  run: (ctx) => orderCheck(ctx),
});

export const lifecyclePushAfterDelete = defineCheck({
  id: 'lifecycle.push-after-delete',
  title: 'Nothing is delivered to a webhook once its push config is deleted',
  category: 'lifecycle',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    'v0.2': 'v0.2.6 §7.8 tasks/pushNotificationConfig/delete',
    'v0.3': 'v0.3.0 §7.8 tasks/pushNotificationConfig/delete',
    'v1.0': 'v1.0.1 §3.1.10 Delete Push Notification Config',
  },
  recommendation: `Remove the config for good on delete and look configs up at each update, so a deleted webhook receives nothing more.${RECOMMEND_SDK}`,
  requires: ['push'],
  run: (ctx) => afterDeleteCheck(ctx),
});
