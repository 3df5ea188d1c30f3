/** Public surface of the engine: what the browser, the CLI, exporters and tests import. */
export * from './model/check';
export * from './model/events';
export * from './model/report';
export * from './model/proxy';
export * from './ports';
export * from './redact';
export * from './state/run-state';
export * from './report/level';
export * from './runner/options';
export * from './runner/run';
export { DEFAULT_LIMITS, type Limits } from './http/client';
export * from './report/build';
export * from './report/series';
export * from './api';
