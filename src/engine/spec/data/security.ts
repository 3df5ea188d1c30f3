import type { CheckSpec } from '../types';

/**
 * What each security-review check points at, per generation, quoted from the specification (see ../types.ts).
 * The security review is informational (report/level.ts leaves the category out of the level): the sentences say
 * why a finding matters, not that it makes the agent non-conformant. Where no A2A sentence exists, the note says so.
 * This file is a list of independent entries, one per check id.
 */
export const SPEC: Record<string, CheckSpec> = {};
