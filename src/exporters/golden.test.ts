/**
 * Golden files: every format on fixed reports, compared byte for byte with `__golden__/`.
 * After a deliberate change to an export (or to the engine's report builder), regenerate and review the diff:
 *
 *   UPDATE_GOLDEN=1 npx vitest run src/exporters/golden.test.ts && git diff src/exporters/__golden__
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../engine/model/report';
import { conformantReport, hostileReport, sampleReport, unreachableReport } from '../testing/fixtures/reports';
import { EXPORT_FORMATS, exportReport } from './index';

const dir = join(__dirname, '__golden__');
const update = process.env.UPDATE_GOLDEN === '1';

function expectGolden(name: string, body: string): void {
  const file = join(dir, name);
  if (update) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, body, 'utf8');
    return;
  }
  if (!existsSync(file)) throw new Error(`Golden file ${name} is missing: run UPDATE_GOLDEN=1 npx vitest run src/exporters/golden.test.ts`);
  const expected = readFileSync(file, 'utf8');
  // Compare line by line first so a mismatch names the first differing line, not a 40 KB blob.
  const a = body.split('\n');
  const b = expected.split('\n');
  const first = a.findIndex((line, i) => line !== b[i]);
  expect({ firstDifferentLine: first === -1 && a.length === b.length ? -1 : first + 1, line: a[first]?.slice(0, 300) }).toEqual({
    firstDifferentLine: -1,
    line: undefined,
  });
  expect(body).toBe(expected);
}

/**
 * SARIF goldens keep only the rule ids of `tool.driver.rules` (the rules are the check catalogue's text,
 * 0.5 MB that changes with every recommendation; sarif.test.ts checks them against the catalogue).
 */
function goldenBody(format: string, body: string): string {
  if (format !== 'sarif') return body;
  const log = JSON.parse(body) as { runs: { tool: { driver: { rules?: { id: string }[] } } }[] };
  for (const run of log.runs) run.tool.driver.rules = run.tool.driver.rules?.map((r) => ({ id: r.id }));
  return `${JSON.stringify(log, null, 2)}\n`;
}

const EXT = { json: 'json', markdown: 'md', junit: 'junit.xml', html: 'html', sarif: 'sarif' } as const;
const FIXTURES: [string, () => Report][] = [
  ['sample', sampleReport],
  ['hostile', hostileReport],
  ['conformant', conformantReport],
];

describe('golden exports', () => {
  for (const [name, make] of FIXTURES) {
    for (const format of EXPORT_FORMATS) {
      it(`${name} as ${format} matches __golden__/${name}.${EXT[format]}`, () => {
        const { file, fallback } = exportReport(make(), format);
        expect(fallback).toBeUndefined();
        expectGolden(`${name}.${EXT[format]}`, goldenBody(format, file.body));
      });
    }
  }

  // The HTML report's not-assessed first screen (NOT ASSESSED and why, no grade).
  it('unreachable as html matches __golden__/not-assessed.html', () => {
    const { file, fallback } = exportReport(unreachableReport(), 'html');
    expect(fallback).toBeUndefined();
    expectGolden('not-assessed.html', file.body);
  });

  it('is deterministic: the same report exports to the same bytes', () => {
    for (const format of EXPORT_FORMATS) {
      expect(exportReport(sampleReport(), format).file.body).toBe(exportReport(sampleReport(), format).file.body);
    }
  });
});
