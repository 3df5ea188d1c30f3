import { isInformational, type CheckResult } from '../engine/model/check';
import { judgedWithoutLevel, type Report } from '../engine/model/report';
import { truncate } from '../engine/util/json';
import { stateFromReport } from '../engine/report/build';
import { checkDurations, exchangeLatencies, resultsPerCategory, streamTimings, type CategoryCounts } from '../engine/report/series';
import {
  CATEGORY_LABELS,
  noLevelTitle,
  STATUS_LABELS,
  advisoryResults,
  exportFilename,
  verdictLine,
  failedResults,
  formatDate,
  formatMs,
  resultMessage,
  resultsByCategory,
  SECURITY_NOTE,
  securityFindings,
  timingLines,
  toolErrorResults,
  type ExportFile,
} from './common';
import { comparisonHtml } from './comparison';
import { HTML_STYLE } from './html-style';
import { scrubForExport } from './sanitize';
import { checkDurationsChart, esc, latencyChart, resultsPerCategoryChart, streamChart } from './svg';

export const HTML_MIME = 'text/html; charset=utf-8';

/** Longest agent text shown in one place; the JSON export keeps the full text. */
const HTML_TEXT_MAX = 4000;

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
  return href ? `<a class="self" href="${esc(href)}" rel="noopener noreferrer nofollow">${shown}</a>` : shown;
}

const statusCell = (r: CheckResult) => `<td class="st st-${r.status}" data-label="Status">${esc(STATUS_LABELS[r.status])}</td>`;
const testCell = (r: CheckResult) => `<td><span class="msg">${text(r.test, 500)}</span><br><code>${text(r.id, 200)}</code></td>`;
const orDash = (s: string) => s || '—';

/**
 * The spec sentences a result enforces, each quoted under its source. A schema or proto excerpt (a required field,
 * or a quote that is itself JSON) is shown as code, never wrapped in quotation marks of ours (no `""required"…"`).
 */
