import type { CheckSpec } from '../types';

/** What each card check enforces, per generation, quoted from the specification (see ../types.ts). */
export const SPEC: Record<string, CheckSpec> = {};
