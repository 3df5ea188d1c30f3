import { describe, expect, it } from 'vitest';
import { GENERATIONS, type Generation } from '../model/check';
import { Redactor } from '../redact';
import { runCheck } from '../runner/check-result';
import { RULE_SPECS, type RuleId } from '../spec';
import { ALL_CHECKS } from '../checks/index';
import type { CheckContext, CheckDef } from '../checks/define';
import { appliesTo, ruleObligation } from '../checks/define';
import { streamNeverEnded, taskTimedOut, terminalChanged, terminalChanges } from './rules';
import type { Verdict } from '../checks/verdict';

const check = (id: string) => ALL_CHECKS.find((c) => c.id === id)!;

/** The result a check gives for `verdict` in generation `g`, through the one place verdicts become results. */
function judged(def: CheckDef, g: Generation, verdict: Verdict) {
  return runCheck({ ...def, run: () => verdict }, () => ({}) as CheckContext, {
    generation: g,
    raw: {},
    signal: new AbortController().signal,
    redactor: new Redactor(),
    now: () => 0,
  });
}

describe('terminalChanges: the only transition any release speaks of', () => {
  const seq = (...xs: string[]) => xs.map((s, i) => ({ state: s as never, raw: s, source: `obs ${i + 1}` }));
  it('finds a change out of a terminal state, with where each state was seen', () => {
    expect(terminalChanges(seq('working', 'canceled', 'completed'), 'v0.3')).toEqual(['canceled → completed (obs 2 then obs 3)']);
    expect(terminalChanges(seq('completed', 'working'), 'v1.0')).toHaveLength(1);
  });
  it('leaves the legal ones alone: straight to completed, working <-> input-required, back to submitted, a repeated terminal state', () => {
    expect(terminalChanges(seq('submitted', 'completed', 'completed'), 'v0.3')).toEqual([]);
    expect(terminalChanges(seq('working', 'input-required', 'working', 'input-required'), 'legacy')).toEqual([]);
    expect(terminalChanges(seq('working', 'submitted', 'working', 'failed'), 'v0.2')).toEqual([]);
  });
});

describe("one rule, one strength: a rule finding has the rule's strength whatever check observed it", () => {
  const observers: Record<RuleId, string[]> = {
    'terminal-final': ['lifecycle.transitions', 'lifecycle.cancel.effective', 'errors.cancel-terminal', 'errors.cancel-twice', 'errors.message-to-terminal'],
    'task-completes': ['lifecycle.terminal'],
    'stream-terminates': ['streaming.terminal'],
    'stream-ends': ['streaming.terminal', 'streaming.closes', 'streaming.resubscribe', 'errors.subscribe-terminal'],
  };
  const verdictOf: Record<RuleId, Verdict> = {
    'terminal-final': terminalChanged('canceled → completed'),
    'task-completes': taskTimedOut('still working'),
    'stream-terminates': streamNeverEnded('still open'),
    'stream-ends': { status: 'fail', rule: 'stream-ends', message: 'open after final' },
  };
  for (const rule of Object.keys(observers) as RuleId[]) {
    for (const g of GENERATIONS) {
      it(`${rule} in ${g}: every observing check reports it at the rule's strength, with the rule's sentences`, async () => {
        const want = ruleObligation(rule, g);
        for (const id of observers[rule].filter((x) => appliesTo(check(x), g))) {
          const r = await judged(check(id), g, verdictOf[rule]);
          expect(r.level, id).toBe(want);
          expect(r.status, id).toBe(want === 'MAY' ? 'advisory' : 'fail');
          expect(
            r.requirement?.sentences.map((s) => s.quote),
            id,
          ).toEqual(RULE_SPECS[rule][g]?.sentences.map((s) => s.quote));
        }
      });
    }
  }
  it('the procedure makes "a terminal state is final" a MUST where the spec has no requirement word (v0.3), and says so', async () => {
    expect(ruleObligation('terminal-final', 'v0.3')).toBe('MUST');
    // lifecycle.cancel.effective is best effort (MAY) in v0.3: a declined cancel stays an advisory...
    const declined = await judged(check('lifecycle.cancel.effective'), 'v0.3', { status: 'fail', message: 'declined' });
    expect(declined.status).toBe('advisory');
    // ...but a cancel answered "canceled" that completes later breaks the rule, at MUST, in the core tier.
    const lied = await judged(check('lifecycle.cancel.effective'), 'v0.3', terminalChanged('canceled → completed'));
    expect(lied).toMatchObject({ status: 'fail', level: 'MUST', tier: 'core' });
    expect(lied.requirement?.sentences.some((s) => s.doc === 'Conformance procedure')).toBe(true);
    expect(lied.requirement?.sentences.some((s) => s.doc === 'A2A v0.3.0' && s.keyword === 'none')).toBe(true);
    expect(lied.requirement?.note).toMatch(/can't be restarted", without a requirement word.*procedure requires/);
  });
  it("the per-task timeout names the knob and is the agent's failure, not a tool limit", async () => {
    const r = await judged(check('lifecycle.terminal'), 'v0.2', taskTimedOut('4 tasks still working'));
    expect(r).toMatchObject({ status: 'fail', level: 'MUST', tier: 'core' });
    expect(r.message).toMatch(/--task-timeout/);
  });
});
