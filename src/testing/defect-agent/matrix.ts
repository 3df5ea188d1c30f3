/**
 * The harness of the defect and permitted-behaviour matrices (src/engine/checks/matrix.test.ts): the seven
 * generation x binding targets, the agent setups a check needs to apply (auth, push, streaming off, extended card,
 * a peer, a second interface), and one suite run against a freshly started test agent.
 */
import { createGrpcTransport } from '../../grpc/transport';
import { createNodeHost } from '../../hosts/node';
import type { Report } from '../../engine/model/report';
import { runConformance } from '../../engine/runner/run';
import type { DefectName } from './defects';
import type { Binding, Generation } from './dialect';
import { startDefectAgent, type AgentBinding, type RunningDefectAgent, type StartDefectAgentOptions } from './index';
import type { PermittedName } from './permitted';

/** A generation spoken over a binding; gRPC exists from v1.0 (the test agent's gRPC front, grpc.ts). */
export type Target = `${Generation} ${Binding}` | 'v1.0 GRPC';
export const TARGETS: readonly Target[] = ['legacy JSONRPC', 'v0.2 JSONRPC', 'v0.3 JSONRPC', 'v0.3 HTTP+JSON', 'v1.0 JSONRPC', 'v1.0 HTTP+JSON', 'v1.0 GRPC'];

/**
 * What the agent declares and implements beyond the plain agent:
 * - `auth`: bearer auth on every A2A call (credentials given to the run); the card also declares an OAuth2 scheme
 * - `push`: push notification configs
 * - `no-streaming`: capabilities.streaming false, streaming methods refused
 * - `extended`: an authenticated extended card (with auth)
 * - `signed`: a signed card
 * - `extensions`: the card declares an optional and a required extension, which the agent enforces (v0.3, v1.0)
 * - `peer`: a second (clean) agent of the same target, for the two-agent checks
 * - `interfaces`: the card also declares the other binding, served by a second agent (v0.3, v1.0)
 */
export type Setup = 'plain' | 'auth' | 'push' | 'no-streaming' | 'extended' | 'signed' | 'extensions' | 'peer' | 'interfaces';
export const SETUPS: readonly Setup[] = ['plain', 'auth', 'push', 'no-streaming', 'extended', 'signed', 'extensions', 'peer', 'interfaces'];

export const MATRIX_SECRET = 'matrix-secret-token-5b1';

/** Setups that exist for a target (a second binding exists only from v0.3). */
export const setupApplies = (s: Setup, t: Target) => (s !== 'interfaces' && s !== 'extensions') || t.startsWith('v0.3') || t.startsWith('v1.0');

export interface CaseSpec {
  target: Target;
  setup: Setup;
  defects?: DefectName[];
  permitted?: PermittedName[];
  /** Defects of the peer agent (setup `peer`). */
  peerDefects?: DefectName[];
  /** Permitted behaviours of the peer agent (setup `peer`). */
  peerPermitted?: PermittedName[];
}

/**
 * The file (under src/engine/checks/__matrix__/) that pins the clean agent's results for a target and setup, named
 * without spaces or `+` (shell- and URL-safe): `clean-v1.0-http-json-plain.json`.
 */
export const pinnedMatrixFile = (c: Pick<CaseSpec, 'target' | 'setup'>) =>
  `clean-${c.target.toLowerCase().replace(/\+/g, '-').replace(/ /g, '-')}-${c.setup}.json`;

/** Every clean case of the matrix: each target with each setup that exists for it. */
export const CLEAN_CASES: readonly Pick<CaseSpec, 'target' | 'setup'>[] = TARGETS.flatMap((target) =>
  SETUPS.filter((s) => setupApplies(s, target)).map((setup) => ({ target, setup })),
);

export const caseKey = (c: CaseSpec) =>
  [
    c.target,
    c.setup,
    ...(c.defects ?? []).map((d) => `-${d}`),
    ...(c.permitted ?? []).map((p) => `+${p}`),
    ...(c.peerDefects ?? []).map((d) => `peer-${d}`),
    ...(c.peerPermitted ?? []).map((p) => `peer+${p}`),
  ].join(' ');

/**
 * The agents' pacing: quick steps, and a slow task long enough that a cancel or a subscription still meets it running
 * when the event loop is busy (the matrix runs many suites at once in one process, often on a shared machine);
 * likewise the per-task budget of a run is generous, so that only agents that really stall meet it.
 */
const PACE = { slowTaskMs: 800, stepMs: 10 } as const;
/**
 * The gRPC target reaches the agent through its front (grpc.ts: one more hop each way), and on a loaded machine its
 * round trips reached 1-2 s: its slow task runs longer, so that the suite's cancel and disconnect (which pick the task
 * by what they measure, never by binding) still meet it running. Only the slow skill changes: the quick steps, and with
 * them lifecycle.blocking's task, keep their pace.
 */
const GRPC_PACE = { ...PACE, slowTaskMs: 1600 } as const;

/** Starts the agent(s) of a case, runs the whole suite against them, closes them; never throws on agent misbehaviour. */
export async function runCase(c: CaseSpec, timeoutMs = 8000): Promise<Report> {
  const [generation, binding] = c.target.split(' ') as [Generation, AgentBinding];
  const started: RunningDefectAgent[] = [];
  const grpc = binding === 'GRPC' ? createGrpcTransport() : undefined;
  const pace = binding === 'GRPC' ? GRPC_PACE : PACE;
  try {
    const auth = c.setup === 'auth' || c.setup === 'extended' ? { auth: { scheme: 'bearer' as const, secret: MATRIX_SECRET } } : {};
    const features: StartDefectAgentOptions['features'] = {
      ...(c.setup === 'auth' ? { oauth: true } : {}),
      ...(c.setup === 'push' ? { push: true } : {}),
      ...(c.setup === 'no-streaming' ? { streaming: false } : {}),
      ...(c.setup === 'extended' ? { extendedCard: true } : {}),
      ...(c.setup === 'signed' ? { signed: true } : {}),
      ...(c.setup === 'extensions' ? { extensions: true } : {}),
    };
    if (c.setup === 'interfaces') {
      const other: Binding = binding === 'JSONRPC' ? 'HTTP+JSON' : 'JSONRPC';
      const second = await startDefectAgent({ generation, binding: other, ...pace });
      started.push(second);
      features.extraInterfaces = [{ url: second.url, binding: other }];
    }
    const agent = await startDefectAgent({ generation, binding, defects: c.defects, permitted: c.permitted, features, ...auth, ...pace });
    started.push(agent);
    let peerUrl: string | undefined;
    if (c.setup === 'peer') {
      const peer = await startDefectAgent({ generation, binding, defects: c.peerDefects, permitted: c.peerPermitted, ...pace });
      started.push(peer);
      peerUrl = baseUrl(peer);
    }
    return await runConformance(
      createNodeHost(grpc ? { grpc } : {}),
      {
        agentUrl: baseUrl(agent),
        peerUrl,
        timeoutMs,
        // The run would test an HTTP interface first when the card also declares one (setup interfaces): ask for gRPC.
        ...(grpc ? { prefer: { binding: 'GRPC' as const } } : {}),
        ...(auth.auth ? { credentials: { kind: 'bearer' as const, token: MATRIX_SECRET } } : {}),
      },
      () => {},
    );
  } finally {
    grpc?.close();
    await Promise.all(started.map((a) => a.close()));
  }
}

export const baseUrl = (a: RunningDefectAgent) => a.cardUrl.replace(/\/\.well-known\/.*$/, '');

/** Runs `items` through `fn` with at most `n` at a time, keeping order. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}
