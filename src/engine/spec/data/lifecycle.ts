import type { CheckSpec, Keyword, SpecDoc, SpecSentence } from '../types';
import { PROCEDURE } from './procedure';

/**
 * What each lifecycle check enforces, per generation, quoted from the specification (see ../types.ts).
 * This file is a list of independent entries, one per check id (long by nature: each entry quotes its sentences
 * per generation); it holds no judging logic. Entries are looked up by id (the run order is src/engine/checks/index.ts).
 * Review and worklist: docs/spec-review/lifecycle.md.
 */

/** One quoted sentence; `file` only for the schema (`a2a.json`) or proto (`a2a.proto`) of the release. */
const q = (doc: SpecDoc, section: string, quote: string, keyword: Keyword, file?: SpecSentence['file']): SpecSentence => ({
  doc,
  section,
  quote,
  keyword,
  ...(file && { file }),
});
const V01 = 'a2a-v0.1.0';
const V02 = 'a2a-v0.2.6';
const V03 = 'a2a-v0.3.0';
const V10 = 'a2a-v1.0.1';

// ------------------------------------------------------------------ shared sentences

/** JSON-RPC 2.0 §5: a response echoes the request id (every answer of a JSON-RPC binding). */
const JSONRPC_ID: SpecSentence = {
  doc: 'json-rpc-2.0',
  section: '§5 Response object (id)',
  quote: 'It MUST be the same as the value of the id member in the Request Object.',
  keyword: 'MUST',
};
const JSONRPC_01 = q(V01, '§3.2 Data Format', 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.', 'MUST');
const JSONRPC_02 = q(V02, '§3.2 Data Format', 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.', 'MUST');
const SERVER_REFERS_01 = q(V01, '§6.1 Task Object', 'when initiating the task and MUST be used by the server to refer to this task.', 'MUST');
const TASK_REQUIRED_01 = q(V01, 'Task', '"required": [ "id", "status" ], "title": "Task",', 'required-field', 'a2a.json');
const TASK_REQUIRED_02 = q(
  V02,
  'Task',
  '"$ref": "#/definitions/TaskStatus", "description": "Current status of the task" } }, "required": [ "contextId", "id", "kind", "status" ],',
  'required-field',
  'a2a.json',
);
const TASK_REQUIRED_03 = q(
  V03,
  'Task',
  '"description": "The current status of the task, including its state and a descriptive message." } }, "required": [ "contextId", "id", "kind", "status" ],',
  'required-field',
  'a2a.json',
);
const CORE_METHODS_03 = q(
  V03,
  '§11.1.2 Core Method Implementation',
  'MUST implement all of the following core methods via at least one supported transport:',
  'MUST',
);
const DATA_OBJECTS_03 = q(
  V03,
  '§11.1.5 Data Format Compliance',
  'A2A data objects: MUST use the data structures defined in Section 6 for all protocol entities.',
  'MUST',
);
const TASK_ID_REQUIRED_10 = q(V10, 'Task.id', '// new task. string id = 1 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto');
const TASK_STATUS_REQUIRED_10 = q(V10, 'Task.status', 'TaskStatus status = 3 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto');
const STATE_REQUIRED_10 = q(V10, 'TaskStatus.state', 'TaskState state = 1 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto');
const CORE_OPERATIONS_10 = q(
  V10,
  '§3.1 Core Operations',
  'The following operations define the fundamental capabilities that all A2A implementations must support, independent of the specific protocol binding used.',
  'none',
);
const ERRORS_10 = q(
  V10,
  '§3.3.2 Error Handling',
  'Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues.',
  'MUST',
);
const CANT_RESTART_02 = q(
  V02,
  '§6.1 Task Object',
  "A task which has reached a terminal state (completed, canceled, rejected, or failed) can't be restarted.",
  'none',
);
const CANT_RESTART_03 = q(
  V03,
  '§6.1 Task Object',
  "A task which has reached a terminal state (completed, canceled, rejected, or failed) can't be restarted.",
  'none',
);
const CANCEL_ATTEMPT = (doc: SpecDoc, section: string) =>
  q(
    doc,
    section,
    'The server will attempt to cancel the task, but success is not guaranteed (e.g., the task might have already completed or failed, or cancellation might not be supported at its current stage).',
    'none',
  );
const A2A_CODES_SHOULD = (doc: SpecDoc) => q(doc, '§8.2 A2A-Specific Errors', 'Servers SHOULD use these codes where applicable.', 'SHOULD');
const LEGACY_STATES = [
  q(
    V01,
    '§6.3 TaskState Enum',
    '| completed | Task finished successfully. Results are typically available in Task.artifacts or TaskStatus.message. | Yes |',
    'none',
  ),
  q(
    V01,
    '§6.3 TaskState Enum',
    '| input-required | Agent requires additional input from the client/user to proceed. The task is effectively paused. | No (Pause) |',
    'none',
  ),
  q(V01, '§6.3 TaskState Enum', '| unknown | The state of the task cannot be determined (e.g., task ID is invalid, unknown, or has expired). | Yes |', 'none'),
];
const STATE_ENUM_02 = q(
  V02,
  'TaskState',
  '"enum": [ "submitted", "working", "input-required", "completed", "canceled", "failed", "rejected", "auth-required", "unknown" ],',
  'none',
  'a2a.json',
);
const TERMINAL_10 = q(V10, 'TaskState', '// Indicates that a task has finished successfully. This is a terminal state.', 'none', 'a2a.proto');
const INTERRUPTED_10 = q(
  V10,
  'TaskState',
  '// Indicates that the agent requires additional user input to proceed. This is an interrupted state.',
  'none',
  'a2a.proto',
);
const MORE_MESSAGES_10 = q(
  V10,
  '§3.3.3 Asynchronous Processing',
  'Agents MAY accept additional messages for tasks in non-terminal states to enable multi-turn interactions (see Section 3.4).',
  'MAY',
);

// ------------------------------------------------------------------ rules (src/engine/judges/rules.ts)

const CANCEL_NOTE =
  'The conformance procedure wants a canceled task to be canceled (Verification V3), but every release calls cancellation best effort ("success is not guaranteed"): the spec permits declining, so a declined cancel is an advisory. A cancel answered "canceled" after which the task changes state is not a declined cancel: it breaks the rule "a terminal state is final" (MUST, rules.ts), judged here too.';

const TIMEOUT_NOTE =
  'No release bounds how long a task may run; the conformance procedure gives each test task a per-task timeout (default 60 s: --task-timeout, the run form\'s "Timeout per task") and records a task that reaches no terminal state within it as a failure (Timeouts T2). A task paused in input-required or auth-required has settled. Our own request budgets stay tool limits.';

/**
 * The rule "a task reaches a terminal state within the per-task timeout" (and the procedure's "at least one task
 * completes"): the spec describes the states, the procedure sets the time. One strength (MUST) in every generation.
 */
export const TASK_COMPLETES: CheckSpec = {
  legacy: { sentences: [...LEGACY_STATES, PROCEDURE.taskTimeout, PROCEDURE.taskTimeoutDefault, PROCEDURE.taskCompletes], note: TIMEOUT_NOTE },
  'v0.2': { sentences: [CANT_RESTART_02, STATE_ENUM_02, PROCEDURE.taskTimeout, PROCEDURE.taskTimeoutDefault, PROCEDURE.taskCompletes], note: TIMEOUT_NOTE },
  'v0.3': {
    sentences: [
      CANT_RESTART_03,
      q(V03, 'TaskState', '// Represents the status a task is finished. This is a terminal state', 'none', 'a2a.proto'),
      PROCEDURE.taskTimeout,
      PROCEDURE.taskTimeoutDefault,
      PROCEDURE.taskCompletes,
    ],
    note: TIMEOUT_NOTE,
  },
  'v1.0': {
    sentences: [
      TERMINAL_10,
      INTERRUPTED_10,
      q(V10, '§3.3.3 Asynchronous Processing', 'A2A operations are designed for asynchronous task execution.', 'none'),
      PROCEDURE.taskTimeout,
      PROCEDURE.taskTimeoutDefault,
      PROCEDURE.taskCompletes,
    ],
    note: TIMEOUT_NOTE,
  },
};

const FINAL_NOTE = (spec: string) =>
  `${spec} The conformance procedure requires every state transition and cancellation to work (Verification V3, V4), so a terminal state that changes (a canceled task that runs on, a completed task revived) is a failure in every generation. No sentence forbids the other transitions: submitted -> completed directly, repeated working <-> input-required, a return to submitted are legal.`;

/**
 * The rule "a terminal state is final": judged by one function (rules.ts) for every check that observes a finished
 * task change (lifecycle.transitions, lifecycle.cancel.effective, errors.cancel-terminal, errors.cancel-twice,
 * errors.message-to-terminal). One strength (MUST, the procedure's) in every generation.
 */
export const TERMINAL_FINAL: CheckSpec = {
  legacy: {
    sentences: [...LEGACY_STATES, PROCEDURE.transitions, PROCEDURE.cancelWorks],
    note: FINAL_NOTE('A2A v0.1.0 lists the terminal states ("Yes" in the table) without a requirement word.'),
  },
  'v0.2': {
    sentences: [CANT_RESTART_02, STATE_ENUM_02, PROCEDURE.transitions, PROCEDURE.cancelWorks],
    note: FINAL_NOTE('A2A v0.2.6 says a finished task "can\'t be restarted", without a requirement word; "unknown" is a schema state (not terminal).'),
  },
  'v0.3': {
    sentences: [
      CANT_RESTART_03,
      q(
        V03,
        'TaskState',
        '// client. Authentication is expected to come out-of-band thus this is not // an interrupted or terminal state.',
        'none',
        'a2a.proto',
      ),
      PROCEDURE.transitions,
      PROCEDURE.cancelWorks,
    ],
    note: FINAL_NOTE(
      'A2A v0.3.0 says a finished task "can\'t be restarted", without a requirement word (its proto calls auth-required neither interrupted nor terminal).',
    ),
  },
  'v1.0': {
    sentences: [
      TERMINAL_10,
      MORE_MESSAGES_10,
      q(
        V10,
        '§3.1.1 Send Message',
        'Messages sent to Tasks that are in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) cannot accept further messages.',
        'none',
      ),
      PROCEDURE.transitions,
      PROCEDURE.cancelWorks,
    ],
    note: FINAL_NOTE('A2A v1.0.1 defines the terminal states and says they "cannot accept further messages", without a requirement word.'),
  },
};

export const SPEC: Record<string, CheckSpec> = {
  'lifecycle.send': {
    legacy: {
      sentences: [
        JSONRPC_01,
        q(V01, '§7.1 tasks/send', 'Response result type (on success): Task (The current or final state of the task after processing the message).', 'none'),
        SERVER_REFERS_01,
        TASK_REQUIRED_01,
      ],
      note: 'tasks/send answers with a Task (never a Message) that keeps the id the client chose. A skill whose declared input modes exclude our test input may refuse it with ContentTypeNotSupportedError (-32005, §8.2): that refusal is a correct answer, not a failure.',
    },
    'v0.2': {
      sentences: [
        JSONRPC_02,
        q(
          V02,
          'SendMessageSuccessResponse',
          '"result": { "anyOf": [ { "$ref": "#/definitions/Task" }, { "$ref": "#/definitions/Message" } ], "description": "The result object on success" } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        TASK_REQUIRED_02,
      ],
      note: 'A Task or a Message. A refusal with ContentTypeNotSupportedError (-32005) of an input the skill does not declare is a correct answer.',
    },
    'v0.3': {
      sentences: [
        CORE_METHODS_03,
        q(
          V03,
          'SendMessageSuccessResponse',
          '"description": "The result, which can be a direct reply Message or the initial Task object." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        TASK_REQUIRED_03,
      ],
      note: 'A Task or a Message. A refusal with ContentTypeNotSupportedError (-32005; REST: a 4xx, v0.3 has no status table) of an input the skill does not declare is a correct answer.',
    },
    'v1.0': {
      sentences: [
        q(
          V10,
          '§3.1.1 Send Message',
          'The agent MAY create a new Task to process the provided message asynchronously or MAY return a direct Message response for simple interactions.',
          'MAY',
        ),
        q(V10, '§3.4.2 Task Identifier Semantics', 'The generated taskId MUST be included in the Task object returned to the client', 'MUST'),
        TASK_ID_REQUIRED_10,
        STATE_REQUIRED_10,
      ],
      note: 'A Task or a Message. A refusal of an input the skill does not declare is a correct answer: ContentTypeNotSupportedError (-32005; REST 400 with reason CONTENT_TYPE_NOT_SUPPORTED, 415 in v1.0.0), or a validation error (-32602 / 400 INVALID_ARGUMENT: §3.3.2 lists "unsupported content type" among validation errors).',
    },
  },

  'lifecycle.get': {
    legacy: {
      sentences: [
        JSONRPC_01,
        q(V01, '§7.3 tasks/get', "Response result type (on success): Task (A snapshot of the task's current state).", 'none'),
        SERVER_REFERS_01,
        TASK_REQUIRED_01,
      ],
    },
    'v0.2': {
      sentences: [
        JSONRPC_02,
        q(V02, '§7.3 tasks/get', 'Retrieves the current state (including status, artifacts, and optionally history) of a previously initiated task.', 'none'),
        q(V02, 'GetTaskSuccessResponse', '"description": "JSON-RPC success response for the \'tasks/get\' method.",', 'none', 'a2a.json'),
        q(
          V02,
          'GetTaskSuccessResponse',
          '"$ref": "#/definitions/Task", "description": "The result object on success." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
      ],
    },
    'v0.3': {
      sentences: [
        CORE_METHODS_03,
        q(V03, '§11.1.2 Core Method Implementation', 'tasks/get - Retrieve task status and results', 'none'),
        q(
          V03,
          'GetTaskSuccessResponse',
          '"description": "The result, containing the requested Task object." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
      ],
    },
    'v1.0': {
      sentences: [
        CORE_OPERATIONS_10,
        q(V10, '§3.1.3 Get Task', 'Task: Current state and artifacts of the requested task', 'none'),
        TASK_ID_REQUIRED_10,
        TASK_STATUS_REQUIRED_10,
      ],
      note: 'Implementing GetTask rests on the lowercase "must support" of §3.1 (A2A cites RFC 2119, where lowercase is arguably normative); a Task returned for the id must carry its REQUIRED fields. TaskNotFoundError for a task that had already finished is not a clear violation: the error table allows "already completed and purged".',
    },
  },

  'lifecycle.terminal': TASK_COMPLETES,

  'lifecycle.transitions': TERMINAL_FINAL,

  'lifecycle.task-id-stable': {
    legacy: { sentences: [SERVER_REFERS_01] },
    'v0.2': {
      sentences: [q(V02, 'Task.id', '"id": { "description": "Unique identifier for the task", "type": "string" },', 'none', 'a2a.json')],
      note: 'Stable and unique ids are described, not required, in v0.2.6.',
    },
    'v0.3': {
      sentences: [q(V03, 'Task.id', '"description": "A unique identifier for the task, generated by the server for a new task.",', 'none', 'a2a.json')],
      note: 'Stable and unique ids are described, not required, in v0.3.0.',
    },
    'v1.0': {
      sentences: [
        q(V10, '§3.4.2 Task Identifier Semantics', 'Agents MUST generate a unique taskId for each new task they create', 'MUST'),
        TASK_ID_REQUIRED_10,
      ],
      note: 'Unique task ids are a MUST; a contextId that changes between answers about one task breaks no sentence (Task.contextId is not REQUIRED) and is an advisory.',
    },
  },

  'lifecycle.shape': {
    legacy: {
      sentences: [
        JSONRPC_01,
        TASK_REQUIRED_01,
        q(V01, 'TaskStatus', '"required": [ "state" ], "title": "TaskStatus",', 'required-field', 'a2a.json'),
        q(V01, '§6.2 TaskStatus Object', 'The date and time (UTC is STRONGLY recommended) when this status was recorded by the server.', 'none'),
      ],
      note: 'TaskStatus.timestamp has "format": "date-time" (RFC 3339 date-time: offsets and lowercase t/z allowed); draft-07 makes format assertion optional, so a malformed timestamp is an advisory. Required fields, types and the JSON-RPC envelope are MUST.',
    },
    'v0.2': {
      sentences: [
        JSONRPC_02,
        TASK_REQUIRED_02,
        q(
          V02,
          'Message',
          '"description": "Identifier of task the message is related to", "type": "string" } }, "required": [ "kind", "messageId", "parts", "role" ],',
          'required-field',
          'a2a.json',
        ),
        q(V02, 'TaskStatus.timestamp', '"description": "ISO 8601 datetime string when the status was recorded.",', 'none', 'a2a.json'),
        q(V02, '§9.3 Streaming Task Execution (SSE)', '"timestamp":"2025-04-02T16:59:25.331844"', 'none'),
      ],
      note: 'The timestamp is "ISO 8601" with no format constraint: any ISO 8601 date-time is valid, with or without offset (the release\'s own §9.3 example has none); a non-ISO string is an advisory.',
    },
    'v0.3': {
      sentences: [
        DATA_OBJECTS_03,
        TASK_REQUIRED_03,
        q(V03, 'TaskStatus.timestamp', '"description": "An ISO 8601 datetime string indicating when this status was recorded.",', 'none', 'a2a.json'),
        q(V03, '§9.3 Streaming Task Execution (SSE)', '"timestamp":"2025-04-02T16:59:25.331844"', 'none'),
      ],
      note: "As v0.2 for timestamps. v0.3 REST answers in the v0.3 proto's JSON, where no field is REQUIRED (contextId may be absent).",
    },
    'v1.0': {
      sentences: [
        q(V10, '§4 Protocol Data Model', 'All protocol bindings MUST provide functionally equivalent representations of these data structures.', 'MUST'),
        q(
          V10,
          '§5.5 JSON Field Naming Convention',
          'All JSON serializations of the A2A protocol data model MUST use camelCase naming for field names, not the snake_case convention used in Protocol Buffer definitions.',
          'MUST',
        ),
        q(
          V10,
          '§5.6.1 Timestamps',
          'When serialized to JSON (in JSON-RPC, HTTP/REST, or other JSON-based bindings), these timestamps MUST be represented as ISO 8601 formatted strings in UTC timezone.',
          'MUST',
        ),
        q(V10, '§5.6.1 Timestamps', "Timestamps MUST NOT include timezone offsets other than 'Z' (all times are UTC)", 'MUST NOT'),
        q(V10, '§5.6.1 Timestamps', 'When millisecond precision is not available, the fractional seconds portion MAY be omitted or zero-filled', 'MAY'),
        q(
          V10,
          '§5.7 Field Presence and Optionality',
          'Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages.',
          'MUST',
        ),
        q(
          V10,
          '§5.7 Field Presence and Optionality',
          'Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves.',
          'SHOULD',
        ),
        q(V10, '§14.1.1 application/a2a+json', 'Binary (UTF-8 encoding MUST be used for JSON text)', 'MUST'),
        {
          doc: 'rfc8259',
          section: '§8.1 Character Encoding',
          quote: 'Implementations MUST NOT add a byte order mark (U+FEFF) to the beginning of a networked-transmitted JSON text.',
          keyword: 'MUST NOT',
        },
      ],
      note: 'Task.contextId is not REQUIRED in the proto (the §6.3 example omits it). An extra field such as "kind" is an unrecognized field, not an invalid one: advisory. TASK_STATE_UNSPECIFIED is a proto enum value.',
    },
  },

  'lifecycle.cancel': {
    legacy: {
      sentences: [
        JSONRPC_ID,
        JSONRPC_01,
        q(
          V01,
          '§7.4 tasks/cancel',
          'Response result type (on success): Task (The state of the task after the cancellation attempt. Ideally, Task.status.state will be "canceled" if successful).',
          'none',
        ),
        q(V01, '§7.4 tasks/cancel', 'Response error type (on failure): JSONRPCError (e.g., TaskNotFoundError, TaskNotCancelableError).', 'none'),
        A2A_CODES_SHOULD(V01),
      ],
      note: 'The answer is a Task (in whatever state the attempt left it) or an error; a Task that is not canceled is a legal answer.',
    },
    'v0.2': {
      sentences: [
        JSONRPC_ID,
        JSONRPC_02,
        q(V02, 'CancelTaskSuccessResponse', '"description": "JSON-RPC success response model for the \'tasks/cancel\' method.",', 'none', 'a2a.json'),
        q(
          V02,
          'CancelTaskSuccessResponse',
          '"$ref": "#/definitions/Task", "description": "The result object on success." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        A2A_CODES_SHOULD(V02),
      ],
    },
    'v0.3': {
      sentences: [
        JSONRPC_ID,
        CORE_METHODS_03,
        q(V03, '§11.1.2 Core Method Implementation', 'tasks/cancel - Request task cancellation', 'none'),
        q(
          V03,
          'CancelTaskSuccessResponse',
          '"description": "The result, containing the final state of the canceled Task object." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        A2A_CODES_SHOULD(V03),
      ],
    },
    'v1.0': {
      sentences: [
        JSONRPC_ID,
        q(V10, '§3.1.5 Cancel Task', 'The operation attempts to cancel the specified task and returns its updated state.', 'none'),
        q(V10, '§3.1.5 Cancel Task', 'TaskNotCancelableError: The task is not in a cancelable state (e.g., already completed, failed, or canceled).', 'none'),
        ERRORS_10,
        q(V10, 'A2AService.CancelTask', 'rpc CancelTask(CancelTaskRequest) returns (Task) {', 'none', 'a2a.proto'),
      ],
      note: 'The answer is the Task (its state after the attempt) or TaskNotCancelableError / TaskNotFoundError; implementing CancelTask rests on §3.1\'s lowercase "must support".',
    },
  },

  'lifecycle.cancel.effective': {
    legacy: {
      sentences: [CANCEL_ATTEMPT(V01, '§7.4 tasks/cancel'), PROCEDURE.cancelWorks],
      level: 'MAY',
      note: CANCEL_NOTE,
    },
    'v0.2': { sentences: [CANCEL_ATTEMPT(V02, '§7.4 tasks/cancel'), PROCEDURE.cancelWorks], level: 'MAY', note: CANCEL_NOTE },
    'v0.3': { sentences: [CANCEL_ATTEMPT(V03, '§7.4 tasks/cancel'), PROCEDURE.cancelWorks], level: 'MAY', note: CANCEL_NOTE },
    'v1.0': {
      sentences: [
        CANCEL_ATTEMPT(V10, '§3.1.5 Cancel Task'),
        q(V10, '§3.1.5 Cancel Task', 'TaskNotCancelableError: The task is not in a cancelable state (e.g., already completed, failed, or canceled).', 'none'),
        PROCEDURE.cancelWorks,
      ],
      level: 'MAY',
      note: `${CANCEL_NOTE} Whether a state is cancelable is the agent's call.`,
    },
  },

  'lifecycle.multi-turn': {
    legacy: {
      sentences: [
        q(V01, '§7.1.1 TaskSendParams Object', 'If existing, this message continues the task.', 'none'),
        q(
          V01,
          '§6.3 TaskState Enum',
          '| input-required | Agent requires additional input from the client/user to proceed. The task is effectively paused. | No (Pause) |',
          'none',
        ),
      ],
      note: 'Resuming a paused task is described, never required: advisory in every release.',
    },
    'v0.2': {
      sentences: [
        q(V02, 'Message.taskId', '"description": "Identifier of task the message is related to",', 'none', 'a2a.json'),
        q(V02, '§9.4 Multi-Turn Interaction (Input Required)', 'Client message/send (providing the requested input, using the _same_ task ID):', 'none'),
      ],
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          'Message.taskId',
          '"description": "The identifier of the task this message is part of. Can be omitted for the first message of a new task.",',
          'none',
          'a2a.json',
        ),
        q(V03, '§9.4 Multi-Turn Interaction (Input Required)', 'Client message/send (providing the requested input, using the _same_ task ID):', 'none'),
      ],
    },
    'v1.0': {
      sentences: [
        MORE_MESSAGES_10,
        q(
          V10,
          '§3.4.3 Multi-Turn Conversation Patterns',
          'The client continues the interaction by sending a new message with the same taskId and contextId',
          'none',
        ),
        INTERRUPTED_10,
      ],
      note: 'Accepting the answer is a MAY (§3.3.3). Asking again (input-required once more) or ending failed/rejected after the answer are legal outcomes.',
    },
  },

  'lifecycle.history': {
    legacy: {
      sentences: [
        q(V01, '§7.3.1 TaskQueryParams Object', 'If a positive integer N is provided, the server SHOULD include the last N messages', 'SHOULD'),
        q(V01, '§6.1 Task Object', 'Optional array of recent messages exchanged, if requested by historyLength.', 'none'),
      ],
      note: 'capabilities.stateTransitionHistory is a placeholder for status-change history (§5.5.2), not for Task.history: it promises nothing about messages.',
    },
    'v0.2': {
      sentences: [
        q(
          V02,
          'TaskQueryParams.historyLength',
          '"historyLength": { "description": "Number of recent messages to be retrieved.", "type": "integer" },',
          'none',
          'a2a.json',
        ),
      ],
      note: 'Keeping history is described, not required: advisory.',
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          'TaskQueryParams.historyLength',
          '"description": "The number of most recent messages from the task\'s history to retrieve.",',
          'none',
          'a2a.json',
        ),
      ],
      note: 'Keeping history is described, not required: advisory.',
    },
    'v1.0': {
      sentences: [
        q(V10, '§3.7 Messages and Artifacts', 'The agent is responsible to determine which Messages are persisted in the Task History.', 'none'),
        q(
          V10,
          '§3.7 Messages and Artifacts',
          'Agents MAY choose to persist all Messages that contain important information in the Task history to ensure clients can retrieve it later.',
          'MAY',
        ),
      ],
      note: 'An empty or absent history is legal. The upper bound of historyLength is a separate MUST: lifecycle.history-length.',
    },
  },

  /** Proposed: the historyLength bound, split out of lifecycle.history (see docs/spec-review/lifecycle.md). */
  'lifecycle.history-length': {
    legacy: {
      sentences: [
        q(V01, '§7.3.1 TaskQueryParams Object', 'If a positive integer N is provided, the server SHOULD include the last N messages', 'SHOULD'),
        q(V01, '§7.3.1 TaskQueryParams Object', 'If positive, requests the server to include up to N recent messages in Task.history.', 'none'),
      ],
    },
    'v0.2': {
      sentences: [
        q(
          V02,
          'TaskQueryParams.historyLength',
          '"historyLength": { "description": "Number of recent messages to be retrieved.", "type": "integer" },',
          'none',
          'a2a.json',
        ),
      ],
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          'TaskQueryParams.historyLength',
          '"description": "The number of most recent messages from the task\'s history to retrieve.",',
          'none',
          'a2a.json',
        ),
        q(
          V03,
          'SendMessageConfiguration.history_length',
          'The maximum number of messages to include in the history. if 0, the // history will be unlimited.',
          'none',
          'a2a.proto',
        ),
      ],
      note: 'Never send historyLength 0 to a v0.3 agent: its proto reads 0 as "unlimited", the opposite of v1.0.',
    },
    'v1.0': {
      sentences: [
        q(
          V10,
          'GetTaskRequest.history_length',
          'The server MUST NOT return more // messages than the provided value, but MAY apply a lower limit.',
          'MUST NOT',
          'a2a.proto',
        ),
        q(V10, '§3.2.4 History Length Semantics', '0: No history should be returned; the history field SHOULD be omitted', 'SHOULD'),
        q(V10, '§3.2.4 History Length Semantics', "> 0: Return at most this many recent messages from the task's history", 'none'),
      ],
      note: 'historyLength N: more than N messages fails (MUST NOT); fewer is legal. historyLength 0: any message fails (MUST NOT); an empty list instead of an omitted field goes against the SHOULD only in wording (ProtoJSON reads an empty repeated field as unset): an advisory.',
    },
  },

  'lifecycle.context': {
    'v0.2': {
      sentences: [
        q(V02, 'Message.contextId', '"contextId": { "description": "The context the message is associated with", "type": "string" },', 'none', 'a2a.json'),
        q(V02, 'Task.contextId', '"description": "Server-generated id for contextual alignment across interactions",', 'none', 'a2a.json'),
      ],
      note: 'Keeping a client-sent contextId is described, not required: advisory.',
    },
    'v0.3': {
      sentences: [
        q(V03, 'Message.contextId', '"description": "The context identifier for this message, used to group related interactions.",', 'none', 'a2a.json'),
        q(
          V03,
          'Task.contextId',
          '"description": "A server-generated identifier for maintaining context across multiple related tasks or interactions.",',
          'none',
          'a2a.json',
        ),
      ],
      note: 'Keeping a client-sent contextId is described, not required: advisory.',
    },
    'v1.0': {
      sentences: [
        q(V10, '§3.4.1 Context Identifier Semantics', 'Agents MAY accept and preserve client-provided contextId values', 'MAY'),
        q(
          V10,
          '§3.4.1 Context Identifier Semantics',
          'If an agent cannot accept a client-provided contextId, it MUST reject the request with an error and MUST NOT generate a new contextId for the response',
          'MUST',
        ),
        q(
          V10,
          '§3.4.3 Multi-Turn Conversation Patterns',
          'Clients MAY use contextId without taskId to start a new task within an existing conversation context',
          'MAY',
        ),
      ],
      note: 'Accepting the contextId (same contextId in the answer) or refusing with an error both pass; answering in a different contextId fails.',
    },
  },

  'lifecycle.list': {
    'v1.0': {
      sentences: [
        CORE_OPERATIONS_10,
        q(V10, '§3.1.4 List Tasks', 'The nextPageToken field MUST always be present in the response.', 'MUST'),
        q(
          V10,
          '§3.1.4 List Tasks',
          'When there are no more results to retrieve (i.e., this is the final page), the field MUST be set to an empty string ("").',
          'MUST',
        ),
        q(
          V10,
          '§3.1.4 List Tasks',
          'When includeArtifacts is false (the default), the artifacts field MUST be omitted entirely from each Task object in the response.',
          'MUST',
        ),
        q(
          V10,
          '§3.1.4 List Tasks',
          'Implementations MUST return tasks sorted by their status timestamp time in descending order (most recently updated tasks first).',
          'MUST',
        ),
        q(
          V10,
          '§3.1.4 List Tasks',
          'The operation MUST return only tasks visible to the authenticated client and MUST use cursor-based pagination for performance and consistency.',
          'MUST',
        ),
        q(V10, 'ListTasksResponse.tasks', 'repeated Task tasks = 1 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto'),
        {
          doc: 'json-rpc-2.0',
          section: '§5 Response object (id)',
          quote: 'It MUST be the same as the value of the id member in the Request Object.',
          keyword: 'MUST',
        },
      ],
      note: 'The answer, once given, is judged at MUST, its JSON-RPC envelope included (JSON-RPC 2.0 §5: the id of the request echoed). Implementing ListTasks at all rests only on the lowercase "must support" of §3.1, a sentence that also covers capability-gated operations: a method-not-found answer is an advisory, not a failure. ListTasks does not exist before v1.0 (the v0.3 text lists tasks/list, its proto does not).',
    },
  },

  'lifecycle.push-delivery': {
    legacy: {
      sentences: [
        q(V01, '§9.4 Push Notification Setup and Usage', 'HTTP Body (example, actual payload is server-defined, but SHOULD include taskId and status):', 'SHOULD'),
      ],
      note: 'The payload is server-defined; it SHOULD carry the task id and status (the Task object has them as id and status).',
    },
    'v0.2': {
      sentences: [q(V02, '§9.5 Push Notification Setup and Usage', 'HTTP Body (Task object is sent as JSON payload):', 'none')],
      note: 'Delivery and its payload (the Task object) are shown in an example only: a missing or differently shaped delivery is an advisory.',
    },
    'v0.3': {
      sentences: [q(V03, '§9.5 Push Notification Setup and Usage', 'HTTP Body (Task object is sent as JSON payload):', 'none')],
      note: 'As v0.2: the Task object is the example payload; nothing requires it.',
    },
    'v1.0': {
      sentences: [
        q(V10, '§4.3.3 Push Notification Payload', 'Agents MUST attempt delivery at least once for each configured webhook', 'MUST'),
        q(V10, '§4.3.3 Push Notification Payload', 'The webhook payload is a StreamResponse object containing exactly one of the following:', 'none'),
        q(V10, '§3.1.7 Create Push Notification Config', 'The operation MUST establish a webhook endpoint for task update notifications.', 'MUST'),
      ],
      note: 'A task update that never reaches the webhook, or arrives as something else than a StreamResponse naming the task, fails.',
    },
  },

  'lifecycle.push-auth': {
    legacy: {
      sentences: [
        q(
          V01,
          '§6.8 PushNotificationConfig Object',
          "Optional client-generated opaque token for the client's webhook receiver to validate the notification (e.g., server includes it in an X-A2A-Notification-Token header).",
          'none',
        ),
      ],
      note: 'The header is an example ("e.g."): a delivery without the token is an advisory.',
    },
    'v0.2': {
      sentences: [q(V02, '§9.5 Push Notification Setup and Usage', 'Validates the X-A2A-Notification-Token.', 'none')],
      note: 'The token header appears in the push example only: its absence is an advisory.',
    },
    'v0.3': {
      sentences: [
        q(V03, '§9.5 Push Notification Setup and Usage', 'Validates the X-A2A-Notification-Token.', 'none'),
        q(V03, 'PushNotificationConfig.token', '"description": "A unique token for this task or session to validate incoming push notifications.",', 'none', 'a2a.json'),
      ],
      note: 'As v0.2: the token header is shown, not required.',
    },
    'v1.0': {
      sentences: [
        q(
          V10,
          '§4.3.3 Push Notification Payload',
          'The agent MUST include authentication credentials in the request headers as specified in the PushNotificationConfig.authentication field.',
          'MUST',
        ),
      ],
      note: 'The config asks for Bearer credentials; every delivery must carry `Authorization: Bearer <credentials>`. The token has no header in v1.0.1 and is not judged.',
    },
  },

  'lifecycle.push-order': {
    legacy: { sentences: LEGACY_STATES, note: 'The states are described, their order is not required: deliveries out of order are an advisory.' },
    'v0.2': { sentences: [CANT_RESTART_02], note: '"can\'t be restarted" carries no requirement word: a state delivered after the terminal one is an advisory.' },
    'v0.3': { sentences: [CANT_RESTART_03], note: 'As v0.2.' },
    'v1.0': {
      sentences: [TERMINAL_10],
      note: '"terminal" is a definition, and no sentence orders webhook calls (streams MUST NOT reorder events; push has no such sentence): an advisory.',
    },
  },

  'lifecycle.push-after-delete': {
    'v0.2': {
      sentences: [
        q(
          V02,
          '§7.8 tasks/pushNotificationConfig/delete',
          'Deletes an associated push notification configuration for a task. Requires the server to have AgentCard.capabilities.pushNotifications: true.',
          'none',
        ),
      ],
      note: 'Delete is described, its effect on deliveries is not: a delivery after delete is an advisory.',
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          '§7.8 tasks/pushNotificationConfig/delete',
          'Deletes an associated push notification configuration for a task. Requires the server to have AgentCard.capabilities.pushNotifications: true.',
          'none',
        ),
      ],
      note: 'As v0.2.',
    },
    'v1.0': {
      sentences: [
        q(V10, '§3.1.10 Delete Push Notification Config', 'The operation MUST permanently remove the specified push notification configuration.', 'MUST'),
        q(V10, '§3.1.10 Delete Push Notification Config', 'No further notifications will be sent to the configured webhook after deletion.', 'none'),
      ],
      note: 'A state the task reached after the delete answered, POSTed to the deleted webhook, fails.',
    },
  },

  'lifecycle.push-config': {
    legacy: {
      sentences: [
        JSONRPC_ID,
        JSONRPC_01,
        q(
          V01,
          '§7.5 tasks/pushNotification/set',
          'Response result type (on success): TaskPushNotificationConfig (Confirms the configuration that was set. The server MAY omit or mask any sensitive details like secrets from the authentication.credentials field in the response).',
          'MAY',
        ),
        q(
          V01,
          'TaskPushNotificationConfig',
          '"required": [ "id", "pushNotificationConfig" ], "title": "TaskPushNotificationConfig",',
          'required-field',
          'a2a.json',
        ),
        q(V01, 'PushNotificationConfig', '"required": [ "url" ], "title": "PushNotificationConfig",', 'required-field', 'a2a.json'),
      ],
      note: 'Only set and get exist. Accepting push config when the card declares it is described (§5.5.2), not required: a refusal is an advisory; a config answer without its required fields fails.',
    },
    'v0.2': {
      sentences: [
        JSONRPC_ID,
        JSONRPC_02,
        q(
          V02,
          'SetTaskPushNotificationConfigSuccessResponse',
          '"$ref": "#/definitions/TaskPushNotificationConfig", "description": "The result object on success." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V02,
          'TaskPushNotificationConfig',
          '"taskId": { "description": "Task id.", "type": "string" } }, "required": [ "pushNotificationConfig", "taskId" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V02,
          'PushNotificationConfig',
          '"url": { "description": "URL for sending the push notifications.", "type": "string" } }, "required": [ "url" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V02,
          'DeleteTaskPushNotificationConfigSuccessResponse',
          '"result": { "description": "The result object on success.", "type": "null" } },',
          'none',
          'a2a.json',
        ),
      ],
      note: 'Set/get return TaskPushNotificationConfig, list an array of them, delete null. A refusal while the card declares push is an advisory (capabilities are descriptive).',
    },
    'v0.3': {
      sentences: [
        JSONRPC_ID,
        q(V03, '§11.1.3 Optional Method Implementation', 'MAY implement the following optional methods:', 'MAY'),
        DATA_OBJECTS_03,
        q(
          V03,
          'SetTaskPushNotificationConfigSuccessResponse',
          '"description": "The result, containing the configured push notification settings." } }, "required": [ "id", "jsonrpc", "result" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V03,
          'TaskPushNotificationConfig',
          '"taskId": { "description": "The ID of the task.", "type": "string" } }, "required": [ "pushNotificationConfig", "taskId" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V03,
          'PushNotificationConfig',
          '"url": { "description": "The callback URL where the agent should send push notifications.", "type": "string" } }, "required": [ "url" ],',
          'required-field',
          'a2a.json',
        ),
        q(
          V03,
          'DeleteTaskPushNotificationConfigSuccessResponse',
          '"result": { "description": "The result is null on successful deletion.", "type": "null" } },',
          'none',
          'a2a.json',
        ),
      ],
      note: "The methods are optional (§11.1.3); answers must have the schema's shape. REST answers in the v0.3 proto's JSON ({name, pushNotificationConfig}; list {configs}; delete {}).",
    },
    'v1.0': {
      sentences: [
        JSONRPC_ID,
        q(V10, '§3.1.7 Create Push Notification Config', 'The operation MUST establish a webhook endpoint for task update notifications.', 'MUST'),
        q(V10, '§3.1.7 Create Push Notification Config', 'The configuration MUST persist until task completion or explicit deletion.', 'MUST'),
        q(
          V10,
          '§3.1.8 Get Push Notification Config',
          'The operation MUST return configuration details including webhook URL and notification settings.',
          'MUST',
        ),
        q(V10, '§3.1.8 Get Push Notification Config', 'The operation MUST fail if the configuration does not exist or the client lacks access.', 'MUST'),
        q(
          V10,
          '§3.1.9 List Push Notification Configs',
          'The operation MUST return all active push notification configurations for the specified task and MAY support pagination for tasks with many configurations.',
          'MUST',
        ),
        q(
          V10,
          '§3.1.10 Delete Push Notification Config',
          'This operation MUST be idempotent - multiple deletions of the same config have the same effect.',
          'MUST',
        ),
        q(V10, 'TaskPushNotificationConfig.url', 'string url = 4 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto'),
        q(V10, '§13.2 Push Notification Security', 'Agents SHOULD validate webhook URLs to prevent SSRF (Server-Side Request Forgery) attacks:', 'SHOULD'),
      ],
      note: 'Create/Get return TaskPushNotificationConfig (flat: id, taskId, url, token, authentication), as the proto says; §3.1.7 "Outputs: PushNotificationConfig" is a known text error. A refusal of our webhook URL (SSRF/allowlist validation, §13.2) is legal; after the task finished a missing config is legal ("until task completion").',
    },
  },

  /** New: a blocking send returns only once the task is terminal or interrupted. */
  'lifecycle.blocking': {
    'v0.2': {
      sentences: [
        q(
          V02,
          'MessageSendConfiguration.blocking',
          '"blocking": { "description": "If the server should treat the client as a blocking request.", "type": "boolean" },',
          'none',
          'a2a.json',
        ),
        q(V02, 'SendMessageConfiguration.blocking', 'If true, the message will be blocking until the task is completed.', 'none', 'a2a.proto'),
      ],
      note: 'blocking has no default and no requirement word: a task returned unfinished to blocking:true is an advisory.',
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          'MessageSendConfiguration.blocking',
          '"description": "If true, the client will wait for the task to complete. The server may reject this if the task is long-running.",',
          'none',
          'a2a.json',
        ),
        q(V03, 'SendMessageConfiguration.blocking', 'If true, the message will be blocking until the task is completed.', 'none', 'a2a.proto'),
      ],
      note: 'Descriptive only, and the server may refuse a blocking request: an unfinished task or an error answer to blocking:true is an advisory.',
    },
    'v1.0': {
      sentences: [
        q(
          V10,
          '§3.2.2 SendMessageConfiguration',
          'The operation MUST wait until the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) or an interrupted state (TASK_STATE_INPUT_REQUIRED, TASK_STATE_AUTH_REQUIRED) before returning.',
          'MUST',
        ),
        q(V10, '§3.2.2 SendMessageConfiguration', 'The response MUST include the latest task state with all artifacts and status information.', 'MUST'),
        q(V10, 'SendMessageConfiguration.return_immediately', 'If `false` (default), the operation MUST wait until the task reaches a', 'MUST', 'a2a.proto'),
        q(V10, '§3.1.1 Send Message', 'The operation MUST return immediately with either task information or response message.', 'MUST'),
        q(
          V10,
          '§3.3.3 Asynchronous Processing',
          'Operations return immediately with either Task objects or Message objects, and when a Task is returned, processing continues in the background.',
          'none',
        ),
      ],
      note: 'Blocking is the default (returnImmediately unset or false). On waiting the passages contradict each other: §3.2.2 and the proto say the operation MUST wait for a terminal or interrupted state, §3.1.1 ("MUST return immediately") and §3.3.3 say it returns at once. An unfinished task in the answer is therefore an advisory naming both. Not contradicted, and a MUST: a blocking answer that did wait carries the latest state with all artifacts (§3.2.2). A Message answer is outside the rule ("no effect" on Message responses).',
    },
  },
};
