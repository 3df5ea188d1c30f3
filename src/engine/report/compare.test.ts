import { describe, expect, it } from 'vitest';
import type { CheckStatus, SkipKind } from '../model/check';
import {
  agentKey,
  changeKind,
  compareResults,
  compareRuns,
  levelMove,
  previousRunOf,
  regressionsOf,
  sameAgent,
  type ComparedRun,
  type ComparedStatus,
} from './compare';

const r = (id: string, status: CheckStatus, skipKind?: SkipKind) => ({ id, test: `title of ${id}`, status, ...(skipKind ? { skipKind } : {}) });

describe('changeKind: the rules, every pair of statuses', () => {
  const S: ComparedStatus[] = ['pass', 'fail', 'advisory', 'skip', 'error', 'absent'];
  // rows: before; columns: after (same order as S).
  const table: Record<ComparedStatus, (string | undefined)[]> = {
    pass: [undefined, 'regressed', 'advisory', 'not-applicable', 'tool-error', 'removed'],
    fail: ['fixed', undefined, 'fixed', 'not-applicable', 'tool-error', 'removed'],
    advisory: ['advisory', 'regressed', undefined, 'not-applicable', 'tool-error', 'removed'],
    skip: ['now-judged', 'new-failure', 'advisory', undefined, 'tool-error', 'removed'],
    error: ['now-judged', 'new-failure', 'advisory', 'not-applicable', undefined, 'removed'],
    absent: ['now-judged', 'new-failure', 'advisory', 'not-applicable', 'tool-error', undefined],
  };
  for (const before of S) {
    it(`from ${before}`, () => {
      expect(S.map((after) => changeKind(before, after))).toEqual(table[before]);
    });
  }
});

describe('compareRuns', () => {
  it('pass -> skip is "not applicable", never a regression, while the level went up (the issue\'s case)', () => {
    const before: ComparedRun = {
      level: 'minimal',
      results: [r('lifecycle.cancel', 'fail'), r('streaming.resubscribe', 'pass'), r('lifecycle.push.set', 'pass'), r('card.required-fields', 'pass')],
    };
    const after: ComparedRun = {
      level: 'full',
      results: [
        r('lifecycle.cancel', 'pass'),
        r('streaming.resubscribe', 'skip', 'not-applicable'),
        r('lifecycle.push.set', 'skip', 'precondition'),
        r('card.required-fields', 'pass'),
      ],
    };
    const c = compareRuns(before, after);
    expect(c.summary).toBe('minimal → full · 1 fixed · 0 regressed · 2 not applicable');
    expect(c.levelMove).toBe('up');
    expect(c.changes.map((x) => [x.id, x.before, x.after, x.kind, x.skipKind])).toEqual([
      ['lifecycle.cancel', 'fail', 'pass', 'fixed', undefined],
      ['lifecycle.push.set', 'pass', 'skip', 'not-applicable', 'precondition'],
      ['streaming.resubscribe', 'pass', 'skip', 'not-applicable', 'not-applicable'],
    ]);
    expect(regressionsOf(c)).toEqual([]);
  });

  it('orders the most serious first and names the other kinds in the summary only when they occur', () => {
    const before: ComparedRun = {
      level: 'partial',
      provisional: true,
      results: [
        r('a.pass-fail', 'pass'),
        r('b.fail-pass', 'fail'),
        r('c.skip-fail', 'skip'),
        r('d.pass-error', 'pass'),
        r('e.pass-advisory', 'pass'),
        r('f.gone', 'pass'),
      ],
    };
    const after: ComparedRun = {
      level: 'minimal',
      results: [
        r('a.pass-fail', 'fail'),
        r('b.fail-pass', 'pass'),
        r('c.skip-fail', 'fail'),
        r('d.pass-error', 'error'),
        r('e.pass-advisory', 'advisory'),
        r('g.new', 'pass'),
      ],
    };
    const c = compareRuns(before, after);
    expect(c.changes.map((x) => `${x.id}:${x.kind}`)).toEqual([
      'a.pass-fail:regressed',
      'c.skip-fail:new-failure',
      'b.fail-pass:fixed',
      'd.pass-error:tool-error',
      'e.pass-advisory:advisory',
      'g.new:now-judged',
      'f.gone:removed',
    ]);
    expect(c.summary).toBe(
      'partial (provisional) → minimal · 1 fixed · 1 regressed · 1 new failure · 0 not applicable · 1 tool error · 1 advisory change · 1 now judged · 1 removed',
    );
    expect(c.counts).toMatchObject({ regressed: 1, 'new-failure': 1, fixed: 1, 'not-applicable': 0, removed: 1 });
    expect(regressionsOf(c)).toEqual([
      'The level went down: partial → minimal.',
      'a.pass-fail regressed: pass → fail.',
      'c.skip-fail fails (skip in the baseline).',
    ]);
  });

  it('handles not-assessed runs (level null) on either side', () => {
    const na: ComparedRun = { level: null, notAssessed: 'unreachable', results: [r('card.discovery', 'skip', 'unreachable')] };
    const ok: ComparedRun = { level: 'full', results: [r('card.discovery', 'pass')] };
    const back = compareRuns(na, ok);
    expect(back.summary).toBe('not assessed → full · 0 fixed · 0 regressed · 0 not applicable · 1 now judged');
    expect(back.levelMove).toBe('assessed');
    expect(back.before).toEqual({ level: null, notAssessed: 'unreachable', provisional: false });
    expect(regressionsOf(back)).toEqual([]);
    const lost = compareRuns(ok, na);
    expect(lost.summary).toBe('full → not assessed · 0 fixed · 0 regressed · 1 not applicable');
    expect(lost.levelMove).toBe('unassessed');
    expect(regressionsOf(lost)).toEqual(['The agent could not be assessed (unreachable); the baseline was full.']);
    expect(compareRuns(na, na).summary).toBe('not assessed → not assessed · 0 fixed · 0 regressed · 0 not applicable');
  });

  it('identical runs: no changes', () => {
    const run: ComparedRun = { level: 'full', results: [r('a', 'pass'), r('b', 'advisory')] };
    expect(compareResults(run.results, run.results)).toEqual([]);
    expect(compareRuns(run, run).summary).toBe('full → full · 0 fixed · 0 regressed · 0 not applicable');
  });

  it('levelMove ranks non-conformant < minimal < partial < full', () => {
    expect(levelMove('non-conformant', 'minimal')).toBe('up');
    expect(levelMove('full', 'partial')).toBe('down');
    expect(levelMove('partial', 'partial')).toBe('same');
    expect(levelMove(null, null)).toBe('both-unassessed');
  });
});

