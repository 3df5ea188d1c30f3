import type { CheckInfo, Generation, Obligation, Requirement, Tier } from '../model/check';
import { CHECK_SPECS, GENERATION_DOC, levelOf, refOf, RULE_SPECS, SPEC_DOCS, type CheckSpec, type GenerationSpec, type RuleId } from '../spec';
import type { CheckContext, CheckContextWith, Precondition } from './context';
import { meetPreconditions, type Met } from './preconditions';
import type { Verdict } from './verdict';

export type { CheckContext, CheckContextWith, Precondition } from './context';
export * from './verdict';

export interface CheckDef extends CheckInfo {
  /** `card` checks judge the card only and run first; `suite` checks talk to the agent. */
  readonly phase: 'card' | 'suite';
  /** What the check needs before it can judge (see Precondition); `run` skips with the standard reason when unmet. */
  readonly requires: readonly Precondition[];
  run(ctx: CheckContext): Promise<Verdict> | Verdict;
}

/** A check as written: its body receives a context where what it `requires` is present. */
export interface CheckDeclaration<R extends Precondition> extends CheckInfo {
  readonly phase: 'card' | 'suite';
  /** Evaluated in this order before `run` (see Precondition); the first unmet gives the verdict. */
  readonly requires?: readonly R[];
  run(ctx: CheckContextWith<R>): Promise<Verdict> | Verdict;
}

/**
 * Declares a check. Its headline `level` is taken from its quoted sentences (the newest generation it applies to),
 * so the catalogue never drifts from the spec data; runs judge with the generation spoken (`obligationFor`).
 * Its preconditions (`requires`) are checked before its body runs, which then gets the context they provide.
 */
export function defineCheck<R extends Precondition = never>(def: CheckDeclaration<R>): CheckDef {
  const spec = CHECK_SPECS[def.id];
  const newest = spec && (['v1.0', 'v0.3', 'v0.2', 'legacy'] as const).map((g) => spec[g]).find((x) => x !== undefined);
  const requires: readonly R[] = def.requires ?? [];
  const proceed = (met: Met<R>) => ('verdict' in met ? met.verdict : def.run(met.ctx));
  return {
    ...def,
    ...(newest && { level: levelOf(newest) }),
    requires,
    run: (ctx) => {
      const met = meetPreconditions(ctx, requires);
      return met instanceof Promise ? met.then(proceed) : proceed(met);
    },
  };
}

/** The strength of the check's requirement in generation `g`: from its quoted sentences, else its declared level. */
export function obligationFor(def: CheckInfo, g: Generation): Obligation {
  const spec = CHECK_SPECS[def.id]?.[g];
  return spec ? levelOf(spec) : def.level;
}

/**
 * The conformance tier of a check in generation `g` (see report/level.ts): `basic` as declared; nothing
 * stronger than MAY is `advisory`; MUST card checks are `card`, MUST lifecycle checks `core` (unless declared
 * `optional`: features the card opts into); everything else `optional`.
 */
export function tierFor(def: CheckInfo, g: Generation, obligation: Obligation = obligationFor(def, g)): Tier {
  if (def.tier === 'basic') return 'basic';
  const level = obligation;
  if (level === 'MAY' || def.tier === 'advisory') return 'advisory';
  if (def.tier === 'optional' || level !== 'MUST') return 'optional';
  if (def.category === 'agent-card') return 'card';
  if (def.category === 'lifecycle') return 'core';
  return 'optional';
}

/** Spec reference for a generation: its quoted sections, else the declared reference (nearest generation). */
export function specRefFor(def: CheckInfo, g: Generation): string | undefined {
  const spec = CHECK_SPECS[def.id]?.[g];
  if (spec?.sentences.length) return refOf(spec);
  const order: Generation[] = ['v1.0', 'v0.3', 'v0.2', 'legacy'];
  return def.specRefs[g] ?? order.map((x) => def.specRefs[x]).find(Boolean);
}

/** The sentences a check enforces in generation `g`, as carried in results and reports. */
export function requirementFor(def: CheckInfo, g: Generation): Requirement | undefined {
  return requirementOf(CHECK_SPECS[def.id]?.[g], g);
}

/** The strength of a shared rule in generation `g` (see RULE_SPECS); MUST when the rule does not speak of `g`. */
export function ruleObligation(rule: RuleId, g: Generation): Obligation {
  const spec = (RULE_SPECS[rule] as CheckSpec)[g];
  return spec ? levelOf(spec) : 'MUST';
}

/** The sentences of a shared rule in generation `g`, as carried in results that name the rule. */
export function ruleRequirement(rule: RuleId, g: Generation): Requirement | undefined {
  return requirementOf((RULE_SPECS[rule] as CheckSpec)[g], g);
}

function requirementOf(spec: GenerationSpec | undefined, g: Generation): Requirement | undefined {
  if (!spec) return undefined;
  return {
    release: SPEC_DOCS[GENERATION_DOC[g]].title,
    sentences: spec.sentences.map((s) => ({ doc: SPEC_DOCS[s.doc].title, section: s.section, quote: s.quote, keyword: s.keyword, url: SPEC_DOCS[s.doc].url })),
    note: spec.note,
  };
}

/** The check applies to generation `g`: it has sentences for it (or, not yet quoted, a declared reference). */
export function appliesTo(def: CheckInfo, g: Generation): boolean {
  const spec = CHECK_SPECS[def.id];
  return spec ? spec[g] !== undefined : def.specRefs[g] !== undefined;
}
