import { describe, expect, it } from 'vitest';
import { fakeHost, json } from '../../testing/fake-host';
import { createHttpContext } from '../http/client';
import type { Binding, Generation } from '../model/check';
import type { GrpcResult } from '../ports';
import { Dialect } from './dialect';
import { A2A_ERROR_NAMES, A2A_ERRORS, a2aErrorName, ERROR_REASON, GRPC_STATUS_OF_REASON, isA2AError, JSONRPC_CODE, type ErrorAnswer } from './errors';
import { grpcError } from './grpc';

const err = (e: NonNullable<ErrorAnswer['error']>): ErrorAnswer => ({ kind: 'error', error: e });

describe('the error table', () => {
  it('gives every error one JSON-RPC code in every generation that defines it', () => {
    for (const n of A2A_ERROR_NAMES) {
      const codes = new Set(Object.values(A2A_ERRORS[n]).map((m) => m.code));
      expect([...codes], n).toEqual([JSONRPC_CODE[n]]);
    }
    // No two names share a code.
    expect(new Set(Object.values(JSONRPC_CODE)).size).toBe(A2A_ERROR_NAMES.length);
    expect(JSONRPC_CODE.TaskNotFound).toBe(-32001);
    expect(JSONRPC_CODE.ParseError).toBe(-32700);
  });

  it('keeps the gRPC status each ErrorInfo reason must travel with (v1.0.1 §5.4)', () => {
    expect(GRPC_STATUS_OF_REASON).toEqual({
      TASK_NOT_FOUND: 'NOT_FOUND',
      TASK_NOT_CANCELABLE: 'FAILED_PRECONDITION',
      PUSH_NOTIFICATION_NOT_SUPPORTED: 'FAILED_PRECONDITION',
      UNSUPPORTED_OPERATION: 'FAILED_PRECONDITION',
      CONTENT_TYPE_NOT_SUPPORTED: 'INVALID_ARGUMENT',
      INVALID_AGENT_RESPONSE: 'INTERNAL',
      EXTENDED_AGENT_CARD_NOT_CONFIGURED: 'FAILED_PRECONDITION',
      EXTENSION_SUPPORT_REQUIRED: 'FAILED_PRECONDITION',
      VERSION_NOT_SUPPORTED: 'FAILED_PRECONDITION',
    });
    expect(Object.keys(ERROR_REASON)).toHaveLength(9);
    expect('InvalidParams' in ERROR_REASON).toBe(false);
  });
});

