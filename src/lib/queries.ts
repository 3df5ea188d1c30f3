import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { checkProxyHealth, createHost, previewCard, type HostSettings } from './engine-adapter';

/** Server state: demo agents, proxy health and the card preview (TanStack Query; run state lives in the run store). */

export const DemoAgent = z.object({
  id: z.string(),
  label: z.string(),
  /** Preferred endpoint. */
  url: z.string(),
  /** Base URL (discovery starts here); preferred for the form when present. */
  baseUrl: z.string().optional(),
  cardUrl: z.string().optional(),
  generation: z.string().optional(),
  expectedLevel: z.string().optional(),
  expectedLevelWhy: z.string().optional(),
  /** The demo's own client credentials (the OAuth demo), filled in when it is picked. */
  demoCredentials: z.object({ kind: z.literal('oauth2'), clientId: z.string().max(200), clientSecret: z.string().max(200) }).optional(),
});
export type DemoAgent = z.infer<typeof DemoAgent>;

/** Lenient: the list is optional (a static deployment has no demo agents); extra fields are ignored. */
async function fetchDemoAgents(signal?: AbortSignal): Promise<DemoAgent[]> {
  const res = await fetch('/api/demo-agents', { signal, headers: { accept: 'application/json' } });
  if (!res.ok) throw new Error(`GET /api/demo-agents answered HTTP ${res.status}`);
  if (!/json/i.test(res.headers.get('content-type') ?? '')) throw new Error('No demo agents are served here (start the dashboard with npm start).');
  const body = (await res.json()) as unknown;
  const list = Array.isArray(body) ? body : (body as { agents?: unknown })?.agents;
  if (!Array.isArray(list)) throw new Error('Unexpected demo agent list');
  return list.flatMap((a) => {
    const p = DemoAgent.safeParse(a);
    return p.success ? [p.data] : [];
  });
}

const demoAgentsQuery = () => queryOptions({ queryKey: ['demo-agents'], queryFn: ({ signal }) => fetchDemoAgents(signal), staleTime: Infinity });

export const useDemoAgents = () => useQuery(demoAgentsQuery());

const proxyHealthQuery = (proxyUrl: string, enabled: boolean) =>
  queryOptions({
    queryKey: ['proxy-health', proxyUrl],
    queryFn: ({ signal }) => checkProxyHealth(proxyUrl, signal),
    enabled,
    staleTime: 10_000,
  });

export const useProxyHealth = (proxyUrl: string, enabled: boolean) => useQuery(proxyHealthQuery(proxyUrl, enabled));

const cardPreviewQuery = (url: string | null, settings: HostSettings) =>
  queryOptions({
    queryKey: ['card-preview', url, settings.mode, settings.proxyUrl ?? ''],
    queryFn: ({ signal }) => previewCard(createHost(settings), url!, signal),
    enabled: url !== null,
    staleTime: 60_000,
  });

export const useCardPreview = (url: string | null, settings: HostSettings) => useQuery(cardPreviewQuery(url, settings));
