/**
 * A judge's finding about one recorded exchange, and the strength it carries: the check that judges the same rule
 * in a run names it (`checkId`), and that check's quoted sentences give its level in the generation spoken
 * (src/engine/spec: CHECK_SPECS, levelOf). Runs, the console session and MCP all report these.
 */
import type { Generation } from '../model/check';
import { CHECK_SPECS, levelOf, refOf, RULE_SPECS, type CheckSpec, type RuleId } from '../spec';

/**
 * One finding about an answer, judged with the suite's own rule for it: the check that judges the same rule in a
 * run (`checkId`) and the strength its quoted sentences give it in the generation spoken (`level`). `advisory` is a
 * finding nothing stronger than MAY stands behind (shown, never a violation).
 */
export interface Finding {
  level: 'MUST' | 'SHOULD' | 'advisory';
  /** The check that judges this rule in a conformance run, e.g. `streaming.after-final`. */
  checkId: string;
  /** What the rule is about: shapes, ids, states and transitions, event order, end of stream, the transport. */
  rule: 'shape' | 'envelope' | 'ids' | 'state' | 'transition' | 'event-order' | 'end-of-stream' | 'framing' | 'answer' | 'transport' | 'error-shape';
  message: string;
  /** The SSE frame (its `seq`, from 1) the finding belongs to, for inline display; absent for the whole answer. */
  frame?: number;
  /** The exchange the finding is about. */
  exchangeId?: string;
  /** Where the rule is written, in the generation spoken (e.g. `A2A v1.0.1 §3.1.2`). */
  specRef?: string;
}

export interface FindingOpts {
  /** The strength the rule itself carries (a shape finding's); `advisory` always wins. */
  level?: Finding['level'];
  frame?: number;
  exchangeId?: string;
  /**
   * The shared rule the finding breaks (RULE_SPECS): its strength and sentences in `g`, whatever check observed it,
   * as a run gives a verdict that names the rule.
   */
  by?: RuleId;
}

/** The strength check `checkId` judges with in generation `g` (MAY is advisory); undefined when it does not apply to `g`. */
export function obligationOf(checkId: string, g: Generation): Finding['level'] | undefined {
  const spec = CHECK_SPECS[checkId]?.[g];
  if (!spec) return undefined;
  const l = levelOf(spec);
  return l === 'MAY' ? 'advisory' : l;
}

/** The strength a shared rule has in generation `g` (MAY is advisory; a rule without sentences there is a MUST, as in a run). */
export function ruleLevelOf(rule: RuleId, g: Generation): Finding['level'] {
  const spec = (RULE_SPECS[rule] as CheckSpec)[g];
  const l = spec ? levelOf(spec) : 'MUST';
  return l === 'MAY' ? 'advisory' : l;
}

/**
 * A finding under `checkId`'s rule, at the strength its sentences give it in generation `g` (MAY is advisory).
 * Undefined when the check does not apply to `g` and no strength was given: the rule is not part of that generation.
 */
export function finding(g: Generation, checkId: string, rule: Finding['rule'], message: string, o: FindingOpts = {}): Finding | undefined {
  const spec = o.by ? (RULE_SPECS[o.by] as CheckSpec)[g] : CHECK_SPECS[checkId]?.[g];
  const own = o.by ? ruleLevelOf(o.by, g) : obligationOf(checkId, g);
  const level = o.level === 'advisory' ? 'advisory' : (own ?? o.level);
  if (!level) return undefined;
  const f: Finding = { level, checkId, rule, message };
  if (o.frame !== undefined) f.frame = o.frame;
  if (o.exchangeId) f.exchangeId = o.exchangeId;
  if (spec?.sentences.length) f.specRef = refOf(spec);
  return f;
}

export const defined = <T>(xs: (T | undefined)[]): T[] => xs.filter((x): x is T => x !== undefined);
