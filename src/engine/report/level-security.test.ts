import { describe, expect, it } from 'vitest';
import { CATEGORIES, type CheckResult, type CheckStatus, type Tier } from '../model/check';
import type { TargetInfo } from '../model/events';
import { buildReport } from './build';
import { compareRuns, regressionsOf } from './compare';
import { computeLevel } from './level';
import { applyEvents, initialRunState } from '../state/run-state';

/** The security review is informational: whatever its results say, the level is the one of the other checks. */
const agent: TargetInfo = { role: 'agent', inputUrl: 'http://agent.test', attempts: [], evidence: [], reach: 'card' };

function r(id: string, category: CheckResult['category'], tier: Tier, status: CheckStatus): CheckResult {
  return { id, test: id, category, status, level: 'MUST', tier, message: `${id} ${status}`, duration_ms: 1, evidence: [] };
}

const conformant = (): CheckResult[] => [
  r('card.json', 'agent-card', 'card', 'pass'),
  r('lifecycle.send', 'lifecycle', 'basic', 'pass'),
  r('lifecycle.get', 'lifecycle', 'basic', 'pass'),
  r('lifecycle.cancel', 'lifecycle', 'core', 'pass'),
  r('errors.invalid-request', 'error-handling', 'optional', 'pass'),
];

describe('computeLevel: the security review never changes the level', () => {
  it('a security finding leaves a full agent full, and is named as informational in the reason', () => {
    const v = computeLevel([...conformant(), r('security.card.secrets', 'security', 'advisory', 'advisory')], { agent });
    expect(v.level).toBe('full');
    expect(v.provisional).toBe(false);
    expect(v.reason).toMatch(/1 security finding \(security\.card\.secrets\): informational/);
  });

  it('even a security result that claims a card/basic/core tier and fails or errors changes nothing', () => {
    for (const tier of ['card', 'basic', 'core', 'optional'] as const) {
      for (const status of ['fail', 'error', 'skip'] as const) {
        const v = computeLevel([...conformant(), r('security.x', 'security', tier, status)], { agent });
        expect(v.level, `${tier} ${status}`).toBe('full');
        expect(v.provisional, `${tier} ${status}`).toBe(false);
      }
    }
  });

  it('security results alone do not make an agent assessed', () => {
    const v = computeLevel([r('security.cors.credentials', 'security', 'advisory', 'pass')], { agent, runComplete: true });
    expect(v.level).toBe('non-conformant');
    expect(v.reason).toMatch(/No basic send \+ get check passed/);
  });

  it('the report files security results under categories.security, and an older report without it still parses', async () => {
    const { Report } = await import('../model/report');
    let state = initialRunState();
    state = applyEvents(state, [
      {
        type: 'run-started',
        at: 0,
        runId: 'r1',
        agentUrl: 'http://agent.test',
        options: { timeoutMs: 1000, credentials: 'none' },
        tool: { name: 't', version: '0' },
      },
      { type: 'target-resolved', at: 0, target: agent },
      ...[...conformant(), r('security.card.secrets', 'security', 'advisory', 'advisory')].map((result) => ({
        type: 'check-finished' as const,
        at: 1,
        result,
      })),
      { type: 'run-finished', at: 2, status: 'completed' },
    ]);
    const report = buildReport(state);
    expect(report.categories.security.map((x) => x.id)).toEqual(['security.card.secrets']);
    expect(report.conformanceLevel).toBe('full');
    expect(CATEGORIES).toContain('security');
    const { security: _s, ...older } = report.categories;
    const parsed = Report.parse({ ...report, categories: older });
    expect(parsed.categories.security).toEqual([]);
  });

  it('history compare: a new security finding is an advisory change, never a regression', () => {
    const before = { level: 'full' as const, results: [...conformant(), r('security.redirects', 'security', 'advisory', 'pass')] };
    const after = { level: 'full' as const, results: [...conformant(), r('security.redirects', 'security', 'advisory', 'advisory')] };
    const c = compareRuns(before, after);
    expect(c.changes.map((x) => [x.id, x.kind])).toEqual([['security.redirects', 'advisory']]);
    expect(regressionsOf(c)).toEqual([]);
  });
});
