import { agentKey } from '../../engine/report/compare';
import { CardError } from '../../lib/engine-adapter';
import type { RegistryAgent } from '../../lib/registry-db';

/** `<id-slug>.agent-card.json`, e.g. `agent-robot-bay-arm-v1.agent-card.json` (`.v0.3.` / `.legacy.` before it for those shapes). */
export function cardFilename(id: string, shape: 'v1.0' | 'v0.3' | 'legacy' = 'v1.0'): string {
  const slug =
    id
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '') || 'agent';
  return `${slug}${shape === 'v1.0' ? '' : `.${shape}`}.agent-card.json`;
}

const httpOf = (u: string | undefined): string | undefined => {
  if (!u) return undefined;
  try {
    const p = new URL(u);
    return p.protocol === 'http:' || p.protocol === 'https:' ? p.toString() : undefined;
  } catch {
    return undefined;
  }
};

const ORDER = { a2a: 0, http: 1, grpc: 2 } as const;

/** The agent's endpoints in the order its exported card lists them (a2a, then http, then grpc; by priority). */
export const orderedEndpoints = (agent: RegistryAgent) => [...agent.endpoints].sort((a, b) => ORDER[a.protocol] - ORDER[b.protocol] || a.priority - b.priority);

/**
 * Where "Run conformance" points the Run view: the card URL the agent was imported from (discovery then
 * finds the card again), else the agent's first http(s) endpoint. Undefined when it has neither.
 */
export function runTargetOf(agent: RegistryAgent): string | undefined {
  return (
    httpOf(agent.source?.url) ??
    orderedEndpoints(agent)
      .map((e) => httpOf(e.url))
      .find(Boolean)
  );
}

/** The Run view's deep link: `/?agent=<url>` fills the form; with `start`, `&run=1` also starts the run. */
export const runLink = (url: string, opts: { start?: boolean } = {}) => `/?agent=${encodeURIComponent(url)}${opts.start ? '&run=1' : ''}`;

/** The URLs a run of this agent may have been started with, as comparable keys (engine/report/compare agentKey). */
export function agentKeysOf(agent: RegistryAgent): Set<string> {
  const urls = [agent.source?.url, ...agent.endpoints.map((e) => e.url)].filter((u): u is string => Boolean(u));
  return new Set(urls.map(agentKey));
}

/** The latest run (by start time) of this agent among `runs`, matched by URL; undefined when it never ran here. */
export function lastRunOf<T extends { agentUrl: string; startedAt: number }>(agent: RegistryAgent, runs: readonly T[]): T | undefined {
  const keys = agentKeysOf(agent);
  let last: T | undefined;
  for (const r of runs) if (keys.has(agentKey(r.agentUrl)) && (!last || r.startedAt > last.startedAt)) last = r;
  return last;
}

/** The Type column of the mapper log for a card of `generation`. */
export const cardType = (generation: string) => `A2A ${generation}`;

/** Where a registry agent came from, for the Generation column. */
export const generationOf = (agent: RegistryAgent) => agent.source?.generation ?? 'internal';

export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Pasted or uploaded card text -> parsed JSON object, or what is wrong with it. */
export function parseCardText(text: string, maxChars = 5_000_000): { ok: true; card: Record<string, unknown> } | { ok: false; error: string } {
  const t = text.replace(/^\uFEFF/, '').trim();
  if (!t) return { ok: false, error: 'The card is empty. Paste or choose an agent card (JSON).' };
  if (t.length > maxChars) return { ok: false, error: `The card is ${t.length} characters; at most ${maxChars} are accepted.` };
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch (e) {
    return { ok: false, error: `The card is not valid JSON (${e instanceof Error ? e.message : String(e)}).` };
  }
  if (!isJsonObject(v)) return { ok: false, error: 'The card must be a JSON object (an A2A Agent Card), not an array or a single value.' };
  return { ok: true, card: v };
}

/** Why "Add agent by URL" failed, with what to do next. */
export function explainAddError(e: unknown, mode: 'proxy' | 'direct', proxyDown?: string): string {
  if (proxyDown) {
    return `The proxy is unreachable (${proxyDown}). Start the dashboard with npm start, set a working Proxy URL in Settings, or switch to direct mode.`;
  }
  if (e instanceof CardError && e.kind === 'not-found') return `${e.message} Check the URL; if the card lives elsewhere, enter the card's own URL.`;
  if (e instanceof CardError && e.kind === 'proxy')
    return `The proxy could not reach the agent: ${e.message} Check that the agent is running and the URL is right.`;
  const msg = e instanceof Error ? e.message : String(e);
  if (mode === 'direct') {
    return `The browser could not fetch the card (${msg}). In direct mode this is usually CORS: the agent does not allow this page's origin. Use the proxy (Settings) or enable CORS on the agent.`;
  }
  return `Could not fetch the card: ${msg}`;
}
