/**
 * lifecycle.blocking: a blocking send returns only once the task is finished or paused (or with a Message).
 */
import { BLOCKING_CONTRADICTION, blockingUnsettled } from '../../judges/exchange';
import { isTerminal } from '../../protocol/states';
import { defineCheck, exchangeEvidence, fail, pass, refusedForCredentials } from '../define';
import { brokenCallVerdict } from '../setups/outcomes';
import { emitState, readBack, runningSkill, skillInput } from '../setups/tasks';
import { artifactCount } from './shared';

export const lifecycleBlocking = defineCheck({
  id: 'lifecycle.blocking',
  title: 'A blocking send returns only once the task is finished or paused (or with a Message)',
  category: 'lifecycle',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    'v0.2': 'v0.2.6 MessageSendConfiguration.blocking',
    'v0.3': 'v0.3.0 MessageSendConfiguration.blocking',
    'v1.0': 'v1.0.1 §3.2.2 SendMessageConfiguration (returnImmediately)',
  },
  recommendation:
    'Unless the client sets returnImmediately (v1.0) or blocking:false (v0.x), wait until the task is completed, failed, canceled, rejected or paused for input before answering, and answer with the task as stored then (all its artifacts).',
  // A test task was created (it needs not every one of them, so not the slowest skill's).
  requires: ['task-run'],
  run: async (ctx) => {
    const d = ctx.dialect;
    const v1 = ctx.generation === 'v1.0';
    // The skill whose task stayed running after a non-blocking send: on it, blocking is observable.
    const skillId = await runningSkill(ctx);
    const input = skillInput(ctx, skillId);
    const lane = ctx.lane('blocking');
    const started = ctx.http.host.now();
    const res = await d.send(ctx.http, {
      ...input,
      lane,
      checkId: ctx.checkId,
      taskId: ctx.generation === 'legacy' ? ctx.uuid() : undefined,
      blocking: v1 ? undefined : true,
      timeoutMs: ctx.taskTimeoutMs,
    });
    const took = ctx.http.host.now() - started;
    const how = v1 ? 'SendMessage without returnImmediately (blocking is the default)' : `${d.describe('send')} with configuration.blocking: true`;
    const evidence = [exchangeEvidence(res.http, `${how}, answered after ${took} ms`)];
    if (res.kind === 'message') return pass(`The agent answered the blocking send with a Message after ${took} ms (blocking applies to tasks only).`, evidence);
    if (res.kind !== 'task') {
      if (!v1 && res.kind === 'error' && !refusedForCredentials(ctx, res.http) && res.http.status !== 429 && res.http.status < 500) {
        const v = brokenCallVerdict(ctx, res, `A blocking ${d.describe('send')}`, { input });
        if (v.status !== 'fail') return v;
        return {
          ...v,
          advisory:
            ctx.generation === 'v0.3'
              ? 'v0.3.0 MessageSendConfiguration.blocking: "The server may reject this if the task is long-running."'
              : 'blocking is described, not required, in v0.2.6.',
        };
      }
      return brokenCallVerdict(ctx, res, `A blocking ${d.describe('send')} (skill ${skillId ?? 'none'})`, { input, waits: true });
    }
    const t = res.task;
    emitState(ctx, lane, { source: 'send', at: ctx.http.host.now(), task: t, exchangeId: res.http.exchangeId });
    // One judge for the console and the run (src/engine/judges/exchange.ts); v1.0 contradicts itself on waiting.
    const unsettled = blockingUnsettled(ctx.generation, t, res.http.exchangeId, took);
    if (unsettled) {
      const v = fail(unsettled.message, evidence);
      // v1.0: §3.1.1 ("MUST return immediately") and §3.3.3 contradict §3.2.2 on waiting: a contradiction is advice.
      return v1 ? { ...v, advisory: BLOCKING_CONTRADICTION } : v;
    }
    if (!t.id || !isTerminal(t.state, ctx.generation)) return pass(`The blocking send returned after ${took} ms with the task ${t.rawState}.`, evidence);
    // "The response MUST include the latest task state with all artifacts": the stored task says what that was.
    const back = await readBack(ctx, t.id, lane);
    if (back.kind !== 'task') {
      evidence.push(exchangeEvidence(back.http, 'read back'));
      return pass(`The blocking send returned after ${took} ms with the task ${t.rawState} (the read-back was not possible).`, evidence);
    }
    evidence.push(exchangeEvidence(back.http, 'read back'));
    const hard: string[] = [];
    if (isTerminal(back.task.state, ctx.generation) && back.task.state !== t.state)
      hard.push(`the blocking answer said ${t.rawState}, but the stored task is ${back.task.rawState}`);
    if (artifactCount(back.task) > artifactCount(t))
      hard.push(
        `the blocking answer carried ${artifactCount(t)} artifact(s), the finished task has ${artifactCount(back.task)} ("The response MUST include the latest task state with all artifacts")`,
      );
    return hard.length
      ? fail(`${hard.join('; ')}.`, evidence)
      : pass(`The blocking send returned after ${took} ms with the task ${t.rawState} and its ${artifactCount(t)} artifact(s), as stored.`, evidence);
  },
});
