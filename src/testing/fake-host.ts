import { timerSleep, type Host } from '../engine/ports';

export type Route = (req: Request) => Response | Promise<Response>;

/**
 * An in-memory Host for engine unit tests: requests go to `route` instead of the network.
 * Every request is recorded. Real timers by default; pass `sleep`/`now` to use fake ones.
 */
export function fakeHost(route: Route, opts: Partial<Pick<Host, 'now' | 'sleep'>> = {}) {
  const requests: Request[] = [];
  let n = 0;
  const host: Host = {
    fetch: async (url, init) => {
      const req = new Request(url, init);
      requests.push(req.clone());
      if (init.signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      return route(req);
    },
    now: opts.now ?? (() => Date.now()),
    sleep: opts.sleep ?? timerSleep,
    randomUUID: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
    transport: 'direct',
    // Scripted agents live at made-up http names (http://agent.test); the https-or-loopback rule has its own tests.
    allowInsecureCredentials: true,
  };
  return { host, requests };
}

export const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), { status: 200, ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } });

/** A minimal valid card per generation, for tests to mutate. */
export function sampleCard(generation: 'legacy' | 'v0.3' | 'v1.0', base = 'http://agent.test'): Record<string, unknown> {
  const skills = [{ id: 'echo', name: 'Echo', description: 'Echoes text', tags: ['demo'], examples: ['hello'] }];
  if (generation === 'legacy') {
    return { name: 'Legacy', url: `${base}/`, version: '1.0.0', capabilities: { streaming: false }, skills: [{ id: 'echo', name: 'Echo' }] };
  }
  if (generation === 'v0.3') {
    return {
      name: 'V03',
      description: 'A v0.3 agent',
      url: `${base}/rpc`,
      version: '1.0.0',
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      capabilities: { streaming: true, pushNotifications: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills,
    };
  }
  return {
    name: 'V1',
    description: 'A v1.0 agent',
    supportedInterfaces: [{ url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
  };
}
