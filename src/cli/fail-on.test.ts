/**
 * `--fail-on level|regression|never`, the exit-code table (src/cli/gate.ts) and the one-line stderr reason,
 * and `--header` given more than once. The pure gate is tested on the fixed reports; the end-to-end cases run the
 * whole suite (no --only: a selection of checks has no level) against the defect test agent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../engine/report/baseline';
import { Report } from '../engine/model/report';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { conformantReport, sampleReport, unreachableReport } from '../testing/fixtures/reports';
import { fleetGate, gate } from './gate';
import { splitCliHeaders, fetchWithExtraHeaders } from './headers';
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

/** The last line of stderr: the reason, when the exit code is not 0. */
const lastLine = (s: string) => s.trimEnd().split('\n').at(-1) ?? '';

describe('gate (exit code and reason)', () => {
  const full = conformantReport();
  it('fail-on level: 0 when the level meets --min-level, else 1 with one line naming the level and the minimum', () => {
    expect(full.conformanceLevel).toBe('full');
    expect(gate(full, { failOn: 'level', minLevel: 'full' })).toEqual({ code: 0 });
    const low = { ...full, conformanceLevel: 'partial' as const, levelReason: 'Partial: error handling fails\n(errors.invalid-params).' };
    const g = gate(low, { failOn: 'level', minLevel: 'full' });
    expect(g.code).toBe(1);
    expect(g.reason).toBe('a2a-interop: exit 1: level partial is below --min-level full: Partial: error handling fails (errors.invalid-params).');
    expect(g.reason).not.toContain('\n');
  });

  it('not assessed: 1 under level (with the reason), 0 under never', () => {
    const down = unreachableReport();
    const g = gate(down, { failOn: 'level', minLevel: 'minimal' });
    expect(g.code).toBe(1);
    expect(g.reason).toMatch(/^a2a-interop: exit 1: not assessed \(unreachable\): nothing answered/);
    expect(gate(down, { failOn: 'never', minLevel: 'full' })).toEqual({ code: 0 });
  });

  it('regression: only a regressed comparison fails, whatever the level', () => {
    const low = { ...full, conformanceLevel: 'non-conformant' as const };
    const same = { ...low, comparison: compareWithBaseline(low, low) };
    expect(same.comparison.verdict).toBe('unchanged');
    expect(gate(same, { failOn: 'regression', minLevel: 'full' })).toEqual({ code: 0 });
    // Without --fail-on regression the same run fails on its level.
    expect(gate(same, { failOn: 'level', minLevel: 'minimal' }).code).toBe(1);
    const worse = { ...low, comparison: compareWithBaseline(full, low) };
    expect(worse.comparison.verdict).toBe('regressed');
    const g = gate(worse, { failOn: 'regression', minLevel: 'minimal', baselinePath: 'main/a2a-report.json' });
    expect(g.code).toBe(1);
    expect(g.reason).toMatch(/^a2a-interop: exit 1: regressed against the baseline main\/a2a-report\.json: /);
  });

  it('our own failure is 2 with a reason, under every --fail-on', () => {
    const report = sampleReport();
    expect(report.summary.errors).toBeGreaterThan(0);
    for (const failOn of ['level', 'regression', 'never'] as const) {
      const g = gate(report, { failOn, minLevel: 'minimal' });
      expect(g.code).toBe(2);
      expect(g.reason).toMatch(/^a2a-interop: exit 2: \d+ check\(s\) could not be verified because our tool failed \(.+\); not a verdict on the agent$/);
    }
  });
});

describe('fleetGate (run-many, merge)', () => {
  const row = (key: string, meetsMinLevel: boolean, verdict?: string) => ({
    key,
    meetsMinLevel,
    levelLabel: meetsMinLevel ? 'full' : 'non-conformant',
    ...(verdict && { trend: { status: 'compared', verdict } }),
  });
  it('level: below --min-level or regressed fails; regression: only a regression; never: 0', () => {
    const rows = [row('a', true, 'unchanged'), row('b', false, 'unchanged'), row('c', true, 'improved')];
    expect(fleetGate(rows, 'level', 'partial')).toEqual({ code: 1, reason: 'a2a-interop: exit 1: 1 agent(s) below --min-level partial (b: non-conformant)' });
    expect(fleetGate(rows, 'regression', 'partial')).toEqual({ code: 0 });
    const worse = [...rows, row('d', false, 'regressed')];
    expect(fleetGate(worse, 'regression', 'partial')).toEqual({ code: 1, reason: 'a2a-interop: exit 1: 1 regressed against --baseline-dir (d)' });
    expect(fleetGate(worse, 'level', 'partial').reason).toBe(
      'a2a-interop: exit 1: 2 agent(s) below --min-level partial (b: non-conformant; d: non-conformant); 1 regressed against --baseline-dir (d)',
    );
    expect(fleetGate(worse, 'never', 'full')).toEqual({ code: 0 });
  });

  it('run-many --fail-on regression needs --baseline-dir', async () => {
    const t = io({ 'agents.txt': 'http://127.0.0.1:9/\n' });
    expect(await main(['run-many', 'agents.txt', '--fail-on', 'regression'], t.cli)).toBe(2);
    expect(t.err()).toMatch(/^--fail-on regression needs --baseline-dir DIR/);
  });
});

