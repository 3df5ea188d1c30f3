import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { consoleHref, findExchange, openInConsole, takeHandoff } from './console-link';
import { RunArchive } from './db';
import type { RunEvent } from './engine';

const events: RunEvent[] = [
  {
    type: 'run-started',
    at: 1,
    runId: 'r1',
    agentUrl: 'http://127.0.0.1:1/agent',
    options: { timeoutMs: 1000, credentials: 'none' },
    tool: { name: 'a2a-interop', version: '0' },
  },
  {
    type: 'http-request',
    at: 2,
    exchangeId: 'x7',
    checkId: 'lifecycle.get',
    lane: 'lifecycle',
    request: { method: 'POST', url: 'http://127.0.0.1:1/agent/jsonrpc', headers: {}, body: '{"method":"tasks/get"}', bodySize: 22 },
  },
];

const archives: RunArchive[] = [];
afterEach(() => archives.splice(0).forEach((a) => a.close()));

describe('open in console', () => {
  it('hands the exchange over in memory once; the URL names the run and the exchange, never credentials', () => {
    globalThis.history ??= { pushState: () => undefined, replaceState: () => undefined } as unknown as History;
    const exchange = { id: 'x7', lane: 'lifecycle', request: { method: 'POST', url: 'http://a/', headers: {}, bodySize: 0 } };
    openInConsole({ exchange, runId: 'r 1', credentials: { kind: 'bearer', token: 'sekret' } });
    expect(consoleHref('x7', 'r 1')).toBe('/console?exchange=x7&run=r+1');
    expect(consoleHref('x7', 'r 1')).not.toContain('sekret');
    expect(takeHandoff('other')).toBeNull();
    expect(takeHandoff('x7')?.credentials).toEqual({ kind: 'bearer', token: 'sekret' });
    expect(takeHandoff('x7')).toBeNull();
  });

  it('after a reload: finds the exchange in the live run, else in the archive', async () => {
    expect(await findExchange('x7', 'r1', { live: { runId: 'r1', events } })).toMatchObject({
      agentUrl: 'http://127.0.0.1:1/agent',
      runId: 'r1',
      checkId: 'lifecycle.get',
      exchange: { id: 'x7' },
    });
    const archive = new RunArchive(`link-${Date.now()}`);
    archives.push(archive);
    await archive.replace(events, 'live');
    expect(await findExchange('x7', 'r1', { live: { runId: 'other', events: [] }, archive })).toMatchObject({
      exchange: { request: { body: '{"method":"tasks/get"}' } },
    });
    expect(await findExchange('x8', 'r1', { archive })).toBeNull();
    expect(await findExchange('x7', undefined, {})).toBeNull();
  });
});
