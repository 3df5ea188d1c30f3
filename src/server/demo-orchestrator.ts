/**
 * The two-agent demo's agent A on the local server (issue 26): the demo orchestrator mounted once per official SDK
 * client (`/demo/orchestrator`, `/demo/orchestrator-v1`) and its listing at `/api/demo-orchestrator` (where it is, and
 * the demo agents it may ask as agent B).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MountedDemoAgent } from '../demo-agents';
import { createOrchestratorDemoAgent, ORCHESTRATOR_CLIENTS, ORCHESTRATOR_PATH, ORCHESTRATOR_V1_PATH } from '../demo-agents/orchestrator-agent';

/** The two-agent demo's agent A, as /api/demo-orchestrator lists it: where it is, and the agents it may ask. */
export interface DemoOrchestratorListing {
  baseUrl: string;
  url: string;
  cardUrl: string;
  /** Demo agents to put behind a tap as agent B (the SDK and wire-level ones; the OAuth one needs a token A has not). */
  peers: { id: string; label: string; baseUrl: string }[];
  /** Agent A with each official SDK client (the first is `url` / `baseUrl` above). */
  clients: { id: '0.3' | '1.x'; label: string; baseUrl: string; url: string }[];
}

/** Mounts agent A with each SDK client (pushed onto `mounted`); `agents` are the demo agents already mounted. */
export function mountDemoOrchestrator(
  origin: string,
  agents: readonly { id: string; label: string; baseUrl: string }[],
  mounted: MountedDemoAgent[],
): DemoOrchestratorListing {
  const peers = agents.filter((a) => a.id !== 'oauth').map((a) => ({ id: a.id, label: a.label, baseUrl: a.baseUrl }));
  const examplePeerUrl = peers.find((p) => p.id === 'v03')?.baseUrl;
  const clients = (
    [
      ['0.3', ORCHESTRATOR_PATH],
      ['1.x', ORCHESTRATOR_V1_PATH],
    ] as const
  ).map(([client, path]) => {
    const agent = createOrchestratorDemoAgent({ basePath: path, publicUrl: `${origin}${path}`, examplePeerUrl, client });
    mounted.push(agent);
    return { id: client, label: ORCHESTRATOR_CLIENTS[client], baseUrl: `${origin}${path}`, url: agent.url, cardUrl: agent.cardUrl };
  });
  const first = clients[0]!;
  return { baseUrl: first.baseUrl, url: first.url, cardUrl: first.cardUrl, peers, clients: clients.map(({ cardUrl: _card, ...c }) => c) };
}

/** `GET /api/demo-orchestrator`: the listing, or 404 when no demo agents are served. */
export function serveDemoOrchestrator(req: IncomingMessage, res: ServerResponse, listing: DemoOrchestratorListing | undefined): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD' }).end();
    return;
  }
  if (!listing) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'no demo agents are served here' }));
    return;
  }
  const body = JSON.stringify(listing);
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache', 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}
