import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../http/client';
import type { Dialect } from '../protocol/dialect';
import type { ResolvedTarget } from '../target';
import type { CheckContext } from './context';
import { defineCheck, pass, type CheckDef, type Verdict } from './define';
import { BINDING_NEEDS } from './preconditions';
import type { TaskRun } from './setups/tasks';

// Preconditions are judged on the context alone: a stand-in dialect object is enough (the checks never call it here).
const DIALECT = { isRest: false } as unknown as Dialect;

const http = (status: number): HttpResult =>
  ({
    exchangeId: 'x1',
    url: 'http://agent.test/',
    responded: true,
    status,
    headers: new Headers(),
    contentType: 'application/json',
    text: '{}',
    json: () => ({ ok: true, value: {} }),
  }) as unknown as HttpResult;

/** A context whose shared fixtures are given: `tasks:skills` answers `runs`. */
function context(over: Partial<Record<keyof CheckContext, unknown>> = {}, runs: TaskRun[] = []): CheckContext {
  return {
    checkId: 'test.check',
    generation: 'v1.0',
    raw: { name: 'agent' },
    card: { capabilities: { streaming: true, pushNotifications: true } },
    detection: { evidence: [] },
    credentials: { kind: 'none' },
    dialect: DIALECT,
    taskTimeoutMs: 1000,
    skills: [],
    fixture: (key: string, make: () => Promise<unknown>) => (key === 'tasks:skills' ? Promise.resolve(runs) : make()),
    ...over,
  } as unknown as CheckContext;
}

const run = (outcome: TaskRun['outcome'], observed: boolean, status = 200): TaskRun =>
  ({
    outcome,
    lane: `task: ${outcome}`,
    send: { kind: observed ? 'task' : 'message', http: http(status) },
    observations: observed ? [{ source: 'send', at: 0, task: { id: `t-${outcome}` }, exchangeId: 'x1' }] : [],
    gets: [],
    startedAt: 0,
    endedAt: 0,
  }) as unknown as TaskRun;

/** A check that records the context its body received. */
function probe(requires: CheckDef['requires']): { def: CheckDef; seen: CheckContext[] } {
  const seen: CheckContext[] = [];
  const def = defineCheck({
    id: 'test.check',
    title: 'test',
    category: 'lifecycle',
    level: 'MUST',
    phase: 'suite',
    specRefs: {},
    recommendation: '',
    requires: requires as never[],
    run: (ctx) => {
      seen.push(ctx);
      return pass('ran');
    },
  });
  return { def, seen };
}

const skipOf = (v: Verdict) => [v.status, v.skipKind, v.message];