function requirementHtml(r: CheckResult): string {
  const req = r.requirement;
  if (!req) return r.specRef ? `<blockquote class="req">${text(r.specRef, 1500)}</blockquote>` : '';
  const quotes = req.sentences.map((s) => {
    const keyword = s.keyword === 'required-field' ? 'required field' : s.keyword === 'none' ? 'no requirement word' : s.keyword;
    const code = s.keyword === 'required-field' || /^["{[]/.test(s.quote.trim());
    const body = code ? `<code>${text(s.quote, 1500)}</code>` : `“${text(s.quote, 1500)}”`;
    return `<blockquote class="req"><span class="src">${text(`${s.doc} ${s.section} (${keyword}):`, 300)}</span> ${body}</blockquote>`;
  });
  if (req.note) quotes.push(`<blockquote class="req">${text(`Note: ${req.note}`, 1500)}</blockquote>`);
  return quotes.join('');
}

/** A failure's requirement, folded: the sentences are long, the row stays short until it is opened. */
function requirementDetails(r: CheckResult): string {
  const body = requirementHtml(r);
  if (!body) return '';
  const n = r.requirement?.sentences.length ?? 1;
  return `<details><summary>${esc(r.level)} · ${n === 1 ? '1 sentence' : `${n} sentences`}</summary>${body}</details>`;
}

function evidenceHtml(r: CheckResult): string {
  if (!r.evidence.length && !r.specRef) return '';
  const items = r.evidence.map((e) => `<dt>${text(e.label, 200)}${e.path ? ` <code>${text(e.path, 200)}</code>` : ''}</dt><dd>${text(e.value)}</dd>`).join('');
  const spec = r.specRef || r.requirement ? `<dt>Spec</dt><dd>${requirementHtml(r)}</dd>` : '';
  const label = r.evidence.length ? `Evidence (${r.evidence.length})` : 'Spec reference';
  return `<details><summary>${label}</summary><dl class="facts">${spec}${items}</dl></details>`;
}

function figure(caption: string, svg: string | undefined, empty: string): string {
  return `<figure>${svg ?? `<p>${esc(empty)}</p>`}<figcaption>${esc(caption)}</figcaption></figure>`;
}

/** The same per-category figures as the dashboard (engine/report/series.ts): pass, fail, advisory, skip (and tool errors). */
function categoryTile(c: CategoryCounts): string {
  const total = c.pass + c.fail + c.advisory + c.skip + c.error;
  const label = esc(CATEGORY_LABELS[c.category]);
  if (!total) return `<li class="tile"><span class="cat">${label}</span><span class="counts muted">no checks</span></li>`;
  // A decorative bar (the numbers beside it say the same): one rect per status, in a 0..100 box.
  let x = 0;
  const rects = TILE_STATUSES.filter((st) => c[st] > 0)
    .map((st) => {
      const w = (c[st] / total) * 100;
      const r = `<rect class="${st}" x="${x.toFixed(2)}" y="0" width="${w.toFixed(2)}" height="8"/>`;
      x += w;
      return r;
    })
    .join('');
  const count = (n: number, st: string, label: string) => `<span class="${n ? `st-${st}` : 'muted'}">${n} ${label}</span>`;
  const counts = [
    count(c.pass, 'pass', 'pass'),
    count(c.fail, 'fail', 'fail'),
    count(c.advisory, 'advisory', 'advisory'),
    count(c.skip, 'skip', 'skip'),
    ...(c.error ? [count(c.error, 'error', `tool error${c.error === 1 ? '' : 's'}`)] : []),
  ].join(' · ');
  return (
    `<li class="tile"><span class="cat">${label}</span>` +
    `<svg aria-hidden="true" focusable="false" viewBox="0 0 100 8" preserveAspectRatio="none">${rects}</svg>` +
    `<span class="counts">${counts}</span></li>`
  );
}

const TILE_STATUSES = ['pass', 'fail', 'advisory', 'skip', 'error'] as const;

/** Every conformance category gets a tile; the informational security review only when it ran (older reports have none). */
const shownTile = (c: CategoryCounts): boolean => !isInformational(c) || TILE_STATUSES.some((s) => c[s] > 0);

/** The verdict card: the level as a large badge (or NOT ASSESSED and why), the verdict line and the reason. */
function verdictHtml(report: Report): string {
  const level = report.conformanceLevel;
  const na = report.notAssessed;
  const out = [
    `<div class="verdict level-${esc(level ?? 'not-assessed')}">`,
    `<p class="level-line"><span class="level-caption">Conformance level: </span><strong class="level-badge">${esc(level ?? (judgedWithoutLevel(na?.reason) ? 'no level' : 'not assessed'))}</strong>` +
      `${report.provisional ? '<span class="badge">provisional</span>' : ''}</p>`,
  ];
  if (level) {
    out.push(`<p class="verdict-line">${esc(verdictLine(report))}</p>`);
  } else {
    out.push(`<p class="verdict-line">${esc(noLevelTitle(na))}</p>`);
    if (na?.message) out.push(`<p class="msg">${text(na.message)}</p>`);
  }
  if (report.levelReason && report.levelReason !== na?.message) out.push(`<p class="msg">${text(report.levelReason)}</p>`);
  if (report.provisional) out.push('<p>Provisional: our tool could not run every check or the run did not complete, so the level may change.</p>');
  out.push('</div>');
  return out.join('\n');
}

/** Where the wall time went (report.timing), or nothing for a report from before the timing section. */
function timingHtml(report: Report): string {
  const t = timingLines(report);
  if (!t) return '';
  const facts: [string, string][] = [
    ['Time to verdict', esc(t.timeToVerdict)],
    ['Decided by', text(t.decidedBy, 1000)],
    ...(t.lastChecks.length ? ([['Finished last', t.lastChecks.map((c) => text(c, 300)).join('<br>')]] as [string, string][]) : []),
  ];
  const windows = t.windows.length
    ? '<table class="results windows"><caption class="sr">Observation windows the run used</caption>' +
      '<thead><tr><th scope="col">Observation window</th><th scope="col">Size</th><th scope="col">Used</th><th scope="col">Why this size</th></tr></thead><tbody>' +
      t.windows
        .map(
          (w) =>
            `<tr><td><code>${text(w.name, 200)}</code></td><td class="nw" data-label="Size">${esc(w.size)}</td>` +
            `<td class="msg" data-label="Used">${text(w.used, 500)}</td><td class="msg" data-label="Why this size">${orDash(text(w.basis, 1000))}</td></tr>`,
        )
        .join('') +
      '</tbody></table>'
    : '<p>No observation window was used.</p>';
  return [
    '<section aria-labelledby="h-timing">',
    '<h2 id="h-timing">Timing</h2>',
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
    windows,
    '</section>',
  ].join('\n');
}

/**
 * One self-contained HTML page for people who will never run the tool. Its first screen answers the question:
 * the level as a large badge (or NOT ASSESSED and why), the verdict line, who was tested and one tile per
 * category with the dashboard's figures; the failed tests and the spec sentences they break come next, then
 * advisories, tool errors, the summary, static SVG charts (from report/series.ts) and every result.
 * Prints cleanly (light colours, a page per section, table headers repeated, link targets printed).
 * No script and no network: a Content-Security-Policy forbids both, so even a missed escape could not run or
 * fetch anything. Light and dark follow `prefers-color-scheme`. Credentials are masked first; every agent
 * string is escaped text.
 */
export function toHtml(input: Report): ExportFile {
  const report = scrubForExport(input);
  const state = stateFromReport(report);
  const { summary } = report;
  // An agent never reached has no name: the header names its URL instead of "(unknown)".
  const shownName = /^\(?unknown\)?$/i.test(report.agentName.trim()) || !report.agentName.trim() ? report.agentUrl : report.agentName;
  const title = `A2A conformance report: ${shownName}`;

  const protocol = [report.protocol.generation ?? 'unknown generation', report.protocol.binding ?? 'unknown binding'].join(' · ');
  const facts: [string, string][] = [
    ['Agent', `${text(report.agentName, 500)} <span class="muted">(version ${text(report.agentVersion, 500)})</span>`],
    ['URL', urlHtml(report.agentUrl)],
    ...(report.peerUrl !== undefined ? ([['Peer', urlHtml(report.peerUrl)]] as [string, string][]) : []),
    ['Protocol', esc(protocol)],
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
  const perCategory = resultsPerCategory(state);
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
    `<style>${HTML_STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    '<h1>A2A conformance report</h1>',
    `<p class="msg agent">${text(shownName, 500)}</p>`,
    '</header>',
    '<main>',
  );

  // First screen: verdict beside the agent's identity, then the category strip.
  out.push(
    '<section aria-labelledby="h-overview">',
    '<h2 id="h-overview" class="sr">Overview</h2>',
    '<div class="first">',
    verdictHtml(report),
    `<dl class="facts">${facts.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`,
    '</div>',
    `<ul class="strip" aria-label="Checks per category">${perCategory.filter(shownTile).map(categoryTile).join('')}</ul>`,
    '</section>',
  );
  if (report.comparison) out.push(comparisonHtml(report.comparison));

  out.push('<section class="pb" aria-labelledby="h-failed">', '<h2 id="h-failed">Failed tests</h2>');
  if (failed.length) {
    out.push(
      `<p>${failed.length} required check${failed.length === 1 ? '' : 's'} failed. Each row says what the agent did, how to fix it and the specification sentences the check enforces.</p>`,
      '<table class="failed">',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th><th scope="col">Recommendation</th><th scope="col">Requirement</th></tr></thead>',
      '<tbody>',
      ...failed.map(
        (r) =>
          `<tr>${testCell(r)}<td data-label="Category">${esc(CATEGORY_LABELS[r.category])}</td><td class="msg" data-label="Message">${orDash(text(r.message))}</td>` +
          `<td class="msg" data-label="Recommendation">${orDash(text(r.recommendation ?? ''))}</td><td data-label="Requirement">${orDash(requirementDetails(r))}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
    );
  } else {
    out.push(report.notAssessed ? '<p>None: the agent was not assessed (see why above), so no check was judged.</p>' : '<p>No required check failed.</p>');
  }
  out.push('</section>');

  const advisories = advisoryResults(report);
  if (advisories.length) {
    out.push(
      '<section aria-labelledby="h-advisories">',
      '<h2 id="h-advisories">Advisories</h2>',
      '<p>Not required by the specification of the generation spoken (nothing stronger than MAY, or the spec contradicts itself); they do not affect the level.</p>',
      '<table class="results">',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th><th scope="col">Recommendation</th></tr></thead>',
      '<tbody>',
      ...advisories.map(
        (r) =>
          `<tr>${testCell(r)}<td data-label="Category">${esc(CATEGORY_LABELS[r.category])}</td><td class="msg" data-label="Message">${orDash(text(resultMessage(r)))}</td>` +
          `<td class="msg" data-label="Recommendation">${orDash(text(r.recommendation ?? ''))}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      '</section>',
    );
  }

  const findings = securityFindings(report);
  if (findings.length) {
    out.push(
      '<section aria-labelledby="h-security">',
      '<h2 id="h-security">Security review (informational)</h2>',
      `<p>${esc(SECURITY_NOTE)}</p>`,
      '<table class="results">',
      '<thead><tr><th scope="col">Test</th><th scope="col">Finding</th><th scope="col">Fix</th></tr></thead>',
      '<tbody>',
      ...findings.map(
        (r) =>
          `<tr>${testCell(r)}<td class="msg" data-label="Finding">${orDash(text(r.message))}</td><td class="msg" data-label="Fix">${orDash(text(r.recommendation ?? ''))}</td></tr>`,
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
      '<table class="results">',
      '<thead><tr><th scope="col">Test</th><th scope="col">Category</th><th scope="col">Message</th></tr></thead>',
      '<tbody>',
      ...errors.map(
        (r) =>
          `<tr>${testCell(r)}<td data-label="Category">${esc(CATEGORY_LABELS[r.category])}</td>` +
          `<td class="msg" data-label="Message">${orDash(text(r.message))}${r.proxyError ? `<br>Proxy error: <code>${text(r.proxyError, 200)}</code>` : ''}</td></tr>`,
      ),
      '</tbody>',
      '</table>',
      '</section>',
    );
  }

  out.push(
    '<section aria-labelledby="h-summary">',
    '<h2 id="h-summary">Summary</h2>',
    '<table class="summary">',
    '<caption class="sr">Number of checks by outcome</caption>',
    '<thead><tr><th scope="col" class="num">Total</th><th scope="col" class="num">Passed</th><th scope="col" class="num">Failed (required)</th><th scope="col" class="num">Advisories</th><th scope="col" class="num">Skipped</th><th scope="col" class="num">Errors (tool)</th></tr></thead>',
    `<tbody><tr>${(
      [
        ['Total', summary.total],
        ['Passed', summary.passed],
        ['Failed (required)', summary.failed],
        ['Advisories', summary.advisories],
        ['Skipped', summary.skipped],
        ['Errors (tool)', summary.errors],
      ] as const
    )
      .map(([label, n]) => `<td class="num" data-label="${label}">${n}</td>`)
      .join('')}</tr></tbody>`,
    '</table>',
    '</section>',
  );

  out.push(timingHtml(report));

  out.push(
    '<section class="pb" aria-labelledby="h-charts">',
    '<h2 id="h-charts">Charts</h2>',
    figure('Checks per category by outcome.', resultsPerCategoryChart(perCategory), ''),
    figure('How long each check took (slowest first).', durations.length ? checkDurationsChart(durations) : undefined, 'No finished checks.'),
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

  out.push('<section class="pb" aria-labelledby="h-results">', '<h2 id="h-results">Results by category</h2>');
  resultsByCategory(report).forEach(({ category, results }, i) => {
    out.push(`<section aria-labelledby="h-cat-${i}">`, `<h3 id="h-cat-${i}">${esc(CATEGORY_LABELS[category])}</h3>`);
    if (!results.length) {
      out.push('<p>No checks in this category.</p>', '</section>');
      return;
    }
    out.push(
      '<table class="results">',
      '<thead><tr><th scope="col">Test</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col" class="num">Time</th><th scope="col">Message</th><th scope="col">Recommendation</th></tr></thead>',
      '<tbody>',
      ...results.map(
        (r) =>
          `<tr>${testCell(r)}<td class="nw" data-label="Level">${esc(r.level)}</td>${statusCell(r)}<td class="num nw" data-label="Time">${esc(formatMs(r.duration_ms))}</td>` +
          `<td class="msg" data-label="Message">${orDash(text(resultMessage(r)))}${evidenceHtml(r)}</td><td class="msg" data-label="Recommendation">${orDash(text(r.recommendation ?? ''))}</td></tr>`,
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
