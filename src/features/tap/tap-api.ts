/**
 * The local server's tap routes (src/engine/tap/types.ts: `POST /api/taps`, `GET /api/taps/:id/events` as SSE,
 * `GET /api/taps/:id/report`, `PATCH` / `DELETE /api/taps/:id`) and the demo orchestrator (`/api/demo-orchestrator`,
 * agent A of the two-agent demo), as the Tap page uses them. Same origin: no proxy in between.
 */
import type { TapEvent, TapFaults, TapReport } from '../../engine/tap/types';
import { isRecord } from '../../engine/util/json';
import { asTapEvent } from './tap-model';

export interface TapHandle {
  id: string;
  /** The URL to give the client (`<origin>/tap/<id>/`). */
  url: string;
}

export interface OrchestratorInfo {
  /** Agent A's JSON-RPC endpoint. */
  url: string;
  baseUrl: string;
  peers: { id: string; label: string; baseUrl: string }[];
  /** Agent A with each official SDK client (JSON-RPC endpoint `url`); the first is the default. */
  clients: { id: string; label: string; url: string }[];
}

/** What the orchestrator answered one question with: its task's state and words. */
export interface OrchestratorReply {
  state: string;
  text: string;
}

export type EventsStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

/** A tap open on the server (GET /api/taps), e.g. one started before a reload or from another tab. */
export interface OpenTap extends TapHandle {
  agentUrl: string;
  createdAt?: number;
}

export interface TapApi {
  start(agentUrl: string, faults: TapFaults): Promise<TapHandle>;
  /** The taps open on the server. */
  list(): Promise<OpenTap[]>;
  setFaults(id: string, faults: TapFaults): Promise<void>;
  stop(id: string): Promise<void>;
  report(id: string): Promise<TapReport>;
  /** Replays the tap's events, then follows live ones; returns the function that stops listening. */
  subscribe(id: string, onEvent: (e: TapEvent) => void, onStatus: (s: EventsStatus) => void): () => void;
  orchestrator(): Promise<OrchestratorInfo | null>;
  ask(orchestratorUrl: string, text: string, signal?: AbortSignal): Promise<OrchestratorReply>;
}

/** A short, bounded reason from a server's error answer (JSON `{error}` or text). */
async function failure(res: Response, what: string): Promise<Error> {
  let detail: string;
  try {
    const text = (await res.text()).slice(0, 400);
    try {
      const j = JSON.parse(text) as unknown;
      detail = isRecord(j) && typeof j.error === 'string' ? j.error : isRecord(j) && typeof j.message === 'string' ? j.message : text;
    } catch {
      detail = text;
    }
  } catch {
    detail = '';
  }
  return new Error(`${what} answered HTTP ${res.status}${detail ? `: ${detail.slice(0, 300)}` : ''}`);
}

const json = { 'Content-Type': 'application/json', Accept: 'application/json' };

