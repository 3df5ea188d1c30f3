import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../../lib/engine';
import { orderLike, pathKey, pathSegments, verdictsByPath } from './paths';

describe('card field paths', () => {
  it('reads JSON pointers and dotted paths alike', () => {
    expect(pathSegments('/skills/0/name')).toEqual(['skills', '0', 'name']);
    expect(pathSegments('skills[0].name')).toEqual(['skills', '0', 'name']);
    expect(pathSegments('$.capabilities.streaming')).toEqual(['capabilities', 'streaming']);
    expect(pathSegments('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(pathSegments('/')).toEqual([]);
    expect(pathKey(pathSegments('skills[1]'))).toBe('/skills/1');
  });
  it('puts each card check verdict on the field it concerns, and path-less ones on the card', () => {
    const r = (id: string, status: CheckResult['status'], path?: string): CheckResult => ({
      id,
      test: id,
      category: 'agent-card',
      status,
      level: 'MUST',
      tier: 'card',
      message: `${id} ${status}`,
      duration_ms: 1,
      evidence: path ? [{ label: 'x', value: 'y', path }] : [],
    });
    const m = verdictsByPath([
      r('a', 'fail', 'skills[0].tags'),
      r('b', 'pass', '/skills/0/tags'),
      r('c', 'pass'),
      { ...r('d', 'fail', '/x'), category: 'lifecycle' },
    ]);
    expect(m.get('/skills/0/tags')?.map((v) => v.checkId)).toEqual(['a', 'b']);
    expect(m.get('/')?.map((v) => v.checkId)).toEqual(['c']);
    expect(m.has('/x')).toBe(false);
  });
});

describe('orderLike', () => {
  it('puts keys back in the order of the card as received, recursively, keeping extra keys last', () => {
    const stored = { skills: [{ name: 'n', id: 'i' }], version: '1', name: 'A', extra: true };
    const received = { name: 'A', version: '1', skills: [{ id: 'i', name: 'n' }] };
    const out = orderLike(stored, received) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['name', 'version', 'skills', 'extra']);
    expect(Object.keys((out.skills as Record<string, unknown>[])[0]!)).toEqual(['id', 'name']);
    expect(orderLike('x', received)).toBe('x');
  });
});
