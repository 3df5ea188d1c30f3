import { NOT_ASSESSED_LABELS } from '../../exporters/common';
import type { RunMeta } from '../../lib/db';

/**
 * An agent's last level as a chip: the text carries the meaning (colour only repeats it); a run that was not
 * assessed says why, one still going says so. (History has the same chip; features do not share code.)
 */
export function LastLevelChip({ run }: { run: Pick<RunMeta, 'level' | 'notAssessed' | 'provisional' | 'status'> }) {
  if (run.status === 'running') return <span className="level-chip level-chip-running">running</span>;
  const text = run.level
    ? `${run.level}${run.provisional ? ' (provisional)' : ''}`
    : `not assessed${run.notAssessed ? ` (${NOT_ASSESSED_LABELS[run.notAssessed]})` : ''}`;
  return <span className={`level-chip level-chip-${run.level ?? 'not-assessed'}`}>{text}</span>;
}
