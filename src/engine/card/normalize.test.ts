import { describe, expect, it } from 'vitest';
import { sampleCard } from '../../testing/fake-host';
import { fixupApplies, normalizeCard, type Fixup } from './normalize';

const at = (fx: Fixup[], path: string) => fx.filter((f) => f.path === path);

describe('normalizeCard: repairs are recorded only where they are defects', () => {
  it('unknown capability members are neither coerced nor recorded (no schema forbids them)', () => {
    const card = normalizeCard({ ...sampleCard('v0.3'), capabilities: { streaming: true, 'x-rateLimit': { rpm: 60 }, sse: 'yes', constructor: 'x' } });
    expect(card.fixups.filter((f) => f.path.startsWith('capabilities'))).toEqual([]);
    expect(card.capabilities.streaming).toBe(true);
  });

  it('generation-specific capability flags carry the generations they are judged in', () => {
    const { fixups } = normalizeCard({ ...sampleCard('v0.3'), capabilities: { stateTransitionHistory: 'no', extendedAgentCard: 'yes', streaming: 'on' } });
    const sth = at(fixups, 'capabilities.stateTransitionHistory')[0]!;
    const eac = at(fixups, 'capabilities.extendedAgentCard')[0]!;
    const str = at(fixups, 'capabilities.streaming')[0]!;
    expect([fixupApplies(sth, 'v0.3'), fixupApplies(sth, 'legacy'), fixupApplies(sth, 'v1.0')]).toEqual([true, true, false]);
    expect([fixupApplies(eac, 'v0.3'), fixupApplies(eac, 'v1.0')]).toEqual([false, true]);
    expect((['legacy', 'v0.2', 'v0.3', 'v1.0'] as const).every((g) => fixupApplies(str, g))).toBe(true);
  });

  it('an extension without uri is a defect in v0.2/v0.3 only; extensions are not judged in legacy', () => {
    const { fixups } = normalizeCard({ ...sampleCard('v1.0'), capabilities: { extensions: [{ description: 'd' }] } });
    const uri = at(fixups, 'capabilities.extensions[0].uri')[0]!;
    expect(uri.only).toEqual(['v0.2', 'v0.3']);
    const bad = normalizeCard({ ...sampleCard('legacy'), capabilities: { extensions: 'none' } }).fixups;
    expect(bad.filter((f) => fixupApplies(f, 'legacy'))).toEqual([]);
  });

  it('provider: null is read as absent, without a repair', () => {
    const card = normalizeCard({ ...sampleCard('legacy'), provider: null });
    expect(card.provider).toBeUndefined();
    expect(at(card.fixups, 'provider')).toEqual([]);
  });

  it('null skill modes mean "the defaults apply" (undefined), not "accepts nothing" ([])', () => {
    const card = normalizeCard({ ...sampleCard('legacy'), skills: [{ id: 'a', name: 'A', inputModes: null, outputModes: null }] });
    expect(card.skills[0]!.inputModes).toBeUndefined();
    expect(card.skills[0]!.outputModes).toBeUndefined();
    expect(card.fixups).toEqual([]);
  });

  it('legacy authentication repairs are judged only in legacy; securitySchemes repairs only from v0.2', () => {
    const { fixups } = normalizeCard({ ...sampleCard('legacy'), authentication: { schemes: 'bearer' }, securitySchemes: { a: 'x' } });
    expect(at(fixups, 'authentication.schemes')[0]!.only).toEqual(['legacy']);
    expect(fixupApplies(at(fixups, 'securitySchemes.a')[0]!, 'legacy')).toBe(false);
    expect(fixupApplies(at(fixups, 'securitySchemes.a')[0]!, 'v0.3')).toBe(true);
  });
});