describe('isA2AError / a2aErrorName over every binding', () => {
  const cases: [string, ErrorAnswer, string | undefined][] = [
    ['JSON-RPC code', err({ code: -32001, httpStatus: 200, binding: 'JSONRPC' }), 'TaskNotFound'],
    ['JSON-RPC code at HTTP 404', err({ code: -32602, httpStatus: 404, binding: 'JSONRPC' }), 'InvalidParams'],
    ['JSON-RPC code beats a reason', err({ code: -32004, httpStatus: 200, reason: 'TASK_NOT_FOUND' }), 'UnsupportedOperation'],
    ['JSON-RPC without a code: nothing, whatever the HTTP status', err({ httpStatus: 404, binding: 'JSONRPC' }), undefined],
    ['JSON-RPC unknown code', err({ code: -32000, httpStatus: 200, binding: 'JSONRPC' }), undefined],
    ['HTTP+JSON 404 without a reason', err({ httpStatus: 404, binding: 'HTTP+JSON' }), 'TaskNotFound'],
    ['HTTP+JSON reason decides at a shared status', err({ httpStatus: 400, reason: 'TASK_NOT_CANCELABLE', binding: 'HTTP+JSON' }), 'TaskNotCancelable'],
    ['HTTP+JSON reason beats the status', err({ httpStatus: 404, reason: 'UNSUPPORTED_OPERATION', binding: 'HTTP+JSON' }), 'UnsupportedOperation'],
    ['HTTP+JSON 400 without a reason names none', err({ httpStatus: 400, binding: 'HTTP+JSON' }), undefined],
    ['HTTP+JSON unknown reason: the status', err({ httpStatus: 404, reason: 'NOT_HERE', binding: 'HTTP+JSON' }), 'TaskNotFound'],
    ['HTTP+JSON v1.0.0 409', err({ httpStatus: 409 }), 'TaskNotCancelable'],
    ['HTTP+JSON v1.0.0 415', err({ httpStatus: 415 }), 'ContentTypeNotSupported'],
    ['HTTP+JSON 500 is shared', err({ httpStatus: 500 }), undefined],
    ['gRPC NOT_FOUND without details', err({ httpStatus: 200, status: 'NOT_FOUND', binding: 'GRPC' }), 'TaskNotFound'],
    ['gRPC reason', err({ httpStatus: 200, status: 'FAILED_PRECONDITION', reason: 'VERSION_NOT_SUPPORTED' }), 'VersionNotSupported'],
    ['gRPC FAILED_PRECONDITION alone names none', err({ httpStatus: 200, status: 'FAILED_PRECONDITION', binding: 'GRPC' }), undefined],
    ['gRPC without a status', err({ httpStatus: 200, binding: 'GRPC' }), undefined],
    ['the v0.3 name as a reason', err({ httpStatus: 400, reason: 'AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED' }), 'AuthenticatedExtendedCardNotConfigured'],
    ['not an error', { kind: 'task' }, undefined],
  ];
  for (const [what, o, name] of cases) {
    it(what, () => {
      expect(a2aErrorName(o)).toBe(name);
      if (name) expect(isA2AError(o, name as (typeof A2A_ERROR_NAMES)[number])).toBe(true);
      expect(isA2AError(o, 'MethodNotFound')).toBe(false);
    });
  }

  it('with a generation, names only the errors it defines', () => {
    const v = err({ code: -32009, httpStatus: 200 });
    expect(a2aErrorName(v, 'v1.0')).toBe('VersionNotSupported');
    // v0.1.0's document gave -32009 to InvalidTaskState (never in the schema): no name of this table.
    expect(a2aErrorName(v, 'legacy')).toBeUndefined();
    expect(isA2AError(err({ code: -32005, httpStatus: 200 }), 'ContentTypeNotSupported', 'legacy')).toBe(true);
    expect(isA2AError(err({ code: -32007, httpStatus: 200 }), 'AuthenticatedExtendedCardNotConfigured', 'v0.2')).toBe(false);
  });

  const dialect = (generation: Generation, binding: Binding) =>
    new Dialect({ generation, binding, endpointUrl: 'https://a.example/', authHeaders: {}, authQuery: {}, acceptedOutputModes: [], uuid: () => 'u' });

  it('reads what the Dialect parsed: JSON-RPC, HTTP+JSON (v1.0 and v0.3) and gRPC', async () => {
    const rpc = fakeHost(() => json({ jsonrpc: '2.0', id: 'x', error: { code: -32001, message: 'no' } }));
    const a = await dialect('v0.3', 'JSONRPC').get(createHttpContext(rpc.host), { id: 't', lane: 'l' });
    expect(a2aErrorName(a)).toBe('TaskNotFound');
    // The same HTTP status without a code is no TaskNotFound over JSON-RPC.
    const rpc404 = fakeHost(() => json({ jsonrpc: '2.0', id: 'x', error: { message: 'no' } }, { status: 404 }));
    expect(a2aErrorName(await dialect('v0.3', 'JSONRPC').get(createHttpContext(rpc404.host), { id: 't', lane: 'l' }))).toBeUndefined();
    const status = {
      error: {
        code: 400,
        status: 'FAILED_PRECONDITION',
        message: 'done',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_CANCELABLE' }],
      },
    };
    const rest = fakeHost(() => json(status, { status: 400 }));
    expect(a2aErrorName(await dialect('v1.0', 'HTTP+JSON').cancel(createHttpContext(rest.host), { id: 't', lane: 'l' }))).toBe('TaskNotCancelable');
    const v03 = fakeHost(() => json({ message: 'Task not found' }, { status: 404 }));
    expect(isA2AError(await dialect('v0.3', 'HTTP+JSON').get(createHttpContext(v03.host), { id: 't', lane: 'l' }), 'TaskNotFound')).toBe(true);
    const grpc = (code: number, name: string, details: unknown[] = []): GrpcResult => ({
      code,
      status: name,
      statusMessage: 'x',
      details,
      messages: [],
      headers: {},
      trailers: {},
      responded: true,
      bytes: 0,
    });
    expect(a2aErrorName({ kind: 'error', error: grpcError(grpc(5, 'NOT_FOUND')) })).toBe('TaskNotFound');
    expect(a2aErrorName({ kind: 'error', error: grpcError(grpc(9, 'FAILED_PRECONDITION', [{ reason: 'UNSUPPORTED_OPERATION' }])) })).toBe(
      'UnsupportedOperation',
    );
    expect(a2aErrorName({ kind: 'error', error: grpcError(grpc(9, 'FAILED_PRECONDITION')) })).toBeUndefined();
  });
});
