// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckResult, TargetInfo } from '../../lib/engine';
import { CardSignals } from './card-signals';

afterEach(cleanup);

const target = (rawCard: unknown) => ({ role: 'agent', rawCard, evidence: [], attempts: [] }) as unknown as TargetInfo;
const verified = (evidence: { label: string; value: string }[], status: CheckResult['status'] = 'pass') =>
  ({ id: 'card.signatures.verified', status, message: 'm', evidence }) as unknown as CheckResult;

describe('CardSignals', () => {
  it('shows each signature with its verification status, and the declared extensions (agent text as text)', () => {
    const card = {
      capabilities: {
        extensions: [
          { uri: 'https://x.test/ext/consent/v1', required: true, description: '<img src=x onerror=alert(1)>', params: { policy: 'v1' } },
          { uri: 'https://x.test/ext/citations/v1' },
        ],
      },
      signatures: [
        { protected: 'e30', signature: 'c2ln' },
        { protected: 'e30', signature: 'c2ln' },
      ],
    };
    const results = [
      verified([
        { label: 'signatures[0] valid', value: 'signatures[0] (kid "k1", ES256): valid: verified with a key from the jku https://x.test/jwks.json' },
        { label: 'signatures[1] invalid', value: 'signatures[1] (kid "k1", ES256): invalid: it does not verify over the card' },
        { label: 'GET https://x.test/jwks.json', value: 'HTTP 200' },
      ]),
    ];
    render(<CardSignals target={target(card)} results={results} />);
    const sigs = within(screen.getByRole('list', { name: 'Card signatures' })).getAllByRole('listitem');
    expect(sigs.map((li) => li.getAttribute('data-status'))).toEqual(['valid', 'invalid']);
    expect(sigs[1]?.textContent).toMatch(/does not verify over the card/);
    const exts = within(screen.getByRole('list', { name: 'Declared extensions' })).getAllByRole('listitem');
    expect(exts[0]?.textContent).toBe('https://x.test/ext/consent/v1 (required): <img src=x onerror=alert(1)> params {"policy":"v1"}');
    expect(exts[1]?.textContent).toBe('https://x.test/ext/citations/v1 (optional)');
    expect(document.querySelector('img')).toBeNull();
  });

  it('a signed card not judged yet says so; a card with neither shows nothing', () => {
    const { rerender, container } = render(<CardSignals target={target({ signatures: [{}] })} results={[]} />);
    expect(screen.getByRole('list', { name: 'Card signatures' }).textContent).toMatch(/pending 1 signature\(s\): not verified yet/);
    rerender(<CardSignals target={target({ name: 'x' })} results={[]} />);
    expect(container.textContent).toBe('');
  });
});
