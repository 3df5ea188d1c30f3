// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleSession, SessionResult, SessionTarget } from '../../lib/console-adapter';
import { ConsoleArchive } from '../../lib/console-db';
import { createRunStore } from '../../lib/run-store';
import { withRun } from '../../lib/testing';
import { buildSend, EMPTY_DRAFT } from './compose';
import { ConsoleProvider } from './console-context';
import { ConsolePage } from './console-page';
import { ConsoleController } from './console-store';

afterEach(cleanup);
configure({ asyncUtilTimeout: 10_000 });

const REQUIRED = 'https://x.test/ext/consent/v1';
const OPTIONAL = 'https://x.test/ext/citations/v1';
const TARGET: SessionTarget = {
  inputUrl: 'http://127.0.0.1:1/a2a',
  attempts: [],
  evidence: [],
  generation: 'v1.0',
  testedGeneration: 'v1.0',
  binding: 'JSONRPC',
  endpointUrl: 'http://127.0.0.1:1/a2a',
  agentName: 'Ext agent',
  streaming: true,
  skills: [],
  extensions: [
    { uri: OPTIONAL, required: false, description: 'Citations' },
    { uri: REQUIRED, required: true, description: '<b>Consent</b>' },
  ],
};

const answer = { operation: 'send', ok: true, frames: [], exchanges: [], findings: [], events: [], durationMs: 1, summary: 'ok' } as unknown as SessionResult;

function setup() {
  const asked: Record<string, unknown>[] = [];
  const session = {
    target: TARGET,
    generation: 'v1.0',
    binding: 'JSONRPC',
    send: async (o: Record<string, unknown>) => {
      asked.push(o);
      return answer;
    },
  } as unknown as ConsoleSession;
  const timeline = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  const ctl = new ConsoleController({ open: async () => ({ ok: true, session, target: TARGET, events: [] }), timeline });
  const { element } = withRun(
    [],
    <ConsoleProvider controller={ctl} archive={new ConsoleArchive(`console-ext-${Math.random()}`)}>
      <ConsolePage timeline={<section aria-label="Timeline" />} inspector={<section aria-label="Wire inspector" />} />
    </ConsoleProvider>,
  );
  render(element);
  return { asked };
}

describe('console: activating extensions', () => {
  it('the required extension is always on (the engine sends it); pick another and type a URI: the send carries them; the card text stays text', async () => {
    const { asked } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/a2a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/A2A v1.0 over JSONRPC/);
    const list = screen.getByLabelText('Extension URIs to activate (comma-separated)') as HTMLInputElement;
    // The required extension is activated on every request, as in a run: shown checked, not a choice.
    expect(document.getElementById(list.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(
      /after the card's required https:\/\/x\.test\/ext\/consent\/v1, which every request activates/,
    );
    const required = screen.getByRole('checkbox', { name: /consent\/v1 \(required: always activated\)/ }) as HTMLInputElement;
    expect(required.checked && required.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: /citations\/v1/ }));
    expect(list.value).toBe(OPTIONAL);
    expect(screen.getByText(/<b>Consent<\/b>/)).toBeTruthy();
    fireEvent.change(list, { target: { value: `${list.value}, https://other.test/ext/v2` } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]?.extensions).toEqual([OPTIONAL, 'https://other.test/ext/v2']);
    expect((screen.getByRole('checkbox', { name: /citations\/v1/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(/Extensions \(3 activated\)/)).toBeTruthy();
  });

  it('a value that is not a URI is refused beside the field; legacy has no extensions', () => {
    const bad = buildSend({ ...EMPTY_DRAFT, text: 'x', extensions: 'not a uri' }, { generation: 'v1.0' });
    expect(bad).toMatchObject({ ok: false, errors: { extensions: expect.stringMatching(/is not an absolute URI/) } });
    expect(buildSend({ ...EMPTY_DRAFT, text: 'x', extensions: OPTIONAL }, { generation: 'legacy' })).toMatchObject({ ok: false });
    expect(buildSend({ ...EMPTY_DRAFT, text: 'x', extensions: ` ${OPTIONAL},, ${OPTIONAL} ` }, { generation: 'v0.3' })).toMatchObject({
      ok: true,
      request: { extensions: [OPTIONAL] },
    });
  });
});
