/**
 * The GitHub Action (action.yml at the repository root), run the way a runner runs a composite action:
 * the YAML is parsed, `${{ inputs.* }}` expressions are substituted in the step's env (with the inputs'
 * defaults), and its `run:` script executes under `bash --noprofile --norc -eo pipefail` with GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, against a defect agent started here. Most cases pass this checkout's CLI as the `cli`
 * input (fast); the default path (no `cli`, no `version`) is run as a runner runs it: from GITHUB_ACTION_PATH, a
 * staged copy of the action without dist-cli, which the action builds from its own source; no package registry.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Report } from '../engine/model/report';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';

const root = resolve(__dirname, '../..');

interface ActionYaml {
  name: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: { using: string; steps: { id?: string; shell?: string; env?: Record<string, string>; run?: string; uses?: string }[] };
}

const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as ActionYaml;

/** `${{ inputs.x }}`, `${{ github.action_path }}`, `${{ steps.id.outputs.x }}`; anything else fails the test. */
function substitute(text: string, ctx: { inputs: Record<string, string>; steps: Record<string, Record<string, string>>; actionPath?: string }): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) {
      const name = m[1]!;
      if (!(name in action.inputs)) throw new Error(`action.yml uses an undeclared input: ${name}`);
      return ctx.inputs[name] ?? action.inputs[name]!.default ?? '';
    }
    if (expr === 'github.action_path') return ctx.actionPath ?? root;
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (m) return ctx.steps[m[1]!]?.[m[2]!] ?? '';
    throw new Error(`unsupported expression in the test runner: ${expr}`);
  });
}

interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

let runs = 0;

/** Runs the action's steps in `workspace` with `inputs` (missing inputs take their defaults). */
async function runAction(workspace: string, inputs: Record<string, string>, actionPath = root, extraEnv: Record<string, string> = {}): Promise<ActionRun> {
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required && !inputs[name]) throw new Error(`required input ${name} missing`);
  const steps: Record<string, Record<string, string>> = {};
  const id = ++runs;
  const outputFile = join(workspace, `github-output-${id}`);
  const summaryFile = join(workspace, `step-summary-${id}`);
  let last = { code: 0, stdout: '', stderr: '' };
  // Every step's output, in order (the prepare step prints what it builds).
  let stdout = '';
  let stderr = '';
  for (const [i, step] of action.runs.steps.entries()) {
    if (!step.run) continue;
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: actionPath,
      ...extraEnv,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), { inputs, steps, actionPath });
    const script = join(workspace, `run-${id}-step-${i}.sh`);
    writeFileSync(script, substitute(step.run, { inputs, steps, actionPath }));
    last = await new Promise((res) =>
      execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env, timeout: 60_000 }, (err, stdout, stderr) =>
        res({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr }),
      ),
    );
    stdout += last.stdout;
    stderr += last.stderr;
    const out: Record<string, string> = {};
    for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
    }
    if (step.id) steps[step.id] = out;
    if (last.code !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, { inputs, steps, actionPath })]));
  return { code: last.code, stdout, stderr, outputs, summary: existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '' };
}

const SECRET = 'action-secret-token-7d3e1b';
/**
 * This checkout's CLI: the bundle the package ships (built here: it starts in a fraction of tsx's time), else the tsx
 * entry. It runs the whole suite: a run of selected checks (--only) has no level for the action to report.
 */
let FULL_CLI = `node ${join(root, 'src/cli/bin.mjs')}`;

