import type { CheckSpec, GenerationSpec, SpecSentence } from '../types';
import { PROCEDURE } from './procedure';

/**
 * What each streaming check enforces, per generation, quoted from the specification (see ../types.ts).
 * This file is a list of independent entries, one per check id (long by nature: each entry quotes its sentences
 * per generation); it holds no judging logic. Entries are looked up by id (the run order is src/engine/checks/index.ts).
 */

// ---------------------------------------------------------------------------------------------- shared sentences

/** The A2A sentence that names SSE (the WHATWG format) as the stream format; same words in v0.1.0-v0.3.0. */
const usesSse = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'The body of this HTTP response contains a stream of Server-Sent Events (SSE) as defined by the W3C.',
  keyword: 'none',
});

/** §7 of v0.1.0-v0.3.0: a streaming method answers an SSE stream whose every event's data is a JSON-RPC response. */
const rpcStreamBody = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§7 Protocol RPC Methods',
  quote:
    "The A2A Server's HTTP response body MUST be a JSONRPCResponse object (or, for streaming methods, an SSE stream where each event's data is a JSONRPCResponse).",
  keyword: 'MUST',
});

const status200 = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'The server responds with an HTTP 200 OK status and a Content-Type header of text/event-stream.',
  keyword: 'none',
});

const sseMime: SpecSentence = {
  doc: 'whatwg-sse',
  section: '§9.2.5 Parsing an event stream',
  quote: "This event stream format's MIME type is text/event-stream.",
  keyword: 'none',
};

const sseEventSourceStatus: SpecSentence = {
  doc: 'whatwg-sse',
  section: '§9.2.2 The EventSource interface (processing the response)',
  quote: "Otherwise, if res's status is not 200, or if res's `Content-Type` is not `text/event-stream`, then fail the connection.",
  keyword: 'none',
};

/** The SSE freedoms a parser must accept (WHATWG wording; lowercase "must" in the source, so recorded as 'none'). */
const sseFreedoms: SpecSentence[] = [
  {
    doc: 'whatwg-sse',
    section: '§9.2.5 Parsing an event stream',
    quote:
      'Lines must be separated by either a U+000D CARRIAGE RETURN U+000A LINE FEED (CRLF) character pair, a single U+000A LINE FEED (LF) character, or a single U+000D CARRIAGE RETURN (CR) character.',
    keyword: 'none',
  },
  {
    doc: 'whatwg-sse',
    section: '§9.2.5 Parsing an event stream',
    quote: 'The UTF-8 decode algorithm strips one leading UTF-8 Byte Order Mark (BOM), if any.',
    keyword: 'none',
  },
  {
    doc: 'whatwg-sse',
    section: '§9.2.6 Interpreting an event stream (field "data")',
    quote: 'Append the field value to the data buffer, then append a single U+000A LINE FEED (LF) character to the data buffer.',
    keyword: 'none',
  },
  {
    doc: 'whatwg-sse',
    section: '§9.2.6 Interpreting an event stream (a line that starts with a colon)',
    quote: 'If the line starts with a U+003A COLON character (:) Ignore the line.',
    keyword: 'none',
  },
  {
    doc: 'whatwg-sse',
    section: '§9.2.6 Interpreting an event stream (any other field name)',
    quote: 'Otherwise The field is ignored.',
    keyword: 'none',
  },
  {
    doc: 'whatwg-sse',
    section: '§9.2.5 Parsing an event stream',
    quote: 'Event streams in this format must always be encoded as UTF-8.',
    keyword: 'none',
  },
];

const jsonRpcSameId: SpecSentence = {
  doc: 'json-rpc-2.0',
  section: '§5 Response object (id)',
  quote: 'It MUST be the same as the value of the id member in the Request Object.',
  keyword: 'MUST',
};

const jsonRpcOneOf: SpecSentence = {
  doc: 'json-rpc-2.0',
  section: '§5 Response object',
  quote: 'Either the result member or error member MUST be included, but both members MUST NOT be included.',
  keyword: 'MUST',
};

