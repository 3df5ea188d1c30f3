/**
 * Error checks on malformed requests: an unknown method, a body that is not JSON, JSON that is not a JSON-RPC
 * request, malformed params, and a JSON-RPC notification.
 */
import { ERROR_REASON, JSONRPC_CODE } from '../../protocol/errors';
import type { CheckContextWith } from '../context';
import { defineCheck, exchangeEvidence, fail, pass, refusedForCredentials, type Verdict } from '../define';
import { unknownTaskId } from '../setups/probe-ids';
import {
  answered,
  crashVerdict,
  expectRest,
  expectRpcCode,
  isClientError,
  probeIs,
  sendProbe,
  validationStatuses,
  type Probe,
  type RpcExpect,
} from '../setups/probes';
import { ERRORS, PROBES } from './shared';

export const errorsUnknownMethod = defineCheck({
  id: 'errors.unknown-method',
  title: `An unknown method is answered with MethodNotFound (${JSONRPC_CODE.MethodNotFound})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { ...ERRORS, 'v1.0': `v1.0.1 §3.3.2, §9.5 (JSON-RPC 2.0 ${JSONRPC_CODE.MethodNotFound}); HTTP+JSON: a 4xx` },
  recommendation: `Answer unknown JSON-RPC methods with {"error":{"code":${JSONRPC_CODE.MethodNotFound},"message":"Method not found"}} and the request id; on HTTP+JSON answer unknown routes with a 4xx (404 or 405). Frameworks often return 404 HTML or 500 for these by default.`,
  requires: ['http-routing'],
  run: async (ctx) => {
    const p = await PROBES['unknown-method'](ctx);
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    if (ctx.dialect.isRest)
      return expectRest(ctx, p, 'Unknown operation', {
        pass: (s) => isClientError(s) || s === 501,
        expected: 'a 4xx status (404 or 405 by HTTP semantics) or 501',
      });
    return expectRpcCode(ctx, p, 'Unknown method', {
      codes: [JSONRPC_CODE.MethodNotFound],
      names: 'MethodNotFound',
      hints: {
        [JSONRPC_CODE.InvalidRequest]: `JSON-RPC 2.0 §5.1 reserves ${JSONRPC_CODE.MethodNotFound} for a method that does not exist; ${JSONRPC_CODE.InvalidRequest} is for a body that is not a Request object (servers that validate the method name against a schema, e.g. with pydantic, answer ${JSONRPC_CODE.InvalidRequest} here).`,
      },
    });
  },
});

export const errorsInvalidJson = defineCheck({
  id: 'errors.invalid-json',
  title: `A body that is not JSON is answered with a parse error (${JSONRPC_CODE.ParseError})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { ...ERRORS, 'v1.0': `v1.0.1 §9.5 (${JSONRPC_CODE.ParseError}), §3.3.2 (HTTP 400 as the example)` },
  recommendation: `Catch JSON parse failures before dispatch and answer {"jsonrpc":"2.0","id":null,"error":{"code":${JSONRPC_CODE.ParseError},"message":"Parse error"}} (HTTP+JSON: 400 with an error body), not a 500 or an HTML error page.`,
  requires: ['json-wire'],
  run: async (ctx) => {
    const p = await PROBES['invalid-json'](ctx);
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    if (ctx.dialect.isRest) return expectRest(ctx, p, 'Malformed JSON', validationStatuses(ctx));
    return expectRpcCode(ctx, p, 'Malformed JSON', {
      codes: [JSONRPC_CODE.ParseError],
      names: 'JSONParseError',
      hints: {
        [JSONRPC_CODE.InvalidParams]: `@a2a-js/sdk 1.x answers a parse error with ${JSONRPC_CODE.InvalidParams} (its RequestMalformedError maps to INVALID_PARAMS); JSON-RPC 2.0 §5.1 and the A2A tables say ${JSONRPC_CODE.ParseError}.`,
      },
    });
  },
});

