import { describe, expect, it } from 'vitest';
import { exportCard, RegistryAgent } from '../../lib/registry-db';
import { agentFromDraft, draftOf, parseLocal } from './agent-form';

const bayArm = RegistryAgent.parse({
  id: 'agent:robot.bay.arm.v1',
  version: '1.0.0',
  name: 'bay-arm',
  description: 'Fixed-base lab manipulator.',
  provider: { organization: 'lab' },
  endpoints: [
    { protocol: 'grpc', url: 'https://robots.example/bay-arm/grpc', priority: 0 },
    { protocol: 'a2a', url: 'https://robots.example/bay-arm/rpc', priority: 1, binding: 'JSONRPC', protocolVersion: '0.3', tenant: 't1' },
  ],
  skills: [{ id: 'pick-place', name: 'Pick and place', description: 'Grasp', tags: ['manipulation', 'grasp'], examples: ['pick the red cube'] }],
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } } },
  security: ['apiKey'],
  local: { physical: { payloadKg: 3 } },
});

describe('agent edit form model', () => {
  it('round-trips an agent unchanged through the form (hidden fields kept: binding, tenant, examples, provider, security)', () => {
    const r = agentFromDraft(draftOf(bayArm), bayArm);
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.agent).toEqual(bayArm);
  });

  it('applies edits: lists split on commas, capabilities, local fields parsed; a changed protocol drops the old binding', () => {
    const d = draftOf(bayArm);
    d.name = '  bay-arm 2 ';
    d.inputModes = 'text/plain, application/json,,';
    d.streaming = true;
    d.local = '{"team": "ops"}';
    d.endpoints[1] = { ...d.endpoints[1]!, protocol: 'http' };
    d.skills[0] = { ...d.skills[0]!, tags: 'a, b' };
    const r = agentFromDraft(d, bayArm);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.agent.name).toBe('bay-arm 2');
    expect(r.agent.inputModes).toEqual(['text/plain', 'application/json']);
    expect(r.agent.capabilities.streaming).toBe(true);
    expect(r.agent.local).toEqual({ team: 'ops' });
    expect(r.agent.endpoints[1]).toEqual({ protocol: 'http', url: 'https://robots.example/bay-arm/rpc', priority: 1 });
    expect(r.agent.skills[0]!.tags).toEqual(['a', 'b']);
    expect(r.agent.skills[0]!.examples).toEqual(['pick the red cube']);
    expect((exportCard(r.agent).supportedInterfaces as { protocolBinding: string }[])[0]!.protocolBinding).toBe('HTTP+JSON');
  });

  it('reports every problem at once and keeps the id fixed for an existing agent', () => {
    const d = draftOf(bayArm);
    d.id = 'agent:renamed';
    d.name = ' ';
    d.version = '';
    d.endpoints[0] = { ...d.endpoints[0]!, url: 'javascript:alert(1)', priority: '1.5' };
    d.skills.push({ id: 'pick-place', name: '', description: '', tags: '' });
    d.local = '[1, 2]';
    const r = agentFromDraft(d, bayArm);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.field).sort()).toEqual([
      'endpoints.0.priority',
      'endpoints.0.url',
      'local',
      'name',
      'skills.1.id',
      'skills.1.name',
      'version',
    ]);
    expect(r.errors.find((e) => e.field === 'local')!.message).toContain('must be a JSON object');
    d.name = 'ok';
    d.version = '2';
    d.endpoints[0] = { ...d.endpoints[0]!, url: 'https://x.example/a2a', priority: '0' };
    d.skills.pop();
    d.local = '{}';
    const fixed = agentFromDraft(d, bayArm);
    expect(fixed.ok && fixed.agent.id).toBe('agent:robot.bay.arm.v1');
  });

  it('a new agent gets a synthesized id when none is given, and may not take an id already registered', () => {
    const d = draftOf();
    d.name = 'Geo Research';
    d.endpoints[0]!.url = 'https://a2a.example/geo';
    const r = agentFromDraft(d);
    expect(r.ok && r.agent.id).toBe('agent:a2a.example.geo-research');
    expect(r.ok && r.agent.source).toBeUndefined();
    const taken = agentFromDraft(d, undefined, ['agent:a2a.example.geo-research']);
    expect(taken.ok).toBe(false);
    if (!taken.ok) expect(taken.errors[0]!.field).toBe('id');
    d.id = 'agent:mine';
    expect(agentFromDraft(d, undefined, ['agent:a2a.example.geo-research']).ok).toBe(true);
  });

  it('parses local fields: empty is {}, invalid JSON says why', () => {
    expect(parseLocal('  ')).toEqual({ ok: true, value: {} });
    expect(parseLocal('{"a": {"b": [1]}}')).toEqual({ ok: true, value: { a: { b: [1] } } });
    const bad = parseLocal('{"a": ');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/not valid JSON/);
    expect(parseLocal('null').ok).toBe(false);
    expect(parseLocal('"x"').ok).toBe(false);
  });
});