const rpcAdhere = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.',
  keyword: 'MUST',
});

const rpcIdEcho = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§6.11.2 JSONRPCResponse Object',
  quote: 'id: This member is REQUIRED. It MUST be the same as the value of the id member in the Request Object.',
  keyword: 'MUST',
});

const v1 = 'a2a-v1.0.1' as const;

const v1Establish: SpecSentence = {
  doc: v1,
  section: '§3.1.2 Send Streaming Message',
  quote: 'The operation MUST establish a streaming connection for real-time updates.',
  keyword: 'MUST',
};
const v1RpcResponse: SpecSentence = {
  doc: v1,
  section: '§9.4.2 SendStreamingMessage',
  quote: 'Response: HTTP 200 with Content-Type: text/event-stream',
  keyword: 'none',
};
const v1RpcUsesSse: SpecSentence = {
  doc: v1,
  section: '§9 JSON-RPC Protocol Binding',
  quote: 'The JSON-RPC protocol binding provides a simple, HTTP-based interface using JSON-RPC 2.0 for method calls and Server-Sent Events for streaming.',
  keyword: 'none',
};
const v1RestSse: SpecSentence = {
  doc: v1,
  section: '§11.7 Streaming',
  quote: 'REST streaming uses Server-Sent Events with the data field containing JSON serializations of the protocol data objects:',
  keyword: 'none',
};
const v1MessageOnly: SpecSentence = {
  doc: v1,
  section: '§3.1.2 Send Streaming Message',
  quote: 'Message-only stream: If the agent returns a Message, the stream MUST contain exactly one Message object and then close immediately.',
  keyword: 'MUST',
};
const v1TaskFirst: SpecSentence = {
  doc: v1,
  section: '§3.1.2 Send Streaming Message',
  quote:
    'Task lifecycle stream: If the agent returns a Task, the stream MUST begin with the Task object, followed by zero or more TaskStatusUpdateEvent or TaskArtifactUpdateEvent objects.',
  keyword: 'MUST',
};
const v1CloseAtTerminal: SpecSentence = {
  doc: v1,
  section: '§3.1.2 Send Streaming Message',
  quote: 'The stream MUST close when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED).',
  keyword: 'MUST',
};
const v1RestSequence: SpecSentence = {
  doc: v1,
  section: '§11.7 Streaming',
  quote:
    'Streaming responses are simple, linearly ordered sequences: first a Task (or single Message), then zero or more status or artifact update events until the task reaches a terminal or interrupted state, at which point the stream closes.',
  keyword: 'none',
};
const v1Snapshot: SpecSentence = {
  doc: v1,
  section: '§11.7 Streaming',
  quote: 'Implementations SHOULD avoid re-ordering events and MAY optionally resend a final Task snapshot before closing.',
  keyword: 'MAY',
};
const v1KeepOpenAuth: SpecSentence = {
  doc: v1,
  section: '§7.6.1 In-Task Authorization Agent Responsibilities',
  quote:
    'If the credential is received out-of-band, the agent SHOULD maintain any active response streams with the client after setting the TaskState to TASK_STATE_AUTH_REQUIRED.',
  keyword: 'SHOULD',
};

/** v0.2.6 / v0.3.0 schema: `final` is a required field of every status update; its meaning is the end of the stream. */
const finalRequired = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  file: 'a2a.json',
  section: 'TaskStatusUpdateEvent.required',
  quote: '"required": [ "contextId", "final", "kind", "status", "taskId" ]',
  keyword: 'required-field',
});
const finalMeaning: Record<'a2a-v0.2.6' | 'a2a-v0.3.0', SpecSentence> = {
  'a2a-v0.2.6': {
    doc: 'a2a-v0.2.6',
    file: 'a2a.json',
    section: 'TaskStatusUpdateEvent.final',
    quote: '"final": { "description": "Indicates the end of the event stream", "type": "boolean" }',
    keyword: 'none',
  },
  'a2a-v0.3.0': {
    doc: 'a2a-v0.3.0',
    file: 'a2a.json',
    section: 'TaskStatusUpdateEvent.final',
    quote: '"final": { "description": "If true, this is the final event in the stream for this interaction.", "type": "boolean" }',
    keyword: 'none',
  },
};
const FINAL_NOTE =
  'The schema makes "final" a required field of every status-update and defines it as the end-of-stream signal; no sentence uses a requirement word for sending final:true, so the MUST rests on the required field carrying its defined meaning (a status update that ends the stream with final:false, or an event after final:true, makes that required value false).';

