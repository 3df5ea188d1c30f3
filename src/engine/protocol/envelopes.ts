import { isRecord, typeName } from '../util/json';

/**
 * The frame around an answer, for both bindings: the JSON-RPC 2.0 response envelope (JSON-RPC 2.0 §5), the error
 * details v1.0 asks for (v1.0.1 §9.5 and §11.6: google.rpc.ErrorInfo in `data` / google.rpc.Status bodies), REST
 * error bodies of every generation, and JSON nesting depth. Tolerant: never throws on hostile input.
 */

export interface JsonRpcEnvelope {
  problems: string[];
  result?: unknown;
  error?: { code: unknown; message: unknown; data?: unknown };
  hasResult: boolean;
  hasError: boolean;
  id?: unknown;
}

/** JSON-RPC 2.0 response envelope: version, matching id, exactly one of result/error, error object shape. */
export function jsonRpcEnvelope(v: unknown, expectedId: string | number | null): JsonRpcEnvelope {
  if (!isRecord(v)) return { problems: [`the response should be a JSON-RPC object, got ${typeName(v)}`], hasResult: false, hasError: false };
  const problems: string[] = [];
  if (v.jsonrpc !== '2.0') problems.push(`"jsonrpc" should be "2.0", got ${JSON.stringify(v.jsonrpc)}`);
  const hasResult = 'result' in v;
  const hasError = 'error' in v && v.error !== undefined;
  if (hasResult && hasError) problems.push('the response has both "result" and "error" (JSON-RPC 2.0 §5 allows exactly one)');
  if (!hasResult && !hasError) problems.push('the response has neither "result" nor "error"');
  if (expectedId !== undefined && v.id !== expectedId) {
    problems.push(`"id" should echo the request id ${JSON.stringify(expectedId)}, got ${JSON.stringify(v.id)}`);
  }
  let error: JsonRpcEnvelope['error'];
  if (hasError) {
    if (!isRecord(v.error)) problems.push(`"error" should be an object, got ${typeName(v.error)}`);
    else {
      error = { code: v.error.code, message: v.error.message, data: v.error.data };
      if (typeof v.error.code !== 'number' || !Number.isInteger(v.error.code))
        problems.push(`error.code should be an integer, got ${JSON.stringify(v.error.code)}`);
      if (typeof v.error.message !== 'string') problems.push('error.message should be a string');
    }
  }
  return { problems, result: v.result, error, hasResult, hasError, id: v.id };
}

/**
 * v1.0 JSON-RPC `error.data` (v1.0.1 §9.5): each object in the data array MUST carry an `@type` (`must`); the
 * details SHOULD be a list with a google.rpc.ErrorInfo (`should`: a missing or free-form `data`, no ErrorInfo).
 * `all` (the default) returns both.
 */
export function v1ErrorDataProblems(data: unknown, which: 'all' | 'must' | 'should' = 'all'): string[] {
  const must = which !== 'should';
  const should = which !== 'must';
  if (data === undefined) return should ? ['error.data is missing; v1.0 A2A errors SHOULD carry a google.rpc.ErrorInfo in error.data'] : [];
  if (!Array.isArray(data)) return should ? [`error.data should be a list of typed details (with a google.rpc.ErrorInfo), got ${typeName(data)}`] : [];
  const out: string[] = [];
  if (must) {
    data.slice(0, 10).forEach((d, i) => {
      if (!isRecord(d) || typeof d['@type'] !== 'string') out.push(`error.data[${i}] MUST be an object with "@type" (v1.0.1 §9.5)`);
    });
  }
  if (should && !data.some((d) => isRecord(d) && typeof d['@type'] === 'string' && d['@type'].endsWith('google.rpc.ErrorInfo'))) {
    out.push('error.data has no google.rpc.ErrorInfo');
  }
  return out;
}

export interface RestError {
  /** Breaches of the v1.0 §11.6 google.rpc.Status rules (MUST): judged by errors.shape on v1.0 only. */
  problems: string[];
  /** Remarks that are not findings: e.g. the string `status` field, shown only in the §11.6 example (AIP-193), is absent. */
  notes: string[];
  status?: string;
  reason?: string;
  message?: string;
  code?: number;
  /** The body is JSON at all. */
  json: boolean;
  /**
   * The body is a recognizable JSON error: google.rpc.Status, `{"message": …}` (a2a-python 0.3), `{"error": "…"}`
   * or application/problem+json. A 5xx carrying one is an answer, not a crash.
   */
  structured: boolean;
}

const looksLikeProblemJson = (v: Record<string, unknown>) =>
  !('error' in v) &&
  (typeof v.title === 'string' || typeof v.type === 'string' || typeof v.detail === 'string') &&
  (v.status === undefined || typeof v.status === 'number');

