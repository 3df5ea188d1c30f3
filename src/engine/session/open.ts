/**
 * Opening a session: the agent's card discovered, normalized and classified (as a run does), the interface chosen,
 * credentials placed, or one sentence saying why there is nothing to talk to.
 */
import { declaresOAuth, OAuthClient, oauthPlan } from '../auth';
import { detectGeneration } from '../card/detect';
import { discoverCard, type DiscoveryResult } from '../card/discover';
import { normalizeCard } from '../card/normalize';
import { createHttpContext } from '../http/client';
import type { RunEvent } from '../model/events';
import type { Host } from '../ports';
import { Dialect } from '../protocol/dialect';
import { Redactor } from '../redact';
import { acceptedOutputModes, credentialPlacement, registerSecrets } from '../runner/inspect';
import type { Credentials } from '../runner/options';
import { isRecord, truncate } from '../util/json';
import { TaskMemory } from './memory';
import { Session } from './session';
import { exchangesOf } from './summary';
import type { SessionExchange, SessionOptions, SessionTarget, SessionUnavailable } from './types';

export type SessionOpen =
  | { ok: true; session: Session; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] }
  | { ok: false; unavailable: SessionUnavailable; target: SessionTarget; exchanges: SessionExchange[]; events: RunEvent[] };

/** Discovers the agent's card and opens a session on the interface it declares (or the one preferred). Never throws. */
export async function openSession(host: Host, opts: SessionOptions): Promise<SessionOpen> {
  const redactor = new Redactor();
  const creds: Credentials = opts.credentials ?? { kind: 'none' };
  registerSecrets(redactor, creds);
  const extra = opts.headers ?? {};
  for (const [name, value] of Object.entries(extra)) redactor.addSecret(value).addHeaderName(name);
  const events: RunEvent[] = [];
  const base = createHttpContext(host, {
    signal: opts.signal,
    emit: (e) => events.push(e),
    redactor,
    limits: opts.limits,
    concurrency: true,
    trackAnswered: true,
  });
  const discovery = await discoverCard(base, opts.agentUrl, {
    lane: 'discovery',
    credentialHeaders: { ...credentialPlacement(creds).headers, ...extra },
    warmupRetries: opts.warmupRetries ?? 1,
  });
  const target: SessionTarget = {
    inputUrl: redactor.url(opts.agentUrl),
    cardUrl: discovery.cardUrl ? redactor.url(discovery.cardUrl) : undefined,
    cardSource: discovery.cardSource,
    attempts: discovery.attempts,
    evidence: [],
    skills: [],
  };
  const fail = (reason: SessionUnavailable['reason'], message: string): SessionOpen => ({
    ok: false,
    unavailable: { reason, message: redactor.text(message) },
    target,
    exchanges: exchangesOf(events),
    events,
  });
  const unavailable = discoveryProblem(discovery, target.inputUrl, redactor);
  if (unavailable) return fail(unavailable.reason, unavailable.message);
  const raw = discovery.raw;
  if (!isRecord(raw)) {
    const what = discovery.parseError ? `is not JSON (${discovery.parseError})` : 'is not a JSON object';
    return fail('invalid-card', `The agent card at ${target.cardUrl ?? target.inputUrl} ${what}, so there is no endpoint to talk to.`);
  }
  const card = normalizeCard(raw);
  const detection = detectGeneration(raw, card, discovery.cardSource, opts.prefer);
  Object.assign(target, {
    generation: detection.generation,
    testedGeneration: detection.testedGeneration,
    binding: detection.binding,
    endpointUrl: detection.endpointUrl ? redactor.url(detection.endpointUrl) : undefined,
    evidence: detection.evidence.map((e) => redactor.text(e)),
    agentName: redactor.text(truncate(card.name, 200)),
    streaming: card.capabilities.streaming,
    skills: card.skills.slice(0, 50).map((s) => ({
      id: redactor.text(s.id),
      name: redactor.text(truncate(s.name, 200)),
      examples: s.examples.slice(0, 10).map((x) => redactor.text(truncate(x, 500))),
      inputModes: s.inputModes,
      outputModes: s.outputModes,
    })),
    oauth: declaresOAuth(card),
    interfaces: card.interfaces.slice(0, 20).map((i) => ({ url: redactor.url(i.url), binding: String(i.binding), protocolVersion: i.protocolVersion })),
    extensions: card.capabilities.extensions
      .filter((e) => e.uri)
      .slice(0, 20)
      .map((e) => ({ uri: truncate(e.uri, 500), required: e.required, description: e.description ? redactor.text(truncate(e.description, 300)) : undefined })),
  } satisfies Partial<SessionTarget>);
  const binding = detection.binding;
  if (!detection.endpointUrl || !binding || binding === 'GRPC') {
    return fail('untestable', detection.untestable ?? 'The card declares no interface this tool can call (JSON-RPC or HTTP+JSON at an absolute http(s) URL).');
  }
  for (const s of Object.values(card.securitySchemes)) if (s.type === 'apiKey') redactor.addHeaderName(s.name).addQueryName(s.name);
  const placement = credentialPlacement(creds, card);
  if (creds.kind === 'oauth2') {
    // OAuth client credentials: a token from the card's token endpoint, kept fresh by the context (src/engine/auth).
    const plan = oauthPlan(card);
    if (!plan)
      return fail(
        'credentials-rejected',
        'OAuth client credentials were given, but the card declares no clientCredentials tokenUrl or openIdConnectUrl to get a token from.',
      );
    const client = new OAuthClient(base, plan, creds);
    if (!(await client.start()))
      return fail(client.failure?.kind === 'tool' ? 'tool-failure' : 'credentials-rejected', `No access token: ${client.failure?.message ?? 'no answer'}.`);
    placement.headers.Authorization = client.authorization ?? '';
    base.auth = client;
  }
  const dialect = new Dialect({
    generation: detection.testedGeneration,
    binding,
    endpointUrl: detection.endpointUrl,
    tenant: detection.tenant,
    authHeaders: { ...placement.headers, ...extra },
    authQuery: placement.query,
    acceptedOutputModes: acceptedOutputModes(card),
    uuid: () => host.randomUUID(),
  });
  const session = new Session(base, dialect, card, target, binding, opts.memory ?? new TaskMemory(detection.testedGeneration), {
    headers: { ...placement.headers, ...extra },
    query: placement.query,
  });
  return { ok: true, session, target, exchanges: exchangesOf(events), events: [...events] };
}

