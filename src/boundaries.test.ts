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

/**
 * The layers inside src/engine, lowest first (docs/architecture.md, "Layers inside the engine"): a file may import
 * its own directory and the layers below it, never one above, nor a peer in its own layer (the doors session and
 * runner do not lean on each other). Each entry names directories of src/engine (or its root files without
 * extension); a file in no layer is a violation too, so a new directory is placed before it is used.
 */
export const ENGINE_LAYERS: readonly (readonly string[])[] = [
  ['util'],
  ['model'],
  ['spec'],
  ['ports', 'redact'],
  ['http'],
  ['protocol'],
  ['card'],
  ['auth'],
  ['target'],
  ['judges'],
  ['checks'],
  ['state'],
  ['report'],
  ['session', 'runner'],
  // The narrow entry points (discoverCard, judgeCard) over the front door and the card phase.
  ['api'],
  // The tap judges a served card as judgeCard does and exchanges as the session does; index is the public surface.
  ['tap', 'index'],
];

/**
 * Imports of a lower layer that are still wrong: what a door judges with is src/engine/judges (the pure rules the
 * checks use too), never a check's internals.
 */
export const ENGINE_FORBIDDEN: readonly { from: string; to: string; why: string }[] = [
  { from: 'session', to: 'checks', why: 'a session judges with src/engine/judges, never with a check or its fixtures' },
  { from: 'tap', to: 'checks', why: 'the tap judges with src/engine/judges (and a card with api.ts judgeCard), never with a check' },
];

/**
 * Wrong-way imports still allowed, each named by file and target with why and what removes it. This list only
 * shrinks: remove an entry as soon as its import is gone (the test fails on an entry that matches nothing).
 */
export const LAYER_ALLOW: readonly { file: string; imports: string; why: string }[] = [
  // Empty: the last one (tap/target.ts -> api, the tap resolving its agent with api.ts discoverCard) went when the tap
  // took the front door (src/engine/target inspectTarget). Add one only with its why and what will remove it.
];

const layerIndex = (unit: string): number => ENGINE_LAYERS.findIndex((l) => l.includes(unit));
/** The layer unit of a path relative to src/engine: its first directory, or a root file's name without extension. */
const unitOf = (path: string): string => {
  const parts = path.split('/');
  return parts.length > 1 ? parts[0]! : parts[0]!.replace(/\.(ts|tsx|mts)$/, '');
};

/** Wrong-way imports of one engine file (`file` relative to src/engine, e.g. 'card/detect.ts'); `allow` as LAYER_ALLOW. */
export function engineLayerViolations(file: string, specs: readonly string[], allow: readonly { file: string; imports: string }[] = []): string[] {
  const from = unitOf(file);
  const mine = layerIndex(from);
  if (mine < 0) return [`${file}: src/engine/${from} is in no layer (add it to ENGINE_LAYERS and docs/architecture.md)`];
  const out: string[] = [];
  for (const spec of specs) {
    if (!spec.startsWith('.')) continue;
    const target = relative(join(root, 'engine'), resolve(join(root, 'engine'), dirname(file), spec))
      .split(sep)
      .join('/');
    if (target.startsWith('..')) continue; // outside the engine: the rules above judge it
    const to = unitOf(target);
    const theirs = layerIndex(to);
    const forbidden = ENGINE_FORBIDDEN.find((f) => f.from === from && f.to === to);
    if (to === from || (theirs >= 0 && theirs < mine && !forbidden)) continue;
    if (allow.some((a) => a.file === file && a.imports === to)) continue;
    const why = theirs < 0 ? `src/engine/${to} is in no layer` : forbidden ? forbidden.why : theirs === mine ? 'a peer in its layer' : 'a higher layer';
    out.push(`${file} imports ${spec}: ${from} may not import ${to} (${why})`);
  }
  return out;
}

