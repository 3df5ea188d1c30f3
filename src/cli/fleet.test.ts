/**
 * `run-many` over 50 local agents (SDK demo agents, defect agents, hostile agents that hang, flood and lie,
 * closed ports, one behind credentials from the environment), sharded 3 ways and merged; and the isolation
 * of one run from another with injected runners that hang or throw.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Report } from '../engine/model/report';
import { startServer, type RunningServer } from '../server/main';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { conformantReport } from '../testing/fixtures/reports';
import { startHostileAgent, type HostileName, type RunningHostileAgent } from '../testing/hostile';
import { GRACE_MS, mergeShards, runMany, type RunManyOptions } from './fleet';
import { FLEET_SUMMARY_KIND, normalizeSummary, type FleetSummary } from './fleet-summary';
import { main, type CliIo } from './main';

const HOSTILE: HostileName[] = [
  'card-50mb',
  'card-yaml',
  'card-html-200',
  'card-bom',
  'card-html-script',
  'card-redirect-loop',
  'rpc-invalid-json',
  'rpc-html-200',
  'rpc-never-answers',
  'rpc-wrong-id',
  'rpc-result-and-error',
  'rpc-headers-64k',
  'rpc-reset-mid-body',
  'task-id-changes',
  'bad-timestamps',
  'sse-never-ends',
  'sse-flood',
  'sse-invalid-utf8',
  'black-hole',
];
const DEFECTS = [
  [],
  ['card-capabilities-array'],
  ['card-missing-skills'],
  ['card-wrong-content-type'],
  ['send-returns-message'],
  ['no-task-id'],
  ['bad-initial-state'],
  ['invalid-params-wrong-code'],
] as const;
const GENERATIONS = ['v1.0', 'v0.3', 'legacy'] as const;
const ONLY = ['card.json', 'card.required-fields', 'lifecycle.send', 'lifecycle.get', 'lifecycle.shape', 'streaming.terminal'];
const TOKEN = 'fleet-secret-token-5f2a9c';

function fleetIo(env: Record<string, string> = {}) {
  const err: string[] = [];
  const io: CliIo = { stdout: () => undefined, stderr: (s) => err.push(s), env, writeFile: () => undefined };
  return { io, err: () => err.join('') };
}

const readSummary = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as FleetSummary;

describe('run-many over 50 local agents, sharded and merged', () => {
  let dir: string;
  let server: RunningServer;
  const defectAgents: RunningDefectAgent[] = [];
  const hostile: RunningHostileAgent[] = [];
  let listFile: string;
  let count = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-'));
    server = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 300, stepMs: 10 });
    const demo = ['v1', 'v03', 'legacy', 'flawed'].map((id) => `${server.url.replace(/\/$/, '')}/demo/${id}`);
    for (const g of GENERATIONS)
      for (const d of DEFECTS) defectAgents.push(await startDefectAgent({ generation: g, defects: [...d], slowTaskMs: 300, stepMs: 10 }));
    const secured = await startDefectAgent({ generation: 'v1.0', auth: { scheme: 'bearer', secret: TOKEN }, slowTaskMs: 300, stepMs: 10 });
    defectAgents.push(secured);
    hostile.push(...(await Promise.all(HOSTILE.map((n) => startHostileAgent(n)))));
    const base = (a: RunningDefectAgent) => a.cardUrl.replace(/\/\.well-known\/.*$/, '');
    // A registry export: stored agents, bare agents, plain URLs and { url, headers } entries, in no order.
    const entries: unknown[] = [
      ...demo,
      ...defectAgents
        .slice(0, 8)
        .map((a, i) => ({
          id: `agent:defect.${i}`,
          agent: { id: `agent:defect.${i}`, version: '1', name: `Defect ${i}`, endpoints: [{ protocol: 'a2a', url: a.url }], source: { url: a.cardUrl } },
        })),
      ...defectAgents
        .slice(8, 16)
        .map((a, i) => ({ id: `agent:bare.${i}`, version: '1', name: `Bare ${i}`, endpoints: [{ protocol: 'http', url: `${base(a)}/`, priority: 1 }] })),
      ...defectAgents.slice(16, 24).map((a) => base(a)),
      { url: base(secured), name: 'Secured', headers: { Authorization: 'Bearer ${FLEET_TOKEN}' } },
      { url: 'http://127.0.0.1:9/', name: 'Missing token', headers: { 'X-API-Key': '${FLEET_MISSING_KEY}' } },
      'http://127.0.0.1:1/closed',
      ...hostile.map((h) => h.url),
    ].reverse();
    count = entries.length;
    listFile = join(dir, 'agents.json');
    writeFileSync(listFile, JSON.stringify({ agents: entries }, null, 2));
  }, 60_000);

  afterAll(async () => {
    await Promise.all([server?.close(), ...defectAgents.map((a) => a.close()), ...hostile.map((h) => h.close())]);
    rmSync(dir, { recursive: true, force: true });
  });

  const options = (outDir: string, extra: Partial<RunManyOptions> = {}): RunManyOptions => ({
    file: listFile,
    outDir,
    concurrency: 16,
    formats: ['sarif'],
    minLevel: 'minimal',
    // Budgets far from the deadline both ways: an agent either ends well within it or hangs well past it
    // (black-hole: four 5 s waits; rpc-never-answers: at least two), so every outcome is the same in every run.
    timeoutMs: 5_000,
    deadlineMs: 9_000,
    only: ONLY,
    quiet: true,
    ...extra,
  });

  it('one report per agent and a summary; shards 1/3, 2/3, 3/3 merged equal the unsharded run', async () => {
    expect(count).toBe(50);
    const env = { FLEET_TOKEN: TOKEN };
    const started = performance.now();
    const all = fleetIo(env);
    // Unsharded, then the three shards at once (as three CI jobs would, here on one machine).
    const shards = [1, 2, 3].map((i) => join(dir, `shard-${i}`));
    const codes = [await runMany(options(join(dir, 'all')), all.io)];
    const unshardedMs = performance.now() - started;
    codes.push(...(await Promise.all(shards.map((out, i) => runMany(options(out, { shard: { index: i + 1, total: 3 }, concurrency: 6 }), fleetIo(env).io)))));
    const wall = performance.now() - started;
    console.log(`unsharded ${Math.round(unshardedMs)} ms, with the shards ${Math.round(wall)} ms`);
    expect(wall).toBeLessThan(60_000);

    const summary = readSummary(join(dir, 'all'));
    expect(summary.kind).toBe(FLEET_SUMMARY_KIND);
    expect(summary.agents).toHaveLength(50);
    for (const row of summary.agents) {
      if (row.outcome === 'not-run') continue;
      const report = Report.parse(JSON.parse(readFileSync(join(dir, 'all', row.files.json!), 'utf8')));
      expect(report.agentUrl).toBe(row.url);
      expect(JSON.parse(readFileSync(join(dir, 'all', row.files.sarif!), 'utf8')).version).toBe('2.1.0');
    }
    // The credential came from the environment, reached the agent, and is nowhere in the output.
    const secured = summary.agents.find((r) => r.name === 'Secured')!;
    expect(secured.outcome).toBe('assessed');
    expect(secured.summary.passed).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'all', secured.files.json!), 'utf8')).not.toContain(TOKEN);
    expect(summary.agents.find((r) => r.name === 'Missing token')).toMatchObject({
      outcome: 'not-run',
      message: expect.stringMatching(/FLEET_MISSING_KEY not set/),
    });
    // Hostile agents got verdicts, not crashes; the hung ones did not hold up the others.
    const byUrl = new Map(summary.agents.map((r) => [r.url, r]));
    const hostileRow = (n: HostileName) => byUrl.get(new URL(hostile[HOSTILE.indexOf(n)]!.url).href)!;
    const blackHole = hostileRow('black-hole');
    // The black hole and the agent that never answers hang past the deadline: stopped there, reports kept.
    expect(blackHole).toMatchObject({ outcome: 'deadline', level: null, meetsMinLevel: false, message: expect.stringMatching(/deadline of 9 s/) });
    expect(hostileRow('rpc-never-answers').outcome).toBe('deadline');
    expect(Report.parse(JSON.parse(readFileSync(join(dir, 'all', blackHole.files.json!), 'utf8'))).runStatus).toBe('interrupted');
    expect(hostileRow('sse-flood').categories.streaming.failed).toBe(1);
    expect(hostileRow('task-id-changes').level).toBe('non-conformant');
    expect(summary.agents.filter((r) => r.level === 'full').length).toBeGreaterThan(5);
    // Not every agent meets minimal: exit 1.
    expect(codes[0]).toBe(1);

    // The shards partition the list; merged, they are the unsharded run (timings and dates aside).
    const shardRows = shards.map((s) => readSummary(s).agents.map((r) => r.key));
    expect(shardRows.map((r) => r.length).sort()).toEqual([16, 17, 17]);
    expect(new Set(shardRows.flat()).size).toBe(50);
    const merged = join(dir, 'merged');
    const m = fleetIo();
    expect(mergeShards(shards, merged, m.io)).toBe(1);
    expect(normalizeSummary(readSummary(merged))).toEqual(normalizeSummary(summary));
    // Every report file came along.
    for (const row of readSummary(merged).agents) for (const f of Object.values(row.files)) expect(existsSync(join(merged, f)), f).toBe(true);
    const md = readFileSync(join(merged, 'summary.md'), 'utf8');
    expect(md).toMatch(/^# A2A conformance of 50 agents\n/);
    expect(md).toContain('| Agent | Level | Agent card | Task lifecycle | Streaming (SSE) | Error handling and auth | Interop | Report |');
    expect(readFileSync(join(merged, 'summary.html'), 'utf8')).toMatch(/<caption>One row per agent/);
  }, 120_000);

  it('--baseline-dir: a trend per agent; an agent that got worse exits 1', async () => {
    const entry = (i: number) => ({ id: `agent:small.${i}`, name: `Small ${i}`, url: defectAgents[i]!.cardUrl });
    const small = (n: number) => {
      const file = join(dir, `small-${n}.json`);
      writeFileSync(file, JSON.stringify(Array.from({ length: n }, (_, i) => entry(i))));
      return file;
    };
    const before = join(dir, 'small-before');
    const after = join(dir, 'small-after');
    expect(await runMany(options(before, { file: small(2) }), fleetIo().io)).toBe(0);
    // The agent with no defects (v1.0) loses its skills; a third agent joins the list.
    defectAgents[0]!.setDefects(['card-missing-skills']);
    try {
      expect(await runMany(options(after, { file: small(3), baselineDir: before }), fleetIo().io)).toBe(1);
    } finally {
      defectAgents[0]!.setDefects([]);
    }
    const s = readSummary(after);
    const [worse, same, added] = ['agent:small.0', 'agent:small.1', 'agent:small.2'].map((k) => s.agents.find((r) => r.key === k)!);
    expect(worse!.trend).toMatchObject({ status: 'compared', verdict: 'regressed', baselineLevel: 'full', levelMove: 'down' });
    expect(same!.trend).toMatchObject({ status: 'compared', verdict: 'unchanged' });
    expect(added!.trend).toEqual({ status: 'new' });
    const md = readFileSync(join(after, 'summary.md'), 'utf8');
    expect(md).toMatch(/\| Agent \| Level \| Trend \|/);
    expect(md).toMatch(/\| Small 0<br>.* \| ↓ regressed: full → non-conformant/);
    const report = Report.parse(JSON.parse(readFileSync(join(after, worse!.files.json!), 'utf8')));
    expect(report.comparison?.changes).toContainEqual(expect.objectContaining({ id: 'card.required-fields', before: 'pass', after: 'fail' }));
  });
});

describe('run-many isolation and input', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-fleet-iso-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('an agent whose run never ends, or throws, does not stall or crash the others', async () => {
    const list = join(dir, 'list.txt');
    writeFileSync(list, '# three agents\nhttp://hang.invalid/\nhttp://throws.invalid/  # a comment\n\nhttp://fine.invalid/\n');
    const t = fleetIo();
    const started = performance.now();
    const code = await runMany(
      {
        file: list,
        outDir: join(dir, 'out'),
        concurrency: 1,
        formats: [],
        minLevel: 'minimal',
        timeoutMs: 1000,
        deadlineMs: 300,
        quiet: false,
        runAgent: async (o) => {
          if (o.agentUrl.includes('hang')) return new Promise<never>(() => undefined); // ignores the abort too
          if (o.agentUrl.includes('throws')) throw new Error('simulated engine bug');
          return { ...conformantReport(), agentUrl: o.agentUrl };
        },
      },
      t.io,
    );
    // Concurrency 1: the hung run was given up after its deadline and grace, then the others ran.
    expect(performance.now() - started).toBeLessThan(300 + GRACE_MS + 3000);
    const s = readSummary(join(dir, 'out'));
    const by = Object.fromEntries(s.agents.map((r) => [new URL(r.url).hostname, r]));
    expect(by['fine.invalid']).toMatchObject({ outcome: 'assessed', level: 'full', meetsMinLevel: true });
    expect(by['hang.invalid']).toMatchObject({ outcome: 'deadline', level: null, meetsMinLevel: false });
    expect(by['hang.invalid']!.message).toMatch(/deadline of 0\.3 s .*given up/);
    expect(by['throws.invalid']).toMatchObject({ level: null, meetsMinLevel: false });
    const thrown = Report.parse(JSON.parse(readFileSync(join(dir, 'out', by['throws.invalid']!.files.json!), 'utf8')));
    expect(thrown.runStatus).toBe('errored');
    expect(code).toBe(1);
    expect(t.err()).toMatch(/\[3\/3\]/);
  });

  it('refuses a file with a literal credential, naming the entry but never the value', async () => {
    const list = join(dir, 'secret.json');
    writeFileSync(
      list,
      JSON.stringify([{ url: 'http://a.invalid/', headers: { Authorization: 'Bearer literal-secret-123456' } }, 'http://user:pw@b.invalid/']),
    );
    const t = fleetIo();
    expect(
      await runMany(
        { file: list, outDir: join(dir, 'never'), concurrency: 1, formats: [], minLevel: 'minimal', timeoutMs: 1000, deadlineMs: 1000, quiet: true },
        t.io,
      ),
    ).toBe(2);
    expect(t.err()).toMatch(/entry 1: header Authorization has a literal value/);
    expect(t.err()).toMatch(/entry 2: the URL carries a credential/);
    expect(t.err()).not.toContain('literal-secret-123456');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('the CLI: usage errors exit 2; merge of outputs that are not shards of one run is refused', async () => {
    const t = fleetIo();
    expect(await main(['run-many'], t.io)).toBe(2);
    expect(await main(['run-many', 'x.txt', '--shard', '4/3'], t.io)).toBe(2);
    expect(await main(['run-many', 'x.txt', '--concurrency', '0'], t.io)).toBe(2);
    expect(await main(['run-many', 'x.txt', '--bearer', 'tok'], t.io)).toBe(2);
    expect(await main(['merge'], t.io)).toBe(2);
    expect(t.err()).toMatch(/run-many needs a file/);
    expect(t.err()).toMatch(/--shard must be I\/N/);
    expect(t.err()).toMatch(/credentials per agent from the file/);
    const a = join(dir, 'a');
    const b = join(dir, 'b');
    const list = join(dir, 'one.txt');
    writeFileSync(list, 'http://127.0.0.1:9/\n');
    const run = (out: string, timeout: string) =>
      main(['run-many', list, '--out-dir', out, '--timeout', timeout, '--deadline', '5', '--only', 'card.discovery', '--quiet'], t.io);
    expect(await Promise.all([run(a, '1'), run(b, '2')])).toEqual([1, 1]);
    expect(await main(['merge', a, b, '--out-dir', join(dir, 'ab')], t.io)).toBe(2);
    expect(t.err()).toMatch(/not shards of one run/);
  });
});
