import type { CheckSpec } from '../types';

/** What each errors check enforces, per generation, quoted from the specification (see ../types.ts). */
export const SPEC: Record<string, CheckSpec> = {};
