import { describe, expect, it } from 'vitest';
import type { CheckResult, Tier } from '../model/check';
import type { TargetInfo } from '../model/events';
import { computeLevel, failureTally, failureWords, meetsLevel } from './level';

/** A result with just what the level rules read. */
function r(id: string, tier: Tier, status: CheckResult['status'], extra: Partial<CheckResult> = {}): CheckResult {
  const category = id.startsWith('card.')
    ? 'agent-card'
    : id.startsWith('lifecycle.')
      ? 'lifecycle'
      : id.startsWith('streaming.')
        ? 'streaming'
        : id.startsWith('interop.')
          ? 'interop'
          : 'error-handling';
  return {
    id,
    test: id,
    category,
    status,
    level: tier === 'advisory' ? 'MAY' : 'MUST',
    tier,
    message: `${id} ${status}`,
    duration_ms: 1,
    evidence: [],
    ...extra,
  };
}

const agent = (reach: TargetInfo['reach'], extra: Partial<TargetInfo> = {}): TargetInfo => ({
  role: 'agent',
  inputUrl: 'http://agent.test',
  attempts: [],
  evidence: [],
  reach,
  ...extra,
});

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

  it('a required streaming check whose stream our budget cut is not judged: full is not claimed (partial, saying why); a MAY one, a not-applicable skip or another tool limit leaves full', () => {
    const capped = r('streaming.framing', 'optional', 'skip', { skipKind: 'tool-limit', message: 'Our per-stream event cap ended it.' });
    const v = computeLevel(replace(clean(), capped), ok);
    expect(v.level).toBe('partial');
    expect(v.reason).toMatch(/required checks could not be judged within our stream limits \(.*streaming\.framing.*\)/);
    expect(computeLevel(replace(clean(), { ...capped, level: 'MAY' }), ok).level).toBe('full');
    expect(computeLevel(replace(clean(), { ...capped, skipKind: 'not-applicable' }), ok).level).toBe('full');
    // An agent that refuses our webhook URL (it SHOULD validate them) leaves push unexercised: no budget of ours, full stands.
    const refusedWebhook = r('lifecycle.push-config', 'optional', 'skip', { skipKind: 'tool-limit', message: 'The agent refused our webhook URL.' });
    expect(computeLevel([...clean(), refusedWebhook], ok).level).toBe('full');
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
    expect(v.reason).toMatch(
      /streaming: streaming\.framing; error-handling: errors\.invalid-request|error-handling: errors\.invalid-request.*streaming: streaming\.framing/,
    );
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
    const rs = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'credentials', message: 'The agent answered HTTP 401' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'credentials' }),
    );
    const v = computeLevel(rs, ok);
    expect(v).toMatchObject({ level: null, notAssessed: { reason: 'credentials-required' } });
    expect(computeLevel(rs, { ...ok, credentialsGiven: true }).notAssessed?.reason).toBe('credentials-rejected');
  });

  it('an endpoint that takes no connection is unreachable, our failure on the first call is a tool failure', () => {
    const unreachable = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'unreachable' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'unreachable' }),
    );
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

