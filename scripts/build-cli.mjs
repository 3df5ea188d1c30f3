#!/usr/bin/env node
/**
 * Builds what `npm pack` ships besides README, LICENSE and the report schema (see package.json `files`):
 *
 *   dist-cli/bin.mjs         the `a2a-interop` command: a few lines that check the Node version, turn on
 *                            Node's compile cache where there is one (22.1+) and import cli.mjs.
 *   dist-cli/cli.mjs         src/cli/main.ts bundled with the engine, the exporters and their libraries
 *                            (zod included), Node 20 ESM, minified, no tsx at run time. Dynamic imports of
 *                            literal paths (`mcp`, `run-many`, ...) become chunks under dist-cli/chunks/,
 *                            loaded only when that command runs. gRPC (@grpc/grpc-js, protobufjs and the
 *                            spec's a2a.proto as the JSON descriptor src/grpc/a2a-descriptor.json) is one such
 *                            chunk, loaded on a run's first gRPC call: no .proto file ships.
 *   dist-cli/index.mjs       the library (`import { checkAgent, exportReport } from 'a2a-interop'`),
 *                            src/package/index.ts bundled with the package's `dependencies` left external
 *                            (zod and eventsource-parser: the declarations import their types; the report
 *                            model is a set of zod schemas).
 *   dist-cli/types/          its declarations (tsc with tsconfig.package.json), relative specifiers
 *                            rewritten to explicit `.js` paths so `moduleResolution: node16/nodenext` resolves them.
 *
 * Usage: node scripts/build-cli.mjs [--outdir DIR] [--no-types] [--quiet]
 * (`npm run build` runs it after the dashboard build; `prepare` runs it on `npm pack`, `npm publish`, `npm ci` in a
 * checkout, and when npm installs the package from a git URL: `npm install github:<owner>/a2a-interop`.)
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
/** The package's runtime dependencies: left external in the library (its declarations import their types). */
const PACKAGE = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * CommonJS dependencies inside an ESM bundle (xmlbuilder2 and its @oozcitak helpers) call `require('url')`;
 * esbuild's ESM output has no `require`, so the bundle gets one.
 */
const REQUIRE_BANNER = "import { createRequire as __a2aCreateRequire } from 'node:module';\nconst require = __a2aCreateRequire(import.meta.url);";

/**
 * zod's `z.locales` re-exports every translation of its error messages (about 260 KB minified, a third of
 * what the command parses at start-up). Nothing here uses them; zod configures English by importing
 * `locales/en.js` directly, so the barrel is replaced by one that only offers English.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/]classic[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/** Relative specifiers in emitted .d.ts files made explicit (`./x` -> `./x.js` or `./x/index.js`). */
export function rewriteDeclarationSpecifiers(dir) {
  const files = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.d.ts')) files.push(p);
    }
  };
  walk(dir);
  const spec = /((?:from|import)\s*\(?\s*)(['"])(\.{1,2}(?:\/[^'"]*)?)\2/g;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const out = text.replace(spec, (whole, lead, q, s) => {
      if (/\.(?:m?js|json)$/.test(s)) return whole;
      const target = resolve(dirname(file), s);
      if (existsSync(`${target}.d.ts`)) return `${lead}${q}${s}.js${q}`;
      if (existsSync(join(target, 'index.d.ts'))) return `${lead}${q}${s.replace(/\/$/, '')}/index.js${q}`;
      throw new Error(`${relative(root, file)}: cannot resolve the declaration import ${s}`);
    });
    if (out !== text) writeFileSync(file, out);
  }
  return files.length;
}

/** dist-cli/bin.mjs. main.ts starts itself when process.argv[1] is the command (bin.mjs or the `a2a-interop` link). */
const BIN = `#!/usr/bin/env node
// The a2a-interop command (written by scripts/build-cli.mjs; the CLI itself is ./cli.mjs).
import module from 'node:module';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(\`a2a-interop needs Node.js 20.19 or newer; this is \${process.version}.\\n\`);
  process.exit(2);
}
// Node 22.1+ keeps compiled code between runs (NODE_DISABLE_COMPILE_CACHE=1 turns it off); older Nodes compile each time.
try {
  module.enableCompileCache?.();
} catch {
  /* a read-only or missing cache directory only costs speed */
}
await import('./cli.mjs');
`;

export async function buildCli({ outdir = join(root, 'dist-cli'), types = true, quiet = false } = {}) {
  const started = performance.now();
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  const common = {
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minify: true,
    // Readable stack traces from the command ("a bug in the tool" messages print them).
    keepNames: true,
    legalComments: 'linked',
    banner: { js: REQUIRE_BANNER },
    logLevel: 'warning',
    absWorkingDir: root,
  };
  const cli = await build({
    ...common,
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    plugins: [zodEnglishOnly],
    metafile: true,
  });
  const lib = await build({
    ...common,
    entryPoints: { index: 'src/package/index.ts' },
    outdir,
    outExtension: { '.js': '.mjs' },
    external: Object.keys(PACKAGE.dependencies ?? {}),
    metafile: true,
  });
  const binPath = join(outdir, 'bin.mjs');
  writeFileSync(binPath, BIN);
  chmodSync(binPath, 0o755);

  let declarations = 0;
  if (types) {
    const tsc = require.resolve('typescript/bin/tsc');
    // --noCheck: declarations only; `npm run typecheck` is where the types are checked.
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.package.json'), '--noCheck', '--outDir', join(outdir, 'types')], {
      cwd: root,
      stdio: 'inherit',
    });
    declarations = rewriteDeclarationSpecifiers(join(outdir, 'types'));
  }
  const size = (meta) => Object.values(meta.outputs).reduce((n, o) => n + o.bytes, 0);
  const summary = {
    outdir,
    cliBytes: size(cli.metafile),
    cliFiles: Object.keys(cli.metafile.outputs).filter((f) => f.endsWith('.mjs')).length,
    libBytes: size(lib.metafile),
    declarations,
    ms: Math.round(performance.now() - started),
  };
  if (!quiet) {
    console.log(
      `dist-cli: cli.mjs + ${summary.cliFiles - 1} chunk(s) ${(summary.cliBytes / 1024).toFixed(0)} KB, index.mjs ${(summary.libBytes / 1024).toFixed(0)} KB, ${declarations} declaration files, ${summary.ms} ms -> ${relative(process.cwd(), outdir) || '.'}`,
    );
  }
  return summary;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { outdir: { type: 'string' }, 'no-types': { type: 'boolean' }, quiet: { type: 'boolean' } } });
  try {
    await buildCli({ outdir: values.outdir ? resolve(values.outdir) : undefined, types: !values['no-types'], quiet: !!values.quiet });
  } catch (e) {
    // esbuild and tsc have printed the details already.
    console.error(`build-cli failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    process.exitCode = 1;
  }
}
