import { describe, expect, it } from 'vitest';
import { operationName } from './operation';

const req = (method: string, url: string, body?: string) => ({ method, url, body });

describe('operationName: one label per operation, never a task id (issue 25 item 9)', () => {
  it('names a JSON-RPC call by its method', () => {
    expect(operationName(req('POST', 'http://h/a2a', '{"jsonrpc":"2.0","method":"tasks/get","params":{"id":"x"}}'))).toBe('tasks/get');
  });
  it('names an HTTP+JSON route by the operation it performs, whatever the task id', () => {
    const a = operationName(req('GET', 'http://h/v1/tasks/23295084-1b2c-4d5e-8f90-a1b2c3d4e5f6'), 'v0.3');
    const b = operationName(req('GET', 'http://h/v1/tasks/0f1e2d3c-1b2c-4d5e-8f90-a1b2c3d4e5f6'), 'v0.3');
    expect(a).toBe('tasks/get');
    expect(b).toBe(a);
    expect(operationName(req('POST', 'http://h/tasks/23295084-1b2c-4d5e-8f90-a1b2c3d4e5f6:cancel'))).toBe('CancelTask');
    expect(operationName(req('GET', 'http://h/tenant/tasks/abc:subscribe'))).toBe('SubscribeToTask');
    expect(operationName(req('POST', 'http://h/message:send'))).toBe('SendMessage');
    expect(operationName(req('POST', 'http://h/v1/message:stream'), 'v0.3')).toBe('message/stream');
    expect(operationName(req('GET', 'http://h/tasks/abc/pushNotificationConfigs/cfg-1'))).toBe('GetTaskPushNotificationConfig');
  });
  it('shows ids in any other path as {id}, and keeps plain paths', () => {
    expect(operationName(req('GET', 'http://h/things/23295084-1b2c-4d5e-8f90-a1b2c3d4e5f6/parts'))).toBe('GET /things/{id}/parts');
    expect(operationName(req('GET', 'http://h/.well-known/agent-card.json'))).toBe('GET /.well-known/agent-card.json');
  });
});
