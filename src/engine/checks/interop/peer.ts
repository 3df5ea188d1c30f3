/**
 * Two-agent checks: with a peer agent given, both cards are usable, they share a protocol, concurrent tasks do not
 * interfere and each accepts the other's output.
 */
import { canonicalBinding } from '../../card/detect';
import type { CardInterface, NormalizedCard } from '../../card/normalize';
import type { Generation } from '../../model/check';
import { acceptedInputModes, buildInput } from '../../protocol/input';
import type { ResolvedTarget } from '../../target';
import { isRecord } from '../../util/json';
import type { CheckContext, CheckContextWith } from '../context';
import { defineCheck, ev, fail, pass, skip, TIMEOUT_KNOB, toolLimit } from '../define';
import { brokenCallVerdict } from '../setups/outcomes';
import { completedRun, primarySkill, runEvidence, runTask, skillInput, skillRuns, type TaskRun } from '../setups/tasks';
import { generationOf } from './interfaces';

/** The card's default input modes accept text (none declared means text, as this tool's inputs assume). */
const acceptsText = (card: NormalizedCard) => buildInput('x', acceptedInputModes(undefined, card.defaultInputModes)).parts[0]?.kind === 'text';

function peerText(peer: ResolvedTarget): string {
  return peer.card.skills.flatMap((s) => s.examples).find((e) => e.trim()) ?? 'Hello from a2a-interop: this is a two-agent interop test.';
}

/** Text an agent produced: a Message reply's text, else a finished task's artifact text, else its status message. */
function outputText(r: TaskRun | undefined): string | undefined {
  if (r?.outcome === 'message' && r.send.kind === 'message') return r.send.message.text.trim().slice(0, 2000) || undefined;
  const t = r?.final?.raw;
  if (!isRecord(t)) return undefined;
  const texts: string[] = [];
  const collect = (parts: unknown) => {
    if (Array.isArray(parts)) for (const p of parts) if (isRecord(p) && typeof p.text === 'string') texts.push(p.text);
  };
  if (Array.isArray(t.artifacts)) for (const a of t.artifacts) if (isRecord(a)) collect(a.parts ?? a.content);
  if (!texts.length && isRecord(t.status) && isRecord(t.status.message)) collect(t.status.message.parts ?? t.status.message.content);
  const s = texts.join('\n').trim();
  return s ? s.slice(0, 2000) : undefined;
}

/** A context for the peer's tasks: its card, and none of the user's credentials (they are the agent's). */
const peerContext = (ctx: CheckContextWith<'peer-callable'>): CheckContext => ({ ...ctx, card: ctx.peer.card, authHeaders: {}, authQuery: {} });

export const interopPeerCard = defineCheck({
  id: 'interop.peer.card',
  title: 'Two agents: the peer agent card is discoverable and usable',
  category: 'interop',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'seed procedure 5.5 (agent A can discover agent B)',
    'v0.2': 'v0.2.6 §5 Agent Discovery',
    'v0.3': 'v0.3.0 §5 Agent Discovery',
    'v1.0': 'v1.0.1 §8 Agent Discovery',
  },
  recommendation: 'Make the peer agent serve a valid card at its well-known URI (run this tool on the peer alone to see its card checks).',
  requires: ['peer'],
  run: (ctx) => {
    const peer = ctx.peer;
    if (!peer.discovery.response || !isRecord(peer.raw)) {
      return fail(
        `The peer card could not be read at the recommended well-known paths (${peer.info.error ?? 'no JSON object'}); the other two-agent checks need it. A card available only by direct configuration is allowed (v1.0 §8.2): give the peer's card URL.`,
        peer.discovery.attempts.map((a) => ev(a.url, String(a.status ?? 'no answer'))),
      );
    }
    if (!peer.dialect) return fail(`The peer card declares no testable interface (${peer.detection.untestable ?? 'none'}).`);
    return pass(
      `Peer "${peer.card.name}" is ${peer.detection.generation} over ${peer.detection.binding}.`,
      peer.detection.evidence.map((e) => ev('peer detection', e)),
    );
  },
});

