import type { DiscoveryResult } from '../card/discover';
import type { Detection } from '../card/detect';
import type { NormalizedCard } from '../card/normalize';
import type { HttpContext, HttpResult } from '../http/client';
import type { Binding, CheckInfo, CheckStatus, Evidence, Generation, Tier } from '../model/check';
import type { TransportError } from '../model/events';
import type { Dialect } from '../protocol/dialect';
import type { Credentials } from '../runner/options';
import type { ResolvedTarget } from '../runner/target';
import { stringifyBounded, truncate } from '../util/json';

/** The outcome a check's body returns; the runner adds id, timing, level and spec reference. */
export interface Verdict {
  status: CheckStatus;
  message: string;
  evidence?: Evidence[];
  /** Overrides the check's default recommendation (more specific advice). */
  recommendation?: string;
  skipKind?: 'not-applicable' | 'precondition';
  proxyError?: string;
  /** Marks this failure as critical (server crash during the check). */
  critical?: boolean;
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

export const defineCheck = (def: CheckDef): CheckDef => def;

export const pass = (message: string, evidence?: Evidence[]): Verdict => ({ status: 'pass', message, evidence });
export const fail = (message: string, evidence?: Evidence[], recommendation?: string): Verdict => ({
  status: 'fail',
  message,
  evidence,
  recommendation,
});
export const skip = (message: string, kind: 'not-applicable' | 'precondition' = 'not-applicable', evidence?: Evidence[]): Verdict => ({
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

/** Default tier when a check does not name one. */
export function tierOf(def: CheckInfo): Tier {
  if (def.tier) return def.tier;
  if (def.level !== 'MUST') return 'optional';
  return def.category === 'agent-card' ? 'card' : 'core';
}

/** Spec reference for a generation, falling back to the nearest one given. */
export function specRefFor(def: CheckInfo, g: Generation): string | undefined {
  const order: Generation[] = ['v1.0', 'v0.3', 'v0.2', 'legacy'];
  return def.specRefs[g] ?? order.map((x) => def.specRefs[x]).find(Boolean);
}

export const appliesTo = (def: CheckInfo, g: Generation) => def.specRefs[g] !== undefined;
