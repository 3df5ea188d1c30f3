import { ALL_CHECKS } from '../checks';
import { appliesTo, obligationFor, requirementFor, specRefFor, tierFor, type CheckContext, type CheckDef, type Verdict } from '../checks/define';
import { DEFAULT_LIMITS, Semaphore, type HttpContext } from '../http/client';
import type { CheckResult, Generation, Requirement } from '../model/check';
import type { RunEvent } from '../model/events';
import type { Report } from '../model/report';
import type { Host } from '../ports';
import { Redactor } from '../redact';
import { buildReport, TOOL } from '../report/build';
import { applyEvents, initialRunState } from '../state/run-state';
import { isRecord } from '../util/json';
import { DEFAULT_TIMEOUT_MS, type Credentials, type RunOptions } from './options';
import { registerSecrets, resolveTarget, type ResolvedTarget } from './target';

/** The MUST a crash violates, per generation: answer with an appropriate error (v1.0), a JSON-RPC Response (before). */
function crashRequirement(g: Generation, base: Requirement | undefined): Requirement {
  const sentence =
    g === 'v1.0'
      ? { doc: 'A2A v1.0.1', section: '§3.3.2 Error Handling', quote: 'Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues.', keyword: 'MUST' }
      : { doc: 'JSON-RPC 2.0', section: '§5 Response object', quote: 'When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications.', keyword: 'MUST', url: 'https://www.jsonrpc.org/specification' };
  return {
    release: base?.release ?? (g === 'v1.0' ? 'A2A v1.0.1' : 'JSON-RPC 2.0'),
    sentences: [sentence, ...(base?.sentences ?? [])],
    note: `The agent crashed (a server error page, or a dropped connection) instead of answering: a failure whatever the check probes.${base?.note ? ` ${base.note}` : ''}`,
  };
}

export interface RunHandle {
  /** Shared between checks of one run (memoized fixtures). */
  fixtures: Map<string, Promise<unknown>>;
  peer?: ResolvedTarget;
}

/**
 * Runs the conformance suite against `options.agentUrl`, emitting every step as a RunEvent.
 * Resolves with the final report (also when stopped: the partial report is marked interrupted).
 * Agent misbehaviour never rejects; a bug of ours ends the run as `errored` with what was recorded.
 */
