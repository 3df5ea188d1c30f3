/**
 * The one place the dashboard reaches the engine runner, the browser host and the exporters.
 * Parts that other engineers were still building when the dashboard was written have small
 * stand-ins here with the same signatures; switching to the real module is a one-line change.
 */
import {
  PROXY_CLIENT_HEADER,
  PROXY_ERROR_HEADER,
  Report,
  runConformance,
  timerSleep,
  type Host,
  type RunEvent,
  type RunOptions,
  type TargetInfo,
} from '../engine';

export type TransportMode = 'proxy' | 'direct';

export interface HostSettings {
  mode: TransportMode;
  /** Proxy endpoint; default same origin `/proxy`. */
  proxyUrl?: string;
}

export const DEFAULT_PROXY_URL = '/proxy';

export function proxyEndpoint(proxyUrl: string | undefined): string {
  const p = (proxyUrl ?? '').trim();
  return p ? p.replace(/\/+$/, '') : DEFAULT_PROXY_URL;
}

/** Browser host (stand-in for src/hosts/browser.ts createBrowserHost, same contract). */
export function createHost(settings: HostSettings): Host {
  const endpoint = proxyEndpoint(settings.proxyUrl);
  return {
    transport: settings.mode,
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID: () => crypto.randomUUID(),
    async fetch(url, init) {
      if (settings.mode === 'direct') return fetch(url, init);
      const headers = new Headers(init.headers);
      headers.set(PROXY_CLIENT_HEADER, '1');
      return fetch(`${endpoint}?url=${encodeURIComponent(url)}`, { ...init, headers });
    },
  };
}

export interface ProxyHealth {
  ok: boolean;
  mode?: string;
  error?: string;
}

/** GET <proxy>/health (stand-in for checkProxyHealth in src/hosts/browser.ts). */
export async function checkProxyHealth(proxyUrl: string | undefined, signal?: AbortSignal): Promise<ProxyHealth> {
  try {
    const res = await fetch(`${proxyEndpoint(proxyUrl)}/health`, { headers: { [PROXY_CLIENT_HEADER]: '1' }, signal });
    if (!res.ok) return { ok: false, error: `The proxy answered HTTP ${res.status}.` };
    const body = (await res.json()) as { ok?: unknown; mode?: unknown };
    return { ok: body.ok === true, mode: typeof body.mode === 'string' ? body.mode : undefined };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * Explains when a hosted proxy cannot reach `url` (private address or IP literal). Stand-in for
 * explainTarget in src/hosts/browser.ts.
 */
export function explainTarget(url: string, proxy: { kind: 'local' | 'hosted' | 'direct' }): string | undefined {
  if (proxy.kind !== 'hosted') return undefined;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return undefined;
  }
  const ipLiteral = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith('[');
  if (ipLiteral || host === 'localhost' || host.endsWith('.local') || host.endsWith('.internal')) {
    return `The hosted proxy runs on the edge and cannot reach ${host} (private addresses and IP literals are blocked there). Run the dashboard locally with npm start, or switch to direct mode if the agent allows CORS.`;
  }
  return undefined;
}

export type RunFn = (host: Host, options: RunOptions, emit: (e: RunEvent) => void) => Promise<Report>;
export const runSuite: RunFn = runConformance;

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

export type ExportFormat = 'json' | 'markdown' | 'junit' | 'html';
export interface ExportFile {
  filename: string;
  mimeType: string;
  body: string;
}

/** Stand-in for exportReport in src/exporters: JSON only, other formats fall back to JSON. */
export function exportReport(report: unknown, format: ExportFormat): { file: ExportFile; fallback?: { reason: string } } {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const file = { filename: `a2a-report-${stamp}.json`, mimeType: 'application/json', body: JSON.stringify(report, null, 2) };
  return format === 'json' ? { file } : { file, fallback: { reason: `The ${format} exporter is not available yet; saved as JSON.` } };
}

/** Parses and validates a report file (stand-in for loadReport in src/exporters). Never throws. */
export function loadReport(text: string): { ok: true; report: Report } | { ok: false; error: string } {
  if (text.length > 200 * 1024 * 1024) return { ok: false, error: 'The file is larger than 200 MB.' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `Not JSON: ${e instanceof Error ? e.message : String(e)}` };
  }
  const parsed = Report.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `Not an a2a-interop report: ${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid'}` };
  }
  return { ok: true, report: parsed.data };
}