/** Why discovery found nothing to talk to, in one sentence saying what to check. */
function discoveryProblem(d: DiscoveryResult, url: string, r: Redactor): SessionUnavailable | undefined {
  const tried = d.attempts
    .slice(0, 6)
    .map((a) => `${a.url} → ${a.status !== undefined ? `HTTP ${a.status}` : (a.note ?? 'no answer')}`)
    .join('; ');
  switch (d.reach) {
    case 'card':
      return undefined;
    case 'invalid-url':
      return { reason: 'invalid-url', message: `${JSON.stringify(url)} is not a usable agent URL: ${d.invalidUrl ?? 'give an absolute http(s) URL'}.` };
    case 'unreachable':
      return {
        reason: 'unreachable',
        message: `Nothing answered at ${url}: ${r.text(d.unreachable?.message ?? 'no answer')} Is the agent running, and is the URL right?`,
      };
    case 'tool-failure':
      return {
        reason: 'tool-failure',
        message: `The card could not be fetched because of our side, not the agent: ${r.text(d.unreachable?.message ?? 'the request was stopped')}`,
      };
    case 'credentials-required':
      return {
        reason: 'credentials-required',
        message: `The agent at ${url} refused to serve its card without credentials (401/403). Give them as headers (e.g. {"Authorization": "Bearer …"}).`,
      };
    case 'credentials-rejected':
      return { reason: 'credentials-rejected', message: `The agent at ${url} refused the credentials given (401/403 with them too).` };
    case 'no-card':
      return {
        reason: 'not-a2a',
        message: `Something answered at ${url}, but no A2A agent card was found (${tried || 'no attempt'}). Is this an A2A agent? Give its base URL or the card URL itself.`,
      };
  }
}