export const errorsInvalidRequest = defineCheck({
  id: 'errors.invalid-request',
  title: `JSON that is not a JSON-RPC request is answered with InvalidRequest (${JSONRPC_CODE.InvalidRequest})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { ...ERRORS, 'v1.0': `v1.0.1 §9.5 (${JSONRPC_CODE.InvalidRequest})` },
  recommendation: `Validate the JSON-RPC envelope (jsonrpc "2.0", a string method, an id) and answer violations with ${JSONRPC_CODE.InvalidRequest} Invalid Request and id null.`,
  requires: ['jsonrpc-binding'],
  run: async (ctx) => {
    const p = await PROBES['invalid-request'](ctx);
    return (
      refusedForCredentials(ctx, p.http) ??
      expectRpcCode(ctx, p, 'JSON without a JSON-RPC envelope', {
        codes: [JSONRPC_CODE.InvalidRequest],
        names: 'InvalidRequest',
        hints: {
          [JSONRPC_CODE.InvalidParams]: `@a2a-js/sdk 1.x answers ${JSONRPC_CODE.InvalidParams} here (isRequestValid → RequestMalformedError); JSON-RPC 2.0 §5.1 and every A2A error table give ${JSONRPC_CODE.InvalidRequest} for a body that is not a Request object (the §3.3.2 validation example concerns params, not the envelope).`,
        },
      })
    );
  },
});

export const errorsInvalidParams = defineCheck({
  id: 'errors.invalid-params',
  title: `Malformed params of the core methods (send, get, cancel; v1.0 ListTasks) are answered with InvalidParams (${JSONRPC_CODE.InvalidParams})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { ...ERRORS, 'v1.0': `v1.0.1 §3.3.2 (validation: ${JSONRPC_CODE.InvalidParams} / HTTP 400)` },
  recommendation: `Validate params against the schema of every method (message must be a Message object; get and cancel need the task id; ListTasks pageSize is an integer) and answer ${JSONRPC_CODE.InvalidParams} Invalid params (HTTP+JSON: 400 INVALID_ARGUMENT) instead of crashing on the missing fields or looking up a task named "undefined".`,
  requires: ['json-wire'],
  run: async (ctx) => {
    const d = ctx.dialect;
    const rpc: RpcExpect = {
      codes: [JSONRPC_CODE.InvalidParams],
      names: 'InvalidParams',
      advisory: {
        [JSONRPC_CODE.InvalidRequest]: `The schemas name InvalidRequestError "Request payload validation error", which servers (e.g. the Google legacy samples) read as covering schema-invalid params: ${JSONRPC_CODE.InvalidRequest} is a defensible reading, though JSON-RPC 2.0 gives ${JSONRPC_CODE.InvalidParams}.`,
      },
      hints: {
        [JSONRPC_CODE.TaskNotFound]: 'TaskNotFound means the missing id was looked up as a task id instead of being refused as a malformed parameter.',
      },
    };
    const cases: { probe: keyof typeof PROBES; what: string }[] = [
      { probe: 'invalid-params', what: `${d.describe('send')} with a message that is a number` },
      ...(d.isRest
        ? []
        : [
            { probe: 'invalid-params-get' as const, what: `${d.describe('get')} without the task id (params {})` },
            { probe: 'invalid-params-cancel' as const, what: `${d.describe('cancel')} without the task id (params {})` },
          ]),
      ...(ctx.generation === 'v1.0' ? [{ probe: 'invalid-params-list' as const, what: `${d.describe('list')} with pageSize "many"` }] : []),
    ];
    const verdicts: Verdict[] = [];
    for (const c of cases) {
      const p = await PROBES[c.probe](ctx);
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      // ListTasks is judged by lifecycle.list when it is not implemented at all.
      if (c.probe === 'invalid-params-list' && notImplemented(ctx, p)) continue;
      verdicts.push(d.isRest ? expectRest(ctx, p, c.what, validationStatuses(ctx)) : expectRpcCode(ctx, p, c.what, rpc));
    }
    return combineVerdicts(verdicts, cases.length);
  },
});

/** The method does not exist: MethodNotFound, or on HTTP+JSON a 404/405/501 that names no task. */
function notImplemented(ctx: CheckContextWith<'dialect'>, p: Probe): boolean {
  if (!ctx.dialect.isRest) return probeIs(ctx, p, 'MethodNotFound');
  return (p.http.status === 404 && p.rest?.reason !== ERROR_REASON.TaskNotFound) || p.http.status === 405 || p.http.status === 501;
}

