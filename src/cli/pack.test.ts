/**
 * The package as a user gets it: `npm pack` of the built CLI and library, installed into an empty folder
 * with nothing from this repository on the module path, then run against a demo agent; the library and
 * its declarations used by a consumer; `npx --yes ./<tgz>` straight from the tarball.
 *
 * The bundle is built into a staging copy of the package (scripts/build-cli.mjs --outdir), so this test
 * never writes into the repository's dist-cli/ while other test runs may read it.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../server/main';

const repo = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  files: string[];
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  private?: boolean;
};
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' });
const haveNpm = npm.status === 0;
if (!haveNpm) console.warn('pack.test.ts skipped: npm is not on PATH (needed to pack and install the tarball)');

/** The environment of a user's shell: no npm_* variables of a surrounding `npm test`, nothing pointing into the repo. */
const userEnv = (() => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      v === undefined ||
      /^npm_/i.test(k) ||
      ['INIT_CWD', 'NODE_PATH', 'NODE_OPTIONS', 'VITEST', 'VITEST_WORKER_ID', 'VITEST_POOL_ID', 'TEST', 'NODE_ENV'].includes(k)
    )
      continue;
    env[k] = v;
  }
  env.npm_config_update_notifier = 'false';
  env.npm_config_fund = 'false';
  env.npm_config_audit = 'false';
  return env;
})();

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}
function run(cmd: string, args: string[], cwd: string, timeoutMs = 90_000): Promise<Ran> {
  return new Promise((done) => {
    execFile(cmd, args, { cwd, env: userEnv, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : -1) : 0;
      done({ code, stdout, stderr });
    });
  });
}
const ok = (r: Ran, what: string) => {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}\n${r.stderr.slice(-4000)}`);
  return r;
};

let work: string;
let stage: string;
let tgz: string;
let packedFiles: string[];
let app: string;
let server: RunningServer;

beforeAll(async () => {
  if (!haveNpm) return;
  work = mkdtempSync(join(tmpdir(), 'a2a-pack-'));
  stage = join(work, 'package');
  mkdirSync(join(stage, 'public'), { recursive: true });
  const started = startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 300, stepMs: 5, demoGrpc: true });
  // A staging copy of the package: what `files` names plus an unrelated file that must not be packed.
  ok(await run(process.execPath, [join(repo, 'scripts/build-cli.mjs'), '--outdir', join(stage, 'dist-cli'), '--quiet'], repo, 120_000), 'build-cli');
  for (const f of ['package.json', 'README.md', 'LICENSE', 'public/report.schema.json']) copyFileSync(join(repo, f), join(stage, f));
  writeFileSync(join(stage, 'vite.config.ts'), 'export default {}');
  const packed = ok(await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], stage), 'npm pack');
  const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no result: ${packed.stdout}`);
  tgz = join(work, info.filename);
  packedFiles = info.files.map((f) => f.path).sort();
  app = join(work, 'app');
  mkdirSync(app);
  ok(await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tgz], app), 'npm install <tgz>');
  server = await started;
}, 240_000);

