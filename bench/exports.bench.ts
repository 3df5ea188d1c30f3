/**
 * Export speed and size for a 10,000-event run (issue 6: "Large runs (10,000 events) export in under a second").
 * Run: npx tsx bench/run.ts exports
 */
import { performance } from 'node:perf_hooks';
import { EXPORT_FORMATS, exportReport, loadReport } from '../src/exporters/index';
import { largeReport } from '../src/testing/fixtures/reports';
import type { BenchRow, BenchSection } from './run';

const RUNS = 7;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median and max wall time of `fn` over RUNS runs, after one warm-up. */
function time(fn: () => unknown): { median: number; max: number } {
  fn();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return { median: median(samples), max: Math.max(...samples) };
}

const kb = (chars: number) => `${(chars / 1024).toFixed(0)} KB`;

export async function run(): Promise<BenchSection> {
  const events = 10_000;
  const report = largeReport(events);
  const rows: BenchRow[] = [];
  for (const format of EXPORT_FORMATS) {
    let size = 0;
    const t = time(() => {
      const { file, fallback } = exportReport(report, format);
      if (fallback) throw new Error(`${format} fell back: ${fallback.reason}`);
      size = file.body.length;
    });
    rows.push({ metric: `exportReport ${format}, median of ${RUNS}`, value: t.median, unit: 'ms', note: `max ${t.max.toFixed(1)} ms; ${kb(size)}` });
  }
  const json = exportReport(report, 'json').file.body;
  const load = time(() => {
    const r = loadReport(json);
    if (!r.ok) throw new Error(r.error);
  });
  rows.push({ metric: `loadReport of the JSON, median of ${RUNS}`, value: load.median, unit: 'ms', note: `max ${load.max.toFixed(1)} ms; ${kb(json.length)}` });
  return {
    title: `Report exports: ${events.toLocaleString('en')}-event run (60 checks)`,
    rows,
    notes: [
      'Each export validates (zod), masks credentials over the whole report (events included) and builds the format; HTML also replays the events for its charts.',
      'Budget from issue 6: under 1,000 ms per format.',
    ],
  };
}
