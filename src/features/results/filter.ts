import { CATEGORIES, type Category, type CheckStatus, type Obligation } from '../../lib/engine';
import type { CheckRunState } from '../../lib/engine';

export interface ResultFilter {
  status: 'all' | CheckStatus | 'running';
  category: 'all' | Category;
  level: 'all' | Obligation;
}

export const NO_FILTER: ResultFilter = { status: 'all', category: 'all', level: 'all' };

export { CATEGORY_LABEL } from '../../lib/format';

export function matches(c: CheckRunState, f: ResultFilter): boolean {
  return (f.status === 'all' || c.status === f.status) && (f.category === 'all' || c.category === f.category) && (f.level === 'all' || c.level === f.level);
}

/** Checks grouped by the five categories (in report order), filtered; empty groups are dropped. */
export function groupChecks(checks: readonly CheckRunState[], f: ResultFilter): { category: Category; rows: CheckRunState[] }[] {
  const groups = new Map<Category, CheckRunState[]>(CATEGORIES.map((c) => [c, []]));
  for (const c of checks) {
    if (matches(c, f)) groups.get(c.category)?.push(c);
  }
  return CATEGORIES.map((category) => ({ category, rows: groups.get(category) ?? [] })).filter((g) => g.rows.length > 0);
}
