import { randomUUID } from 'node:crypto';
import { timerSleep, type Host } from '../engine/ports';

/** The engine's host in Node (CLI, benchmarks, tests): global fetch straight to the agent. */
export function createNodeHost(opts: { fetch?: typeof fetch } = {}): Host {
  const f = opts.fetch ?? globalThis.fetch;
  return {
    fetch: (url, init) => f(url, init),
    now: () => Date.now(),
    sleep: timerSleep,
    randomUUID: () => randomUUID(),
    transport: 'direct',
  };
}