/**
 * One verdict from several probes of the same rule: failures first (critical when any is), then advisories, then
 * what could not be judged (our limits), else a pass naming each.
 */
function combineVerdicts(vs: Verdict[], probes: number): Verdict {
  const evidence = vs.flatMap((v) => v.evidence ?? []);
  const fails = vs.filter((v) => v.status === 'fail' && !v.advisory);
  if (fails.length) {
    const critical = fails.some((v) => v.critical);
    return { ...fail(fails.map((v) => v.message).join(' '), evidence), ...(critical && { critical }) };
  }
  const advisories = vs.filter((v) => v.status === 'fail');
  if (advisories.length) return { ...fail(advisories.map((v) => v.message).join(' '), evidence), advisory: advisories[0]!.advisory };
  const unjudged = vs.find((v) => v.status !== 'pass');
  if (unjudged) return unjudged;
  return pass(`${vs.map((v) => v.message).join(' ')}${vs.length < probes ? ' (ListTasks is not implemented: see lifecycle.list.)' : ''}`, evidence);
}

export const errorsNotification = defineCheck({
  id: 'errors.notification',
  title: 'A JSON-RPC notification (no "id") gets no JSON-RPC response',
  category: 'error-handling',
  level: 'MAY',
  phase: 'suite',
  specRefs: {
    legacy: 'v0.1.0 §6.11.1; JSON-RPC 2.0 §4.1',
    'v0.2': 'v0.2.6 §6.11.1; JSON-RPC 2.0 §4.1',
    'v0.3': 'v0.3.0 §6.11.1; JSON-RPC 2.0 §4.1',
    'v1.0': 'v1.0.1 §9.3; JSON-RPC 2.0 §4.1',
  },
  recommendation: `A JSON-RPC request without "id" is a notification: do not process it as a request and do not reply with a JSON-RPC Response (answer HTTP 204 or 202 with an empty body), or reject it as an invalid A2A request (${JSONRPC_CODE.InvalidRequest} with id null), since the A2A schemas require an id.`,
  requires: ['jsonrpc-binding'],
  run: async (ctx) => {
    const taskId = await unknownTaskId(ctx);
    // A get, never a send: a server that processes the notification creates nothing.
    const body = JSON.stringify({ jsonrpc: '2.0', method: ctx.dialect.method('get'), params: { id: taskId.id } });
    const p = await sendProbe(ctx, 'notification', () => ({ kind: 'raw', body, expectedId: null, taskId }));
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const what = `A ${ctx.dialect.method('get')} notification (no "id" member)`;
    const crash = crashVerdict(ctx, p, what);
    if (crash) return crash;
    const evidence = [exchangeEvidence(p.http)];
    const s = p.http.status;
    if (p.http.text.trim() === '') {
      return s >= 200 && s < 300
        ? pass(`${what}: HTTP ${s} with an empty body (no JSON-RPC response), as JSON-RPC 2.0 §4.1 requires.`, evidence)
        : fail(`${what}: HTTP ${s} with an empty body.`, evidence);
    }
    const code = p.rpc?.error?.code;
    const idNull = p.rpc?.id === null || p.rpc?.id === undefined;
    if ((code === JSONRPC_CODE.InvalidRequest || code === JSONRPC_CODE.InvalidParams) && idNull) {
      return pass(`${what}: rejected as an invalid request (${code}, id null): the A2A schemas require an id on every method request.`, evidence);
    }
    if (p.rpc?.hasResult)
      return fail(
        `${what}: processed and answered with a result (id ${JSON.stringify(p.rpc.id)}); JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.`,
        evidence,
      );
    if (typeof code === 'number') {
      return fail(
        `${what}: answered with error ${code} (id ${JSON.stringify(p.rpc?.id)})${code === JSONRPC_CODE.TaskNotFound ? ': TaskNotFound means it was processed as a request' : ''}; JSON-RPC 2.0 §4.1: the server MUST NOT reply to a notification.`,
        evidence,
      );
    }
    return fail(`${what}: answered ${answered(p)}.`, evidence);
  },
});