const legacyFinal: SpecSentence = {
  doc: 'a2a-v0.1.0',
  section: '§7.2.2 TaskStatusUpdateEvent Object (final)',
  quote: 'If true, indicates this is the terminal status update for the current stream cycle. The server typically closes the SSE connection after this.',
  keyword: 'none',
};
const legacyExampleClose: SpecSentence = {
  doc: 'a2a-v0.1.0',
  section: '§9.2 Streaming Task Execution (SSE)',
  quote: 'Server closes the SSE connection after the final:true event',
  keyword: 'none',
};
const exampleClose = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  section: '§9.3 Streaming Task Execution (SSE)',
  quote: 'Server closes the SSE connection after the final:true event',
  keyword: 'none',
});

/** v0.2.6 / v0.3.0 schema: a stream event's result may be any of Task, Message, status update, artifact update. */
const anyResult = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  file: 'a2a.json',
  section: 'SendStreamingMessageSuccessResponse.result',
  quote:
    '"anyOf": [ { "$ref": "#/definitions/Task" }, { "$ref": "#/definitions/Message" }, { "$ref": "#/definitions/TaskStatusUpdateEvent" }, { "$ref": "#/definitions/TaskArtifactUpdateEvent" } ]',
  keyword: 'none',
});
/** v0.2.6 / v0.3.0 schema: an event may also be a JSON-RPC error response. */
const errorInStream = (doc: 'a2a-v0.2.6' | 'a2a-v0.3.0'): SpecSentence => ({
  doc,
  file: 'a2a.json',
  section: 'SendStreamingMessageResponse',
  quote:
    '"SendStreamingMessageResponse": { "anyOf": [ { "$ref": "#/definitions/JSONRPCErrorResponse" }, { "$ref": "#/definitions/SendStreamingMessageSuccessResponse" } ]',
  keyword: 'none',
});
const legacyFatalError: SpecSentence = {
  doc: 'a2a-v0.1.0',
  section: '§7.2.1 SendTaskStreamingResponse Object (error)',
  quote: 'Typically null or absent for stream events. If a fatal stream error occurs, this MAY be populated in the final SSE message before the stream closes.',
  keyword: 'MAY',
};

const resubscribePurpose = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote: 'The purpose is to resume receiving _subsequent_ updates.',
  keyword: 'none',
});
const resubscribeBackfill = (doc: 'a2a-v0.1.0' | 'a2a-v0.2.6' | 'a2a-v0.3.0', section: string): SpecSentence => ({
  doc,
  section,
  quote:
    "The server's behavior regarding events missed during the disconnection period (e.g., whether it attempts to backfill some missed events or only sends new ones from the point of resubscription) is implementation-dependent and not strictly defined by this specification.",
  keyword: 'none',
});

const gen = (g: GenerationSpec) => g;

const PROCEDURE_END_NOTE =
  'The conformance procedure asks that the last event carry final: true and a terminal state, with nothing after it (Streaming S2, SHOULD).';

/**
 * The rule "the stream ends at its final event" (src/engine/judges/rules.ts): one strength per generation, for every
 * check that observes it (streaming.terminal, streaming.closes). Before v1.0 the spec describes final:true and the
 * close without a requirement word (the schema's required `final` only says every status update carries the flag),
 * so the strength is the procedure's SHOULD; v1.0.1 §3.1.2 requires closing at a terminal state (MUST).
 */
