import type { CheckResult } from '../../lib/engine';

export interface CheckChange {
  id: string;
  title: string;
  before: CheckResult['status'] | 'absent';
  after: CheckResult['status'] | 'absent';
  /** pass → fail is a regression, fail → pass a fix; anything else a change. */
  kind: 'regression' | 'fix' | 'change';
}

const rank = (s: CheckChange['before']) => (s === 'pass' ? 2 : s === 'fail' ? 0 : 1);

/** Checks whose status differs between two runs (keyed by the stable check id), regressions first. */
export function compareRuns(before: readonly CheckResult[], after: readonly CheckResult[]): CheckChange[] {
  const a = new Map(before.map((r) => [r.id, r]));
  const b = new Map(after.map((r) => [r.id, r]));
  const ids = [...new Set([...a.keys(), ...b.keys()])];
  const out: CheckChange[] = [];
  for (const id of ids) {
    const x = a.get(id);
    const y = b.get(id);
    const sb = x?.status ?? 'absent';
    const sa = y?.status ?? 'absent';
    if (sb === sa) continue;
    const kind = rank(sa) < rank(sb) && sb === 'pass' ? 'regression' : sa === 'pass' && sb === 'fail' ? 'fix' : 'change';
    out.push({ id, title: y?.test ?? x?.test ?? id, before: sb, after: sa, kind });
  }
  const order = { regression: 0, fix: 1, change: 2 };
  return out.sort((p, q) => order[p.kind] - order[q.kind] || p.id.localeCompare(q.id));
}
