import { describe, expect, it } from 'vitest';
import { PROXY_ERROR_HEADER, timerSleep, type Host } from './engine';
import { CardError, previewCard, proxyEndpoint } from './engine-adapter';

function hostFor(routes: Record<string, () => Response>): Host & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    now: Date.now,
    sleep: timerSleep,
    randomUUID: () => 'u',
    fetch: async (url) => {
      seen.push(url);
      return (routes[url] ?? (() => new Response('not here', { status: 404 })))();
    },
  };
}

describe('card preview discovery', () => {
  it('falls back to the legacy well-known path and lists the skills', async () => {
    const host = hostFor({
      'http://a.test/x/.well-known/agent.json': () => Response.json({ name: 'Legacy', skills: [{ id: 's1', name: 'One' }, { id: 's2' }, { name: 'no id' }] }),
    });
    const p = await previewCard(host, 'http://a.test/x');
    expect(host.seen[0]).toBe('http://a.test/x/.well-known/agent-card.json');
    expect(p.target.cardUrl).toBe('http://a.test/x/.well-known/agent.json');
    expect(p.target.cardSource).toBe('agent.json');
    expect(p.skills).toEqual([
      { id: 's1', name: 'One' },
      { id: 's2', name: 's2' },
    ]);
  });

  it('says which paths were tried when there is no card, and blames the proxy when the proxy failed', async () => {
    const none = previewCard(hostFor({}), 'http://b.test/');
    await expect(none).rejects.toBeInstanceOf(CardError);
    await expect(none).rejects.toThrow(/agent-card\.json → 404.*agent\.json → 404/);
    const viaProxy = hostFor({});
    viaProxy.fetch = async () => new Response('{}', { status: 502, headers: { [PROXY_ERROR_HEADER]: 'connect_failed' } });
    await expect(previewCard(viaProxy, 'http://c.test/')).rejects.toMatchObject({ kind: 'proxy' });
  });

  it('uses the same-origin proxy unless another is set', () => {
    expect(proxyEndpoint('')).toBe('/proxy');
    expect(proxyEndpoint(' https://proxy.example/proxy/ ')).toBe('https://proxy.example/proxy');
  });
});
