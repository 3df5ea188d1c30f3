/**
 * The client judges on requests built by hand, one rule at a time: each broken rule gives exactly its finding at
 * the strength its quoted sentences give it in the generation, and the same request done right gives none.
 */
import { describe, expect, it } from 'vitest';
import { CLIENT_SPECS } from '../spec';
import { CLIENT_CHECK_IDS, clientFinding, judgeClientRequest, judgeTaskNotFound, restOperation, type ClientRequest, type ConversationView } from './client';

const view = (
  o: Partial<ConversationView> & { tasks?: Record<string, { state: 'completed' | 'working' | 'input-required'; contextId?: string }> } = {},
): ConversationView => ({
  messageIdSeen: o.messageIdSeen ?? (() => false),
  task: (id) => (o.tasks?.[id] ? { ...o.tasks[id], rawState: o.tasks[id].state } : undefined),
  waitingForInput: o.waitingForInput ?? (() => []),
  requiredExtensions: o.requiredExtensions ?? [],
});

const rpc = (r: Omit<Partial<ClientRequest>, 'body'> & { body?: unknown }): ClientRequest => ({
  generation: 'v0.3',
  binding: 'JSONRPC',
  method: 'POST',
  path: '',
  query: {},
  headers: { 'content-type': 'application/json' },
  ...r,
  body: typeof r.body === 'string' ? r.body : JSON.stringify(r.body),
});

const v03Send = (msg: Record<string, unknown> = {}, method = 'message/send') => ({
  jsonrpc: '2.0',
  id: 1,
  method,
  params: { message: { kind: 'message', messageId: 'm1', role: 'user', parts: [{ kind: 'text', text: 'hi' }], ...msg } },
});
const v1Send = (msg: Record<string, unknown> = {}, method = 'SendMessage') => ({
  jsonrpc: '2.0',
  id: 'a',
  method,
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }], ...msg } },
});
const ids = (r: ClientRequest, v = view()) => judgeClientRequest(r, v).findings.map((f) => `${f.checkId}:${f.level}`);

