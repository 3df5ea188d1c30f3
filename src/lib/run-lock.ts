/**
 * A Web Lock held for as long as a run is in progress in this tab, so a page opened (or reloaded)
 * elsewhere can tell a run that is still going from one whose page went away. Without the Web Locks
 * API (old browsers, tests) runs are never considered alive.
 */
const PREFIX = 'a2a-interop-run:';

export function holdRunLock(runId: string, until: Promise<unknown>): void {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return;
  void locks.request(PREFIX + runId, () => until.catch(() => undefined)).catch(() => undefined);
}

export async function isRunAlive(runId: string): Promise<boolean> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return false;
  try {
    const state = await locks.query();
    return (state.held ?? []).some((l) => l.name === PREFIX + runId);
  } catch {
    return false;
  }
}
