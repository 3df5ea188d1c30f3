// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CardView } from '../features/card';
import { FailedTests, ResultsTable, VerdictCard } from '../features/results';
import { Timeline, WireInspector } from '../features/timeline';
import { withRun } from '../lib/testing';
import { syntheticRun } from '../testing/fixtures/events';

afterEach(cleanup);

describe('results views', () => {
  it('shows the level (provisional when our tool erred), the failures with fixes, and tool errors as ours', () => {
    const { element } = withRun(
      syntheticRun({ flawed: true, toolError: true }),
      <>
        <VerdictCard />
        <FailedTests />
        <ResultsTable />
      </>,
    );
    render(element);
    const level = screen.getByRole('status', { name: 'Conformance level' });
    expect(level.textContent).toContain('minimal');
    expect(level.textContent).toContain('provisional');
    const failed = screen.getByRole('table', { name: 'Failed tests' });
    const rows = within(failed).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(failed.textContent).toContain('Throw TaskNotFoundError (-32001)');
    expect(screen.getByText(/The proxy could not reach the agent \(connect_failed\)/)).toBeTruthy();
    // The tool error is not among the agent's failures.
    expect(failed.textContent).not.toContain('reattaches');
    // Required failures apart from advisories; one tile per category.
    const verdict = screen.getByRole('region', { name: 'Verdict' });
    // Counted by what lowers the level (MUST and SHOULD apart, the critical ones), never "N required failures".
    expect(verdict.textContent).toMatch(/3 lower the level: \d+ MUST(, \d+ SHOULD)?(; \d+ critical)? · \d+ advis/);
    expect(verdict.textContent).not.toMatch(/\d+ required failures?/);
    expect(within(verdict).getByRole('list', { name: 'Results by category' }).children).toHaveLength(5);
  });

  it('a failure expands in place to its spec sentence, evidence, Open exchange and Re-run; a re-run outcome is said in words', () => {
    const { element, handle } = withRun(syntheticRun({ flawed: true }), <FailedTests />);
    render(element);
    const failed = screen.getByRole('table', { name: 'Failed tests' });
    const first = within(failed).getAllByRole('button', { expanded: false })[0]!;
    fireEvent.click(first);
    expect(first.getAttribute('aria-expanded')).toBe('true');
    expect(failed.textContent).toContain('What the spec says');
    expect(failed.textContent).toContain('Evidence');
    fireEvent.click(within(failed).getByRole('button', { name: 'Open exchange' }));
    expect(handle.store.getState().selected).toMatch(/^x\d+/);
    const id = handle.store.getState().run.checkOrder.find((c) => handle.store.getState().run.checks[c]?.status === 'fail')!;
    act(() => handle.recordRerun(id, 'fail', 'fail'));
    expect(
      within(failed)
        .getAllByRole('status')
        .map((s) => s.textContent),
    ).toContain('Re-run: still fails');
  });

  it('while a run is going on the verdict shows neutral progress and no level', () => {
    const events = syntheticRun({ flawed: true, finish: null });
    const { element } = withRun(events, <VerdictCard />);
    render(element);
    const level = screen.getByRole('status', { name: 'Conformance level' });
    expect(level.textContent).toBe('Running');
    expect(level.className).toContain('level-running');
    expect(screen.getByRole('progressbar').getAttribute('aria-label')).toMatch(/^Checks finished: \d+ of \d+$/);
    expect(screen.getByRole('region', { name: 'Verdict' }).textContent).not.toMatch(/non-conformant|minimal|partial|required failure/);
    expect(screen.getByRole('region', { name: 'Verdict' }).textContent).not.toContain('Time to verdict');
  });

  it('a finished run says its time to verdict and which check decided it (the report timing section)', () => {
    const events = syntheticRun({ flawed: true });
    const { element } = withRun(events, <VerdictCard />);
    render(element);
    const start = events.find((e) => e.type === 'run-started')!.at;
    const end = events.find((e) => e.type === 'run-finished')!.at;
    const last = events.filter((e) => e.type === 'check-finished').sort((a, b) => b.at - a.at)[0]!;
    const text = screen.getByRole('region', { name: 'Verdict' }).textContent ?? '';
    expect(text).toContain(`Time to verdict: ${((end - start) / 1000).toFixed(1)} s`);
    expect(text).toContain(`decided by ${last.type === 'check-finished' ? last.result.id : '?'}`);
  });

  it('groups results by category, filters by status and level, and expands a row to its details', () => {
    const { element } = withRun(syntheticRun({ flawed: true }), <ResultsTable />);
    render(element);
    const table = screen.getByRole('table', { name: 'Results' });
    const groups = within(table).getAllByRole('rowgroup').slice(1);
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Agent card', 'Task lifecycle', 'Streaming', 'Error handling', 'Interop']);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'fail' } });
    expect(within(table).getAllByRole('button', { name: /^Re-run / })).toHaveLength(3);
    fireEvent.change(screen.getByLabelText('Level'), { target: { value: 'SHOULD' } });
    expect(within(table).getAllByRole('button', { name: /^Re-run / })).toHaveLength(1);
    const toggle = within(table).getByRole('button', { name: 'The endpoint answers CORS preflight requests' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(table.textContent).toContain('Answer OPTIONS with Access-Control-Allow-Origin');
    expect(table.textContent).toContain('v0.3.0 §3.1');
    expect(table.textContent).toContain('HTTP 405, no access-control-allow-origin');
  });

  it("the inspector's link back to a check clears a filter that hides it, opens its row and focuses it, once per request", () => {
    // jsdom does no layout.
    Element.prototype.scrollIntoView ??= () => undefined;
    const { element, handle } = withRun(syntheticRun({ flawed: true }), <ResultsTable />);
    render(element);
    const table = screen.getByRole('table', { name: 'Results' });
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'fail' } });
    const state = handle.store.getState().run;
    const passing = state.checkOrder.find((c) => state.checks[c]?.status === 'pass')!;
    expect(table.querySelector(`tr[data-check="${passing}"]`)).toBeNull();
    act(() => handle.showCheck(passing));
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('all');
    const toggle = table.querySelector<HTMLElement>(`tr[data-check="${passing}"] .row-toggle`)!;
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(toggle);
    // Later renders do not re-apply the request: the user may filter again and close the row.
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'fail' } });
    expect(table.querySelector(`tr[data-check="${passing}"]`)).toBeNull();
    // A new request for the same check applies again.
    act(() => handle.showCheck(passing));
    expect(table.querySelector(`tr[data-check="${passing}"]`)).not.toBeNull();
  });
});

