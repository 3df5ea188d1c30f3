import type { Binding, Generation } from '../model/check';

/**
 * The one table of protocol errors: each A2A error (and the JSON-RPC 2.0 standard errors A2A adopts) by name, and per
 * generation how it travels: its JSON-RPC code, its HTTP+JSON status, its gRPC status and its google.rpc.ErrorInfo
 * reason, where that generation defines them. Checks, judges, the console session and the tap recognise an error
 * answer with `isA2AError` and name it with `a2aErrorName`; nothing else in the engine spells a code or a reason
 * (src/engine/protocol/errors-literals.test.ts holds all of src/engine to it, the quoted specification aside).
 *
 * Sources (schema and proto before prose, spec/a2a/REFERENCE.md §10), held by errors.test.ts:
 * - legacy: v0.1.0 a2a.json (the codes); the §8.2 document table also lists -32005 ContentTypeNotSupported (kept, with
 *   `source: 'text'`) and -32006 StreamingNotSupported, -32007 AuthenticationRequired, -32008 AuthorizationFailed,
 *   -32009 InvalidTaskState, -32010, -32011: not in the schema and later reassigned, so not names of this table.
 * - v0.2: v0.2.6 a2a.json; v0.3: v0.3.0 a2a.json. Neither defines HTTP+JSON statuses (v0.3.0 §3.2.3 only says
 *   "appropriate HTTP status codes (200, 400, 401, 403, 404, 500, etc.)") nor gRPC statuses (v0.3.0 §3.2.2 says "as
 *   defined in the proto annotations", and the v0.3.0 a2a.proto annotates none): silent, so absent here.
 * - v1.0: v1.0.1 §5.4 (codes, gRPC and HTTP statuses; the v1.0.0 table's different statuses as `http100`/`grpc100`),
 *   §9.5 (the standard JSON-RPC codes), §10.6 / §11.6 (ErrorInfo reason: the name in UPPER_SNAKE_CASE without
 *   "Error", domain "a2a-protocol.org"). v1.0 has no JSON schema and its a2a.proto defines no errors: the text is the
 *   only source. The standard errors have no row in §5.4: their HTTP+JSON and gRPC statuses are the §3.3.2 examples
 *   (validation: 400 / INVALID_ARGUMENT; system: 500 / INTERNAL), and none has an ErrorInfo reason (§11.6 asks one
 *   for A2A-specific errors only).
 */
export const A2A_ERROR_NAMES = [
  'ParseError',
  'InvalidRequest',
  'MethodNotFound',
  'InvalidParams',
  'InternalError',
  'TaskNotFound',
  'TaskNotCancelable',
  'PushNotificationNotSupported',
  'UnsupportedOperation',
  'ContentTypeNotSupported',
  'InvalidAgentResponse',
  'AuthenticatedExtendedCardNotConfigured',
  'ExtensionSupportRequired',
  'VersionNotSupported',
] as const;
export type A2AErrorName = (typeof A2A_ERROR_NAMES)[number];

/** The google.rpc.Code names the table uses. */
export type GrpcStatusName = 'NOT_FOUND' | 'FAILED_PRECONDITION' | 'INVALID_ARGUMENT' | 'INTERNAL' | 'UNIMPLEMENTED';

/** How one generation defines one error. */
export interface ErrorMapping {
  /** The error's name in this generation, e.g. `TaskNotFoundError`, v1.0 `ExtendedAgentCardNotConfiguredError`. */
  name: string;
  /** JSON-RPC error code. */
  code: number;
  /** Where the generation defines it: its JSON schema (a2a.json), or only its text (no schema, or the schema lacks it). */
  source: 'schema' | 'text';
  /** HTTP+JSON status (v1.0.1), and the v1.0.0 one where it differs. */
  http?: number;
  http100?: number;
  /**
   * gRPC status (v1.0.1), and the v1.0.0 one where it differs. The same google.rpc.Code name is the `status` of a v1.0
   * HTTP+JSON error body (google.rpc.Status in the AIP-193 form of the §11.6 example: 404 with "NOT_FOUND").
   */
  grpc?: GrpcStatusName;
  grpc100?: GrpcStatusName;
  /** google.rpc.ErrorInfo reason (v1.0: HTTP+JSON details, gRPC status details, JSON-RPC error.data). */
  reason?: string;
}

type Row = Partial<Record<Generation, ErrorMapping>>;

const V0: Generation[] = ['legacy', 'v0.2', 'v0.3'];
/** The same JSON-RPC definition in the listed generations before v1.0 (from their schemas unless `text`). */
function v0(name: string, code: number, gens: Generation[] = V0, text: Generation[] = []): Row {
  return Object.fromEntries(gens.map((g) => [g, { name, code, source: text.includes(g) ? 'text' : 'schema' }]));
}
/** v1.0 (v1.0.1 §5.4, §9.5, §3.3.2; v1.0.0 where it differs). */
const v1 = (name: string, code: number, m: Omit<ErrorMapping, 'name' | 'code' | 'source'> = {}): Row => ({ 'v1.0': { name, code, source: 'text', ...m } });