describe('computeLevel: the edges (each case pins one decision)', () => {
  it('says exactly why, naming the errors, the incomplete run and each advisory', () => {
    const v = computeLevel(
      replace(clean(), r('streaming.framing', 'optional', 'error'), r('interop.cors.card', 'advisory', 'advisory'), r('card.caching', 'optional', 'advisory')),
      ok,
    );
    expect(v.reason).toBe(
      'Every applicable required check passes. Provisional: 1 check(s) could not run because our tool or proxy failed (streaming.framing). 2 advisories (card.caching, interop.cors.card) do not affect the level.',
    );
    expect(computeLevel(clean(), { ...ok, runComplete: false }).reason).toBe('Every applicable required check passes. Provisional: the run did not complete.');
  });

  it('partial names only what applies: required failures, or unverified core checks, or both', () => {
    const fails = computeLevel(replace(clean(), r('errors.invalid-request', 'optional', 'fail')), ok);
    expect(fails.reason).toBe('Core lifecycle passes; required checks fail (error-handling: errors.invalid-request).');
    const unverified = computeLevel(replace(clean(), r('lifecycle.cancel', 'core', 'skip', { skipKind: 'precondition' })), ok);
    expect(unverified).toMatchObject({ level: 'partial', reason: 'Core lifecycle passes; core checks could not be verified (lifecycle.cancel).' });
    const both = computeLevel(replace(clean(), r('errors.invalid-request', 'optional', 'fail'), r('lifecycle.cancel', 'core', 'error')), ok);
    expect(both.reason).toMatch(
      /^Core lifecycle passes; required checks fail \(error-handling: errors\.invalid-request\); core checks could not be verified \(lifecycle\.cancel\)\./,
    );
  });

  it('minimal and non-conformant reasons name the checks', () => {
    expect(computeLevel(replace(clean(), r('lifecycle.shape', 'core', 'fail')), ok).reason).toBe(
      'Card and basic send/get work, but the core lifecycle fails (lifecycle.shape).',
    );
    expect(computeLevel(replace(clean(), r('lifecycle.send', 'basic', 'fail')), ok).reason).toBe('Basic send/get is broken (lifecycle.send).');
    const noBasic = clean().filter((x) => x.tier !== 'basic');
    expect(computeLevel(noBasic, ok).reason).toBe('No basic send + get check passed, so not even minimal conformance is shown.');
  });

  it('a send that passed with a get that could not be made shows no basic send + get: not assessed, never "partial"', () => {
    const v = computeLevel(replace(clean(), r('lifecycle.get', 'basic', 'skip', { skipKind: 'precondition', message: 'no task id to get' })), ok);
    expect(v).toMatchObject({ level: null, notAssessed: { reason: 'untestable' } });
    expect(v.reason).toMatch(/basic send \+ get could not both be judged \(lifecycle\.get: no task id to get\)/);
  });

  it('one judged basic check is enough to grade: a credentials skip of get after a passing send does not make it "not assessed"', () => {
    const rs = replace(clean(), r('lifecycle.get', 'basic', 'skip', { skipKind: 'credentials' }));
    expect(computeLevel(rs, ok).level).toBe('partial');
    const failing = replace(clean(), r('lifecycle.send', 'basic', 'fail'), r('lifecycle.get', 'basic', 'skip', { skipKind: 'credentials' }));
    expect(computeLevel(failing, ok).level).toBe('non-conformant');
  });

  it("basic checks that could not run for our budget or an untestable interface: not assessed, with the check's own words", () => {
    const limit = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'tool-limit', message: 'still working after 5000 ms' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'tool-limit' }),
    );
    expect(computeLevel(limit, ok).notAssessed).toEqual({ reason: 'tool-limit', message: 'Not assessed: still working after 5000 ms' });
    // The card was larger than we read: say so, not "no usable endpoint".
    const big = replace(
      clean(),
      r('card.json', 'card', 'skip', { skipKind: 'tool-limit', message: 'The card is larger than this tool reads.' }),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'precondition', message: 'no endpoint' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'precondition' }),
    );
    expect(computeLevel(big, ok).notAssessed).toEqual({ reason: 'tool-limit', message: 'Not assessed: The card is larger than this tool reads.' });
    const grpc = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'precondition', message: 'only gRPC' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'precondition' }),
    );
    expect(computeLevel(grpc, ok).notAssessed).toEqual({ reason: 'untestable', message: 'Not assessed beyond the card: only gRPC' });
    const na = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'not-applicable' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'not-applicable' }),
    );
    expect(computeLevel(na, ok).level).toBe('non-conformant');
    const tool = replace(clean(), r('lifecycle.send', 'basic', 'error', { message: 'proxy down' }), r('lifecycle.get', 'basic', 'error'));
    expect(computeLevel(tool, ok).notAssessed?.message).toBe(
      'Not assessed: our tool or its proxy failed on the first call to the agent (lifecycle.send: proxy down). This says nothing about the agent.',
    );
  });

  it('the discovery outcome words use what discovery saw (the error, every attempt)', () => {
    const t = agent('unreachable', { error: 'connect ECONNREFUSED 127.0.0.1:9' });
    expect(computeLevel([], { agent: t }).notAssessed?.message).toBe(
      'Not assessed: nothing answered at http://agent.test (connect ECONNREFUSED 127.0.0.1:9). Check the URL and that the agent is running; no verdict was made.',
    );
    expect(computeLevel([], { agent: agent('unreachable') }).notAssessed?.message).toMatch(/\(no answer\)/);
    const noCard = agent('no-card', {
      attempts: [
        { url: 'a', status: 404, ok: false },
        { url: 'b', ok: false },
      ],
    });
    expect(computeLevel([], { agent: noCard }).notAssessed?.message).toMatch(/well-known paths \(404, no answer\)/);
    expect(computeLevel([], { agent: agent('tool-failure', { error: 'target_blocked' }) }).notAssessed?.message).toMatch(/\(target_blocked\)/);
    expect(computeLevel([], { agent: agent('tool-failure') }).notAssessed?.message).toMatch(/\(refused\)/);
    expect(computeLevel([], { agent: agent('invalid-url', { error: 'Not an absolute http(s) URL: x' }) }).notAssessed?.message).toBe(
      'Not assessed: Not an absolute http(s) URL: x.',
    );
    expect(computeLevel([], { agent: agent('invalid-url') }).notAssessed?.message).toBe('Not assessed: the URL is not an absolute http(s) URL.');
  });

  it('a card that was read is graded; a run with no agent at all is a tool failure or a stop', () => {
    expect(computeLevel(clean(), { agent: agent('card') }).level).toBe('full');
    expect(computeLevel(clean(), {}).level).toBe('full');
    expect(computeLevel([], { runComplete: true }).notAssessed).toEqual({
      reason: 'tool-failure',
      message: 'Not assessed: the run ended before the agent was contacted.',
    });
    expect(computeLevel([], { runComplete: false }).notAssessed).toEqual({
      reason: 'stopped',
      message: 'Not assessed: the run was stopped before the agent was contacted.',
    });
    // Stopped after the card, before basic send/get was judged: not graded either.
    const cardOnly = clean().filter((x) => x.tier === 'card');
    expect(computeLevel(cardOnly, { ...ok, runComplete: false }).notAssessed?.reason).toBe('stopped');
  });
});

