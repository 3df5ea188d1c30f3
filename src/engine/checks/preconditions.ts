import type { CheckContext } from './context';
import { skip, type Verdict } from './verdict';

/** A testable binding: without a dialect the agent cannot be called. */
export function needDialect(ctx: CheckContext): Verdict | undefined {
  if (!ctx.dialect) {
    if (ctx.detection.untestable) return skip(ctx.detection.untestable, 'precondition');
    return skip('No usable agent card, so the agent cannot be called.', 'precondition');
  }
  return undefined;
}
