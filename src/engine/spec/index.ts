import { SPEC as card } from './data/card';
import { SPEC as errors } from './data/errors';
import { SPEC as interop } from './data/interop';
import { SPEC as lifecycle, TASK_COMPLETES, TERMINAL_FINAL } from './data/lifecycle';
import { SPEC as oauth } from './data/oauth';
import { SPEC as security } from './data/security';
import { SPEC as streaming, STREAM_ENDS, STREAM_TERMINATES } from './data/streaming';
import { PROCEDURE_JUDGED_BY } from './data/procedure';
export { CLIENT_SPECS } from './data/client';
import type { CheckSpec } from './types';

export * from './types';

/** The spec's sentences with the conformance procedure's beside them, for the checks that judge a procedure requirement. */
function withProcedure(specs: Record<string, CheckSpec>): Record<string, CheckSpec> {
  const out: Record<string, CheckSpec> = { ...specs };
  for (const [id, { sentence, note }] of Object.entries(PROCEDURE_JUDGED_BY)) {
    const spec = out[id];
    if (!spec) continue;
    out[id] = Object.fromEntries(
      Object.entries(spec).map(([g, gs]) => [g, gs && { ...gs, sentences: [...gs.sentences, sentence], note: gs.note ? `${gs.note} ${note}` : note }]),
    ) as CheckSpec;
  }
  return out;
}

/** Every check's requirements per generation, by check id (one data file per category; the procedure's beside them). */
export const CHECK_SPECS: Readonly<Record<string, CheckSpec>> = withProcedure({ ...card, ...lifecycle, ...streaming, ...errors, ...oauth, ...interop, ...security });

/**
 * Rules observed by more than one check (or door: console, MCP, tap), each with one strength per generation: a
 * verdict that names its rule (`Verdict.rule`) is judged with the rule's sentences, whatever check observed it.
 * The judging functions are in src/engine/judges/rules.ts.
 */
export const RULE_SPECS = {
  /** A terminal state is final: a finished task never changes state (procedure V3, V4). */
  'terminal-final': TERMINAL_FINAL,
  /** A task reaches a terminal state within the per-task timeout (procedure T2). */
  'task-completes': TASK_COMPLETES,
  /** A stream reaches its end within the per-task timeout (procedure T3). */
  'stream-terminates': STREAM_TERMINATES,
  /** The stream ends at its final event: final:true and close before v1.0 (procedure S2), close at a terminal state in v1.0. */
  'stream-ends': STREAM_ENDS,
} as const satisfies Record<string, CheckSpec>;
export type RuleId = keyof typeof RULE_SPECS;

