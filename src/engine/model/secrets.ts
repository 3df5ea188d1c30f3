/**
 * Names that carry credentials, shared by everything that redacts (engine, proxy wire log, exporters).
 * Kept in the model so the proxy (which may import only engine/model) uses the same list.
 */

/** Query-parameter names whose values are secrets (`?api_key=…`, `?token=…`, `?sig=…`). */
export const SENSITIVE_QUERY_PARAM =
  /^(?:api[-_]?key|key|token|access[-_]?token|id[-_]?token|auth|authorization|secret|client[-_]?secret|password|passwd|sig|signature|code)$/i;
