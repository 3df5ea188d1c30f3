/** Demo agents built on the wire-controlled defect agent: the legacy dialect and a deliberately flawed agent. */
import { createDefectAgentHandler, type DefectName } from '../testing/defect-agent';
import type { DemoAgentOptions, MountedDemoAgent } from './mount';
import { trimSlash } from './mount';

/** Realistic defects users will recognise; each is one named switch of the defect agent. */
export const FLAWED_DEFECTS: DefectName[] = ['card-capabilities-array', 'task-not-found-wrong-code', 'sse-no-final', 'cancel-completed-500'];

function fromDefectAgent(
  opts: DemoAgentOptions,
  cfg: { generation: 'legacy' | 'v0.3'; defects: DefectName[]; name: string; description: string },
): MountedDemoAgent {
  const agent = createDefectAgentHandler({
    generation: cfg.generation,
    binding: 'JSONRPC',
    defects: cfg.defects,
    basePath: trimSlash(opts.basePath),
    publicUrl: trimSlash(opts.publicUrl),
    name: cfg.name,
    description: cfg.description,
    ...(opts.slowTaskMs !== undefined ? { slowTaskMs: opts.slowTaskMs } : {}),
    ...(opts.stepMs !== undefined ? { stepMs: opts.stepMs } : {}),
  });
  return { handle: agent.handle, url: agent.url, cardUrl: agent.cardUrl, close: () => agent.close() };
}

/** Legacy dialect (tasks/send, `type` parts, sessionId, card at /.well-known/agent.json), clean. */
export function createLegacyDemoAgent(opts: DemoAgentOptions): MountedDemoAgent {
  return fromDefectAgent(opts, {
    generation: 'legacy',
    defects: [],
    name: 'Demo agent (legacy dialect)',
    description: 'The pre-v0.2 dialect: tasks/send with client-chosen task ids, sessionId, `type` parts.',
  });
}

/** A v0.3 JSON-RPC agent with the FLAWED_DEFECTS switched on. */
export function createFlawedDemoAgent(opts: DemoAgentOptions): MountedDemoAgent {
  return fromDefectAgent(opts, {
    generation: 'v0.3',
    defects: FLAWED_DEFECTS,
    name: 'Demo agent (deliberately flawed)',
    description: 'A v0.3 agent with common real-world defects, to show what failing checks look like.',
  });
}
