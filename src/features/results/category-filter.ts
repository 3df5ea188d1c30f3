import { useSyncExternalStore } from 'react';
import type { Category } from '../../lib/engine';

/**
 * The results' category filter, shared by the verdict's category tiles (a tile shows its category's results) and
 * the Results table's Category select. Kept per run: a new run starts unfiltered.
 */
export type CategoryChoice = 'all' | Category;

let state: { runId: string | undefined; category: CategoryChoice } = { runId: undefined, category: 'all' };
const listeners = new Set<() => void>();

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function setCategoryFilter(runId: string | undefined, category: CategoryChoice): void {
  if (state.runId === runId && state.category === category) return;
  state = { runId, category };
  for (const l of listeners) l();
}

/** The category the results of run `runId` are filtered to ('all' for another run's choice). */
export function useCategoryFilter(runId: string | undefined): CategoryChoice {
  return useSyncExternalStore(
    subscribe,
    () => (state.runId === runId ? state.category : 'all'),
    () => 'all',
  );
}
