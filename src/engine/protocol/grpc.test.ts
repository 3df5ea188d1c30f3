import { describe, expect, it } from 'vitest';
import { createHttpContext } from '../http/client';
import type { RunEvent } from '../model/events';
import { timerSleep, type GrpcRequest, type GrpcResult, type GrpcTransport, type Host } from '../ports';
import { Dialect } from './dialect';
import { grpcError, grpcMetadata } from './grpc';

const OK = (messages: unknown[]): GrpcResult => ({
  code: 0,
  status: 'OK',
  statusMessage: '',
  details: [],
  messages,
  headers: { 'content-type': 'application/grpc' },
  trailers: {},
  responded: true,
  bytes: 10,
});
const STATUS = (code: number, status: string, message: string, details: unknown[] = []): GrpcResult => ({
  ...OK([]),
  code,
  status,
  statusMessage: message,
  details,
});
const task = (state: string) => ({ id: 't1', contextId: 'c1', status: { state, timestamp: '2026-01-01T00:00:00Z' } });

/** A fake transport: answers from `script` by method name, records the requests. */
function fake(script: Record<string, (r: GrpcRequest) => GrpcResult | { stream: unknown[]; end: GrpcResult }>) {
  const calls: GrpcRequest[] = [];
  const t: GrpcTransport = {
    unary: async (r) => {
      calls.push(r);
      const a = script[r.method.split('/').pop() ?? '']?.(r);
      return a && !('stream' in a) ? a : STATUS(12, 'UNIMPLEMENTED', 'no');
    },
    serverStream: async (r, onMessage) => {
      calls.push(r);
      const a = script[r.method.split('/').pop() ?? '']?.(r);
      if (!a || !('stream' in a)) return STATUS(12, 'UNIMPLEMENTED', 'no');
      for (const m of a.stream) if (onMessage(m) === 'stop') return { ...a.end, code: undefined, error: { kind: 'aborted', message: 'stopped' } };
      return a.end;
    },
  };
  return { t, calls };
}

function setup(t?: GrpcTransport) {
  const events: RunEvent[] = [];
  const host: Host = {
    fetch: () => Promise.reject(new Error('no HTTP here')),
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID: () => crypto.randomUUID(),
    grpc: t,
  };
  const http = createHttpContext(host, { emit: (e) => events.push(e) });
  http.redactor.addSecret('s3cret-token');
  const d = new Dialect({
    generation: 'v1.0',
    binding: 'GRPC',
    endpointUrl: '127.0.0.1:5000',
    authHeaders: { Authorization: 'Bearer s3cret-token' },
    authQuery: {},
    acceptedOutputModes: ['text/plain'],
    uuid: () => crypto.randomUUID(),
  });
  return { d, http, events };
}

