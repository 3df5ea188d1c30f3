/**
 * Single exchanges with an agent, judged with the suite's own rules: what the dashboard's console and the MCP
 * server use. See session.ts.
 */
export { openSession, Session, SessionInputError, exchangesOf, CLOSE_GRACE_MS, DEFAULT_CALL_TIMEOUT_MS, type SessionOpen } from './session';
export { TaskMemory } from './memory';
export { finding, outcomeFindings, judgeStream, frameFindings, isFinalItem, endsWait, type StreamFacts, type StreamJudgement } from './rules';
export type * from './types';
export { inferOperation, fillCredentials, fillQueryCredentials, type RawRequest, type RawOperation } from './raw';
