/**
 * Named switches for behaviours the specification PERMITS but the plain test agent does not show: the mirror
 * of the defects. An agent with any of them must come out exactly as clean as the plain agent (no failure the
 * plain agent does not have, no lower level): the permitted-behaviour matrix in
 * src/engine/checks/matrix.test.ts proves it for every check.
 */
export const PERMITTED = {
  // ---------------------------------------------------------------- card
  'grpc-interface': 'The card also declares a gRPC interface whose URL is host:port (the form gRPC uses; A2A PR #1997).',
  'card-protected': 'The card itself is served only with credentials (v0.x §5.4 permits protecting the card); needs auth.',
  'card-protected-spa': 'The card paths answer 401 without credentials while every other unknown path answers an HTML page with 200; needs auth.',
  'card-extra-fields':
    'The card carries vendor fields (top level, capability, skill), an extension declaration (v1.0: one without uri), documentation and icon URLs.',
  'card-empty-strings': 'The card and a skill have "description": "" (schema-valid: presence and type are required, not content).',
  'card-legacy-nulls': 'Legacy card: optional fields (provider, documentationUrl, authentication, skill description/tags/examples/modes) are null.',
  'card-media-ranges': 'Skills declare media ranges (*/*, text/*) as their modes.',
  'card-skill-modes-empty': 'v1.0: a skill declares inputModes: [] and outputModes: [] (ProtoJSON: unset, the defaults apply).',
  'card-content-type-charset': 'The card is served as application/json; charset=utf-8.',
  'card-both-paths': 'The card is served at both well-known paths (agent-card.json and agent.json).',
  'card-dual-v03-v1':
    'v1.0: the card also carries the v0.3 fields (url, preferredTransport, protocolVersion 0.3.0, additionalInterfaces), and header-less calls are served as 0.3.',
  'card-v03-no-preferred-transport':
    'v0.3 JSON-RPC: the card omits preferredTransport (the schema makes it optional, default "JSONRPC"; §5.6.1 calls it REQUIRED).',
  'card-shared-url-transports': 'additionalInterfaces lists JSONRPC and GRPC at the same URL (v0.3 §5.6.2 MAY reuse URLs).',
  'card-custom-binding-uri': 'v1.0: an extra interface with a custom binding identified by a URI (wss://, .../bindings/ws/v1).',
  'card-varies-by-version': 'The card differs when A2A-Version is missing, and says so with Vary: A2A-Version.',
  'card-revalidate': 'v1.0: the card is sent with Cache-Control: no-cache, max-age=0 and an ETag (clients revalidate every time).',
  'card-signed-per-request': 'The card signature changes on every request (ES256 signatures are randomized); needs features.signed.',
  'card-alg-unprotected': 'v0.3: the signature carries "alg" in the unprotected "header", not in "protected" (RFC 7515 §4); needs features.signed.',
  'card-signature-unknown-kid': 'The signature names a kid that the key set at its jku does not hold: it cannot be verified (needs features.signed).',
  'extension-activated-not-listed':
    'The answer to a message that activates extensions does not list them in an A2A-Extensions (v0.3: X-A2A-Extensions) response header (needs features.extensions).',
  'card-signature-jku-404': 'The signature names a jku that answers 404: it cannot be verified (needs features.signed).',
  'card-oauth-flows': 'The card declares an OAuth2 scheme with several flows (v1.0: deviceCode) at https URLs, as an alternative requirement; needs auth.',
  'auth-optional':
    'Security is declared but optional: v0.x security lists the empty requirement {}, legacy authentication.schemes ["public", …]; anonymous calls are served.',
  'extended-not-configured':
    'The card declares an extended card, but with credentials the agent answers ExtendedAgentCardNotConfigured (-32007); needs features.extendedCard.',
  'extended-v02-rpc':
    'v0.2: the extended card is served through the JSON-RPC method agent/authenticatedExtendedCard instead of the GET path; needs features.extendedCard.',
  // ---------------------------------------------------------------- tasks
  'image-only-skill': 'One more skill accepts only image/png: it refuses text with ContentTypeNotSupported and completes on an image.',
  'video-only-skill': 'One more skill accepts only video/mp4, which a tester cannot produce: it refuses our input with ContentTypeNotSupported.',
  'content-type-validation-error':
    'The video-only skill refuses other input with a validation error naming the content type (v1.0 -32602; v0.3 HTTP+JSON a plain 400).',
  'task-rejected-initial': 'One more skill creates its task directly in the rejected state.',
  'strict-task-ids': 'Task ids must look like UUIDs: any other id is refused with InvalidParams (v1.0.1 §3.3.2 permits format validation).',
  'prefixed-task-ids': 'Task and context ids are "task-"/"ctx-" plus 12 hex digits; other id shapes are refused with InvalidParams.',
  'sequential-task-ids': 'Task ids are numbered t-1, t-2, … (unique per agent, not globally).',
  'skip-working': 'Quick tasks go from submitted straight to completed, with no working state.',
  'back-to-submitted': 'After working, the task goes back to submitted before going on (not a terminal state: legal).',
  'asks-again': 'An answer to an input-required task is recorded and the agent asks again (input-required once more).',
  'answer-message-reply': 'The answer to an input-required task is acknowledged with a Message while the task resumes.',
  'cancel-async': 'Cancel answers with the task still working; it becomes canceled shortly after.',
  'history-fewer': 'get returns fewer history messages than historyLength asks (MAY return fewer).',
  'timestamps-offset': 'Status timestamps carry a +00:00 offset and no milliseconds (ISO 8601 forms the schema allows) where the generation permits it.',
  'timestamps-zoneless': 'v0.2/v0.3: status timestamps have no zone designator (2025-04-02T16:59:25.331844, as a2a-python writes them).',
  'timestamps-lowercase': 'Legacy: status timestamps use a lowercase t and z (RFC 3339 §5.6 permits it).',
  'v1-no-task-context': 'v1.0: Tasks carry no contextId (not REQUIRED in the proto).',
  'extra-fields': 'Tasks, messages and events carry metadata and extension fields the client does not know.',
  'rate-limit-once': 'The first call of each kind is answered HTTP 429 with Retry-After: 1.',
  'list-small-pages': 'v1.0: ListTasks returns at most 2 tasks per page (pageSize is an upper bound), with a nextPageToken.',
  'context-rejected': 'A client-chosen contextId for a new task is refused with InvalidParams (v1.0 §3.4.1: an agent that cannot accept it MUST reject).',
  'push-token-masked': 'Stored push configs come back with the token masked ("****").',
  'push-delete-204': 'HTTP+JSON: deleting a push config answers 204 No Content.',
  'push-second-delete-not-found': 'Deleting a push config that is already gone answers an error (not found).',
  'push-retries': 'Every push delivery is sent twice (delivery is at least once; receivers handle duplicates).',
  // ---------------------------------------------------------------- streaming
  'sse-crlf': 'SSE lines end with CRLF.',
  'sse-cr': 'SSE lines end with a bare CR.',
  'sse-bom': 'Streams start with a UTF-8 byte order mark (WHATWG SSE strips one at the start of the stream).',
  'sse-multiline-data': 'Each SSE event spreads its JSON over several data: lines (joined with newlines by the client).',
  'sse-fields': 'SSE events carry comments, id:, event: message and retry: fields.',
  'sse-unknown-fields': 'SSE events carry unknown fields ("foo: bar") and a non-numeric retry, which clients ignore.',
  gzip: 'Responses (including streams) are gzip-compressed when the client accepts it.',
  'stream-open-at-auth-required': 'v1.0: one more skill pauses in auth-required, and its stream stays open there.',
  'stream-task-snapshot': 'v1.0: after the terminal status the stream sends one final Task snapshot, then closes (§11.7 MAY).',
  'stream-ends-with-task': 'v0.2/v0.3: the stream ends with the Task in its terminal state instead of a status with final: true, then closes.',
  'stream-first-terminal-status': 'Before v1.0: plain replies stream a single completed status with final: true (no Task first).',
  'artifact-in-task': 'The first streamed Task already carries the first artifact chunk; later chunks append to it.',
  'disconnect-cancels': 'When a client leaves a stream mid-task, the agent cancels the task (it stays retrievable, canceled).',
  'cors-minimal':
    'CORS as a plain API: Access-Control-Allow-Origin on answers, no OPTIONS on the card, preflights without Allow-Methods (GET/POST are safelisted).',
  'rest-url-v1': 'v0.3: the HTTP+JSON interface is declared with its /v1 prefix in the URL.',
  'endpoint-path': 'The A2A endpoint lives under a path (/a2a), not at the root; the card says so.',
  // ---------------------------------------------------------------- errors and auth
  'jsonrpc-error-http-status': 'JSON-RPC errors are sent with HTTP 4xx/5xx statuses (no A2A release fixes the status of a JSON-RPC error).',
  'notification-invalid-request': 'A JSON-RPC notification (no id) is refused with -32600 Invalid Request (the A2A schemas from v0.2.5 require an id).',
  'notification-202': 'A JSON-RPC notification (no id) is answered 202 Accepted with an empty body.',
  'duplicate-cancel-not-found': 'Canceling a task that was canceled before answers TaskNotFound, as if purged (v1.0 §3.3.1 MAY).',
  'duplicate-cancel-idempotent': 'Canceling a task that was canceled before answers with the canceled task again (v1.0 §3.3.1: cancel is idempotent).',
  'rest-json-content-type': 'v1.0 HTTP+JSON answers with Content-Type application/json (v1.0.0) instead of application/a2a+json.',
  'rest-409-not-cancelable': 'HTTP+JSON answers TaskNotCancelable with HTTP 409 (the v1.0.0 mapping).',
  'rest-501-unsupported': 'v0.3 HTTP+JSON: push config calls and messages to finished tasks get 501 {"message"} (a2a-python 0.3).',
  'rest-message-error-body': 'v0.3 HTTP+JSON: error bodies are {"message": …} (no google.rpc.Status in v0.3).',
  'rest-status-no-status-field': 'v1.0 HTTP+JSON: google.rpc.Status error bodies without the optional "status" member.',
  'grpc-v100-statuses':
    'v1.0 gRPC: UnsupportedOperation, PushNotificationNotSupported and VersionNotSupported travel as UNIMPLEMENTED (the v1.0.0 §5.4 table), their ErrorInfo reasons kept.',
  'grpc-error-details':
    'v1.0 gRPC: status.details holds a google.rpc.LocalizedMessage before the ErrorInfo, and the ErrorInfo carries metadata (v1.0.1 §10.6).',
  'unknown-route-400': 'HTTP+JSON: unknown routes answer 400 with an error body.',
  'validation-422': 'v0.3 HTTP+JSON: malformed JSON and malformed params get 422 Unprocessable Entity.',
  'push-url-validation':
    'Push configs are validated first: set/create refuses our webhook URL with InvalidParams, get/list answer PushNotificationNotSupported.',
  'version-compat-03': 'v1.0: the card adds a protocolVersion 0.3 interface at the same URL, and header-less calls are served as 0.3.',
  'version-problem-json': 'v1.0 HTTP+JSON: VersionNotSupported is an application/problem+json 400.',
  'subscribe-terminal-error': 'Before v1.0: resubscribe to a finished task is refused with InvalidParams (HTTP+JSON 400).',
  'sse-error-first-event': 'v1.0: refusals of the streaming methods come as the first (and only) SSE event.',
  'no-streaming-method-not-found': 'Before v1.0, streaming off: the stream methods answer MethodNotFound (-32601; HTTP+JSON 404).',
  'context-mismatch-not-found': "v1.0: a message whose contextId differs from its task's is rejected with TaskNotFound (no such task in that context).",
  'auth-jsonrpc-error': 'v1.0 JSON-RPC: anonymous calls get HTTP 200 with a JSON-RPC error -32000 and id null.',
  'auth-403': 'Anonymous calls get 403 Forbidden.',
  'auth-multi-challenge': '401 answers list two challenges in WWW-Authenticate (Bearer, then a custom scheme).',
  'card-rtl-text':
    'The card and a skill carry right-to-left text with its marks (Arabic, RLM), a Persian word with a zero-width non-joiner, an emoji ZWJ sequence, and a description about writing system prompts.',
  'redirect-same-host': 'A GET of the endpoint redirects (302) to the card on the same host.',
} as const satisfies Record<string, string>;

export type PermittedName = keyof typeof PERMITTED;

export const PERMITTED_NAMES = Object.keys(PERMITTED) as PermittedName[];