export const interopPeerCommon = defineCheck({
  id: 'interop.peer.common',
  title: 'Two agents: they share a protocol version and binding, so each can call the other',
  category: 'interop',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: {
    'v0.3': 'v0.3.0 §5.6.3 Client Transport Selection',
    'v1.0': 'v1.0.1 §8.3.2 Client Protocol Selection, §3.6 Versioning',
    legacy: 'seed procedure 5.5',
    'v0.2': 'v0.2.6 §5.5',
  },
  recommendation:
    'Give both agents at least one common (protocol version, binding) interface, e.g. JSON-RPC 1.0, or add a v0.3 compatibility interface to the newer one (@a2a-js/sdk legacyCompat).',
  requires: ['peer'],
  run: (ctx) => {
    const peer = ctx.peer;
    const offers = (t: { card: { interfaces: CardInterface[] }; detection: { generation: Generation } }) =>
      new Set(
        t.card.interfaces.map(
          (i) =>
            `${generationOf(i, t.detection.generation).replace(/^v/, '').split('.')[0] === '1' ? '1.0' : generationOf(i, t.detection.generation)} ${canonicalBinding(String(i.binding)) ?? i.binding}`,
        ),
      );
    const a = offers(ctx);
    const b = offers(peer);
    const common = [...a].filter((x) => b.has(x));
    const evidence = [ev('agent offers', [...a].join(', ')), ev('peer offers', [...b].join(', '))];
    return common.length
      ? pass(`Common: ${common.join(', ')}.`, evidence)
      : fail(
          'The cards declare no common (protocol version, binding) pair. Clients that speak several versions or bindings (e.g. an SDK with legacy compatibility) may still connect them; nothing requires two agents to share one.',
          evidence,
        );
  },
});

export const interopPeerConcurrent = defineCheck({
  id: 'interop.peer.concurrent',
  title: 'Two agents: concurrent tasks on both complete without interference',
  category: 'interop',
  level: 'MUST',
  tier: 'optional',
  phase: 'suite',
  specRefs: {
    legacy: 'seed procedure 5.5 (concurrent tasks)',
    'v0.2': 'v0.2.6 §6.1',
    'v0.3': 'v0.3.0 §6.1',
    'v1.0': 'v1.0.1 §3.4.2 Task Identifier Semantics',
  },
  recommendation: 'Keep per-task state keyed by task id and never share mutable state between requests; generate unique task ids (UUIDs).',
  requires: ['peer-callable'],
  run: async (ctx) => {
    const { peer, dialect: ad } = ctx;
    const pd = peer.dialect;
    const peerCtx = peerContext(ctx);
    const [a1, a2, b1, b2] = await Promise.all([
      runTask(ctx, ad, { ...skillInput(ctx, primarySkill(ctx)), lane: ctx.lane('agent concurrent A') }),
      runTask(ctx, ad, { ...skillInput(ctx, primarySkill(ctx)), lane: ctx.lane('agent concurrent B') }),
      runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer concurrent A') }),
      runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer concurrent B') }),
    ]);
    const runs = [a1, a2, b1, b2];
    const evidence = runs.map(runEvidence);
    // Task ids are unique per agent (v1.0 §3.4.2 "Agents MUST generate a unique taskId for each new task they
    // create"): two agents that both number their tasks 1, 2, … are conforming.
    const dupOf = (xs: TaskRun[]) => {
      const ids = xs.map((r) => r.final?.id).filter((x): x is string => !!x);
      return new Set(ids).size < ids.length ? ids : undefined;
    };
    const agentDup = dupOf([a1, a2]);
    if (agentDup)
      return fail(
        `Two concurrent tasks of the agent share the id ${agentDup[0]}: ${ctx.generation === 'v1.0' ? 'task ids MUST be unique per agent (v1.0.1 §3.4.2)' : `the ${ctx.generation} schema describes a task id as unique`}.`,
        evidence,
      );
    const peerDup = dupOf([b1, b2]);
    if (peerDup) {
      return {
        status: 'fail',
        advisory: 'The duplicate is on the peer, not on the agent under test.',
        message: `Two concurrent tasks of the peer share the id ${peerDup[0]} (run this tool on the peer alone to judge it).`,
        evidence,
      };
    }
    const broken = runs.filter((r) => r.outcome === 'failed-call' || r.outcome === 'no-task');
    const verdicts = broken.map((r) => brokenCallVerdict(r === a1 || r === a2 ? ctx : peerCtx, r.brokenCall ?? r.send, r.lane));
    // A rate limit that outlived the polite retry is our limit (brokenCallVerdict says so), not a finding.
    const limited = verdicts.filter((v) => v.status === 'skip' || v.status === 'error');
    const [firstLimited] = limited;
    if (broken.length && limited.length === broken.length && firstLimited) return firstLimited;
    if (broken.length) {
      // A crash of the agent under test is always reported; the peer's are the peer's.
      const crash = broken.some((r) => {
        const c = r.brokenCall ?? r.send;
        return (r === a1 || r === a2) && (c.kind === 'transport' || c.http.status >= 500);
      });
      return {
        status: 'fail',
        critical: crash,
        advisory: 'A robustness finding: no sentence requires an agent to serve concurrent requests (a 429 or 503 under load is allowed).',
        message: `${broken.length} of 4 concurrent task(s) failed: ${verdicts.map((v) => v.message).join('; ')}.`,
        evidence,
      };
    }
    const slow = runs.filter((r) => r.outcome === 'timeout');
    if (slow.length)
      return toolLimit(
        `${slow.length} of 4 concurrent task(s) did not settle within our ${ctx.taskTimeoutMs} ms budget (${slow.map((r) => r.lane).join(', ')}); ids so far are distinct per agent. To give them more time, ${TIMEOUT_KNOB}.`,
        evidence,
      );
    return pass('4 concurrent tasks (2 per agent) settled, with distinct ids per agent.', evidence);
  },
});

