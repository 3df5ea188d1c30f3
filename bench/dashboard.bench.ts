/**
 * Dashboard benchmark (`npx tsx bench/run.ts dashboard`): builds the SPA, serves it with the
 * `npm start` server, and in Debian's Chromium
 * - pushes a 10,000-event run (SSE-heavy, synthetic) through the live path: the run store's
 *   per-frame batching, applyEvents and the virtualized timeline ("Replay live" of a saved run),
 *   recording long main-thread tasks (PerformanceObserver 'longtask', > 50 ms) and JS heap;
 * - scrolls the 10k timeline;
 * - runs the real suite against the v1 demo agent;
 * - reports the first-load JavaScript (gzip) of the build.
 * Figures only; nothing here asserts.
 */
import { chromium, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { applyEvents, buildReport, initialRunState } from '../src/engine';
import { startServer } from '../src/server/main';
import { syntheticRun } from '../src/testing/fixtures/events';
import type { BenchRow, BenchSection } from './run';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Gzip size of the JS the entry HTML loads up front (entry script + modulepreloads). */
function firstLoadGzip(dist: string): { bytes: number; files: string[] } {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  const bytes = files.reduce((n, f) => n + gzipSync(readFileSync(join(dist, f)), { level: 9 }).length, 0);
  return { bytes, files };
}

async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __lt: number[] }).__lt.splice(0));
}

async function heapMb(page: Page): Promise<{ heap: number; nodes: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = (name: string) => metrics.find((x) => x.name === name)?.value ?? 0;
  await cdp.detach();
  return { heap: m('JSHeapUsedSize') / 1024 / 1024, nodes: m('Nodes') };
}

const stat = (xs: number[]) => ({ count: xs.length, longest: xs.length ? Math.max(...xs) : 0, total: xs.reduce((a, b) => a + b, 0) });

export async function run(): Promise<BenchSection> {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  const first = firstLoadGzip(join(root, 'dist'));
  const server = await startServer({ port: 0, quiet: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const rows: BenchRow[] = [{ metric: 'first-load JS (gzip)', value: Math.round(first.bytes / 102.4) / 10, unit: 'KB', note: first.files.join(', ') }];
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.addInitScript(() => {
      const w = window as unknown as { __lt: number[] };
      w.__lt = [];
      new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__lt.push(e.duration))).observe({ type: 'longtask', buffered: true });
    });
    const events = syntheticRun({ runId: 'bench-10k', targetEvents: 10_000 });
    const sse = events.filter((e) => e.type === 'sse-event').length;
    const dir = mkdtempSync(join(tmpdir(), 'a2a-bench-'));
    const file = join(dir, 'ten-k.json');
    writeFileSync(file, JSON.stringify(buildReport(applyEvents(initialRunState(), events), events)));

    const t0 = Date.now();
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Run conformance' }).waitFor();
    rows.push({ metric: 'first paint of the Run view', value: Date.now() - t0, unit: 'ms', note: 'page.goto to heading visible' });
    const load = stat(await longTasks(page));
    rows.push({ metric: 'longest task while loading the app', value: Math.round(load.longest), unit: 'ms' });

    await page.getByLabel('Open a JSON report').setInputFiles(file);
    await page.waitForURL(/\/runs\/bench-10k$/);
    await page.getByRole('status', { name: 'Conformance level' }).waitFor();
    const open = stat(await longTasks(page));
    rows.push({
      metric: 'open 10k-event report: longest task',
      value: Math.round(open.longest),
      unit: 'ms',
      note: 'parse + validate + IndexedDB + first render, one-off',
    });

    const before = await heapMb(page);
    const replayStart = Date.now();
    await page.getByRole('button', { name: 'Replay live' }).click();
    await page.getByText('Run: Completed').waitFor({ timeout: 60_000 });
    const replayMs = Date.now() - replayStart;
    const live = stat(await longTasks(page));
    const after = await heapMb(page);
    rows.push(
      {
        metric: `live: ${events.length} events (${sse} SSE) pushed through the store`,
        value: replayMs,
        unit: 'ms',
        note: 'paced over ~5 s, batched per frame',
      },
      { metric: 'live: longest main-thread task', value: Math.round(live.longest), unit: 'ms' },
      { metric: 'live: long tasks (> 50 ms)', value: live.count, note: `total ${Math.round(live.total)} ms` },
      { metric: 'JS heap before / after the live run', value: `${before.heap.toFixed(1)} / ${after.heap.toFixed(1)}`, unit: 'MB', note: 'after GC' },
      { metric: 'DOM nodes after the live run', value: after.nodes, note: 'virtualized timeline' },
    );

    const scroller = page.getByRole('region', { name: 'Timeline' }).locator('.timeline-scroll');
    for (let i = 0; i < 40; i++) {
      await scroller.evaluate((el, step) => (el.scrollTop = step * 7000), i);
      await page.waitForTimeout(16);
    }
    const scroll = stat(await longTasks(page));
    rows.push({
      metric: 'scroll the 10k timeline: longest task',
      value: Math.round(scroll.longest),
      unit: 'ms',
      note: `${scroll.count} long tasks in 40 jumps`,
    });

    // A real run against the v1 demo agent, through the proxy.
    const demo = server.agents.find((a) => a.id === 'v1');
    if (demo) {
      await page.goto(server.url);
      await page.getByLabel('Agent URL', { exact: true }).fill(demo.baseUrl);
      await longTasks(page);
      const rs = Date.now();
      await page.getByRole('button', { name: 'Run conformance' }).click();
      await page.getByText('Run: Completed').waitFor({ timeout: 120_000 });
      const realMs = Date.now() - rs;
      const real = stat(await longTasks(page));
      const count = await page.evaluate(() => document.querySelector('.timeline-meta')?.textContent ?? '');
      rows.push(
        { metric: 'real run vs v1 demo agent: wall time', value: realMs, unit: 'ms', note: count },
        { metric: 'real run: longest main-thread task', value: Math.round(real.longest), unit: 'ms' },
      );
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return {
    title: 'Dashboard (Chromium, 2 cores)',
    rows,
    notes: ['Long tasks are main-thread tasks over 50 ms (PerformanceObserver longtask).'],
  };
}
