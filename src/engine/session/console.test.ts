/** What the dashboard's console needs of a session beyond the MCP tools: live events, rich messages, push configs, re-sends. */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type Binding, type Generation, type RunningDefectAgent } from '../../testing/defect-agent';
import type { AgentFeatures, AuthConfig } from '../../testing/defect-agent/card';
import type { RunEvent } from '../model/events';
import { renderPart, type MessageStyle } from '../protocol/messages';
import { openSession, SessionInputError, type Session } from '.';
import { fillCredentials, fillQueryCredentials, inferOperation } from './raw';

const host = createNodeHost();
const agents: RunningDefectAgent[] = [];
afterAll(async () => {
  await Promise.all(agents.map((a) => a.close()));
});

async function agent(generation: Generation, binding: Binding, o: { features?: AgentFeatures; auth?: AuthConfig } = {}) {
  const a = await startDefectAgent({ generation, binding, stepMs: 10, slowTaskMs: 400, ...o });
  agents.push(a);
  return a;
}

async function session(url: string, credentials?: { kind: 'bearer'; token: string }): Promise<Session> {
  const open = await openSession(host, { agentUrl: url, credentials });
  if (!open.ok) throw new Error(open.unavailable.message);
  return open.session;
}

const lastBody = (a: RunningDefectAgent) => JSON.parse(a.requests.filter((r) => r.method === 'POST').at(-1)!.body) as Record<string, unknown>;

describe('console calls on a session', () => {
  it('streams events live to onEvent while the call is still open, each one once', async () => {
    const a = await agent('v1.0', 'JSONRPC');
    const s = await session(a.url);
    const live: { e: RunEvent; settled: boolean }[] = [];
    let settled = false;
    const p = s.stream({ text: 'Prepare the slow report', onEvent: (e) => live.push({ e, settled }) });
    const r = await p.finally(() => (settled = true));
    expect(r.ok, r.summary).toBe(true);
    const sse = live.filter((x) => x.e.type === 'sse-event');
    expect(sse.length).toBe(r.frames.length);
    expect(sse.every((x) => !x.settled)).toBe(true);
    expect(live.map((x) => x.e)).toEqual(r.events);
    expect(s.target.interfaces?.[0]?.binding).toBe('JSONRPC');
    expect(s.target.interfaces?.[0]?.url.replace(/\/$/, '')).toBe(a.url.replace(/\/$/, ''));
  });

  it.each([
    ['v1.0', 'JSONRPC'],
    ['v0.3', 'HTTP+JSON'],
    ['legacy', 'JSONRPC'],
  ] as const)('%s over %s: data and file parts and metadata reach the agent in its spelling', async (g, b) => {
    const a = await agent(g, b);
    const s = await session(a.url.replace(/\/$/, ''));
    const r = await s.send({
      text: 'hello',
      parts: [
        { kind: 'text', text: 'hello' },
        { kind: 'data', data: { seats: 2 } },
        { kind: 'file', mediaType: 'application/pdf', name: 'r.pdf', uri: 'https://example.com/r.pdf' },
      ],
      metadata: { trace: 'console-1' },
    });
    expect(r.exchanges.at(-1)!.response?.status, r.summary).toBeLessThan(300);
    const body = lastBody(a);
    const params = (b === 'JSONRPC' ? body.params : body) as Record<string, unknown>;
    const message = params.message as Record<string, unknown>;
    expect(message.metadata).toEqual({ trace: 'console-1' });
    const parts = (message.parts ?? message.content) as unknown[];
    expect(parts).toHaveLength(3);
    expect(JSON.stringify(parts)).toContain('https://example.com/r.pdf');
    expect(JSON.stringify(parts)).toContain('"seats":2');
  });

  it('renders a file by URI per generation and payload style', () => {
    // protoParts: the v0.3 proto's part spelling (set with protoStyle on v0.3 HTTP+JSON).
    const style = (generation: Generation, protoStyle = false) =>
      ({ generation, protoStyle, protoParts: protoStyle, acceptedOutputModes: [], uuid: () => 'u' }) as MessageStyle;
    const p = { kind: 'file' as const, mediaType: 'image/png', name: 'a.png', uri: 'https://x/a.png' };
    expect(renderPart(style('v1.0'), p)).toEqual({ url: 'https://x/a.png', mediaType: 'image/png', filename: 'a.png' });
    expect(renderPart(style('v0.3', true), p)).toEqual({ file: { fileWithUri: 'https://x/a.png', mimeType: 'image/png' } });
    expect(renderPart(style('v0.3'), p)).toEqual({ kind: 'file', file: { name: 'a.png', mimeType: 'image/png', uri: 'https://x/a.png' } });
    expect(renderPart(style('legacy'), p)).toEqual({ type: 'file', file: { name: 'a.png', mimeType: 'image/png', uri: 'https://x/a.png' } });
  });

  it('push configs: set, get, list and delete judged without findings on a clean agent; the token is masked', async () => {
    const a = await agent('v0.3', 'JSONRPC', { features: { push: true } });
    const s = await session(a.url);
    const t = await s.send({ text: 'Prepare the slow report', blocking: false });
    const taskId = t.task!.id!;
    const set = await s.pushSet({ taskId, url: 'https://example.com/hook', token: 'push-token-123' });
    expect(set.ok, set.summary).toBe(true);
    expect(set.findings).toEqual([]);
    expect(set.method).toBe('tasks/pushNotificationConfig/set');
    expect(JSON.stringify(set.exchanges)).not.toContain('push-token-123');
    expect(JSON.stringify(set.value)).not.toContain('push-token-123');
    const got = await s.pushGet({ taskId });
    expect(got.ok, got.summary).toBe(true);
    const list = await s.pushList({ taskId });
    expect(list.ok, list.summary).toBe(true);
    expect(JSON.stringify(list.value)).toContain('https://example.com/hook');
    const configId = (JSON.stringify(list.value).match(/"id":"([^"]+)"/) ?? [])[1];
    expect(configId).toBeTruthy();
    const del = await s.pushDelete({ taskId, configId: configId! });
    expect(del.ok, del.summary).toBe(true);
    await expect(async () => (await session((await agent('legacy', 'JSONRPC')).url)).pushList({ taskId })).rejects.toBeInstanceOf(SessionInputError);
  });
});

