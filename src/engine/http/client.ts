/**
 * The engine's HTTP client, one module per seam: limits.ts (budgets, the request semaphore), context.ts (the
 * HttpContext a run or a preview makes once), transport-errors.ts (deadlines, fetch failures, proxy-made
 * errors), body.ts (bounded body reading), exchange.ts (the one response opener and request/response exchanges)
 * and sse.ts (Server-Sent Events streams). Import from here.
 */
export { DEFAULT_LIMITS, Semaphore, type Limits } from './limits';
export { createHttpContext, urgent, type HttpContext, type HttpContextOptions } from './context';
export { exchange, retryAfterMs, type HttpResult } from './exchange';
export { lineEndNormalizer, stream, type SseIgnoredLine, type SseMessage, type StreamOutcome } from './sse';
