/** Deep links: `?agent=<url>&peer=<url>&run=1` fill the Run form (and start). Never credentials. */
export interface RunLink {
  agent?: string;
  peer?: string;
  run: boolean;
}

const MAX = 2048;

export function parseRunLink(search: URLSearchParams): RunLink {
  const clip = (v: string | null) => (v && v.trim() ? v.trim().slice(0, MAX) : undefined);
  return { agent: clip(search.get('agent')), peer: clip(search.get('peer')), run: search.get('run') === '1' };
}

/** The shareable link of a run setup. Credentials are never part of it. */
export function buildRunLink(base: string, setup: { agent: string; peer?: string; run?: boolean }): string {
  const u = new URL(base);
  u.search = '';
  u.hash = '';
  u.pathname = '/';
  if (setup.agent) u.searchParams.set('agent', setup.agent);
  if (setup.peer) u.searchParams.set('peer', setup.peer);
  if (setup.run !== false) u.searchParams.set('run', '1');
  return u.toString();
}