describe('card view', () => {
  it('renders hostile card fields as inert text and links only http(s) URLs', () => {
    const { element } = withRun(syntheticRun({ hostile: true }), <CardView />);
    const { container } = render(element);
    const card = screen.getByRole('group', { name: 'Agent card as received' });
    expect(card.textContent).toContain('<script>window.__pwned=1</script>');
    expect(container.querySelectorAll('script, img, iframe, svg, b')).toHaveLength(0);
    for (const a of container.querySelectorAll('a')) expect(a.getAttribute('href')).toMatch(/^https?:/);
    expect(within(card).getByText('javascript:alert(document.cookie)').tagName).not.toBe('A');
    expect(within(card).getByRole('link', { name: 'https://example.com' })).toBeTruthy();
    // Verdicts sit next to the field they concern.
    const nameField = within(card).getAllByText('name', { selector: '.json-key' })[0]!.closest('li')!;
    expect(nameField.textContent).toContain('The card has every required field');
    expect(screen.getByText('v0.3')).toBeTruthy();
  });
});

describe('timeline', () => {
  // jsdom has no layout: give the scroll box the size a browser would.
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 400 });
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 800 });
  });
  it('renders only a window of a 10,000-event run and opens an exchange in the wire inspector', () => {
    const { element, handle } = withRun(
      syntheticRun({ targetEvents: 10_000 }),
      <>
        <Timeline initialHeight={400} />
        <WireInspector />
      </>,
    );
    render(element);
    const region = screen.getByRole('region', { name: 'Timeline' });
    const items = within(region).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(5);
    expect(items.length).toBeLessThan(60);
    expect(items[0]!.getAttribute('aria-setsize')).toBe(
      String(
        handle.store.getState().run.exchangeOrder.length +
          handle.store.getState().run.sse.length +
          handle.store.getState().run.taskStates.length +
          handle.store.getState().run.lanes.length,
      ),
    );
    const http = within(region).getAllByRole('button', { name: /HTTP GET \/\.well-known\/agent-card\.json/ })[0]!;
    act(() => {
      fireEvent.click(http);
    });
    const inspector = screen.getByRole('region', { name: 'Wire inspector' });
    const reqHeaders = within(inspector).getByRole('table', { name: 'Request headers' });
    expect(reqHeaders.textContent).toContain('Bearer [REDACTED]');
    expect(within(inspector).getByText('200', { exact: false })).toBeTruthy();
    expect(inspector.textContent).toContain('"protocolVersion": "0.3.0"');
    expect(within(inspector).getByRole('button', { name: 'Copy as cURL' })).toBeTruthy();
    expect(within(inspector).getByRole('button', { name: 'Copy JSON' })).toBeTruthy();
  });

  it('filters the timeline by kind', () => {
    const { element } = withRun(syntheticRun({ flawed: true }), <Timeline initialHeight={400} />);
    render(element);
    const region = screen.getByRole('region', { name: 'Timeline' });
    fireEvent.click(within(region).getByRole('checkbox', { name: 'HTTP' }));
    fireEvent.click(within(region).getByRole('checkbox', { name: 'State' }));
    const items = within(region)
      .getAllByRole('button')
      .filter((b) => b.classList.contains('tl-item'));
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((b) => b.textContent?.startsWith('SSE'))).toBe(true);
  });
});
