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
