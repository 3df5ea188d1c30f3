import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Architecture boundaries (Playwright's check_deps idea, inside Vitest):
 * - src/engine: pure. Only zod, eventsource-parser, jose and canonicalize (card signatures), ipaddr.js (security review) and itself. No React, no DOM, no node: modules.
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
  { dir: 'engine', packages: ['zod', 'eventsource-parser', 'jose', 'canonicalize', 'ipaddr.js'], internal: ['engine'] },
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
  for (let m; (m = re.exec(src));) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/**
 * The dashboard's layers (src/app/README.md): src/app composes features; a feature (src/features/<name>) imports only
 * itself, the shared layers (src/lib, src/components) and the pure ones (src/engine, src/exporters), never another
 * feature or src/app (feature tests may also use src/testing); src/lib and src/components import no feature and not
 * src/app (src/lib is also the bridge to the hosts). Packages are not restricted here (the bundle decides); eslint.config.js enforces the same paths.
 */
const UI_LAYERS = ['features', 'lib', 'components'] as const;
const SHARED = ['lib', 'components', 'engine', 'exporters'];

/** Violations of the UI layering for one file (`file` relative to src, e.g. 'features/run/run-form.tsx'). */
function uiImportViolations(file: string, specs: readonly string[]): string[] {
  const [layer, feature] = file.split('/');
  if (!UI_LAYERS.includes(layer as (typeof UI_LAYERS)[number])) return [];
  const isTest = /\.test\.tsx?$/.test(file);
  const out: string[] = [];
  for (const spec of specs) {
    if (!spec.startsWith('.')) continue;
    const target = relative(root, resolve(root, dirname(file), spec))
      .split(sep)
      .join('/');
    const [tLayer, tFeature] = target.split('/');
    if (tLayer === 'app') out.push(`${file} imports ${spec}: src/app composes the UI, nothing imports it`);
    else if (tLayer === 'features' && (layer !== 'features' || tFeature !== feature)) {
      out.push(
        `${file} imports ${spec}: ${layer === 'features' ? `feature ${feature} imports feature ${tFeature}` : `src/${layer} imports feature ${tFeature}`}`,
      );
    } else if (layer !== 'features' || tLayer === 'features' || (tLayer !== undefined && SHARED.includes(tLayer)) || (isTest && tLayer === 'testing')) continue;
    else out.push(`${file} imports ${spec}: outside ${['its own feature', ...SHARED].join(', ')}`);
  }
  return out;
}

describe('architecture boundaries', () => {
  for (const rule of RULES) {
    it(`src/${rule.dir} imports only what it may`, () => {
      const files = walk(join(root, rule.dir)).filter((f) => !/\.test\.tsx?$/.test(f) && !(rule.exempt && rule.exempt.test(relative(root, f))));
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

  it('a feature imports no other feature and not src/app; src/lib and src/components import no feature', () => {
    const files = UI_LAYERS.flatMap((l) => walk(join(root, l))).map((f) => relative(root, f).split(sep).join('/'));
    expect(files.filter((f) => f.startsWith('features/')).length).toBeGreaterThan(20);
    const violations = files.flatMap((f) => uiImportViolations(f, importsOf(readFileSync(join(root, f), 'utf8'))));
    expect(violations).toEqual([]);
  });

  it('the UI rule catches a feature importing another feature, src/app or a host, and allows its own files and shared layers', () => {
    expect(uiImportViolations('features/run/run-form.tsx', ['../results/filter', '../../features/card', '../../app/app', '../../hosts/browser'])).toEqual([
      'features/run/run-form.tsx imports ../results/filter: feature run imports feature results',
      'features/run/run-form.tsx imports ../../features/card: feature run imports feature card',
      'features/run/run-form.tsx imports ../../app/app: src/app composes the UI, nothing imports it',
      'features/run/run-form.tsx imports ../../hosts/browser: outside its own feature, lib, components, engine, exporters',
    ]);
    expect(
      uiImportViolations('features/run/run-form.tsx', [
        './credentials',
        '../run/use-debounced',
        '../../lib/url',
        '../../components/notice',
        '../../engine/report/compare',
        '../../exporters/common',
        'react',
      ]),
    ).toEqual([]);
    expect(uiImportViolations('lib/queries.ts', ['../features/run'])).toEqual(['lib/queries.ts imports ../features/run: src/lib imports feature run']);
    // src/testing only from tests; src/app itself may import features.
    expect(uiImportViolations('features/run/x.test.tsx', ['../../testing/fake-host'])).toEqual([]);
    expect(uiImportViolations('features/run/x.tsx', ['../../testing/fake-host'])).toHaveLength(1);
    expect(uiImportViolations('app/app.tsx', ['../features/run'])).toEqual([]);
  });

  it('the rule itself catches a forbidden import', () => {
    expect(importsOf("import { useState } from 'react';\nimport x from './y';")).toEqual(['react', './y']);
    expect(importsOf("const m = await import('node:fs');")).toEqual(['node:fs']);
  });
});
