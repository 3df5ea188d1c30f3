/**
 * The preconditions a check declares with `requires` (see Precondition in context.ts), evaluated before its body:
 * the first one unmet gives the standard skip verdict; when all are met, the context carries what they provide.
 * Synchronous where the facts are at hand, so a check's body starts in the same turn as before; `task-runs`,
 * `task-run` and `stream` wait for the run's shared fixtures.
 */
import { isRecord } from '../util/json';
import type { Binding } from '../model/check';
import type { BindingNeed, CheckContext, CheckContextWith, Precondition } from './context';
import { rateLimited } from './setups/outcomes';
import { streamFixture } from './setups/stream';
import { isObserved, runEvidence, skillRuns, skillRunsButOne } from './setups/tasks';
import { exchangeEvidence, refusedForCredentials, skip, TIMEOUT_KNOB, toolLimit, transportVerdict, type Verdict } from './verdict';

/** Either the context with the preconditions met, or the verdict of the first one unmet. */
export type Met<R extends Precondition> = { readonly ctx: CheckContextWith<R> } | { readonly verdict: Verdict };
type Step = { readonly ctx: CheckContext } | { readonly verdict: Verdict };

/** The context has a testable binding. */
const hasDialect = (ctx: CheckContext): ctx is CheckContextWith<'dialect'> => ctx.dialect !== undefined;

/** A testable binding: without a dialect the agent cannot be called. */
function needDialect(ctx: CheckContext): Verdict | undefined {
  if (ctx.dialect) return undefined;
  if (ctx.detection.untestable) return skip(ctx.detection.untestable, 'precondition');
  return skip('No usable agent card, so the agent cannot be called.', 'precondition');
}

function dialectStep(ctx: CheckContext): Step {
  const unmet = needDialect(ctx);
  return unmet ? { verdict: unmet } : { ctx };
}

const HTTP_BINDINGS: readonly Binding[] = ['JSONRPC', 'HTTP+JSON'];

/**
 * What a check may need of the binding under test (BindingNeed, declared in its `requires`): the bindings that have
 * it, and why the others do not. A new binding (CONTRIBUTING.md, "Adding a binding") says here which needs it meets.
 */
export const BINDING_NEEDS: Readonly<Record<BindingNeed, { readonly bindings: readonly Binding[]; readonly why: string }>> = {
  'sse-streams': {
    bindings: HTTP_BINDINGS,
    why: 'gRPC streams are server-streaming RPCs (v1.0.1 §10.7), not Server-Sent Events: there is no Content-Type to judge.',
  },
  'json-wire': { bindings: HTTP_BINDINGS, why: 'there is no JSON on the gRPC wire (protobuf messages, v1.0.1 §10.1).' },
  'browser-callable': {
    bindings: HTTP_BINDINGS,
    why: 'a browser cannot call gRPC at all (no CORS applies); the dashboard reaches it through the local server.',
  },
  'jsonrpc-binding': { bindings: ['JSONRPC'], why: 'JSON-RPC envelopes (and with them notifications) exist only on the JSON-RPC binding.' },
  'grpc-binding': { bindings: ['GRPC'], why: 'only gRPC answers with gRPC statuses (the other bindings: errors.shape and errors.details).' },
  'http-auth-challenge': {
    bindings: HTTP_BINDINGS,
    why: 'an authentication challenge is the WWW-Authenticate header of an HTTP 401 (RFC 9110 §11.6.1); over gRPC a missing credential is the status UNAUTHENTICATED (v1.0.1 §3.3.2), and v1.0.1 §10 names no metadata or status detail that carries a challenge.',
  },
  'http-routing': {
    bindings: HTTP_BINDINGS,
    why: 'an unknown operation is a JSON-RPC method or an HTTP+JSON route; over gRPC the library answers an unknown method (UNIMPLEMENTED) before any agent code runs, and v1.0.1 §5.4 maps A2A-specific errors only, not MethodNotFound.',
  },
};

/** `dialect`, and the binding under test has what the check needs (BINDING_NEEDS); not applicable otherwise. */
function bindingStep(ctx: CheckContext, need: BindingNeed): Step {
  const pre = dialectStep(ctx);
  if ('verdict' in pre || !ctx.dialect) return pre;
  const { bindings, why } = BINDING_NEEDS[need];
  const b = ctx.dialect.binding;
  return bindings.includes(b) ? pre : { verdict: skip(`Not applicable to the ${b} binding: ${why}`, 'not-applicable') };
}

