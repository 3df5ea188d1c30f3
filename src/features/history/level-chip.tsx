import { NOT_ASSESSED_LABELS } from '../../exporters/common';
import type { ConformanceLevel, NotAssessedReason } from '../../lib/engine';

/** A run's level as a chip: the text carries the meaning (colour only repeats it); not assessed says why. */
export function LevelChip({ level, notAssessed, provisional }: { level: ConformanceLevel | null; notAssessed?: NotAssessedReason; provisional?: boolean }) {
  const text = level
    ? `${level}${provisional ? ' (provisional)' : ''}`
    : notAssessed === 'stopped'
      ? 'stopped (no level)'
      : notAssessed === 'selected-checks'
        ? 'selected checks (no level)'
        : `not assessed${notAssessed ? ` (${NOT_ASSESSED_LABELS[notAssessed]})` : ''}`;
  return <span className={`level-chip level-chip-${level ?? 'not-assessed'}`}>{text}</span>;
}
