/**
 * Error checks on A2A-Version (v1.0): an unsupported version is refused, and a request without the header is
 * treated as 0.3.
 */
import { defineCheck, exchangeEvidence, fail, pass, refusedForCredentials, skip } from '../define';
import { unknownTaskId } from '../setups/probe-ids';
import { answered, crashVerdict, expectError, probeIs, probeMayBe, probeUnknownMethod, sendProbe } from '../setups/probes';
import { describeOperation, fillPath, methodName, restRoute } from '../../protocol/operations';
import { ERROR_REASON, JSONRPC_CODE } from '../../protocol/errors';

export const errorsVersionUnsupported = defineCheck({
  id: 'errors.version-unsupported',
  title: `An unsupported A2A-Version is refused with VersionNotSupported (${JSONRPC_CODE.VersionNotSupported})`,
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: {
    'v1.0': `v1.0.1 §3.6.2 Server Responsibilities, §5.4 (${JSONRPC_CODE.VersionNotSupported} / HTTP 400 / gRPC FAILED_PRECONDITION), §10.2 (a2a-version metadata)`,
  },
  recommendation: `Read A2A-Version on every request; when you cannot apply the requested version answer VersionNotSupportedError ${JSONRPC_CODE.VersionNotSupported} (HTTP+JSON 400, gRPC FAILED_PRECONDITION, with reason VERSION_NOT_SUPPORTED; over gRPC the version is the a2a-version metadata) instead of silently applying another version.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const h = { 'A2A-Version': '99.0' };
    const p = await sendProbe(ctx, 'version-unsupported', async () => {
      const taskId = await unknownTaskId(ctx);
      return { ...ctx.dialect.request('get', { id: taskId.id }, { id: taskId.id }), headers: h, taskId };
    });
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const processed = probeIs(ctx, p, 'TaskNotFound') ? ' The request was processed (TaskNotFound for our probe id): the header was ignored.' : '';
    const v = expectError(ctx, p, 'A2A-Version: 99.0', 'VersionNotSupported');
    return v.status === 'fail' && processed ? { ...v, message: `${v.message}${processed}` } : v;
  },
});

export const errorsVersionMissing = defineCheck({
  id: 'errors.version-missing',
  title: 'A request without A2A-Version is treated as 0.3: refused by a 1.0-only interface, served as 0.3 where 0.3 is declared',
  category: 'error-handling',
  level: 'MUST',
  phase: 'suite',
  specRefs: { 'v1.0': 'v1.0.1 §3.6.2 (Agents MUST interpret empty value as 0.3 version), §10.2 (gRPC: a2a-version metadata)' },
  recommendation: `Treat a request without A2A-Version as a 0.3 request: where the card declares a 0.3 interface at the same URL, serve it through the v0.3 compatibility layer (e.g. @a2a-js/sdk legacyCompat); otherwise answer VersionNotSupportedError ${JSONRPC_CODE.VersionNotSupported} (HTTP+JSON 400, gRPC FAILED_PRECONDITION, reason VERSION_NOT_SUPPORTED; over gRPC a request without a2a-version metadata). Answering it with v1.0 semantics hides version bugs in clients.`,
  requires: ['dialect'],
  run: async (ctx) => {
    const omit = ['A2A-Version'];
    const norm = (u: string | undefined) => (u ?? '').replace(/\/+$/, '');
    const iface03 = ctx.card.interfaces.find(
      (i) =>
        norm(i.url) === norm(ctx.endpointUrl) &&
        /^0\.3(\.|$)/.test(i.protocolVersion ?? '') &&
        String(i.binding).toUpperCase() === String(ctx.binding ?? '').toUpperCase(),
    );
    // A 0.3 gRPC interface is another service (the v0.3 a2a.proto's package a2a.v1), which this tool does not call.
    if (iface03 && ctx.dialect.binding === 'GRPC')
      return skip('The card declares a 0.3 gRPC interface at this URL: the v0.3 gRPC service (package a2a.v1) is not one this tool calls.', 'not-applicable');
    const taskId = await unknownTaskId(ctx);
    if (iface03) {
      const get03 = restRoute('v0.3', 'get');
      // A 0.3 interface at this URL: the header-less request is a 0.3 request, judged by 0.3 semantics.
      const p = await sendProbe(ctx, 'version-missing', () =>
        // The 0.3 route under the same REST base: v0.x paths start with `/v1` (restBase).
        ctx.dialect.isRest
          ? { kind: 'rest', method: get03.method, path: `/v1${fillPath(get03.path, { id: taskId.id })}`, omit, taskId }
          : { kind: 'rpc', method: methodName('v0.3', 'get'), params: { id: taskId.id }, omit, taskId },
      );
      const skipped = refusedForCredentials(ctx, p.http);
      if (skipped) return skipped;
      const what = `A 0.3 ${describeOperation({ generation: 'v0.3', binding: ctx.dialect.binding }, 'get')} without A2A-Version (the card declares a 0.3 interface at this URL)`;
      const crash = crashVerdict(ctx, p, what);
      if (crash) return crash;
      const evidence = [exchangeEvidence(p.http)];
      if (!ctx.dialect.isRest) {
        const code = p.rpc?.error?.code;
        if (code === JSONRPC_CODE.TaskNotFound) return pass(`${what}: served as 0.3 (TaskNotFound ${code} for our unknown id).`, evidence);
        if (code === JSONRPC_CODE.MethodNotFound)
          return fail(
            `${what}: ${code} Method not found, i.e. routed as 1.0; v1.0.1 §3.6.2 requires a missing header to mean 0.3, and the card promises 0.3 here.`,
            evidence,
          );
        return fail(`${what}: expected the 0.3 answer (TaskNotFound ${JSONRPC_CODE.TaskNotFound}), got ${answered(p)}.`, evidence);
      }
      if (p.http.status === 404 && p.rest?.reason !== undefined && p.rest.reason !== ERROR_REASON.TaskNotFound)
        return fail(`${what}: ${answered(p)}, not a 0.3 TaskNotFound.`, evidence);
      if (p.http.status === 404) {
        return /task/i.test(p.http.text)
          ? pass(`${what}: served as 0.3 (HTTP 404 naming the task).`, evidence)
          : {
              ...fail(`${what}: HTTP 404 without a body that names the task: a missing 0.3 route and a 0.3 TaskNotFound look alike.`, evidence),
              advisory: 'An HTTP 404 cannot tell a 0.3 TaskNotFound from a route the 1.0 router lacks.',
            };
      }
      return fail(`${what}: expected the 0.3 answer (HTTP 404 for our unknown task), got ${answered(p)}.`, evidence);
    }
    const p = await sendProbe(ctx, 'version-missing', () => ({ ...ctx.dialect.request('get', { id: taskId.id }, { id: taskId.id }), omit, taskId }));
    const skipped = refusedForCredentials(ctx, p.http);
    if (skipped) return skipped;
    const what = `A ${ctx.dialect.describe('get')} without A2A-Version (the card declares only 1.0 at this URL)`;
    const crash = crashVerdict(ctx, p, what);
    if (crash) return crash;
    const evidence = [exchangeEvidence(p.http)];
    if (probeIs(ctx, p, 'VersionNotSupported')) return pass(`${what}: refused with VersionNotSupported.`, evidence);
    // Its status without an ErrorInfo reason (HTTP 400, gRPC FAILED_PRECONDITION): errors.details / errors.grpc-status ask the reason.
    if (probeMayBe(ctx, p, 'VersionNotSupported'))
      return pass(`${what}: refused with ${answered(p)} (a v1.0 task lookup would have answered TaskNotFound).`, evidence);
    const treatedAsOld = probeUnknownMethod(ctx, p)
      ? `treated as a 0.3 request (GetTask is not a 0.3 method: ${p.grpc ? 'UNIMPLEMENTED' : JSONRPC_CODE.MethodNotFound})`
      : ctx.dialect.isRest && p.http.status === 404 && p.rest?.reason !== ERROR_REASON.TaskNotFound
        ? 'treated as a non-1.0 request (HTTP 404 without TASK_NOT_FOUND)'
        : undefined;
    if (treatedAsOld) {
      return {
        ...fail(
          `${what}: ${treatedAsOld}, but not refused with VersionNotSupportedError as v1.0.1 §3.6.2 requires of an interface that does not support 0.3.`,
          evidence,
        ),
        advisory: 'The request was not served with 1.0 semantics (the MUST at stake); only the error type differs.',
      };
    }
    return fail(`${what}: answered with v1.0 semantics (${answered(p)}): the missing header was not treated as 0.3.`, evidence);
  },
});
