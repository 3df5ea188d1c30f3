/**
 * interop.bindings (binding equivalence): every other interface the card declares (JSON-RPC, HTTP+JSON, and gRPC when
 * the host speaks it) runs the same input as the main one, and the outcomes are compared: the kind of result
 * (Task or Message), the task's final state, the error category (functional equivalence, "semantically equivalent
 * results for the same requests").
 */
import { canonicalBinding } from '../../card/detect';
import type { CardInterface } from '../../card/normalize';
import type { Binding, Evidence } from '../../model/check';
import { requiredExtensionHeaders } from '../../protocol/extensions';
import { Dialect, type CallOutcome } from '../../protocol/dialect';
import { a2aErrorName, isA2AError } from '../../protocol/errors';
import { acceptedOutputModes } from '../../target';
import { defineCheck, fail, pass, skip } from '../define';
import { brokenCallVerdict } from '../setups/outcomes';
import { primarySkill, runEvidence, runTask, skillInput, skillRunOf, type TaskRun } from '../setups/tasks';
import { generationOf, restPrefix } from './interfaces';

/** Our cap on one task over another interface (the per-task budget, at most this). */
const BINDING_BUDGET_MS = 20_000;

/** The interface is not served at all: 404/405, method not found, UNIMPLEMENTED. */
const notServed = (o: CallOutcome) =>
  o.http.status === 404 || o.http.status === 405 || (o.kind === 'error' && (isA2AError(o, 'MethodNotFound') || o.error.status === 'UNIMPLEMENTED'));

/** An error's meaning across bindings (a JSON-RPC code and its HTTP+JSON or gRPC mapping compare equal: protocol/errors.ts). */
function errorCategory(o: CallOutcome): string {
  if (o.kind !== 'error') return o.kind;
  const e = o.error;
  const name = a2aErrorName(o);
  if (name === 'ContentTypeNotSupported' || o.http.status === 415) return 'content-type';
  if (name === 'InvalidParams' || e.status === 'INVALID_ARGUMENT' || (e.code === undefined && o.http.status === 400 && !e.reason)) return 'invalid-params';
  if (name === 'TaskNotFound') return 'task-not-found';
  if (name === 'UnsupportedOperation') return 'unsupported';
  if (name === 'InternalError' || o.http.status >= 500 || e.status === 'INTERNAL') return 'internal';
  return `${e.code ?? e.reason ?? e.status ?? o.http.status}`;
}

/** What a run ended as, for comparing interfaces: the result kind and the task's final state. */
const runShape = (r: TaskRun) => ({ kind: r.send.kind, state: r.final?.rawState ?? r.final?.state, outcome: r.outcome });

/**
 * Where the same input ran to a different end on another interface: a Message where the main one made a Task (or the
 * reverse), or a task that settled in another terminal state. A run that timed out or paused is not compared.
 */
function sameInputDiffers(run: TaskRun, m: TaskRun | undefined): string | undefined {
  if (!m || m.outcome === 'failed-call' || m.outcome === 'no-task' || m.outcome === 'timeout' || run.outcome === 'timeout') return undefined;
  const a = runShape(run);
  const b = runShape(m);
  if ((a.kind === 'message') !== (b.kind === 'message'))
    return `answered the same input with ${a.kind === 'message' ? 'a Message' : 'a Task'}, the main interface with ${b.kind === 'message' ? 'a Message' : 'a Task'}.`;
  const fa = run.final?.state;
  const fb = m.final?.state;
  if (run.outcome === 'terminal' && m.outcome === 'terminal' && fa && fb && fa !== fb)
    return `the same input ended ${a.state}, on the main interface ${b.state}.`;
  return undefined;
}

const describeError = (o: CallOutcome) =>
  o.kind === 'error'
    ? `${o.error.code ?? o.error.reason ?? o.error.status ?? `HTTP ${o.http.status}`}${o.error.message ? ` "${o.error.message.slice(0, 80)}"` : ''}`
    : o.kind;

