/**
 * The GitHub Action (action.yml at the repository root), run the way a runner runs a composite action:
 * the YAML is parsed, `${{ inputs.* }}` expressions are substituted in the step's env (with the inputs'
 * defaults), and its `run:` script executes under `bash --noprofile --norc -eo pipefail` with GITHUB_OUTPUT and
 * GITHUB_STEP_SUMMARY files, against a defect agent started here. The CLI comes from this checkout (`cli` input)
 * instead of npx.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
function substitute(text: string, ctx: { inputs: Record<string, string>; steps: Record<string, Record<string, string>> }): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    let m = /^inputs\.([\w-]+)$/.exec(expr);
    if (m) {
      const name = m[1]!;
      if (!(name in action.inputs)) throw new Error(`action.yml uses an undeclared input: ${name}`);
      return ctx.inputs[name] ?? action.inputs[name]!.default ?? '';
    }
    if (expr === 'github.action_path') return root;
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
async function runAction(workspace: string, inputs: Record<string, string>): Promise<ActionRun> {
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required && !inputs[name]) throw new Error(`required input ${name} missing`);
  const steps: Record<string, Record<string, string>> = {};
  const id = ++runs;
  const outputFile = join(workspace, `github-output-${id}`);
  const summaryFile = join(workspace, `step-summary-${id}`);
  let last = { code: 0, stdout: '', stderr: '' };
  for (const [i, step] of action.runs.steps.entries()) {
    if (!step.run) continue;
    writeFileSync(outputFile, '');
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_ACTION_PATH: root,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(String(v), { inputs, steps });
    const script = join(workspace, `run-${id}-step-${i}.sh`);
    writeFileSync(script, substitute(step.run, { inputs, steps }));
    last = await new Promise((res) =>
      execFile('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env, timeout: 60_000 }, (err, stdout, stderr) =>
        res({ code: err ? (typeof err.code === 'number' ? err.code : 99) : 0, stdout, stderr }),
      ),
    );
    const out: Record<string, string> = {};
    for (const line of readFileSync(outputFile, 'utf8').split('\n')) {
      const eq = line.indexOf('=');
      if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
    }
    if (step.id) steps[step.id] = out;
    if (last.code !== 0) break;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, { inputs, steps })]));
  return { ...last, outputs, summary: existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '' };
}

const SECRET = 'action-secret-token-7d3e1b';
// A few checks so the test stays fast (options may come before the command).
const ONLY = '--only card.required-fields --only lifecycle.send --only lifecycle.get --only errors.invalid-params --only auth.required';
/** This checkout's CLI: the bundle the package ships (built here: it starts in a fraction of tsx's time), else the tsx entry. */
let CLI = `node ${join(root, 'src/cli/bin.mjs')} ${ONLY}`;

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
      if (built && existsSync(join(bundle, 'bin.mjs'))) CLI = `node ${join(bundle, 'bin.mjs')} ${ONLY}`;
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
        cli: CLI,
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
        runAction(ws, { url: url(), headers: auth, 'output-dir': 'base', formats: 'json', cli: CLI }),
        runAction(ws, { url: url(), headers: auth, 'output-dir': 'first', baseline: 'nowhere.json', cli: CLI }),
        runAction(ws, { url: 'http://127.0.0.1:9/', 'output-dir': 'down', formats: 'json', cli: CLI }),
      ]);
      expect(base.code).toBe(0);
      expect(missing.code).toBe(0);
      expect(missing.stdout).toContain('::warning title=a2a-interop::No baseline at nowhere.json');
      expect(missing.outputs.comparison).toBe('');
      expect(down.code).toBe(1);
      expect(down.outputs).toMatchObject({ level: 'not-assessed', 'not-assessed-reason': 'unreachable', 'exit-code': '1' });

      agent.setDefects(['invalid-params-wrong-code']);
      try {
        const r = await runAction(ws, { url: url(), headers: auth, 'output-dir': 'pr', baseline: 'base/a2a-report.json', formats: 'markdown', cli: CLI });
        expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
        expect(r.outputs).toMatchObject({ level: 'partial', comparison: 'regressed', 'exit-code': '1', markdown: 'pr/a2a-report.md' });
        expect(r.summary).toMatch(/## Compared with the baseline\n\n❌ \*\*Regressed\*\* · full → partial/);
        expect(r.stdout).toContain('a2a-interop: level partial, regressed against the baseline, exit code 1');
      } finally {
        agent.setDefects([]);
      }
    }, 90_000);
  });
});
