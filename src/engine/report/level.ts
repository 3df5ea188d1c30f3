import { CATEGORIES, isInformational, type Category, type CheckResult } from '../model/check';
import type { TargetInfo } from '../model/events';
import type { ConformanceLevel, NotAssessed } from '../model/report';

export interface LevelVerdict {
  /** null: the agent was not assessed (see notAssessed). */
  level: ConformanceLevel | null;
  notAssessed?: NotAssessed;
  provisional: boolean;
  reason: string;
}

export interface LevelContext {
  /** The run finished (not stopped, not crashed). */
  runComplete?: boolean;
  /**
   * How the run ended. A stopped (`interrupted`) or crashed (`errored`) run has no level: what it judged stands,
   * but a level claims the whole suite. `running`: a live run (the dashboard shows progress, not this verdict).
   */
  runStatus?: 'running' | 'completed' | 'interrupted' | 'errored';
  /** The run was limited to these check ids (`--only`, a re-run): results, but no agent level. */
  selected?: readonly string[];
  /** The agent under test as discovery saw it. */
  agent?: TargetInfo;
  /** Credentials were given for the run. */
  credentialsGiven?: boolean;
}

const ids = (rs: readonly CheckResult[]) => rs.map((r) => r.id).join(', ');

/** Failures grouped by category, in category order: "error-handling: a, b; streaming: c". */
function byCategory(rs: readonly CheckResult[]): string {
  const groups = new Map<Category, string[]>();
  for (const c of CATEGORIES) groups.set(c, []);
  for (const r of rs) groups.get(r.category)?.push(r.id);
  return [...groups]
    .filter(([, list]) => list.length)
    .map(([c, list]) => `${c}: ${list.join(', ')}`)
    .join('; ');
}

/** Failures by strength, MUST before SHOULD (each by category); one strength alone reads as `byCategory`. */
function byStrength(rs: readonly CheckResult[]): string {
  const must = rs.filter((r) => r.level === 'MUST');
  const rest = rs.filter((r) => r.level !== 'MUST');
  if (!must.length || !rest.length) return byCategory(rs);
  return `MUST: ${byCategory(must)} · SHOULD: ${byCategory(rest)}`;
}

/** What lowers the level, counted: failures of the checks a level is made of, by strength, and the critical ones. */
export interface FailureTally {
  total: number;
  must: number;
  should: number;
  critical: number;
}

/** The failures that lower the level (the informational security review aside), counted by strength and criticality. */
export function failureTally(all: readonly CheckResult[]): FailureTally {
  const fails = all.filter((r) => r.status === 'fail' && !isInformational(r));
  return {
    total: fails.length,
    must: fails.filter((r) => r.level === 'MUST').length,
    should: fails.filter((r) => r.level !== 'MUST').length,
    critical: fails.filter((r) => r.critical).length,
  };
}

/** `6 lower the level: 2 MUST, 4 SHOULD; 2 critical` (or `Nothing lowers the level`): the count every door shows. */
export function failureWords(t: FailureTally): string {
  if (!t.total) return 'Nothing lowers the level';
  const parts = [t.must ? `${t.must} MUST` : '', t.should ? `${t.should} SHOULD` : ''].filter(Boolean).join(', ');
  return `${t.total} lower${t.total === 1 ? 's' : ''} the level: ${parts}${t.critical ? `; ${t.critical} critical` : ''}`;
}

