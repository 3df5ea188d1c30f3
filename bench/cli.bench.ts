/**
 * CLI start-up (issue 13: "`a2a-interop checks` within 0.3 s of a bare `node -e 0`"), side by side:
 * a bare Node, the bundled command the package ships (dist-cli/bin.mjs, built fresh into a temp folder),
 * and the old path through tsx (src/cli/bin.mjs, what `bin` pointed at before the bundle).
 * Runs are interleaved so a busy machine slows every variant alike; CPU time (user + sys of the child,
 * from /proc on Linux) is printed beside the wall time because it moves less with the machine's load.
 *
 * Run: npm run bench -- cli
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchRow, BenchSection } from './run';

const RUNS = 15;
const BUDGET_MS = 300;
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** User + system CPU of this process's waited-for children so far, in ms (Linux), else undefined. */
function childrenCpuMs(): number | undefined {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th (clock ticks, 100 per second).
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Bytes of JavaScript `node <file>` loads before running: the file and its static imports, not `import()` chunks. */
function staticBytes(file: string, seen = new Set<string>()): number {
  if (seen.has(file)) return 0;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  // Static imports in esbuild's output: `import ... from "./x.mjs"` / `import "./x.mjs"`; `import("./x.mjs")` is lazy.
  const deps = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*)(["'])(\.{1,2}\/[^"']+)\1/g)].map((m) => join(dirname(file), m[2]!));
  return statSync(file).size + deps.reduce((n, d) => n + staticBytes(d, seen), 0);
}

interface Variant {
  name: string;
  args: string[];
  note: string;
  wall: number[];
  cpu: number[];
}

export async function run(): Promise<BenchSection> {
  const out = mkdtempSync(join(tmpdir(), 'a2a-cli-bench-'));
  try {
    const built = spawnSync(process.execPath, [join(repo, 'scripts/build-cli.mjs'), '--outdir', out, '--no-types', '--quiet'], { cwd: repo, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`build-cli failed: ${built.stderr}`);
    const bin = join(out, 'bin.mjs');
    const variants: Variant[] = [
      { name: 'node -e 0', args: ['-e', '0'], note: 'the floor', wall: [], cpu: [] },
      {
        name: 'a2a-interop checks (bundle)',
        args: [bin, 'checks'],
        note: `dist-cli/bin.mjs, then cli.mjs and its static chunks: ${((staticBytes(bin) + staticBytes(join(out, 'cli.mjs'))) / 1024).toFixed(0)} KB of JS`,
        wall: [],
        cpu: [],
      },
      {
        name: 'a2a-interop checks (tsx, before)',
        args: [join(repo, 'src/cli/bin.mjs'), 'checks'],
        note: 'src/cli/bin.mjs: TypeScript through tsx',
        wall: [],
        cpu: [],
      },
    ];
    const once = (v: Variant) => {
      const cpu0 = childrenCpuMs();
      const t0 = performance.now();
      const r = spawnSync(process.execPath, v.args, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
      const wall = performance.now() - t0;
      const cpu1 = childrenCpuMs();
      if (r.status !== 0) throw new Error(`${v.name} exited ${r.status}: ${r.stderr.slice(0, 2000)}`);
      if (v.args[1] === 'checks' && !/^card\.discovery\s/m.test(r.stdout)) throw new Error(`${v.name} did not print the catalogue`);
      return { wall, cpu: cpu0 !== undefined && cpu1 !== undefined ? cpu1 - cpu0 : undefined };
    };
    for (const v of variants) once(v); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      for (const v of variants) {
        const s = once(v);
        v.wall.push(s.wall);
        if (s.cpu !== undefined) v.cpu.push(s.cpu);
      }
    }
    const rows: BenchRow[] = [];
    for (const v of variants) {
      rows.push({
        metric: `${v.name}, median of ${RUNS}`,
        value: median(v.wall),
        unit: 'ms',
        note: `${v.note}${v.cpu.length ? `; CPU ${median(v.cpu).toFixed(0)} ms` : ''}`,
      });
    }
    const [floor, bundle, tsx] = variants.map((v) => median(v.wall)) as [number, number, number];
    const overFloor = bundle - floor;
    rows.push({
      metric: 'bundle start-up over node -e 0',
      value: overFloor,
      unit: 'ms',
      note: `${overFloor <= BUDGET_MS ? 'within' : 'OVER'} the ${BUDGET_MS} ms budget${variants[0]!.cpu.length ? `; CPU ${(median(variants[1]!.cpu) - median(variants[0]!.cpu)).toFixed(0)} ms over` : ''}`,
    });
    rows.push({ metric: 'tsx path / bundle', value: tsx / bundle, unit: 'x', note: `${(tsx - bundle).toFixed(0)} ms saved per invocation` });
    return {
      title: 'CLI start-up: a2a-interop checks vs node -e 0',
      rows,
      notes: [
        `Interleaved runs (${RUNS} of each, after one warm-up). The bundle is built by scripts/build-cli.mjs (esbuild, minified, zod's translations left out); npx adds npm's own start-up on top of these figures.`,
      ],
    };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
