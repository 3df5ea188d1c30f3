import { describe, expect, it } from 'vitest';
import { fakeHost, json } from '../../testing/fake-host';
import { createHttpContext } from '../http/client';
import type { Generation } from '../model/check';
import { Dialect } from './dialect';
import { describeOperation, methodName, OPERATIONS, operationUrl, restBase, type Operation } from './operations';

const OPS = Object.keys(OPERATIONS) as Operation[];

describe('the table of protocol operations', () => {
  it('names every operation in every generation, JSON-RPC and HTTP+JSON', () => {
    expect(OPS.map((op) => methodName('v1.0', op))).toEqual([
      'SendMessage',
      'SendStreamingMessage',
      'GetTask',
      'CancelTask',
      'SubscribeToTask',
      'CreateTaskPushNotificationConfig',
      'GetTaskPushNotificationConfig',
      'ListTaskPushNotificationConfigs',
      'DeleteTaskPushNotificationConfig',
      'ListTasks',
      'GetExtendedAgentCard',
    ]);
    expect(['send', 'stream', 'pushSet', 'pushGet'].map((op) => methodName('legacy', op as Operation))).toEqual([
      'tasks/send',
      'tasks/sendSubscribe',
      'tasks/pushNotification/set',
      'tasks/pushNotification/get',
    ]);
    expect(methodName('v0.3', 'pushSet')).toBe('tasks/pushNotificationConfig/set');
    expect(methodName('v0.2', 'extendedCard')).toBe('agent/authenticatedExtendedCard');
    const rest = (g: Generation) => OPS.map((op) => describeOperation({ generation: g, binding: 'HTTP+JSON' }, op, 't1', 'c1'));
    expect(rest('v1.0')).toEqual([
      'POST /message:send',
      'POST /message:stream',
      'GET /tasks/t1',
      'POST /tasks/t1:cancel',
      'GET /tasks/t1:subscribe',
      'POST /tasks/t1/pushNotificationConfigs',
      'GET /tasks/t1/pushNotificationConfigs/c1',
      'GET /tasks/t1/pushNotificationConfigs',
      'DELETE /tasks/t1/pushNotificationConfigs/c1',
      'GET /tasks',
      'GET /extendedAgentCard',
    ]);
    expect(rest('v0.3')[0]).toBe('POST /v1/message:send');
    expect(rest('v0.3').at(-1)).toBe('GET /v1/card');
    expect(describeOperation({ generation: 'v0.3', binding: 'JSONRPC' }, 'get')).toBe('tasks/get');
    // Placeholders stay readable when no id is given.
    expect(describeOperation({ generation: 'v1.0', binding: 'HTTP+JSON' }, 'pushGet')).toBe('GET /tasks/{id}/pushNotificationConfigs/{configId}');
  });

  it('derives URLs: the v1.0 tenant and the v0.x /v1 prefix (once), encoded ids; JSON-RPC goes to the endpoint', () => {
    const v1 = { generation: 'v1.0' as const, binding: 'HTTP+JSON' as const, endpointUrl: 'https://a.example/api/', tenant: 'acme corp' };
    expect(operationUrl(v1, 'send')).toBe('https://a.example/api/acme%20corp/message:send');
    expect(operationUrl(v1, 'get', { id: 'a/b?c' })).toBe('https://a.example/api/acme%20corp/tasks/a%2Fb%3Fc');
    expect(operationUrl({ ...v1, tenant: undefined }, 'stream')).toBe('https://a.example/api/message:stream');
    expect(operationUrl({ ...v1, generation: 'v0.3' }, 'stream')).toBe('https://a.example/api/v1/message:stream');
    expect(restBase({ generation: 'v0.3', endpointUrl: 'https://a.example/v1/' })).toBe('https://a.example/v1');
    expect(operationUrl({ ...v1, binding: 'JSONRPC' }, 'send')).toBe('https://a.example/api/');
    // A $ pattern in an id (shown as given in messages) is not a replacement pattern.
    expect(describeOperation(v1, 'cancel', "$&$'")).toBe("POST /tasks/$&$':cancel");
  });
});

describe('Dialect requests come from the table', () => {
  const cases: { g: Generation; binding: 'JSONRPC' | 'HTTP+JSON'; url: string; body?: Record<string, unknown> }[] = [
    { g: 'v1.0', binding: 'HTTP+JSON', url: 'https://a.example/t1/tasks?contextId=c&pageSize=5' },
    { g: 'v1.0', binding: 'JSONRPC', url: 'https://a.example/', body: { method: 'ListTasks', params: { contextId: 'c', pageSize: 5, tenant: 't1' } } },
  ];
  for (const c of cases) {
    it(`ListTasks goes through the Dialect with the tenant (${c.binding})`, async () => {
      const { host, requests } = fakeHost(() => json(c.binding === 'JSONRPC' ? { jsonrpc: '2.0', id: 'x', result: { tasks: [] } } : { tasks: [] }));
      const d = new Dialect({
        generation: c.g,
        binding: c.binding,
        endpointUrl: 'https://a.example/',
        tenant: 't1',
        authHeaders: {},
        authQuery: { key: 'k' },
        acceptedOutputModes: ['text/plain'],
        uuid: () => 'u-1234567890',
      });
      const out = await d.list(createHttpContext(host), { lane: 'l', contextId: 'c', pageSize: 5 });
      expect(out.kind).toBe('ok');
      const req = requests[0];
      expect(req?.url).toBe(c.binding === 'JSONRPC' ? 'https://a.example/?key=k' : `${c.url}&key=k`);
      if (c.body) expect(await req?.json()).toMatchObject(c.body);
      else expect(req?.method).toBe('GET');
    });
  }

  it('subscribe over HTTP+JSON tries the proto GET, then the text POST when the route is missing', async () => {
    const { host, requests } = fakeHost((req) =>
      req.method === 'GET'
        ? new Response('', { status: 405 })
        : new Response('data: {"task":{"id":"t"}}\n\n', { headers: { 'content-type': 'text/event-stream' } }),
    );
    const d = new Dialect({
      generation: 'v1.0',
      binding: 'HTTP+JSON',
      endpointUrl: 'https://a.example',
      tenant: 'ten',
      authHeaders: {},
      authQuery: {},
      acceptedOutputModes: [],
      uuid: () => 'u',
    });
    const run = await d.subscribe(createHttpContext(host), { lane: 'l', id: 'task 1' });
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET https://a.example/ten/tasks/task%201:subscribe',
      'POST https://a.example/ten/tasks/task%201:subscribe',
    ]);
    expect(run.items.map((i) => i.kind)).toEqual(['task']);
    expect(d.describe('subscribe', 'task 1')).toBe('GET /tasks/task 1:subscribe');
    expect(d.pushMethod('delete', 't', 'c')).toBe('DELETE /tasks/t/pushNotificationConfigs/c');
  });
});
