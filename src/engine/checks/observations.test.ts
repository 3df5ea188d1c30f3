/**
 * Every observation of the suite that watches for something NOT happening, listed once: the observation windows of
 * windows.ts (sized from the run, closed at the first decisive answer) and the observations that need no window of
 * their own. Each is proven to still fail with a defect of the test agent, and to pass without it (same setup, same
 * `only`), so shortening a window can never silently turn an observation into a formality.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type DefectName, type RunningDefectAgent } from '../../testing/defect-agent';
import type { CheckResult } from '../model/check';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { WINDOWS } from './windows';

interface Observation {
  /** What is watched for, as a sentence. */
  what: string;
  /** The window of windows.ts it is made in (none: a single answer decides it). */
  window?: string;
  defect: DefectName;
  check: string;
  generation: 'v0.3' | 'v1.0';
  push?: boolean;
  /** The test agent's slow task (default 300 ms) and the skills exercised (default: every one). */
  slowTaskMs?: number;
  skills?: string[];
}

const OBSERVATIONS: Observation[] = [
  {
    what: 'a canceled task stays canceled (here it reverts to completed 1.5 s after it started)',
    window: 'cancel.stay',
    defect: 'cancel-reverts',
    check: 'lifecycle.cancel.effective',
    generation: 'v1.0',
    slowTaskMs: 1500,
    skills: ['slow-report'],
  },
  {
    what: 'nothing is delivered after the terminal delivery',
    window: 'push.stragglers',
    defect: 'push-out-of-order',
    check: 'lifecycle.push-order',
    generation: 'v1.0',
    push: true,
  },
  {
    what: 'nothing is delivered once the push config is deleted',
    window: 'push.after-delete',
    defect: 'push-after-delete',
    check: 'lifecycle.push-after-delete',
    generation: 'v1.0',
    push: true,
  },
  { what: 'a stream closes after its final event', window: 'stream.close', defect: 'sse-never-ends', check: 'streaming.closes', generation: 'v0.3' },
  { what: 'a JSON-RPC notification gets no reply', defect: 'notification-answered', check: 'errors.notification', generation: 'v1.0' },
];

const agents: RunningDefectAgent[] = [];
afterAll(() => Promise.all(agents.map((a) => a.close())));

async function judge(o: Observation, defects: DefectName[]) {
  const agent = await startDefectAgent({ generation: o.generation, defects, slowTaskMs: o.slowTaskMs ?? 300, stepMs: 10, features: { push: !!o.push } });
  agents.push(agent);
  const report = await runConformance(
    createNodeHost(),
    { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), timeoutMs: 8000, only: [o.check], skills: o.skills },
    () => {},
  );
  await agent.close();
  const result = reportResults(report).find((r) => r.id === o.check) as CheckResult;
  return { result, windows: report.timing?.windows ?? [] };
}

describe('every observation the suite makes can still fail', () => {
  it('lists every observation window of windows.ts (a grace that judges nothing by itself is not one)', () => {
    const observing = WINDOWS.filter((w) => w.observes).map((w) => w.name);
    expect(observing.length).toBeGreaterThan(3);
    expect(observing.filter((name) => !OBSERVATIONS.some((o) => o.window === name))).toEqual([]);
    for (const o of OBSERVATIONS.filter((x) => x.window)) expect(WINDOWS.find((w) => w.name === o.window)?.checks).toContain(o.check);
  });

  it.concurrent.each(OBSERVATIONS)('$check: $what (defect $defect)', async (o) => {
    const [clean, broken] = await Promise.all([judge(o, []), judge(o, [o.defect])]);
    expect(clean.result.status, clean.result.message).toBe('pass');
    expect(['fail', 'advisory'], broken.result.message).toContain(broken.result.status);
    if (o.window && o.window !== 'stream.close') {
      // The window was used and named in the report's timing, on both runs; a defect seen before its end closed it
      // early (the decisive answer): the clean run watched it to its end.
      expect(clean.windows.map((w) => w.name)).toContain(o.window);
      expect(clean.windows.find((w) => w.name === o.window)?.closedEarly).toBeUndefined();
      const seen = broken.windows.find((w) => w.name === o.window);
      expect(seen, JSON.stringify(broken.windows)).toBeDefined();
      if (seen?.closedEarly) expect(seen.usedMs ?? Infinity).toBeLessThan(seen.ms);
    }
    if (o.window === 'stream.close') {
      // The grace is reported on both runs: the clean stream closed it early (by closing), the endless one held it
      // to its end, which is the finding.
      const clean0 = clean.windows.find((w) => w.name === o.window);
      const broken0 = broken.windows.find((w) => w.name === o.window);
      expect(clean0?.closedEarly, JSON.stringify(clean.windows)).toBe('the stream closed');
      expect(broken0, JSON.stringify(broken.windows)).toBeDefined();
      expect(broken0?.closedEarly).toBeUndefined();
    }
  });
});
