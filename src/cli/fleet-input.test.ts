import { describe, expect, it } from 'vitest';
import { runTargetOf } from '../features/registry/helpers';
import { RegistryAgent } from '../engine/card/mapper';
import { parseFleetFile, parseShard, registryTarget, resolveCredentials, shardOf } from './fleet-input';

describe('parseFleetFile', () => {
  it('reads a text list: one URL per line, # comments, blank lines; sorted by key, duplicates run once', () => {
    const p = parseFleetFile('# fleet\nhttps://b.example/a2a\n\n  https://a.example/  # first\nhttps://B.example/a2a/\n');
    expect(p.problems).toEqual([]);
    expect(p.agents.map((a) => a.url)).toEqual(['https://a.example/', 'https://b.example/a2a']);
    expect(p.warnings).toEqual(['line 5: same agent as line 2 (https://b.example/a2a); run once.']);
  });

  it('the same URL with another name or credentials is refused (give each an id); with ids both run', () => {
    const two = [
      { url: 'https://a.example/a2a', name: 'as admin', headers: { Authorization: 'Bearer ${ADMIN_TOKEN}' } },
      { url: 'https://a.example/a2a/', name: 'as reader', headers: { Authorization: 'Bearer ${READER_TOKEN}' } },
    ];
    const refused = parseFleetFile(JSON.stringify(two));
    expect(refused.problems).toEqual([
      'entry 2: same URL as entry 1 (https://a.example/a2a) with another name or credentials; give each entry its own "id" to run both.',
    ]);
    const withIds = parseFleetFile(JSON.stringify(two.map((a, i) => ({ ...a, id: `a-${i}` }))));
    expect(withIds.problems).toEqual([]);
    expect(withIds.agents.map((a) => a.key)).toEqual(['a-0', 'a-1']);
    // The very same entry twice still runs once, with a warning.
    const same = parseFleetFile(JSON.stringify([two[0], two[0]]));
    expect(same.problems).toEqual([]);
    expect(same.agents).toHaveLength(1);
    expect(same.warnings).toEqual(['entry 2: same agent as entry 1 (https://a.example/a2a); run once.']);
  });

  it('reads the registry export shapes: stored agents, bare agents, { url, headers }, URLs', () => {
    const stored = {
      id: 'agent:x',
      agent: {
        id: 'agent:x',
        version: '1',
        name: 'X',
        endpoints: [{ protocol: 'a2a', url: 'https://x.example/rpc' }],
        local: { headers: { 'X-API-Key': '${X_KEY}' } },
      },
    };
    const bare = {
      id: 'agent:y',
      version: '1',
      name: 'Y',
      endpoints: [
        { protocol: 'grpc', url: 'https://y.example:50051' },
        { protocol: 'http', url: 'https://y.example/v1' },
      ],
      source: { url: 'https://y.example/.well-known/agent-card.json' },
    };
    const p = parseFleetFile(
      JSON.stringify({ agents: [stored, bare, { url: 'https://z.example', name: 'Z', headers: { Authorization: 'Bearer ${Z_TOKEN}' } }, 'https://w.example'] }),
    );
    expect(p.problems).toEqual([]);
    expect(p.agents).toEqual([
      { key: 'agent:x', url: 'https://x.example/rpc', name: 'X', headers: { 'X-API-Key': '${X_KEY}' } },
      { key: 'agent:y', url: 'https://y.example/.well-known/agent-card.json', name: 'Y', headers: {} },
      { key: 'https://w.example', url: 'https://w.example/', headers: {} },
      { key: 'https://z.example', url: 'https://z.example/', name: 'Z', headers: { Authorization: 'Bearer ${Z_TOKEN}' } },
    ]);
  });

  it('picks the URL of a registry agent as the registry page does (runTargetOf)', () => {
    const agents = [
      {
        id: 'a',
        version: '1',
        name: 'A',
        endpoints: [
          { protocol: 'grpc', url: 'https://a.example:1' },
          { protocol: 'http', url: 'https://a.example/h', priority: 2 },
          { protocol: 'http', url: 'https://a.example/g', priority: 1 },
        ],
      },
      { id: 'b', version: '1', name: 'B', endpoints: [{ protocol: 'a2a', url: 'https://b.example/rpc' }], source: { url: 'https://b.example/card.json' } },
      { id: 'c', version: '1', name: 'C', endpoints: [{ protocol: 'grpc', url: 'https://c.example:1' }] },
      { id: 'd', version: '1', name: 'D', endpoints: [] },
    ].map((a) => RegistryAgent.parse(a));
    for (const a of agents) expect(registryTarget(a as unknown as Record<string, unknown>), a.id).toBe(runTargetOf(a));
  });

  it.each([
    [{ Authorization: 'Bearer abc.def.ghi-123' }, /header Authorization has a literal value/],
    [{ 'X-API-Key': 'sk-live-1234567890' }, /header X-API-Key has a literal value/],
    [{ 'X-Service-Token': 'plain' }, /header X-Service-Token has a literal value/],
    [{ Cookie: 'session=${S} extra' }, /header Cookie has a literal value/],
    [{ Authorization: 'Bearer ${A}', 'X-Tenant': 'acme' }, /one header per agent/],
    [{ 'bad name': '${A}' }, /not a valid header name/],
  ])('refuses %j, never echoing the value', (headers, problem) => {
    const p = parseFleetFile(JSON.stringify([{ url: 'https://a.example', headers }]));
    expect(p.problems.join('\n')).toMatch(problem);
    for (const v of Object.values(headers)) if (v.length > 6) expect(p.problems.join('\n')).not.toContain(v);
  });

  it('accepts references, a scheme word before one, and literal values in headers that carry no credential', () => {
    for (const headers of [{ Authorization: 'Bearer ${TOKEN}' }, { 'X-API-Key': '${KEY}' }, { 'X-Tenant': 'acme' }]) {
      expect(parseFleetFile(JSON.stringify([{ url: 'https://a.example', headers }])).problems).toEqual([]);
    }
  });

  it('refuses credentials in URLs, non-http URLs, bad JSON and empty lists', () => {
    expect(parseFleetFile('https://u:p@a.example/').problems[0]).toMatch(/line 1: the URL carries a credential/);
    expect(parseFleetFile('https://a.example/?api_key=123456789').problems[0]).toMatch(/carries a credential/);
    expect(parseFleetFile('ftp://a.example/').problems[0]).toMatch(/not an http\(s\) URL/);
    expect(parseFleetFile('[1, null]').problems).toEqual([
      'entry 1: expected a URL or an object, got number.',
      'entry 2: expected a URL or an object, got null.',
    ]);
    expect(parseFleetFile('{"agents": 3}').problems[0]).toMatch(/an array, or an object with an "agents" array/);
    expect(parseFleetFile('[{"url": ').problems[0]).toMatch(/does not parse/);
    expect(parseFleetFile('# nothing\n').problems).toEqual(['The file lists no agents.']);
    expect(parseFleetFile('[{"id": "agent:z", "endpoints": []}]').problems[0]).toMatch(/entry 1 \(agent:z\): no URL to run/);
  });
});