/** Resolves a relative import of `file` (absolute) to a file in `files`, as TypeScript would (extension, index, .js). */
function resolveImport(file: string, spec: string, files: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(file), spec);
  const stem = base.replace(/\.js$/, '');
  return [base, `${stem}.ts`, `${stem}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((c) => files.has(c));
}

/** The import cycles of a graph (file -> files it imports): every strongly connected set of two or more, and self-imports. */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      scc.push(w);
      if (w === v) break;
    }
    if (scc.length > 1 || graph.get(v)?.includes(v)) cycles.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles;
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

describe('layers inside the engine and import cycles', () => {
  const engine = join(root, 'engine');
  const engineFiles = walk(engine)
    .map((f) => relative(engine, f).split(sep).join('/'))
    .filter((f) => !/\.test\.tsx?$/.test(f));

  it('no file of src/engine imports a higher layer (docs/architecture.md), but for the shrinking LAYER_ALLOW', () => {
    expect(engineFiles.length).toBeGreaterThan(100);
    const violations = engineFiles.flatMap((f) => engineLayerViolations(f, importsOf(readFileSync(join(engine, f), 'utf8')), LAYER_ALLOW));
    expect(violations).toEqual([]);
    // Every allowance still matches an import: a stale one is removed, not kept.
    const stale = LAYER_ALLOW.filter(
      (a) => !engineFiles.includes(a.file) || engineLayerViolations(a.file, importsOf(readFileSync(join(engine, a.file), 'utf8'))).length === 0,
    );
    expect(stale).toEqual([]);
  });

  it('the layer rule catches a wrong-way import inside the engine, allows downward ones, and places every directory', () => {
    expect(engineLayerViolations('card/detect.ts', ['../checks/define', '../model/check', './normalize', 'zod'])).toEqual([
      'card/detect.ts imports ../checks/define: card may not import checks (a higher layer)',
    ]);
    expect(engineLayerViolations('checks/setups/tasks.ts', ['../../runner/run', '../../target', '../../judges/stream-end', '../../util/json'])).toEqual([
      'checks/setups/tasks.ts imports ../../runner/run: checks may not import runner (a higher layer)',
    ]);
    expect(engineLayerViolations('runner/run.ts', ['../checks', '../report/build', '../target', './check-result'])).toEqual([]);
    // Doors do not lean on each other, and a session judges with the judges, not a check's internals.
    expect(engineLayerViolations('session/open.ts', ['../runner/options', '../checks/setups/stream', '../judges', '../target'])).toEqual([
      'session/open.ts imports ../runner/options: session may not import runner (a peer in its layer)',
      'session/open.ts imports ../checks/setups/stream: session may not import checks (a session judges with src/engine/judges, never with a check or its fixtures)',
    ]);
    expect(engineLayerViolations('auth/client.ts', ['../runner/options'])).toEqual([
      'auth/client.ts imports ../runner/options: auth may not import runner (a higher layer)',
    ]);
    expect(engineLayerViolations('api.ts', ['./runner/run', './checks/define'])).toEqual([]);
    expect(engineLayerViolations('newdir/x.ts', ['../model/check'])).toEqual([
      'newdir/x.ts: src/engine/newdir is in no layer (add it to ENGINE_LAYERS and docs/architecture.md)',
    ]);
    expect(engineLayerViolations('checks/x.ts', ['../newdir/y'])).toEqual([
      'checks/x.ts imports ../newdir/y: checks may not import newdir (src/engine/newdir is in no layer)',
    ]);
    // An allowance lets exactly its file and target through.
    const allow = [{ file: 'card/detect.ts', imports: 'checks' }];
    expect(engineLayerViolations('card/detect.ts', ['../checks/define'], allow)).toEqual([]);
    expect(engineLayerViolations('card/normalize.ts', ['../checks/define'], allow)).toHaveLength(1);
    // Every directory of the engine is in a layer.
    const units = [...new Set(engineFiles.map(unitOf))];
    expect(units.filter((u) => layerIndex(u) < 0)).toEqual([]);
  });

  it('no import cycle anywhere in src (type-only imports count)', () => {
    const files = walk(root).filter((f) => !/\.d\.ts$/.test(f));
    const set = new Set(files);
    const graph = new Map(
      files.map((f) => [
        f,
        importsOf(readFileSync(f, 'utf8'))
          .filter((s) => s.startsWith('.'))
          .flatMap((s) => resolveImport(f, s, set) ?? []),
      ]),
    );
    expect(files.length).toBeGreaterThan(300);
    expect(importCycles(graph).map((c) => c.map((f) => relative(root, f)).join(' -> '))).toEqual([]);
  });

  it('the cycle rule finds a cycle through type-only imports and a self-import, and passes a tree', () => {
    expect(importsOf("import type { A } from './a';\nexport type { B } from './b';")).toEqual(['./a', './b']);
    const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges));
    expect(importCycles(g({ card: ['extensions'], extensions: ['state'], state: ['card'], other: ['card'] }))).toEqual([['card', 'extensions', 'state']]);
    expect(importCycles(g({ a: ['a'] }))).toEqual([['a']]);
    expect(importCycles(g({ a: ['b', 'c'], b: ['c'], c: [] }))).toEqual([]);
  });
});
