import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Architecture boundaries (Playwright's check_deps idea, inside Vitest):
 * - src/engine: pure. Only zod, eventsource-parser and itself. No React, no DOM, no node: modules.
 * - src/exporters: pure functions over reports. Engine, zod, xmlbuilder2.
 * - src/proxy (handler side): Web-standard only. Engine model, ipaddr.js.
 * Test files (*.test.ts) are exempt: they may start servers.
 */
const root = resolve(__dirname);

interface Rule {
  dir: string;
  packages: string[];
  /** Source directories (relative to src) that files in `dir` may import from. */
  internal: string[];
  /** Files exempt from this rule (adapters that live beside the handler). */
  exempt?: RegExp;
}

const RULES: Rule[] = [
  { dir: 'engine', packages: ['zod', 'eventsource-parser'], internal: ['engine'] },
  // `sarif` is @types/sarif: type-only imports (sarif.ts), nothing at run time.
  { dir: 'exporters', packages: ['zod', 'xmlbuilder2', 'sarif'], internal: ['exporters', 'engine'] },
  {
    dir: 'proxy',
    packages: ['ipaddr.js'],
    internal: ['proxy', 'engine/model'],
    // Host adapters (Node http, Vite, Workers entry) wrap the pure handler and may use their platform.
    exempt: /(^|\/)(node|vite|dev-server|server)[^/]*\.ts$/,
  },
];

const FORBIDDEN_GLOBALS = /\b(window|document|localStorage|sessionStorage|indexedDB|navigator)\s*[.[]/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|tsx|mts)$/.test(name) ? [p] : [];
  });
}

function importsOf(src: string): string[] {
  const out: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  for (let m; (m = re.exec(src)); ) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

describe('architecture boundaries', () => {
  for (const rule of RULES) {
    it(`src/${rule.dir} imports only what it may`, () => {
      const files = walk(join(root, rule.dir)).filter(
        (f) => !/\.test\.tsx?$/.test(f) && !(rule.exempt && rule.exempt.test(relative(root, f))),
      );
      expect(files.length).toBeGreaterThan(0);
      const violations: string[] = [];
      for (const file of files) {
        const src = readFileSync(file, 'utf8');
        for (const spec of importsOf(src)) {
          if (spec.startsWith('.')) {
            const target = relative(root, resolve(dirname(file), spec));
            if (!rule.internal.some((d) => target === d || target.startsWith(`${d}/`))) {
              violations.push(`${relative(root, file)} imports ${spec} (outside ${rule.internal.join(', ')})`);
            }
          } else if (!rule.packages.some((p) => spec === p || spec.startsWith(`${p}/`))) {
            violations.push(`${relative(root, file)} imports package ${spec}`);
          }
        }
        if (rule.dir !== 'proxy' || !rule.exempt?.test(file)) {
          const code = src.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
          const g = FORBIDDEN_GLOBALS.exec(code);
          if (g) violations.push(`${relative(root, file)} uses the browser global ${g[1]}`);
        }
      }
      expect(violations).toEqual([]);
    });
  }

  it('the rule itself catches a forbidden import', () => {
    expect(importsOf("import { useState } from 'react';\nimport x from './y';")).toEqual(['react', './y']);
    expect(importsOf("const m = await import('node:fs');")).toEqual(['node:fs']);
  });
});