const REACH_MESSAGES: Partial<Record<NonNullable<TargetInfo['reach']>, (t: TargetInfo) => NotAssessed>> = {
  'invalid-url': (t) => ({ reason: 'invalid-url', message: `Not assessed: ${t.error ?? 'the URL is not an absolute http(s) URL'}.` }),
  unreachable: (t) => ({
    reason: 'unreachable',
    message: `Not assessed: nothing answered at ${t.inputUrl} (${t.error ?? 'no answer'}). Check the URL and that the agent is running; no verdict was made.`,
  }),
  'no-card': (t) => ({
    reason: 'not-a2a',
    message: `Not assessed: ${t.inputUrl} answered, but no agent card was found at the well-known paths (${t.attempts.map((a) => a.status ?? 'no answer').join(', ')}${t.error && t.attempts.every((a) => a.status === undefined) ? `: ${t.error}` : ''}). If this is an A2A agent, give the card URL itself.`,
  }),
  'credentials-required': (t) => ({
    reason: 'credentials-required',
    message: `Not assessed: the agent card at ${t.inputUrl} is served only with credentials (HTTP 401/403). Enter credentials (bearer token, API key or header) and run again.`,
  }),
  'credentials-rejected': (t) => ({
    reason: 'credentials-rejected',
    // An OAuth token endpoint that refused the client credentials (src/engine/auth) says so in `error`.
    message: t.error?.startsWith('OAuth:')
      ? `Not assessed: ${t.error} Check the client id and secret (and scope) registered for this agent.`
      : `Not assessed: the agent refused the credentials given (HTTP 401/403 at ${t.inputUrl}). Check they are valid and of the scheme the agent expects.`,
  }),
  'tool-failure': (t) => ({
    reason: 'tool-failure',
    message: `Not assessed: our tool or its proxy could not reach the agent (${t.error ?? 'refused'}). This says nothing about the agent.`,
  }),
};

/** Outcomes of the basic send that mean the agent was never exercised: credentials, an endpoint that takes no connection, our failure. */
function basicNotAssessed(results: readonly CheckResult[], ctx: LevelContext): NotAssessed | undefined {
  const basic = results.filter((r) => r.tier === 'basic');
  if (basic.some((r) => r.status === 'fail')) return undefined;
  // Minimal needs a basic send AND get that work: one of them unjudged (a send that passed, a get that could not be
  // made) shows neither, so there is no level to give, not a "partial" one.
  const first = basic.find((r) => (r.status === 'skip' && r.skipKind !== 'not-applicable') || r.status === 'error');
  if (!first) return undefined;
  if (basic.some((r) => r.status === 'pass')) {
    if (first.status === 'skip' && first.skipKind === 'precondition')
      return { reason: 'untestable', message: `Not assessed: basic send + get could not both be judged (${first.id}: ${first.message}).` };
    return undefined;
  }
  if (first.status === 'error') {
    return {
      reason: 'tool-failure',
      message: `Not assessed: our tool or its proxy failed on the first call to the agent (${first.id}: ${first.message}). This says nothing about the agent.`,
    };
  }
  switch (first.skipKind) {
    case 'credentials':
      return ctx.credentialsGiven
        ? { reason: 'credentials-rejected', message: `Not assessed: the agent refused the credentials given. ${first.message}` }
        : { reason: 'credentials-required', message: `Not assessed: the agent requires credentials for its A2A calls. ${first.message}` };
    case 'unreachable':
      return { reason: 'unreachable', message: `Not assessed: the card was read, but the endpoint it declares accepted no connection. ${first.message}` };
    case 'tool-limit':
      return { reason: 'tool-limit', message: `Not assessed: ${first.message}` };
    case 'precondition': {
      // The card itself could not be read within our limits (e.g. larger than we read): say that, not "no endpoint".
      const cardLimit = results.find((r) => r.tier === 'card' && r.status === 'skip' && r.skipKind === 'tool-limit');
      if (cardLimit) return { reason: 'tool-limit', message: `Not assessed: ${cardLimit.message}` };
      return { reason: 'untestable', message: `Not assessed beyond the card: ${first.message}` };
    }
    default:
      return undefined;
  }
}

