import type { Category } from '../model/check';
import { SPEC as card } from './data/card';
import { SPEC as errors } from './data/errors';
import { SPEC as interop } from './data/interop';
import { SPEC as lifecycle } from './data/lifecycle';
import { SPEC as oauth } from './data/oauth';
import { SPEC as security } from './data/security';
import { SPEC as streaming } from './data/streaming';
import type { CheckSpec } from './types';

export * from './types';

/** Every check's requirements per generation, by check id (one data file per category). */
export const CHECK_SPECS: Readonly<Record<string, CheckSpec>> = { ...card, ...lifecycle, ...streaming, ...errors, ...oauth, ...interop, ...security };

/** Which data file holds a category's checks (for messages). */
export const SPEC_FILES: Record<Category, string> = {
  'agent-card': 'src/engine/spec/data/card.ts',
  lifecycle: 'src/engine/spec/data/lifecycle.ts',
  streaming: 'src/engine/spec/data/streaming.ts',
  'error-handling': 'src/engine/spec/data/errors.ts',
  interop: 'src/engine/spec/data/interop.ts',
  security: 'src/engine/spec/data/security.ts',
};
