import { cardChecks } from './card';
import type { CheckDef } from './define';
import { authChecks, errorChecks } from './errors';
import { interopChecks } from './interop';
import { lifecycleChecks } from './lifecycle';
import { streamingChecks } from './streaming';

/** The suite manifest, in run order: explicit, no side-effect registration. Ids are stable forever. */
export const ALL_CHECKS: readonly CheckDef[] = [...cardChecks, ...lifecycleChecks, ...streamingChecks, ...errorChecks, ...authChecks, ...interopChecks];

/** Static descriptions of every check (for docs, the UI's filters and the JSON Schema of ids). */
export const CHECK_CATALOG = ALL_CHECKS.map(({ run: _run, ...info }) => info);