export const STREAM_ENDS: CheckSpec = {
  legacy: gen({
    sentences: [legacyFinal, legacyExampleClose, legacyFatalError, PROCEDURE.streamEnd],
    note: `A2A v0.1.0 describes final:true and the close without a requirement word. ${PROCEDURE_END_NOTE}`,
  }),
  'v0.2': gen({
    sentences: [finalMeaning['a2a-v0.2.6'], exampleClose('a2a-v0.2.6'), PROCEDURE.streamEnd],
    note: `A2A v0.2.6 defines final as the end-of-stream signal and shows the close in an example, without a requirement word (the schema's required "final" only says every status update carries the flag). ${PROCEDURE_END_NOTE}`,
  }),
  'v0.3': gen({
    sentences: [finalMeaning['a2a-v0.3.0'], exampleClose('a2a-v0.3.0'), PROCEDURE.streamEnd],
    note: `A2A v0.3.0 defines final as the end-of-stream signal and shows the close in an example, without a requirement word (the schema's required "final" only says every status update carries the flag). ${PROCEDURE_END_NOTE}`,
  }),
  'v1.0': gen({
    sentences: [v1CloseAtTerminal, v1MessageOnly, v1RestSequence, v1KeepOpenAuth],
    note: 'MUST for terminal states only. For interrupted states the passages disagree: §3.1.2 (and §3.1.6) require closing only at a terminal state, §11.7 describes the stream closing at "terminal or interrupted", and §7.6.1 says the agent SHOULD keep streams open in TASK_STATE_AUTH_REQUIRED. Closing or not at INPUT_REQUIRED / AUTH_REQUIRED is therefore free (advisory at most).',
  }),
};

/** The rule "a stream terminates within the per-task timeout": the procedure's, in every generation. */
const streamTerminates = (spec: SpecSentence[]): GenerationSpec =>
  gen({
    sentences: [...spec, PROCEDURE.streamTimeout, PROCEDURE.taskTimeoutDefault],
    note: 'No release bounds how long a stream may stay open; the conformance procedure records a stream that never terminates within the per-task timeout (default 60 s, --task-timeout) as a failure (Timeouts T3).',
  });
export const STREAM_TERMINATES: CheckSpec = {
  legacy: streamTerminates([legacyFinal]),
  'v0.2': streamTerminates([finalMeaning['a2a-v0.2.6']]),
  'v0.3': streamTerminates([finalMeaning['a2a-v0.3.0']]),
  'v1.0': streamTerminates([v1CloseAtTerminal]),
};

// ---------------------------------------------------------------------------------------------- checks