afterAll(async () => {
  await server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const demo = (id: string) => `${server.url}/demo/${id}`;

describe.skipIf(!haveNpm)('npm pack of a2a-interop', () => {
  it('ships the bundle, the typed library, README, LICENSE and the report schema, and nothing else', () => {
    expect(pkg.private).toBeUndefined();
    expect(packedFiles).toContain('package.json');
    expect(packedFiles).toContain('README.md');
    expect(packedFiles).toContain('LICENSE');
    expect(packedFiles).toContain('public/report.schema.json');
    expect(packedFiles).toContain(pkg.bin['a2a-interop']!);
    expect(packedFiles).toContain('dist-cli/index.mjs');
    expect(packedFiles).toContain('dist-cli/types/package/index.d.ts');
    const stray = packedFiles.filter((f) => !['package.json', 'README.md', 'LICENSE', 'public/report.schema.json'].includes(f) && !f.startsWith('dist-cli/'));
    expect(stray).toEqual([]);
    expect(packedFiles.filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('installs into an empty folder with only its runtime dependencies (no tsx, no dashboard stack)', () => {
    const installed = readdirSync(join(app, 'node_modules'))
      .filter((n) => !n.startsWith('.'))
      .sort();
    expect(installed).toEqual(['a2a-interop', ...Object.keys(pkg.dependencies ?? {})].sort());
    expect(existsSync(join(app, 'node_modules/tsx'))).toBe(false);
    const pkgDir = join(app, 'node_modules/a2a-interop');
    expect(readFileSync(join(pkgDir, pkg.bin['a2a-interop']!), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    // Nothing in the installed code points back into this checkout or needs tsx.
    const code = packedFiles.filter((f) => f.endsWith('.mjs'));
    expect(code.length).toBeGreaterThanOrEqual(3);
    for (const f of code) {
      const text = readFileSync(join(pkgDir, f), 'utf8');
      expect(text.includes(repo), f).toBe(false);
      expect(text, f).not.toMatch(/(?:from|import)\s*\(?\s*["']tsx/);
    }
  });

  it('a2a-interop --version and checks run from the installed bin', async () => {
    const version = ok(await run(join(app, 'node_modules/.bin/a2a-interop'), ['--version'], app), '--version');
    expect(version.stdout.trim()).toBe(pkg.version);
    const checks = ok(await run(join(app, 'node_modules/.bin/a2a-interop'), ['checks', '--format', 'json'], app), 'checks');
    const list = JSON.parse(checks.stdout) as { id: string }[];
    expect(list.length).toBeGreaterThan(60);
    expect(list.map((c) => c.id)).toContain('card.discovery');
    // Exactly one catalogue: the entry point runs once however the bin is reached (symlink or file).
    const direct = ok(await run(process.execPath, [join(app, 'node_modules/a2a-interop', pkg.bin['a2a-interop']!), 'checks'], app), 'checks via node');
    expect(direct.stdout.match(/^card\.discovery\s/gm)).toHaveLength(1);
  });

  it('a2a-interop run judges a demo agent: full level and exit 0; a flawed agent is non-conformant with exit 1', async () => {
    const bin = join(app, 'node_modules/.bin/a2a-interop');
    const [clean, flawed, grpc] = await Promise.all([
      // The legacy demo (our test agent) is full; the SDK demos are partial since errors.invalid-params probes get/cancel too.
      run(bin, ['run', demo('legacy'), '--timeout', '10', '--quiet'], app),
      run(bin, ['run', demo('flawed'), '--timeout', '10', '--format', 'json', '--out', join(app, 'flawed.json')], app),
      // gRPC from the installed bundle (grpc-js and the a2a.proto descriptor in a lazily loaded chunk).
      run(bin, ['run', demo('v1'), '--binding', 'grpc', '--only', 'lifecycle.send', '--only', 'errors.grpc-status', '--timeout', '10', '--quiet'], app),
    ]);
    const viaGrpc = JSON.parse(grpc.stdout) as { protocol: { binding: string }; categories: Record<string, { id: string; status: string }[]> };
    expect(viaGrpc.protocol.binding, grpc.stderr).toBe('GRPC');
    expect(
      Object.values(viaGrpc.categories)
        .flat()
        .map((r) => `${r.id} ${r.status}`),
    ).toEqual(['lifecycle.send pass', 'errors.grpc-status pass']);
    expect(clean.code, clean.stderr).toBe(0);
    const report = JSON.parse(clean.stdout) as { conformanceLevel: string | null; tool: { name: string; version: string }; summary: { passed: number } };
    expect(report.conformanceLevel).toBe('full');
    expect(report.tool).toMatchObject({ name: 'a2a-interop', version: pkg.version });
    expect(report.summary.passed).toBeGreaterThan(20);

    expect(flawed.code, flawed.stderr).toBe(1);
    expect(flawed.stderr).toMatch(/Conformance level: non-conformant/);
    expect((JSON.parse(readFileSync(join(app, 'flawed.json'), 'utf8')) as { conformanceLevel: string }).conformanceLevel).toBe('non-conformant');
  });

  it('the library runs the suite and exports a report, and its declarations type-check a consumer', async () => {
    writeFileSync(
      join(app, 'use.mjs'),
      [
        "import { checkAgent, exportReport, reportResults, Report, CHECK_CATALOG, meetsLevel } from 'a2a-interop';",
        "import schema from 'a2a-interop/report.schema.json' with { type: 'json' };",
        'const report = await checkAgent({ agentUrl: process.argv[2], timeoutMs: 10_000, only: ["card.discovery"] });',
        'const md = exportReport(report, "markdown");',
        'console.log(JSON.stringify({ parsed: Report.safeParse(report).success, checks: CHECK_CATALOG.length, schema: typeof schema.$schema, md: md.file.filename, meets: meetsLevel("full", "partial"), ids: reportResults(report).map((r) => r.id) }));',
      ].join('\n'),
    );
    const used = ok(await run(process.execPath, ['use.mjs', demo('v03')], app), 'library consumer');
    const out = JSON.parse(used.stdout) as { parsed: boolean; checks: number; schema: string; md: string; meets: boolean; ids: string[] };
    expect(out).toMatchObject({ parsed: true, schema: 'string', meets: true });
    expect(out.checks).toBeGreaterThan(60);
    expect(out.md).toMatch(/\.md$/);
    expect(out.ids).toContain('card.discovery');
    expect(out.ids.length).toBeLessThan(out.checks);

    // Types: the declarations import only relative files that exist, the package's dependencies and Node's
    // modules (an unresolved import would quietly turn a type into `any` for consumers that skip lib checks).
    const deps = new Set(Object.keys(pkg.dependencies ?? {}));
    const declarations = packedFiles.filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    const unresolved: string[] = [];
    for (const f of declarations) {
      const code = readFileSync(join(app, 'node_modules/a2a-interop', f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      const specs = [...code.matchAll(/\bfrom\s*(['"])([^'"]+)\1|\bimport\s*\(\s*(['"])([^'"]+)\3\s*\)|^\s*import\s*(['"])([^'"]+)\5/gm)].map(
        (m) => (m[2] ?? m[4] ?? m[6])!,
      );
      for (const sp of specs) {
        if (sp.startsWith('.')) {
          if (!/\.js$/.test(sp) || !existsSync(join(app, 'node_modules/a2a-interop', dirname(f), sp.replace(/\.js$/, '.d.ts')))) unresolved.push(`${f}: ${sp}`);
        } else if (!deps.has(sp.startsWith('@') ? sp.split('/').slice(0, 2).join('/') : sp.split('/')[0]!) && !sp.startsWith('node:'))
          unresolved.push(`${f}: ${sp}`);
      }
    }
    expect(unresolved).toEqual([]);

    // A strict NodeNext consumer compiles, the README's library example included; a wrong call does not (the
    // declarations are not `any`). One compiler run for every file: every error must be the wrong call's.
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2023', 'dom'],
          // Node's types for the README example (node:fs, process.env), from this repository.
          typeRoots: [join(repo, 'node_modules/@types')],
          types: ['node'],
          noEmit: true,
          skipLibCheck: true,
        },
        files: ['typed.ts', 'wrong.ts', 'readme.ts'],
      }),
    );
    writeFileSync(join(app, 'package.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(app, 'package.json'), 'utf8')), type: 'module' }));
    writeFileSync(
      join(app, 'typed.ts'),
      [
        "import { checkAgent, exportReport, CHECK_CATALOG, type Report, type ConformanceLevel, type ExportFormat } from 'a2a-interop';",
        'export async function level(url: string, format: ExportFormat): Promise<[ConformanceLevel | null, string, number]> {',
        '  const report: Report = await checkAgent({ agentUrl: url, credentials: { kind: "bearer", token: "t" }, onEvent: (e) => void e.type });',
        '  return [report.conformanceLevel, exportReport(report, format).file.body, CHECK_CATALOG.length];',
        '}',
        '// Precise types, not `any`: each assignment below must be an error.',
        'export function precise(report: Report): unknown[] {',
        '  // @ts-expect-error the level is a union of strings',
        '  const level: number = report.conformanceLevel;',
        '  // @ts-expect-error a check id is a string',
        '  const id: number = CHECK_CATALOG[0]!.id;',
        '  // @ts-expect-error the export body is a string',
        '  const body: number = exportReport(report, "json").file.body;',
        '  return [level, id, body];',
        '}',
      ].join('\n'),
    );
    writeFileSync(join(app, 'wrong.ts'), "import { checkAgent } from 'a2a-interop';\nvoid checkAgent({ agentUrl: 42 });\n");
    // The README's example of the library, as a user pastes it into a module.
    const readme = readFileSync(join(repo, 'README.md'), 'utf8');
    const example = /The package is also a typed library[^]*?```js\n([^]*?)```/.exec(readme)?.[1];
    expect(example).toMatch(/from 'a2a-interop'/);
    writeFileSync(join(app, 'readme.ts'), `${example}\nexport {};\n`);
    const tsc = await run(process.execPath, [join(repo, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    const errors = tsc.stdout.split('\n').filter((l) => /error TS/.test(l));
    expect(tsc.code).not.toBe(0);
    expect(errors.length, tsc.stdout).toBeGreaterThan(0);
    expect(
      errors.filter((l) => !l.startsWith('wrong.ts(2,')),
      tsc.stdout,
    ).toEqual([]);
    expect(errors.join('\n')).toMatch(/TS2322.*number.*string/);
  }, 60_000);

  it('a2a-interop mcp answers on stdio from the installed package (its SDK is bundled in a lazily loaded chunk)', async () => {
    const child = spawn(join(app, 'node_modules/.bin/a2a-interop'), ['mcp'], { cwd: app, env: userEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const messages = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pack-test', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ];
    child.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
    const deadline = Date.now() + 20_000;
    while (!/"id":2/.test(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
    const replies = out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: { serverInfo?: { name: string; version: string }; tools?: { name: string }[] } });
    expect(replies.find((r) => r.id === 1)?.result?.serverInfo).toMatchObject({ name: 'a2a-interop', version: pkg.version });
    expect(replies.find((r) => r.id === 2)?.result?.tools?.map((t) => t.name)).toContain('run_a2a_conformance');
  }, 30_000);

  it('npx --yes ./<tgz> checks runs the command straight from the tarball', async () => {
    const cwd = dirname(tgz);
    const r = await run('npx', ['--yes', `./${tgz.slice(cwd.length + 1)}`, 'checks'], cwd);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^card\.discovery\s+agent-card\s/m);
  }, 90_000);
});
