import type { CheckSpec, Keyword, SpecDoc, SpecSentence } from '../types';

/**
 * What an A2A *client* must do, per generation, quoted from the specification (see ../types.ts): the rules the
 * conversation tap (src/engine/tap) judges a client's requests by, one entry per client judge id
 * (src/engine/judges/client.ts). Not conformance-run checks (a run plays the client itself): CHECK_SPECS holds
 * those. A generation without an entry is a generation the rule does not apply to.
 */

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

const RPC_VERSION = q('json-rpc-2.0', '§4 Request object (jsonrpc)', 'A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0".', 'MUST');
const RPC_METHOD = q('json-rpc-2.0', '§4 Request object (method)', 'A String containing the name of the method to be invoked.', 'none');
const RPC_NOT_FOUND = q('json-rpc-2.0', '§5.1 Error object', '-32601 Method not found The method does not exist / is not available.', 'none');
const JSONRPC_01 = q(V01, '§3.2 Data Format', 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.', 'MUST');
const JSONRPC_02 = q(V02, '§3.2 Data Format', 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.', 'MUST');
const POST_BODY = 'The body of the HTTP POST request MUST be a JSONRPCRequest object, and the Content-Type header MUST be application/json.';
const V0_REQUIRED_MESSAGE = '"required": [ "kind", "messageId", "parts", "role" ]';
const TERMINAL_V0 =
  "A task which has reached a terminal state (completed, canceled, rejected, or failed) can't be restarted. Sending a message to such a task will result in an error.";

const METHOD_NOTE =
  'The specification lists the methods (and HTTP+JSON routes) of each generation in its method table; one it does not define is no A2A operation of that generation, so the agent can only answer "method not found" and the request cannot do what the client meant. The level is MUST for that reason: the table itself is descriptive.';

export const CLIENT_SPECS: Readonly<Record<string, CheckSpec>> = {
  'client.envelope': {
    legacy: { sentences: [JSONRPC_01, RPC_VERSION] },
    'v0.2': { sentences: [JSONRPC_02, q(V02, '§7 Protocol RPC Methods', POST_BODY, 'MUST')] },
    'v0.3': {
      sentences: [
        q(V03, '§6.11.1 JSONRPCRequest Object', 'jsonrpc: A String specifying the version of the JSON-RPC protocol. MUST be exactly "2.0".', 'MUST'),
        q(V03, '§7 Protocol RPC Methods', POST_BODY, 'MUST'),
      ],
    },
    'v1.0': { sentences: [q(V10, '§9.3 Base Request Structure', 'All JSON-RPC requests MUST follow the standard JSON-RPC 2.0 format:', 'MUST'), RPC_VERSION] },
  },
  'client.method': {
    legacy: {
      sentences: [q(V01, '§7.1 tasks/send', 'Sends a message to an agent to initiate a new task or to continue an existing one.', 'none'), RPC_METHOD, RPC_NOT_FOUND],
      level: 'MUST',
      note: METHOD_NOTE,
    },
    'v0.2': {
      sentences: [
        q(V02, '§7.1 message/send', 'Sends a message to an agent to initiate a new interaction or to continue an existing one.', 'none'),
        RPC_METHOD,
        RPC_NOT_FOUND,
      ],
      level: 'MUST',
      note: METHOD_NOTE,
    },
    'v0.3': {
      sentences: [
        q(V03, '§3.5.6 Method Mapping Reference Table', '| `message/send` | `SendMessage` | `POST /v1/message:send` | Send message to agent |', 'none'),
        q(V03, '§3.5.1 JSON-RPC Method Naming', 'JSON-RPC methods MUST follow the pattern: {category}/{action} where:', 'MUST'),
        RPC_NOT_FOUND,
      ],
      level: 'MUST',
      note: METHOD_NOTE,
    },
    'v1.0': {
      sentences: [
        q(V10, '§5.3 Method Mapping Reference', '| Send message | `SendMessage` | `SendMessage` | `POST /message:send` |', 'none'),
        q(V10, '§9.1 Protocol Requirements', 'Method Naming: PascalCase method names matching gRPC conventions (e.g., SendMessage, GetTask)', 'none'),
        RPC_NOT_FOUND,
      ],
      level: 'MUST',
      note: METHOD_NOTE,
    },
  },
  'client.params': {
    legacy: { sentences: [q(V01, 'TaskSendParams (required)', '"required": [ "id", "message" ], "title": "TaskSendParams"', 'required-field', 'a2a.json')] },
    'v0.2': {
      sentences: [
        q(V02, 'MessageSendParams (required)', '"required": [ "message" ]', 'required-field', 'a2a.json'),
        q(V02, 'Message (required)', V0_REQUIRED_MESSAGE, 'required-field', 'a2a.json'),
      ],
    },
    'v0.3': {
      sentences: [
        q(V03, 'MessageSendParams (required)', '"required": [ "message" ]', 'required-field', 'a2a.json'),
        q(V03, 'Message (required)', V0_REQUIRED_MESSAGE, 'required-field', 'a2a.json'),
      ],
    },
    'v1.0': {
      sentences: [
        q(V10, 'message SendMessageRequest', 'Message message = 2 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto'),
        q(V10, 'message Message', 'Role role = 4 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto'),
        q(V10, 'message Message', 'repeated Part parts = 5 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto'),
      ],
    },
  },
  'client.message-id': {
    'v0.2': { sentences: [q(V02, 'Message (required)', V0_REQUIRED_MESSAGE, 'required-field', 'a2a.json')] },
    'v0.3': { sentences: [q(V03, 'Message (required)', V0_REQUIRED_MESSAGE, 'required-field', 'a2a.json')] },
    'v1.0': { sentences: [q(V10, 'message Message', 'string message_id = 1 [(google.api.field_behavior) = REQUIRED];', 'required-field', 'a2a.proto')] },
  },
  'client.message-id-unique': {
    'v0.2': { sentences: [q(V02, 'Message.messageId', '"description": "Identifier created by the message creator"', 'none', 'a2a.json')] },
    'v0.3': { sentences: [q(V03, 'Message.messageId', '"description": "A unique identifier for the message, typically a UUID, generated by the sender."', 'none', 'a2a.json')] },
    'v1.0': {
      sentences: [
        q(V10, 'message Message', '// The unique identifier (e.g. UUID) of the message. This is created by the message creator.', 'none', 'a2a.proto'),
        q(V10, '§3.3.1 Idempotency', 'Send Message operations MAY be idempotent. Agents may utilize the messageId to detect duplicate messages.', 'MAY'),
      ],
    },
  },
  'client.version-header': {
    'v1.0': {
      sentences: [
        q(
          V10,
          '§3.6.1 Client Responsibilities',
          'Clients MUST send the A2A-Version header with each request to maintain compatibility after an agent upgrades to a new version of the protocol (except for 0.3 Clients - 0.3 will be assumed for empty header).',
          'MUST',
        ),
        q(V10, '§3.6.1 Client Responsibilities', 'Clients MAY provide the A2A-Version as a request parameter instead of a header.', 'MAY'),
      ],
    },
  },
  'client.extensions': {
    'v0.2': { sentences: [q(V02, 'AgentExtension.required', '"description": "Whether the client must follow specific requirements of the extension."', 'none', 'a2a.json')] },
    'v0.3': {
      sentences: [
        q(V03, 'AgentExtension.required', "If true, the client must understand and comply with the extension's requirements", 'none', 'a2a.json'),
      ],
    },
    'v1.0': {
      sentences: [
        q(
          V10,
          '§3.3.4 Capability Validation',
          'Extensions: When a server requests use of an extension marked as required: true in the Agent Card but the client does not declare support for it, the agent MUST return ExtensionSupportRequiredError.',
          'MUST',
        ),
        q(
          V10,
          '§14.2.2 A2A-Extensions Header',
          'The A2A-Extensions header field contains a comma-separated list of extension URIs that the client wants to use for the request.',
          'none',
        ),
      ],
    },
  },
  'client.accept-stream': {
    'v0.2': { sentences: [q(V02, '§3.3 Streaming Transport (Server-Sent Events)', 'The server responds with an HTTP 200 OK status and a Content-Type header of text/event-stream.', 'none')] },
    'v0.3': { sentences: [q(V03, '§3.3.1 JSON-RPC 2.0 Streaming', 'The server responds with an HTTP 200 OK status and a Content-Type header of text/event-stream.', 'none')] },
    'v1.0': { sentences: [q(V10, '§9.4.2 SendStreamingMessage', 'Response: HTTP 200 with Content-Type: text/event-stream', 'none')] },
  },
  'client.task-terminal': {
    'v0.2': { sentences: [q(V02, '§7.1 message/send', TERMINAL_V0, 'none')] },
    'v0.3': { sentences: [q(V03, '§7.1 message/send', TERMINAL_V0, 'none')] },
    'v1.0': {
      sentences: [
        q(
          V10,
          '§3.1.1 Send Message',
          'UnsupportedOperationError: Messages sent to Tasks that are in a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED) cannot accept further messages.',
          'none',
        ),
      ],
    },
  },
  'client.task-reference': {
    'v0.3': {
      sentences: [
        q(V03, 'Message.taskId', '"description": "The identifier of the task this message is part of. Can be omitted for the first message of a new task."', 'none', 'a2a.json'),
      ],
    },
    'v1.0': {
      sentences: [q(V10, '§3.4.2 Task Identifier Semantics', 'When a client includes a taskId in a Message, it MUST reference an existing task', 'MUST')],
    },
  },
  'client.input-required': {
    'v0.3': {
      sentences: [
        q(V03, 'Message.taskId', '"description": "The identifier of the task this message is part of. Can be omitted for the first message of a new task."', 'none', 'a2a.json'),
      ],
    },
    'v1.0': {
      sentences: [q(V10, '§3.4.3 Multi-Turn Conversation Patterns', 'The client continues the interaction by sending a new message with the same taskId and contextId', 'none')],
    },
  },
  'client.resubscribe': {
    'v0.2': {
      sentences: [
        q(
          V02,
          '§7.9 tasks/resubscribe',
          'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          'none',
        ),
      ],
    },
    'v0.3': {
      sentences: [
        q(
          V03,
          '§7.9 tasks/resubscribe',
          'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          'none',
        ),
      ],
    },
    'v1.0': {
      sentences: [q(V10, '§3.5.2 Streaming Event Delivery', 'A client reconnecting to a task after a network interruption by opening a new stream', 'none')],
    },
  },
};
