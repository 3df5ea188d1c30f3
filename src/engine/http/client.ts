/**
 * The engine's HTTP client, one module per seam: limits.ts (budgets, the request semaphore), context.ts (the
 * HttpContext a run or a preview makes once), transport-errors.ts (deadlines, fetch failures, proxy-made
 * errors), body.ts (bounded body reading), exchange.ts (the one response opener and request/response exchanges)
 * and sse.ts (Server-Sent Events streams). Import from here.
 */
export { DEFAULT_LIMITS, Semaphore, type Limits } from './limits';
export { createHttpContext, originOf, type HttpContext, type HttpContextOptions } from './context';
export { exchange, MAX_RETRY_AFTER_MS, retryAfterMs, type HttpRequest, type HttpResult } from './exchange';
export { lineEndNormalizer, stream, type SseIgnoredLine, type SseMessage, type StreamEndReason, type StreamOutcome, type StreamRequest } from './sse';