describe('action.yml', () => {
  it('is a composite action whose scripts never contain an expression (inputs reach them only as env)', () => {
    expect(action.runs.using).toBe('composite');
    for (const name of ['url', 'headers', 'min-level', 'baseline', 'formats', 'version']) expect(action.inputs[name], name).toBeDefined();
    for (const name of ['level', 'json', 'sarif', 'junit', 'markdown', 'badge', 'exit-code']) expect(action.outputs[name], name).toBeDefined();
    for (const step of action.runs.steps) {
      if (step.run) {
        expect(step.run).not.toContain('${{');
        expect(step.shell).toBe('bash');
      }
    }
  });

  it('names no package registry by default: version is empty (the action runs its own code) and no doc runs an unversioned npx', () => {
    expect(action.inputs.version!.default).toBe('');
    expect(readFileSync(join(root, 'action.yml'), 'utf8')).not.toContain('a2a-interop@latest');
    // `npx a2a-interop`, `npx --yes a2a-interop`, `npx --package a2a-interop`: a registry name nobody has published.
    // Allowed: a tarball (`./a2a-interop-0.1.0.tgz`), an exact version (`a2a-interop@0.2.0`), `npx --no-install`.
    const unpinned = /npx(?:\s+--?[\w-]+)*\s+(?:--package[ =])?a2a-interop(?![-@\w./])/;
    for (const f of ['README.md', 'docs/ci.md', 'CONTRIBUTING.md', 'action.yml', 'src/mcp/server.ts']) {
      // Every line, prose included, except one that warns against the bare name.
      const bad = readFileSync(join(root, f), 'utf8')
        .split('\n')
        .filter((l) => unpinned.test(l) && !/--no-install|\bnever\b|not published|would fetch/i.test(l));
      expect(bad, f).toEqual([]);
    }
    // The check finds what it is for.
    expect(unpinned.test('npx --yes a2a-interop run x')).toBe(true);
    expect(unpinned.test('"args": ["a2a-interop", "mcp"] } -- npx a2a-interop mcp')).toBe(true);
    expect(unpinned.test('npx --yes ./a2a-interop-0.1.0.tgz run x')).toBe(false);
  });

  describe('run against a defect agent', () => {
    let agent: RunningDefectAgent;
    let ws: string;
    beforeAll(async () => {
      agent = await startDefectAgent({ generation: 'v1.0', auth: { scheme: 'bearer', secret: SECRET }, slowTaskMs: 300, stepMs: 10 });
      ws = mkdtempSync(join(tmpdir(), 'a2a-action-'));
      const bundle = join(ws, 'cli');
      const built = await new Promise<boolean>((res) =>
        execFile('node', [join(root, 'scripts/build-cli.mjs'), '--outdir', bundle, '--no-types', '--quiet'], { timeout: 60_000 }, (err) => res(!err)),
      );
      if (built && existsSync(join(bundle, 'bin.mjs'))) FULL_CLI = `node ${join(bundle, 'bin.mjs')}`;
      else console.warn('action.test.ts: the CLI bundle did not build; running the tsx entry (slower)');
    }, 60_000);
    afterAll(async () => {
      await agent.close();
      rmSync(ws, { recursive: true, force: true });
    });
    const url = () => agent.cardUrl.replace(/\/\.well-known\/.*$/, '');

    it('writes the reports and the badge, sets the outputs and the job summary, masks the header', async () => {
      const r = await runAction(ws, {
        url: url(),
        headers: `Authorization: Bearer ${SECRET}\n`,
        formats: 'sarif,junit,markdown',
        badge: 'badges/a2a.svg',
        'min-level': 'full',
        cli: FULL_CLI,
      });
      expect(r.stderr).toMatch(/Conformance level: full/);
      expect(r.code).toBe(0);
      expect(r.outputs).toMatchObject({
        level: 'full',
        'exit-code': '0',
        'not-assessed-reason': '',
        comparison: '',
        'report-dir': 'a2a-interop',
        json: 'a2a-interop/a2a-report.json',
        sarif: 'a2a-interop/a2a-report.sarif',
        junit: 'a2a-interop/a2a-report.junit.xml',
        markdown: 'a2a-interop/a2a-report.md',
        html: '',
        badge: 'badges/a2a.svg',
      });
      const report = Report.parse(JSON.parse(readFileSync(join(ws, r.outputs.json!), 'utf8')));
      expect(report.categories.errorHandling.find((x) => x.id === 'auth.required')?.status).toBe('pass');
      expect(report.categories.lifecycle.find((x) => x.id === 'lifecycle.send')?.status).toBe('pass');
      expect(JSON.parse(readFileSync(join(ws, r.outputs.sarif!), 'utf8')).version).toBe('2.1.0');
      expect(readFileSync(join(ws, r.outputs.junit!), 'utf8')).toMatch(/^<\?xml[^>]*>\s*<testsuites/);
      expect(readFileSync(join(ws, 'badges/a2a.svg'), 'utf8')).toContain('<title>A2A: full</title>');
      expect(r.summary).toMatch(/^# A2A conformance report: /);
      // The header's value is masked before anything prints, and is in no report.
      expect(r.stdout).toContain(`::add-mask::Bearer ${SECRET}`);
      for (const f of ['json', 'sarif', 'junit', 'markdown'] as const) expect(readFileSync(join(ws, r.outputs[f]!), 'utf8')).not.toContain(SECRET);
    }, 60_000);

    it('with a baseline: a regression fails the step (exit 1) and says so; a missing baseline is a warning; an unreachable agent is not-assessed', async () => {
      const auth = `Authorization: Bearer ${SECRET}`;
      const [base, missing, down] = await Promise.all([
        runAction(ws, { url: url(), headers: auth, 'output-dir': 'base', formats: 'json', cli: FULL_CLI }),
        runAction(ws, { url: url(), headers: auth, 'output-dir': 'first', baseline: 'nowhere.json', cli: FULL_CLI }),
        runAction(ws, { url: 'http://127.0.0.1:9/', 'output-dir': 'down', formats: 'json', cli: FULL_CLI }),
      ]);
      expect(base.code).toBe(0);
      expect(missing.code).toBe(0);
      expect(missing.stdout).toContain('::warning title=a2a-interop::No baseline at nowhere.json');
      expect(missing.outputs.comparison).toBe('');
      expect(down.code).toBe(1);
      expect(down.outputs).toMatchObject({ level: 'not-assessed', 'not-assessed-reason': 'unreachable', 'exit-code': '1' });

      agent.setDefects(['invalid-params-wrong-code']);
      try {
        const r = await runAction(ws, { url: url(), headers: auth, 'output-dir': 'pr', baseline: 'base/a2a-report.json', formats: 'markdown', cli: FULL_CLI });
        expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
        expect(r.outputs).toMatchObject({ level: 'partial', comparison: 'regressed', 'exit-code': '1', markdown: 'pr/a2a-report.md' });
        expect(r.summary).toMatch(/## Compared with the baseline\n\n❌ \*\*Regressed\*\* · full → partial/);
        expect(r.stdout).toContain('a2a-interop: level partial, regressed against the baseline, exit code 1');
      } finally {
        agent.setDefects([]);
      }
    }, 90_000);

    it('by default runs its own code: builds dist-cli from its source in GITHUB_ACTION_PATH once, no registry name', async () => {
      // A staged action folder as a runner checks it out (the source, no dist-cli), with this checkout's installed
      // modules linked in (so the action skips its `npm ci`).
      const actionPath = join(ws, 'action');
      mkdirSync(actionPath);
      for (const f of ['package.json', 'tsconfig.json', 'action.yml', 'scripts', 'src']) cpSync(join(root, f), join(actionPath, f), { recursive: true });
      symlinkSync(join(root, 'node_modules'), join(actionPath, 'node_modules'));
      const inputs = { url: url(), headers: `Authorization: Bearer ${SECRET}`, formats: 'sarif', 'fail-on': 'never' };
      const first = await runAction(ws, { ...inputs, 'output-dir': 'own-1' }, actionPath);
      expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
      expect(first.stdout).toContain(`Building a2a-interop from the action's source in ${actionPath}`);
      expect(existsSync(join(actionPath, 'dist-cli/bin.mjs'))).toBe(true);
      expect(first.outputs).toMatchObject({ level: 'full', 'exit-code': '0', sarif: 'own-1/a2a-report.sarif' });
      expect(`${first.stdout}${first.stderr}`).not.toMatch(/npx|npm (exec|install)|a2a-interop@/);
      // The category comes from the agent URL.
      const sarif = JSON.parse(readFileSync(join(ws, first.outputs.sarif!), 'utf8')) as { runs: { automationDetails: { id: string } }[] };
      expect(sarif.runs[0]!.automationDetails.id).toBe(`a2a-interop/127.0.0.1_${new URL(url()).port}/`);
      // A second use in the same job takes the build it finds.
      const second = await runAction(ws, { ...inputs, 'output-dir': 'own-2', 'sarif-category': 'agents/billing' }, actionPath);
      expect(second.code).toBe(0);
      expect(second.stdout).not.toContain('Building a2a-interop');
      const sarif2 = JSON.parse(readFileSync(join(ws, second.outputs.sarif!), 'utf8')) as { runs: { automationDetails: { id: string } }[] };
      expect(sarif2.runs[0]!.automationDetails.id).toBe('agents/billing/');
    }, 120_000);

    it('without node_modules in the action folder, installs with npm ci --ignore-scripts there first, then builds', async () => {
      const actionPath = join(ws, 'action-bare');
      mkdirSync(actionPath);
      for (const f of ['package.json', 'tsconfig.json', 'action.yml', 'scripts', 'src']) cpSync(join(root, f), join(actionPath, f), { recursive: true });
      // A stand-in npm records where and how it ran, and "installs" by linking this checkout's modules (no network).
      const bin = join(ws, 'fake-npm-bin');
      mkdirSync(bin, { recursive: true });
      const log = join(ws, 'npm-args.log');
      writeFileSync(
        join(bin, 'npm'),
        `#!/usr/bin/env bash\nprintf '%s|%s\\n' "$PWD" "$*" >> ${JSON.stringify(log)}\nln -s ${JSON.stringify(join(root, 'node_modules'))} node_modules\n`,
        { mode: 0o755 },
      );
      const r = await runAction(
        ws,
        { url: url(), headers: `Authorization: Bearer ${SECRET}`, formats: 'json', 'output-dir': 'bare', 'fail-on': 'never' },
        actionPath,
        {
          PATH: `${bin}:${process.env.PATH ?? ''}`,
        },
      );
      expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(readFileSync(log, 'utf8')).toBe(`${actionPath}|ci --no-audit --no-fund --ignore-scripts --loglevel=error\n`);
      expect(existsSync(join(actionPath, 'dist-cli/bin.mjs'))).toBe(true);
      expect(r.outputs.level).toBe('full');
    }, 120_000);

    it('a moving tag as version is refused (exit 2) before anything runs; a CLI that does not start is exit 2, not a verdict', async () => {
      const tag = await runAction(ws, { url: url(), version: 'latest', 'output-dir': 'tag' });
      expect(tag.code).toBe(2);
      expect(tag.stdout).toMatch(/::error title=a2a-interop::version must be empty \(this action's own code\), an exact version/);
      expect(existsSync(join(ws, 'tag'))).toBe(false);
      const broken = await runAction(ws, { url: url(), cli: 'a2a-interop-no-such-command-here', 'output-dir': 'broken' });
      expect(broken.code).toBe(2);
      expect(broken.outputs).toMatchObject({ 'exit-code': '2', level: '' });
      expect(broken.stdout).toMatch(/::error title=a2a-interop::the CLI exited 127 without writing a report/);
    }, 60_000);

    it('version: an exact version or a tarball runs that package with npx (pinned), never a bare name', async () => {
      // A stand-in npx on PATH records its arguments and runs this checkout's CLI (no registry, no network).
      const bin = join(ws, 'fake-bin');
      mkdirSync(bin, { recursive: true });
      const log = join(ws, 'npx-args.log');
      writeFileSync(
        join(bin, 'npx'),
        `#!/usr/bin/env bash\nprintf '%s\\n' "$*" >> ${JSON.stringify(log)}\n[[ "$1 $2" == "--yes --package" && "$4" == a2a-interop ]] || exit 97\nshift 4\nexec ${FULL_CLI} "$@"\n`,
        { mode: 0o755 },
      );
      const path = `${bin}:${process.env.PATH ?? ''}`;
      const exact = await runAction(
        ws,
        { url: url(), headers: `Authorization: Bearer ${SECRET}`, version: '0.2.0', formats: 'json', 'output-dir': 'pinned' },
        root,
        { PATH: path },
      );
      expect(exact.code, exact.stderr).toBe(0);
      const tarball = await runAction(
        ws,
        { url: url(), headers: `Authorization: Bearer ${SECRET}`, version: './a2a-interop-0.2.0.tgz', formats: 'json', 'output-dir': 'tgz' },
        root,
        { PATH: path },
      );
      expect(tarball.code, tarball.stderr).toBe(0);
      const calls = readFileSync(log, 'utf8').trim().split('\n');
      expect(calls.map((c) => c.split(' ').slice(0, 4).join(' '))).toEqual([
        '--yes --package a2a-interop@0.2.0 a2a-interop',
        '--yes --package ./a2a-interop-0.2.0.tgz a2a-interop',
      ]);
      expect(exact.outputs.level).toBe('full');
    }, 120_000);

    it('fail-on regression: a non-conformant agent passes when it did not regress, fails when it did; without a baseline it only reports', async () => {
      const auth = `Authorization: Bearer ${SECRET}`;
      const common = { url: url(), headers: auth, formats: 'json', 'fail-on': 'regression', cli: FULL_CLI };
      agent.setDefects(['card-capabilities-array']);
      try {
        const first = await runAction(ws, { ...common, 'output-dir': 'nc-base', baseline: 'none.json' });
        expect(first.code, first.stderr).toBe(0);
        expect(first.stdout).toContain('::warning title=a2a-interop::fail-on regression without a baseline');
        expect(first.outputs.level).toBe('non-conformant');
        const same = await runAction(ws, { ...common, 'output-dir': 'nc-same', baseline: 'nc-base/a2a-report.json' });
        expect(same.code, same.stderr).toBe(0);
        expect(same.outputs).toMatchObject({ level: 'non-conformant', 'exit-code': '0' });
        agent.setDefects(['card-capabilities-array', 'invalid-params-wrong-code']);
        const worse = await runAction(ws, { ...common, 'output-dir': 'nc-worse', baseline: 'nc-base/a2a-report.json' });
        expect(worse.code).toBe(1);
        expect(worse.outputs).toMatchObject({ comparison: 'regressed', 'exit-code': '1' });
        expect(worse.stderr).toMatch(/^a2a-interop: exit 1: regressed against the baseline nc-base\/a2a-report\.json: /m);
      } finally {
        agent.setDefects([]);
      }
    }, 120_000);
  });
});
