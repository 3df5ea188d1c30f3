import { describe, expect, it } from 'vitest';
import { fakeHost, json } from '../../testing/fake-host';
import { cardChecks } from '../checks/card';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { exportCard, importCard, logEntry, MAPPER_ID, RegistryAgent, synthesizeId } from './mapper';

/** A registry entry like the export example of the mapper document (docs/conformance-procedure.md#card-mapper). */
const bayArm: RegistryAgent = RegistryAgent.parse({
  id: 'agent:robot.bay.arm.v1',
  version: '1.0.0',
  name: 'bay-arm',
  description: 'Fixed-base lab manipulator. Pick-and-place on a declared site.',
  provider: { organization: 'lab' },
  endpoints: [
    { protocol: 'grpc', url: 'https://robots.example/bay-arm/grpc', priority: 0 },
    { protocol: 'http', url: 'https://robots.example/bay-arm', priority: 0 },
  ],
  capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
  inputModes: ['text/plain', 'application/json'],
  outputModes: ['text/plain', 'application/json'],
  skills: [
    { id: 'pick-place', name: 'Pick and place', description: 'Grasp a known object and place it at a taught pose', tags: ['manipulation', 'pick-place'] },
  ],
  local: { physical: { payloadKg: 3, reachMm: 850 } },
});

/** An external card like the mapper document's import example (v0.3-style security inside a v1.0 card, as found in the wild). */
const geoResearch = {
  name: 'geo-research',
  description: 'External A2A research agent. Accepts a topic and returns a sourced brief.',
  version: '1.2.0',
  url: 'https://a2a.example/geo-research',
  supportedInterfaces: [{ url: 'https://a2a.example/geo-research', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
  defaultInputModes: ['application/json'],
  defaultOutputModes: ['application/json'],
  skills: [{ id: 'research', name: 'Topic research', description: 'Map a topic to primary sources', tags: ['research', 'literature'] }],
  provider: { organization: 'a2a-example' },
  securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  security: [{ apiKey: [] }],
};

describe('card mapper (seed 002)', () => {
  it('exports the internal agent as a v1.0 card: http before grpc, platform fields stay internal', () => {
    const card = exportCard(bayArm);
    expect(card.supportedInterfaces).toEqual([
      { url: 'https://robots.example/bay-arm', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'https://robots.example/bay-arm/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    ]);
    expect(card.capabilities).toEqual({ streaming: false, pushNotifications: false, extendedAgentCard: false });
    expect(card).not.toHaveProperty('url'); // v1.0 has no top-level url (a2a.proto); the mapper document's example had one
    expect(JSON.stringify(card)).not.toContain('payloadKg');
    expect((card.provider as { organization: string }).organization).toBe('lab');
  });

  it('an exported card passes every card check of our own suite, strict lint included', async () => {
    const card = exportCard(bayArm);
    const { host } = fakeHost((req) =>
      new URL(req.url).pathname === '/.well-known/agent-card.json'
        ? json(card, { headers: { 'cache-control': 'max-age=60', etag: '"1"' } })
        : new Response('', { status: 404 }),
    );
    const report = await runConformance(host, { agentUrl: 'https://robots.example', only: cardChecks.map((c) => c.id) }, () => {});
    const bad = reportResults(report).filter((r) => r.status === 'fail' || r.status === 'error');
    expect(bad.map((r) => `${r.id}: ${r.message}`)).toEqual([]);
    expect(report.protocol.generation).toBe('v1.0');
  });

  it('imports an external card as a stub: id from source URL + name, v0.3-style security converted to the v1.0 shape', () => {
    const { agent, generation } = importCard(geoResearch, { sourceUrl: 'https://a2a.example/geo-research', now: () => '2026-11-29T00:00:00.000Z' });
    expect(generation).toBe('v1.0');
    expect(agent.id).toBe('agent:a2a.example.geo-research');
    expect(agent.version).toBe('1.2.0');
    expect(agent.endpoints).toEqual([{ protocol: 'a2a', url: 'https://a2a.example/geo-research', priority: 0, binding: 'JSONRPC', protocolVersion: '1.0' }]);
    expect(agent.securitySchemes).toEqual({ apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } });
    expect(agent.security).toEqual(['apiKey']);
    const again = exportCard(agent);
    expect(again.securityRequirements).toEqual([{ schemes: { apiKey: { list: [] } } }]);
  });

  it('keeps richer local fields on re-import unless asked to overwrite', () => {
    const card = exportCard(bayArm);
    const kept = importCard({ ...card, version: '1.1.0' }, { existing: bayArm }).agent;
    expect(kept.id).toBe(bayArm.id);
    expect(kept.version).toBe('1.1.0');
    expect(kept.local).toEqual(bayArm.local);
    const replaced = importCard(card, { existing: bayArm, overwrite: true }).agent;
    expect(replaced.local).toEqual({});
  });

  it('round trip internal -> card -> internal keeps what a card can carry', () => {
    const back = importCard(exportCard(bayArm), { existing: bayArm }).agent;
    const strip = (a: RegistryAgent) => ({
      ...a,
      source: undefined,
      endpoints: a.endpoints.map((e) => ({ url: e.url, protocol: e.protocol })).sort((x, y) => x.url.localeCompare(y.url)),
    });
    expect(strip(back)).toEqual({ ...strip(bayArm), provider: { organization: 'lab', url: 'https://robots.example/bay-arm' } });
  });

  it('imports legacy and v0.3 cards, and garbage, without throwing', () => {
    const legacy = importCard({
      name: 'Old',
      url: 'http://old.example/',
      version: '1',
      capabilities: { streaming: true },
      skills: [{ id: 'a', name: 'A' }],
      authentication: { schemes: ['bearer'] },
    });
    expect(legacy.generation).toBe('legacy');
    expect(legacy.agent.capabilities.streaming).toBe(true);
    const junk = importCard('not a card');
    expect(junk.agent.name).toBe('Unnamed agent');
    expect(junk.warnings.length).toBeGreaterThan(0);
  });

  it('a v0.3 card that repeats its main url in additionalInterfaces gives one endpoint per url and binding', () => {
    const { agent, generation } = importCard({
      name: 'V03',
      description: 'd',
      url: 'http://v03.example/jsonrpc',
      version: '1.0.0',
      protocolVersion: '0.3.0',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'http://v03.example/jsonrpc', transport: 'JSONRPC' },
        { url: 'http://v03.example/rest', transport: 'HTTP+JSON' },
      ],
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [],
    });
    expect(generation).toBe('v0.3');
    expect(agent.endpoints.map((e) => [e.protocol, e.url, e.binding, e.protocolVersion])).toEqual([
      ['a2a', 'http://v03.example/jsonrpc', 'JSONRPC', '0.3'],
      ['http', 'http://v03.example/rest', 'HTTP+JSON', '0.3'],
    ]);
  });

  it('ids and log entries', () => {
    expect(synthesizeId('Geo Research!!', 'https://A2A.example:8443/x')).toBe('agent:a2a.example.geo-research');
    expect(logEntry('export', bayArm, 'A2A v1.0', undefined, 't')).toEqual({
      when: 't',
      dir: 'export',
      type: 'A2A v1.0',
      agent: 'agent:robot.bay.arm.v1@1.0.0',
      schema: MAPPER_ID,
      source: undefined,
    });
  });
});
