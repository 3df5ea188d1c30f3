import { describe, expect, it } from 'vitest';
import { checkCard, importCard, RegistryAgent } from '../../lib/registry-db';
import { sampleCard } from '../../testing/fake-host';
import { canExportV03, exportCardV03, v03Endpoints } from './card-v03';

const agent = (extra: Partial<RegistryAgent>) => RegistryAgent.parse({ id: 'agent:x', version: '1.0.0', name: 'X', ...extra });

describe('v0.3 card export', () => {
  it('round-trips a v0.3 card through the registry and passes every card check that applies, read as v0.3', async () => {
    const raw = {
      ...sampleCard('v0.3', 'https://x.example'),
      additionalInterfaces: [
        { url: 'https://x.example/rpc', transport: 'JSONRPC' },
        { url: 'https://x.example/rest', transport: 'HTTP+JSON' },
      ],
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Ask ops.' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      security: [{ key: [] }],
      provider: { organization: 'Example Org', url: 'https://example.com' },
    };
    const { agent: imported } = importCard(raw, { sourceUrl: 'https://x.example/.well-known/agent-card.json' });
    const card = exportCardV03(imported);
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'https://x.example/rpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'https://x.example/rpc', transport: 'JSONRPC' },
        { url: 'https://x.example/rest', transport: 'HTTP+JSON' },
      ],
      securitySchemes: {
        key: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Ask ops.' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
      security: [{ key: [] }],
      provider: { organization: 'Example Org', url: 'https://example.com' },
      capabilities: { streaming: true, pushNotifications: false },
    });
    expect(card).not.toHaveProperty('supportedInterfaces');
    const v = await checkCard(card);
    expect(v.generation).toBe('v0.3');
    expect(v.failures).toEqual([]);
    expect(v.passed).toBe(v.judged);
  });

  it('lists only the 0.3 interfaces of an agent that also serves 1.0; none to offer when it serves 1.0 only', () => {
    const both = agent({
      endpoints: [
        { protocol: 'a2a', url: 'https://x.example/v1', priority: 0, protocolVersion: '1.0' },
        { protocol: 'a2a', url: 'https://x.example/v03', priority: 1, protocolVersion: '0.3' },
      ],
      capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true },
    });
    expect(v03Endpoints(both).map((e) => e.url)).toEqual(['https://x.example/v03']);
    expect(exportCardV03(both)).toMatchObject({ url: 'https://x.example/v03', supportsAuthenticatedExtendedCard: true });
    const v1only = agent({ endpoints: [{ protocol: 'a2a', url: 'https://x.example/v1', priority: 0 }] });
    expect(canExportV03(v1only)).toBe(false);
    expect(() => exportCardV03(v1only)).toThrow(/no interface serving A2A 0\.3/);
    // A v0.2 interface is 0.x: offered when nothing serves 0.3 exactly.
    expect(canExportV03(agent({ endpoints: [{ protocol: 'a2a', url: 'https://x.example/old', priority: 0, protocolVersion: '0.2' }] }))).toBe(true);
  });

  it('maps every v1.0 security scheme wrapper to its v0.3 type, and drops requirements on unknown schemes', () => {
    const card = exportCardV03(
      agent({
        endpoints: [{ protocol: 'http', url: 'https://x.example/rest', priority: 0, protocolVersion: '0.3' }],
        securitySchemes: {
          o: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl: 'https://x.example/token', scopes: {} } } } },
          oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'https://x.example/.well-known/openid-configuration' } },
          m: { mtlsSecurityScheme: {} },
          weird: { somethingElse: {} },
        },
        security: ['o', 'weird'],
      }),
    );
    expect(card.preferredTransport).toBe('HTTP+JSON');
    expect(card.securitySchemes).toEqual({
      o: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://x.example/token', scopes: {} } } },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://x.example/.well-known/openid-configuration' },
      m: { type: 'mutualTLS' },
    });
    expect(card.security).toEqual([{ o: [] }]);
  });
});
