/** A2A errors and their JSON-RPC / HTTP+JSON (v1.0.1 google.rpc.Status) renderings. */
import type { Generation } from './dialect';

export class A2AError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const E = {
  parse: () => new A2AError(-32700, 'Invalid JSON payload'),
  invalidRequest: (m = 'Request payload validation error') => new A2AError(-32600, m),
  methodNotFound: (m = 'Method not found') => new A2AError(-32601, m),
  invalidParams: (m = 'Invalid parameters', field?: string) => new A2AError(-32602, m, field),
  internal: (m = 'Internal error') => new A2AError(-32603, m),
  taskNotFound: (id: string) => new A2AError(-32001, `Task not found: ${id.slice(0, 200)}`),
  notCancelable: (state: string) => new A2AError(-32002, `Task cannot be canceled: it is already ${state}`),
  pushNotSupported: () => new A2AError(-32003, 'Push Notification is not supported'),
  unsupported: (m = 'This operation is not supported') => new A2AError(-32004, m),
  contentTypeNotSupported: (m = 'Incompatible content types') => new A2AError(-32005, m),
  extendedCardNotConfigured: () => new A2AError(-32007, 'Authenticated Extended Card is not configured'),
  versionNotSupported: (v: string) => new A2AError(-32009, `A2A-Version ${JSON.stringify(v.slice(0, 40))} is not supported; this agent speaks 1.0`),
};

interface HttpMapping {
  http: number;
  status: string;
  reason?: string;
}

const MAPPING: Record<number, HttpMapping> = {
  [-32700]: { http: 400, status: 'INVALID_ARGUMENT' },
  [-32600]: { http: 400, status: 'INVALID_ARGUMENT' },
  [-32601]: { http: 404, status: 'NOT_FOUND' },
  [-32602]: { http: 400, status: 'INVALID_ARGUMENT' },
  [-32603]: { http: 500, status: 'INTERNAL' },
  [-32001]: { http: 404, status: 'NOT_FOUND', reason: 'TASK_NOT_FOUND' },
  [-32002]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'TASK_NOT_CANCELABLE' },
  [-32003]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED' },
  [-32004]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'UNSUPPORTED_OPERATION' },
  [-32005]: { http: 400, status: 'INVALID_ARGUMENT', reason: 'CONTENT_TYPE_NOT_SUPPORTED' },
  [-32007]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'EXTENDED_AGENT_CARD_NOT_CONFIGURED' },
  [-32008]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'EXTENSION_SUPPORT_REQUIRED' },
  [-32009]: { http: 400, status: 'FAILED_PRECONDITION', reason: 'VERSION_NOT_SUPPORTED' },
};

export function httpMapping(code: number): HttpMapping {
  return MAPPING[code] ?? { http: 500, status: 'INTERNAL' };
}

const ERROR_INFO = 'type.googleapis.com/google.rpc.ErrorInfo';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';

function details(e: A2AError): Record<string, unknown>[] {
  const m = httpMapping(e.code);
  const out: Record<string, unknown>[] = [];
  if (m.reason) out.push({ '@type': ERROR_INFO, reason: m.reason, domain: 'a2a-protocol.org', metadata: {} });
  if (e.code === -32602) out.push({ '@type': BAD_REQUEST, fieldViolations: [{ field: e.field ?? 'params', description: e.message }] });
  return out;
}

export interface ErrorShape {
  /** Defect error-data-no-errorinfo: no google.rpc.ErrorInfo in error.data. */
  noErrorInfo?: boolean;
  /** Defect error-data-untyped: error.data items without "@type". */
  untyped?: boolean;
  /** Permitted rest-status-no-status-field: google.rpc.Status without its optional "status". */
  noStatusField?: boolean;
}

/** The JSON-RPC `error` member; v1.0 adds the `data` array of google.rpc details. */
export function rpcErrorObject(gen: Generation, e: A2AError, shape: ErrorShape = {}): Record<string, unknown> {
  const base = { code: e.code, message: e.message };
  if (gen !== 'v1.0') return base;
  let d = details(e);
  if (shape.noErrorInfo) d = d.filter((x) => x['@type'] !== ERROR_INFO);
  if (shape.untyped) d = d.map(({ '@type': _t, ...rest }) => rest);
  return d.length ? { ...base, data: d } : base;
}

/** google.rpc.Status body of an HTTP+JSON error. */
export function statusBody(e: A2AError, shape: ErrorShape = {}): { http: number; body: Record<string, unknown> } {
  const m = httpMapping(e.code);
  const status = shape.noStatusField ? {} : { status: m.status };
  return { http: m.http, body: { error: { code: m.http, ...status, message: e.message, details: details(e) } } };
}
