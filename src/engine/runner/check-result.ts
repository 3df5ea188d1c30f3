import {
  appliesTo,
  obligationFor,
  requirementFor,
  ruleObligation,
  ruleRequirement,
  specRefFor,
  tierFor,
  type CheckContext,
  type CheckDef,
  type Verdict,
} from '../checks/define';
import { refOf, RULE_SPECS, type CheckSpec } from '../spec';
import type { HttpContext } from '../http/client';
import type { CheckResult, Generation, Obligation, Requirement } from '../model/check';
import type { Redactor } from '../redact';
import { isRecord } from '../util/json';
import type { OAuthClient } from '../auth/client';
import type { Credentials } from './options';
import type { ResolvedTarget } from '../target';

/** The MUST a crash violates, per generation: answer with an appropriate error (v1.0), a JSON-RPC Response (before). */
function crashRequirement(g: Generation, base: Requirement | undefined): Requirement {
  const sentence =
    g === 'v1.0'
      ? {
          doc: 'A2A v1.0.1',
          section: '§3.3.2 Error Handling',
          quote: 'Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues.',
          keyword: 'MUST',
        }
      : {
          doc: 'JSON-RPC 2.0',
          section: '§5 Response object',
          quote: 'When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.',
          keyword: 'MUST',
          url: 'https://www.jsonrpc.org/specification',
        };
  return {
    release: base?.release ?? (g === 'v1.0' ? 'A2A v1.0.1' : 'JSON-RPC 2.0'),
    sentences: [sentence, ...(base?.sentences ?? [])],
    note: `The agent crashed (a server error page, or a dropped connection) instead of answering: a failure whatever the check probes.${base?.note ? ` ${base.note}` : ''}`,
  };
}

/** What judging one check needs besides the check and its context. */
export interface CheckEnv {
  /** The generation the check judges: the card's for card checks, the one spoken with the agent for the others. */
  generation: Generation;
  /** The card as served (a check that applies to no generation of a non-object card still runs, to say so). */
  raw: unknown;
  /** Stops the run: checks not started are skipped, failures of checks cut short are not reported. */
  signal: AbortSignal;
  redactor: Redactor;
  now(): number;
  /** Told when the check starts, with the strength of its requirement in this generation (a run records it). */
  onStart?(at: number, obligation: Obligation): void;
}

/**
 * Runs one check and turns its verdict into the result a report carries: skipped when it does not apply or the run
 * was stopped; an internal error of ours is an `error`; a failure with nothing stronger than MAY behind it is an
 * advisory (unless the agent crashed); level, tier, spec reference and requirement for the generation; redacted.
 * The one place verdicts become results, for runs and for `judgeCard` alike.
 */
