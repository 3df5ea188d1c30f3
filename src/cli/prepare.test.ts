/**
 * Install from a git URL (`npm install github:<owner>/a2a-interop`): npm clones the repository, installs its
 * dependencies and runs its `prepare` script, then packs what `files` names. A clone has no dist-cli (it is not
 * committed), so `prepare` must build it, command and typed library. Here `npm run prepare` runs in a copy of the
 * source with no dist-cli (this checkout's node_modules linked in; no network), and the result is run.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

const run = (cmd: string, args: string[], cwd: string) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((done) =>
    execFile(cmd, args, { cwd, timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } }, (err, stdout, stderr) =>
      done({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }),
    ),
  );

let clone: string | undefined;
afterAll(() => {
  if (clone) rmSync(clone, { recursive: true, force: true });
});

describe('prepare (install from a git URL)', () => {
  it('package.json builds dist-cli in prepare, and packs dist-cli', () => {
    expect(pkg.scripts.prepare).toBe('node scripts/build-cli.mjs');
    expect(pkg.scripts.prepack).toBeUndefined(); // npm pack runs prepare: one build, not two
    expect(pkg.files).toContain('dist-cli');
    expect(pkg.bin['a2a-interop']).toBe('dist-cli/bin.mjs');
  });

  it('npm run prepare in a fresh copy of the source builds the command and the typed library', async () => {
    clone = mkdtempSync(join(tmpdir(), 'a2a-prepare-'));
    for (const f of ['package.json', 'tsconfig.json', 'tsconfig.package.json', 'scripts', 'src', 'public'])
      cpSync(join(root, f), join(clone, f), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'));
    expect(existsSync(join(clone, 'dist-cli'))).toBe(false);
    const prepared = await run('npm', ['run', 'prepare', '--silent'], clone);
    expect(prepared.code, prepared.stderr).toBe(0);
    for (const f of ['dist-cli/bin.mjs', 'dist-cli/cli.mjs', 'dist-cli/index.mjs', 'dist-cli/types/package/index.d.ts'])
      expect(existsSync(join(clone, f)), f).toBe(true);
    const version = await run(process.execPath, [join(clone, 'dist-cli/bin.mjs'), '--version'], clone);
    expect(version.stdout.trim()).toBe(pkg.version);
  }, 120_000);
});