describe('gRPC binding over a GrpcTransport', () => {
  it('sends the JSON-RPC params as the request message with metadata, reads a Task, records the call redacted', async () => {
    const { t, calls } = fake({ SendMessage: () => OK([{ task: task('TASK_STATE_COMPLETED') }]) });
    const { d, http, events } = setup(t);
    const o = await d.send(http, { text: 'hi', lane: 'l' });
    expect(o.kind).toBe('task');
    if (o.kind === 'task') expect(o.task.state).toBe('completed');
    expect(calls[0]?.method).toBe('/lf.a2a.v1.A2AService/SendMessage');
    expect(calls[0]?.metadata).toMatchObject({ 'a2a-version': '1.0', authorization: 'Bearer s3cret-token' });
    expect(calls[0]?.metadata.accept).toBeUndefined();
    expect(calls[0]?.message).toMatchObject({ message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } });
    const req = events.find((e) => e.type === 'http-request');
    expect(req?.type === 'http-request' && req.request.url).toBe('127.0.0.1:5000/lf.a2a.v1.A2AService/SendMessage');
    expect(JSON.stringify(events)).not.toContain('s3cret-token');
    const res = events.find((e) => e.type === 'http-response');
    expect(res?.type === 'http-response' && res.response?.body).toContain('TASK_STATE_COMPLETED');
  });

  it('reads an error status: code name, ErrorInfo reason, and the §5.4 mapping judged', async () => {
    const info = (reason: string, domain = 'a2a-protocol.org') => ({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain });
    const { t } = fake({
      GetTask: () => STATUS(5, 'NOT_FOUND', 'no such task', [info('TASK_NOT_FOUND')]),
      CancelTask: () => STATUS(13, 'INTERNAL', 'oops', [info('TASK_NOT_CANCELABLE', 'example.com')]),
    });
    const { d, http } = setup(t);
    const get = await d.get(http, { id: 'x', lane: 'l' });
    expect(get.kind === 'error' && get.error).toMatchObject({ status: 'NOT_FOUND', reason: 'TASK_NOT_FOUND', problems: [] });
    const cancel = await d.cancel(http, { id: 'x', lane: 'l' });
    expect(cancel.kind).toBe('error');
    if (cancel.kind === 'error') {
      expect(cancel.error.reason).toBe('TASK_NOT_CANCELABLE');
      expect(cancel.error.problems.join(' ')).toMatch(/domain.*example\.com/);
      expect(cancel.error.problems.join(' ')).toMatch(/FAILED_PRECONDITION.*got INTERNAL/);
    }
    expect(grpcError(STATUS(9, 'FAILED_PRECONDITION', 'x', [info('UNSUPPORTED_OPERATION')])).problems).toEqual([]);
  });

  it('reads a server stream as items, a final error status as the last item, and stops when asked', async () => {
    const events = [
      { task: task('TASK_STATE_SUBMITTED') },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } },
      { statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } } },
    ];
    const { t } = fake({
      SendStreamingMessage: () => ({ stream: events, end: OK([]) }),
      SubscribeToTask: () => ({
        stream: [],
        end: STATUS(9, 'FAILED_PRECONDITION', 'terminal', [{ reason: 'UNSUPPORTED_OPERATION', domain: 'a2a-protocol.org' }]),
      }),
    });
    const { d, http } = setup(t);
    const run = await d.streamSend(http, { text: 'hi', lane: 'l' });
    expect(run.items.map((i) => i.kind)).toEqual(['task', 'status', 'status']);
    expect(run.items[2]?.state).toBe('completed');
    expect(run.reason).toBe('closed');
    expect(run.result.error).toBeUndefined();
    const stopped = await d.streamSend(http, { text: 'hi', lane: 'l' }, () => 'stop');
    expect(stopped.items).toHaveLength(1);
    expect(stopped.reason).toBe('stopped');
    expect(stopped.result.error).toBeUndefined();
    const sub = await d.subscribe(http, { id: 't1', lane: 'l' });
    expect(sub.items).toHaveLength(1);
    expect(sub.items[0]).toMatchObject({ kind: 'error', error: { status: 'FAILED_PRECONDITION', reason: 'UNSUPPORTED_OPERATION' } });
  });

  it('never blames the agent for a host without gRPC or a connection that failed; decode failures are the agent’s', async () => {
    const none = setup(undefined);
    const o = await none.d.get(none.http, { id: 'x', lane: 'l' });
    expect(o.kind).toBe('transport');
    expect(o.http.error?.blame).toBe('tool');
    const { t } = fake({
      GetTask: () => ({ ...OK([]), code: undefined, responded: false, error: { kind: 'connect', message: 'ECONNREFUSED' } }),
      CancelTask: () => ({ ...OK([]), code: undefined, error: { kind: 'decode', message: 'index out of range' } }),
    });
    const { d, http } = setup(t);
    const refused = await d.get(http, { id: 'x', lane: 'l' });
    expect(refused.kind).toBe('transport');
    expect(refused.http.error).toMatchObject({ code: 'connect_failed', blame: 'unknown' });
    const garbage = await d.cancel(http, { id: 'x', lane: 'l' });
    expect(garbage.kind).toBe('invalid');
  });

  it('times out a silent agent with our deadline', async () => {
    const t: GrpcTransport = {
      unary: (r) =>
        new Promise((resolve) =>
          r.signal?.addEventListener('abort', () => resolve({ ...OK([]), code: undefined, responded: false, error: { kind: 'aborted', message: 'x' } })),
        ),
      serverStream: () => Promise.reject(new Error('unused')),
    };
    const { d, http } = setup(t);
    const o = await d.get(http, { id: 'x', lane: 'l', timeoutMs: 50 });
    expect(o.kind).toBe('transport');
    expect(o.http.error?.source).toBe('timeout');
  });

  it('metadata keys are lower case, without Accept and Content-Type', () => {
    expect(grpcMetadata({ Accept: 'x', 'Content-Type': 'y', 'A2A-Version': '1.0', 'X-Api-Key': 'k' })).toEqual({ 'a2a-version': '1.0', 'x-api-key': 'k' });
  });
});