describe('re-sending a request (Open in console)', () => {
  it('a recorded JSON-RPC tasks/get: judged as a get, the masked bearer filled in from the session', async () => {
    const a = await agent('v0.3', 'JSONRPC', { auth: { scheme: 'bearer', secret: 'sekret-1' } });
    const s = await session(a.url, { kind: 'bearer', token: 'sekret-1' });
    const t = await s.send({ text: 'hello' });
    const taskId = t.task!.id!;
    const r = await s.raw({
      method: 'POST',
      url: a.url,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer [REDACTED]', 'X-Other': 'kept' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { id: taskId } }),
    });
    expect(r.operation).toBe('get');
    expect(r.ok, r.summary).toBe(true);
    expect(r.task?.id).toBe(taskId);
    expect(r.findings).toEqual([]);
    const sent = a.requests.at(-1)!;
    expect(sent.headers.authorization).toBe('Bearer sekret-1');
    expect(sent.headers['x-other']).toBe('kept');
    // What is returned stays masked.
    expect(JSON.stringify(r.exchanges)).not.toContain('sekret-1');
    // A credential typed into the request by hand is masked too (here the agent refuses it: 401).
    const typed = await s.raw({
      method: 'POST',
      url: a.url,
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer typed-by-hand-42' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tasks/get', params: { id: taskId } }),
    });
    expect(a.requests.at(-1)!.headers.authorization).toBe('Bearer typed-by-hand-42');
    expect(JSON.stringify([typed.exchanges, typed.events, typed.summary, typed.error ?? null])).not.toContain('typed-by-hand-42');
  });

  it('a streaming request is read as a stream; REST routes are recognised; a probe is judged for its error shape only', async () => {
    const a = await agent('v0.3', 'JSONRPC');
    const s = await session(a.url);
    const frames: number[] = [];
    const st = await s.raw({
      method: 'POST',
      url: a.url,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'r1',
        method: 'message/stream',
        params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'Write a haiku about interoperability' }] } },
      }),
      onFrame: (f) => frames.push(f.seq),
    });
    expect(st.operation).toBe('stream');
    expect(st.ok, st.summary).toBe(true);
    expect(st.stream?.end).toBe('closed');
    expect(frames.length).toBe(st.frames.length);
    expect(st.findings).toEqual([]);

    const probe = await s.raw({
      method: 'POST',
      url: a.url,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no/such' }),
    });
    expect(probe.operation).toBe('raw');
    expect(probe.outcome).toBe('error');
    expect(probe.error?.code).toBe(-32601);
    expect(probe.findings.every((f) => f.rule === 'envelope' || f.rule === 'error-shape')).toBe(true);

    await expect(s.raw({ method: 'POST', url: 'http://127.0.0.1:1/elsewhere', headers: {}, body: '{}' })).rejects.toBeInstanceOf(SessionInputError);
    await expect(s.raw({ method: 'POST', url: 'not a url', headers: {}, body: '{}' })).rejects.toBeInstanceOf(SessionInputError);

    const rest = await agent('v0.3', 'HTTP+JSON');
    const rs = await session(rest.url.replace(/\/$/, ''));
    const task = await rs.send({ text: 'hello' });
    const got = await rs.raw({ method: 'GET', url: `${rest.url.replace(/\/$/, '')}/v1/tasks/${task.task!.id!}`, headers: {} });
    expect(got.operation).toBe('get');
    expect(got.task?.id).toBe(task.task!.id);
  });

  it('infers operations and fills credentials (pure)', () => {
    const body = (method: string, params: unknown = {}) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
    expect(inferOperation('v1.0', 'JSONRPC', '', { method: 'POST', url: 'http://a/', headers: {}, body: body('CancelTask', { id: 't' }) })).toEqual({
      op: 'cancel',
      rpcId: 1,
      rpc: true,
      taskId: 't',
    });
    expect(inferOperation('v0.3', 'JSONRPC', '', { method: 'POST', url: 'http://a/', headers: {}, body: body('CancelTask') }).op).toBeUndefined();
    expect(
      inferOperation('legacy', 'JSONRPC', '', { method: 'POST', url: 'http://a/', headers: {}, body: body('tasks/sendSubscribe', { id: 't' }) }),
    ).toMatchObject({ op: 'stream', taskId: undefined });
    expect(inferOperation('v0.3', 'JSONRPC', '', { method: 'POST', url: 'http://a/', headers: {}, body: '{not json' })).toEqual({ rpc: false });
    const base = 'http://a/api/v1';
    expect(inferOperation('v0.3', 'HTTP+JSON', base, { method: 'POST', url: `${base}/tasks/t%201:cancel`, headers: {} })).toEqual({
      op: 'cancel',
      rpc: false,
      taskId: 't 1',
    });
    expect(
      inferOperation('v1.0', 'HTTP+JSON', 'http://a/api', { method: 'GET', url: 'http://a/api/tasks/t1/pushNotificationConfigs/c1', headers: {} }),
    ).toMatchObject({ op: 'pushGet', taskId: 't1' });
    expect(inferOperation('v1.0', 'HTTP+JSON', 'http://a/api', { method: 'GET', url: 'http://b/api/tasks/t1', headers: {} })).toEqual({ rpc: false });
    expect(fillCredentials({ Authorization: 'Bearer [REDACTED]', 'X-Key': '[REDACTED]', Accept: '*/*' }, { authorization: 'Bearer real' })).toEqual({
      Authorization: 'Bearer real',
      Accept: '*/*',
    });
    expect(fillQueryCredentials('http://a/x?key=%5BREDACTED%5D&other=%5BREDACTED%5D&q=1', { key: 'k1' })).toBe('http://a/x?key=k1&q=1');
  });
});