describe('shards', () => {
  it('parses I/N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'a/b', '1', '-1/2']) expect(parseShard(bad), bad).toBeUndefined();
  });

  it.each([1, 2, 3, 7, 50])('shards of %i partition the list, balanced, in order', (total) => {
    const list = Array.from({ length: 50 }, (_, i) => i);
    const parts = Array.from({ length: total }, (_, i) => shardOf(list, { index: i + 1, total }));
    expect(parts.flat().sort((a, b) => a - b)).toEqual(list);
    const sizes = parts.map((p) => p.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    expect(shardOf(list, { index: 1, total })).toEqual(parts[0]);
  });
});

describe('resolveCredentials', () => {
  const agent = (headers: Record<string, string>) => ({ key: 'k', url: 'https://a.example/', headers });
  it('fills references from the environment: Authorization Bearer is a bearer token, others a header', () => {
    expect(resolveCredentials(agent({ Authorization: 'Bearer ${T}' }), { T: 'tok' })).toEqual({
      credentials: { kind: 'bearer', token: 'tok' },
      secrets: ['tok'],
    });
    expect(resolveCredentials(agent({ 'X-API-Key': '${K}' }), { K: 'key' })).toEqual({
      credentials: { kind: 'header', name: 'X-API-Key', value: 'key' },
      secrets: ['key'],
    });
    expect(resolveCredentials(agent({}), {})).toEqual({ credentials: { kind: 'none' }, secrets: [] });
  });
  it('names the variables that are not set (empty counts as not set)', () => {
    expect(resolveCredentials(agent({ Authorization: 'Bearer ${T}' }), { T: '' })).toEqual({ missing: ['T'] });
  });
});
