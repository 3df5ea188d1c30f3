/**
 * Issue 7, the hostile-agent corpus, engine direct (Node host): every behaviour ends, within its time budget,
 * with a valid report whose verdict names the problem, and a small serializable event log.
 * The whole corpus runs at once (bounded), then each behaviour's outcome is judged in its own test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportReport, EXPORT_FORMATS } from '../../exporters';
import { createNodeHost } from '../../hosts/node';
import { HOSTILE_BEHAVIOURS, HOSTILE_CARD_TEXT, HOSTILE_NAMES, HUGE_CARD_BYTES } from './behaviours';
import { EXPECT, judge, runCorpus, SECRET, describeRun, type CorpusRun } from './corpus';
import type { HostileName } from './behaviours';

let runs = new Map<HostileName, CorpusRun>();
let corpusMs = 0;

beforeAll(async () => {
  const t = performance.now();
  runs = await runCorpus(() => createNodeHost(), 12);
  corpusMs = performance.now() - t;
}, 120_000);

afterAll(() => {
  const slowest = [...runs.values()].sort((a, b) => b.wallMs - a.wallMs).slice(0, 3);
  console.log(
    `hostile corpus (direct): ${runs.size} runs in ${Math.round(corpusMs)} ms; slowest ${slowest.map((r) => `${r.name} ${Math.round(r.wallMs)} ms`).join(', ')}`,
  );
});

const run = (name: HostileName) => {
  const r = runs.get(name);
  if (!r) throw new Error(`${name} did not run`);
  return r;
};

describe('hostile-agent corpus, engine direct', () => {
  it('has at least 25 behaviours, each with an expectation', () => {
    expect(HOSTILE_NAMES.length).toBeGreaterThanOrEqual(25);
    expect(Object.keys(EXPECT).sort()).toEqual([...HOSTILE_NAMES].sort());
  });

  it.each(HOSTILE_NAMES.map((n) => [n, HOSTILE_BEHAVIOURS[n].description]))('%s (%s)', (name) => {
    const r = run(name as HostileName);
    expect(judge(r, 'direct'), describeRun(r)).toEqual([]);
  });

  it('hostile card text stays data: kept verbatim in the report, escaped in every export', () => {
    const report = run('card-html-script').report!;
    expect(report.agentName).toBe(HOSTILE_CARD_TEXT.name);
    for (const format of EXPORT_FORMATS) {
      const { file, fallback } = exportReport(report, format);
      expect(fallback, format).toBeUndefined();
      if (format === 'html') {
        expect(file.body).not.toContain('<script>window.__pwned');
        expect(file.body).not.toContain('<img src=x onerror');
        expect(file.body).not.toMatch(/href="javascript:/i);
        expect(file.body).toMatch(/(&lt;|&#60;)script(&gt;|&#62;)window\.__pwned=1(&lt;|&#60;)\/script(&gt;|&#62;)Evil agent/);
      }
    }
  });

  it('every report of the corpus exports to every format without falling back', () => {
    for (const r of runs.values()) {
      for (const format of EXPORT_FORMATS) expect(exportReport(r.report, format).fallback, `${r.name} ${format}`).toBeUndefined();
    }
  });

  it('a redirect to another host does not carry the credentials there', () => {
    const r = run('rpc-redirect-other-host');
    expect(r.sideRequests.length).toBeGreaterThan(0); // the redirect was followed
    for (const q of r.sideRequests) expect(JSON.stringify(q)).not.toContain(SECRET);
    expect(JSON.stringify(r.report)).not.toContain(SECRET);
  });

  it('the agents misbehaved as claimed while the engine stayed bounded', () => {
    const card = run('card-50mb').stats.cardBytesOffered!;
    // More than our 5 MB read limit went out, but far from all 50 MB: the engine stopped reading.
    expect(card).toBeGreaterThan(5 * 1024 * 1024);
    expect(card).toBeLessThan(HUGE_CARD_BYTES);
    const flood = run('sse-flood');
    expect(flood.stats.floodEvents).toBeGreaterThan(2000);
    const perStream = new Map<string, number>();
    for (const e of flood.events) if (e.type === 'sse-event') perStream.set(e.exchangeId, (perStream.get(e.exchangeId) ?? 0) + 1);
    expect(Math.max(...perStream.values())).toBeLessThanOrEqual(2000);
    expect(run('rpc-never-answers').stats.unanswered).toBeGreaterThan(0);
    expect(run('rpc-drip').stats.bytesDripped).toBeGreaterThan(0);
    expect(run('sse-invalid-utf8').stats.invalidEvents).toBeGreaterThan(0);
  });
});
