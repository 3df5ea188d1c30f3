/**
 * Named switches for behaviours the specification PERMITS but the plain test agent does not show: the mirror
 * of the defects. An agent with any of them must come out exactly as clean as the plain agent (no failure the
 * plain agent does not have, no lower level): the permitted-behaviour matrix in
 * src/engine/checks/matrix.test.ts proves it for every check.
 */
export const PERMITTED = {
  'grpc-interface': 'The card also declares a gRPC interface whose URL is host:port (the form gRPC uses; A2A PR #1997).',
  'card-protected': 'The card itself is served only with credentials (v0.x §5.4 permits protecting the card); needs auth.',
  'card-extra-fields': 'The card carries vendor fields, a vendor capability with an object value and an extension declaration.',
  'card-media-ranges': 'Skills declare media ranges (*/*, text/*) as their modes.',
  'image-only-skill': 'One more skill accepts only image/png: it refuses text with ContentTypeNotSupported and completes on an image.',
  'video-only-skill': 'One more skill accepts only video/mp4, which a tester cannot produce: it refuses our input with ContentTypeNotSupported.',
  'strict-task-ids': 'Task ids must look like UUIDs: any other id is refused with InvalidParams (v1.0.1 §3.3.2 permits format validation).',
  'jsonrpc-error-http-status': 'JSON-RPC errors are sent with HTTP 4xx/5xx statuses (no A2A release fixes the status of a JSON-RPC error).',
  'sse-crlf': 'SSE lines end with CRLF.',
  'sse-cr': 'SSE lines end with a bare CR.',
  'sse-multiline-data': 'Each SSE event spreads its JSON over several data: lines (joined with newlines by the client).',
  'sse-fields': 'SSE events carry comments, id:, event: message and retry: fields.',
  'gzip': 'Responses (including streams) are gzip-compressed when the client accepts it.',
  'extra-fields': 'Tasks, messages and events carry metadata and extension fields the client does not know.',
  'skip-working': 'Quick tasks go from submitted straight to completed, with no working state.',
  'history-fewer': 'get returns fewer history messages than historyLength asks (MAY return fewer).',
  'timestamps-offset': 'Status timestamps carry a +00:00 offset and no milliseconds (ISO 8601 forms the schema allows) where the generation permits it.',
  'context-rejected': 'A client-chosen contextId for a new task is refused with InvalidParams (v1.0 §3.4.1: an agent that cannot accept it MUST reject).',
  'duplicate-cancel-not-found': 'Canceling a task that was canceled before answers TaskNotFound, as if purged (v1.0 §3.3.1 MAY).',
  'duplicate-cancel-idempotent': 'Canceling a task that was canceled before answers with the canceled task again (v1.0 §3.3.1: cancel is idempotent).',
  'notification-invalid-request': 'A JSON-RPC notification (no id) is refused with -32600 Invalid Request (the A2A schemas from v0.2.5 require an id).',
  'rest-json-content-type': 'v1.0 HTTP+JSON answers with Content-Type application/json (v1.0.0) instead of application/a2a+json.',
  'rest-409-not-cancelable': 'v1.0 HTTP+JSON answers TaskNotCancelable with HTTP 409 (the v1.0.0 mapping).',
} as const satisfies Record<string, string>;

export type PermittedName = keyof typeof PERMITTED;

export const PERMITTED_NAMES = Object.keys(PERMITTED) as PermittedName[];

export function isPermittedName(s: string): s is PermittedName {
  return Object.prototype.hasOwnProperty.call(PERMITTED, s);
}
