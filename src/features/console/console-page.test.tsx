// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleSession, SessionResult, SessionTarget } from '../../lib/console-adapter';
import { ConsoleArchive } from '../../lib/console-db';
import { createRunStore } from '../../lib/run-store';
import { withRun } from '../../lib/testing';
import { ConsoleProvider } from './console-context';
import { ConsolePage } from './console-page';
import { ConsoleController } from './console-store';

afterEach(cleanup);
configure({ asyncUtilTimeout: 10_000 });

const TARGET: SessionTarget = {
  inputUrl: 'http://127.0.0.1:1/demo/flawed',
  attempts: [],
  evidence: [],
  generation: 'v0.3',
  testedGeneration: 'v0.3',
  binding: 'JSONRPC',
  endpointUrl: 'http://127.0.0.1:1/demo/flawed',
  agentName: 'Flawed <b>agent</b>',
  streaming: true,
  skills: [{ id: 'haiku', name: 'Haiku', examples: ['Write a haiku about interoperability'] }],
};

const HOSTILE = '<img src=x onerror="window.__pwned=1"><b>bold</b>';

function streamed(text: string): SessionResult {
  const ev = (seq: number, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: 1, result, seq });
  return {
    operation: 'stream',
    method: 'message/stream',
    generation: 'v0.3',
    binding: 'JSONRPC',
    ok: true,
    outcome: 'stream',
    summary: 'message/stream: 3 event(s)',
    task: { id: 't1', contextId: 'c1', state: 'completed', rawState: 'completed', artifacts: [], raw: undefined },
    frames: [
      {
        seq: 1,
        ms: 1,
        kind: 'task',
        taskId: 't1',
        state: 'submitted',
        rawState: 'submitted',
        data: ev(1, { kind: 'task', id: 't1', contextId: 'c1', status: { state: 'submitted' } }),
        findings: [],
      },
      {
        seq: 2,
        ms: 2,
        kind: 'artifact',
        taskId: 't1',
        data: ev(2, { kind: 'artifact-update', taskId: 't1', artifact: { artifactId: 'a1', name: 'Poem', parts: [{ kind: 'text', text }] }, lastChunk: true }),
        findings: [],
      },
      {
        seq: 3,
        ms: 3,
        kind: 'status',
        taskId: 't1',
        state: 'completed',
        rawState: 'completed',
        data: ev(3, { kind: 'status-update', taskId: 't1', status: { state: 'completed' }, final: false }),
        findings: [
          {
            level: 'MUST',
            checkId: 'streaming.terminal',
            rule: 'end-of-stream',
            message: 'A terminal status (completed) arrived but no event had "final": true.',
            frame: 3,
          },
        ],
      },
    ],
    exchanges: [],
    findings: [
      {
        level: 'MUST',
        checkId: 'streaming.terminal',
        rule: 'end-of-stream',
        message: 'A terminal status (completed) arrived but no event had "final": true.',
        frame: 3,
      },
    ],
    durationMs: 4,
    events: [],
  };
}

function setup(target: SessionTarget = TARGET) {
  const asked: Record<string, unknown>[] = [];
  const opened: Record<string, unknown>[] = [];
  const session = {
    target,
    generation: target.testedGeneration,
    binding: target.binding,
    stream: async (o: Record<string, unknown>) => {
      asked.push(o);
      return streamed(HOSTILE);
    },
    raw: async () => streamed(''),
  } as unknown as ConsoleSession;
  const timeline = createRunStore((cb) => {
    cb();
    return () => undefined;
  });
  const ctl = new ConsoleController({
    open: async (input) => {
      opened.push({ ...input });
      return { ok: true, session, target, events: [] };
    },
    timeline,
  });
  const archive = new ConsoleArchive(`console-ui-${Math.random()}`);
  const { element } = withRun(
    [],
    <ConsoleProvider controller={ctl} archive={archive}>
      <ConsolePage timeline={<section aria-label="Timeline" />} inspector={<section aria-label="Wire inspector" />} />
    </ConsoleProvider>,
  );
  render(element);
  return { ctl, asked, opened };
}

