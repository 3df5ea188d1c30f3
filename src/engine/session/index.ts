/**
 * Single exchanges with an agent, judged with the suite's own rules: what the dashboard's console and the MCP
 * server use. open.ts opens a session (discovery), session.ts performs the operations, stream.ts reads streams,
 * rules.ts and stream-rules.ts judge, summary.ts shapes what is returned.
 */
export { openSession, type SessionOpen } from './open';
export { Session, SessionInputError, DEFAULT_CALL_TIMEOUT_MS } from './session';
export { CLOSE_GRACE_MS } from './stream';
export { exchangesOf } from './summary';
export { TaskMemory } from './memory';
export { finding, outcomeFindings } from './rules';
export { judgeStream, frameFindings, isFinalItem, endsWait, type StreamFacts, type StreamJudgement } from './stream-rules';
export type * from './types';
export { inferOperation, fillCredentials, fillQueryCredentials, type RawRequest, type RawOperation } from './raw';
