/**
 * "Open in console" from any exchange of a run (the wire inspector, a failed check's evidence): the exchange is
 * handed to the console page in memory (with the run's credentials, which never go into a URL), and the URL
 * names the run and the exchange so a reload can still find it in the run archive.
 */
import type { RunArchive } from './db';
import { applyEvents, initialRunState, type Credentials, type Exchange, type RunEvent } from './engine';
import { navigate } from './router';

export interface ConsoleHandoff {
  exchange: Pick<Exchange, 'id' | 'request' | 'checkId' | 'lane'>;
  /** The run's agent URL (what the user typed), to open the session on. */
  agentUrl?: string;
  runId?: string;
  checkId?: string;
  /** The run's credentials (in memory only), when the run was started in this tab. */
  credentials?: Credentials;
}

let pending: ConsoleHandoff | null = null;

/** The console's URL for an exchange of a run. */
export function consoleHref(exchangeId: string, runId?: string): string {
  const q = new URLSearchParams({ exchange: exchangeId });
  if (runId) q.set('run', runId);
  return `/console?${q.toString()}`;
}

/** Opens the console with this exchange's request loaded in its request editor. */
export function openInConsole(h: ConsoleHandoff): void {
  pending = h;
  navigate(consoleHref(h.exchange.id, h.runId));
}

/** The handoff for `exchangeId`, once (the console takes it when it loads the request). */
export function takeHandoff(exchangeId: string): ConsoleHandoff | null {
  if (!pending || pending.exchange.id !== exchangeId) return null;
  const h = pending;
  pending = null;
  return h;
}

/** After a reload: the exchange from the run's events (live store first, then the archive). Never rejects. */
export async function findExchange(
  exchangeId: string,
  runId: string | undefined,
  sources: { live?: { runId?: string; agentUrl?: string; events: readonly RunEvent[] }; archive?: RunArchive },
): Promise<ConsoleHandoff | null> {
  const fromEvents = (events: readonly RunEvent[]): ConsoleHandoff | null => {
    const req = events.find((e) => e.type === 'http-request' && e.exchangeId === exchangeId);
    if (!req || req.type !== 'http-request') return null;
    const run = applyEvents(initialRunState(), events.slice(0, 1));
    return {
      exchange: { id: exchangeId, request: req.request, checkId: req.checkId, lane: req.lane },
      agentUrl: run.agentUrl,
      runId: run.runId,
      checkId: req.checkId,
    };
  };
  const live = sources.live;
  if (live && (!runId || live.runId === runId)) {
    const h = fromEvents(live.events);
    if (h) return h;
  }
  if (runId && sources.archive) {
    try {
      return fromEvents(await sources.archive.events(runId));
    } catch {
      return null;
    }
  }
  return null;
}
