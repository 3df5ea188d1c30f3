import { describe, expect, it } from 'vitest';
import type { InboxDelivery } from '../../model/inbox';
import { reachabilityDoubt, readDelivery } from './push-inbox';

const d = (body: string, extra: Partial<InboxDelivery> = {}): InboxDelivery => ({
  seq: 1,
  at: 0,
  method: 'POST',
  headers: {},
  body,
  bodySize: body.length,
  truncated: false,
  token: 'absent',
  authorization: 'absent',
  ...extra,
});

describe('readDelivery: the payload per generation', () => {
  it('v1.0: a StreamResponse with exactly one member naming the task', () => {
    expect(readDelivery('v1.0', d('{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}'), 't')).toEqual({
      kind: 'statusUpdate',
      taskId: 't',
      rawState: 'TASK_STATE_COMPLETED',
      state: 'completed',
    });
    expect(readDelivery('v1.0', d('{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}'), 't').shape).toBeUndefined();
    expect(readDelivery('v1.0', d('{"artifactUpdate":{"taskId":"t","artifact":{}}}'), 't').shape).toBeUndefined();
    expect(readDelivery('v1.0', d('{"id":"t","kind":"task","status":{"state":"completed"}}'), 't')).toMatchObject({
      shape: expect.stringMatching(/bare Task/),
      state: 'completed',
    });
    expect(readDelivery('v1.0', d('{"task":{"id":"t"},"statusUpdate":{"taskId":"t"}}'), 't').shape).toMatch(/exactly one/);
    expect(readDelivery('v1.0', d('{"statusUpdate":{"taskId":"other","status":{"state":"TASK_STATE_WORKING"}}}'), 't').shape).toMatch(/names task other/);
    expect(readDelivery('v1.0', d('{"statusUpdate":{"taskId":"t","status":{"state":"DONE"}}}'), 't').shape).toMatch(/not a TaskState/);
  });

  it('v0.x and legacy: the Task object; a status-update event is a weaker finding; a v1.0 StreamResponse is the wrong shape', () => {
    expect(readDelivery('v0.3', d('{"id":"t","kind":"task","status":{"state":"completed"}}'), 't')).toEqual({
      kind: 'task',
      taskId: 't',
      rawState: 'completed',
      state: 'completed',
    });
    expect(readDelivery('v0.3', d('{"kind":"status-update","taskId":"t","status":{"state":"working"}}'), 't').weak).toMatch(/status-update event/);
    expect(readDelivery('v0.2', d('{"statusUpdate":{"taskId":"t","status":{"state":"TASK_STATE_COMPLETED"}}}'), 't').shape).toMatch(/v1\.0 StreamResponse/);
    expect(readDelivery('legacy', d('{"taskId":"t","status":{"state":"completed"}}'), 't').shape).toBeUndefined();
    expect(readDelivery('legacy', d('{"id":"t"}'), 't').shape).toMatch(/status\.state/);
  });

  it('garbage, non-objects and cut bodies are shape findings, never a crash', () => {
    expect(readDelivery('v1.0', d('<html>oops</html>'), 't').shape).toBe('the body is not JSON');
    expect(readDelivery('v1.0', d('[1,2]'), 't').shape).toMatch(/not a JSON object/);
    expect(readDelivery('v0.3', d('{"id":', { truncated: true, bodySize: 2_000_000 }), 't').shape).toMatch(/over our limit \(2000000 bytes\)/);
  });
});

describe('reachabilityDoubt', () => {
  it('a loopback inbox and an agent elsewhere, or a public inbox and a private agent, are doubtful; same machine is fine', () => {
    expect(reachabilityDoubt('http://127.0.0.1:5000/inbox/x', 'https://agent.example.com/a2a')).toMatch(/--webhook-url/);
    expect(reachabilityDoubt('https://a2a.team.example/inbox/x', 'http://10.0.0.5/a2a')).toMatch(/private network/);
    expect(reachabilityDoubt('http://127.0.0.1:5000/inbox/x', 'http://localhost:9999/a2a')).toBeUndefined();
    expect(reachabilityDoubt('https://hooks.example.net/inbox/x', 'https://agent.example.com')).toBeUndefined();
  });
});