export const SPEC: Record<string, CheckSpec> = {
  'streaming.content-type': {
    legacy: gen({
      sentences: [
        rpcStreamBody('a2a-v0.1.0'),
        status200('a2a-v0.1.0', '§3.3 Streaming Transport (Server-Sent Events)'),
        usesSse('a2a-v0.1.0', '§3.3 Streaming Transport (Server-Sent Events)'),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2 tasks/sendSubscribe',
          quote: 'The HTTP body MAY contain a standard JSONRPCResponse with an error object detailing the failure.',
          keyword: 'MAY',
        },
        sseMime,
        sseEventSourceStatus,
      ],
      note: 'The MUST is §7 (an SSE stream); 200 and text/event-stream are how §3.3 and the WHATWG format define such a stream. An initial failure MAY be an HTTP error with a JSON-RPC error body (§7.2): that is a refusal to judge on its own terms, not a wrong content type.',
    }),
    'v0.2': gen({
      sentences: [
        rpcStreamBody('a2a-v0.2.6'),
        status200('a2a-v0.2.6', '§3.3 Streaming Transport (Server-Sent Events)'),
        usesSse('a2a-v0.2.6', '§3.3 Streaming Transport (Server-Sent Events)'),
        sseMime,
        sseEventSourceStatus,
      ],
    }),
    'v0.3': gen({
      sentences: [
        rpcStreamBody('a2a-v0.3.0'),
        status200('a2a-v0.3.0', '§3.3.1 JSON-RPC 2.0 Streaming'),
        usesSse('a2a-v0.3.0', '§3.3.1 JSON-RPC 2.0 Streaming'),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.3.3 HTTP+JSON/REST Streaming',
          quote: 'If REST transport is supported it MUST implement streaming using Server-Sent Events similar to JSON-RPC.',
          keyword: 'MUST',
        },
        sseMime,
        sseEventSourceStatus,
      ],
    }),
    'v1.0': gen({
      sentences: [v1Establish, v1RpcUsesSse, v1RpcResponse, v1RestSse, sseMime, sseEventSourceStatus],
      note: 'The MUST is §3.1.2 (establish a streaming connection); §9.4.2 and §11.7 define that connection as SSE with HTTP 200 and text/event-stream on both HTTP bindings.',
    }),
  },

  'streaming.framing': {
    legacy: gen({
      sentences: [
        rpcStreamBody('a2a-v0.1.0'),
        rpcAdhere('a2a-v0.1.0', '§3.2 Data Format'),
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.1 SendTaskStreamingResponse Object (id)',
          quote: 'The id MUST match the id from the originating tasks/sendSubscribe (or tasks/resubscribe)',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.1 SendTaskStreamingResponse Object (result)',
          quote: 'It will be either a TaskStatusUpdateEvent or a TaskArtifactUpdateEvent.',
          keyword: 'none',
        },
        usesSse('a2a-v0.1.0', '§3.3 Streaming Transport (Server-Sent Events)'),
        ...sseFreedoms,
        jsonRpcSameId,
        jsonRpcOneOf,
      ],
      note: 'WHATWG SSE (cited by §3.3) lets a stream use CRLF/LF/CR line ends, a leading BOM, multi-line data (joined with LF), comments, id:/event:/retry: fields and unknown fields (ignored); only the JSON-RPC envelope and payload are A2A requirements. The §9.2 example itself uses "id:" and "event: message".',
    }),
    'v0.2': gen({
      sentences: [
        rpcStreamBody('a2a-v0.2.6'),
        rpcAdhere('a2a-v0.2.6', '§3.2 Data Format'),
        rpcIdEcho('a2a-v0.2.6'),
        anyResult('a2a-v0.2.6'),
        errorInStream('a2a-v0.2.6'),
        usesSse('a2a-v0.2.6', '§3.3 Streaming Transport (Server-Sent Events)'),
        ...sseFreedoms,
        jsonRpcOneOf,
      ],
      note: 'The schema lets each event be a success response (Task, Message, status-update or artifact-update) or a JSON-RPC error response. The §9.3 example writes multi-line JSON with "data:" only on the first line, which is not valid SSE (the continuation lines are unknown fields): do not copy it.',
    }),
    'v0.3': gen({
      sentences: [
        rpcStreamBody('a2a-v0.3.0'),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.2.1 JSON-RPC 2.0 Transport',
          quote: 'Client requests and server responses MUST adhere to the JSON-RPC 2.0 specification.',
          keyword: 'MUST',
        },
        rpcIdEcho('a2a-v0.3.0'),
        anyResult('a2a-v0.3.0'),
        errorInStream('a2a-v0.3.0'),
        {
          doc: 'a2a-v0.3.0',
          section: '§3.3.3 HTTP+JSON/REST Streaming',
          quote: 'If REST transport is supported it MUST implement streaming using Server-Sent Events similar to JSON-RPC.',
          keyword: 'MUST',
        },
        usesSse('a2a-v0.3.0', '§3.3.1 JSON-RPC 2.0 Streaming'),
        ...sseFreedoms,
        jsonRpcOneOf,
      ],
      note: 'As v0.2.6; on HTTP+JSON each data field is a bare stream response (no JSON-RPC envelope). The §9.3 example repeats the invalid multi-line "data:" layout.',
    }),
    'v1.0': gen({
      sentences: [
        v1Establish,
        v1TaskFirst,
        {
          doc: v1,
          section: '§3.2.3 Stream Response',
          quote: 'This wrapper allows streaming endpoints to return different types of updates through a single response stream while maintaining type safety.',
          keyword: 'none',
        },
        {
          doc: v1,
          file: 'a2a.proto',
          section: 'StreamResponse',
          quote: 'message StreamResponse { // The payload of the stream response. oneof payload {',
          keyword: 'none',
        },
        {
          doc: v1,
          section: '§5.7 Field Presence and Optionality',
          quote: 'Fields marked with [(google.api.field_behavior) = REQUIRED] indicate that the field MUST be present and set in valid messages.',
          keyword: 'MUST',
        },
        {
          doc: v1,
          section: '§5.7 Field Presence and Optionality (Unrecognized Fields)',
          quote: 'Implementations SHOULD ignore unrecognized fields in messages, allowing for forward compatibility as the protocol evolves.',
          keyword: 'SHOULD',
        },
        v1RpcUsesSse,
        v1RpcResponse,
        v1RestSse,
        ...sseFreedoms,
        jsonRpcSameId,
        jsonRpcOneOf,
      ],
      note: 'JSON-RPC: every data field is a JSON-RPC 2.0 response whose result is a StreamResponse (§9.4.2); HTTP+JSON: a bare StreamResponse (§11.7). Unrecognized fields (e.g. a leftover "final" or "kind") are to be ignored (§5.7 SHOULD), so they are not framing failures.',
    }),
  },

  'streaming.first-event': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.1 SendTaskStreamingResponse Object (result)',
          quote: 'It will be either a TaskStatusUpdateEvent or a TaskArtifactUpdateEvent.',
          keyword: 'none',
        },
      ],
      note: 'No release before v1.0 says which event comes first; "a submitted/working status first" is seed procedure 3.4, not the spec. Advisory.',
    }),
    'v0.2': gen({
      sentences: [anyResult('a2a-v0.2.6')],
      note: 'Any event may come first (Task, Message, status-update, artifact-update); the §9.3 example starts with a Task in "submitted". Advisory.',
    }),
    'v0.3': gen({
      sentences: [anyResult('a2a-v0.3.0')],
      note: 'As v0.2.6: no ordering rule. Advisory.',
    }),
    'v1.0': gen({ sentences: [v1TaskFirst, v1MessageOnly, v1RestSequence] }),
  },

  'streaming.terminal': STREAM_ENDS,

  'streaming.after-final': {
    legacy: gen({
      sentences: [legacyFinal],
      note: 'final:true is described as the last status of the cycle, without a requirement word. Advisory.',
    }),
    'v0.2': gen({ sentences: [finalRequired('a2a-v0.2.6'), finalMeaning['a2a-v0.2.6']], note: FINAL_NOTE }),
    'v0.3': gen({ sentences: [finalRequired('a2a-v0.3.0'), finalMeaning['a2a-v0.3.0']], note: FINAL_NOTE }),
    'v1.0': gen({
      sentences: [v1CloseAtTerminal, v1MessageOnly, v1Snapshot, v1KeepOpenAuth],
      note: 'After a terminal status the stream MUST close, but §11.7 lets it resend one final Task snapshot first: a Task after the terminal status is allowed. Events after an interrupted state are allowed (the stream may stay open, §7.6.1).',
    }),
  },

  // Before v1.0 only (v1.0's close is streaming.terminal's): the same rule as streaming.terminal.
  'streaming.closes': { legacy: STREAM_ENDS.legacy, 'v0.2': STREAM_ENDS['v0.2'], 'v0.3': STREAM_ENDS['v0.3'] },

  'streaming.artifacts': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§6.7 Artifact Object (append)',
          quote: 'In streaming (TaskArtifactUpdateEvent), true means append parts to artifact at index; false (default) means replace.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§6.7 Artifact Object (lastChunk)',
          quote: 'In streaming (TaskArtifactUpdateEvent), true indicates this is the final update for the artifact at this index.',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.3 TaskArtifactUpdateEvent Object',
          quote:
            'The Artifact data. Could be a complete artifact or an incremental chunk. Use index, append, and lastChunk fields within Artifact for client-side assembly.',
          keyword: 'none',
        },
      ],
      note: 'Chunks are keyed by artifact.index (default 0); append/lastChunk live inside the Artifact. All descriptive. Advisory.',
    }),
    'v0.2': gen({
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'TaskArtifactUpdateEvent.append',
          quote: '"append": { "description": "Indicates if this artifact appends to a previous one", "type": "boolean" }',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.2.6',
          file: 'a2a.json',
          section: 'TaskArtifactUpdateEvent.lastChunk',
          quote: '"lastChunk": { "description": "Indicates if this is the last chunk of the artifact", "type": "boolean" }',
          keyword: 'none',
        },
      ],
      note: 'Chunks are keyed by artifactId; append/lastChunk are on the event. Descriptive only. Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'TaskArtifactUpdateEvent.append',
          quote:
            '"append": { "description": "If true, the content of this artifact should be appended to a previously sent artifact with the same ID.", "type": "boolean" }',
          keyword: 'none',
        },
        {
          doc: 'a2a-v0.3.0',
          file: 'a2a.json',
          section: 'TaskArtifactUpdateEvent.lastChunk',
          quote: '"lastChunk": { "description": "If true, this is the final chunk of the artifact.", "type": "boolean" }',
          keyword: 'none',
        },
      ],
      note: 'Lowercase "should" in a schema description is not an RFC 2119 keyword. Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: v1,
          file: 'a2a.proto',
          section: 'TaskArtifactUpdateEvent.append',
          quote: '// If true, the content of this artifact should be appended to a previously // sent artifact with the same ID. bool append = 4;',
          keyword: 'none',
        },
        {
          doc: v1,
          file: 'a2a.proto',
          section: 'TaskArtifactUpdateEvent.last_chunk',
          quote: '// If true, this is the final chunk of the artifact. bool last_chunk = 5;',
          keyword: 'none',
        },
      ],
      note: 'Descriptive proto comments only. Advisory.',
    }),
  },

  'streaming.consistency': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.2 TaskStatusUpdateEvent Object (id)',
          quote: 'The ID of the task being updated. This MUST match the TaskSendParams.id',
          keyword: 'MUST',
        },
        {
          doc: 'a2a-v0.1.0',
          section: '§7.2.3 TaskArtifactUpdateEvent Object (id)',
          quote: 'The ID of the task that generated this artifact. This MUST match the TaskSendParams.id',
          keyword: 'MUST',
        },
      ],
    }),
    'v0.2': gen({
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7.2 message/stream',
          quote:
            'Sends a message to an agent to initiate/continue a task AND subscribes the client to real-time updates for that task via Server-Sent Events (SSE).',
          keyword: 'none',
        },
      ],
      note: 'The stream is described as the updates of "that task", without a requirement word. Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7.2 message/stream',
          quote:
            'Sends a message to an agent to initiate/continue a task AND subscribes the client to real-time updates for that task via Server-Sent Events (SSE).',
          keyword: 'none',
        },
      ],
      note: 'As v0.2.6. Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        v1TaskFirst,
        {
          doc: v1,
          file: 'a2a.proto',
          section: 'TaskStatusUpdateEvent.task_id',
          quote: '// The ID of the task that has changed. string task_id = 1 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
        {
          doc: v1,
          file: 'a2a.proto',
          section: 'TaskStatusUpdateEvent.context_id',
          quote: '// The ID of the context that the task belongs to. string context_id = 2 [(google.api.field_behavior) = REQUIRED];',
          keyword: 'required-field',
        },
      ],
      note: 'A task lifecycle stream is "the Task" followed by its updates (§3.1.2); every update names its task and context in required fields.',
    }),
  },

  'streaming.disconnect': {
    legacy: gen({
      sentences: [
        {
          doc: 'a2a-v0.1.0',
          section: '§7.7 tasks/resubscribe',
          quote:
            'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from tasks/sendSubscribe or an earlier tasks/resubscribe) was interrupted.',
          keyword: 'none',
        },
      ],
      note: 'That a task outlives its stream is implied by resubscribe, not required. Seed procedure 3.5. Advisory.',
    }),
    'v0.2': gen({
      sentences: [
        {
          doc: 'a2a-v0.2.6',
          section: '§7.9 tasks/resubscribe',
          quote:
            'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          keyword: 'none',
        },
      ],
      note: 'Implied by resubscribe, not required. Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        {
          doc: 'a2a-v0.3.0',
          section: '§7.9 tasks/resubscribe',
          quote:
            'Allows a client to reconnect to an SSE stream for an ongoing task after a previous connection (from message/stream or an earlier tasks/resubscribe) was interrupted.',
          keyword: 'none',
        },
      ],
      note: 'Implied by resubscribe, not required. Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: v1,
          section: '§3.5.2 Streaming Event Delivery',
          quote: "The task lifecycle is independent of any individual stream's lifecycle",
          keyword: 'none',
        },
        {
          doc: v1,
          section: '§3.5.2 Streaming Event Delivery',
          quote: 'A client reconnecting to a task after a network interruption by opening a new stream',
          keyword: 'none',
        },
      ],
      note: 'Descriptive. (§3.5.2 "Closing one stream MUST NOT affect other active streams" needs two streams open at once; this check opens one.) Advisory.',
    }),
  },

  'streaming.resubscribe': {
    legacy: gen({
      sentences: [resubscribePurpose('a2a-v0.1.0', '§7.7 tasks/resubscribe'), resubscribeBackfill('a2a-v0.1.0', '§7.7 tasks/resubscribe')],
      note: 'The method is defined but nothing requires it; which events a resubscription carries is implementation-dependent. Advisory.',
    }),
    'v0.2': gen({
      sentences: [resubscribePurpose('a2a-v0.2.6', '§7.9 tasks/resubscribe'), resubscribeBackfill('a2a-v0.2.6', '§7.9 tasks/resubscribe')],
      note: 'As v0.1.0. Advisory.',
    }),
    'v0.3': gen({
      sentences: [
        { doc: 'a2a-v0.3.0', section: '§11.1.3 Optional Method Implementation', quote: 'MAY implement the following optional methods:', keyword: 'MAY' },
        {
          doc: 'a2a-v0.3.0',
          section: '§11.1.3 Optional Method Implementation',
          quote: 'tasks/resubscribe - Resume streaming for existing tasks (requires capabilities.streaming: true)',
          keyword: 'none',
        },
        resubscribeBackfill('a2a-v0.3.0', '§7.9 tasks/resubscribe'),
      ],
      note: 'tasks/resubscribe is explicitly optional even when streaming is declared. Advisory.',
    }),
    'v1.0': gen({
      sentences: [
        {
          doc: v1,
          section: '§3.1.6 Subscribe to Task',
          quote:
            'The operation MUST return a Task object as the first event in the stream, representing the current state of the task at the time of subscription.',
          keyword: 'MUST',
        },
        {
          doc: v1,
          section: '§3.1.6 Subscribe to Task',
          quote:
            'The stream MUST terminate when the task reaches a terminal state (TASK_STATE_COMPLETED, TASK_STATE_FAILED, TASK_STATE_CANCELED, TASK_STATE_REJECTED).',
          keyword: 'MUST',
        },
        v1KeepOpenAuth,
        {
          doc: v1,
          section: '§3.7 Messages and Artifacts',
          quote:
            'Clients using streaming to retrieve task updates MAY not receive all status update messages if the client is disconnected and then reconnects.',
          keyword: 'MAY',
        },
      ],
      note: 'MUST: the Task first, and closing at a terminal state. Staying open at an interrupted state is allowed (only terminal states are listed; §7.6.1 SHOULD keep streams open in AUTH_REQUIRED). A subscription to a task that is already terminal is refused with UnsupportedOperationError (§3.1.6).',
    }),
  },
};
