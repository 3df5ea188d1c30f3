import { describe, expect, it } from 'vitest';
import type { CheckResult, Tier } from '../model/check';
import type { TargetInfo } from '../model/events';
import { computeLevel, meetsLevel } from './level';

/** A result with just what the level rules read. */
function r(id: string, tier: Tier, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult {
  const category = id.startsWith('card.') ? 'agent-card' : id.startsWith('lifecycle.') ? 'lifecycle' : id.startsWith('streaming.') ? 'streaming' : id.startsWith('interop.') ? 'interop' : 'error-handling';
  return { id, test: id, category, status, level: tier === 'advisory' ? 'MAY' : 'MUST', tier, message: `${id} ${status}`, duration_ms: 1, evidence: [], ...extra };
}

const agent = (reach: TargetInfo['reach'], extra: Partial<TargetInfo> = {}): TargetInfo => ({ role: 'agent', inputUrl: 'http://agent.test', attempts: [], evidence: [], reach, ...extra });

/** A clean run: card, basic, core, optional and advisory checks all passing. */
const clean = (): CheckResult[] => [
  r('card.json', 'card', 'pass'),
  r('card.required-fields', 'card', 'pass'),
  r('card.caching', 'optional', 'pass'),
  r('lifecycle.send', 'basic', 'pass'),
  r('lifecycle.get', 'basic', 'pass'),
  r('lifecycle.shape', 'core', 'pass'),
  r('lifecycle.cancel', 'core', 'pass'),
  r('streaming.framing', 'optional', 'pass'),
  r('errors.invalid-request', 'optional', 'pass'),
  r('interop.cors.card', 'advisory', 'pass'),
];
const replace = (rs: CheckResult[], ...xs: CheckResult[]) => rs.map((x) => xs.find((y) => y.id === x.id) ?? x);
const ok = { agent: agent('card') };

describe('computeLevel: the seed 001 tiers', () => {
  it('every required check passing is full, not provisional', () => {
    expect(computeLevel(clean(), ok)).toMatchObject({ level: 'full', provisional: false });
  });

  it('a failing card-tier check is non-conformant, whatever else passes', () => {
    const v = computeLevel(replace(clean(), r('card.json', 'card', 'fail')), ok);
    expect(v).toMatchObject({ level: 'non-conformant' });
    expect(v.reason).toMatch(/card is invalid \(card\.json\)/);
  });

  it('broken basic send/get is non-conformant; no basic pass at all is too', () => {
    expect(computeLevel(replace(clean(), r('lifecycle.get', 'basic', 'fail')), ok).level).toBe('non-conformant');
    const noBasic = clean().filter((x) => x.tier !== 'basic');
    expect(computeLevel(noBasic, ok).level).toBe('non-conformant');
  });

  it('a failing core lifecycle check is minimal, and the reason lists every other required failure by category', () => {
    const v = computeLevel(
      replace(clean(), r('lifecycle.cancel', 'core', 'fail'), r('streaming.framing', 'optional', 'fail'), r('errors.invalid-request', 'optional', 'fail')),
      ok,
    );
    expect(v.level).toBe('minimal');
    expect(v.reason).toMatch(/core lifecycle fails \(lifecycle\.cancel\)/);
    expect(v.reason).toMatch(/streaming: streaming\.framing; error-handling: errors\.invalid-request|error-handling: errors\.invalid-request.*streaming: streaming\.framing/);
  });

  it('error-handling or streaming failures with the core lifecycle intact are partial (seed: "some optional features fail")', () => {
    const v = computeLevel(replace(clean(), r('errors.invalid-request', 'optional', 'fail')), ok);
    expect(v.level).toBe('partial');
    expect(v.reason).toMatch(/error-handling: errors\.invalid-request/);
    expect(computeLevel(replace(clean(), r('card.caching', 'optional', 'fail')), ok).level).toBe('partial');
  });

  it('advisories never lower the level, and are counted in the reason', () => {
    const v = computeLevel(replace(clean(), r('interop.cors.card', 'advisory', 'advisory')), ok);
    expect(v.level).toBe('full');
    expect(v.reason).toMatch(/1 advisory \(interop\.cors\.card\) do not affect the level/);
  });

  it('skips never count as passes: a core check not verified (precondition or tool limit) caps the level at partial', () => {
    expect(computeLevel(replace(clean(), r('lifecycle.cancel', 'core', 'skip', { skipKind: 'precondition' })), ok).level).toBe('partial');
    expect(computeLevel(replace(clean(), r('lifecycle.cancel', 'core', 'skip', { skipKind: 'tool-limit' })), ok).level).toBe('partial');
    // Not applicable (the feature is not declared) is not a gap.
    expect(computeLevel(replace(clean(), r('lifecycle.cancel', 'core', 'skip', { skipKind: 'not-applicable' })), ok).level).toBe('full');
  });
});

describe('computeLevel: provisional outcomes', () => {
  it('a core check that errored (our tool) is never full: partial, provisional', () => {
    const v = computeLevel(replace(clean(), r('lifecycle.cancel', 'core', 'error')), ok);
    expect(v).toMatchObject({ level: 'partial', provisional: true });
    expect(v.reason).toMatch(/could not be verified \(lifecycle\.cancel\)/);
  });

  it('an optional check that errored leaves the level but makes it provisional', () => {
    expect(computeLevel(replace(clean(), r('streaming.framing', 'optional', 'error')), ok)).toMatchObject({ level: 'full', provisional: true });
  });

  it('a run that did not complete is provisional', () => {
    expect(computeLevel(clean(), { ...ok, runComplete: false })).toMatchObject({ level: 'full', provisional: true });
  });

  it('an error never counts against the agent: errors alone do not lower below partial', () => {
    const v = computeLevel(replace(clean(), r('errors.invalid-request', 'optional', 'error'), r('streaming.framing', 'optional', 'error')), ok);
    expect(v.level).toBe('full');
  });
});

describe('computeLevel: not assessed (no level)', () => {
  it.each([
    ['unreachable', 'unreachable', /nothing answered/],
    ['no-card', 'not-a2a', /no agent card was found/],
    ['credentials-required', 'credentials-required', /Enter credentials/],
    ['credentials-rejected', 'credentials-rejected', /refused the credentials/],
    ['invalid-url', 'invalid-url', /Not assessed/],
    ['tool-failure', 'tool-failure', /says nothing about the agent/],
  ] as const)('discovery %s gives no level but reason %s', (reach, reason, message) => {
    const v = computeLevel([r('card.discovery', 'card', 'fail')], { agent: agent(reach) });
    expect(v.level).toBeNull();
    expect(v.notAssessed?.reason).toBe(reason);
    expect(v.notAssessed?.message).toMatch(message);
    expect(v.provisional).toBe(false);
  });

  it('a public card but A2A calls refused for lack of credentials: not assessed, credentials required', () => {
    const rs = replace(clean(), r('lifecycle.send', 'basic', 'skip', { skipKind: 'credentials', message: 'The agent answered HTTP 401' }), r('lifecycle.get', 'basic', 'skip', { skipKind: 'credentials' }));
    const v = computeLevel(rs, ok);
    expect(v).toMatchObject({ level: null, notAssessed: { reason: 'credentials-required' } });
    expect(computeLevel(rs, { ...ok, credentialsGiven: true }).notAssessed?.reason).toBe('credentials-rejected');
  });

  it('an endpoint that takes no connection is unreachable, our failure on the first call is a tool failure', () => {
    const unreachable = replace(clean(), r('lifecycle.send', 'basic', 'skip', { skipKind: 'unreachable' }), r('lifecycle.get', 'basic', 'skip', { skipKind: 'unreachable' }));
    expect(computeLevel(unreachable, ok).notAssessed?.reason).toBe('unreachable');
    const tool = replace(clean(), r('lifecycle.send', 'basic', 'error'), r('lifecycle.get', 'basic', 'error'));
    expect(computeLevel(tool, ok).notAssessed?.reason).toBe('tool-failure');
  });

  it('an invalid card is still graded when calls were refused: the card alone proves non-conformance', () => {
    const rs = replace(clean(), r('card.json', 'card', 'fail'), r('lifecycle.send', 'basic', 'skip', { skipKind: 'credentials' }));
    expect(computeLevel(rs, ok).level).toBe('non-conformant');
  });

  it('a run stopped before anything was judged is not assessed (stopped)', () => {
    expect(computeLevel([], { runComplete: false }).notAssessed?.reason).toBe('stopped');
  });

  it('an agent not assessed meets no --min-level', () => {
    expect(meetsLevel(null, 'minimal')).toBe(false);
    expect(meetsLevel('minimal', 'minimal')).toBe(true);
    expect(meetsLevel('partial', 'full')).toBe(false);
  });
});
