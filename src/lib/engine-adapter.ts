/**
 * The one place the dashboard reaches the engine runner, the browser host and the exporters.
 * The card preview keeps a small discovery of its own (the engine's discovery runs inside a run).
 */
import type { ExportFormat, ExportResult } from '../exporters';
import { checkProxyHealth as checkProxyHealthImpl, createBrowserHost, explainTarget as explainTargetImpl } from '../hosts/browser';
import { PROXY_ERROR_HEADER, type Host, type Report, type RunEvent, type RunOptions, type TargetInfo } from '../engine';

export type TransportMode = 'proxy' | 'direct';

export interface HostSettings {
  mode: TransportMode;
  /** Proxy endpoint; empty or undefined means the same origin's `/proxy`. */
  proxyUrl?: string;
}

export const DEFAULT_PROXY_URL = '/proxy';

export function proxyEndpoint(proxyUrl: string | undefined): string {
  const p = (proxyUrl ?? '').trim();
  return p ? p.replace(/\/+$/, '') : DEFAULT_PROXY_URL;
}

/** The engine's host in this browser: through the proxy or direct. */
export function createHost(settings: HostSettings): Host {
  return createBrowserHost({ mode: settings.mode, proxyUrl: proxyEndpoint(settings.proxyUrl) });
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

export interface CardPreview {
  target: TargetInfo;
  /** Skill ids and names from the card, for the skill picker. */
  skills: { id: string; name: string }[];
}

const WELL_KNOWN = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

/**
 * Fetches the agent card for the preview (skills, early errors). Stand-in for the engine's
 * `discoverCard(host, url)`: tries the URL itself when it names a .json file, then both well-known paths.
 */
export async function discoverCard(host: Host, url: string): Promise<CardPreview> {
  const base = new URL(url);
  const candidates = /\.json$/i.test(base.pathname)
    ? [base.toString()]
    : WELL_KNOWN.flatMap((p) => {
        const prefix = base.pathname.replace(/\/+$/, '');
        const list = [new URL(p, base).toString()];
        if (prefix) list.unshift(`${base.origin}${prefix}${p}`);
        return list;
      });
  const attempts: TargetInfo['attempts'] = [];
  for (const u of [...new Set(candidates)]) {
    let res: Response;
    try {
      res = await host.fetch(u, { method: 'GET', headers: { accept: 'application/json', 'a2a-version': '1.0' } });
    } catch (e) {
      throw new CardError('network', `Could not fetch ${u}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const proxyCode = res.headers.get(PROXY_ERROR_HEADER);
    if (proxyCode) throw new CardError('proxy', `The proxy could not reach the agent (${proxyCode}).`);
    const text = (await res.text()).slice(0, 2_000_000);
    if (!res.ok) {
      attempts.push({ url: u, status: res.status, ok: false });
      continue;
    }
    let card: unknown;
    try {
      card = JSON.parse(text);
    } catch {
      attempts.push({ url: u, status: res.status, ok: false, note: 'not JSON' });
      continue;
    }
    attempts.push({ url: u, status: res.status, ok: true });
    const skills = Array.isArray((card as { skills?: unknown })?.skills)
      ? ((card as { skills: unknown[] }).skills
          .map((s) => s as { id?: unknown; name?: unknown })
          .filter((s) => typeof s.id === 'string')
          .map((s) => ({ id: String(s.id), name: typeof s.name === 'string' ? s.name : String(s.id) })))
      : [];
    return {
      target: {
        role: 'agent',
        inputUrl: url,
        attempts,
        cardUrl: u,
        cardSource: u.endsWith('agent-card.json') ? 'agent-card.json' : u.endsWith('agent.json') ? 'agent.json' : 'direct',
        rawCard: card,
        evidence: [],
      },
      skills,
    };
  }
  throw new CardError(
    'not-found',
    `No agent card at ${candidates.join(' or ')} (${attempts.map((a) => `${a.status ?? '?'}${a.note ? ` ${a.note}` : ''}`).join(', ')}).`,
  );
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
export type ExportFile = ExportResult['file'];

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
