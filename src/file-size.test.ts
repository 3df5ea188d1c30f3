import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Files under src (.ts, .tsx, .mts) stay under 450 lines (tangled files get split along their seams), unless the file
 * is a list of independent entries (spec data, catalogues of test cases) and says so in its header.
 */
const ROOT = import.meta.dirname;
const LIMIT = 450;
const HEADER_LINES = 20;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(tsx?|mts)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The offenders among `entries` (path -> text): over the limit without the header that says "independent entries/cases". */
export function oversized(entries: [string, string][]): string[] {
  return entries
    .filter(([, text]) => text.split('\n').length > LIMIT)
    .filter(([, text]) => !/lists? of independent[\s*]+(entries|test[\s*]+cases)/i.test(text.split('\n').slice(0, HEADER_LINES).join('\n')))
    .map(([path]) => path);
}

describe('file size in src', () => {
  it('no file is over 450 lines unless its header says it is a list of independent entries', () => {
    const entries = files(ROOT).map((f): [string, string] => [relative(ROOT, f), readFileSync(f, 'utf8')]);
    expect(entries.length).toBeGreaterThan(300);
    expect(entries.some(([path]) => path.startsWith('engine'))).toBe(true);
    expect(oversized(entries)).toEqual([]);
  });

  it('the rule notices a long file without the header, and accepts one with it', () => {
    const long = Array.from({ length: LIMIT + 1 }, (_, i) => `const x${i} = ${i};`).join('\n');
    expect(oversized([['tangled.ts', long]])).toEqual(['tangled.ts']);
    expect(oversized([['short.ts', 'const a = 1;']])).toEqual([]);
    expect(oversized([['data.ts', `/** A list of independent entries, one per check. */\n${long}`]])).toEqual([]);
    // The sentence may wrap in a block comment.
    expect(oversized([['cases.test.ts', `/**\n * Probes: a list of independent\n * test cases, one per attack.\n */\n${long}`]])).toEqual([]);
    expect(oversized([['late.ts', `${'// x\n'.repeat(HEADER_LINES)}/** A list of independent entries. */\n${long}`]])).toEqual(['late.ts']);
  });
});
