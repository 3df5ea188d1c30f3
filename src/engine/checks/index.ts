import { cardChecks } from './card';
import type { CheckDef } from './define';

/** The suite manifest, in run order: explicit, no side-effect registration. Ids are stable forever. */
export const ALL_CHECKS: readonly CheckDef[] = [...cardChecks];
