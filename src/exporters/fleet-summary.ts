/**
 * The summary of a fleet run (`a2a-interop run-many`, `a2a-interop merge`): one row per agent (level, counts
 * per category, trend against a baseline, report files), as JSON (what `merge` reads), Markdown and HTML.
 * Pure: the CLI (src/cli/fleet.ts) and the dashboard's fleet page do the I/O, and both write this same summary.
 * Every string from an agent or a file is escaped for the format it lands in.
 */
import { CATEGORIES, CATEGORY_KEYS, type Category, type CheckResult } from '../engine/model/check';
import type { ConformanceLevel, Report, ReportComparison, Summary } from '../engine/model/report';
import { CATEGORY_LABELS, formatMs, levelLabel } from './common';
import { mdText } from './markdown';
import { esc } from './svg';
import { badgeOf } from './badge';

export const FLEET_SUMMARY_KIND = 'a2a-interop-fleet-summary';
export const FLEET_SUMMARY_VERSION = 1;

export interface CategoryCell {
  total: number;
  passed: number;
  failed: number;
  advisories: number;
  skipped: number;
  errors: number;
}

/**
 * How one agent's run ended: `assessed` (a level), `selected` (only some checks ran, `--only`: judged, no level; it
 * meets the gate when none of them failed), `not-assessed` (unreachable, no card, ...), `not-run` (a
 * referenced environment variable is not set) or `deadline` (the per-agent deadline stopped it).
 */
export type FleetOutcome = 'assessed' | 'selected' | 'not-assessed' | 'not-run' | 'deadline';

export interface FleetRow {
  key: string;
  name: string;
  url: string;
  outcome: FleetOutcome;
  level: ConformanceLevel | null;
  /** `full`, `not assessed (unreachable)`, `not run`, ... */
  levelLabel: string;
  provisional: boolean;
  /** Why it was not run, or what the deadline cut. */
  message?: string;
  generation: string | null;
  binding: string | null;
  summary: Summary;
  categories: Record<Category, CategoryCell>;
  /** Report files, relative to the summary's directory, by format. */
  files: Record<string, string>;
  /** Against the baseline run of the same agent (`--baseline-dir`); `new` when the baseline had no such agent. */
  trend?:
    | {
        status: 'compared';
        baselineLevel: ConformanceLevel | null;
        levelMove: ReportComparison['levelMove'];
        verdict: ReportComparison['verdict'];
        summary: string;
        regressions: number;
      }
    | { status: 'new' };
  meetsMinLevel: boolean;
  durationMs: number;
}

export interface FleetSummary {
  kind: typeof FLEET_SUMMARY_KIND;
  version: typeof FLEET_SUMMARY_VERSION;
  tool: { name: string; version: string };
  generatedAt: string;
  /** What the run was asked; shards of one run share it, and `merge` refuses shards that differ. */
  options: { minLevel: ConformanceLevel; timeoutMs: number; deadlineMs: number; only?: string[]; formats: string[]; baseline: boolean };
  /** Set on a shard's summary (`--shard i/n`); a merged or unsharded summary has none. */
  shard?: { index: number; total: number };
  agents: FleetRow[];
  /** Wall time of the run (a merged summary: the longest shard's). */
  wallMs: number;
}

const emptyCell = (): CategoryCell => ({ total: 0, passed: 0, failed: 0, advisories: 0, skipped: 0, errors: 0 });
const STATUS_FIELD: Record<CheckResult['status'], keyof CategoryCell> = {
  pass: 'passed',
  fail: 'failed',
  advisory: 'advisories',
  skip: 'skipped',
  error: 'errors',
};

/** Counts per category of a report. */
function categoryCells(report: Report): Record<Category, CategoryCell> {
  const out = Object.fromEntries(CATEGORIES.map((c) => [c, emptyCell()])) as Record<Category, CategoryCell>;
  for (const c of CATEGORIES) {
    for (const r of report.categories[CATEGORY_KEYS[c]]) {
      out[c].total++;
      out[c][STATUS_FIELD[r.status]]++;
    }
  }
  return out;
}

export const emptyCategories = (): Record<Category, CategoryCell> =>
  Object.fromEntries(CATEGORIES.map((c) => [c, emptyCell()])) as Record<Category, CategoryCell>;

export const emptySummary = (): Summary => ({ total: 0, passed: 0, failed: 0, advisories: 0, skipped: 0, errors: 0, notRun: 0 });

