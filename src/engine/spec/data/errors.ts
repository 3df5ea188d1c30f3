import type { CheckSpec, SpecSentence } from '../types';

/**
 * What each errors and auth check enforces, per generation, quoted from the specification (see ../types.ts).
 * This file is a list of independent entries, one per check id (long by nature: each entry quotes its sentences
 * per generation); it holds no judging logic (the shared sentences below are quotes too). Entries are looked up by id (the run
 * order is src/engine/checks/index.ts).
 */

// ---------------------------------------------------------------- shared sentences

/** Pre-1.0 releases bind JSON-RPC answers to JSON-RPC 2.0, whose §5.1 table reserves the standard codes. */
const ADHERE = {
  legacy: {
    doc: 'a2a-v0.1.0',
    section: '§3.2 Data Format',
    quote: 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.',
    keyword: 'MUST',
  },
  'v0.2': {
    doc: 'a2a-v0.2.6',
    section: '§3.2 Data Format',
    quote: 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.',
    keyword: 'MUST',
  },
  'v0.3': {
    doc: 'a2a-v0.3.0',
    section: '§3.2.1 JSON-RPC 2.0 Transport',
    quote: 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.',
    keyword: 'MUST',
  },
} as const satisfies Record<string, SpecSentence>;

/** v1.0: the generic rule that makes each operation's error list (and the mapping tables) binding. */
const V1_APPROPRIATE: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§3.3.2 Error Handling',
  quote: 'Servers MUST return appropriate errors and SHOULD provide actionable information to help clients resolve issues.',
  keyword: 'MUST',
};
const V1_MAPPED: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§5.4 Error Code Mappings',
  quote: 'All A2A-specific errors defined in Section 3.3.2 MUST be mapped to binding-specific error representations.',
  keyword: 'MUST',
};
const v1Row = (row: string): SpecSentence => ({ doc: 'a2a-v1.0.1', section: '§5.4 Error Code Mappings (table)', quote: row, keyword: 'none' });

/** Pre-1.0 §8.2: the A2A-specific codes are a SHOULD. */
const A2A_CODES = {
  legacy: { doc: 'a2a-v0.1.0', section: '§8.2 A2A-Specific Errors', quote: 'Servers SHOULD use these codes where applicable.', keyword: 'SHOULD' },
  'v0.2': { doc: 'a2a-v0.2.6', section: '§8.2 A2A-Specific Errors', quote: 'Servers SHOULD use these codes where applicable.', keyword: 'SHOULD' },
  'v0.3': { doc: 'a2a-v0.3.0', section: '§8.2 A2A-Specific Errors', quote: 'Servers SHOULD use these codes where applicable.', keyword: 'SHOULD' },
} as const satisfies Record<string, SpecSentence>;

const V03_ANY_SECTION8_CODE =
  'v0.3.0 §11.1.5 ("Error handling: MUST use the error codes defined in Section 8") is met by any §8 code, -32602 included; which code fits which condition is only the §8.2 SHOULD.';

/** §8.1 rows (identical in v0.1.0, v0.2.6, v0.3.0). */
const ROW_8_1 = {
  parse: '| -32700 | Parse error | Invalid JSON payload | Server received JSON that was not well-formed. |',
  request: '| -32600 | Invalid Request | Invalid JSON-RPC Request | The JSON payload was valid JSON, but not a valid JSON-RPC Request object. |',
  method: '| -32601 | Method not found | Method not found | The requested A2A RPC method (e.g., "tasks/foo") does not exist or is not supported. |',
  params:
    '| -32602 | Invalid params | Invalid method parameters | The params provided for the method are invalid (e.g., wrong type, missing required field). |',
};
/** §8.2 rows as the pre-1.0 releases word them. */
const ROW_8_2 = {
  notFound:
    '| -32001 | TaskNotFoundError | Task not found | The specified task id does not correspond to an existing or active task. It might be invalid, expired, or already completed and purged. |',
  notCancelable:
    '| -32002 | TaskNotCancelableError | Task cannot be canceled | An attempt was made to cancel a task that is not in a cancelable state (e.g., it has already reached a terminal state like completed, failed, or canceled). |',
  unsupported:
    '| -32004 | UnsupportedOperationError | This operation is not supported | The requested operation or a specific aspect of it (perhaps implied by parameters) is not supported by this server agent implementation. Broader than just method not found. |',
};
const PRE_DOC = { legacy: 'a2a-v0.1.0', 'v0.2': 'a2a-v0.2.6', 'v0.3': 'a2a-v0.3.0' } as const;
const pre = (g: keyof typeof PRE_DOC) => PRE_DOC[g];
const row81 = (g: 'legacy' | 'v0.2' | 'v0.3', row: string): SpecSentence => ({
  doc: pre(g),
  section: '§8.1 Standard JSON-RPC Errors (table)',
  quote: row,
  keyword: 'none',
});
const row82 = (g: 'legacy' | 'v0.2' | 'v0.3', row: string): SpecSentence => ({
  doc: pre(g),
  section: '§8.2 A2A-Specific Errors (table)',
  quote: row,
  keyword: 'none',
});
const v1Rpc = (row: string): SpecSentence => ({
  doc: 'a2a-v1.0.1',
  section: '§9.5 Error Handling (Standard JSON-RPC Error Codes)',
  quote: row,
  keyword: 'none',
});
const jsonRpc = (section: string, quote: string, keyword: SpecSentence['keyword'] = 'none'): SpecSentence => ({ doc: 'json-rpc-2.0', section, quote, keyword });

