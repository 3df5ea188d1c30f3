/**
 * `run-many` wall time over the 50 local agents of src/testing/fleet.ts (SDK demo, defect and hostile agents,
 * a closed port; `npx tsx bench/run.ts fleet`) at concurrency 1, 4 and 16, beside the floor no concurrency can
 * beat: the slowest single agent (its own run's duration, measured in the concurrency-1 run where nothing
 * competes with it). Ratio = wall / slowest agent: 1.0 would be perfect overlap.
 * The suite is the fleet test's subset (card, lifecycle, one streaming check) with 5 s budgets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMany } from '../src/cli/fleet';
import type { FleetSummary } from '../src/cli/fleet-summary';
import { startFleet } from '../src/testing/fleet';
import type { BenchRow, BenchSection } from './run';

const ONLY = ['card.json', 'card.required-fields', 'lifecycle.send', 'lifecycle.get', 'lifecycle.shape', 'streaming.terminal'];
const CONCURRENCY = [1, 4, 16] as const;

export async function run(): Promise<BenchSection> {
  const fleet = await startFleet();
  const dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-bench-'));
  const file = fleet.writeList(dir);
  const rows: BenchRow[] = [];
  let slowest: { ms: number; who: string } | undefined;
  try {
    for (const concurrency of CONCURRENCY) {
      const out = join(dir, `c${concurrency}`);
      const t0 = performance.now();
      await runMany(
        { file, outDir: out, concurrency, formats: [], minLevel: 'minimal', timeoutMs: 5_000, deadlineMs: 60_000, only: ONLY, quiet: true },
        { stdout: () => undefined, stderr: () => undefined, env: fleet.env },
      );
      const wall = performance.now() - t0;
      const s = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as FleetSummary;
      if (!slowest) {
        const top = s.agents.reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
        slowest = { ms: top.durationMs, who: `${top.name} (${top.levelLabel})` };
        rows.push({ metric: 'slowest single agent', value: slowest.ms, unit: 'ms', note: slowest.who });
      }
      rows.push({
        metric: `run-many, 50 agents, concurrency ${concurrency}`,
        value: Math.round(wall),
        unit: 'ms',
        note: `${(wall / slowest.ms).toFixed(2)}× the slowest agent`,
      });
    }
  } finally {
    await fleet.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    title: 'Fleet runs (run-many, 50 local agents)',
    rows,
    notes: [
      'Agents, runs and the bench share one process and machine; the ratio is wall time over the slowest agent alone (1.0 = perfect overlap).',
      `Checks: ${ONLY.join(', ')}; --timeout 5, --deadline 60.`,
    ],
  };
}
