import { describe, expect, it } from 'vitest';
import { boundedClone } from './json';

describe('boundedClone', () => {
  it('keeps the order of object keys and array items (a card is shown in its own field order)', () => {
    const card = { name: 'A', description: 'B', supportedInterfaces: [{ url: 'u', protocolBinding: 'JSONRPC' }], version: '1', skills: [{ id: 's' }] };
    const c = boundedClone(card) as Record<string, unknown>;
    expect(Object.keys(c)).toEqual(['name', 'description', 'supportedInterfaces', 'version', 'skills']);
    expect(c).toEqual(card);
    expect(Object.keys((c.supportedInterfaces as Record<string, unknown>[])[0]!)).toEqual(['url', 'protocolBinding']);
  });

  it('spends its node budget on the first fields: the last ones are cut, never the first', () => {
    const big = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, { deep: i }]));
    const c = boundedClone(big, { maxNodes: 10 }) as Record<string, unknown>;
    expect(Object.keys(c)[0]).toBe('k0');
    expect(c.k0).toEqual({ deep: 0 });
    expect(c.k19).toBe('[too large: cut]');
  });

  it('bounds depth and strings', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 50; i++) deep = { d: deep };
    expect(JSON.stringify(boundedClone(deep, { maxDepth: 3 }))).toBe('{"d":{"d":{"d":"[nested too deep: cut]"}}}');
    expect(boundedClone('abcdef', { maxString: 3 })).toBe('abc… [3 more chars]');
  });
});
