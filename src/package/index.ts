/**
 * The package's library surface: `import { checkAgent, exportReport } from 'a2a-interop'` in Node 20+.
 * Bundled to dist-cli/index.mjs with its declarations in dist-cli/types (scripts/build-cli.mjs); zod
 * stays a dependency because the report model is a set of zod schemas (`Report.parse`, `Report.safeParse`).
 *
 * @example
 * import { checkAgent, exportReport, meetsLevel } from 'a2a-interop';
 * const report = await checkAgent({ agentUrl: 'https://agent.example.com', credentials: { kind: 'bearer', token } });
 * console.log(report.conformanceLevel, meetsLevel(report.conformanceLevel, 'partial'));
 * writeFileSync('report.md', exportReport(report, 'markdown').file.body);
 */
import type { RunEvent } from '../engine/model/events';
import type { Report } from '../engine/model/report';
import { runConformance } from '../engine/runner/run';
import type { RunOptions } from '../engine/runner/options';
import { createNodeHost } from '../hosts/node';

// The engine's public surface: report model (zod schemas and their types), events, levels, options,
// `runConformance(host, options, onEvent)` for callers that bring their own host.
export * from '../engine';
// Report exporters (JSON, Markdown, JUnit, HTML, ...), report loading and the report's JSON Schema.
export * from '../exporters';
// The check catalogue and what each check enforces per generation, as data and text.
export { CHECK_CATALOG } from '../engine/checks';
export { catalog, catalogMarkdown, explainCheck } from '../cli/explain';
// The Node host the CLI uses (global fetch, straight to the agent).
export { createNodeHost } from '../hosts/node';

export interface CheckAgentOptions extends RunOptions {
  /** Every step of the run as it happens (progress); exceptions thrown here are ignored. */
  onEvent?: (event: RunEvent) => void;
  /** The fetch to use (default: the global fetch), e.g. one with a proxy agent or recorded responses. */
  fetch?: typeof fetch;
}

/**
 * Runs the conformance suite against `options.agentUrl` from Node, as `a2a-interop run` does, and resolves
 * with the report. Agent misbehaviour never rejects; the verdict is `report.conformanceLevel`
 * (null with `report.notAssessed` when the agent could not be assessed).
 */
export function checkAgent(options: CheckAgentOptions): Promise<Report> {
  const { onEvent, fetch: f, ...run } = options;
  return runConformance(createNodeHost({ fetch: f }), { transport: 'direct', ...run }, onEvent ?? (() => undefined));
}