/** The summary without what differs between two runs of the same agents (times, dates, sharding): for comparisons. */
export function normalizeSummary(s: FleetSummary): Omit<FleetSummary, 'generatedAt' | 'wallMs' | 'shard'> {
  const { generatedAt: _g, wallMs: _w, shard: _s, ...rest } = s;
  return { ...rest, agents: rest.agents.map((a) => ({ ...a, durationMs: 0 })) };
}

/** Rows sorted by key (the order of the agent list after parsing), so merged shards equal an unsharded run. */
export const sortRows = (rows: readonly FleetRow[]): FleetRow[] => [...rows].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

const LEVEL_ORDER = ['full', 'partial', 'minimal', 'non-conformant'] as const;

/** `full 3 · partial 1 · not assessed 2 · not run 1 · 1 regressed`. */
export function totalsLine(s: FleetSummary): string {
  const n = (f: (r: FleetRow) => boolean) => s.agents.filter(f).length;
  const parts = LEVEL_ORDER.map((l) => [l, n((r) => r.level === l)] as const)
    .filter(([, k]) => k > 0)
    .map(([l, k]) => `${l} ${k}`);
  const sel = n((r) => r.outcome === 'selected');
  if (sel) parts.push(`selected checks only ${sel} (${n((r) => r.outcome === 'selected' && r.summary.failed > 0)} with a failure)`);
  const na = n((r) => r.outcome === 'not-assessed');
  const dl = n((r) => r.outcome === 'deadline');
  const nr = n((r) => r.outcome === 'not-run');
  if (na) parts.push(`not assessed ${na}`);
  if (dl) parts.push(`stopped at the deadline ${dl}`);
  if (nr) parts.push(`not run ${nr}`);
  if (s.options.baseline) parts.push(`${n((r) => r.trend?.status === 'compared' && r.trend.verdict === 'regressed')} regressed`);
  parts.push(`${n((r) => !r.meetsMinLevel)} below ${s.options.minLevel}`);
  return parts.join(' · ');
}

const ARROWS: Record<ReportComparison['levelMove'], string> = { up: '↑', down: '↓', same: '=', assessed: '↑', unassessed: '↓', 'both-unassessed': '=' };

function trendText(r: FleetRow): string {
  if (!r.trend) return '';
  if (r.trend.status === 'new') return 'new (not in the baseline)';
  return `${ARROWS[r.trend.levelMove]} ${r.trend.verdict}: ${r.trend.summary}`;
}

function cellText(c: CategoryCell): string {
  if (!c.total) return '—';
  const judged = c.passed + c.failed;
  const extra = [c.advisories ? `${c.advisories} advisory` : '', c.errors ? `${c.errors} tool error${c.errors === 1 ? '' : 's'}` : '']
    .filter(Boolean)
    .join(', ');
  const main = c.failed ? `✗ ${c.failed} failed of ${judged}` : judged ? `✓ ${c.passed} passed` : `– ${c.skipped} skipped`;
  return extra ? `${main} (${extra})` : main;
}

/** The report a row links to: HTML, else Markdown, else JSON. */
const mainFile = (r: FleetRow) => r.files.html ?? r.files.markdown ?? r.files.json;

