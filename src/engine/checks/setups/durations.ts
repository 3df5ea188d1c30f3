/**
 * How long a test task worked, and by whose clock: the agent's status timestamps when they fit what we saw, else our
 * measure (sizes the cancel.stay window; ranks the tasks streaming.disconnect may pick).
 */
import { isInterrupted, isTerminal } from '../../protocol/states';
import type { TaskRun } from './records';

/** How long a test task ran by the agent's own status timestamps (first seen to terminal), when both read as times. */
export function agentDurationMs(r: TaskRun): number | undefined {
  const times = r.observations.map((o) => (o.task.timestamp ? Date.parse(o.task.timestamp) : NaN));
  const first = times.find((t) => Number.isFinite(t));
  const last = times.at(-1);
  return first !== undefined && last !== undefined && Number.isFinite(last) && last >= first ? last - first : undefined;
}

/**
 * How long a finished test task's work took, as closely as the run can tell, and by whose clock: the agent's status
 * timestamps when they agree with what we saw, else our measure (from the send to the read that saw it ended, so up
 * to one poll late). Agreeing: no longer than our measure, and at least from the send's answer to the last get that
 * still found the task going (it had not ended when the agent answered that get).
 */
export function workDurationMs(r: TaskRun): { ms: number; by: 'agent' | 'us' } {
  const measured = Math.max(0, r.endedAt - r.startedAt);
  const own = agentDurationMs(r);
  const going = r.gets.filter((g) => g.kind === 'task' && !isTerminal(g.task.state, undefined) && !isInterrupted(g.task.state)).at(-1);
  const least = going?.http.startedAt !== undefined && r.send.http.endedAt !== undefined ? going.http.startedAt - r.send.http.endedAt : 0;
  return own !== undefined && own <= measured && own >= least ? { ms: own, by: 'agent' } : { ms: measured, by: 'us' };
}
