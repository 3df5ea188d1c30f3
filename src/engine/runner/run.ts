import type { RunEvent } from '../model/events';
import type { Report } from '../model/report';
import type { Host } from '../ports';
import type { RunOptions } from './options';

/**
 * Runs the conformance suite against `options.agentUrl`, emitting every step as a RunEvent.
 * Resolves with the final report (also when stopped: the partial report is marked interrupted).
 * Never rejects for agent misbehaviour; only programming errors of ours surface as `run-finished: errored`.
 *
 * (Work in progress: being implemented in this session.)
 */
export async function runConformance(host: Host, options: RunOptions, emit: (e: RunEvent) => void): Promise<Report> {
  void host;
  void options;
  void emit;
  throw new Error('not implemented yet');
}