describe('same agent, previous run', () => {
  it('agentKey ignores credentials, query, trailing slash, a well-known card path and host case', () => {
    const k = agentKey('http://127.0.0.1:4173/demo/v03');
    for (const u of [
      'http://127.0.0.1:4173/demo/v03/',
      'http://127.0.0.1:4173/demo/v03/.well-known/agent-card.json',
      'http://127.0.0.1:4173/demo/v03/.well-known/agent.json',
      'http://user:secret@127.0.0.1:4173/demo/v03?api_key=x#frag',
    ]) {
      expect(agentKey(u)).toBe(k);
    }
    expect(agentKey('https://Agents.Example.com/a')).toBe('https://agents.example.com/a');
    expect(agentKey('  not a url ')).toBe('not a url');
    expect(sameAgent({ agentUrl: 'http://127.0.0.1:4173/demo/v03' }, { agentUrl: 'http://127.0.0.1:4173/demo/v1' })).toBe(false);
  });

  it('previousRunOf finds the latest earlier run of the same agent', () => {
    const runs = [
      { runId: 'a1', agentUrl: 'http://x/a', startedAt: 100 },
      { runId: 'b1', agentUrl: 'http://x/b', startedAt: 150 },
      { runId: 'a2', agentUrl: 'http://x/a/', startedAt: 200 },
      { runId: 'a3', agentUrl: 'http://x/a', startedAt: 300 },
    ];
    const [a1, b1, a2, a3] = runs;
    expect(previousRunOf(runs, a3!)?.runId).toBe('a2');
    expect(previousRunOf(runs, a2!)?.runId).toBe('a1');
    expect(previousRunOf(runs, a1!)).toBeUndefined();
    expect(previousRunOf(runs, b1!)).toBeUndefined();
    // Same start time: ordered by run id, so each run has exactly one predecessor.
    const tie = [
      { runId: 't1', agentUrl: 'http://x/a', startedAt: 5 },
      { runId: 't2', agentUrl: 'http://x/a', startedAt: 5 },
    ];
    expect(previousRunOf(tie, tie[1]!)?.runId).toBe('t1');
    expect(previousRunOf(tie, tie[0]!)).toBeUndefined();
  });
});