/** At least one test task created: message-only agents, refused or rate-limited sends and our budget skip. */
async function taskRunsStep(ctx: CheckContextWith<'dialect'>): Promise<Step> {
  const runs = await skillRuns(ctx);
  const blocked = runs.map((r) => refusedForCredentials(ctx, r.send.http)).find(Boolean);
  if (blocked) return { verdict: blocked };
  const [first, ...rest] = runs.filter(isObserved);
  if (!first) {
    if (runs.some((r) => r.outcome === 'message')) {
      return {
        verdict: skip(
          'The agent replied with a Message instead of a Task (a message-only agent), so there is no task to check.',
          'not-applicable',
          runs.map(runEvidence),
        ),
      };
    }
    const limited = runs.map((r) => rateLimited(r.send, 'Creating a test task')).find(Boolean);
    if (limited) return { verdict: limited };
    if (runs.length && runs.every((r) => r.outcome === 'timeout')) {
      return {
        verdict: toolLimit(
          `No test task answered within our ${ctx.taskTimeoutMs} ms budget, so there is no task to check. To judge it, ${TIMEOUT_KNOB}.`,
          runs.map(runEvidence),
        ),
      };
    }
    return { verdict: skip('No test task could be created (see lifecycle.send).', 'precondition', runs.map(runEvidence)) };
  }
  const withRuns: CheckContextWith<'task-runs'> = { ...ctx, taskRuns: [first, ...rest] };
  return { ctx: withRuns };
}

/**
 * `task-run`: a test task was created, as `task-runs` decides, but known once at most one skill run is still going
 * when one of the others created a task (and none was refused for credentials); else `task-runs` itself.
 */
async function taskRunStep(ctx: CheckContextWith<'dialect'>): Promise<Step> {
  const { ended } = await skillRunsButOne(ctx);
  if (ended.some(isObserved) && !ended.some((r) => refusedForCredentials(ctx, r.send.http))) return { ctx };
  const full = await taskRunsStep(ctx);
  return 'verdict' in full ? full : { ctx };
}

/** The shared stream answered with an event stream; otherwise why it could not be judged. */
async function streamStep(ctx: CheckContextWith<'dialect'>): Promise<Step> {
  const f = await streamFixture(ctx);
  const r = f.run.result;
  if (!r.responded) return { verdict: transportVerdict(r, 'opening the stream') };
  const refused = refusedForCredentials(ctx, r);
  if (refused) return { verdict: refused };
  if (f.run.reason === 'not-stream') {
    if (r.status === 429) {
      return {
        verdict: toolLimit(
          `The stream endpoint answered HTTP 429 Too Many Requests (after one polite retry where Retry-After allowed it): a rate limit, so the stream could not be judged. Allow the test client more requests or run again later.`,
          [exchangeEvidence(r)],
        ),
      };
    }
    return { verdict: skip('The stream endpoint did not answer with an event stream (see streaming.content-type).', 'precondition', [exchangeEvidence(r)]) };
  }
  const withStream: CheckContextWith<'stream'> = { ...ctx, stream: f };
  return { ctx: withStream };
}

function streamingStep(ctx: CheckContext): Step {
  if (!ctx.card.capabilities.streaming)
    return { verdict: skip('The card says streaming is not supported (capabilities.streaming is not true).', 'not-applicable') };
  return dialectStep(ctx);
}

function peerStep(ctx: CheckContext): Step {
  if (!ctx.peer) return { verdict: skip('No peer agent was given (enter a "Peer agent URL" to run two-agent checks).', 'not-applicable') };
  return { ctx };
}

function step(ctx: CheckContext, need: Precondition): Step | Promise<Step> {
  switch (need) {
    case 'card':
      return isRecord(ctx.raw) ? { ctx } : { verdict: skip('No agent card could be read, so this check has nothing to judge.', 'precondition') };
    case 'dialect':
      return dialectStep(ctx);
    case 'streaming':
      return streamingStep(ctx);
    case 'push':
      if (!ctx.card.capabilities.pushNotifications)
        return { verdict: skip('The card does not declare pushNotifications (see errors.push-not-supported).', 'not-applicable') };
      return dialectStep(ctx);
    case 'stream': {
      const pre = streamingStep(ctx);
      return 'verdict' in pre || !hasDialect(ctx) ? pre : streamStep(ctx);
    }
    case 'task-runs':
      return hasDialect(ctx) ? taskRunsStep(ctx) : dialectStep(ctx);
    case 'task-run':
      return hasDialect(ctx) ? taskRunStep(ctx) : dialectStep(ctx);
    case 'peer':
      return peerStep(ctx);
    case 'peer-callable': {
      const pre = peerStep(ctx);
      if ('verdict' in pre) return pre;
      return ctx.peer?.dialect && ctx.dialect ? { ctx } : { verdict: skip('One of the two agents cannot be called.', 'precondition') };
    }
    default:
      return bindingStep(ctx, need);
  }
}

function meetFrom<R extends Precondition>(ctx: CheckContext, requires: readonly R[], from: number): Met<R> | Promise<Met<R>> {
  for (const [k, need] of requires.slice(from).entries()) {
    const s = step(ctx, need);
    if (s instanceof Promise) return s.then((r) => ('verdict' in r ? r : meetFrom(r.ctx, requires, from + k + 1)));
    if ('verdict' in s) return s;
    ctx = s.ctx;
  }
  // Each step above checked (and, for task-runs and stream, added) what its precondition provides.
  return { ctx: ctx as CheckContextWith<R> };
}

/** Evaluates `requires` in order: the context they provide, or the verdict of the first unmet (see Precondition). */
export function meetPreconditions<R extends Precondition>(ctx: CheckContext, requires: readonly R[]): Met<R> | Promise<Met<R>> {
  return meetFrom(ctx, requires, 0);
}