/** The summary as Markdown (a CI job summary, a PR or issue comment). */
export function fleetMarkdown(s: FleetSummary): string {
  const lines = [`# A2A conformance of ${s.agents.length} agent${s.agents.length === 1 ? '' : 's'}`, ''];
  lines.push(mdText(totalsLine(s), 1000), '');
  const head = ['Agent', 'Level', ...(s.options.baseline ? ['Trend'] : []), ...CATEGORIES.map((c) => CATEGORY_LABELS[c]), 'Report'];
  lines.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`);
  for (const r of s.agents) {
    const file = mainFile(r);
    const cells = [
      `${mdText(r.name, 120)}<br>${mdText(r.url, 300)}`,
      `${r.meetsMinLevel ? '' : '⚠️ '}**${mdText(r.levelLabel, 100)}**${r.message ? `<br>${mdText(r.message, 300)}` : ''}`,
      ...(s.options.baseline ? [mdText(trendText(r), 300)] : []),
      ...CATEGORIES.map((c) => mdText(cellText(r.categories[c]), 100)),
      file ? `[${mdText(file.split('/').pop() ?? file, 120)}](${encodeURI(file)})` : '—',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    `<sub>${mdText(`${s.tool.name} ${s.tool.version}`, 100)} · ${s.agents.length} agents in ${formatMs(s.wallMs)} · ⚠️ below --min-level ${s.options.minLevel}</sub>`,
    '',
  );
  return lines.join('\n');
}

const STYLE = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23}}
body{margin:0;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif}
main{padding:16px 24px}h1{font-size:1.4rem;margin:0 0 4px}p.totals{color:var(--muted);margin:0 0 16px}
.wrap{overflow-x:auto}table{border-collapse:collapse;min-width:100%}caption{text-align:left;color:var(--muted);padding:4px 0}
th,td{border:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}thead th{background:var(--panel);position:sticky;top:0}
.url{display:block;color:var(--muted);word-break:break-all;font-size:.9em}
.level{display:inline-block;padding:1px 8px;border-radius:10px;font-weight:600;white-space:nowrap}
.below{font-weight:600}a{color:inherit}`;

/** The summary as one self-contained HTML page (no script, no external load; CSP says so). */
export function fleetHtml(s: FleetSummary): string {
  const head = ['Agent', 'Level', ...(s.options.baseline ? ['Trend'] : []), ...CATEGORIES.map((c) => CATEGORY_LABELS[c]), 'Report'];
  const rows = s.agents.map((r) => {
    const b = badgeOf({ conformanceLevel: r.level, provisional: r.provisional, notAssessed: undefined });
    const levelCell =
      `<span class="level" style="background:${b.color};color:${b.textColor}">${esc(r.levelLabel)}</span>` +
      (r.meetsMinLevel ? '' : `<div class="below">below ${esc(s.options.minLevel)}</div>`) +
      (r.message ? `<div>${esc(r.message.slice(0, 300))}</div>` : '');
    const file = mainFile(r);
    const link = file ? `<a href="${esc(encodeURI(file))}">${esc(file.split('/').pop() ?? file)}</a>` : '—';
    const cells = [
      `<th scope="row">${esc(r.name.slice(0, 120))}<span class="url">${esc(r.url.slice(0, 300))}</span></th>`,
      `<td>${levelCell}</td>`,
      ...(s.options.baseline ? [`<td>${esc(trendText(r))}</td>`] : []),
      ...CATEGORIES.map((c) => `<td>${esc(cellText(r.categories[c]))}</td>`),
      `<td>${link}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  const title = `A2A conformance of ${s.agents.length} agent${s.agents.length === 1 ? '' : 's'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${esc(title)}</h1><p class="totals">${esc(totalsLine(s))}</p>
<div class="wrap" tabindex="0"><table><caption>One row per agent: its level, and per category what failed or passed${s.options.baseline ? ', with the trend against the baseline' : ''}.</caption>
<thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div>
<p class="totals">${esc(`${s.tool.name} ${s.tool.version} · ${s.agents.length} agents in ${formatMs(s.wallMs)}`)}</p></main></body></html>
`;
}

/** The row of an agent whose run produced a report. */
export function rowOf(
  key: string,
  report: Report,
  extra: { files: Record<string, string>; minLevel: ConformanceLevel; meets: (level: ConformanceLevel | null) => boolean; deadline?: string; name?: string },
): FleetRow {
  const c = report.comparison;
  const deadline = extra.deadline !== undefined;
  return {
    key,
    // The name the list gives (the registry's), else the card's.
    name: extra.name ?? (report.agentName !== '(unknown)' ? report.agentName : report.agentUrl),
    url: report.agentUrl,
    outcome: deadline ? 'deadline' : report.conformanceLevel ? 'assessed' : report.notAssessed?.reason === 'selected-checks' ? 'selected' : 'not-assessed',
    level: report.conformanceLevel,
    levelLabel: deadline && !report.conformanceLevel ? 'stopped at the deadline' : levelLabel(report),
    provisional: report.provisional,
    ...(extra.deadline ? { message: extra.deadline } : {}),
    generation: report.protocol.generation,
    binding: report.protocol.binding,
    summary: report.summary,
    categories: categoryCells(report),
    files: extra.files,
    ...(c
      ? {
          trend: {
            status: 'compared' as const,
            baselineLevel: c.baseline.level,
            levelMove: c.levelMove,
            verdict: c.verdict,
            summary: c.summary,
            regressions: c.regressions.length,
          },
        }
      : {}),
    // A run of selected checks has no level: it meets the gate when none of them failed (as `a2a-interop run --only`).
    meetsMinLevel: !deadline && (report.notAssessed?.reason === 'selected-checks' ? report.summary.failed === 0 : extra.meets(report.conformanceLevel)),
    durationMs: report.durationMs,
  };
}
