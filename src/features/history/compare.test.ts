import { describe, expect, it } from 'vitest';
import { applyEvents, initialRunState, resultsOf } from '../../lib/engine';
import { syntheticRun } from '../../testing/fixtures/events';
import { compareRuns } from './compare';

const results = (o: Parameters<typeof syntheticRun>[0]) => resultsOf(applyEvents(initialRunState(), syntheticRun(o)));

describe('compareRuns', () => {
  it('lists only checks whose status changed, regressions first', () => {
    const before = results({ flawed: true });
    const after = results({ statuses: { 'errors.task-not-found': 'pass', 'card.content-type': 'fail', 'interop.cors.preflight': 'skip' }, flawed: true });
    const changes = compareRuns(before, after);
    expect(changes.map((c) => [c.id, c.before, c.after, c.kind])).toEqual([
      ['card.content-type', 'pass', 'fail', 'regression'],
      ['errors.task-not-found', 'fail', 'pass', 'fix'],
      ['interop.cors.preflight', 'fail', 'skip', 'change'],
    ]);
  });
  it('reports checks present in only one run, and nothing for identical runs', () => {
    const a = results({});
    expect(compareRuns(a, a)).toEqual([]);
    const b = a.filter((r) => r.id !== 'lifecycle.cancel');
    expect(compareRuns(a, b)).toEqual([{ id: 'lifecycle.cancel', title: expect.any(String), before: 'pass', after: 'absent', kind: 'regression' }]);
  });
});
