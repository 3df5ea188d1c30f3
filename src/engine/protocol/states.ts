import type { Generation } from '../model/check';
import type { TaskState } from '../model/events';

/** Task states as spelled on the wire by each generation (v0.1.0, v0.2.6 and v0.3.0 §6.3 TaskState; v1.0.1 §4.1.3 TaskState, ProtoJSON `TASK_STATE_*`). */
export const WIRE_STATES: Record<Generation, readonly string[]> = {
  legacy: ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'unknown'],
  'v0.2': ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'],
  'v0.3': ['submitted', 'working', 'input-required', 'completed', 'canceled', 'failed', 'rejected', 'auth-required', 'unknown'],
  'v1.0': [
    'TASK_STATE_SUBMITTED',
    'TASK_STATE_WORKING',
    'TASK_STATE_COMPLETED',
    'TASK_STATE_FAILED',
    'TASK_STATE_CANCELED',
    'TASK_STATE_INPUT_REQUIRED',
    'TASK_STATE_REJECTED',
    'TASK_STATE_AUTH_REQUIRED',
  ],
};

/** Folds any spelling (`TASK_STATE_CANCELLED`, `Canceled`, `input_required`) to our TaskState; undefined if unrecognisable. */
export function normalizeState(raw: unknown): TaskState | undefined {
  if (typeof raw !== 'string') return undefined;
  const k = raw
    .trim()
    .toLowerCase()
    .replace(/^task_state_/, '')
    .replace(/_/g, '-');
  switch (k) {
    case 'submitted':
    case 'working':
    case 'input-required':
    case 'auth-required':
    case 'completed':
    case 'failed':
    case 'rejected':
    case 'unknown':
      return k;
    case 'canceled':
    case 'cancelled':
      return 'canceled';
    case 'unspecified':
      return 'unknown';
    default:
      return undefined;
  }
}

/** Whether `raw` is spelled exactly as the generation's schema/proto says. */
export const isWireState = (g: Generation, raw: unknown) => typeof raw === 'string' && WIRE_STATES[g].includes(raw);

const TERMINAL: ReadonlySet<TaskState> = new Set(['completed', 'canceled', 'failed', 'rejected']);
const INTERRUPTED: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);
export const isTerminal = (s: TaskState | undefined, g?: Generation) => s !== undefined && (TERMINAL.has(s) || (g === 'legacy' && s === 'unknown'));
export const isInterrupted = (s: TaskState | undefined) => s !== undefined && INTERRUPTED.has(s);

/**
 * Is `from -> to` a legal transition? Terminal states are final; nothing goes back to `submitted`.
 * Interrupted states may resume to working (or finish). Same-state repeats are fine.
 */
export function legalTransition(from: TaskState, to: TaskState, g: Generation): boolean {
  if (from === to) return true;
  if (isTerminal(from, g)) return false;
  if (to === 'submitted') return false;
  if (to === 'unknown') return g === 'legacy';
  return true;
}