describe('client judges', () => {
  it('every client rule has sentences for at least one generation, and a recommendation', () => {
    for (const id of CLIENT_CHECK_IDS) {
      expect(
        Object.values(CLIENT_SPECS[id] ?? {}).some((g) => g?.sentences.length),
        id,
      ).toBe(true);
      expect(clientFinding('v1.0', id, 'x') ?? clientFinding('v0.3', id, 'x')).toBeDefined();
    }
  });

  it('clean requests: none', () => {
    expect(ids(rpc({ body: v03Send() }))).toEqual([]);
    expect(ids(rpc({ generation: 'v1.0', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: v1Send() }))).toEqual([]);
    expect(
      ids(
        rpc({
          generation: 'legacy',
          body: { jsonrpc: '2.0', id: 1, method: 'tasks/send', params: { id: 't', message: { role: 'user', parts: [{ type: 'text', text: 'x' }] } } },
        }),
      ),
    ).toEqual([]);
  });

  it('envelope: jsonrpc, id, content type, not JSON', () => {
    expect(ids(rpc({ body: { ...v03Send(), jsonrpc: '1.0' } }))).toEqual(['client.envelope:MUST']);
    const { id: _id, ...noId } = v03Send();
    expect(ids(rpc({ body: noId }))).toEqual(['client.envelope:MUST']);
    expect(ids(rpc({ body: 'not json' }))).toEqual(['client.envelope:MUST']);
    expect(ids(rpc({ headers: { 'content-type': 'text/plain' }, body: v03Send() }))).toEqual(['client.envelope:MUST']);
    // v1.0 only describes the content type (§9.1): advice.
    expect(ids(rpc({ generation: 'v1.0', headers: { 'content-type': 'text/plain', 'a2a-version': '1.0' }, body: v1Send() }))).toEqual([
      'client.envelope:advisory',
    ]);
  });

  it('method: the other generations name it; an unknown one is said to be unknown', () => {
    const f = judgeClientRequest(rpc({ body: v03Send({}, 'SendMessage') }), view()).findings;
    expect(f.map((x) => x.checkId)).toEqual(['client.method']);
    expect(f[0]!.message).toBe('SendMessage is the v1.0 method; this v0.3 interface speaks message/send.');
    expect(judgeClientRequest(rpc({ body: v03Send({}, 'foo/bar') }), view()).findings[0]!.message).toMatch(/not a method of v0\.3/);
  });

  it('params: message, parts, role spelled for the generation', () => {
    expect(ids(rpc({ body: v03Send({ parts: [] }) }))).toEqual(['client.params:MUST']);
    expect(ids(rpc({ body: v03Send({ role: 'ROLE_USER' }) }))).toEqual(['client.params:MUST']);
    expect(ids(rpc({ body: { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: {} } }))).toEqual(['client.params:MUST']);
  });

  it('messageId: missing (MUST), reused (advisory)', () => {
    expect(ids(rpc({ body: v03Send({ messageId: undefined }) }))).toEqual(['client.message-id:MUST']);
    expect(ids(rpc({ body: v03Send() }), view({ messageIdSeen: (id) => id === 'm1' }))).toEqual(['client.message-id-unique:advisory']);
  });

  it('A2A-Version: a v1.0 request needs it, as a header or a query parameter', () => {
    expect(ids(rpc({ generation: 'v1.0', body: v1Send() }))).toEqual(['client.version-header:MUST']);
    expect(ids(rpc({ generation: 'v1.0', query: { 'A2A-Version': '1.0' }, body: v1Send() }))).toEqual([]);
  });

  it('required extensions must be activated in the generation’s header', () => {
    const v = view({ requiredExtensions: ['https://ext.example/a'] });
    expect(ids(rpc({ body: v03Send() }), v)).toEqual(['client.extensions:advisory']);
    expect(ids(rpc({ headers: { 'content-type': 'application/json', 'x-a2a-extensions': 'https://ext.example/a' }, body: v03Send() }), v)).toEqual([]);
    expect(ids(rpc({ generation: 'v1.0', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: v1Send() }), v)).toEqual([
      'client.extensions:MUST',
    ]);
    expect(
      ids(
        rpc({
          generation: 'v1.0',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0', 'a2a-extensions': 'https://ext.example/a, x' },
          body: v1Send(),
        }),
        v,
      ),
    ).toEqual([]);
  });

  it('streams: an Accept that excludes text/event-stream is advised against; none or */* is fine', () => {
    expect(ids(rpc({ headers: { 'content-type': 'application/json', accept: 'application/json' }, body: v03Send({}, 'message/stream') }))).toEqual([
      'client.accept-stream:advisory',
    ]);
    expect(ids(rpc({ headers: { 'content-type': 'application/json', accept: '*/*' }, body: v03Send({}, 'message/stream') }))).toEqual([]);
  });

  it('tasks: continuing a terminal one, a context that does not match, a new task while one waits for input', () => {
    const v = view({
      tasks: { done: { state: 'completed', contextId: 'c1' }, open: { state: 'working', contextId: 'c1' } },
      waitingForInput: (c) => (c === 'c2' ? ['w'] : []),
    });
    expect(ids(rpc({ body: v03Send({ taskId: 'done', contextId: 'c1' }) }), v)).toEqual(['client.task-terminal:advisory']);
    expect(ids(rpc({ body: v03Send({ taskId: 'open', contextId: 'c9' }) }), v)).toEqual(['client.task-reference:advisory']);
    expect(ids(rpc({ body: v03Send({ contextId: 'c2' }) }), v)).toEqual(['client.input-required:advisory']);
    expect(ids(rpc({ body: v03Send({ taskId: 'open', contextId: 'c1' }) }), v)).toEqual([]);
  });

  it('a task the agent does not know: the client’s, when it named one (v1.0 MUST)', () => {
    const j = judgeClientRequest(
      rpc({ generation: 'v1.0', headers: { 'content-type': 'application/json', 'a2a-version': '1.0' }, body: v1Send({ taskId: 'nope' }) }),
      view(),
    );
    expect(judgeTaskNotFound('v1.0', j, { rpcCode: -32001, httpStatus: 200 })).toMatchObject({ checkId: 'client.task-reference', level: 'MUST' });
    expect(judgeTaskNotFound('v1.0', j, { rpcCode: -32602, httpStatus: 200 })).toBeUndefined();
    // HTTP+JSON: the ErrorInfo reason, or a 404 without one (protocol/errors.ts); a 404 naming another A2A error is not it.
    expect(judgeTaskNotFound('v1.0', j, { httpStatus: 404 })).toMatchObject({ checkId: 'client.task-reference' });
    expect(judgeTaskNotFound('v1.0', j, { httpStatus: 400, reason: 'TASK_NOT_FOUND' })).toMatchObject({ checkId: 'client.task-reference' });
    expect(judgeTaskNotFound('v1.0', j, { httpStatus: 404, reason: 'UNSUPPORTED_OPERATION' })).toBeUndefined();
  });

  it('HTTP+JSON routes per generation, with /v1 and tenants', () => {
    expect(restOperation('v0.3', 'POST', '/v1/message:send')).toEqual({ op: 'send' });
    expect(restOperation('v1.0', 'POST', '/message:stream')).toEqual({ op: 'stream' });
    expect(restOperation('v1.0', 'GET', '/tasks/t%201')).toEqual({ op: 'get', id: 't 1' });
    expect(restOperation('v1.0', 'POST', '/acme/tasks/t1:cancel', 'acme')).toEqual({ op: 'cancel', id: 't1' });
    const rest = (g: 'v0.3' | 'v1.0', path: string) =>
      judgeClientRequest(
        {
          generation: g,
          binding: 'HTTP+JSON',
          method: 'POST',
          path,
          query: {},
          headers: { 'a2a-version': '1.0' },
          body: JSON.stringify({ message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } }),
        },
        view(),
      ).findings;
    expect(rest('v1.0', '/message:send')).toEqual([]);
    expect(rest('v1.0', '/v1/message:send').map((f) => f.message)).toEqual([
      'POST /v1/message:send is not an HTTP+JSON route of v1.0 (v1.0 routes have no /v1 prefix: that is the v0.3 spelling).',
    ]);
  });
});
