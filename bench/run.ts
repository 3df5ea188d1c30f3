/**
 * `npm run bench`: runs every bench/*.bench.ts module, prints one table per section and appends the
 * figures to bench/results.md so changes show in history. Figures only; nothing here asserts timings.
 *
 * A bench module exports `run(): Promise<BenchSection>`.
 */
import { appendFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

export interface BenchRow {
  metric: string;
  value: number | string;
  unit?: string;
  note?: string;
}
export interface BenchSection {
  title: string;
  rows: BenchRow[];
  notes?: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);

const fmt = (v: number | string) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1)) : v);

function table(section: BenchSection): string {
  const lines = [`### ${section.title}`, '', '| metric | value | unit | note |', '| --- | ---: | --- | --- |'];
  for (const r of section.rows) lines.push(`| ${r.metric} | ${fmt(r.value)} | ${r.unit ?? ''} | ${r.note ?? ''} |`);
  for (const n of section.notes ?? []) lines.push('', `> ${n}`);
  return lines.join('\n');
}

const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const sections: string[] = [];
for (const f of files) {
  const mod = (await import(join(here, f))) as { run: () => Promise<BenchSection> };
  process.stderr.write(`running ${f}...\n`);
  try {
    const section = await mod.run();
    const t = table(section);
    console.log(`\n${t}`);
    sections.push(t);
  } catch (e) {
    const msg = `### ${f}\n\nFAILED: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`;
    console.log(`\n${msg}`);
    sections.push(msg);
    process.exitCode = 1;
  }
}
const results = join(here, 'results.md');
if (!existsSync(results)) writeFileSync(results, '# Benchmark results\n\nAppended by `npm run bench`; newest last.\n');
const header = `\n## ${new Date().toISOString()} (node ${process.version}, ${os.cpus().length} cpus${only.length ? `, only: ${only.join(' ')}` : ''})\n`;
appendFileSync(results, `${header}\n${sections.join('\n\n')}\n`);
console.log(`\nAppended to bench/results.md`);
