/**
 * The parts of the engine the dashboard renders with: model, fold, level, report and chart series.
 * Everything except the runner and its checks, which load on the first run (engine-adapter.ts), so
 * they stay out of the first-load bundle. Import engine code in the UI from here.
 */
export * from '../engine/model/check';
export * from '../engine/model/events';
export * from '../engine/model/report';
export * from '../engine/model/proxy';
export * from '../engine/ports';
export * from '../engine/redact';
export * from '../engine/state/run-state';
export * from '../engine/report/level';
export * from '../engine/report/build';
export * from '../engine/report/series';
export * from '../engine/protocol/parts';
export * from '../engine/protocol/content';
export type { Credentials, RunOptions } from '../engine/runner/options';
export { DEFAULT_TIMEOUT_MS } from '../engine/runner/options';