const JSONRPC_CODES_NOTE =
  'The JSON-RPC 2.0 code table carries no keyword of its own; the level comes from the A2A sentence binding responses to JSON-RPC 2.0 (or, in v1.0, to appropriate errors), whose §5.1 reserves these codes for these errors. The HTTP status carrying a JSON-RPC error is unspecified in every release: any status with a well-formed JSON-RPC error body is permitted.';

// v1.0 operation error-list rows (§3.1.x), markdown links dropped.
const V1_TASK_NOT_FOUND_ROW = 'TaskNotFoundError: The task ID does not exist or is not accessible.';
const V1_UNSUPPORTED_ROW = v1Row('| UnsupportedOperationError | -32004 | FAILED_PRECONDITION | 400 Bad Request |');
const V1_NOT_FOUND_ROW = v1Row('| TaskNotFoundError | -32001 | NOT_FOUND | 404 Not Found |');
/** gRPC (v1.0.1 §10.6): the error is the status code of the §5.4 table (its ErrorInfo: errors.grpc-status). */
const V1_GRPC_CODE: SpecSentence = { doc: 'a2a-v1.0.1', section: '§10.6 Error Handling', quote: 'Error Code: Mapped to status.code (gRPC status code enum)', keyword: 'none' };
/** gRPC (v1.0.1 §10.2): A2A-Version and A2A-Extensions travel as metadata. */
const V1_GRPC_METADATA: SpecSentence = {
  doc: 'a2a-v1.0.1',
  section: '§10.2 Service Parameter Transmission',
  quote: 'Implementations MUST extract A2A service parameters from gRPC metadata for processing',
  keyword: 'MUST',
};

// ---------------------------------------------------------------- per check

