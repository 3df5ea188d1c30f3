/**
 * The CLI in a pipeline: several formats in one run (--out-dir), SARIF, the badge, and the baseline gate
 * (--baseline) against a defect agent whose defects are switched between runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../engine/model/report';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { main, type CliIo } from './main';

function io(files: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = {
    stdout: (s) => out.push(s),
    stderr: (s) => err.push(s),
    env: {},
    writeFile: (p, b) => (files[p] = b),
    readFile: (p) => {
      const body = files[p];
      if (body === undefined) throw new Error(`ENOENT: no such file ${p}`);
      return body;
    },
  };
  return { cli, out: () => out.join(''), err: () => err.join(''), files };
}

// The whole suite (a run of selected checks, --only, has no level to gate on), with a short per-task timeout.
const SUITE = ['--task-timeout', '10'];

describe('a2a-interop run in a pipeline', () => {
  let agent: RunningDefectAgent;
  let base: string;
  beforeAll(async () => {
    agent = await startDefectAgent({ generation: 'v1.0', slowTaskMs: 300, stepMs: 10 });
    base = agent.cardUrl.replace(/\/\.well-known\/.*$/, '');
  });
  afterAll(() => agent.close());

  it('--format json,sarif,junit,markdown,html --out-dir writes one file per format, and --badge the SVG', async () => {
    agent.setDefects([]);
    const t = io();
    const code = await main(
      ['run', base, '--quiet', ...SUITE, '--format', 'json,sarif,junit', '--format', 'markdown,html', '--out-dir', 'out', '--badge', 'out/badge.svg'],
      t.cli,
    );
    expect(code).toBe(0);
    expect(Object.keys(t.files).sort()).toEqual([
      'out/a2a-report.html',
      'out/a2a-report.json',
      'out/a2a-report.junit.xml',
      'out/a2a-report.md',
      'out/a2a-report.sarif',
      'out/badge.svg',
    ]);
    expect(t.out()).toBe('');
    expect(Report.parse(JSON.parse(t.files['out/a2a-report.json']!)).conformanceLevel).toBe('full');
    expect(JSON.parse(t.files['out/a2a-report.sarif']!)).toMatchObject({ version: '2.1.0', runs: [{ tool: { driver: { name: 'a2a-interop' } } }] });
    expect(t.files['out/badge.svg']).toContain('<title>A2A: full</title>');
  });

  it('several formats without --out-dir, or --out with --out-dir, are usage errors', async () => {
    const a = io();
    expect(await main(['run', base, '--format', 'json,sarif'], a.cli)).toBe(2);
    expect(a.err()).toMatch(/Several formats need --out-dir/);
    const b = io();
    expect(await main(['run', base, '--out', 'x', '--out-dir', 'y'], b.cli)).toBe(2);
    const c = io();
    expect(await main(['run', base, '--format', 'json,pdf', '--out-dir', 'y'], c.cli)).toBe(2);
    expect(c.err()).toMatch(/--format must be one of json, markdown, junit, html, sarif .*"pdf"/);
  });

  it('--baseline: an injected regression exits 1; the report and Markdown say what regressed', async () => {
    agent.setDefects([]);
    const t = io();
    expect(await main(['run', base, '--quiet', ...SUITE, '--out', 'baseline.json'], t.cli)).toBe(0);
    agent.setDefects(['invalid-params-wrong-code']);
    const code = await main(['run', base, ...SUITE, '--baseline', 'baseline.json', '--format', 'json,markdown', '--out-dir', 'pr'], t.cli);
    expect(code).toBe(1);
    const report = Report.parse(JSON.parse(t.files['pr/a2a-report.json']!));
    expect(report.conformanceLevel).toBe('partial');
    expect(report.comparison).toMatchObject({ verdict: 'regressed', levelMove: 'down', baseline: { level: 'full' } });
    expect(report.comparison!.changes).toContainEqual(
      expect.objectContaining({ id: 'errors.invalid-params', before: 'pass', after: 'fail', kind: 'regressed' }),
    );
    expect(t.files['pr/a2a-report.md']).toMatch(
      /^# A2A conformance report: .*\n\n## Compared with the baseline\n\n❌ \*\*Regressed\*\* · full → partial · 0 fixed · 1 regressed/,
    );
    expect(t.err()).toMatch(/Compared with baseline\.json: regressed · full → partial/);
    expect(t.err()).toMatch(/errors\.invalid-params regressed: pass → fail/);
  });

  it('--baseline: an improvement exits 0 (and so does an unchanged run)', async () => {
    agent.setDefects(['invalid-params-wrong-code']);
    const t = io();
    // The flawed run is partial: --min-level partial lets the baseline itself pass.
    expect(await main(['run', base, '--quiet', ...SUITE, '--min-level', 'partial', '--out', 'flawed.json'], t.cli)).toBe(0);
    agent.setDefects([]);
    expect(await main(['run', base, '--quiet', ...SUITE, '--baseline', 'flawed.json', '--out', 'fixed.json'], t.cli)).toBe(0);
    expect(Report.parse(JSON.parse(t.files['fixed.json']!)).comparison).toMatchObject({
      verdict: 'improved',
      levelMove: 'up',
      counts: { fixed: 1, regressed: 0 },
    });
    expect(await main(['run', base, '--quiet', ...SUITE, '--baseline', 'fixed.json', '--out', 'same.json'], t.cli)).toBe(0);
    expect(Report.parse(JSON.parse(t.files['same.json']!)).comparison?.verdict).toBe('unchanged');
  });

  it('--baseline that is missing or not a report is a usage error (exit 2), not a verdict', async () => {
    const t = io({ 'junk.json': '{"hello": 1}' });
    expect(await main(['run', base, '--quiet', '--baseline', 'missing.json'], t.cli)).toBe(2);
    expect(t.err()).toMatch(/--baseline: cannot read missing\.json/);
    expect(await main(['run', base, '--quiet', '--baseline', 'junk.json'], t.cli)).toBe(2);
    expect(t.err()).toMatch(/--baseline: junk\.json is not a report this tool reads/);
  });
});