/**
 * An HTTP+JSON error body, read tolerantly (any generation) and judged against v1.0 §11.6: google.rpc.Status
 * `{"error":{"code","message","details":[…]}}` with `code` equal to the HTTP status, an `@type` on every detail and
 * a google.rpc.ErrorInfo for A2A-specific errors (`a2aError`). The string `status` ("NOT_FOUND") is not part of
 * google.rpc.Status (only of the §11.6 example): its absence is no finding (a note). `v` is undefined when the body is not JSON.
 */
export function restErrorBody(v: unknown, httpStatus: number, a2aError = false): RestError {
  const json = v !== undefined;
  if (!isRecord(v) || !isRecord(v.error)) {
    const rec = isRecord(v) ? v : undefined;
    const problemJson = rec ? looksLikeProblemJson(rec) : false;
    const structured = !!rec && (typeof rec.message === 'string' || typeof rec.error === 'string' || problemJson);
    const problem = !json
      ? 'the error body is not JSON; v1.0 §11.6 requires google.rpc.Status {"error": {"code", "message", "details"}}'
      : problemJson
        ? 'the error body is application/problem+json (as in the v1.0.1 §6.4/§6.5 examples), but §11.6 requires google.rpc.Status {"error": {"code", "message", "details"}} for HTTP+JSON errors'
        : `the error body should be google.rpc.Status {"error": {"code", "message", "details"}}, got ${rec ? `an object with ${Object.keys(rec).slice(0, 6).join(', ') || 'no fields'}` : typeName(v)}`;
    return {
      problems: [problem],
      notes: [],
      json,
      structured,
      message: rec
        ? typeof rec.message === 'string'
          ? rec.message
          : typeof rec.detail === 'string'
            ? rec.detail
            : typeof rec.error === 'string'
              ? rec.error
              : typeof rec.title === 'string'
                ? rec.title
                : undefined
        : undefined,
      code: rec && typeof rec.code === 'number' ? rec.code : rec && typeof rec.status === 'number' ? rec.status : undefined,
    };
  }
  const e = v.error;
  const problems: string[] = [];
  const notes: string[] = [];
  if (e.code !== httpStatus) problems.push(`error.code ${JSON.stringify(e.code)} should equal the HTTP status ${httpStatus}`);
  if (e.status !== undefined && typeof e.status !== 'string') problems.push(`error.status should be a string, got ${typeName(e.status)}`);
  if (e.status === undefined)
    notes.push(
      'error.status (e.g. "NOT_FOUND") is absent, which is fine: google.rpc.Status has no such field; only the v1.0.1 §11.6 example (AIP-193) shows it',
    );
  if (typeof e.message !== 'string') problems.push('error.message is missing (v1.0.1 §3.3.2: every error MUST convey a message)');
  let reason: string | undefined;
  if (e.details !== undefined && !Array.isArray(e.details)) problems.push('error.details should be a list of typed details');
  const details = Array.isArray(e.details) ? e.details : [];
  details.slice(0, 10).forEach((d, i) => {
    if (!isRecord(d) || typeof d['@type'] !== 'string') problems.push(`error.details[${i}] MUST have an "@type"`);
  });
  const info = details.find((d) => isRecord(d) && typeof d['@type'] === 'string' && d['@type'].endsWith('google.rpc.ErrorInfo'));
  if (info) reason = typeof (info as Record<string, unknown>).reason === 'string' ? String((info as Record<string, unknown>).reason) : undefined;
  else if (a2aError) problems.push('error.details has no google.rpc.ErrorInfo (MUST for A2A-specific errors, §11.6)');
  return {
    problems,
    notes,
    json,
    structured: true,
    status: typeof e.status === 'string' ? e.status : undefined,
    reason,
    message: typeof e.message === 'string' ? e.message : undefined,
    code: typeof e.code === 'number' ? e.code : undefined,
  };
}

/** Nesting beyond which common JSON parsers give up (Python's json hits its recursion limit near 1000). */
export const MAX_PORTABLE_JSON_DEPTH = 512;

/** Maximum nesting depth of a JSON text (objects and arrays), scanning at most `limit` characters. */
export function jsonDepth(text: string, limit = 20_000_000): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  const n = Math.min(text.length, limit);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

/** A problem for answers nested deeper than portable parsers accept; undefined when fine. */
export function depthProblem(text: string): string | undefined {
  if (text.length < 2 * MAX_PORTABLE_JSON_DEPTH) return undefined;
  const d = jsonDepth(text);
  return d > MAX_PORTABLE_JSON_DEPTH
    ? `the answer nests JSON ${d} levels deep; clients built on Python's json (recursion limit 1000), and many others, cannot read it (keep it under ${MAX_PORTABLE_JSON_DEPTH})`
    : undefined;
}
