/**
 * The demo agents `npm start` serves under /demo/<id>, and what each one is expected to score.
 * `delaysMs` are the deliberate delays (defaults) so a benchmark can compute the floor no tool can beat.
 */
import { behaviourDelays, DEFAULT_SLOW_TASK_MS, DEFAULT_STEP_MS, DEFECTS, type Behaviour, type DefectName } from '../testing/defect-agent';
import { createFlawedDemoAgent, createLegacyDemoAgent, FLAWED_DEFECTS } from './defect-based';
import type { DemoAgentOptions, MountedDemoAgent } from './mount';
import { createV03DemoAgent } from './v03-agent';
import { createV1DemoAgent } from './v1-agent';
import { createOAuthDemoAgent, DEMO_OAUTH_CLIENT } from './oauth-agent';
import { createSignedDemoAgent } from './signed-agent';

export type { MountedDemoAgent } from './mount';

type DemoAgentId = 'v1' | 'v03' | 'legacy' | 'flawed' | 'oauth' | 'signed';
type ConformanceLevelGuess = 'full' | 'partial' | 'minimal' | 'non-conformant';

export interface DemoAgentInfo {
  id: DemoAgentId;
  label: string;
  /** Mount path on the server, e.g. `/demo/v1`. */
  path: string;
  generation: 'legacy' | 'v0.3' | 'v1.0';
  /** What it is built on. */
  builtOn: string;
  /** Bindings, preferred first. */
  bindings: ('JSONRPC' | 'HTTP+JSON')[];
  /** Card path relative to `path`. */
  cardPath: string;
  /** Preferred endpoint path relative to `path`. */
  endpointPath: string;
  /** The level we believe it deserves, and why. */
  expectedLevel: ConformanceLevelGuess;
  expectedLevelWhy: string;
  /** Deliberate defects (flawed agent), with their descriptions. */
  defects: { name: DefectName; description: string }[];
  /** Deliberate delay per behaviour at default pacing (ms). */
  delaysMs: Record<Behaviour, number>;
  /** The demo's own client credentials (not secrets: they only unlock this local demo); the Run form fills them in. */
  demoCredentials?: { kind: 'oauth2'; clientId: string; clientSecret: string };
  create(opts: DemoAgentOptions): MountedDemoAgent;
}

const delays = behaviourDelays(DEFAULT_STEP_MS, DEFAULT_SLOW_TASK_MS);

