import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { groupChecks, NO_FILTER } from './filter';

describe('result filters', () => {
  const s = applyEvents(initialRunState(), syntheticRun({ flawed: true, toolError: true }));
  const checks = s.checkOrder.map((id) => s.checks[id]!);
  it('groups by the five categories in report order', () => {
    const g = groupChecks(checks, NO_FILTER);
    expect(g.map((x) => x.category)).toEqual(['agent-card', 'lifecycle', 'streaming', 'error-handling', 'interop']);
    expect(g.reduce((n, x) => n + x.rows.length, 0)).toBe(s.checkOrder.length);
  });
  it('filters by status, category and level together', () => {
    const fails = groupChecks(checks, { ...NO_FILTER, status: 'fail' }).flatMap((g) => g.rows.map((r) => r.id));
    expect(fails.sort()).toEqual(['errors.task-not-found', 'interop.cors.preflight', 'streaming.final-event']);
    const should = groupChecks(checks, { status: 'fail', category: 'all', level: 'SHOULD' }).flatMap((g) => g.rows.map((r) => r.id));
    expect(should).toEqual(['interop.cors.preflight']);
    const errors = groupChecks(checks, { status: 'error', category: 'streaming', level: 'all' });
    expect(errors.flatMap((g) => g.rows.map((r) => r.id))).toEqual(['streaming.resubscribe']);
    expect(groupChecks(checks, { status: 'error', category: 'lifecycle', level: 'all' })).toEqual([]);
  });
});

describe('re-run outcome in words', () => {
  it('says "still fails", "now passes" and names other outcomes', async () => {
    const { rerunText } = await import('./check-details');
    expect(rerunText({ before: 'fail', after: 'fail', seq: 1 })).toBe('still fails');
    expect(rerunText({ before: 'fail', after: 'pass', seq: 2 })).toBe('now passes');
    expect(rerunText({ before: 'fail', after: 'skip', seq: 3 })).toBe('now skipped');
    expect(rerunText({ before: 'fail', after: null, seq: 4 })).toBe('the re-run gave no result');
  });
});
