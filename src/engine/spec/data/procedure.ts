import type { Keyword, SpecSentence } from '../types';

/**
 * The conformance procedure's pass criteria and timeouts (docs/conformance-procedure.md#verification), quoted where
 * a rule or check judges them. The procedure is an obligation source beside the spec: where the spec of a generation
 * has no requirement word, these make a failure count; where the spec permits the behaviour, the spec wins
 * (the rule's note says so and the level override is MAY).
 */
const p = (section: string, quote: string, keyword: Keyword = 'MUST'): SpecSentence => ({ doc: 'procedure', section, quote, keyword });

export const PROCEDURE = {
  cardValidated: p('Verification V1', 'The Agent Card MUST be fetched and its structure validated.'),
  taskCompletes: p('Verification V2', 'At least one task MUST complete its whole lifecycle (submitted → working → completed).'),
  cancelWorks: p(
    'Verification V3',
    'Task cancellation MUST work correctly: a task canceled right after it was sent MUST be in the canceled state.',
  ),
  transitions: p(
    'Verification V4',
    'Every lifecycle state transition MUST work correctly; a failure is recorded with the transition, the expected state and the actual state.',
  ),
  errorCodes: p('Verification V5', 'Error responses MUST use the correct JSON-RPC error codes, and no error case may crash the server.'),
  streaming: p('Verification V6', 'If the capabilities declare it, SSE streaming MUST be tested.'),
  notSse: p(
    'Streaming S1',
    'If the card declares streaming and the endpoint answers with a response that is not SSE, that MUST be recorded as a conformance failure.',
  ),
  streamEnd: p('Streaming S2', 'The last event SHOULD carry final: true and a terminal state, and no event SHOULD arrive after it.', 'SHOULD'),
  auth: p('Verification V7', 'Authentication MUST be enforced on the task endpoints but not on the Agent Card.'),
  unattended: p('Verification V8', 'The suite MUST run in CI/CD without human intervention.'),
  taskTimeoutDefault: p('Timeouts T1', 'Each test task has a per-task timeout, 60 seconds unless the tester sets another.', 'none'),
  taskTimeout: p('Timeouts T2', 'A task that does not reach a terminal state within the per-task timeout MUST be recorded as a failure.'),
  streamTimeout: p('Timeouts T3', 'If the stream never terminates, the timeout MUST be recorded as a failure.'),
  twoAgentDiscover: p('Two agents P1', "Agent A MUST be able to discover agent B's Agent Card."),
  twoAgentSend: p('Two agents P2', 'Agent A MUST be able to send agent B a task, and agent B MUST answer it.'),
  twoAgentConcurrent: p('Two agents P4', 'Both agents MUST handle concurrent tasks without interference.'),
} as const satisfies Record<string, SpecSentence>;

/**
 * Where each of the procedure's requirements is judged beside the spec (named once here): the sentence is quoted by
 * the check in every generation it applies to, with a note. The strength stays what levelOf gives the whole list
 * (a level override, e.g. card.public's MAY where the spec permits what the procedure wants to fail, still wins).
 * The rules (terminal-final, task-completes, stream-terminates, stream-ends) quote theirs in their own specs.
 */
export const PROCEDURE_JUDGED_BY: Readonly<Record<string, { sentence: SpecSentence; note: string }>> = {
  'card.discovery': { sentence: PROCEDURE.cardValidated, note: 'The conformance procedure requires the card to be fetched and validated (Verification V1).' },
  'errors.unknown-method': {
    sentence: PROCEDURE.errorCodes,
    note: 'The conformance procedure requires the correct JSON-RPC error codes (Verification V5; step 4.1: -32601 for an unknown method).',
  },
  'errors.invalid-request': {
    sentence: PROCEDURE.errorCodes,
    note: 'The conformance procedure requires the correct JSON-RPC error codes (Verification V5; step 4.2: -32600 for a malformed request).',
  },
  'streaming.content-type': {
    sentence: PROCEDURE.notSse,
    note: 'The conformance procedure records a declared stream answered without SSE as a conformance failure (Streaming S1).',
  },
  'card.public': {
    sentence: PROCEDURE.auth,
    note: 'The conformance procedure wants the card public (Verification V7), but the spec permits protecting it: the spec wins, and a card served only with credentials stays an advisory.',
  },
  'auth.required': { sentence: PROCEDURE.auth, note: 'The conformance procedure requires authentication on the task endpoints (Verification V7).' },
};
