/**
 * The judges: pure functions over recorded exchanges (an HTTP result, a call outcome, an SSE frame sequence) and
 * the generation spoken. Each finding names the check that judges its rule in a run and carries that check's
 * obligation in the generation (src/engine/spec: CHECK_SPECS, RULE_SPECS). The checks (which observe: they talk to
 * the agent) and the console session (src/engine/session), MCP and any other door call the same judges.
 *
 * Layering: judges import model, util, spec, protocol and http types, never checks/, runner/ or session/.
 */
export { defined, finding, obligationOf, ruleLevelOf, type Finding, type FindingOpts } from './finding';
export {
  TASK_TIMEOUT_KNOB,
  streamNeverEnded,
  taskTimedOut,
  terminalChangeFinding,
  terminalChanged,
  terminalChanges,
  terminalChangesAt,
  type RuleVerdict,
  type StateSeen,
} from './rules';
export {
  BLOCKING_CONTRADICTION,
  blockingUnsettled,
  clientIdNotEchoed,
  createdTaskFindings,
  initialStateNote,
  encodingFindings,
  envelopeFindings,
  envelopeLevel,
  legacySendMessage,
  outcomeFindings,
  viewFindings,
  wrongTask,
  type ExchangeOperation,
  type OutcomeExpectation,
} from './exchange';
export { judgeListPage, listPageFindings } from './list';
export { BUDGET_ENDS, CLOSE_GRACE_MS, endsTest, isFinalItem } from './stream-end';
export { streamCloses, streamEnding, type StreamEndFacts, type StreamEnding } from './stream-ending';
export {
  afterFinal,
  afterFinalFindings,
  errorText,
  refusalMessage,
  streamRefusalFinding,
  emptyStreamFinding,
  artifactChunkProblems,
  finalWords,
  firstEventFinding,
  frameFindings,
  judgeStream,
  lostData,
  notAStreamFinding,
  streamFramingFindings,
  streamIdFindings,
  streamTransitionFindings,
  visibleLine,
  type StreamFacts,
  type StreamJudgement,
} from './stream';
export { JUDGES, judgeObligation, type JudgeEntry } from './catalogue';
