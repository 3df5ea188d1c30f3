/**
 * The judges: pure functions over recorded exchanges (an HTTP result, a call outcome, an SSE frame sequence) and
 * the generation spoken. Each finding names the check that judges its rule in a run and carries that check's
 * obligation in the generation (src/engine/spec: CHECK_SPECS, RULE_SPECS; catalogue.ts says which judge speaks for
 * which check). The checks (which observe: they talk to the agent) import the judges' modules; the doors (the
 * console session, MCP through it, the tap) import what they need from here.
 *
 * Layering: judges import model, util, spec, protocol and http types, never checks/, runner/ or session/.
 */
export type { Finding } from './finding';
export { terminalChangeFinding } from './rules';
export { notFoundAfterSeen, outcomeFindings, viewFindings, type OutcomeExpectation } from './exchange';
export { listPageFindings } from './list';
export { BUDGET_ENDS, CLOSE_GRACE_MS, endsTest, isFinalItem, streamEnds } from './stream-end';
export { frameFindings, judgeStream, notAStreamFinding, streamRefusalFinding } from './stream';
