import { describe, expect, it } from 'vitest';
import type { HttpResult } from '../http/client';
import type { CallOutcome } from '../protocol/dialect';
import { normalizeCard } from '../card/normalize';
import { acceptedOutputModes } from '../runner/target';
import { sampleCard } from '../../testing/fake-host';
import type { CheckContext } from './define';
import { isNotCancelable } from './lifecycle';
import { contentTypeRefusal, isTaskNotFound, rateLimited } from './tasks';

const http = (status: number, headers: Record<string, string> = {}): HttpResult => ({
  exchangeId: 'x1',
  url: 'http://agent.test/',
  responded: true,
  status,
  headers: new Headers(headers),
  contentType: 'application/json',
  text: '{}',
  bytes: 2,
  truncated: false,
  bom: false,
  invalidUtf8: false,
  startedAt: 0,
  endedAt: 0,
  json: () => ({ ok: true, value: {} }),
});
const error = (e: { code?: number; reason?: string; status?: string; message?: string }, httpStatus = 200): Extract<CallOutcome, { kind: 'error' }> => ({
  kind: 'error',
  error: { httpStatus, message: e.message ?? '', problems: [], ...e },
  http: http(httpStatus),
  envelopeProblems: [],
});

describe('content-type refusals per generation and binding (X1.1)', () => {
  it('-32005, reason CONTENT_TYPE_NOT_SUPPORTED and HTTP 415 are explicit everywhere', () => {
    expect(contentTypeRefusal(error({ code: -32005, message: 'nope' }), 'legacy', 'JSONRPC')).toBe('explicit');
    expect(contentTypeRefusal(error({ reason: 'CONTENT_TYPE_NOT_SUPPORTED' }, 400), 'v1.0', 'HTTP+JSON')).toBe('explicit');
    expect(contentTypeRefusal(error({}, 415), 'v1.0', 'HTTP+JSON')).toBe('explicit');
  });

  it('v1.0: a validation error counts only when it names the content type (-32602, or 400 INVALID_ARGUMENT)', () => {
    expect(contentTypeRefusal(error({ code: -32602, message: 'Unsupported media type image/gif' }), 'v1.0', 'JSONRPC')).toBe('explicit');
    expect(contentTypeRefusal(error({ code: -32602, message: 'params.message is required' }), 'v1.0', 'JSONRPC')).toBeUndefined();
    expect(contentTypeRefusal(error({ code: -32602, message: 'Unsupported media type' }), 'v0.3', 'JSONRPC')).toBeUndefined();
    expect(contentTypeRefusal(error({ status: 'INVALID_ARGUMENT', message: 'content type text/plain not accepted' }, 400), 'v1.0', 'HTTP+JSON')).toBe('explicit');
    expect(contentTypeRefusal(error({ reason: 'TASK_NOT_FOUND', message: 'content type' }, 400), 'v1.0', 'HTTP+JSON')).toBeUndefined();
  });

  it('v0.3 REST (no status table): a 4xx naming it is explicit, any other 4xx only possible; auth, 404 and 429 never', () => {
    expect(contentTypeRefusal(error({ message: 'mime type not allowed' }, 422), 'v0.3', 'HTTP+JSON')).toBe('explicit');
    expect(contentTypeRefusal(error({ message: 'bad request' }, 400), 'v0.3', 'HTTP+JSON')).toBe('possible');
    for (const s of [401, 403, 404, 429]) expect(contentTypeRefusal(error({ message: 'x' }, s), 'v0.3', 'HTTP+JSON'), String(s)).toBeUndefined();
  });
});

describe('cancel refusals, TaskNotFound and rate limits', () => {
  const ctx = (generation: CheckContext['generation'], isRest: boolean) => ({ generation, dialect: { isRest } }) as unknown as CheckContext;

  it('TaskNotCancelable: -32002; v1.0 REST 400/409 with TASK_NOT_CANCELABLE; v0.3 REST any 4xx but auth/404/429', () => {
    expect(isNotCancelable(error({ code: -32002 }), ctx('v0.3', false))).toBe(true);
    expect(isNotCancelable(error({ code: -32603 }), ctx('v0.3', false))).toBe(false);
    expect(isNotCancelable(error({ reason: 'TASK_NOT_CANCELABLE' }, 409), ctx('v1.0', true))).toBe(true);
    expect(isNotCancelable(error({ reason: 'UNSUPPORTED_OPERATION' }, 400), ctx('v1.0', true))).toBe(false);
    expect(isNotCancelable(error({ message: 'task is done' }, 422), ctx('v0.3', true))).toBe(true);
    expect(isNotCancelable(error({ message: 'not found' }, 404), ctx('v0.3', true))).toBe(false);
    expect(isTaskNotFound(error({ message: 'not found' }, 404), ctx('v0.3', true))).toBe(true);
    expect(isTaskNotFound(error({ code: -32001 }), ctx('v1.0', false))).toBe(true);
  });

  it('a 429 is a tool limit naming how to go on; other statuses are not', () => {
    const limited: CallOutcome = { ...error({ message: 'slow down' }, 429), http: http(429, { 'retry-after': '30' }) };
    expect(rateLimited(limited, 'Creating a task')).toMatchObject({ status: 'skip', skipKind: 'tool-limit', message: expect.stringMatching(/429 Too Many Requests \(Retry-After: 30\).*allow the test client more requests/) });
    expect(rateLimited(error({ code: -32603 }, 500), 'x')).toBeUndefined();
  });
});

describe('accepted output modes (X1.4)', () => {
  it("are the skill's own modes with the card's defaults, else the defaults, else text and JSON", () => {
    const card = normalizeCard({ ...sampleCard('v1.0'), defaultOutputModes: ['text/plain'] });
    expect(acceptedOutputModes(card, ['image/png'])).toEqual(['image/png', 'text/plain']);
    expect(acceptedOutputModes(card)).toEqual(['text/plain']);
    expect(acceptedOutputModes(normalizeCard({ ...sampleCard('v1.0'), defaultOutputModes: [] }))).toEqual(['text/plain', 'application/json']);
  });
});