export const A2A_ERRORS: Readonly<Record<A2AErrorName, Row>> = {
  ParseError: { ...v0('JSONParseError', -32700), ...v1('JSONParseError', -32700, { http: 400 }) },
  // A JSON-RPC envelope error: HTTP+JSON and gRPC have no envelope of that kind.
  InvalidRequest: { ...v0('InvalidRequestError', -32600), ...v1('InvalidRequestError', -32600) },
  // HTTP+JSON: an unknown route is HTTP's 404 / 405; gRPC: UNIMPLEMENTED is gRPC's own code for an unknown method. A2A is silent on both.
  MethodNotFound: { ...v0('MethodNotFoundError', -32601), ...v1('MethodNotFoundError', -32601) },
  InvalidParams: { ...v0('InvalidParamsError', -32602), ...v1('InvalidParamsError', -32602, { http: 400, grpc: 'INVALID_ARGUMENT' }) },
  InternalError: { ...v0('InternalError', -32603), ...v1('InternalError', -32603, { http: 500, grpc: 'INTERNAL' }) },
  TaskNotFound: { ...v0('TaskNotFoundError', -32001), ...v1('TaskNotFoundError', -32001, { http: 404, grpc: 'NOT_FOUND', reason: 'TASK_NOT_FOUND' }) },
  TaskNotCancelable: {
    ...v0('TaskNotCancelableError', -32002),
    ...v1('TaskNotCancelableError', -32002, { http: 400, http100: 409, grpc: 'FAILED_PRECONDITION', reason: 'TASK_NOT_CANCELABLE' }),
  },
  PushNotificationNotSupported: {
    ...v0('PushNotificationNotSupportedError', -32003),
    ...v1('PushNotificationNotSupportedError', -32003, {
      http: 400,
      grpc: 'FAILED_PRECONDITION',
      grpc100: 'UNIMPLEMENTED',
      reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
    }),
  },
  UnsupportedOperation: {
    ...v0('UnsupportedOperationError', -32004),
    ...v1('UnsupportedOperationError', -32004, { http: 400, grpc: 'FAILED_PRECONDITION', grpc100: 'UNIMPLEMENTED', reason: 'UNSUPPORTED_OPERATION' }),
  },
  ContentTypeNotSupported: {
    ...v0('ContentTypeNotSupportedError', -32005, V0, ['legacy']),
    ...v1('ContentTypeNotSupportedError', -32005, { http: 400, http100: 415, grpc: 'INVALID_ARGUMENT', reason: 'CONTENT_TYPE_NOT_SUPPORTED' }),
  },
  InvalidAgentResponse: {
    ...v0('InvalidAgentResponseError', -32006, ['v0.2', 'v0.3']),
    ...v1('InvalidAgentResponseError', -32006, { http: 500, http100: 502, grpc: 'INTERNAL', reason: 'INVALID_AGENT_RESPONSE' }),
  },
  AuthenticatedExtendedCardNotConfigured: {
    ...v0('AuthenticatedExtendedCardNotConfiguredError', -32007, ['v0.3']),
    ...v1('ExtendedAgentCardNotConfiguredError', -32007, { http: 400, grpc: 'FAILED_PRECONDITION', reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED' }),
  },
  ExtensionSupportRequired: v1('ExtensionSupportRequiredError', -32008, { http: 400, grpc: 'FAILED_PRECONDITION', reason: 'EXTENSION_SUPPORT_REQUIRED' }),
  VersionNotSupported: v1('VersionNotSupportedError', -32009, {
    http: 400,
    grpc: 'FAILED_PRECONDITION',
    grpc100: 'UNIMPLEMENTED',
    reason: 'VERSION_NOT_SUPPORTED',
  }),
};

/**
 * Codes the v0.1.0 document's §8.2 table lists that its schema never defined, and that later releases reassigned
 * (-32006 to -32009): named for what the legacy text says, never identified in answers (a2aErrorName does not know them).
 */
export const LEGACY_DOCUMENT_CODES = {
  StreamingNotSupported: -32006,
  AuthenticationRequired: -32007,
  AuthorizationFailed: -32008,
  InvalidTaskState: -32009,
  RateLimitExceeded: -32010,
  ResourceUnavailable: -32011,
} as const;

/**
 * Reasons agents send that are not the specification's, read as the error they plainly mean (never required): the
 * v0.3 name of the extended card error spelled as a v1.0 reason.
 */
const REASON_ALIASES: Readonly<Record<string, A2AErrorName>> = { AUTHENTICATED_EXTENDED_CARD_NOT_CONFIGURED: 'AuthenticatedExtendedCardNotConfigured' };

const rows = (n: A2AErrorName): ErrorMapping[] => Object.values(A2A_ERRORS[n]);

/** Every error's JSON-RPC code: one per name in every generation that defines it (errors.test.ts holds that). */
export const JSONRPC_CODE = Object.fromEntries(A2A_ERROR_NAMES.map((n) => [n, rows(n)[0]!.code])) as Readonly<Record<A2AErrorName, number>>;

/** The JSON-RPC 2.0 standard errors A2A adopts (no ErrorInfo reason); the others are A2A-specific. */
export type StandardErrorName = 'ParseError' | 'InvalidRequest' | 'MethodNotFound' | 'InvalidParams' | 'InternalError';
export type A2ASpecificErrorName = Exclude<A2AErrorName, StandardErrorName>;

/** The A2A-specific errors' ErrorInfo reasons (v1.0), e.g. `ERROR_REASON.TaskNotFound` = `TASK_NOT_FOUND`. */
export const ERROR_REASON = Object.fromEntries(
  A2A_ERROR_NAMES.flatMap((n) => (A2A_ERRORS[n]['v1.0']?.reason ? [[n, A2A_ERRORS[n]['v1.0'].reason]] : [])),
) as Readonly<Record<A2ASpecificErrorName, string>>;

/**
 * A code in the range of A2A-specific errors: v1.0.1 §9.5 "A2A-specific errors use codes in the range -32001 to
 * -32099" (JSON-RPC 2.0 §5.1 reserves -32000 to -32099 for implementation-defined server errors).
 */
export const isA2ASpecificCode = (code: number): boolean => code <= -32001 && code >= -32099;

/** v1.0.1 §5.4: the gRPC status each ErrorInfo reason must travel with. */
export const GRPC_STATUS_OF_REASON: Readonly<Record<string, string>> = Object.fromEntries(
  A2A_ERROR_NAMES.flatMap((n) => {
    const m = A2A_ERRORS[n]['v1.0'];
    return m?.reason && m.grpc ? [[m.reason, m.grpc]] : [];
  }),
);

/**
 * Anything that may be an error answer: a Dialect CallOutcome, a StreamItem, or a raw probe read into this shape.
 * `binding` says which binding's error it is when known; otherwise a JSON-RPC code marks JSON-RPC, an HTTP status of
 * 400 or more HTTP+JSON, and anything else gRPC (its errors arrive at HTTP 200 with a status name).
 */
export interface ErrorAnswer {
  kind: string;
  error?: { code?: number; httpStatus: number; status?: string; reason?: string; binding?: Binding };
}

/** The errors whose v1.0 HTTP+JSON (or gRPC) status is `s`, in either v1.0 release. */
function byStatus(pick: (m: ErrorMapping) => (number | string | undefined)[], s: number | string): A2AErrorName[] {
  return A2A_ERROR_NAMES.filter((n) => {
    const m = A2A_ERRORS[n]['v1.0'];
    return !!m && pick(m).includes(s);
  });
}

/**
 * The error an answer is, by what identifies it on its binding: the JSON-RPC code; else the ErrorInfo reason;
 * else (HTTP+JSON, gRPC) a status that only one error maps to (HTTP 404 / gRPC NOT_FOUND: TaskNotFound; v1.0.0's
 * 409, 415, 502); a status several errors share (400, FAILED_PRECONDITION) names none. HTTP+JSON and gRPC statuses
 * are read with the v1.0 table also for v0.3, which has none ("appropriate HTTP status codes"). With `g`, only the
 * errors that generation defines are named.
 */
export function a2aErrorName(o: ErrorAnswer | undefined, g?: Generation): A2AErrorName | undefined {
  const e = o?.kind === 'error' ? o.error : undefined;
  if (!e) return undefined;
  const known = (n: A2AErrorName | undefined) => (n && (!g || A2A_ERRORS[n][g]) ? n : undefined);
  if (typeof e.code === 'number') return known(A2A_ERROR_NAMES.find((n) => JSONRPC_CODE[n] === e.code));
  const byReason = e.reason ? (A2A_ERROR_NAMES.find((n) => A2A_ERRORS[n]['v1.0']?.reason === e.reason) ?? REASON_ALIASES[e.reason]) : undefined;
  if (byReason) return known(byReason);
  const binding = e.binding ?? (e.httpStatus >= 400 ? 'HTTP+JSON' : 'GRPC');
  if (binding === 'JSONRPC') return undefined;
  const candidates =
    binding === 'HTTP+JSON' ? byStatus((m) => [m.http, m.http100], e.httpStatus) : e.status ? byStatus((m) => [m.grpc, m.grpc100], e.status) : [];
  return candidates.length === 1 ? known(candidates[0]) : undefined;
}

/** Whether an answer (any binding) is the error `name`: see `a2aErrorName`. */
export const isA2AError = (o: ErrorAnswer | undefined, name: A2AErrorName, g?: Generation): boolean => a2aErrorName(o, g) === name;
