import type { DiscoveryResult } from '../card/discover';
import type { Detection } from '../card/detect';
import type { NormalizedCard } from '../card/normalize';
import type { HttpContext, HttpResult } from '../http/client';
import type { Binding, CheckInfo, CheckStatus, Evidence, Generation, Level, Requirement, SkipKind, Tier } from '../model/check';
import type { TransportError } from '../model/events';
import type { Dialect } from '../protocol/dialect';
import type { Credentials } from '../runner/options';
import type { ResolvedTarget } from '../runner/target';
import { CHECK_SPECS, GENERATION_DOC, levelOf, refOf, SPEC_DOCS } from '../spec';
import { stringifyBounded, truncate } from '../util/json';

/** The outcome a check's body returns; the runner adds id, timing, level and spec reference. */
export interface Verdict {
  status: CheckStatus;
  message: string;
  evidence?: Evidence[];
  /** Overrides the check's default recommendation (more specific advice). */
  recommendation?: string;
  skipKind?: SkipKind;
  proxyError?: string;
  /** Marks this failure as critical (server crash during the check). */
  critical?: boolean;
  /**
   * A failure that the spec does not back with a MUST or SHOULD in this case (e.g. two passages contradict
   * each other): reported as an advisory, with this reason.
   */
  advisory?: string;
}

export interface CheckContext {
  readonly checkId: string;
  readonly generation: Generation;
  readonly binding: Binding | undefined;
  readonly endpointUrl: string | undefined;
  readonly card: NormalizedCard;
  readonly raw: unknown;
  readonly discovery: DiscoveryResult;
  readonly detection: Detection;
  readonly http: HttpContext;
  /** Present when the binding is testable. */
  readonly dialect: Dialect | undefined;
  readonly credentials: Credentials;
  /** Headers carrying the user's credentials, shaped for this card (never logged unredacted). */
  readonly authHeaders: Record<string, string>;
  readonly authQuery: Record<string, string>;
  /** Per-task budget, ms. */
  readonly taskTimeoutMs: number;
  /** Skill ids to exercise. */
  readonly skills: string[];
  /** A fresh timeline lane name for a test task of this check. */
  lane(label?: string): string;
  /** Shared, memoized setup (e.g. a completed task) that several checks use; made once per run. */
  fixture<T>(key: string, make: () => Promise<T>): Promise<T>;
  uuid(): string;
  /** The second agent, when the user gave one (two-agent interop checks). */
  readonly peer?: ResolvedTarget;
}

export interface CheckDef extends CheckInfo {
  /** `card` checks judge the card only and run first; `suite` checks talk to the agent. */
  readonly phase: 'card' | 'suite';
  run(ctx: CheckContext): Promise<Verdict> | Verdict;
}

/**
 * Declares a check. Its headline `level` is taken from its quoted sentences (the newest generation it applies to),
 * so the catalogue never drifts from the spec data; runs judge with the generation spoken (`obligationFor`).
 */
export const defineCheck = (def: CheckDef): CheckDef => {
  const spec = CHECK_SPECS[def.id];
  const newest = spec ? (['v1.0', 'v0.3', 'v0.2', 'legacy'] as const).find((g) => spec[g]) : undefined;
  return newest ? { ...def, level: levelOf(spec![newest]!) } : def;
};

export const pass = (message: string, evidence?: Evidence[]): Verdict => ({ status: 'pass', message, evidence });
export const fail = (message: string, evidence?: Evidence[], recommendation?: string): Verdict => ({
  status: 'fail',
  message,
  evidence,
  recommendation,
});
export const skip = (message: string, kind: SkipKind = 'not-applicable', evidence?: Evidence[]): Verdict => ({
  status: 'skip',
  message,
  skipKind: kind,
  evidence,
});
/** Our tool (or proxy) failed: never the agent's fault. */
export const toolError = (message: string, evidence?: Evidence[], proxyError?: string): Verdict => ({
  status: 'error',
  message,
  evidence,
  proxyError,
});

/** How to give a run more time, in words for both the CLI and the dashboard. */
export const TIMEOUT_KNOB = 'raise the per-task budget (CLI --timeout SECONDS; the dashboard\'s "Timeout per task")';

/** Our budget ended before the agent finished: not the agent's fault. Says which budget and how to raise it. */
export const toolLimit = (message: string, evidence?: Evidence[]): Verdict => ({ status: 'skip', skipKind: 'tool-limit', message, evidence });

/** Evidence helpers: values are bounded (and the HTTP layer has already redacted bodies it logs). */
export const ev = (label: string, value: unknown, extra?: Partial<Evidence>): Evidence => ({
  label,
  value: typeof value === 'string' ? truncate(value, 2000) : stringifyBounded(value, 2000),
  ...extra,
});

export function exchangeEvidence(r: HttpResult, label = 'response'): Evidence {
  const head = r.responded
    ? `HTTP ${r.status} ${r.contentType || '(no content type)'}${r.error ? ` (body incomplete: ${r.error.message})` : ''}`
    : `no response: ${r.error?.message ?? ''}`;
  const body = r.text ? `\n${truncate(r.text, 1500)}` : '';
  return { label, value: `${head}${body}`, exchangeId: r.exchangeId };
}

/**
 * When an exchange produced no response, decide who is to blame:
 * our tool / proxy -> `error` result; the agent (reset, silence) -> `fail`, critical when it looks like a crash.
 */
export function transportVerdict(r: HttpResult, what: string): Verdict {
  const e = r.error as TransportError;
  const evidence = [exchangeEvidence(r)];
  if (e.blame === 'tool' || e.source === 'abort') {
    return toolError(
      e.source === 'proxy'
        ? `The proxy could not reach the agent while ${what} (${e.code}): ${e.message}`
        : `Our tool failed while ${what}: ${e.message}`,
      evidence,
      e.source === 'proxy' ? e.code : undefined,
    );
  }
  if (e.blame === 'unknown' && r.neverReached) {
    return skip(`Nothing has answered at this address during the run (${e.message}), so the agent could not be reached while ${what}.`, 'unreachable', evidence);
  }
  if (e.blame === 'unknown') {
    return {
      status: 'fail',
      critical: true,
      message: `The agent stopped accepting connections while ${what} (${e.message}). It may have crashed.`,
      evidence,
    };
  }
  return {
    status: 'fail',
    critical: e.code === 'reset' || e.code === 'upstream_reset',
    message: `${e.source !== 'timeout' ? 'Transport failure' : r.responded ? 'Incomplete answer' : 'No answer'} while ${what}: ${e.message}`,
    evidence,
  };
}

/** The strength of the check's requirement in generation `g`: from its quoted sentences, else its declared level. */
export function obligationFor(def: CheckInfo, g: Generation): Level {
  const spec = CHECK_SPECS[def.id]?.[g];
  return spec ? levelOf(spec) : def.level;
}

/**
 * The conformance tier of a check in generation `g` (see report/level.ts): `basic` as declared; nothing
 * stronger than MAY is `advisory`; MUST card checks are `card`, MUST lifecycle checks `core` (unless declared
 * `optional`: features the card opts into); everything else `optional`.
 */
export function tierFor(def: CheckInfo, g: Generation): Tier {
  if (def.tier === 'basic') return 'basic';
  const level = obligationFor(def, g);
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
  const spec = CHECK_SPECS[def.id]?.[g];
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
