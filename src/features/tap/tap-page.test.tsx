// @vitest-environment jsdom
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TapEvent, TapFaults, TapReport } from '../../engine/tap/types';
import { createRunStore } from '../../lib/run-store';
import { withRun } from '../../lib/testing';
import type { EventsStatus, OpenTap, OrchestratorInfo, TapApi } from './tap-api';
import { TapProvider } from './tap-context';
import { TapPage } from './tap-page';
import { DEMO_QUESTIONS, TapController } from './tap-store';

afterEach(cleanup);
configure({ asyncUtilTimeout: 5_000 });

const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
const TAP_URL = 'http://127.0.0.1:4173/tap/t1/';

/** A server stand-in: records calls; the test pushes events as the tap would. */
class FakeApi implements TapApi {
  calls: string[] = [];
  faults: TapFaults[] = [];
  push: (e: TapEvent) => void = () => undefined;
  asked: string[] = [];
  async start(agentUrl: string, faults: TapFaults) {
    this.calls.push(`start ${agentUrl}`);
    this.faults.push(faults);
    return { id: 't1', url: TAP_URL };
  }
  open: OpenTap[] = [];
  async list() {
    return this.open;
  }
  async setFaults(id: string, faults: TapFaults) {
    this.calls.push(`faults ${id}`);
    this.faults.push(faults);
  }
  async stop(id: string) {
    this.calls.push(`stop ${id}`);
  }
  async report(): Promise<TapReport> {
    return {
      tool: 'a2a-interop tap',
      agentUrl: 'x',
      startedAt: 0,
      at: 1,
      exchanges: [],
      findings: [],
      faults: {},
      summary: { client: { verdict: 'pass', must: 0, should: 0, advisory: 0 }, agent: { verdict: 'pass', must: 0, should: 0, advisory: 0 }, exchanges: 0 },
      dropped: { events: 0, exchanges: 0 },
    };
  }
  subscribe(_id: string, onEvent: (e: TapEvent) => void, onStatus: (s: EventsStatus) => void) {
    this.push = onEvent;
    onStatus('live');
    return () => onStatus('ended');
  }
  async orchestrator(): Promise<OrchestratorInfo | null> {
    return {
      url: 'http://127.0.0.1:4173/demo/orchestrator/jsonrpc',
      baseUrl: 'http://127.0.0.1:4173/demo/orchestrator',
      peers: [
        { id: 'v03', label: 'v0.3 demo', baseUrl: 'http://127.0.0.1:4173/demo/v03' },
        { id: 'v1', label: 'v1.0 demo', baseUrl: 'http://127.0.0.1:4173/demo/v1' },
      ],
      clients: [
        { id: '0.3', label: '@a2a-js/sdk 0.3.14 client', url: 'http://127.0.0.1:4173/demo/orchestrator/jsonrpc' },
        { id: '1.x', label: '@a2a-js/sdk 1.3.0 client', url: 'http://127.0.0.1:4173/demo/orchestrator-v1/jsonrpc' },
      ],
    };
  }
  askedAt: string[] = [];
  async ask(url: string, text: string) {
    this.asked.push(text);
    this.askedAt.push(url);
    return { state: 'completed', text: `B said: ${text.slice(-10)}` };
  }
}

function setup(open: OpenTap[] = []) {
  const api = new FakeApi();
  api.open = open;
  const now = (cb: () => void) => {
    cb();
    return () => undefined;
  };
  const controller = new TapController({ api, timeline: createRunStore(now), schedule: now });
  const ui = withRun(
    [],
    <TapProvider controller={controller}>
      <TapPage timeline={<p>timeline here</p>} inspector={null} orchestrator={() => api.orchestrator()} openTaps={() => api.list()} />
    </TapProvider>,
  );
  render(ui.element);
  return { api, controller };
}

let seq = 0;
const start = (id: string, operation: string, body: unknown): TapEvent => ({
  kind: 'exchange-start',
  seq: ++seq,
  id,
  at: 1000 + seq,
  side: 'client',
  method: operation === 'card' ? 'GET' : 'POST',
  url: `${TAP_URL}jsonrpc`,
  upstreamUrl: 'http://127.0.0.1:4173/demo/v03/jsonrpc',
  headers: {},
  body: JSON.stringify(body),
  bodySize: 10,
  bodyTruncated: false,
  operation,
  streaming: false,
});
const end = (id: string, status: number, body: unknown): TapEvent => ({
  kind: 'exchange-end',
  seq: ++seq,
  id,
  at: 1000 + seq,
  side: 'agent',
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
  bodySize: 10,
  bodyTruncated: false,
  stream: false,
  frames: 0,
  durationMs: 3,
});

