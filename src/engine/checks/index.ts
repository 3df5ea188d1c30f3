import { authChecks } from './auth';
import { oauthChecks } from './auth-oauth';
import { cardChecks } from './card';
import { cardExtended } from './card/extended';
import type { CheckDef } from './define';
import { errorChecks } from './errors';
import { interopChecks, peerChecks } from './interop';
import { lifecycleChecks } from './lifecycle';
import { securityChecks } from './security';
import { streamingChecks } from './streaming';

/**
 * The suite manifest, in run order: explicit, no side-effect registration. Ids are stable forever, and so is this
 * order (reports, the matrix snapshots and the UI list checks in it).
 */
export const ALL_CHECKS: readonly CheckDef[] = [
  ...cardChecks,
  ...lifecycleChecks,
  ...streamingChecks,
  ...errorChecks,
  ...authChecks,
  ...oauthChecks,
  ...interopChecks,
  cardExtended,
  ...peerChecks,
  // The security review (informational) comes last: it never changes the level.
  ...securityChecks,
];

/** Static descriptions of every check (for docs, the UI's filters and the JSON Schema of ids). */
export const CHECK_CATALOG = ALL_CHECKS.map(({ run: _run, requires: _requires, ...info }) => info);

/** A check id that names no check, with the ids it most likely meant (for a usage error). */
export interface UnknownCheckId {
  id: string;
  suggestions: string[];
}

/** Edit distance of two short strings (ids are at most a few dozen characters). */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The ids of `only` that name no check, each with up to three suggestions: ids that contain it (or that it contains),
 * else the nearest by edit distance. Every door that takes check ids (CLI --only, MCP, the dashboard) refuses these.
 */
export function unknownCheckIds(only: readonly string[], catalog: readonly { id: string }[] = CHECK_CATALOG): UnknownCheckId[] {
  const ids = catalog.map((c) => c.id);
  return only
    .filter((id) => !ids.includes(id))
    .map((id) => {
      const needle = id.toLowerCase();
      const near = ids.filter((c) => c.includes(needle) || (needle.length > 3 && needle.includes(c)));
      const ranked = (near.length ? near : ids)
        .map((c) => ({ c, d: distance(needle, c) }))
        .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
        .filter((x) => near.length > 0 || x.d <= Math.max(3, Math.floor(needle.length / 3)));
      return { id, suggestions: ranked.slice(0, 3).map((x) => x.c) };
    });
}
