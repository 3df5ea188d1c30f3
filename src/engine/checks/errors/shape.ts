/**
 * Error checks on the shape of error answers: the binding's error object (errors.shape) and, in v1.0, a
 * google.rpc.ErrorInfo with the reason (errors.details).
 */
import { isA2ASpecificCode, JSONRPC_CODE } from '../../protocol/errors';
import { v1ErrorDataProblems } from '../../protocol/shapes';
import { isRecord } from '../../util/json';
import { defineCheck, ev, exchangeEvidence, fail, pass, skip } from '../define';
import { structuredError } from '../setups/probes';
import { PARSE_PROBE_ID, PROBES, probesFor } from './shared';

export const errorsShape = defineCheck({
  id: 'errors.shape',
  title: 'Error answers have the shape of the binding (JSON-RPC error object; JSON error bodies on HTTP+JSON, google.rpc.Status in v1.0)',
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §6.11.2, §6.12 JSONRPCError',
    'v0.2': 'v0.2.6 §6.11.2, §6.12 JSONRPCError',
    'v0.3': 'v0.3.0 §6.11.2, §6.12 JSONRPCError; §3.2.3 (HTTP+JSON: JSON error bodies)',
    'v1.0': 'v1.0.1 §3.3.2, §9.5, §11.6 (google.rpc.Status)',
  },
  recommendation:
    'JSON-RPC: {"jsonrpc":"2.0","id":<request id, or null when it could not be read>,"error":{"code":<integer>,"message":<string>}} with no "result" (v1.0: every object in error.data carries "@type"). HTTP+JSON v1.0: google.rpc.Status {"error":{"code":<HTTP status>,"message":…,"details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}, not application/problem+json. HTTP+JSON v0.3: a JSON error body, not an HTML page.',
  requires: ['json-wire'],
  run: async (ctx) => {
    // The probes are shared with the specific checks (memoized): whichever runs first makes them.
    const names = probesFor(ctx);
    const probes = await Promise.all(names.map((n) => PROBES[n](ctx)));
    // Crashes (no answer, a 5xx without a structured error) are judged by the probes' own checks.
    const judged = probes.filter(
      (p) =>
        p.http.responded &&
        !p.http.error &&
        p.http.status !== 401 &&
        p.http.status !== 403 &&
        p.http.status !== 429 &&
        (p.http.status < 500 || structuredError(ctx, p)),
    );
    if (!judged.length) return skip('No error answer to judge (the error probes did not run or got no answer).', 'precondition');
    const problems: [string, string][] = [];
    const notes = new Set<string>();
    let errorAnswers = 0;
    for (const p of judged) {
      if (ctx.dialect.isRest) {
        if (p.http.status < 400) continue;
        errorAnswers++;
        if (ctx.generation === 'v1.0') {
          p.rest?.problems.forEach((x) => problems.push([p.name, x]));
          p.rest?.notes.forEach((x) => notes.add(x));
        } else {
          const body = p.http.json();
          if (!body.ok)
            problems.push([
              p.name,
              `the error body is not JSON (HTTP ${p.http.status}, ${p.http.contentType || 'no content type'}); v0.3.0 §3.2.3 requires error responses in a consistent JSON format`,
            ]);
          else if (!isRecord(body.value)) problems.push([p.name, 'the error body is JSON but not an object that maps to an A2A error type (v0.3.0 §3.2.3)']);
        }
        continue;
      }
      if (p.notJson !== undefined) {
        errorAnswers++;
        problems.push([p.name, `the body is not JSON (HTTP ${p.http.status}, ${p.http.contentType || 'no content type'})`]);
        continue;
      }
      if (!p.rpc) continue;
      const env = p.rpc;
      if (env.hasError) errorAnswers++;
      env.problems.filter((x) => !x.startsWith('"id"')).forEach((x) => problems.push([p.name, x]));
      const idProblem = env.problems.find((x) => x.startsWith('"id"'));
      if (idProblem) {
        // JSON-RPC 2.0 §5: id null when the request id could not be detected (-32700 / -32600), whatever the probe;
        // a parse-error answer that recovered our id had no error detecting it.
        const code = env.error?.code;
        const nullOk = env.id === null && (code === JSONRPC_CODE.ParseError || code === JSONRPC_CODE.InvalidRequest);
        const recovered = p.name === 'invalid-json' && env.id === PARSE_PROBE_ID;
        if (!nullOk && !recovered) {
          const cantKnowId = p.name === 'invalid-json' || p.name === 'invalid-request';
          problems.push([p.name, cantKnowId ? `"id" should be null when the request id could not be read, got ${JSON.stringify(env.id)}` : idProblem]);
        }
      }
      if (ctx.generation === 'v1.0' && env.error) v1ErrorDataProblems(env.error.data, 'must').forEach((x) => problems.push([p.name, x]));
    }
    if (!errorAnswers && !problems.length)
      return skip('No probe was answered with an error, so there is no error shape to judge (see the other errors checks).', 'precondition');
    if (problems.length) {
      return fail(
        `${problems.length} shape problem(s): ${problems
          .slice(0, 3)
          .map(([n, x]) => `${n}: ${x}`)
          .join('; ')}.`,
        problems.slice(0, 20).map(([n, x]) => ev(n, x)),
      );
    }
    return pass(`${errorAnswers} error answer(s), all well-formed.${notes.size ? ` (${[...notes][0]}.)` : ''}`);
  },
});

export const errorsDetails = defineCheck({
  id: 'errors.details',
  title: 'A2A errors carry a google.rpc.ErrorInfo with the reason (v1.0)',
  category: 'error-handling',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §9.5 (error.data ErrorInfo: SHOULD; MUST in v1.0.0)' },
  recommendation:
    'Put a google.rpc.ErrorInfo in JSON-RPC error.data (a list of typed details): {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}.',
  requires: ['jsonrpc-binding'],
  run: async (ctx) => {
    const p = await PROBES['task-not-found'](ctx);
    const e = p.rpc?.error;
    if (!e || typeof e.code !== 'number' || !isA2ASpecificCode(e.code))
      return skip('No A2A-specific error answer to inspect (see errors.task-not-found).', 'precondition');
    // Untyped items of a data list break a MUST: errors.shape reports them.
    const problems = v1ErrorDataProblems(e.data, 'should');
    return problems.length
      ? fail(`The A2A error ${e.code} carries no usable ErrorInfo: ${problems.join('; ')}.`, [exchangeEvidence(p.http)])
      : pass('error.data carries a google.rpc.ErrorInfo.', [exchangeEvidence(p.http)]);
  },
});