export const interopPeerRelay = defineCheck({
  id: 'interop.peer.relay',
  title: "Two agents: each accepts the other's output as input (A → B and B → A)",
  category: 'interop',
  level: 'SHOULD',
  phase: 'suite',
  specRefs: {
    legacy: 'seed procedure 5.5 (A sends a task to B, B to A)',
    'v0.2': 'v0.2.6 §6.4 Message, §6.7 Artifact',
    'v0.3': 'v0.3.0 §6.4, §6.7',
    'v1.0': 'v1.0.1 §3.7 Messages and Artifacts',
  },
  recommendation:
    'Produce plain text (or declared media types) in artifacts and accept the media types you declare in defaultInputModes, so an agent can hand its result to another.',
  requires: ['peer-callable'],
  run: async (ctx) => {
    const { peer, dialect: ad } = ctx;
    const pd = peer.dialect;
    const peerCtx = peerContext(ctx);
    const aOut = outputText(await completedRun(ctx)) ?? outputText((await skillRuns(ctx)).find((r) => outputText(r)));
    const bRun = await runTask(peerCtx, pd, { text: peerText(peer), lane: ctx.lane('peer task') });
    const bOut = outputText(bRun);
    if (!aOut || !bOut) return skip(`No text output to relay (${!aOut ? 'agent' : 'peer'} produced none).`, 'precondition', [runEvidence(bRun)]);
    // An agent may refuse media types it does not declare (ContentTypeNotSupported): relay text only to agents
    // whose defaultInputModes accept text.
    const noText = [!acceptsText(peer.card) && 'the peer', !acceptsText(ctx.card) && 'the agent'].filter(Boolean);
    if (noText.length)
      return skip(
        `${noText.join(' and ')} declare${noText.length === 1 ? 's' : ''} no text input mode (defaultInputModes), so relaying text output does not apply.`,
        'not-applicable',
      );
    const toB = await runTask(peerCtx, pd, { text: aOut, lane: ctx.lane('relay A→B') });
    const toA = await runTask(ctx, ad, { text: bOut, lane: ctx.lane('relay B→A') });
    const evidence = [runEvidence(toB), runEvidence(toA)];
    const problems = [toB, toA]
      .filter((r) => r.outcome === 'failed-call' || r.outcome === 'no-task')
      .map((r) => `${r.lane}: ${brokenCallVerdict(ctx, r.brokenCall ?? r.send, r.lane).message}`);
    return problems.length
      ? fail(
          `Relay failed: ${problems.join('; ')}. An agent may refuse input it does not support or that does not fit its skills; this is an interoperability note, not a requirement.`,
          evidence,
        )
      : pass("Each agent accepted the other's output.", evidence);
  },
});