describe('console page', () => {
  it('every region is named and every control labelled; sending needs a connection', () => {
    setup();
    for (const name of ['Agent', 'Tasks (0)', 'Calls (0)', 'Timeline', 'Wire inspector', 'Console sessions']) {
      expect(screen.getByRole('region', { name }), name).toBeTruthy();
    }
    expect(screen.getByRole('form', { name: 'Compose a message' })).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Connect to an agent' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(true);
    for (const el of document.querySelectorAll('input, select, textarea')) {
      const id = el.getAttribute('id');
      const labelled = (id && [...document.querySelectorAll('label')].some((l) => l.htmlFor === id)) || el.closest('label') || el.getAttribute('aria-label');
      expect(labelled, el.outerHTML).toBeTruthy();
    }
  });

  it('connect, pick an example, stream: findings inline beside their event, agent text never rendered as HTML', async () => {
    const { asked } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/demo/flawed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/A2A v0.3 over JSONRPC/);
    // The agent's name is text, not markup.
    expect(screen.getByText('Flawed <b>agent</b>')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Write a haiku about interoperability' }));
    expect((screen.getByLabelText('Message') as HTMLTextAreaElement).value).toBe('Write a haiku about interoperability');
    expect((screen.getByLabelText('Skill of the card') as HTMLSelectElement).value).toBe('haiku');
    fireEvent.click(screen.getByLabelText(/^Streaming/));
    fireEvent.click(screen.getByRole('button', { name: 'Send (streaming)' }));
    const events = await screen.findByRole('region', { name: 'Events of call c1' });
    expect(asked[0]).toMatchObject({ text: 'Write a haiku about interoperability', skill: 'haiku' });
    const flagged = within(events).getByRole('listitem', { name: 'Event 3, 1 finding(s)' });
    expect(within(flagged).getByRole('list', { name: 'Findings of event 3 of call c1' }).textContent).toContain('streaming.terminal');
    expect(within(events).getByRole('listitem', { name: 'Event 1' })).toBeTruthy();
    // The artifact: the agent's HTML shows as text; no element is created from it.
    const artifact = await screen.findByRole('article', { name: 'Artifact Poem' });
    expect(artifact.textContent).toContain(HOSTILE);
    expect(artifact.querySelector('img, b')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    const task = screen.getByRole('article', { name: 'Task t1' });
    expect(within(task).getByText('completed')).toBeTruthy();
    expect(within(task).getByRole('button', { name: 'Cancel task t1' })).toBeTruthy();
  });

  it('a draft with errors says what is wrong beside each field and sends nothing', async () => {
    const { asked } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/demo/flawed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/A2A v0.3 over JSONRPC/);
    fireEvent.click(screen.getByText('Data and file parts'));
    fireEvent.change(screen.getByLabelText('Data part (a JSON object; empty: none)'), { target: { value: '{nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const data = screen.getByLabelText('Data part (a JSON object; empty: none)');
    await waitFor(() => expect(data.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(data.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/not valid JSON/);
    expect(document.activeElement).toBe(data);
    expect(asked).toHaveLength(0);
  });

  it('speaks gRPC as a run does: the Binding choice offers it, the connection asks for it and says what it speaks', async () => {
    const grpc: SessionTarget = {
      ...TARGET,
      generation: 'v1.0',
      testedGeneration: 'v1.0',
      binding: 'GRPC',
      endpointUrl: '127.0.0.1:9311',
      interfaces: [
        { url: 'http://127.0.0.1:1/demo/flawed', binding: 'JSONRPC', protocolVersion: '1.0' },
        { url: '127.0.0.1:9311', binding: 'GRPC', protocolVersion: '1.0' },
      ],
    };
    const { opened, ctl } = setup(grpc);
    const binding = screen.getByRole('combobox', { name: 'Binding' }) as HTMLSelectElement;
    expect([...binding.options].map((o) => o.value)).toEqual(['', 'JSONRPC', 'HTTP+JSON', 'GRPC']);
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/demo/flawed' } });
    fireEvent.change(binding, { target: { value: 'GRPC' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/A2A v1.0 over GRPC/);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ agentUrl: 'http://127.0.0.1:1/demo/flawed', prefer: { binding: 'GRPC' } });
    expect(screen.getByText('127.0.0.1:9311')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' }).hasAttribute('disabled')).toBe(false);
    // No HTTP request to re-send on a gRPC session (the engine refuses it too).
    expect(ctl.supports.raw).toBe(false);
  });

  it('an HTTP session can re-send a request', async () => {
    const { ctl } = setup();
    fireEvent.change(screen.getByLabelText('Agent URL'), { target: { value: 'http://127.0.0.1:1/demo/flawed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Connect' }));
    await screen.findByText(/A2A v0.3 over JSONRPC/);
    expect(ctl.supports.raw).toBe(true);
  });
});
