/**
 * Narrow entry points into the engine for callers that are not a whole run: the dashboard's card preview, the
 * registry's card checks, the MCP tools. They go through the same discovery, normalization, detection and
 * check-to-result code as `runConformance`, so what they say is what a run would say.
 */
import type { Detection, InterfacePreference } from './card/detect';
import { servedCardDiscovery, type DiscoveryResult } from './card/discover';
import type { NormalizedCard } from './card/normalize';
import type { CheckDef } from './checks/define';
import { createHttpContext, type Limits } from './http/client';
import type { CheckResult, Generation } from './model/check';
import type { RunEvent, TargetInfo } from './model/events';
import { timerSleep, type Host } from './ports';
import { Redactor } from './redact';
import type { Credentials } from './model/credentials';
import { inspectTarget, readDiscovery, registerSecrets } from './target';
import { isRecord } from './util/json';

export { createHttpContext, type HttpContext, type HttpContextOptions } from './http/client';

/** The card checks that judge how a card is served rather than what it says: meaningless on a card given as JSON. */
export const SERVING_CHECKS: readonly string[] = ['card.discovery', 'card.content-type', 'card.well-known-path', 'card.public', 'card.caching', 'card.vary'];

export interface DiscoverCardOptions {
  signal?: AbortSignal;
  /** Sent on a second pass only, when the first met 401/403 (as a run does). Masked in everything returned. */
  credentials?: Credentials;
  /** The interface to test when the card declares several (the detection's choice). */
  prefer?: InterfacePreference;
  /** Retries of the first pass when nothing answered (cold start). Default 0: a wrong URL is reported fast (a run uses 3). */
  warmupRetries?: number;
  /** Budget of each request, ms. Default 10,000. */
  timeoutMs?: number;
  /** The discovery's `http-request` / `http-response` events (redacted). Default: dropped. */
  emit?: (e: RunEvent) => void;
  limits?: Partial<Limits>;
  /** Also run every card check, including those on how the card is served (`findings`). */
  judge?: boolean;
}

export interface DiscoveredCard {
  discovery: DiscoveryResult;
  /** The card as served (unbounded); undefined when none was read. */
  raw: unknown;
  card: NormalizedCard;
  /** Generation, binding, endpoint, tenant and the evidence for them. */
  detection: Detection;
  /** What a run's `target-resolved` event carries: redacted and bounded. */
  info: TargetInfo;
  /** Skills with an id, as the card lists them (name defaults to the id). */
  skills: { id: string; name: string }[];
  /** Every card check's result, in run order (with `judge: true`). */
  findings?: CheckResult[];
}

/** Finds an agent's card (discovery, normalization, generation and interface detection, with evidence). Never rejects. */
export async function discoverCard(host: Host, url: string, opts: DiscoverCardOptions = {}): Promise<DiscoveredCard> {
  const creds = opts.credentials ?? { kind: 'none' };
  const redactor = new Redactor();
  registerSecrets(redactor, creds);
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const http = createHttpContext(host, {
    signal: opts.signal,
    emit: opts.emit,
    redactor,
    limits: { requestTimeoutMs: timeoutMs, ...opts.limits },
    idPrefix: 'preview-',
  });
  // The front door a run goes through (src/engine/target); gRPC interfaces count when the host speaks gRPC.
  const t = await inspectTarget(http, 'agent', url, creds, { warmupRetries: opts.warmupRetries ?? 0, timeoutMs, prefer: opts.prefer });
  const found: DiscoveredCard = { discovery: t.discovery, raw: t.raw, card: t.card, detection: t.detection, info: t.info, skills: skillsOf(t.raw) };
  if (opts.judge) {
    const { judgeTarget } = await import('./runner/card-phase');
    found.findings = await judgeTarget(t, { http, credentials: creds, signal: opts.signal });
  }
  return found;
}

export interface JudgeCardOptions {
  /** Only these check ids (default: every card check but SERVING_CHECKS). */
  only?: readonly string[];
  /** Leave these check ids out too. */
  exclude?: readonly string[];
  prefer?: InterfacePreference;
  /** Where the card is taken to be served (its file name decides how a v0.x card is read). Default: a well-known agent-card.json. */
  cardUrl?: string;
  /** Stops judging: checks not started are skipped. */
  signal?: AbortSignal;
}

export interface CardJudgement {
  /** The generation the card reads as; undefined when it is not a JSON object. */
  generation?: Generation;
  detection: Detection;
  card: NormalizedCard;
  /** One result per card check judged, in run order, as a run reports them (redacted). */
  results: CheckResult[];
}

/** The card checks (content only, see SERVING_CHECKS) on a card given as JSON: no host, no request. */
export async function judgeCard(card: unknown, opts: JudgeCardOptions = {}): Promise<CardJudgement> {
  const http = createHttpContext(NO_NETWORK, { signal: opts.signal, idPrefix: 'judge-' });
  const cardUrl = opts.cardUrl ?? 'https://card.invalid/.well-known/agent-card.json';
  const discovery = servedCardDiscovery(card, cardUrl, http.limits.maxBodyBytes);
  const t = readDiscovery(http, 'agent', cardUrl, discovery, { kind: 'none' }, opts.prefer);
  const wanted = (d: CheckDef) => (opts.only ? opts.only.includes(d.id) : !SERVING_CHECKS.includes(d.id)) && !opts.exclude?.includes(d.id);
  // The checks load on first use, so bundles that only discover stay small.
  const { judgeTarget } = await import('./runner/card-phase');
  const results = await judgeTarget(t, { http, credentials: { kind: 'none' }, signal: opts.signal, wanted });
  return { generation: isRecord(t.raw) ? t.detection.generation : undefined, detection: t.detection, card: t.card, results };
}

function skillsOf(raw: unknown): { id: string; name: string }[] {
  const skills = isRecord(raw) && Array.isArray(raw.skills) ? (raw.skills as unknown[]) : [];
  return skills.filter(isRecord).flatMap((s) => (typeof s.id === 'string' ? [{ id: s.id, name: typeof s.name === 'string' ? s.name : s.id }] : []));
}

/** The host of a judgement on a card given as JSON: no request leaves it (the content checks make none). */
const NO_NETWORK: Host = {
  fetch: () => Promise.reject(new Error('judgeCard makes no requests')),
  now: () => Date.now(),
  sleep: timerSleep,
  randomUUID: () => '00000000-0000-4000-8000-000000000000',
  transport: 'direct',
};