export const interopBindings = defineCheck({
  id: 'interop.bindings',
  title: 'Every other interface the card declares answers a basic send and get like the main one',
  category: 'interop',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    'v0.3': 'v0.3.0 §5.6.2 Additional Interfaces, §3.4.1 Functional Equivalence',
    'v1.0': 'v1.0.1 §8.3.1 (each interface MUST accurately declare its transport and URL), §5.1 Functional Equivalence',
  },
  recommendation:
    'Serve every interface you declare, at the URL and with the binding and protocol version you declare; drop interfaces you do not serve. With @a2a-js/sdk, mount restHandler/jsonRpcHandler at exactly the declared paths, and enable legacyCompat if you list protocolVersion 0.3 interfaces.',
  requires: ['dialect'],
  run: async (ctx) => {
    const sel = ctx.detection.selected;
    const others = ctx.card.interfaces.flatMap((i): { i: CardInterface; binding: Binding }[] => {
      if (i === sel || (sel && i.url === sel.url && i.binding === sel.binding && i.protocolVersion === sel.protocolVersion)) return [];
      if (ctx.generation === 'v1.0' && i.source !== 'supportedInterfaces') return [];
      const binding = canonicalBinding(String(i.binding));
      // gRPC: v1.0 only (no earlier generation has a normative proto here), and only when the host can call it.
      if (binding === 'GRPC') return ctx.http.host.grpc && generationOf(i, ctx.generation) === 'v1.0' && i.url.trim() ? [{ i, binding }] : [];
      return (binding === 'JSONRPC' || binding === 'HTTP+JSON') && /^https?:\/\//.test(i.url) ? [{ i, binding }] : [];
    });
    if (!others.length) return skip('The card declares a single testable interface.', 'not-applicable');
    const evidence: Evidence[] = [];
    const problems: string[] = [];
    const notes: string[] = [];
    // The main interface's answer to the same input, to compare an error with (functional equivalence means the
    // same answer, not necessarily a task): the primary skill's own run, without waiting for the slowest skill's.
    const main = () => skillRunOf(ctx, primarySkill(ctx));
    for (const { i, binding } of others.slice(0, 6)) {
      const g = generationOf(i, ctx.generation);
      // A v0.3 HTTP+JSON URL that already ends in /v1 (the v0.3 schema's own example) is the prefix itself.
      const url = g === 'v0.3' && binding === 'HTTP+JSON' && !restPrefix(i.url, g) ? i.url.replace(/\/+$/, '').replace(/\/v1$/, '') : i.url;
      const d = new Dialect({
        generation: g,
        binding,
        endpointUrl: url,
        tenant: i.tenant || undefined,
        authHeaders: { ...ctx.authHeaders, ...requiredExtensionHeaders(g, ctx.card) },
        authQuery: ctx.authQuery,
        acceptedOutputModes: acceptedOutputModes(ctx.card),
        uuid: ctx.uuid,
      });
      const label = `${i.binding} ${g} ${ctx.http.redactor.url(i.url)}`;
      const input = skillInput(ctx, primarySkill(ctx));
      const run = await runTask({ ...ctx, taskTimeoutMs: Math.min(ctx.taskTimeoutMs, BINDING_BUDGET_MS) }, d, {
        ...input,
        input,
        lane: ctx.lane(`binding ${i.binding} ${g}`),
      });
      evidence.push(runEvidence(run));
      if (run.outcome === 'timeout')
        notes.push(`${label} answered send; the task did not settle within our ${Math.min(ctx.taskTimeoutMs, BINDING_BUDGET_MS)} ms cap`);
      if (run.outcome !== 'failed-call' && run.outcome !== 'no-task') {
        const differs = sameInputDiffers(run, await main());
        if (differs) problems.push(`${label}: ${differs}`);
        continue;
      }
      const broken = run.brokenCall ?? run.send;
      const v = brokenCallVerdict(ctx, broken, label);
      if (v.status === 'skip' || v.status === 'error') return v;
      if (broken.kind === 'error' && !notServed(broken)) {
        const m = await main();
        const mainBroken = m && (m.outcome === 'failed-call' || m.outcome === 'no-task') ? (m.brokenCall ?? m.send) : undefined;
        if (mainBroken?.kind === 'error' && errorCategory(mainBroken) === errorCategory(broken)) {
          notes.push(`${label} refused the input with ${describeError(broken)}, as the main interface did (${describeError(mainBroken)}): the same answer`);
          continue;
        }
        problems.push(
          `${label}: ${v.message}${m ? ` The main interface ${mainBroken ? `answered ${mainBroken.kind === 'error' ? describeError(mainBroken) : mainBroken.kind}` : `ran the same input to ${m.outcome}`}.` : ''}`,
        );
        continue;
      }
      problems.push(`${label}: ${v.message}`);
    }
    const tail = notes.length ? ` (${notes.join('; ')})` : '';
    return problems.length
      ? fail(`${problems.length} of ${others.length} other interface(s) do not work like the main one: ${problems.join(' | ')}${tail}`, evidence)
      : pass(`${others.length} other interface(s) answer send and get like the main one${tail}.`, evidence);
  },
});
