/**
 * A v1.0 demo agent with a signed card and extensions, built on the wire-controlled test agent: its ES256 key pair is
 * made at start, the card is signed as v1.0.1 §8.4 describes (JWS over the RFC 8785 card without `signatures`) and
 * the public key is served at `<path>/.well-known/jwks.json`, the signature's `jku`. The card declares an optional
 * and a required extension (A2A-Extensions), and the agent refuses a message that does not activate the required one.
 */
import { createDefectAgentHandler } from '../testing/defect-agent';
import type { DemoAgentOptions, MountedDemoAgent } from './mount';
import { trimSlash } from './mount';

export function createSignedDemoAgent(opts: DemoAgentOptions): MountedDemoAgent {
  const agent = createDefectAgentHandler({
    generation: 'v1.0',
    binding: 'JSONRPC',
    basePath: trimSlash(opts.basePath),
    publicUrl: trimSlash(opts.publicUrl),
    name: 'Demo agent (signed card, extensions)',
    description: 'A v1.0 agent whose card is signed (ES256, key set at its jku) and that requires one of the two extensions it declares.',
    features: { signed: true, extensions: true },
    ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
    ...(opts.stepMs !== undefined ? { stepMs: opts.stepMs } : {}),
  });
  return { handle: agent.handle, url: agent.url, cardUrl: agent.cardUrl, close: () => agent.close() };
}