describe('computeLevel: exact words of the not-assessed outcomes', () => {
  const creds = replace(
    clean(),
    r('lifecycle.send', 'basic', 'skip', { skipKind: 'credentials', message: 'HTTP 401.' }),
    r('lifecycle.get', 'basic', 'skip', { skipKind: 'credentials' }),
  );
  it('credentials required / rejected, unreachable endpoint, stopped before basic', () => {
    expect(computeLevel(creds, ok).notAssessed?.message).toBe('Not assessed: the agent requires credentials for its A2A calls. HTTP 401.');
    expect(computeLevel(creds, { ...ok, credentialsGiven: true }).notAssessed?.message).toBe(
      'Not assessed: the agent refused the credentials given. HTTP 401.',
    );
    const down = replace(
      clean(),
      r('lifecycle.send', 'basic', 'skip', { skipKind: 'unreachable', message: 'ECONNREFUSED.' }),
      r('lifecycle.get', 'basic', 'skip', { skipKind: 'unreachable' }),
    );
    expect(computeLevel(down, ok).notAssessed?.message).toBe(
      'Not assessed: the card was read, but the endpoint it declares accepted no connection. ECONNREFUSED.',
    );
    const cardOnly = clean().filter((x) => x.tier === 'card');
    expect(computeLevel(cardOnly, { ...ok, runComplete: false }).notAssessed?.message).toBe(
      'Not assessed: the run was stopped before a basic send + get was judged.',
    );
  });
  it('lists failures of several categories joined by "; " in category order', () => {
    const v = computeLevel(
      replace(clean(), r('streaming.framing', 'optional', 'fail'), r('card.caching', 'optional', 'fail'), r('errors.invalid-request', 'optional', 'fail')),
      ok,
    );
    expect(v.reason).toBe(
      'Core lifecycle passes; required checks fail (agent-card: card.caching; streaming: streaming.framing; error-handling: errors.invalid-request).',
    );
  });
});