describe('requires: preconditions checked before the body, with the standard skip reasons', () => {
  it('preconditions known at once give their verdict in the same turn (no promise), so checks start in catalogue order', () => {
    const met = probe(['card', 'dialect']);
    const v = met.def.run(context());
    expect(v).not.toBeInstanceOf(Promise);
    expect((v as Verdict).message).toBe('ran');
    expect(met.seen).toHaveLength(1);
    const unmet = probe(['dialect']).def.run(context({ dialect: undefined }));
    expect(unmet).not.toBeInstanceOf(Promise);
  });

  it('the first unmet precondition in the order listed gives the verdict, and the body does not run', () => {
    const ctx = context({ dialect: undefined, raw: 'not a card' });
    const a = probe(['card', 'dialect']);
    expect(skipOf(a.def.run(ctx) as Verdict)).toEqual(['skip', 'precondition', 'No agent card could be read, so this check has nothing to judge.']);
    const b = probe(['dialect', 'card']);
    expect(skipOf(b.def.run(ctx) as Verdict)).toEqual(['skip', 'precondition', 'No usable agent card, so the agent cannot be called.']);
    expect([...a.seen, ...b.seen]).toEqual([]);
  });

  it('dialect: the reason the binding is untestable when detection gave one', () => {
    const v = probe(['dialect']).def.run(
      context({ dialect: undefined, detection: { evidence: [], untestable: 'The card declares only gRPC interfaces.' } }),
    ) as Verdict;
    expect(skipOf(v)).toEqual(['skip', 'precondition', 'The card declares only gRPC interfaces.']);
  });

  it('streaming and push: an undeclared capability is not applicable, judged before the binding', () => {
    const ctx = context({ dialect: undefined, card: { capabilities: {} } });
    expect(skipOf(probe(['streaming']).def.run(ctx) as Verdict)).toEqual([
      'skip',
      'not-applicable',
      'The card says streaming is not supported (capabilities.streaming is not true).',
    ]);
    expect(skipOf(probe(['push']).def.run(ctx) as Verdict)).toEqual([
      'skip',
      'not-applicable',
      'The card does not declare pushNotifications (see errors.push-not-supported).',
    ]);
    expect(skipOf(probe(['stream']).def.run(ctx) as Verdict)).toEqual([
      'skip',
      'not-applicable',
      'The card says streaming is not supported (capabilities.streaming is not true).',
    ]);
    // Declared, but no binding to call it over.
    const declared = context({ dialect: undefined });
    expect(skipOf(probe(['push']).def.run(declared) as Verdict)).toEqual(['skip', 'precondition', 'No usable agent card, so the agent cannot be called.']);
  });

  it('binding needs: the check runs on the bindings that have what it needs, elsewhere it is not applicable and says why', () => {
    const on = (binding: string) => context({ dialect: { binding, isRest: binding === 'HTTP+JSON' } as unknown as Dialect });
    const results = (need: CheckDef['requires'][number]) =>
      ['JSONRPC', 'HTTP+JSON', 'GRPC'].map((b) => {
        const v = probe([need]).def.run(on(b)) as Verdict;
        return v.status === 'pass' ? 'ran' : `${v.skipKind}: ${v.message}`;
      });
    expect(results('json-wire')).toEqual([
      'ran',
      'ran',
      expect.stringMatching(/^not-applicable: Not applicable to the GRPC binding: there is no JSON on the gRPC wire/),
    ]);
    expect(results('jsonrpc-binding')).toEqual([
      'ran',
      'not-applicable: Not applicable to the HTTP+JSON binding: JSON-RPC envelopes (and with them notifications) exist only on the JSON-RPC binding.',
      'not-applicable: Not applicable to the GRPC binding: JSON-RPC envelopes (and with them notifications) exist only on the JSON-RPC binding.',
    ]);
    expect(results('grpc-binding').map((r) => r.split(':')[0])).toEqual(['not-applicable', 'not-applicable', 'ran']);
    for (const need of Object.keys(BINDING_NEEDS) as (keyof typeof BINDING_NEEDS)[]) {
      expect(results(need).filter((r) => r === 'ran').length, need).toBe(BINDING_NEEDS[need].bindings.length);
    }
    // Without a binding to call, the dialect's reason comes first.
    expect(skipOf(probe(['grpc-binding']).def.run(context({ dialect: undefined })) as Verdict)).toEqual([
      'skip',
      'precondition',
      'No usable agent card, so the agent cannot be called.',
    ]);
  });

  it('task-runs: the body gets only the runs that observed a task', async () => {
    const p = probe(['task-runs']);
    const v = await p.def.run(context({}, [run('message', false), run('terminal', true), run('timeout', true)]));
    expect(v.message).toBe('ran');
    const ctx = p.seen[0] as CheckContext & { taskRuns: TaskRun[] };
    expect(ctx.taskRuns.map((r) => r.outcome)).toEqual(['terminal', 'timeout']);
    expect(ctx.dialect).toBe(DIALECT);
  });

  it('task-runs: no task at all skips, saying why (message-only agent, credentials, our budget)', async () => {
    const messageOnly = await probe(['task-runs']).def.run(context({}, [run('message', false)]));
    expect(skipOf(messageOnly)).toEqual([
      'skip',
      'not-applicable',
      'The agent replied with a Message instead of a Task (a message-only agent), so there is no task to check.',
    ]);
    const refused = await probe(['task-runs']).def.run(context({}, [run('failed-call', false, 401)]));
    expect(refused.skipKind).toBe('credentials');
    const slow = await probe(['task-runs']).def.run(context({}, [run('timeout', false)]));
    expect(skipOf(slow)).toEqual(['skip', 'tool-limit', expect.stringMatching(/^No test task answered within our 1000 ms budget/)]);
    const broken = await probe(['task-runs']).def.run(context({}, [run('failed-call', false)]));
    expect(skipOf(broken)).toEqual(['skip', 'precondition', 'No test task could be created (see lifecycle.send).']);
  });

  it('task-run: decided once at most one test task is still going, without waiting for the last; else as task-runs', async () => {
    // The skill runs as they end: all but the slowest ended (one made a task), the slowest never does here.
    const partly = (ended: TaskRun[], all?: TaskRun[]) =>
      context({
        fixture: (key: string, make: () => Promise<unknown>) =>
          key === 'tasks:skills:each'
            ? Promise.resolve(
                Object.assign([...ended.map((r) => Promise.resolve(r)), all ? Promise.resolve(all.at(-1)) : new Promise(() => undefined)], {
                  startedAt: [...ended.map(() => 0), 0],
                }),
              )
            : key === 'tasks:skills'
              ? all
                ? Promise.resolve(all)
                : new Promise(() => undefined)
              : make(),
      });
    const early = probe(['task-run']);
    expect((await early.def.run(partly([run('message', false), run('terminal', true)]))).message).toBe('ran');
    expect(early.seen[0]?.dialect).toBe(DIALECT);
    // None of the ended runs made a task: decided on every run, as task-runs decides (here a message-only agent).
    const msg = [run('message', false), run('message', false)];
    expect(skipOf(await probe(['task-run']).def.run(partly(msg.slice(0, 1), msg)))).toEqual([
      'skip',
      'not-applicable',
      'The agent replied with a Message instead of a Task (a message-only agent), so there is no task to check.',
    ]);
    // ... and the slowest one made a task: the check runs.
    expect((await probe(['task-run']).def.run(partly([run('message', false)], [run('message', false), run('terminal', true)]))).message).toBe('ran');
  });

  it('peer and peer-callable: no peer is not applicable; a peer that cannot be called is a precondition', () => {
    expect(skipOf(probe(['peer-callable']).def.run(context()) as Verdict)).toEqual([
      'skip',
      'not-applicable',
      'No peer agent was given (enter a "Peer agent URL" to run two-agent checks).',
    ]);
    const peer = { card: {}, dialect: undefined } as unknown as ResolvedTarget;
    expect(skipOf(probe(['peer-callable']).def.run(context({ peer })) as Verdict)).toEqual(['skip', 'precondition', 'One of the two agents cannot be called.']);
    const p = probe(['peer']);
    expect((p.def.run(context({ peer })) as Verdict).message).toBe('ran');
    expect(p.seen[0]?.peer).toBe(peer);
  });
});
