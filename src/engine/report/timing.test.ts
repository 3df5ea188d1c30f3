import { describe, expect, it } from 'vitest';
import type { CheckResult } from '../model/check';
import type { RunEvent } from '../model/events';
import { Report } from '../model/report';
import { applyEvents, initialRunState } from '../state/run-state';
import { buildReport } from './build';
import { timingOf } from './timing';

const T0 = 1_700_000_000_000;
const result = (id: string, ms: number): CheckResult => ({
  id,
  test: id,
  category: 'lifecycle',
  status: 'pass',
  level: 'MUST',
  tier: 'core',
  message: 'ok',
  duration_ms: ms,
  evidence: [],
});
const started = (id: string, at: number): RunEvent => ({ type: 'check-started', at: T0 + at, checkId: id, title: id, category: 'lifecycle', level: 'MUST' });
const finished = (id: string, at: number, ms: number): RunEvent => ({ type: 'check-finished', at: T0 + at, result: result(id, ms) });
const windowLog = (name: string, at: number, ms: number, closedEarly?: string): RunEvent => ({
  type: 'log',
  at: T0 + at,
  level: 'info',
  message: `window ${name}`,
  window: { name, ms, basis: 'measured', ...(closedEarly && { usedMs: 20, closedEarly }) },
});

function run(extra: RunEvent[], finishAt: number): RunEvent[] {
  return [
    {
      type: 'run-started',
      at: T0,
      runId: 'r',
      agentUrl: 'http://a',
      options: { timeoutMs: 1000, credentials: 'none' },
      tool: { name: 'a2a-interop', version: '0' },
    },
    ...extra,
    { type: 'run-finished', at: T0 + finishAt, status: 'completed' },
  ];
}

describe('timing (the report: where the wall time went)', () => {
  it('names the checks that finished last and the window that held the last one', () => {
    const events = run(
      [
        started('lifecycle.get', 10),
        started('lifecycle.cancel.effective', 10),
        started('lifecycle.push-order', 12),
        finished('lifecycle.get', 60, 50),
        windowLog('cancel.stay', 300, 250),
        finished('lifecycle.cancel.effective', 305, 295),
        windowLog('push.stragglers', 410, 150, 'a delivery came after the terminal one'),
        finished('lifecycle.push-order', 420, 408),
      ],
      430,
    );
    const t = timingOf(applyEvents(initialRunState(), events));
    expect(t?.timeToVerdictMs).toBe(430);
    expect(t?.criticalPath.map((c) => [c.id, c.finishedAtMs, c.durationMs])).toEqual([
      ['lifecycle.push-order', 420, 408],
      ['lifecycle.cancel.effective', 305, 295],
      ['lifecycle.get', 60, 50],
    ]);
    expect(t?.decidingWindow).toBe('push.stragglers');
    expect(t?.decidedBy).toBe('lifecycle.push-order (408 ms), held by its observation window push.stragglers (20 ms)');
    expect(t?.windows.map((w) => [w.name, w.endedAtMs, w.closedEarly])).toEqual([
      ['cancel.stay', 300, undefined],
      ['push.stragglers', 410, 'a delivery came after the terminal one'],
    ]);
  });

  it('names no window when none held the last check (a window of another check, or one that ended long before)', () => {
    const events = run(
      [
        started('lifecycle.cancel.effective', 0),
        windowLog('cancel.stay', 100, 90),
        finished('lifecycle.cancel.effective', 300, 300),
        started('lifecycle.get', 0),
        finished('lifecycle.get', 400, 400),
      ],
      410,
    );
    const t = timingOf(applyEvents(initialRunState(), events));
    expect(t?.decidingWindow).toBeUndefined();
    expect(t?.decidedBy).toBe('lifecycle.get (400 ms)');
    const late = timingOf(
      applyEvents(
        initialRunState(),
        run([started('lifecycle.cancel.effective', 0), windowLog('cancel.stay', 100, 90), finished('lifecycle.cancel.effective', 300, 300)], 310),
      ),
    );
    expect(late?.decidingWindow).toBeUndefined();
  });

  it('goes into the built report, which the report schema accepts', () => {
    const events = run([started('lifecycle.get', 5), finished('lifecycle.get', 40, 35)], 50);
    const report = buildReport(applyEvents(initialRunState(), events), events);
    expect(report.timing?.criticalPath[0]?.id).toBe('lifecycle.get');
    expect(Report.safeParse(JSON.parse(JSON.stringify(report))).success).toBe(true);
    expect(timingOf(initialRunState())).toBeUndefined();
  });
});
