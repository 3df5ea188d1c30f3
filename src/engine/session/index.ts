/**
 * Single exchanges with an agent, judged with the suite's own rules: what the dashboard's console and the MCP
 * server use. open.ts opens a session through the engine's front door (src/engine/target, as a run resolves its
 * target: any binding the host speaks, gRPC included), session.ts performs the operations, stream.ts reads streams,
 * summary.ts shapes what is returned. Every finding comes from the judges (src/engine/judges) the run's checks use.
 */
export { openSession } from './open';
export { Session, SessionInputError, sessionOperationOf } from './session';
export { CLOSE_GRACE_MS } from './stream';
export { TaskMemory } from './memory';
export { outcomeFindings, judgeStream, frameFindings, isFinalItem, endsTest as endsWait } from '../judges';
export type * from './types';
export type { RawRequest } from './raw';
