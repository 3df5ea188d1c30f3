// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../lib/engine';
import { withRun } from '../../lib/testing';
import { syntheticRun } from '../../testing/fixtures/events';
import { FailedTests } from './failed-tests';
import { VerdictCard } from './verdict-card';

afterEach(cleanup);

/** A clean synthetic run plus one security finding (agent text included) before the run ends. */
function withFinding(): RunEvent[] {
  const events = syntheticRun();
  const end = events.findIndex((e) => e.type === 'run-finished');
  const at = events[end]?.at ?? 0;
  const finding: RunEvent[] = [
    { type: 'check-started', at, checkId: 'security.card.secrets', title: 'The public card carries no secrets', category: 'security', level: 'MAY' },
    {
      type: 'check-finished',
      at,
      result: {
        id: 'security.card.secrets',
        test: 'The public card carries no secrets',
        category: 'security',
        status: 'advisory',
        level: 'MAY',
        tier: 'advisory',
        message: '1 value in the public card looks like a secret (<b>description</b>).',
        duration_ms: 1,
        recommendation: 'Remove the value from the card and revoke it now.',
        evidence: [{ label: 'description', value: 'an AWS access key id: AKIA… (20 characters, masked)', path: 'description' }],
        advisoryReason: 'Security review: informational.',
      },
    },
  ];
  return [...events.slice(0, end), ...finding, ...events.slice(end)];
}

describe('the security review in the results', () => {
  it('is listed apart as informational, with evidence and fix, and never as a failure or an advisory; the level is unchanged', () => {
    const { element } = withRun(
      withFinding(),
      <>
        <VerdictCard />
        <FailedTests />
      </>,
    );
    render(element);
    expect(screen.getByRole('status', { name: 'Conformance level' }).textContent).toContain('full');
    const section = screen.getByRole('heading', { name: 'Security review (1)' }).closest('section');
    expect(section?.textContent).toMatch(/never change the conformance level/);
    expect(section?.textContent).toContain('<b>description</b>');
    expect(section?.querySelector('b')).toBeNull();
    expect(section?.textContent).toContain('AKIA… (20 characters, masked)');
    expect(section?.textContent).toContain('Fix: Remove the value');
    expect(screen.queryByRole('heading', { name: /Advisories/ })).toBeNull();
    expect(screen.queryByRole('table', { name: 'Failed tests' })).toBeNull();
    const tiles = within(screen.getByRole('list', { name: 'Results by category' })).getAllByRole('listitem');
    expect(tiles).toHaveLength(6);
    expect(tiles[5]?.textContent).toMatch(/Security review \(informational\).*1 finding/);
  });
});
