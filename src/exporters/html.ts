import type { CheckResult } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { truncate } from '../engine/util/json';
import { stateFromReport } from '../engine/report/build';
import { checkDurations, exchangeLatencies, resultsPerCategory, streamTimings } from '../engine/report/series';
import {
  CATEGORY_LABELS,
  STATUS_LABELS,
  advisoryResults,
  exportFilename,
  levelLabel,
  requirementLines,
  verdictLine,
  failedResults,
  formatDate,
  formatMs,
  resultMessage,
  resultsByCategory,
  toolErrorResults,
  type ExportFile,
} from './common';
import { scrubForExport } from './sanitize';
import { checkDurationsChart, esc, latencyChart, resultsPerCategoryChart, streamChart } from './svg';

export const HTML_MIME = 'text/html; charset=utf-8';

/** Longest agent text shown in one place; the JSON export keeps the full text. */
export const HTML_TEXT_MAX = 4000;

/** Agent text as HTML text: escaped, capped; line breaks kept by CSS (`white-space: pre-wrap`). */
const text = (s: string, max = HTML_TEXT_MAX) => esc(truncate(s, max));

/** A URL as text, and as a link only when it is http(s) (never `javascript:`, `data:`, ...). */
function urlHtml(url: string): string {
  let href: string | undefined;
  try {
    const u = new URL(url);
    // No user info in a link (the text still shows it, masked): a click must not send credentials.
    u.username = '';
    u.password = '';
    if (u.protocol === 'http:' || u.protocol === 'https:') href = u.href;
  } catch {
    /* not a URL: text only */
  }
  const shown = `<span class="url">${text(url, 500)}</span>`;
  return href ? `<a href="${esc(href)}" rel="noopener noreferrer nofollow">${shown}</a>` : shown;
}

