/**
 * Named switches that each break exactly one behaviour of the otherwise spec-correct defect agent.
 * Descriptions are shown to users (the flawed demo agent lists them) and used in test names.
 */
export const DEFECTS = {
  'card-capabilities-array': 'Card gives `capabilities` as an array of {type, description} instead of an object.',
  'card-capabilities-strings': 'Card capability flags are strings ("true") instead of booleans.',
  'card-missing-skills': 'Card has no `skills` field.',
  'card-html-404': 'Card URL answers 404 with an HTML page.',
  'card-wrong-content-type': 'Card is served as text/plain instead of application/json.',
  'card-relative-url': 'Card endpoint URLs are relative paths, not absolute URLs.',
  'card-undeclared-security': 'Card security requirements name a scheme that securitySchemes does not declare.',
  'card-oauth-no-token-url': 'Card declares an OAuth2 client-credentials flow without `tokenUrl`.',
  'card-apikey-no-name': 'Card declares an API-key scheme without the header `name`.',
  'card-behind-auth': 'The card itself requires credentials (401), so discovery fails.',
  'card-huge': 'The card is about 20 MB (a padded description).',
  'card-legacy-path-only': 'Card served only at /.well-known/agent.json, not /.well-known/agent-card.json.',
  'card-bad-signature': 'A signed card whose signature header is not base64url (needs features.signed).',
  'send-returns-message': 'Every send answers with a bare Message, never a Task (message-only agent).',
  'task-never-finishes': 'Tasks stay working forever; streams stay open and never reach a terminal state.',
  'no-task-id': 'Task objects have no `id`.',
  'bad-initial-state': 'Submitted/working tasks report the non-standard state "pending".',
  'state-goes-backwards': 'After working, the task goes back to submitted before going on.',
  'task-id-changes': 'The task id changes between the first answer and later events/answers.',
  'cancel-ignored': 'Cancel answers with the task still working, and the task goes on to complete.',
  'cancel-completed-500': 'Canceling a completed task crashes with HTTP 500 and an HTML body.',
  'cancel-completed-succeeds': 'Canceling a completed task succeeds and rewrites it to canceled.',
  'no-history': 'Tasks never include `history`, whatever historyLength asks.',
  'history-ignores-length': 'historyLength is ignored; the full history is always returned.',
  'input-required-not-resumable': 'An answer to an input-required task is ignored; the task stays input-required.',
  'wrong-rpc-id': 'JSON-RPC responses (and stream events) carry a different `id` than the request.',
  'result-and-error': 'JSON-RPC responses carry both `result` and `error` members (one of them null).',
  'bad-timestamps': 'Status timestamps are local-time strings, not ISO 8601 UTC.',
  'sse-wrong-content-type': 'Streams are sent with Content-Type application/json instead of text/event-stream.',
  'sse-never-ends': 'Streams stay open after the last event (keep-alive comments only).',
  'sse-events-after-final': 'Streams send one more status event after the final/terminal one.',
  'sse-no-final': 'Streams close without marking the end (no `final: true`; v1.0: no terminal status event).',
  'sse-first-not-task': 'Streams start with a status update instead of the Task.',
  'sse-bare-payload': 'JSON-RPC stream events are bare payloads, not JSON-RPC responses.',
  'sse-no-resubscribe': 'Resubscribe is not implemented (method not found / 404) although streaming is declared.',
  'unknown-method-wrong-code': 'Unknown methods get -32600 instead of -32601.',
  'invalid-json-500': 'Malformed JSON crashes with HTTP 500 instead of a -32700 response.',
  'invalid-request-wrong-code': 'Invalid JSON-RPC requests get -32603 instead of -32600.',
  'invalid-params-wrong-code': 'Invalid params get -32603 instead of -32602.',
  'task-not-found-wrong-code': 'Unknown task ids get -32602 (REST 400) instead of -32001 (REST 404).',
  'task-not-found-500': 'Unknown task ids crash with HTTP 500.',
  'message-to-terminal-accepted': 'A message to a terminal task is accepted and restarts it.',
  'push-wrong-code': 'Push-notification methods get -32601 (REST 404) instead of -32003.',
  'version-lenient': 'A v1.0 agent accepts a missing or unsupported A2A-Version header.',
  'rest-error-not-status': 'REST error bodies are {error: string, code} instead of google.rpc.Status.',
  'auth-not-enforced': 'Credentials are declared but not checked.',
  'auth-no-www-authenticate': '401 answers carry no WWW-Authenticate header.',
  'no-cors': 'No CORS headers; preflight requests get 405.',
} as const satisfies Record<string, string>;

export type DefectName = keyof typeof DEFECTS;

export const DEFECT_NAMES = Object.keys(DEFECTS) as DefectName[];

export function isDefectName(s: string): s is DefectName {
  return Object.prototype.hasOwnProperty.call(DEFECTS, s);
}
