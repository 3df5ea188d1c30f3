/**
 * What `a2a-interop run`, `run-many` and `merge` need beyond the check catalogue: the runner, the Node
 * host, the exporters and the baseline comparison. main.ts imports this module on demand, so `checks`,
 * `explain` and `--help` start without parsing or evaluating any of it (issue 13: start-up within 0.3 s of
 * a bare `node -e 0`; the bundle puts it in its own chunk).
 */
export { runConformance } from '../engine/runner/run';
export { createNodeHost } from '../hosts/node';
export { createNodeInbox } from '../inbox/node';
export { loadReport, toBadge } from '../exporters';
export { levelLabel } from '../exporters/common';
export { compareWithBaseline } from '../engine/report/baseline';
export { parseShard } from './fleet-input';
export { parseFormats, writeReportFiles } from './outputs';