const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--panel:#f6f8fa;
--pass:#1a7f37;--fail:#cf222e;--skip:#8c959f;--error:#bf8700;--ttfb:#0550ae;--total:#80ccff;--first:#8250df;--gap:#e16f24}
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--line:#3d444d;--panel:#151b23;
--pass:#3fb950;--fail:#f85149;--skip:#6e7681;--error:#d29922;--ttfb:#4493f8;--total:#1f4f7a;--first:#ab7df8;--gap:#f0883e}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}
header,main,footer{max-width:1100px;margin:0 auto;padding:16px 24px}
h1{font-size:1.6rem;margin:.2em 0}h2{font-size:1.25rem;margin-top:2em;border-bottom:1px solid var(--line)}h3{font-size:1.05rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px}dt{color:var(--muted)}dd{margin:0}
.url,.msg,td,dd,summary{overflow-wrap:anywhere;white-space:pre-wrap}
a{color:var(--ttfb)}
.level{border:1px solid var(--line);border-left:6px solid var(--muted);background:var(--panel);padding:12px 16px;border-radius:6px}
.level-full{border-left-color:var(--pass)}.level-partial{border-left-color:var(--error)}
.level-minimal{border-left-color:var(--gap)}.level-non-conformant{border-left-color:var(--fail)}.level-not-assessed{border-left-color:var(--muted)}
blockquote.req{margin:4px 0;padding:2px 10px;border-left:3px solid var(--line);color:var(--muted)}.st-advisory{color:var(--ttfb)}
.level .name{font-size:1.4rem;font-weight:700}
.badge{display:inline-block;padding:0 8px;border-radius:10px;border:1px solid currentColor;font-size:.8rem;margin-left:8px}
table{border-collapse:collapse;width:100%;margin:8px 0 16px}
th,td{border:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:var(--panel)}td.num,th.num{text-align:right}
.st{font-weight:600;white-space:nowrap}td.nw{white-space:nowrap;overflow-wrap:normal}.st-pass{color:var(--pass)}.st-fail{color:var(--fail)}.st-skip{color:var(--muted)}.st-error{color:var(--error)}
details{margin-top:4px}summary{cursor:pointer;color:var(--muted)}
figure{margin:16px 0}figcaption{color:var(--muted);font-size:.9rem}
svg.chart{max-width:100%;height:auto;display:block}
svg .label,svg .value{fill:var(--fg);font:12px system-ui,sans-serif}
svg .axis{stroke:var(--line)}
svg .pass{fill:var(--pass)}svg .fail{fill:var(--fail)}svg .advisory{fill:var(--ttfb)}svg .skip{fill:var(--skip)}svg .error{fill:var(--error)}
svg .ttfb{fill:var(--ttfb)}svg .total{fill:var(--total)}svg .first{fill:var(--first)}svg .gap{fill:var(--gap)}
footer{color:var(--muted);font-size:.85rem}
.muted{color:var(--muted)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
`;

const statusCell = (r: CheckResult) => `<td class="st st-${r.status}">${esc(STATUS_LABELS[r.status])}</td>`;
const testCell = (r: CheckResult) => `<td><span class="msg">${text(r.test, 500)}</span><br><code>${text(r.id, 200)}</code></td>`;
const orDash = (s: string) => s || '—';

/** The spec sentences a result enforces, each quoted. */
const requirementHtml = (r: CheckResult) => requirementLines(r).map((l) => `<blockquote class="req">${text(l, 1500)}</blockquote>`).join('');

function evidenceHtml(r: CheckResult): string {
  if (!r.evidence.length && !r.specRef) return '';
  const items = r.evidence
    .map((e) => `<dt>${text(e.label, 200)}${e.path ? ` <code>${text(e.path, 200)}</code>` : ''}</dt><dd>${text(e.value)}</dd>`)
    .join('');
  const spec = r.specRef || r.requirement ? `<dt>Spec</dt><dd>${requirementHtml(r)}</dd>` : '';
  const label = r.evidence.length ? `Evidence (${r.evidence.length})` : 'Spec reference';
  return `<details><summary>${label}</summary><dl class="facts">${spec}${items}</dl></details>`;
}

function figure(caption: string, svg: string | undefined, empty: string): string {
  return `<figure>${svg ?? `<p>${esc(empty)}</p>`}<figcaption>${esc(caption)}</figcaption></figure>`;
}

/**
 * One self-contained HTML page for people who will never run the tool: level, summary, failed tests with
 * recommendations, results by category and static SVG charts (from report/series.ts). No script and no
 * network: a Content-Security-Policy forbids both, so even a missed escape could not run or fetch anything.
 * Light and dark follow `prefers-color-scheme`. Credentials are masked first; every agent string is escaped text.
 */
export function toHtml(input: Report): ExportFile {
  const report = scrubForExport(input);
  const state = stateFromReport(report);
  const { summary } = report;
  const title = `A2A conformance report: ${report.agentName}`;

  const facts: [string, string][] = [
    ['Agent', `${text(report.agentName, 500)} <span class="muted">(version ${text(report.agentVersion, 500)})</span>`],
    ['URL', urlHtml(report.agentUrl)],
    ...(report.peerUrl !== undefined ? ([['Peer', urlHtml(report.peerUrl)]] as [string, string][]) : []),
    ['Generation', esc(report.protocol.generation ?? 'unknown')],
    ['Binding', esc(report.protocol.binding ?? 'unknown')],
    ['Endpoint', report.protocol.endpointUrl ? urlHtml(report.protocol.endpointUrl) : 'unknown'],
    ['Date', esc(formatDate(report.testDate))],
    ['Run', `${esc(report.runStatus)} in ${esc(formatMs(report.durationMs))} (run ${text(report.runId, 200)})`],
    ['Tool', text(`${report.tool.name} ${report.tool.version}`, 200)],
  ];
  if (report.protocol.evidence.length) {
    facts.push(['Detected from', report.protocol.evidence.map((e) => text(e, 500)).join('<br>')]);
  }

  const failed = failedResults(report);
  const errors = toolErrorResults(report);
  const latencies = exchangeLatencies(state);
  const streams = streamTimings(state);
  const durations = checkDurations(state);

  const out: string[] = [];
  out.push(
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    `<meta name="generator" content="${esc(`${report.tool.name} ${report.tool.version}`)}">`,
    `<title>${text(title, 300)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    '<h1>A2A conformance report</h1>',
    `<p class="msg">${text(report.agentName, 500)}</p>`,
    '</header>',
    '<main>',
  );

  out.push(
    '<section aria-labelledby="h-overview">',
    '<h2 id="h-overview">Overview</h2>',
    `<div class="level level-${esc(report.conformanceLevel ?? 'not-assessed')}">`,
    `<p>Conformance level: <span class="name">${esc(levelLabel(report))}</span>${report.provisional ? '<span class="badge">provisional</span>' : ''}</p>`,
    `<p>${esc(verdictLine(report))}</p>`,
    `<p class="msg">${text(report.levelReason)}</p>`,
    report.provisional ? '<p>Provisional: our tool could not run every check or the run did not complete, so the level may change.</p>' : '',
    '</div>',
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
    '</section>',
  );

  out.push(
    '<section aria-labelledby="h-summary">',
    '<h2 id="h-summary">Summary</h2>',
    '<table>',
    '<caption class="sr">Number of checks by outcome</caption>',
    '<thead><tr><th scope="col" class="num">Total</th><th scope="col" class="num">Passed</th><th scope="col" class="num">Failed (required)</th><th scope="col" class="num">Advisories</th><th scope="col" class="num">Skipped</th><th scope="col" class="num">Errors (tool)</th></tr></thead>',
    `<tbody><tr>${[summary.total, summary.passed, summary.failed, summary.advisories, summary.skipped, summary.errors].map((n) => `<td class="num">${n}</td>`).join('')}</tr></tbody>`,
    '</table>',
    '</section>',
  );

  out.push('<section aria-labelledby="h-failed">', '<h2 id="h-failed">Failed tests</h2>');
  if (failed.length) {
    out.push(
      '<table>',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th><th scope="col">Recommendation</th><th scope="col">Requirement</th></tr></thead>',
      '<tbody>',
      ...failed.map(
        (r) =>
          `<tr>${testCell(r)}<td>${esc(CATEGORY_LABELS[r.category])}</td><td class="msg">${orDash(text(r.message))}</td>` +
          `<td class="msg">${orDash(text(r.recommendation ?? ''))}</td><td class="msg">${orDash(requirementHtml(r))}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
    );
  } else {
    out.push(report.notAssessed ? `<p>Not assessed: ${text(report.notAssessed.message)}</p>` : '<p>No required check failed.</p>');
  }
  out.push('</section>');

  const advisories = advisoryResults(report);
  if (advisories.length) {
    out.push(
      '<section aria-labelledby="h-advisories">',
      '<h2 id="h-advisories">Advisories</h2>',
      '<p>Not required by the specification of the generation spoken (nothing stronger than MAY, or the spec contradicts itself); they do not affect the level.</p>',
      '<table>',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th><th scope="col">Recommendation</th></tr></thead>',
      '<tbody>',
      ...advisories.map(
        (r) =>
          `<tr>${testCell(r)}<td>${esc(CATEGORY_LABELS[r.category])}</td><td class="msg">${orDash(text(resultMessage(r)))}</td>` +
          `<td class="msg">${orDash(text(r.recommendation ?? ''))}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      '</section>',
    );
  }

  if (errors.length) {
    out.push(
      '<section aria-labelledby="h-errors">',
      '<h2 id="h-errors">Not verified (tool errors)</h2>',
      '<p>Our tool or its proxy failed on these checks; they do not count against the agent.</p>',
      '<table>',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th></tr></thead>',
      '<tbody>',
      ...errors.map(
        (r) =>
          `<tr>${testCell(r)}<td>${esc(CATEGORY_LABELS[r.category])}</td>` +
          `<td class="msg">${orDash(text(r.message))}${r.proxyError ? `<br>Proxy error: <code>${text(r.proxyError, 200)}</code>` : ''}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      '</section>',
    );
  }

  out.push(
    '<section aria-labelledby="h-charts">',
    '<h2 id="h-charts">Charts</h2>',
    figure('Checks per category by outcome.', resultsPerCategoryChart(resultsPerCategory(state)), ''),
    figure(
      'How long each check took (slowest first).',
      durations.length ? checkDurationsChart(durations) : undefined,
      'No finished checks.',
    ),
    figure(
      'Latency of each HTTP exchange with the agent, in request order.',
      latencies.length ? latencyChart(latencies) : undefined,
      'No HTTP exchanges are recorded in this report (it carries no event log).',
    ),
    figure(
      'Server-sent event streams: time to the first event and the longest pause between events.',
      streams.length ? streamChart(streams) : undefined,
      'No SSE streams are recorded in this report.',
    ),
    '</section>',
  );

  out.push('<section aria-labelledby="h-results">', '<h2 id="h-results">Results by category</h2>');
  resultsByCategory(report).forEach(({ category, results }, i) => {
    out.push(`<section aria-labelledby="h-cat-${i}">`, `<h3 id="h-cat-${i}">${esc(CATEGORY_LABELS[category])}</h3>`);
    if (!results.length) {
      out.push('<p>No checks in this category.</p>', '</section>');
      return;
    }
    out.push(
      '<table>',
      '<thead><tr><th scope="col">Test</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col" class="num">Time</th><th scope="col">Message</th><th scope="col">Recommendation</th></tr></thead>',
      '<tbody>',
      ...results.map(
        (r) =>
          `<tr>${testCell(r)}<td class="nw">${esc(r.level)}</td>${statusCell(r)}<td class="num nw">${esc(formatMs(r.duration_ms))}</td>` +
          `<td class="msg">${orDash(text(resultMessage(r)))}${evidenceHtml(r)}</td><td class="msg">${orDash(text(r.recommendation ?? ''))}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      '</section>',
    );
  });
  out.push('</section>', '</main>');

  out.push(
    '<footer>',
    `<p>Generated by ${text(`${report.tool.name} ${report.tool.version}`, 200)} from run ${text(report.runId, 200)}. ` +
      'Agent-supplied text is shown as plain text and long text is shortened; the JSON export holds the full data. ' +
      'Credentials are masked.</p>',
    '</footer>',
    '</body>',
    '</html>',
  );
  return { filename: exportFilename(report, 'html'), mimeType: HTML_MIME, body: `${out.filter((l) => l !== '').join('\n')}\n` };
}
