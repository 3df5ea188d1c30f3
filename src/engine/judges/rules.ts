/**
 * Rules that more than one check observes, each judged here once, with one strength per generation (the rule's
 * sentences in src/engine/spec: RULE_SPECS). A verdict made here names its rule (`Verdict.rule`), so the runner
 * gives it the rule's strength and quotes whatever check saw it: "a terminal state is final" is as strong in
 * errors.cancel-terminal as in lifecycle.transitions. Pure functions: runs, the console and any other door call them.
 */
import type { Evidence, Generation } from '../model/check';
import type { TaskState } from '../model/events';
import { isTerminal } from '../protocol/states';
import type { RuleId } from '../spec';
import { finding, type Finding, type FindingOpts } from './finding';

/** A failure under a shared rule: a check returns it as its verdict (checks/verdict.ts `Verdict` accepts it as is). */
export interface RuleVerdict {
  status: 'fail';
  rule: RuleId;
  message: string;
  evidence?: Evidence[];
  critical?: boolean;
  recommendation?: string;
}

/** How to give tasks more time, named in every failure of the per-task timeout (the procedure's, not ours). */
const TASK_TIMEOUT_KNOB =
  'the per-task timeout (CLI --task-timeout SECONDS, default 60 as the conformance procedure says; the dashboard\'s "Per-task timeout"; MCP timeout_seconds)';

/** One observed state of a task, with where it was seen ("get", "stream event 4", "cancel answer"). */
export interface StateSeen {
  state?: TaskState;
  raw?: string;
  source: string;
}

/**
 * Every change out of a terminal state in one task's observed states, in the order seen:
 * `completed → working (get then stream event 5)`. The only transition any release speaks of; the others
 * (back to submitted, working <-> input-required, straight to completed) are legal.
 */
export function terminalChanges(states: readonly StateSeen[], g: Generation): string[] {
  return terminalChangesAt(states, g).map((c) => c.text);
}

/** terminalChanges with the index (in `states`) of the state that departs from the terminal one. */
export function terminalChangesAt(states: readonly StateSeen[], g: Generation): { at: number; text: string }[] {
  const out: { at: number; text: string }[] = [];
  for (const [i, b] of states.entries()) {
    const a = states[i - 1];
    if (a?.state && b.state && a.state !== b.state && isTerminal(a.state, g))
      out.push({ at: i, text: `${a.raw ?? a.state} → ${b.raw ?? b.state} (${a.source} then ${b.source})` });
  }
  return out;
}

/** The finding "a terminal state changed", whatever check observed it (rule `terminal-final`). */
export function terminalChanged(message: string, evidence?: Evidence[], opts: { critical?: boolean; recommendation?: string } = {}): RuleVerdict {
  return {
    status: 'fail',
    rule: 'terminal-final',
    message,
    evidence,
    critical: opts.critical,
    recommendation:
      opts.recommendation ??
      'Never change the state of a task once it is completed, failed, canceled or rejected: check for cancellation before publishing a later status, and refuse (or start a new task for) a request on a finished task.',
  };
}

/** The finding "no terminal state within the per-task timeout" (rule `task-completes`). */
export function taskTimedOut(message: string, evidence?: Evidence[]): RuleVerdict {
  return {
    status: 'fail',
    rule: 'task-completes',
    message: `${message} Raise ${TASK_TIMEOUT_KNOB} if the task is meant to take longer.`,
    evidence,
    recommendation:
      'Make every task end: publish a final status (completed, failed, canceled, rejected) or pause in input-required/auth-required. A task that stays "working" usually means the executor returned without a final status event, or threw and swallowed the error.',
  };
}

/** The finding "the stream never reached its end within the per-task timeout" (rule `stream-terminates`). */
export function streamNeverEnded(message: string, evidence?: Evidence[]): RuleVerdict {
  return {
    status: 'fail',
    rule: 'stream-terminates',
    message: `${message} Raise ${TASK_TIMEOUT_KNOB} if the task is meant to take longer.`,
    evidence,
    recommendation:
      'End every stream: publish the final status (before v1.0 with "final": true) and close the response. In @a2a-js/sdk publish the final status and call eventBus.finished().',
  };
}

/**
 * The finding "a terminal state changed" for one exchange or frame (lifecycle.transitions, rule `terminal-final`):
 * `changes` as terminalChanges words them, each prefixed with the task (`task t1: completed → working (…)`).
 */
export function terminalChangeFinding(g: Generation, changes: readonly string[], o: Omit<FindingOpts, 'by' | 'level'> = {}): Finding | undefined {
  if (!changes.length) return undefined;
  return finding(g, 'lifecycle.transitions', 'transition', `A terminal state changed: ${changes.slice(0, 3).join('; ')}.`, { ...o, by: 'terminal-final' });
}
