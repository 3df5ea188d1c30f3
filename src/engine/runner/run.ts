import { ALL_CHECKS } from '../checks';
import type { CheckDef } from '../checks/define';
import { createHttpContext } from '../http/client';
import type { Generation } from '../model/check';
import type { RunEvent } from '../model/events';
import type { Report } from '../model/report';
import type { Host } from '../ports';
import { Redactor } from '../redact';
import { buildReport, TOOL } from '../report/build';
import { applyEvents, initialRunState } from '../state/run-state';
import { checkContexts, runCheck } from './check-result';
import { DEFAULT_TIMEOUT_MS, type Credentials, type RunOptions } from './options';
import { registerSecrets, resolveTarget, type ResolvedTarget } from '../target';

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
  const runId = host.randomUUID();
  const http = createHttpContext(host, {
    signal: runAbort.signal,
    emit: record,
    redactor,
    limits: options.limits,
    concurrency: options.concurrency ?? true,
    trackAnswered: true,
  });
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
    const target = await resolveTarget(http, options.agentUrl, { credentials: creds, prefer: options.prefer, uuid: () => host.randomUUID() });
    record({ type: 'target-resolved', at: host.now(), target: target.info });
    const handle: RunHandle = { fixtures: new Map() };
    if (options.peerUrl && !runAbort.signal.aborted) {
      handle.peer = await resolveTarget(http, options.peerUrl, { role: 'peer', uuid: () => host.randomUUID() });
      record({ type: 'target-resolved', at: host.now(), target: handle.peer.info });
    }
    const makeCtx = checkContexts(target, {
      http,
      credentials: creds,
      taskTimeoutMs: timeoutMs,
      skills: options.skills,
      uuid: () => host.randomUUID(),
      fixtures: handle.fixtures,
      peer: handle.peer,
      oauth: target.oauth,
      jwks: options.jwks,
    });

    const wanted = (d: CheckDef) => !options.only?.length || options.only.includes(d.id);
    const checks = ALL_CHECKS.filter(wanted);
    const cardPhase = checks.filter((d) => d.phase === 'card');
    const suitePhase = checks.filter((d) => d.phase === 'suite');
    for (const def of cardPhase) await runOne(def);
    // Checks wait on shared fixtures, so they all start at once; requests in flight are bounded by http.slots.
    await Promise.all(suitePhase.map(runOne));
    // A window handed over to run beside the checks (the push stragglers) ends before the run does.
    for (let n = -1; n !== handle.fixtures.size;) {
      n = handle.fixtures.size;
      await Promise.allSettled(handle.fixtures.values());
    }

    async function runOne(def: CheckDef): Promise<void> {
      const g: Generation = def.phase === 'card' ? target.detection.generation : target.detection.testedGeneration;
      const result = await runCheck(def, () => makeCtx(def.id, def.phase), {
        generation: g,
        raw: target.raw,
        signal: runAbort.signal,
        redactor,
        now: () => host.now(),
        onStart: (at, level) => record({ type: 'check-started', at, checkId: def.id, title: def.title, category: def.category, level }),
      });
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