export const DEMO_AGENTS: readonly DemoAgentInfo[] = [
  {
    id: 'v1',
    label: 'v1.0 agent (@a2a-js/sdk 1.3.0, JSON-RPC + HTTP+JSON)',
    path: '/demo/v1',
    generation: 'v1.0',
    builtOn: '@a2a-js/sdk 1.3.0 (legacyCompat enabled)',
    bindings: ['JSONRPC', 'HTTP+JSON'],
    cardPath: '/.well-known/agent-card.json',
    endpointPath: '/jsonrpc',
    expectedLevel: 'partial',
    expectedLevelWhy:
      'Measured (src/engine/checks/sdk-agents.test.ts): on JSON-RPC 1.0 the SDK answers a body that is not JSON-RPC with -32602 instead of -32600 (a MUST of error handling: the core lifecycle passes, so partial). Canceling an already-canceled task succeeds: v1.0 contradicts itself there (§3.3.1 vs §3.1.5), so that is an advisory. On HTTP+JSON it answers unknown routes without google.rpc.Status. No CORS (browser readiness: advisories, never the level).',
    defects: [],
    delaysMs: delays,
    create: createV1DemoAgent,
  },
  {
    id: 'v03',
    label: 'v0.3 agent (@a2a-js/sdk 0.3.14, JSON-RPC + HTTP+JSON)',
    path: '/demo/v03',
    generation: 'v0.3',
    builtOn: '@a2a-js/sdk 0.3.14',
    bindings: ['JSONRPC', 'HTTP+JSON'],
    cardPath: '/.well-known/agent-card.json',
    endpointPath: '/jsonrpc',
    expectedLevel: 'partial',
    expectedLevelWhy:
      'Measured (src/engine/checks/sdk-agents.test.ts): on JSON-RPC the SDK answers tasks/get and tasks/cancel without an id with TaskNotFound ("Task not found: undefined") instead of -32602 Invalid params (an error-handling MUST: the core lifecycle passes, so partial); every other A2A check passes, on JSON-RPC and on its proto-style HTTP+JSON binding (which is full). No CORS (browser readiness: advisories, never the level).',
    defects: [],
    delaysMs: delays,
    create: createV03DemoAgent,
  },
  {
    id: 'legacy',
    label: 'Legacy-dialect agent (tasks/send, agent.json)',
    path: '/demo/legacy',
    generation: 'legacy',
    builtOn: 'a2a-interop defect agent, clean legacy configuration',
    bindings: ['JSONRPC'],
    cardPath: '/.well-known/agent.json',
    endpointPath: '',
    expectedLevel: 'full',
    expectedLevelWhy: 'A spec-correct agent for the legacy (pre-v0.2) schema: every applicable check should pass.',
    defects: [],
    delaysMs: delays,
    create: createLegacyDemoAgent,
  },
  {
    id: 'flawed',
    label: 'Deliberately flawed agent (v0.3 JSON-RPC)',
    path: '/demo/flawed',
    generation: 'v0.3',
    builtOn: 'a2a-interop defect agent with defects switched on',
    bindings: ['JSONRPC'],
    cardPath: '/.well-known/agent-card.json',
    endpointPath: '',
    expectedLevel: 'non-conformant',
    expectedLevelWhy:
      'Its card gives capabilities as an array (invalid card), and it also answers unknown tasks with -32602, streams without final:true, and crashes with 500 when canceling a completed task.',
    defects: FLAWED_DEFECTS.map((name) => ({ name, description: DEFECTS[name] })),
    delaysMs: delays,
    create: createFlawedDemoAgent,
  },
  {
    id: 'oauth',
    label: 'v0.3 agent behind OAuth 2.0 (client credentials)',
    path: '/demo/oauth',
    generation: 'v0.3',
    builtOn: '@a2a-js/sdk 0.3.14 + oauth2-mock-server (in-process issuer at <path>/idp)',
    bindings: ['JSONRPC', 'HTTP+JSON'],
    cardPath: '/.well-known/agent-card.json',
    endpointPath: '/jsonrpc',
    expectedLevel: 'partial',
    expectedLevelWhy: `Measured (src/engine/auth/oauth.test.ts, src/engine/checks/sdk-agents.test.ts): with client id "${DEMO_OAUTH_CLIENT.clientId}" and secret "${DEMO_OAUTH_CLIENT.clientSecret}" every A2A check passes (tokens fetched from the card's tokenUrl, refreshed on expiry) but one: like the v0.3 demo it is built on @a2a-js/sdk 0.3.14, which answers tasks/get and tasks/cancel without an id with TaskNotFound instead of -32602 (partial). Without credentials the run is not assessed (credentials required), with a wrong secret not assessed (credentials rejected).`,
    defects: [],
    delaysMs: delays,
    demoCredentials: { kind: 'oauth2', ...DEMO_OAUTH_CLIENT },
    create: createOAuthDemoAgent,
  },
  {
    id: 'signed',
    label: 'v1.0 agent with a signed card and extensions',
    path: '/demo/signed',
    generation: 'v1.0',
    builtOn: 'a2a-interop defect agent, clean v1.0 configuration with a real ES256 card signature and extensions',
    bindings: ['JSONRPC'],
    cardPath: '/.well-known/agent-card.json',
    endpointPath: '',
    expectedLevel: 'full',
    expectedLevelWhy:
      'Measured (src/engine/checks/sdk-agents.test.ts): every check passes. Its card signature verifies with the key at its jku (card.signatures.verified), it refuses a message without its required extension with ExtensionSupportRequiredError and serves one naming an unknown extension (errors.extension-required, interop.extensions).',
    defects: [],
    delaysMs: delays,
    create: createSignedDemoAgent,
  },
];
