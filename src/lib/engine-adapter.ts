/** The one place the dashboard reaches the engine runner, the engine's card discovery, the browser host and the exporters. */
import type { ExportFormat, ExportResult } from '../exporters';
import { checkProxyHealth as checkProxyHealthImpl, createBrowserHost, explainTarget as explainTargetImpl } from '../hosts/browser';
import type { Host, Report, RunEvent, RunOptions, TargetInfo } from './engine';

export type TransportMode = 'proxy' | 'direct';

export interface HostSettings {
  mode: TransportMode;
  /** Proxy endpoint; empty or undefined means the same origin's `/proxy`. */
  proxyUrl?: string;
  /** Credentials may go over plain HTTP to hosts other than this machine (local testing). */
  allowInsecureCredentials?: boolean;
}

const DEFAULT_PROXY_URL = '/proxy';

export function proxyEndpoint(proxyUrl: string | undefined): string {
  const p = (proxyUrl ?? '').trim();
  return p ? p.replace(/\/+$/, '') : DEFAULT_PROXY_URL;
}

/** The engine's host in this browser: through the proxy or direct. */
export function createHost(settings: HostSettings): Host {
  return createBrowserHost({ mode: settings.mode, proxyUrl: proxyEndpoint(settings.proxyUrl), allowInsecureCredentials: settings.allowInsecureCredentials });
}

export interface ProxyHealth {
  ok: boolean;
  mode?: string;
  version?: string;
  error?: string;
}

/** GET <proxy>/health; never throws. */
export function checkProxyHealth(proxyUrl: string | undefined, signal?: AbortSignal): Promise<ProxyHealth> {
  return checkProxyHealthImpl(proxyEndpoint(proxyUrl), { signal });
}

/** Explains when a hosted proxy cannot reach `url` (private address, localhost or IP literal). */
export function explainTarget(url: string, proxy: { kind: 'local' | 'hosted' | 'direct' }): string | undefined {
  return explainTargetImpl(url, proxy);
}

export type RunFn = (host: Host, options: RunOptions, emit: (e: RunEvent) => void) => Promise<Report>;
/** The engine's runner, loaded when the first run starts (keeps the checks out of the first-load bundle). */
export const runSuite: RunFn = async (host, options, emit) => {
  const { runConformance } = await import('../engine/runner/run');
  return runConformance(host, options, emit);
};

/** How many checks a full run starts (the catalogue loads with the runner, so this costs no extra download). */
export async function checkCatalogSize(): Promise<number> {
  const { ALL_CHECKS } = await import('../engine/checks');
  return ALL_CHECKS.length;
}

export interface CardPreview {
  target: TargetInfo;
  /** Skill ids and names from the card, for the skill picker. */
  skills: { id: string; name: string }[];
}

/**
 * Fetches the agent card for the preview (skills, early errors) with the engine's own discovery
 * (same candidates and headers as a run), without warm-up retries so a wrong URL is reported fast.
 * Rejects with a CardError that says what went wrong.
 */
export async function previewCard(host: Host, url: string, signal?: AbortSignal): Promise<CardPreview> {
  // The engine's discovery loads on first use, with what a run shares (never the checks): not in the first-load bundle.
  const { discoverCard } = await import('../engine/api');
  const { discovery: d, skills } = await discoverCard(host, url, { signal, warmupRetries: 0, timeoutMs: 10_000 });
  if (d.invalidUrl) throw new CardError('not-found', d.invalidUrl);
  if (d.unreachable) throw new CardError(d.unreachable.proxyCode ? 'proxy' : 'network', d.unreachable.message);
  if (!d.cardUrl || d.raw === undefined) {
    const tried = d.attempts.map((a) => `${a.url} → ${a.status ?? 'no answer'}${a.note ? ` (${a.note})` : ''}`).join('; ');
    throw new CardError('not-found', `No agent card found${d.neededCredentials ? ' without credentials' : ''}: ${tried || 'nothing answered'}.`);
  }
  return {
    target: { role: 'agent', inputUrl: url, attempts: d.attempts, cardUrl: d.cardUrl, cardSource: d.cardSource, rawCard: d.raw, evidence: [] },
    skills,
  };
}

export class CardError extends Error {
  constructor(
    readonly kind: 'network' | 'proxy' | 'not-found',
    message: string,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

export type { ExportFormat };

/** Exports a report; never loses data (falls back to JSON with a reason). Exporters load on first use. */
export async function exportReport(report: unknown, format: ExportFormat): Promise<ExportResult> {
  const { exportReport: impl } = await import('../exporters');
  return impl(report, format);
}

/** Parses, migrates and validates a report file. Never rejects. */
export async function loadReport(text: string): Promise<{ ok: true; report: Report } | { ok: false; error: string }> {
  try {
    const { loadReport: impl } = await import('../exporters/load');
    const r = impl(text);
    return r.ok ? { ok: true, report: r.report } : { ok: false, error: r.error };
  } catch (e) {
    return { ok: false, error: `Our report loader failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}