describe('computeLevel: levels only from what was observed', () => {
  const notRun = (id: string, tier: Tier) => r(id, tier, 'skip', { skipKind: 'not-run', message: 'Not run: the run was stopped before this check started.' });
  it('a stopped run has no level, even when everything it judged passed ("stopped at N/M")', () => {
    const rs = replace(clean(), notRun('lifecycle.cancel', 'core'), notRun('streaming.framing', 'optional'));
    const v = computeLevel(rs, { ...ok, runComplete: false, runStatus: 'interrupted' });
    expect(v.level).toBeNull();
    expect(v.notAssessed?.reason).toBe('stopped');
    expect(v.reason).toMatch(/^Stopped at 8\/10 checks: no level/);
    expect(v.reason).toMatch(/So far: 8 pass, 0 fail/);
  });
  it('a stopped run with a card failure has no level either (not "non-conformant (provisional)")', () => {
    const rs = replace(clean(), r('card.json', 'card', 'fail'), notRun('lifecycle.cancel', 'core'));
    expect(computeLevel(rs, { ...ok, runComplete: false, runStatus: 'interrupted' })).toMatchObject({ level: null, notAssessed: { reason: 'stopped' } });
  });
  it('a crashed run (our bug) has no level and blames our tool', () => {
    expect(computeLevel(clean(), { ...ok, runComplete: false, runStatus: 'errored' })).toMatchObject({ level: null, notAssessed: { reason: 'tool-failure' } });
  });
  it('a run of selected checks gives their tally and no level, whatever they are', () => {
    const two = [r('lifecycle.send', 'basic', 'pass'), r('lifecycle.get', 'basic', 'pass')];
    const v = computeLevel(two, { ...ok, selected: ['lifecycle.send', 'lifecycle.get'] });
    expect(v).toMatchObject({ level: null, notAssessed: { reason: 'selected-checks' } });
    expect(v.reason).toMatch(/Selected checks only \(2\): 2 pass, 0 fail/);
    const oneCardFail = computeLevel([r('card.json', 'card', 'fail')], { ...ok, selected: ['card.json'] });
    expect(oneCardFail.level).toBeNull();
    expect(oneCardFail.reason).toMatch(/0 pass, 1 fail/);
  });
  it('an unreachable agent stays "unreachable" whether or not checks were selected', () => {
    expect(computeLevel([], { agent: agent('unreachable', { error: 'refused' }), selected: ['card.json'] }).notAssessed?.reason).toBe('unreachable');
  });
  it('a live run is still judged provisionally (the dashboard shows progress, not this)', () => {
    expect(computeLevel(clean(), { ...ok, runComplete: false, runStatus: 'running' })).toMatchObject({ level: 'full', provisional: true });
  });
});

describe('computeLevel: an agent never exercised is "not assessed", whichever checks ran and however the run ended', () => {
  const refused = [r('card.json', 'card', 'pass'), r('lifecycle.send', 'basic', 'skip', { skipKind: 'credentials', message: 'HTTP 401' })];
  it('selected checks that never got past authentication say so, not "selected checks: 0 fail"', () => {
    expect(computeLevel(refused, { ...ok, selected: ['card.json', 'lifecycle.send'] }).notAssessed?.reason).toBe('credentials-required');
  });
  it('a stopped run that never got past authentication says so too', () => {
    expect(computeLevel(refused, { ...ok, runComplete: false, runStatus: 'interrupted' }).notAssessed?.reason).toBe('credentials-required');
  });
});

describe('the worst first (issue 25 item 6)', () => {
  const crash = (id: string) => r(id, 'optional', 'fail', { critical: true });
  it('critical failures lead the reason, before the card failure that sets the level', () => {
    const v = computeLevel(replace(clean(), r('card.json', 'card', 'fail'), crash('errors.invalid-request'), crash('streaming.framing')), ok);
    expect(v.level).toBe('non-conformant');
    expect(v.reason).toMatch(/^Critical \(fix first\): streaming\.framing, errors\.invalid-request\. The agent card is invalid \(card\.json\)\./);
  });
  it('a critical failure the headline already names is not repeated', () => {
    const v = computeLevel(replace(clean(), r('lifecycle.send', 'basic', 'fail', { critical: true })), ok);
    expect(v.reason).toBe('Basic send/get is broken (lifecycle.send).');
  });
  it('required failures are listed MUST before SHOULD', () => {
    const v = computeLevel(
      replace(
        clean(),
        r('card.caching', 'optional', 'fail', { level: 'SHOULD' }),
        r('errors.invalid-request', 'optional', 'fail'),
        r('streaming.framing', 'optional', 'fail', { level: 'SHOULD' }),
      ),
      ok,
    );
    expect(v.reason).toBe(
      'Core lifecycle passes; required checks fail (MUST: error-handling: errors.invalid-request · SHOULD: agent-card: card.caching; streaming: streaming.framing).',
    );
  });
  it('counts what lowers the level by strength, and the critical ones; security findings and advisories aside', () => {
    const rs = replace(
      clean(),
      r('card.caching', 'optional', 'fail', { level: 'SHOULD' }),
      crash('errors.invalid-request'),
      r('streaming.framing', 'optional', 'fail', { level: 'SHOULD' }),
      r('interop.cors.card', 'advisory', 'advisory'),
    );
    const t = failureTally([...rs, r('security.x', 'advisory', 'fail', { category: 'security' })]);
    expect(t).toEqual({ total: 3, must: 1, should: 2, critical: 1 });
    expect(failureWords(t)).toBe('3 lower the level: 1 MUST, 2 SHOULD; 1 critical');
    expect(failureWords(failureTally([r('card.json', 'card', 'fail')]))).toBe('1 lowers the level: 1 MUST');
    expect(failureWords(failureTally(clean()))).toBe('Nothing lowers the level');
  });
});
