// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { compareWithBaseline } from '../engine/report/baseline';
import { HOSTILE_TEXT, conformantReport, hostileReport, unreachableReport } from '../testing/fixtures/reports';
import { FLEET_SUMMARY_KIND, FLEET_SUMMARY_VERSION, fleetHtml, fleetMarkdown, normalizeSummary, rowOf, totalsLine, type FleetSummary } from './fleet-summary';

const meets = (l: string | null) => l === 'full' || l === 'partial' || l === 'minimal';

function summary(): FleetSummary {
  const ok = conformantReport();
  const hostile = hostileReport();
  return {
    kind: FLEET_SUMMARY_KIND,
    version: FLEET_SUMMARY_VERSION,
    tool: { name: 'a2a-interop', version: '0.1.0' },
    generatedAt: '2026-12-01T00:00:00.000Z',
    options: { minLevel: 'minimal', timeoutMs: 5000, deadlineMs: 60000, formats: ['json', 'html'], baseline: true },
    agents: [
      rowOf('a', { ...ok, comparison: compareWithBaseline(ok, ok) }, { files: { json: 'agents/a.json', html: 'agents/a.html' }, minLevel: 'minimal', meets }),
      rowOf('b', hostile, { files: { json: 'agents/b <x>.json' }, minLevel: 'minimal', meets, name: `<script>alert(1)</script> ${HOSTILE_TEXT}` }),
      rowOf('c', unreachableReport(), { files: { json: 'agents/c.json' }, minLevel: 'minimal', meets }),
    ],
    wallMs: 1234,
  };
}

describe('fleet summary', () => {
  it('counts levels and outcomes in one line', () => {
    // The hostile report is of a stopped run: no level.
    expect(summary().agents[1]!.level).toBeNull();
    expect(summary().agents[1]!.levelLabel).toBe('no level (stopped: incomplete run)');
    expect(totalsLine(summary())).toBe('full 1 · not assessed 2 · 0 regressed · 2 below minimal');
  });

  it('Markdown: one row per agent with the category cells, trend and report link; agent text escaped', () => {
    const md = fleetMarkdown(summary());
    const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| Agent') && !l.startsWith('| ---'));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatch(
      /^\| Echo Agent<br>http:\/\/127\.0\.0\.1:41241 \| \*\*full\*\* \| = unchanged: full → full .* \| ✓ 1 passed \|.*\| \[a\.html\]\(agents\/a\.html\) \|$/,
    );
    expect(rows[1]).not.toMatch(/<script>|\n/);
    expect(rows[1]).toContain('(agents/b%20%3Cx%3E.json)');
    expect(rows[2]).toMatch(/⚠️ \*\*not assessed \(unreachable\)\*\*/);
  });

  it('HTML: well-formed, escaped, no script, level in words', () => {
    const html = fleetHtml(summary());
    expect(html).not.toContain('<script>');
    const doc = new DOMParser().parseFromString(html, 'text/html');
    expect(doc.querySelectorAll('script')).toHaveLength(0);
    const rows = [...doc.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(3);
    expect(rows[1]!.querySelector('th')!.textContent).toContain('<script>alert(1)</script>');
    expect(rows[0]!.querySelector('.level')!.textContent).toBe('full');
    expect(rows[2]!.querySelector('.level')!.textContent).toBe('not assessed (unreachable)');
    expect(rows[2]!.textContent).toContain('below minimal');
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toContain("default-src 'none'");
  });

  it('normalizeSummary drops only what differs between two runs of the same agents', () => {
    const a = summary();
    const b = { ...summary(), generatedAt: 'later', wallMs: 9, shard: { index: 1, total: 2 }, agents: summary().agents.map((r) => ({ ...r, durationMs: 5 })) };
    expect(normalizeSummary(a)).toEqual(normalizeSummary(b));
    expect(normalizeSummary(a)).not.toEqual(normalizeSummary({ ...b, agents: b.agents.slice(1) }));
  });
});