/**
 * Conformance level from the results (docs/conformance-procedure.md#levels, made precise; the README has the table):
 * - not assessed (no level): the agent was never exercised: bad URL, nothing answered, no card, credentials
 *   missing or refused, only untestable interfaces, or our own failure on the first call
 * - non-conformant: a card-tier check failed, or basic send/get is broken
 * - minimal: card valid and basic send + get work, but a core lifecycle MUST fails
 * - partial: core lifecycle passes, but another MUST or SHOULD fails (error handling, streaming, auth, optional
 *   features), or a core check could not be verified (skipped or errored), or a required streaming check's stream was
 *   cut by our own budget (a tool-limit skip: not judged, so "every required check passes" cannot be claimed)
 * - full: every applicable required check passes. Advisories never count; skips never count as passes.
 * `error` results (our tool failed) make the verdict provisional; they never count against the agent.
 * The security review (an informational category) is left out entirely: its findings are named, never counted.
 */
export function computeLevel(all: readonly CheckResult[], ctx: LevelContext = {}): LevelVerdict {
  const results = all.filter((r) => !isInformational(r));
  const findings = all.filter((r) => isInformational(r) && (r.status === 'fail' || r.status === 'advisory'));
  const runComplete = ctx.runComplete ?? true;
  const errors = results.filter((r) => r.status === 'error');
  const provisional = errors.length > 0 || !runComplete;
  const failed = (tier: CheckResult['tier']) => results.filter((r) => r.tier === tier && r.status === 'fail');
  const advisories = results.filter((r) => r.status === 'advisory');
  const note = [
    provisional
      ? ` Provisional: ${errors.length ? `${errors.length} check(s) could not run because our tool or proxy failed (${ids(errors)})` : 'the run did not complete'}.`
      : '',
    advisories.length ? ` ${advisories.length} advisor${advisories.length === 1 ? 'y' : 'ies'} (${ids(advisories)}) do not affect the level.` : '',
    findings.length ? ` ${findings.length} security finding${findings.length === 1 ? '' : 's'} (${ids(findings)}): informational, not part of the level.` : '',
  ].join('');
  const notAssessed = (na: NotAssessed): LevelVerdict => ({ level: null, notAssessed: na, provisional: false, reason: na.message });
  // The worst first: critical failures (a crash, a broken basic) lead the reason unless its headline names them already.
  const criticalFails = results.filter((r) => r.status === 'fail' && r.critical);
  const worst = (named: readonly CheckResult[]) => {
    const rest = criticalFails.filter((r) => !named.includes(r));
    return rest.length ? `Critical (fix first): ${ids(rest)}. ` : '';
  };

  const agent = ctx.agent;
  const reach = agent?.reach;
  if (agent && reach && reach !== 'card') {
    const make = REACH_MESSAGES[reach];
    if (make) return notAssessed(make(agent));
  }
  if (!agent && !results.length) {
    return notAssessed(
      runComplete
        ? { reason: 'tool-failure', message: 'Not assessed: the run ended before the agent was contacted.' }
        : { reason: 'stopped', message: 'Not assessed: the run was stopped before the agent was contacted.' },
    );
  }

  // An agent never exercised (credentials, nothing listening, our failure on the first call) is not assessed, however
  // the run ended and whichever checks were selected: that says more than "stopped" or "selected checks".
  const na = basicNotAssessed(results, ctx);
  const partialRun = !!ctx.selected?.length || ctx.runStatus === 'interrupted' || ctx.runStatus === 'errored';
  if (na && partialRun) return notAssessed(na);
  const judged = results.filter((r) => !(r.status === 'skip' && r.skipKind === 'not-run'));
  const tally = (rs: readonly CheckResult[]) => {
    const n = (s: CheckResult['status']) => rs.filter((r) => r.status === s).length;
    return `${n('pass')} pass, ${n('fail')} fail${n('advisory') ? `, ${n('advisory')} advisory` : ''}${n('skip') ? `, ${n('skip')} skipped` : ''}${n('error') ? `, ${n('error')} tool error` : ''}`;
  };
  if (ctx.selected?.length) {
    return notAssessed({
      reason: 'selected-checks',
      message: `Selected checks only (${ctx.selected.length}): ${tally(judged)}. A level is a claim about the whole suite, so none is given; run every check for one.`,
    });
  }
  if (ctx.runStatus === 'interrupted') {
    return notAssessed({
      reason: 'stopped',
      message: `Stopped at ${judged.length}/${results.length} checks: no level (a level needs the whole suite). So far: ${tally(judged)}.`,
    });
  }
  if (ctx.runStatus === 'errored') {
    return notAssessed({
      reason: 'tool-failure',
      message: `Not assessed: our tool failed during the run after ${judged.length}/${results.length} checks (${tally(judged)}). This says nothing about the agent.`,
    });
  }
  const cardFails = failed('card');
  if (cardFails.length) {
    return { level: 'non-conformant', provisional, reason: `${worst(cardFails)}The agent card is invalid (${ids(cardFails)}).${note}` };
  }
  if (na) return notAssessed(na);
  const basicFails = failed('basic');
  if (basicFails.length) {
    return { level: 'non-conformant', provisional, reason: `${worst(basicFails)}Basic send/get is broken (${ids(basicFails)}).${note}` };
  }
  if (!results.some((r) => r.tier === 'basic' && r.status === 'pass')) {
    if (!runComplete) return notAssessed({ reason: 'stopped', message: 'Not assessed: the run was stopped before a basic send + get was judged.' });
    return { level: 'non-conformant', provisional, reason: `${worst([])}No basic send + get check passed, so not even minimal conformance is shown.${note}` };
  }
  const coreFails = failed('core');
  const otherFails = [...failed('optional')];
  if (coreFails.length) {
    const also = otherFails.length ? ` Other required failures: ${byStrength(otherFails)}.` : '';
    return {
      level: 'minimal',
      provisional,
      reason: `${worst(coreFails)}Card and basic send/get work, but the core lifecycle fails (${ids(coreFails)}).${also}${note}`,
    };
  }
  const unverified = results.filter(
    (r) => (r.tier === 'core' || r.tier === 'basic') && ((r.status === 'skip' && r.skipKind !== 'not-applicable') || r.status === 'error'),
  );
  // A required streaming check whose stream our own budget cut (the agent was still sending: our event or byte cap, an
  // idle budget; every tool-limit of the streaming checks is one) was not judged, and a larger budget would judge it:
  // "every applicable required check passes" cannot be claimed. Other tool limits stay out: e.g. an agent that refuses
  // our webhook URL (URL validation is a SHOULD) leaves push unexercised through no fault and no budget of ours.
  const limited = results.filter(
    (r) => r.category === 'streaming' && r.tier !== 'core' && r.tier !== 'basic' && r.level !== 'MAY' && r.status === 'skip' && r.skipKind === 'tool-limit',
  );
  if (otherFails.length || unverified.length || limited.length) {
    const parts = [];
    if (otherFails.length) parts.push(`required checks fail (${byStrength(otherFails)})`);
    if (unverified.length) parts.push(`core checks could not be verified (${ids(unverified)})`);
    if (limited.length) parts.push(`required checks could not be judged within our stream limits (${ids(limited)}), so full is not shown`);
    return { level: 'partial', provisional, reason: `${worst([])}Core lifecycle passes; ${parts.join('; ')}.${note}` };
  }
  return { level: 'full', provisional, reason: `Every applicable required check passes.${note}` };
}

export const LEVEL_RANK: Record<ConformanceLevel, number> = {
  'non-conformant': 0,
  minimal: 1,
  partial: 2,
  full: 3,
};

/** True when `level` is at least `min` (for the CLI's --min-level). An agent not assessed meets no level. */
export const meetsLevel = (level: ConformanceLevel | null, min: ConformanceLevel) => level !== null && LEVEL_RANK[level] >= LEVEL_RANK[min];
