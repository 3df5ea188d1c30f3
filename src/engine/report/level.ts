import type { CheckResult } from '../model/check';
import type { ConformanceLevel } from '../model/report';

export interface LevelVerdict {
  level: ConformanceLevel;
  provisional: boolean;
  reason: string;
}

const ids = (rs: CheckResult[]) => rs.map((r) => r.id).join(', ');

/**
 * Conformance level from results only (seed 001 step 5.2, made precise):
 * - non-conformant: a card-tier or basic-tier check failed, or no basic-tier check passed
 * - minimal: card valid and basic send + get works, but a core (MUST) check failed
 * - partial: core holds, but an optional-tier check failed or a core check could not be verified
 * - full: every applicable check passed (not-applicable skips are fine; skips never count as passes)
 * `error` results (our tool failed) make the verdict provisional; they never count against the agent.
 */
export function computeLevel(results: readonly CheckResult[], runComplete = true): LevelVerdict {
  const errors = results.filter((r) => r.status === 'error');
  const provisional = errors.length > 0 || !runComplete;
  const failed = (tier: CheckResult['tier']) => results.filter((r) => r.tier === tier && r.status === 'fail');
  const note = provisional
    ? ` Provisional: ${errors.length ? `${errors.length} check(s) could not run because our tool or proxy failed (${ids(errors)})` : 'the run did not complete'}.`
    : '';

  const cardFails = failed('card');
  if (cardFails.length) {
    return { level: 'non-conformant', provisional, reason: `The agent card is invalid (${ids(cardFails)}).${note}` };
  }
  const basicFails = failed('basic');
  if (basicFails.length) {
    return { level: 'non-conformant', provisional, reason: `Basic send/get is broken (${ids(basicFails)}).${note}` };
  }
  if (!results.some((r) => r.tier === 'basic' && r.status === 'pass')) {
    return {
      level: 'non-conformant',
      provisional,
      reason: `No basic send + get check passed, so not even minimal conformance is shown.${note}`,
    };
  }
  const coreFails = failed('core');
  if (coreFails.length) {
    return { level: 'minimal', provisional, reason: `Card and basic send/get work, but core requirements fail (${ids(coreFails)}).${note}` };
  }
  const optionalFails = failed('optional');
  const unverified = results.filter(
    (r) => (r.tier === 'core' || r.tier === 'basic') && r.status === 'skip' && r.skipKind === 'precondition',
  );
  if (optionalFails.length || unverified.length) {
    const parts = [];
    if (optionalFails.length) parts.push(`optional or SHOULD checks fail (${ids(optionalFails)})`);
    if (unverified.length) parts.push(`core checks could not be verified (${ids(unverified)})`);
    return { level: 'partial', provisional, reason: `Core lifecycle passes; ${parts.join('; ')}.${note}` };
  }
  return { level: 'full', provisional, reason: `Every applicable check passes.${note}` };
}

export const LEVEL_RANK: Record<ConformanceLevel, number> = {
  'non-conformant': 0,
  minimal: 1,
  partial: 2,
  full: 3,
};

/** True when `level` is at least `min` (for the CLI's --min-level). */
export const meetsLevel = (level: ConformanceLevel, min: ConformanceLevel) => LEVEL_RANK[level] >= LEVEL_RANK[min];