export async function runCheck(def: CheckDef, makeCtx: () => CheckContext, env: CheckEnv): Promise<CheckResult> {
  const g = env.generation;
  const started = env.now();
  const obligation = obligationFor(def, g);
  env.onStart?.(started, obligation);
  let v: Verdict;
  if (env.signal.aborted) {
    v = { status: 'skip', skipKind: 'not-run', message: 'Not run: the run was stopped before this check started.' };
  } else if (!appliesTo(def, g) && isRecord(env.raw)) {
    v = { status: 'skip', skipKind: 'not-applicable', message: `Not part of the ${g} protocol.` };
  } else {
    try {
      v = await def.run(makeCtx());
    } catch (e) {
      v = {
        status: 'error',
        message: `Internal error in our check (not the agent's fault): ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    if (env.signal.aborted && (v.status === 'error' || v.status === 'fail')) {
      v = { status: 'skip', skipKind: 'not-run', message: 'Not run: the run was stopped before this check finished.' };
    }
  }
  // A failure with nothing stronger than MAY behind it in this generation (or a case the spec contradicts
  // itself on) is an advisory: shown with its reason, never counted against the level.
  // A crash (5xx page, dropped connection) is never only an advisory: answering with an appropriate error is
  // a MUST of its own (crashRequirement), whatever the check was probing.
  // A finding of a shared rule is judged with the rule's strength and sentences in this generation (one rule, one strength).
  const rule = v.status === 'fail' && v.rule ? v.rule : undefined;
  const judgedBy = rule ? ruleObligation(rule, g) : obligation;
  const crashed = v.status === 'fail' && v.critical === true && (judgedBy === 'MAY' || v.advisory !== undefined);
  const advisoryReason =
    v.status === 'fail' && !crashed
      ? (v.advisory ?? (judgedBy === 'MAY' ? `The ${g} specification does not require this (nothing stronger than MAY stands behind it).` : undefined))
      : undefined;
  const status = advisoryReason ? 'advisory' : v.status;
  const requirement = (rule && ruleRequirement(rule, g)) || requirementFor(def, g);
  const ruleSpec = rule ? (RULE_SPECS[rule] as CheckSpec)[g] : undefined;
  const { redactor } = env;
  return {
    id: def.id,
    test: def.title,
    category: def.category,
    status,
    level: crashed ? 'MUST' : judgedBy,
    tier: crashed ? 'optional' : tierFor(def, g, judgedBy),
    message: redactor.text(v.message),
    duration_ms: Math.max(0, env.now() - started),
    recommendation: status === 'fail' || status === 'advisory' ? redactor.text(v.recommendation ?? def.recommendation) : undefined,
    evidence: (v.evidence ?? []).map((e) => ({ ...e, value: redactor.text(e.value) })),
    specRef: ruleSpec ? refOf(ruleSpec) : specRefFor(def, g),
    critical: status === 'fail' && (v.critical || def.critical) ? true : undefined,
    proxyError: v.proxyError,
    skipKind: status === 'skip' ? (v.skipKind ?? 'not-applicable') : undefined,
    advisoryReason: advisoryReason ? redactor.text(advisoryReason) : undefined,
    requirement: crashed ? crashRequirement(g, requirement) : requirement,
  };
}

/** What the checks of one run (or one card judgement) share besides the target. */
export interface ContextEnv {
  http: HttpContext;
  credentials: Credentials;
  /** Per-task budget, ms. */
  taskTimeoutMs: number;
  /** Skill ids the user picked (default: every skill of the card). */
  skills?: readonly string[];
  uuid(): string;
  /** Memoized fixtures, shared by the checks of one run. */
  fixtures: Map<string, Promise<unknown>>;
  peer?: ResolvedTarget;
  /** The run's OAuth client, when the user gave client credentials (its token requests are judged by auth checks). */
  oauth?: OAuthClient;
  /** Trusted public keys for card signatures (RunOptions.jwks). */
  jwks?: unknown;
}

/** Makes the context of each check of a run: card checks judge the card's generation, suite checks the one spoken. */
export function checkContexts(target: ResolvedTarget, env: ContextEnv): (checkId: string, phase: CheckDef['phase']) => CheckContext {
  let lanes = 0;
  const picked = env.skills?.length ? target.card.skills.filter((s) => env.skills?.includes(s.id)) : target.card.skills;
  const selectedSkills = picked.map((s) => s.id);
  return (checkId, phase) => ({
    checkId,
    generation: phase === 'card' ? target.detection.generation : target.detection.testedGeneration,
    binding: target.detection.binding,
    endpointUrl: target.detection.endpointUrl,
    card: target.card,
    raw: target.raw,
    discovery: target.discovery,
    detection: target.detection,
    http: env.http,
    dialect: target.dialect,
    credentials: env.credentials,
    authHeaders: target.authHeaders,
    authQuery: target.authQuery,
    taskTimeoutMs: env.taskTimeoutMs,
    skills: selectedSkills,
    lane: (label) => `${label ?? checkId} #${++lanes}`,
    fixture: <T>(key: string, make: () => Promise<T>) => {
      let p = env.fixtures.get(key) as Promise<T> | undefined;
      if (!p) {
        p = make();
        env.fixtures.set(key, p);
      }
      return p;
    },
    uuid: env.uuid,
    peer: env.peer,
    oauth: env.oauth,
    jwks: env.jwks,
  });
}