export const browserTapApi: TapApi = {
  async start(agentUrl, faults) {
    const res = await fetch('/api/taps', { method: 'POST', headers: json, body: JSON.stringify({ agentUrl, faults }) });
    if (!res.ok) throw await failure(res, 'Starting the tap');
    const body = (await res.json()) as unknown;
    if (!isRecord(body) || typeof body.id !== 'string' || typeof body.url !== 'string')
      throw new Error('Starting the tap: the server answered without an id and URL.');
    return { id: body.id, url: body.url };
  },
  async list() {
    const res = await fetch('/api/taps', { headers: { Accept: 'application/json' } });
    if (!res.ok || !/json/i.test(res.headers.get('content-type') ?? '')) return [];
    const body = (await res.json()) as unknown;
    if (!Array.isArray(body)) return [];
    return body.flatMap((t) =>
      isRecord(t) && typeof t.id === 'string' && typeof t.url === 'string' && typeof t.agentUrl === 'string'
        ? [{ id: t.id, url: t.url, agentUrl: t.agentUrl, ...(typeof t.createdAt === 'number' ? { createdAt: t.createdAt } : {}) }]
        : [],
    );
  },
  async setFaults(id, faults) {
    const res = await fetch(`/api/taps/${encodeURIComponent(id)}`, { method: 'PATCH', headers: json, body: JSON.stringify({ faults }) });
    if (!res.ok) throw await failure(res, 'Changing the faults');
  },
  async stop(id) {
    const res = await fetch(`/api/taps/${encodeURIComponent(id)}`, { method: 'DELETE' });
    if (!res.ok && res.status !== 404) throw await failure(res, 'Stopping the tap');
  },
  async report(id) {
    const res = await fetch(`/api/taps/${encodeURIComponent(id)}/report`, { headers: { Accept: 'application/json' } });
    if (!res.ok) throw await failure(res, 'The report');
    return (await res.json()) as TapReport;
  },
  subscribe(id, onEvent, onStatus) {
    const source = new EventSource(`/api/taps/${encodeURIComponent(id)}/events`);
    onStatus('connecting');
    source.onopen = () => onStatus('live');
    source.addEventListener('tap', (m) => {
      try {
        const e = asTapEvent(JSON.parse((m as MessageEvent<string>).data));
        if (e) onEvent(e);
      } catch {
        // Not JSON: not a tap event; ignored.
      }
    });
    source.onerror = () => onStatus(source.readyState === EventSource.CLOSED ? 'ended' : 'reconnecting');
    return () => {
      source.close();
      onStatus('ended');
    };
  },
  async orchestrator() {
    const res = await fetch('/api/demo-orchestrator', { headers: { Accept: 'application/json' } });
    if (res.status === 404 || !/json/i.test(res.headers.get('content-type') ?? '')) return null;
    if (!res.ok) throw await failure(res, 'The demo orchestrator');
    const body = (await res.json()) as unknown;
    if (!isRecord(body) || typeof body.url !== 'string' || typeof body.baseUrl !== 'string' || !Array.isArray(body.peers)) return null;
    const peers = body.peers.flatMap((p) =>
      isRecord(p) && typeof p.id === 'string' && typeof p.label === 'string' && typeof p.baseUrl === 'string'
        ? [{ id: p.id, label: p.label, baseUrl: p.baseUrl }]
        : [],
    );
    const listed = Array.isArray(body.clients)
      ? body.clients.flatMap((c) =>
          isRecord(c) && typeof c.id === 'string' && typeof c.label === 'string' && typeof c.url === 'string' ? [{ id: c.id, label: c.label, url: c.url }] : [],
        )
      : [];
    const clients = listed.length ? listed : [{ id: 'default', label: 'the official SDK client', url: body.url }];
    return { url: body.url, baseUrl: body.baseUrl, peers, clients };
  },
  async ask(orchestratorUrl, text, signal) {
    const id = crypto.randomUUID();
    const res = await fetch(orchestratorUrl, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'message/send',
        params: {
          message: { kind: 'message', role: 'user', messageId: crypto.randomUUID(), parts: [{ kind: 'text', text }] },
          configuration: { blocking: true },
        },
      }),
      ...(signal ? { signal } : {}),
    });
    if (!res.ok) throw await failure(res, 'The orchestrator');
    return replyOf((await res.json()) as unknown);
  },
};

/** The orchestrator's answer (a JSON-RPC response holding a task): its state and its words. */
export function replyOf(body: unknown): OrchestratorReply {
  if (!isRecord(body)) return { state: 'unknown', text: 'The orchestrator answered something that is not JSON-RPC.' };
  if (isRecord(body.error)) return { state: 'error', text: typeof body.error.message === 'string' ? body.error.message.slice(0, 500) : 'error' };
  const t = isRecord(body.result) ? body.result : undefined;
  const status = t && isRecord(t.status) ? t.status : undefined;
  const state = typeof status?.state === 'string' ? status.state : 'unknown';
  const msg = status && isRecord(status.message) && Array.isArray(status.message.parts) ? status.message.parts : [];
  const text = msg
    .map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : ''))
    .join('')
    .slice(0, 2000);
  return { state, text };
}
