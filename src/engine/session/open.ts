/**
 * Opening a session: the agent resolved through the engine's front door (src/engine/target: the card discovered,
 * normalized and classified, the interface chosen, credentials placed, OAuth, required extensions), as a run
 * resolves it, or one sentence saying why there is nothing to talk to.
 */
import { declaresOAuth } from '../auth';
import { createHttpContext } from '../http/client';
import type { RunEvent } from '../model/events';
import type { Host } from '../ports';
import { Redactor } from '../redact';
import { registerSecrets, resolveTarget, targetProblem, type ResolvedTarget } from '../target';
import { truncate } from '../util/json';
import { TaskMemory } from './memory';
import { Session } from './session';
import { exchangesOf } from './summary';
import type { SessionExchange, SessionOptions, SessionTarget, SessionUnavailable } from './types';

export type SessionOpen =
  | { ok: true; session: Session; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] }
  | { ok: false; unavailable: SessionUnavailable; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] };

/** Discovers the agent's card and opens a session on the interface it declares (or the one preferred). Never throws. */
export async function openSession(host: Host, opts: SessionOptions): Promise<SessionOpen> {
  const creds = opts.credentials ?? { kind: 'none' };
  const headers = opts.headers ?? {};
  const redactor = registerSecrets(new Redactor(), creds, headers);
  const events: RunEvent[] = [];
  const base = createHttpContext(host, {
    signal: opts.signal,
    emit: (e) => events.push(e),
    redactor,
    limits: opts.limits,
    concurrency: true,
    trackAnswered: true,
  });
  const t = await resolveTarget(base, opts.agentUrl, {
    credentials: creds,
    headers,
    prefer: opts.prefer,
    warmupRetries: opts.warmupRetries ?? 1,
    uuid: () => host.randomUUID(),
  });
  const target = sessionTarget(t, opts.agentUrl, redactor);
  const problem = targetProblem(t, opts.agentUrl, creds, redactor);
  if (problem || !t.dialect) {
    const unavailable = problem ?? { reason: 'untestable', message: 'The card declares no interface this tool can call.' };
    return { ok: false, unavailable, target, exchanges: exchangesOf(events), events };
  }
  const memory = opts.memory ?? new TaskMemory(t.detection.testedGeneration);
  const session = new Session(base, t.dialect, t.card, target, memory, {
    headers: t.authHeaders,
    query: t.authQuery,
    requiredExtensions: t.requiredExtensions,
  });
  return { ok: true, session, target, exchanges: exchangesOf(events), events: [...events] };
}

/** What discovery found, redacted and bounded: enough to show the agent and pick a skill, an interface, extensions. */
function sessionTarget(t: ResolvedTarget, url: string, r: Redactor): SessionTarget {
  const d = t.discovery;
  const target: SessionTarget = {
    inputUrl: r.url(url),
    cardUrl: d.cardUrl ? r.url(d.cardUrl) : undefined,
    cardSource: d.cardSource,
    attempts: d.attempts,
    evidence: [],
    skills: [],
  };
  if (d.reach !== 'card' || t.info.generation === undefined) return target;
  const { card, detection } = t;
  return {
    ...target,
    generation: detection.generation,
    testedGeneration: detection.testedGeneration,
    binding: detection.binding,
    endpointUrl: detection.endpointUrl ? r.url(detection.endpointUrl) : undefined,
    evidence: detection.evidence.map((e) => r.text(e)),
    agentName: r.text(truncate(card.name, 200)),
    streaming: card.capabilities.streaming,
    skills: card.skills.slice(0, 50).map((s) => ({
      id: r.text(s.id),
      name: r.text(truncate(s.name, 200)),
      examples: s.examples.slice(0, 10).map((x) => r.text(truncate(x, 500))),
      inputModes: s.inputModes,
      outputModes: s.outputModes,
    })),
    oauth: declaresOAuth(card),
    interfaces: card.interfaces.slice(0, 20).map((i) => ({ url: r.url(i.url), binding: String(i.binding), protocolVersion: i.protocolVersion })),
    extensions: card.capabilities.extensions
      .filter((e) => e.uri)
      .slice(0, 20)
      .map((e) => ({ uri: truncate(e.uri, 500), required: e.required, description: e.description ? r.text(truncate(e.description, 300)) : undefined })),
  };
}