describe('--header, repeatable', () => {
  it('one credential header, the others sent as extra headers; two credential headers or a repeated name are refused', () => {
    expect(
      splitCliHeaders([
        ['Authorization', 'Bearer t0k'],
        ['X-Tenant', 'acme'],
      ]),
    ).toEqual({
      credentials: { kind: 'bearer', token: 't0k' },
      extra: { 'X-Tenant': 'acme' },
    });
    expect(splitCliHeaders([['X-Tenant', 'acme']])).toEqual({ credentials: { kind: 'header', name: 'X-Tenant', value: 'acme' }, extra: {} });
    expect(
      splitCliHeaders([
        ['X-Tenant', 'acme'],
        ['X-Region', 'eu'],
      ]),
    ).toEqual({ credentials: { kind: 'none' }, extra: { 'X-Tenant': 'acme', 'X-Region': 'eu' } });
    expect(
      splitCliHeaders([
        ['Authorization', 'Bearer a'],
        ['X-API-Key', 'b'],
      ]),
    ).toMatch(/^One credential header per run \(got Authorization, X-API-Key\)/);
    expect(
      splitCliHeaders([
        ['X-A', '1'],
        ['x-a', '2'],
      ]),
    ).toMatch(/given twice/);
  });

  it('extra headers go to the agent origin only', async () => {
    const seen: Record<string, string | null> = {};
    const f = fetchWithExtraHeaders(
      (async (input: RequestInfo | URL, init?: RequestInit) => {
        seen[String(input)] = new Headers(init?.headers).get('x-tenant');
        return new Response('');
      }) as typeof fetch,
      { 'X-Tenant': 'acme' },
      'http://127.0.0.1:1234',
    );
    await f('http://127.0.0.1:1234/a', {});
    await f('http://127.0.0.1:9999/b', {});
    expect(seen).toEqual({ 'http://127.0.0.1:1234/a': 'acme', 'http://127.0.0.1:9999/b': null });
  });
});

describe('a2a-interop run --fail-on (whole suite, defect agent)', () => {
  let agent: RunningDefectAgent;
  let base: string;
  beforeAll(async () => {
    agent = await startDefectAgent({ generation: 'v1.0', slowTaskMs: 200, stepMs: 5 });
    base = agent.cardUrl.replace(/\/\.well-known\/.*$/, '');
  });
  afterAll(() => agent.close());

  it('a non-conformant agent: regression exits 0 when it did not regress and 1 when it did; level exits 1 with its reason', async () => {
    const t = io();
    agent.setDefects(['card-capabilities-array']);
    // The baseline: non-conformant. --fail-on never writes it and exits 0.
    expect(await main(['run', base, '--quiet', '--fail-on', 'never', '--out', 'base.json'], t.cli)).toBe(0);
    expect(Report.parse(JSON.parse(t.files['base.json']!)).conformanceLevel).toBe('non-conformant');

    // The same agent again: no worse than the baseline.
    const same = io(t.files);
    expect(await main(['run', base, '--quiet', '--fail-on', 'regression', '--baseline', 'base.json', '--out', 'same.json'], same.cli)).toBe(0);
    expect(Report.parse(JSON.parse(same.files['same.json']!)).comparison?.verdict).not.toBe('regressed');
    expect(same.err()).toBe('');

    // The default gate fails it on its level, with one line saying why.
    const level = io(t.files);
    expect(await main(['run', base, '--quiet', '--out', 'level.json'], level.cli)).toBe(1);
    expect(level.err().trim().split('\n')).toHaveLength(1);
    expect(lastLine(level.err())).toMatch(/^a2a-interop: exit 1: level non-conformant is below --min-level minimal: /);

    // A new defect: regressed.
    agent.setDefects(['card-capabilities-array', 'invalid-params-wrong-code']);
    try {
      const worse = io(t.files);
      expect(await main(['run', base, '--quiet', '--fail-on', 'regression', '--baseline', 'base.json', '--out', 'worse.json'], worse.cli)).toBe(1);
      expect(Report.parse(JSON.parse(worse.files['worse.json']!)).comparison?.verdict).toBe('regressed');
      expect(lastLine(worse.err())).toMatch(/^a2a-interop: exit 1: regressed against the baseline base\.json: .*errors\.invalid-params/);
    } finally {
      agent.setDefects([]);
    }
  }, 120_000);

  it('usage: --fail-on regression without --baseline, an unknown --fail-on, an empty --sarif-category exit 2', async () => {
    const a = io();
    expect(await main(['run', base, '--fail-on', 'regression'], a.cli)).toBe(2);
    expect(a.err()).toMatch(/^--fail-on regression needs --baseline FILE/);
    const b = io();
    expect(await main(['run', base, '--fail-on', 'sometimes'], b.cli)).toBe(2);
    expect(b.err()).toMatch(/^--fail-on must be level, regression or never/);
    const c = io();
    expect(await main(['run', base, '--sarif-category', ' / '], c.cli)).toBe(2);
    expect(c.err()).toMatch(/^--sarif-category needs a name/);
  });
});