export const SPEC: Record<string, CheckSpec> = {
  'errors.unknown-method': {
    legacy: {
      sentences: [
        ADHERE.legacy,
        row81('legacy', ROW_8_1.method),
        jsonRpc('§5.1 Error object (table)', '-32601 Method not found The method does not exist / is not available.'),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.2': {
      sentences: [
        ADHERE['v0.2'],
        row81('v0.2', ROW_8_1.method),
        jsonRpc('§5.1 Error object (table)', '-32601 Method not found The method does not exist / is not available.'),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.3': {
      sentences: [
        ADHERE['v0.3'],
        row81('v0.3', ROW_8_1.method),
        jsonRpc('§5.1 Error object (table)', '-32601 Method not found The method does not exist / is not available.'),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2.3 HTTP+JSON/REST Transport',
          quote: 'HTTP Status Codes: MUST use appropriate HTTP status codes (200, 400, 401, 403, 404, 500, etc.) that correspond to A2A error types.',
          keyword: 'MUST',
        },
      ],
      note: `${JSONRPC_CODES_NOTE} HTTP+JSON: v0.3 has no mapping table, so any 4xx (404, 405, 400) is an appropriate answer to an unknown route.`,
    },
    'v1.0': {
      sentences: [V1_APPROPRIATE, v1Rpc('| -32601 | MethodNotFoundError | "Method not found" | The requested method does not exist or is not available |')],
      note: `${JSONRPC_CODES_NOTE} HTTP+JSON: v1.0 maps no status to an unknown route; 404 or 405 (HTTP semantics) or another 4xx are all "appropriate errors".`,
    },
  },

  'errors.invalid-json': {
    legacy: {
      sentences: [
        ADHERE.legacy,
        row81('legacy', ROW_8_1.parse),
        jsonRpc(
          '§5.1 Error object (table)',
          '-32700 Parse error Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text.',
        ),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.2': {
      sentences: [
        ADHERE['v0.2'],
        row81('v0.2', ROW_8_1.parse),
        jsonRpc(
          '§5.1 Error object (table)',
          '-32700 Parse error Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text.',
        ),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.3': {
      sentences: [
        ADHERE['v0.3'],
        row81('v0.3', ROW_8_1.parse),
        jsonRpc(
          '§5.1 Error object (table)',
          '-32700 Parse error Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text.',
        ),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2.3 HTTP+JSON/REST Transport',
          quote: 'HTTP Status Codes: MUST use appropriate HTTP status codes (200, 400, 401, 403, 404, 500, etc.) that correspond to A2A error types.',
          keyword: 'MUST',
        },
      ],
      note: `${JSONRPC_CODES_NOTE} HTTP+JSON: no mapping table in v0.3; 400 or 422 (frameworks such as FastAPI answer 422) are both appropriate.`,
    },
    'v1.0': {
      sentences: [
        V1_APPROPRIATE,
        v1Rpc('| -32700 | JSONParseError | "Invalid JSON payload" | The server received invalid JSON |'),
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Validation Errors)',
          quote: 'Example error codes: HTTP 400 Bad Request, gRPC INVALID_ARGUMENT, JSON-RPC -32602 Invalid params',
          keyword: 'none',
        },
      ],
      note: `${JSONRPC_CODES_NOTE} HTTP+JSON: 400 is an example, not a mapping (another 4xx is an appropriate error).`,
    },
  },

  'errors.invalid-request': {
    legacy: {
      sentences: [
        ADHERE.legacy,
        row81('legacy', ROW_8_1.request),
        jsonRpc('§5.1 Error object (table)', '-32600 Invalid Request The JSON sent is not a valid Request object.'),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.2': {
      sentences: [
        ADHERE['v0.2'],
        row81('v0.2', ROW_8_1.request),
        jsonRpc('§5.1 Error object (table)', '-32600 Invalid Request The JSON sent is not a valid Request object.'),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v0.3': {
      sentences: [
        ADHERE['v0.3'],
        row81('v0.3', ROW_8_1.request),
        jsonRpc('§5.1 Error object (table)', '-32600 Invalid Request The JSON sent is not a valid Request object.'),
      ],
      note: JSONRPC_CODES_NOTE,
    },
    'v1.0': {
      sentences: [
        V1_APPROPRIATE,
        v1Rpc('| -32600 | InvalidRequestError | "Request payload validation error" | The JSON sent is not a valid Request object |'),
        jsonRpc('§5.1 Error object (table)', '-32600 Invalid Request The JSON sent is not a valid Request object.'),
      ],
      note: `${JSONRPC_CODES_NOTE} §3.3.2's validation category ("Invalid input parameters or message format", example -32602) concerns params and A2A Messages, not the JSON-RPC envelope: -32602 for a body that is not a Request object (what @a2a-js/sdk 1.x answers) deviates from the §9.5 table.`,
    },
  },

  'errors.invalid-params': {
    legacy: {
      sentences: [ADHERE.legacy, row81('legacy', ROW_8_1.params), jsonRpc('§5.1 Error object (table)', '-32602 Invalid params Invalid method parameter(s).')],
      note: `${JSONRPC_CODES_NOTE} The schema's InvalidRequestError message ("Request payload validation error") lets servers (the Google legacy samples) answer -32600 for schema-invalid params: accept -32600 as an advisory, not a failure.`,
    },
    'v0.2': {
      sentences: [ADHERE['v0.2'], row81('v0.2', ROW_8_1.params), jsonRpc('§5.1 Error object (table)', '-32602 Invalid params Invalid method parameter(s).')],
      note: `${JSONRPC_CODES_NOTE} -32600 ("Request payload validation error" in the schema) is an advisory, not a failure.`,
    },
    'v0.3': {
      sentences: [
        ADHERE['v0.3'],
        row81('v0.3', ROW_8_1.params),
        jsonRpc('§5.1 Error object (table)', '-32602 Invalid params Invalid method parameter(s).'),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2.3 HTTP+JSON/REST Transport',
          quote: 'HTTP Status Codes: MUST use appropriate HTTP status codes (200, 400, 401, 403, 404, 500, etc.) that correspond to A2A error types.',
          keyword: 'MUST',
        },
      ],
      note: `${JSONRPC_CODES_NOTE} -32600 is an advisory. HTTP+JSON: no mapping table in v0.3; 400 or 422 (a2a-python 0.3 answers 422) are both appropriate.`,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Validation Errors)',
          quote: 'Servers MUST validate all input parameters before processing',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Validation Errors)',
          quote: 'Example error codes: HTTP 400 Bad Request, gRPC INVALID_ARGUMENT, JSON-RPC -32602 Invalid params',
          keyword: 'none',
        },
        v1Rpc('| -32602 | InvalidParamsError | "Invalid parameters" | The method parameters are invalid |'),
      ],
      note: `${JSONRPC_CODES_NOTE} HTTP+JSON: 400 is an example; 422 is also an appropriate validation error.`,
    },
  },

  'errors.task-not-found': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82('legacy', ROW_8_2.notFound),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.3 tasks/get',
          quote: 'Response error type (on failure): JSONRPCError (e.g., if the task ID is not found, see TaskNotFoundError).',
          keyword: 'none',
        },
      ],
      note: 'The row says the id "might be invalid": an id of an unexpected format is TaskNotFound too, not InvalidParams.',
    },
    'v0.2': {
      sentences: [A2A_CODES['v0.2'], row82('v0.2', ROW_8_2.notFound)],
      note: 'The row says the id "might be invalid": an id of an unexpected format is TaskNotFound too.',
    },
    'v0.3': {
      sentences: [A2A_CODES['v0.3'], row82('v0.3', ROW_8_2.notFound)],
      note: `${V03_ANY_SECTION8_CODE} HTTP+JSON has no mapping table in v0.3: 404 is the appropriate status.`,
    },
    'v1.0': {
      sentences: [
        { doc: 'a2a-v1.0.1', section: '§3.1.3 Get Task (Errors)', quote: V1_TASK_NOT_FOUND_ROW, keyword: 'none' },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Resource Errors)',
          quote: 'Servers MUST return a not found error when a requested resource does not exist or is not accessible to the authenticated client',
          keyword: 'MUST',
        },
        V1_MAPPED,
        V1_NOT_FOUND_ROW,
        V1_GRPC_CODE,
      ],
      note: 'For a malformed id the release contradicts itself: §3.3.2 lists "Invalid task ID format" as a validation error (-32602 / 400) while the TaskNotFoundError row says the id "might be invalid". Only an id shaped like the agent\'s own task ids must get TaskNotFound.',
    },
  },

  'errors.cancel-terminal': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82('legacy', ROW_8_2.notCancelable),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.4 tasks/cancel',
          quote: 'Response error type (on failure): JSONRPCError (e.g., TaskNotFoundError, TaskNotCancelableError).',
          keyword: 'none',
        },
      ],
    },
    'v0.2': { sentences: [A2A_CODES['v0.2'], row82('v0.2', ROW_8_2.notCancelable)] },
    'v0.3': {
      sentences: [A2A_CODES['v0.3'], row82('v0.3', ROW_8_2.notCancelable)],
      note: `${V03_ANY_SECTION8_CODE} HTTP+JSON: no mapping table; 400 or 409 are appropriate.`,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.5 Cancel Task (Errors)',
          quote: 'TaskNotCancelableError: The task is not in a cancelable state (e.g., already completed, failed, or canceled).',
          keyword: 'none',
        },
        V1_APPROPRIATE,
        V1_MAPPED,
        v1Row('| TaskNotCancelableError | -32002 | FAILED_PRECONDITION | 400 Bad Request |'),
        {
          doc: 'a2a-v1.0.0',
          section: '§5.4 Error Code Mappings (table)',
          quote: '| TaskNotCancelableError | -32002 | FAILED_PRECONDITION | 409 Conflict |',
          keyword: 'none',
        },
        V1_GRPC_CODE,
      ],
      note: 'HTTP+JSON: v1.0.1 maps TaskNotCancelable to 400, v1.0.0 to 409; both are v1.0 (the ErrorInfo reason TASK_NOT_CANCELABLE tells them apart).',
    },
  },

  'errors.cancel-twice': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82('legacy', ROW_8_2.notCancelable),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.4 tasks/cancel',
          quote:
            'The server will attempt to cancel the task, but success is not guaranteed (e.g., the task might have already completed or failed, or cancellation might not be supported at its current stage).',
          keyword: 'none',
        },
      ],
      note: 'No idempotency rule before v1.0: the TaskNotCancelableError row names "canceled" among the non-cancelable states.',
    },
    'v0.2': {
      sentences: [A2A_CODES['v0.2'], row82('v0.2', ROW_8_2.notCancelable)],
      note: 'No idempotency rule before v1.0: the TaskNotCancelableError row names "canceled".',
    },
    'v0.3': {
      sentences: [A2A_CODES['v0.3'], row82('v0.3', ROW_8_2.notCancelable)],
      note: `No idempotency rule before v1.0: the TaskNotCancelableError row names "canceled". ${V03_ANY_SECTION8_CODE}`,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.1 Idempotency',
          quote: 'Cancel Task operations are idempotent - multiple cancellation requests have the same effect.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.1 Idempotency',
          quote: 'A duplicate cancellation request MAY return TaskNotFoundError if the task has already been canceled and purged.',
          keyword: 'MAY',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.5 Cancel Task (Errors)',
          quote: 'TaskNotCancelableError: The task is not in a cancelable state (e.g., already completed, failed, or canceled).',
          keyword: 'none',
        },
        V1_APPROPRIATE,
        V1_GRPC_CODE,
      ],
      level: 'MAY',
      note: 'Contradiction: §3.3.1 makes cancel idempotent (a second cancel may answer the canceled Task, or TaskNotFound once purged) while §3.1.5 lists TaskNotCancelable for an already canceled task. The canceled Task, TaskNotCancelable and TaskNotFound are all accepted; anything else is an advisory.',
    },
  },

  'errors.message-to-terminal': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82(
          'legacy',
          "| -32009 | InvalidTaskStateError | Invalid task state for operation | The operation is not valid for the task's current TaskState (e.g., trying to send a message to a task that is already completed). |",
        ),
        { doc: 'a2a-v0.1.0', section: '§7.1.1 TaskSendParams Object', quote: 'If existing, this message continues the task.', keyword: 'none' },
      ],
      level: 'MAY',
      note: 'Contradiction: the document lists -32009 InvalidTaskStateError for a message to a completed task, but the v0.1.0 schema has no such error (and -32009 was later reassigned), while tasks/send with an existing id "continues the task". Any refusal is accepted; accepting the message is an advisory.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7.1 message/send',
          quote: "A task which has reached a terminal state (completed, canceled, rejected, or failed) can't be restarted.",
          keyword: 'none',
        },
        { doc: 'a2a-v0.2.6', section: '§7.1 message/send', quote: 'Sending a message to such a task will result in an error.', keyword: 'none' },
      ],
      note: 'Descriptive only ("will result in an error"), no error code named: any error is accepted, an accepted message is an advisory.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7.1 message/send',
          quote: "A task which has reached a terminal state (completed, canceled, rejected, or failed) can't be restarted.",
          keyword: 'none',
        },
        { doc: 'a2a-v0.3.0', section: '§7.1 message/send', quote: 'Sending a message to such a task will result in an error.', keyword: 'none' },
      ],
      note: `Descriptive only, no error code named: any error is accepted, an accepted message is an advisory. ${V03_ANY_SECTION8_CODE}`,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.1 Send Message (Errors)',
          quote:
            'UnsupportedOperationError: Messages sent to Tasks that are in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) cannot accept further messages.',
          keyword: 'none',
        },
        V1_APPROPRIATE,
        V1_MAPPED,
        V1_UNSUPPORTED_ROW,
        V1_GRPC_CODE,
      ],
    },
  },

  'errors.push-not-supported': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82(
          'legacy',
          '| -32003 | PushNotificationNotSupportedError | Push Notification is not supported | Client attempted to use push notification features (e.g., tasks/pushNotification/set) but the server agent does not support them (i.e., AgentCard.capabilities.pushNotifications is false). |',
        ),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.5 tasks/pushNotification/set',
          quote: 'Requires the server to have AgentCard.capabilities.pushNotifications: true.',
          keyword: 'none',
        },
      ],
    },
    'v0.2': {
      sentences: [
        A2A_CODES['v0.2'],
        row82(
          'v0.2',
          '| -32003 | PushNotificationNotSupportedError | Push Notification is not supported | Client attempted to use push notification features (e.g., tasks/pushNotificationConfig/set) but the server agent does not support them (i.e., AgentCard.capabilities.pushNotifications is false). |',
        ),
      ],
    },
    'v0.3': {
      sentences: [
        A2A_CODES['v0.3'],
        row82(
          'v0.3',
          '| -32003 | PushNotificationNotSupportedError | Push Notification is not supported | Client attempted to use push notification features (e.g., tasks/pushNotificationConfig/set) but the server agent does not support them (i.e., AgentCard.capabilities.pushNotifications is false). |',
        ),
      ],
      note: `${V03_ANY_SECTION8_CODE} HTTP+JSON: no mapping table; 400 or 501 Not Implemented (a2a-python 0.3) are appropriate.`,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.4 Capability Validation',
          quote:
            'Push Notifications: If AgentCard.capabilities.pushNotifications is false or not present, operations related to push notification configuration (Create, Get, List, Delete) MUST return PushNotificationNotSupportedError.',
          keyword: 'MUST',
        },
        v1Row('| PushNotificationNotSupportedError | -32003 | FAILED_PRECONDITION | 400 Bad Request |'),
        V1_GRPC_CODE,
      ],
    },
  },

  'errors.version-unsupported': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.6.2 Server Responsibilities',
          quote: 'If the version is not supported by the interface, agents MUST return a VersionNotSupportedError.',
          keyword: 'MUST',
        },
        v1Row('| VersionNotSupportedError | -32009 | FAILED_PRECONDITION | 400 Bad Request |'),
        V1_GRPC_CODE,
        V1_GRPC_METADATA,
      ],
    },
  },

  'errors.version-missing': {
    'v1.0': {
      sentences: [
        { doc: 'a2a-v1.0.1', section: '§3.6.2 Server Responsibilities', quote: 'Agents MUST interpret empty value as 0.3 version.', keyword: 'MUST' },
        { doc: 'a2a-v1.0.1', section: '§3.6.1 Client Responsibilities', quote: '0.3 will be assumed for empty header', keyword: 'none' },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.6.2 Server Responsibilities',
          quote: 'If the version is not supported by the interface, agents MUST return a VersionNotSupportedError.',
          keyword: 'MUST',
        },
        V1_GRPC_METADATA,
      ],
      note: 'A missing header means 0.3: an interface that declares only 1.0 must answer VersionNotSupported; one that also declares 0.3 must apply 0.3 semantics.',
    },
  },

  'errors.shape': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'It MUST be the same as the value of the id member in the Request Object.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be null.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'The members result and error are mutually exclusive: one MUST be present, and the other MUST NOT.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.12 JSONRPCError Object',
          quote: '| code | integer | Yes | Integer error code. See Section 8 (Error Handling) for standard and A2A-specific codes. |',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.12 JSONRPCError Object',
          quote: '| message | string | Yes | Short, human-readable summary of the error. |',
          keyword: 'required-field',
        },
      ],
      note: 'The v0.1.0 schema types JSONRPCResponse.id as integer|string (no null), against §6.11.2 and JSON-RPC 2.0; null is right for -32700/-32600 answers.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'It MUST be the same as the value of the id member in the Request Object.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be null.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'The members result and error are mutually exclusive: one MUST be present, and the other MUST NOT.',
          keyword: 'MUST',
        },
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'JSONRPCError.required', quote: '"required": [ "code", "message" ]', keyword: 'required-field' },
      ],
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'It MUST be the same as the value of the id member in the Request Object.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be null.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§6.11.2 JSONRPCResponse Object',
          quote: 'The members result and error are mutually exclusive: one MUST be present, and the other MUST NOT.',
          keyword: 'MUST',
        },
        { doc: 'a2a-v0.3.0', file: 'a2a.json', section: 'JSONRPCError.required', quote: '"required": [ "code", "message" ]', keyword: 'required-field' },
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2.3 HTTP+JSON/REST Transport',
          quote: 'Error Format: MUST return error responses in a consistent JSON format that maps to A2A error types.',
          keyword: 'MUST',
        },
      ],
      note: 'HTTP+JSON: v0.3 fixes no error body shape (deployed servers answer {"message": …} or google.rpc.Status); only "JSON that maps to A2A error types" is required.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Error Payload Structure)',
          quote: 'All error responses in the A2A protocol, regardless of binding, MUST convey the following information:',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§9.5 Error Handling',
          quote:
            'JSON-RPC error responses use the standard JSON-RPC 2.0 error object structure, which maps to the generic A2A error model defined in Section 3.3.2 as follows:',
          keyword: 'none',
        },
        jsonRpc(
          '§5 Response object',
          'If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null.',
          'MUST',
        ),
        {
          doc: 'a2a-v1.0.1',
          section: '§9.5 Error Handling (Error Detail Objects)',
          quote: "Each object in the data array MUST include a @type key that identifies the object's type.",
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§11.6 Error Handling',
          quote:
            'HTTP error responses use the google.rpc.Status JSON representation, which maps to the generic A2A error model defined in Section 3.3.2 as follows:',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§11.6 Error Handling',
          quote: "Each object in the details array MUST include a @type key that identifies the object's type.",
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§11.6 Error Handling (A2A Error Representation)',
          quote: 'implementations MUST include a google.rpc.ErrorInfo object in the details array for A2A-specific errors with:',
          keyword: 'MUST',
        },
      ],
      note: 'google.rpc.Status has code, message and details; the string "status" field appears only in the §11.6 example (AIP-193, cited by v1.0.0): its absence is not a failure. The §6.4/§6.5 examples show application/problem+json bodies; §11.6 governs.',
    },
  },

  'errors.details': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§9.5 Error Handling (Error Detail Objects)',
          quote:
            'Implementations SHOULD use well-known types such as google.rpc.ErrorInfo to refine error reporting, or google.rpc.BadRequest to attach structured data to validation errors.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Error Payload Structure)',
          quote: 'Well-known types from the google.rpc error model (e.g., ErrorInfo, BadRequest) SHOULD be used where applicable.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.0',
          section: '§9.5 Error Handling (A2A Error Representation)',
          quote: 'For A2A-specific errors, implementations MUST include a google.rpc.ErrorInfo message in the data array with:',
          keyword: 'MUST',
        },
      ],
      level: 'SHOULD',
      note: 'v1.0.0 required ErrorInfo in JSON-RPC error.data (MUST); v1.0.1, the release judged, relaxed it to SHOULD.',
    },
  },

  'errors.unknown-task-message': {
    'v0.2': {
      sentences: [
        A2A_CODES['v0.2'],
        row82('v0.2', ROW_8_2.notFound),
        { doc: 'a2a-v0.2.6', file: 'a2a.json', section: 'Message.taskId', quote: 'Identifier of task the message is related to', keyword: 'none' },
      ],
    },
    'v0.3': {
      sentences: [
        A2A_CODES['v0.3'],
        row82('v0.3', ROW_8_2.notFound),
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'Message.taskId',
          quote: 'The identifier of the task this message is part of. Can be omitted for the first message of a new task.',
          keyword: 'none',
        },
      ],
      note: V03_ANY_SECTION8_CODE,
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.4.2 Task Identifier Semantics',
          quote: 'Agents MUST return a TaskNotFoundError if the provided taskId does not correspond to an existing task',
          keyword: 'MUST',
        },
        { doc: 'a2a-v1.0.1', section: '§3.1.1 Send Message (Errors)', quote: V1_TASK_NOT_FOUND_ROW, keyword: 'none' },
        V1_NOT_FOUND_ROW,
        V1_GRPC_CODE,
      ],
    },
  },

  'errors.context-mismatch': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.4.3 Multi-Turn Conversation Patterns',
          quote:
            'Agents MUST reject messages containing mismatching contextId and taskId (i.e., the provided contextId is different from that of the referenced Task).',
          keyword: 'MUST',
        },
      ],
      note: 'No error type is named: any error rejects the message.',
    },
  },

  'errors.streaming-unsupported': {
    legacy: {
      sentences: [
        A2A_CODES.legacy,
        row82(
          'legacy',
          '| -32006 | StreamingNotSupportedError | Streaming is not supported | Client attempted tasks/sendSubscribe or tasks/resubscribe but the server agent does not support streaming (i.e., AgentCard.capabilities.streaming is false). |',
        ),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2 tasks/sendSubscribe',
          quote: 'This method requires the server to have AgentCard.capabilities.streaming: true.',
          keyword: 'none',
        },
      ],
      level: 'MAY',
      note: 'Contradiction: the document lists -32006 StreamingNotSupportedError, the v0.1.0 schema has no such error (v0.2 reassigned -32006). Any JSON-RPC error or HTTP 4xx refuses the call; a stream is an advisory.',
    },
    'v0.2': {
      sentences: [
        A2A_CODES['v0.2'],
        row82('v0.2', ROW_8_2.unsupported),
        row81('v0.2', ROW_8_1.method),
        {
          doc: 'a2a-v0.2.6',
          section: '§7.2 message/stream',
          quote: 'This method requires the server to have AgentCard.capabilities.streaming: true.',
          keyword: 'none',
        },
      ],
      note: 'No dedicated code: -32004 and -32601 ("does not exist or is not supported") both fit. Serving a stream anyway breaks no keyworded sentence: advisory.',
    },
    'v0.3': {
      sentences: [
        A2A_CODES['v0.3'],
        row82('v0.3', ROW_8_2.unsupported),
        row81('v0.3', ROW_8_1.method),
        {
          doc: 'a2a-v0.3.0',
          section: '§7.2 message/stream',
          quote: 'This method requires the server to have AgentCard.capabilities.streaming: true.',
          keyword: 'none',
        },
      ],
      note: 'No dedicated code: -32004 and -32601 both fit (message/stream is an optional method, §11.1.3). Serving a stream anyway is an advisory.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.4 Capability Validation',
          quote:
            'Streaming: If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return UnsupportedOperationError.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.2 Send Streaming Message (Errors)',
          quote: 'UnsupportedOperationError: Streaming is not supported by the agent (see Capability Validation).',
          keyword: 'none',
        },
        V1_UNSUPPORTED_ROW,
        V1_GRPC_CODE,
      ],
    },
  },

  'errors.subscribe-terminal': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§7.7 tasks/resubscribe',
          quote:
            "The HTTP body MAY contain a standard JSONRPCResponse with an error object. Failures can occur if the task is no longer active, doesn't exist, or streaming is not supported/enabled for it.",
          keyword: 'MAY',
        },
      ],
      note: 'Descriptive: an error (any HTTP status) or a stream that delivers the final state and closes are both acceptable.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7.9 tasks/resubscribe',
          quote:
            'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          keyword: 'none',
        },
      ],
      note: 'Nothing says what a terminal task gets: any error or a stream that delivers the final state and closes.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7.9 tasks/resubscribe',
          quote:
            'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          keyword: 'none',
        },
      ],
      note: 'Nothing says what a terminal task gets: any error (a2a-python 0.3 answers -32602) or a stream that delivers the final state and closes.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.1.6 Subscribe to Task (Errors)',
          quote:
            'UnsupportedOperationError: The operation is attempted on a task that is in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED).',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§9.4.6 SubscribeToTask',
          quote:
            'Error: Returns UnsupportedOperationError if the task is in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, or TASK_STATE_REJECTED).',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          file: 'a2a.proto',
          section: 'A2AService.SubscribeToTask',
          quote: 'Returns UnsupportedOperationError if the task is already in a terminal state (completed, failed, canceled, rejected).',
          keyword: 'none',
        },
        V1_APPROPRIATE,
        V1_UNSUPPORTED_ROW,
      ],
    },
  },

  'errors.notification': {
    legacy: {
      sentences: [
        { doc: 'a2a-v0.1.0', section: '§6.11.1 JSONRPCRequest Object', quote: 'If it is not included it is assumed to be a notification.', keyword: 'none' },
        ADHERE.legacy,
        jsonRpc('§4.1 Notification', 'The Server MUST NOT reply to a Notification, including those that are within a batch request.', 'MUST NOT'),
        {
          doc: 'a2a-v0.1.0',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
      ],
      level: 'MAY',
      note: 'Contradiction: JSON-RPC 2.0 forbids a reply to a notification, §7 requires every HTTP response body to be a JSONRPCResponse. An empty 2xx body (200/202/204) and an error with id null are accepted; a result is an advisory.',
    },
    'v0.2': {
      sentences: [
        { doc: 'a2a-v0.2.6', section: '§6.11.1 JSONRPCRequest Object', quote: 'If it is not included it is assumed to be a notification.', keyword: 'none' },
        jsonRpc('§4.1 Notification', 'The Server MUST NOT reply to a Notification, including those that are within a batch request.', 'MUST NOT'),
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'GetTaskRequest.required',
          quote: '"required": [ "id", "jsonrpc", "method", "params" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
      ],
      level: 'MAY',
      note: 'Contradiction: §6.11.1 and JSON-RPC 2.0 allow notifications (no reply), the schema requires an id on every A2A method request (an id-less call is an invalid request: -32600 with id null) and §7 requires a JSONRPCResponse body. Empty 2xx or an error with id null are accepted.',
    },
    'v0.3': {
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§6.11.1 JSONRPCRequest Object', quote: 'If it is not included it is assumed to be a notification.', keyword: 'none' },
        jsonRpc('§4.1 Notification', 'The Server MUST NOT reply to a Notification, including those that are within a batch request.', 'MUST NOT'),
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'GetTaskRequest.required',
          quote: '"required": [ "id", "jsonrpc", "method", "params" ]',
          keyword: 'required-field',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§7 Protocol RPC Methods',
          quote:
            "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
          keyword: 'MUST',
        },
      ],
      level: 'MAY',
      note: 'Contradiction: §6.11.1 and JSON-RPC 2.0 allow notifications (no reply), the schema requires an id on every A2A method request and §7 requires a JSONRPCResponse body. Empty 2xx or an error with id null (-32600; a2a-python 0.3 answers -32602) are accepted.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§9.3 Base Request Structure',
          quote: 'All JSON-RPC requests MUST follow the standard JSON-RPC 2.0 format:',
          keyword: 'MUST',
        },
        jsonRpc('§4.1 Notification', 'The Server MUST NOT reply to a Notification, including those that are within a batch request.', 'MUST NOT'),
      ],
      level: 'MAY',
      note: 'v1.0 never mentions notifications: every operation is defined with an output (and the §9.3 example carries an id), while JSON-RPC 2.0 forbids a reply. Empty 2xx or an error with id null are accepted; @a2a-js/sdk 1.x processes the call and answers with id null (advisory).',
    },
  },

  'auth.required': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote: 'SHOULD use standard HTTP status codes like 401 Unauthorized or 403 Forbidden for authentication challenges or rejections.',
          keyword: 'SHOULD',
        },
      ],
      note: 'The v0.1.0 document also lists -32007 AuthenticationRequiredError (not in the schema): a JSON-RPC error refusing the call is a rejection too.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.2.6',
          section: '§4.4 Server Responsibilities for Authentication',
          quote: 'SHOULD use standard HTTP status codes like 401 Unauthorized or 403 Forbidden for authentication challenges or rejections.',
          keyword: 'SHOULD',
        },
      ],
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.3.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote: 'SHOULD use standard HTTP status codes like 401 Unauthorized or 403 Forbidden for authentication challenges or rejections.',
          keyword: 'SHOULD',
        },
      ],
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§7.4 Server Authentication Responsibilities',
          quote: 'MUST authenticate every incoming request based on the provided credentials and its declared authentication requirements.',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Authentication Errors)',
          quote: 'Servers MUST reject requests with invalid or missing authentication credentials',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Authentication Errors)',
          quote: 'Example error codes: HTTP 401 Unauthorized, gRPC UNAUTHENTICATED, JSON-RPC custom error',
          keyword: 'none',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§7.4 Server Authentication Responsibilities',
          quote: 'SHOULD use appropriate binding-specific error codes for authentication challenges or rejections.',
          keyword: 'SHOULD',
        },
      ],
      note: 'On JSON-RPC a refusal may be a "JSON-RPC custom error" (HTTP 200): that is a rejection, not acceptance.',
    },
  },

  'auth.challenge': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'SHOULD include relevant HTTP headers (e.g., WWW-Authenticate) with 401 Unauthorized responses to indicate the required authentication scheme(s), guiding the client.',
          keyword: 'SHOULD',
        },
        { doc: 'a2a-v0.1.0', section: '§3.1 Transport Protocol', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'rfc9110',
          section: '§11.6.1 WWW-Authenticate',
          quote: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.',
          keyword: 'MUST',
        },
      ],
      note: 'Not a contradiction: the A2A SHOULD covers challenge headers in general; HTTP itself requires WWW-Authenticate on every 401. A 403, or a JSON-RPC error with HTTP 200, needs none.',
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'SHOULD include relevant HTTP headers (e.g., WWW-Authenticate) with 401 Unauthorized responses to indicate the required authentication scheme(s), guiding the client.',
          keyword: 'SHOULD',
        },
        { doc: 'a2a-v0.2.6', section: '§3.1 Transport Protocol', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'rfc9110',
          section: '§11.6.1 WWW-Authenticate',
          quote: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.',
          keyword: 'MUST',
        },
      ],
      note: 'The A2A SHOULD covers challenge headers in general; HTTP requires WWW-Authenticate on every 401.',
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'SHOULD include relevant HTTP headers (e.g., WWW-Authenticate) with 401 Unauthorized responses to indicate the required authentication scheme(s), guiding the client.',
          keyword: 'SHOULD',
        },
        { doc: 'a2a-v0.3.0', section: '§3.1 Transport Layer Requirements', quote: 'A2A communication MUST occur over HTTP(S).', keyword: 'MUST' },
        {
          doc: 'rfc9110',
          section: '§11.6.1 WWW-Authenticate',
          quote: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.',
          keyword: 'MUST',
        },
      ],
      note: 'The A2A SHOULD covers challenge headers in general; HTTP requires WWW-Authenticate on every 401.',
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§7.4 Server Authentication Responsibilities',
          quote: 'SHOULD provide relevant authentication challenge information with error responses.',
          keyword: 'SHOULD',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.2 Error Handling (Authentication Errors)',
          quote: 'Servers SHOULD include authentication challenge information in the error response',
          keyword: 'SHOULD',
        },
        { doc: 'a2a-v1.0.1', section: '§9.1 Protocol Requirements', quote: 'Protocol: JSON-RPC 2.0 over HTTP(S)', keyword: 'none' },
        { doc: 'a2a-v1.0.1', section: '§11.1 Protocol Requirements', quote: 'Protocol: HTTP(S) with JSON payloads', keyword: 'none' },
        {
          doc: 'rfc9110',
          section: '§11.6.1 WWW-Authenticate',
          quote: 'A server generating a 401 (Unauthorized) response MUST send a WWW-Authenticate header field containing at least one challenge.',
          keyword: 'MUST',
        },
      ],
      note: 'The A2A SHOULD covers challenge information in general; HTTP requires WWW-Authenticate on every 401.',
    },
  },

  'auth.accepted': {
    legacy: {
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
      ],
    },
    'v0.2': {
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
      ],
    },
    'v0.3': {
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§4.4 Server Responsibilities for Authentication',
          quote:
            'MUST authenticate every incoming request based on the provided HTTP credentials and its declared authentication requirements from its Agent Card.',
          keyword: 'MUST',
        },
      ],
    },
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§7.4 Server Authentication Responsibilities',
          quote: 'MUST authenticate every incoming request based on the provided credentials and its declared authentication requirements.',
          keyword: 'MUST',
        },
      ],
      note: "A refusal of the credentials the user gave may be the credentials' fault (expired, missing scope); fail only when the same credentials were accepted elsewhere in the run.",
    },
  },

  'errors.extension-required': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§3.3.4 Capability Validation',
          quote:
            'Extensions: When a server requests use of an extension marked as required: true in the Agent Card but the client does not declare support for it, the agent MUST return ExtensionSupportRequiredError.',
          keyword: 'MUST',
        },
        v1Row('| ExtensionSupportRequiredError | -32008 | FAILED_PRECONDITION | 400 Bad Request |'),
        V1_GRPC_CODE,
        V1_GRPC_METADATA,
      ],
      note: 'Judged with one message that does not name the required extension in A2A-Extensions (gRPC: a2a-extensions metadata); every other request of the suite activates the required extensions, so the agent serves them.',
    },
  },

  'errors.grpc-status': {
    'v1.0': {
      sentences: [
        {
          doc: 'a2a-v1.0.1',
          section: '§10.6 Error Handling',
          quote: 'For A2A-specific errors, implementations MUST include a google.rpc.ErrorInfo message in the status.details array with:',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v1.0.1',
          section: '§10.6 Error Handling',
          quote: 'reason: The A2A error type in UPPER_SNAKE_CASE without the "Error" suffix (e.g., TASK_NOT_FOUND)',
          keyword: 'none',
        },
        { doc: 'a2a-v1.0.1', section: '§10.6 Error Handling', quote: 'domain: Set to "a2a-protocol.org"', keyword: 'none' },
        {
          doc: 'a2a-v1.0.1',
          section: '§5.4 Error Code Mappings',
          quote: 'All A2A-specific errors defined in Section 3.3.2 MUST be mapped to binding-specific error representations.',
          keyword: 'MUST',
        },
        v1Row('| TaskNotFoundError | -32001 | NOT_FOUND | 404 Not Found |'),
        v1Row('| TaskNotCancelableError | -32002 | FAILED_PRECONDITION | 400 Bad Request |'),
      ],
      note: 'gRPC interfaces only: GetTask of an unknown task, and CancelTask of a task the suite saw finish, judged for the ErrorInfo and its domain; the error checks (errors.task-not-found, errors.cancel-terminal, ...) judge each error\'s status and reason over gRPC too.',
    },
  },
};
