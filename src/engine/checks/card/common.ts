/** Helpers shared by the card check files: verdicts from findings of two strengths, normalization repairs, naming. */
import { fixupApplies, type Fixup } from '../../card/normalize';
import type { Evidence, Generation } from '../../model/check';
import type { CheckContext } from '../context';
import { ev, fail, pass, type Verdict } from '../verdict';

export const ALL = (ref: Partial<Record<Generation, string>>) => ref;

function fixupEvidence(fx: Fixup[]): Evidence[] {
  return fx.slice(0, 20).map((f) => ev(f.path || '(card)', f.note, { path: f.path }));
}

/**
 * Failures that normalization already had to repair for this check id (normalizing never hides a problem),
 * limited to the repairs that are defects in the card's generation (see Fixup.only).
 */
export const fixupsFor = (c: CheckContext, id: string) => c.card.fixups.filter((f) => f.checkId === id && fixupApplies(f, c.generation));

const list = (items: string[], max = 5) => `${items.slice(0, max).join('; ')}${items.length > max ? ` (+${items.length - max} more)` : ''}`;

/**
 * The verdict of a check whose findings differ in strength. `problems` (and the normalization repairs `fx`)
 * break the check's MUST/SHOULD sentences and fail it; `advisories` have nothing stronger than MAY behind them
 * (or rest on passages that contradict each other): they are named in the message, and when they are all that
 * is left, the verdict is an advisory with `advisoryReason`.
 */
export function judge(o: {
  problems: string[];
  advisories?: string[];
  fx?: Fixup[];
  evidence?: Evidence[];
  ok: string;
  bad: string;
  advisoryReason?: string;
  rec?: string;
}): Verdict {
  const fx = o.fx ?? [];
  const weak = o.advisories ?? [];
  const strong = [...fx.map((f) => `${f.path || '(card)'}: ${f.note}`), ...o.problems];
  const evidence = [
    ...fixupEvidence(fx),
    ...o.problems.slice(0, 20).map((p) => ev('problem', p)),
    ...weak.slice(0, 20).map((p) => ev('advisory (not required)', p)),
    ...(o.evidence ?? []),
  ];
  if (strong.length) {
    const also = weak.length ? ` Not required, advice only: ${list(weak, 3)}.` : '';
    return fail(`${o.bad}: ${list(strong)}.${also}`, evidence, o.rec);
  }
  if (weak.length) {
    return {
      status: 'fail',
      message: `${o.ok.replace(/\.$/, '')}; advice only (not required): ${list(weak)}.`,
      evidence,
      recommendation: o.rec,
      advisory: o.advisoryReason ?? 'Only findings that the specification does not require remain.',
    };
  }
  return pass(o.ok, o.evidence);
}

/** Compatibility wrapper: every finding fails the check. */
export function collect(problems: string[], evidence: Evidence[], ok: string, bad: string, fx: Fixup[], rec?: string): Verdict {
  return judge({ problems, fx, evidence, ok, bad, rec });
}

/** null read as "absent": the v0.1.0 document types optional fields `T | null`; ProtoJSON (v1.0) reads null as unset. */
export const nullIsAbsent = (g: Generation) => g === 'legacy' || g === 'v1.0';

/** The proto (snake_case) name of a JSON field. */
export const snake = (s: string) => s.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