export async function runConformance(host: Host, options: RunOptions, emit: (e: RunEvent) => void): Promise<Report> {
  const events: RunEvent[] = [];
  const record = (e: RunEvent) => {
    events.push(e);
    try {
      emit(e);
    } catch {
      /* a failing consumer must not break the run */
    }
  };
  const runAbort = new AbortController();
  const onUserAbort = () => runAbort.abort(options.signal?.reason ?? new Error('stopped'));
  if (options.signal?.aborted) onUserAbort();
  else options.signal?.addEventListener('abort', onUserAbort, { once: true });

  const redactor = new Redactor();
  const creds: Credentials = options.credentials ?? { kind: 'none' };
  registerSecrets(redactor, creds);
  let seq = 0;
  const runId = host.randomUUID();
  const http: HttpContext = {
    host,
    signal: runAbort.signal,
    emit: record,
    redactor,
    newId: (prefix) => `${prefix}${++seq}`,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    answered: new Set(),
  };
  http.slots = new Semaphore(Math.max(1, options.concurrency ?? http.limits.maxConcurrentRequests));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  record({
    type: 'run-started',
    at: host.now(),
    runId,
    agentUrl: redactor.url(options.agentUrl),
    peerUrl: options.peerUrl ? redactor.url(options.peerUrl) : undefined,
    options: {
      timeoutMs,
      skills: options.skills,
      credentials: creds.kind,
      credentialHeader: creds.kind === 'header' || creds.kind === 'api-key' ? creds.name : undefined,
      only: options.only,
      transport: options.transport ?? host.transport,
      prefer: options.prefer && (options.prefer.binding || options.prefer.protocolVersion) ? { ...options.prefer } : undefined,
    },
    tool: { ...TOOL },
  });

  let status: 'completed' | 'interrupted' | 'errored' = 'completed';
  let error: string | undefined;
  try {
    const target = await resolveTarget(http, 'agent', options.agentUrl, creds, () => host.randomUUID(), true, options.prefer);
    record({ type: 'target-resolved', at: host.now(), target: target.info });
    const handle: RunHandle = { fixtures: new Map() };
    if (options.peerUrl && !runAbort.signal.aborted) {
      handle.peer = await resolveTarget(http, 'peer', options.peerUrl, { kind: 'none' }, () => host.randomUUID());
      record({ type: 'target-resolved', at: host.now(), target: handle.peer.info });
    }
    let lanes = 0;
    const selectedSkills = (options.skills?.length ? target.card.skills.filter((s) => options.skills!.includes(s.id)) : target.card.skills).map((s) => s.id);
    const makeCtx = (checkId: string, phase: CheckDef['phase']): CheckContext => ({
      checkId,
      // Card checks judge the card's generation; suite checks the generation spoken with the agent.
      generation: phase === 'card' ? target.detection.generation : target.detection.testedGeneration,
      binding: target.detection.binding,
      endpointUrl: target.detection.endpointUrl,
      card: target.card,
      raw: target.raw,
      discovery: target.discovery,
      detection: target.detection,
      http,
      dialect: target.dialect,
      credentials: creds,
      authHeaders: target.authHeaders,
      authQuery: target.authQuery,
      taskTimeoutMs: timeoutMs,
      skills: selectedSkills,
      lane: (label) => `${label ?? checkId} #${++lanes}`,
      fixture: <T>(key: string, make: () => Promise<T>) => {
        let p = handle.fixtures.get(key) as Promise<T> | undefined;
        if (!p) {
          p = make();
          handle.fixtures.set(key, p);
        }
        return p;
      },
      uuid: () => host.randomUUID(),
      peer: handle.peer,
    });

    const wanted = (d: CheckDef) => !options.only?.length || options.only.includes(d.id);
    const checks = ALL_CHECKS.filter(wanted);
    const cardPhase = checks.filter((d) => d.phase === 'card');
    const suitePhase = checks.filter((d) => d.phase === 'suite');
    for (const def of cardPhase) await runOne(def);
    // Checks wait on shared fixtures, so they all start at once; requests in flight are bounded by http.slots.
    await Promise.all(suitePhase.map(runOne));

    async function runOne(def: CheckDef): Promise<void> {
      const g: Generation = def.phase === 'card' ? target.detection.generation : target.detection.testedGeneration;
      const started = host.now();
      const obligation = obligationFor(def, g);
      record({ type: 'check-started', at: started, checkId: def.id, title: def.title, category: def.category, level: obligation });
      let v: Verdict;
      if (runAbort.signal.aborted) {
        v = { status: 'skip', skipKind: 'precondition', message: 'The run was stopped before this check ran.' };
      } else if (!appliesTo(def, g) && isRecord(target.raw)) {
        v = { status: 'skip', skipKind: 'not-applicable', message: `Not part of the ${g} protocol.` };
      } else {
        try {
          v = await def.run(makeCtx(def.id, def.phase));
        } catch (e) {
          v = {
            status: 'error',
            message: `Internal error in our check (not the agent's fault): ${e instanceof Error ? e.message : String(e)}`,
          };
        }
        if (runAbort.signal.aborted && (v.status === 'error' || v.status === 'fail')) {
          v = { status: 'skip', skipKind: 'precondition', message: 'The run was stopped before this check finished.' };
        }
      }
      // A failure with nothing stronger than MAY behind it in this generation (or a case the spec contradicts
      // itself on) is an advisory: shown with its reason, never counted against the level.
      // A crash (5xx page, dropped connection) is never only an advisory: answering with an appropriate error is
      // a MUST of its own (CRASH_REQUIREMENT), whatever the check was probing.
      const crashed = v.status === 'fail' && v.critical === true && (obligation === 'MAY' || v.advisory !== undefined);
      const advisoryReason =
        v.status === 'fail' && !crashed
          ? (v.advisory ?? (obligation === 'MAY' ? `The ${g} specification does not require this (nothing stronger than MAY stands behind it).` : undefined))
          : undefined;
      const status = advisoryReason ? 'advisory' : v.status;
      const requirement = requirementFor(def, g);
      const result: CheckResult = {
        id: def.id,
        test: def.title,
        category: def.category,
        status,
        level: crashed ? 'MUST' : obligation,
        tier: crashed ? 'optional' : tierFor(def, g),
        message: redactor.text(v.message),
        duration_ms: Math.max(0, host.now() - started),
        recommendation: status === 'fail' || status === 'advisory' ? redactor.text(v.recommendation ?? def.recommendation) : undefined,
        evidence: (v.evidence ?? []).map((e) => ({ ...e, value: redactor.text(e.value) })),
        specRef: specRefFor(def, g),
        critical: status === 'fail' && (v.critical || def.critical) ? true : undefined,
        proxyError: v.proxyError,
        skipKind: status === 'skip' ? (v.skipKind ?? 'not-applicable') : undefined,
        advisoryReason: advisoryReason ? redactor.text(advisoryReason) : undefined,
        requirement: crashed ? crashRequirement(g, requirement) : requirement,
      };
      record({ type: 'check-finished', at: host.now(), result });
    }
    if (runAbort.signal.aborted) status = 'interrupted';
  } catch (e) {
    status = runAbort.signal.aborted ? 'interrupted' : 'errored';
    error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  } finally {
    options.signal?.removeEventListener('abort', onUserAbort);
  }
  record({ type: 'run-finished', at: host.now(), status, error });
  return buildReport(applyEvents(initialRunState(), events), events);
}