describe('Tap page', () => {
  it('starts a tap with the faults typed, shows the URL to give the client, then the conversation and both sides judged live', async () => {
    const { api } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:4173/demo/v03' } });
    fireEvent.change(screen.getByLabelText('Delay every request (ms)'), { target: { value: '250' } });
    fireEvent.change(screen.getByLabelText('Fail the next request once'), { target: { value: '503' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start tap' }));
    await screen.findByText(TAP_URL);
    // Focus goes to what the user needs next: the URL to give the client.
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Give this URL to your client'));
    expect(api.calls).toEqual(['start http://127.0.0.1:4173/demo/v03']);
    expect(api.faults.at(-1)).toEqual({ delayMs: 250, failOnce: 503 });
    expect(screen.getByRole('button', { name: 'Copy the tap URL' })).toBeTruthy();
    expect(screen.getAllByText('nothing judged yet')).toHaveLength(2);

    api.push(
      start('x1', 'message/send', {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: { message: { messageId: 'm', parts: [{ kind: 'text', text: 'Hello agent' }] } },
      }),
    );
    api.push({
      kind: 'finding',
      seq: ++seq,
      id: 'x1',
      at: 1,
      side: 'client',
      finding: {
        side: 'client',
        checkId: 'client.version-header',
        level: 'MUST',
        message: 'No A2A-Version header on a v1.0 request.',
        specRef: 'A2A v1.0.1 §3.6.1',
        quote: 'Clients MUST send the A2A-Version header',
        exchangeId: 'x1',
      },
    });
    api.push(
      end('x1', 200, {
        jsonrpc: '2.0',
        id: 1,
        result: { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'completed', message: { parts: [{ kind: 'text', text: HOSTILE }] } } },
      }),
    );

    const log = await screen.findByRole('log', { name: 'Conversation' });
    const turn = within(log).getByRole('article', { name: 'Exchange x1' });
    expect(within(turn).getByText('Hello agent')).toBeTruthy();
    expect(within(turn).getByText(/HTTP 200 · task completed/)).toBeTruthy();
    // Agent text is text: the markup shows as characters, nothing is parsed.
    expect(within(turn).getByText(HOSTILE)).toBeTruthy();
    expect(document.querySelector('img')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();

    const client = screen.getByRole('listitem', { name: 'Client verdict' });
    expect(within(client).getByText('Fail')).toBeTruthy();
    expect(within(client).getByText('1 MUST finding(s)')).toBeTruthy();
    expect(within(screen.getByRole('listitem', { name: 'Agent verdict' })).getByText('Pass')).toBeTruthy();
    const findings = screen.getByRole('heading', { name: 'Findings (1)' }).closest('section')!;
    expect(within(findings).getByText('client.version-header')).toBeTruthy();
    expect(within(findings).getAllByText('client').length).toBeGreaterThan(0);
    expect(within(findings).getByText('No A2A-Version header on a v1.0 request.')).toBeTruthy();
    expect(within(findings).getByText('Why: A2A v1.0.1 §3.6.1')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Drop streams after (events)'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply faults' }));
    await waitFor(() => expect(api.calls).toContain('faults t1'));
    expect(api.faults.at(-1)).toEqual({ delayMs: 250, dropStreamAfter: 2, failOnce: 503 });

    fireEvent.click(screen.getByRole('button', { name: 'Stop tap' }));
    await screen.findByRole('heading', { name: 'The tap was here' });
    expect(api.calls.at(-1)).toBe('stop t1');
    // The conversation stays.
    expect(screen.getByRole('article', { name: 'Exchange x1' })).toBeTruthy();
  });

  it('a tap open on the server before a reload: listed, and followed with its events replayed', async () => {
    const { api } = setup([{ id: 'old1', url: 'http://127.0.0.1:4173/tap/old1/', agentUrl: 'http://127.0.0.1:4173/demo/<b>v1</b>' }]);
    const region = await screen.findByRole('region', { name: 'Open taps' });
    expect(within(region).getByText('http://127.0.0.1:4173/demo/<b>v1</b>')).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Follow tap old1 (http://127.0.0.1:4173/demo/<b>v1</b>)' }));
    await screen.findByText('http://127.0.0.1:4173/tap/old1/');
    expect((screen.getByLabelText('Agent URL') as HTMLInputElement).value).toBe('http://127.0.0.1:4173/demo/<b>v1</b>');
    api.push(start('x1', 'card', undefined));
    api.push(end('x1', 200, { name: 'Old agent' }));
    expect(await screen.findByRole('article', { name: 'Exchange x1' })).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('refuses a fault that is not a whole number, at its field', async () => {
    const { api } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/a' } });
    fireEvent.change(screen.getByLabelText('Slow card (ms)'), { target: { value: 'soon' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start tap' }));
    const field = screen.getByLabelText('Slow card (ms)');
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(/A whole number from 0 to 60000/)).toBeTruthy();
    expect(api.calls).toEqual([]);
  });

  it('the two-agent demo: a tap in front of B, the orchestrator asked twice at once through the tap, the two-agent checks shown', async () => {
    const { api } = setup();
    const run = await screen.findByRole('button', { name: 'Orchestrator -> demo agent' });
    fireEvent.change(screen.getByLabelText('Agent B'), { target: { value: 'v1' } });
    fireEvent.change(screen.getByLabelText("Agent A's client"), { target: { value: '1.x' } });
    fireEvent.click(run);
    await screen.findByRole('list', { name: 'What the orchestrator answered' });
    expect(api.calls[0]).toBe('start http://127.0.0.1:4173/demo/v1');
    expect(api.askedAt).toEqual(['http://127.0.0.1:4173/demo/orchestrator-v1/jsonrpc', 'http://127.0.0.1:4173/demo/orchestrator-v1/jsonrpc']);
    expect(api.asked).toEqual(DEMO_QUESTIONS.map((q) => `ask ${TAP_URL}: ${q}`));
    const checks = screen.getByRole('heading', { name: 'Two-agent checks (A -> B)' }).closest('section')!;
    for (const title of ["A discovers B's card", 'A sends B a task', 'B answers', 'Concurrent tasks do not interfere'])
      expect(within(checks).getByRole('listitem', { name: title })).toBeTruthy();
    expect(within(checks).getAllByText('Not observed yet')).toHaveLength(4);
    // Traffic observed: the checks follow.
    api.push(start('x9', 'card', undefined));
    api.push(end('x9', 200, { name: 'Demo agent' }));
    await waitFor(() => expect(within(screen.getByRole('listitem', { name: "A discovers B's card" })).getByText('Pass')).toBeTruthy());
  });
});
