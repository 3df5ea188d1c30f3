// @vitest-environment jsdom
import { getAllByRole, getByRole } from '@testing-library/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { stateFromReport } from '../engine/report/build';
import { exchangeLatencies, resultsPerCategory, streamTimings } from '../engine/report/series';
import { conformantReport, HOSTILE_API_KEY, hostileReport, largeReport, sampleReport, schemaV0Report, unreachableReport } from '../testing/fixtures/reports';
import { heldByWindowReport, STRAGGLERS_BASIS } from '../testing/fixtures/timed-report';
import { CATEGORY_LABELS, cleanText, failedResults as failedResultsOf } from './common';
import { toHtml } from './html';
import { loadReport } from './load';

/** Loads the page into jsdom's document (innerHTML: no script would run even if one slipped through). */
function load(html: string): Document {
  document.documentElement.innerHTML = html;
  return document;
}

afterEach(() => {
  document.documentElement.innerHTML = '<head></head><body></body>';
});

describe('HTML export', () => {
  it('is one self-contained page: no script, no external resource, a CSP that forbids both', () => {
    const { body, mimeType, filename } = toHtml(sampleReport());
    expect(mimeType).toBe('text/html; charset=utf-8');
    expect(filename).toBe('a2a-report-currency-agent-20261129-195736.html');
    expect(body.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(body).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">`,
    );
    const doc = load(body);
    expect(doc.querySelectorAll('script, link, img, iframe, object, embed, base, form, video, audio, source')).toHaveLength(0);
    expect(doc.querySelectorAll('[src], [style], [srcset]')).toHaveLength(0);
    const css = [...doc.querySelectorAll('style')].map((s) => s.textContent).join('');
    expect(css).not.toMatch(/url\(|@import/);
    expect(css).toContain('@media (prefers-color-scheme:dark)');
    // The only URLs are the agent's, as links (navigation, not loads).
    expect([...doc.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual([
      'https://agents.example.com/currency',
      'https://agents.example.com/currency/a2a',
    ]);
  });

  it('is accessible: named regions, headings, table headers and labelled SVG charts', () => {
    const doc = load(toHtml(sampleReport()).body);
    expect(getByRole(doc.body, 'heading', { level: 1, name: 'A2A conformance report' })).toBeTruthy();
    for (const name of ['Overview', 'Summary', 'Failed tests', 'Not verified (tool errors)', 'Charts', 'Results by category']) {
      expect(getByRole(doc.body, 'region', { name })).toBeTruthy();
      expect(getByRole(doc.body, 'heading', { level: 2, name })).toBeTruthy();
    }
    for (const name of ['Agent card', 'Task lifecycle', 'Streaming (SSE)', 'Error handling and auth', 'Interop']) {
      expect(getByRole(doc.body, 'region', { name })).toBeTruthy();
    }
    const charts = getAllByRole(doc.body, 'img');
    expect(charts.map((c) => c.querySelector('title')?.textContent)).toEqual([
      'Results per category',
      'Check durations (slowest 12)',
      'HTTP exchange latency',
      'SSE time to first event and longest gap',
    ]);
    for (const chart of charts) {
      const title = doc.getElementById(chart.getAttribute('aria-labelledby')!);
      const desc = doc.getElementById(chart.getAttribute('aria-describedby')!);
      expect([title?.tagName, desc?.tagName]).toEqual(['title', 'desc']);
      expect([title?.parentElement, desc?.parentElement]).toEqual([chart, chart]);
      expect(desc?.textContent?.length).toBeGreaterThan(20);
    }
    for (const table of doc.querySelectorAll('table')) {
      const headers = table.querySelectorAll('thead th[scope="col"]');
      expect(headers.length).toBeGreaterThan(0);
      for (const row of table.querySelectorAll('tbody tr')) expect(row.children.length).toBe(headers.length);
    }
  });

  it('shows level, summary, failed tests with recommendations and every result by category', () => {
    const report = sampleReport();
    const doc = load(toHtml(report).body);
    const overview = getByRole(doc.body, 'region', { name: 'Overview' });
    expect(overview.textContent).toContain('Conformance level: minimal');
    expect(overview.textContent).toContain('provisional');
    expect(overview.textContent).toContain(report.levelReason);
    const summary = getByRole(doc.body, 'region', { name: 'Summary' });
    expect([...summary.querySelectorAll('tbody td')].map((td) => td.textContent)).toEqual(['12', '5', '3', '1', '2', '1']);
    const failed = getByRole(doc.body, 'region', { name: 'Failed tests' });
    const rows = [...failed.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(report.summary.failed);
    expect(rows[1]!.children[3]!.textContent).toBe(report.categories.lifecycle[2]!.recommendation);
    const results = getByRole(doc.body, 'region', { name: 'Results by category' });
    expect(results.querySelectorAll('tbody tr')).toHaveLength(report.summary.total);
  });

  it('draws the charts from the engine series (exchange and stream counts match)', () => {
    const report = sampleReport();
    const state = stateFromReport(report);
    const doc = load(toHtml(report).body);
    const latency = getByRole(doc.body, 'img', { name: 'HTTP exchange latency' });
    const exchanges = exchangeLatencies(state).length;
    expect(exchanges).toBe(7);
    expect(latency.querySelectorAll('g > rect.total')).toHaveLength(exchanges); // one column each (the legend's swatch is outside a g)
    expect(latency.querySelector('desc')?.textContent).toMatch(/^7 HTTP exchanges in request order\./);
    const sse = getByRole(doc.body, 'img', { name: 'SSE time to first event and longest gap' });
    const [stream] = streamTimings(state);
    expect(sse.querySelector('desc')?.textContent).toContain('1 SSE streams, 4 events.');
    expect(stream?.firstEventMs).toBe(160);
    expect(sse.querySelector('desc')?.textContent).toContain('Time to first event: median 160 ms');
    const perCategory = getByRole(doc.body, 'img', { name: 'Results per category' });
    expect(perCategory.querySelectorAll('rect.fail')).toHaveLength(3 + 1); // three categories with failures + the legend
  });

  it('says so instead of drawing empty charts when the report has no event log', () => {
    const doc = load(toHtml(conformantReport()).body);
    expect(getAllByRole(doc.body, 'img')).toHaveLength(2);
    expect(doc.body.textContent).toContain('No HTTP exchanges are recorded in this report (it carries no event log).');
    expect(doc.body.textContent).toContain('No SSE streams are recorded in this report.');
    expect(doc.body.textContent).toContain('No required check failed.');
  });

  it('buckets a 10,000-event run into at most 240 latency columns', () => {
    const report = largeReport(10_000);
    const doc = load(toHtml(report).body);
    const latency = getByRole(doc.body, 'img', { name: 'HTTP exchange latency' });
    const columns = latency.querySelectorAll('g > rect.total').length;
    expect(columns).toBeGreaterThan(100);
    expect(columns).toBeLessThanOrEqual(240);
  });

  it('shows hostile agent strings as text only: no element, attribute, link or script comes from them', () => {
    const report = hostileReport();
    const { body } = toHtml(report);
    expect(body.match(/<script/gi)).toBeNull();
    // eslint-disable-next-line no-control-regex -- matching C0 control characters is the point (they are unsafe in exports)
    expect(body).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF\u202E]/);
    const doc = load(body);
    expect(doc.querySelectorAll('script, img, iframe, td > table')).toHaveLength(0);
    for (const el of doc.querySelectorAll('*')) {
      for (const attr of el.attributes) expect(attr.name.startsWith('on'), `${el.tagName} ${attr.name}`).toBe(false);
    }
    // javascript: URLs are shown, never linked; the agent URL (http) is linked with its secrets masked.
    const hrefs = [...doc.querySelectorAll('a')].map((a) => a.getAttribute('href')!);
    expect(hrefs).toHaveLength(1);
    expect(hrefs[0]).toMatch(/^https:\/\/evil\.example\/a2a\?api_key=%5BREDACTED%5D/); // no user info in links
    const overview = getByRole(doc.body, 'region', { name: 'Overview' });
    expect(overview.textContent).toContain('javascript:alert(document.cookie)');
    // The agent's name, markup and all, is the header's text.
    expect(doc.querySelector('header p')?.textContent).toBe(cleanText(report.agentName));
    const failed = getByRole(doc.body, 'region', { name: 'Failed tests' });
    expect(failed.querySelectorAll('tbody tr')).toHaveLength(report.summary.failed);
    expect(failed.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});

describe('HTML export: first screen and print', () => {
  it('opens on the verdict: a large level badge, the verdict line, the agent and a category strip with the dashboard figures', () => {
    const report = sampleReport();
    const doc = load(toHtml(report).body);
    const overview = getByRole(doc.body, 'region', { name: 'Overview' });
    // Overview is the first section of main, and the failed tests come right after it.
    const sections = [...doc.querySelectorAll('main > section')].map((s) => doc.getElementById(s.getAttribute('aria-labelledby')!)?.textContent);
    expect(sections.slice(0, 2)).toEqual(['Overview', 'Failed tests']);
    expect(overview.querySelector('.level-badge')?.textContent).toBe('minimal');
    expect(overview.querySelector('.verdict')?.className).toBe('verdict level-minimal');
    expect(overview.querySelector('.verdict-line')?.textContent).toBe('minimal (provisional) · 3 lower the level: 2 MUST, 1 SHOULD; 2 critical · 1 advisory');
    expect(overview.textContent).toContain('Currency Agent (version 1.4.2)');
    expect(overview.textContent).toContain('v0.3 · JSONRPC');
    // One tile per category, with the figures the dashboard draws (engine/report/series.ts).
    const strip = getByRole(overview, 'list', { name: 'Checks per category' });
    const tiles = getAllByRole(strip, 'listitem');
    // (the informational security review gets a tile only when it ran: this older fixture has none)
    const expected = resultsPerCategory(stateFromReport(report))
      .filter((c) => c.category !== 'security' || c.pass + c.fail + c.advisory + c.skip + c.error > 0)
      .map((c) => {
        const parts = [`${c.pass} pass`, `${c.fail} fail`, `${c.advisory} advisory`, `${c.skip} skip`];
        if (c.error) parts.push(`${c.error} tool error${c.error === 1 ? '' : 's'}`);
        return `${CATEGORY_LABELS[c.category]}${parts.join(' · ')}`;
      });
    expect(tiles.map((t) => t.textContent)).toEqual(expected);
    expect(expected[4]).toBe('Interop0 pass · 0 fail · 1 advisory · 0 skip · 1 tool error');
    // The bars are decoration (the numbers say it): hidden from assistive technology, no extra img.
    for (const svg of strip.querySelectorAll('svg')) expect(svg.getAttribute('aria-hidden')).toBe('true');
  });

  it('quotes the spec sentences of each failure in the failed tests table', () => {
    const doc = load(toHtml(sampleReport()).body);
    const failed = getByRole(doc.body, 'region', { name: 'Failed tests' });
    const cancel = [...failed.querySelectorAll('tbody tr')].find((tr) => tr.textContent?.includes('lifecycle.cancel'))!;
    const quotes = [...cancel.querySelectorAll('blockquote.req')].map((q) => q.textContent);
    expect(quotes).toEqual([
      'A2A v0.3.0 §7.4 tasks/cancel (no requirement word): “Requests the cancellation of an ongoing task.”',
      'A2A v0.3.0 §11.1.2 Core Method Implementation (MUST): “MUST implement all of the following core methods via at least one supported transport:”',
    ]);
    // Folded (issue 25 item 8): the row stays short; the sentences are one click away, counted in the summary.
    const details = cancel.querySelector('details')!;
    expect(details.querySelector('summary')?.textContent).toMatch(/^(MUST|SHOULD) · 2 sentences$/);
    expect(details.querySelectorAll('blockquote.req')).toHaveLength(2);
  });

  it('shows a schema excerpt as code, never wrapped in doubled quotation marks', () => {
    const report = sampleReport();
    const r = failedResultsOf(report)[0]!;
    r.requirement = {
      release: 'A2A v0.3.0',
      sentences: [{ doc: 'A2A v0.3.0', section: 'a2a.json AgentCard', quote: '"required": [ "name", "url" ]', keyword: 'required-field' }],
    };
    const doc = load(toHtml(report).body);
    const q = getByRole(doc.body, 'region', { name: 'Failed tests' }).querySelector('blockquote.req')!;
    expect(q.textContent).toBe('A2A v0.3.0 a2a.json AgentCard (required field): "required": [ "name", "url" ]');
    expect(q.querySelector('code')?.textContent).toBe('"required": [ "name", "url" ]');
    expect(q.textContent).not.toMatch(/""|“"/);
  });

  it('stacks table rows as labelled cards on a phone and never breaks a word mid-letter in running text', () => {
    const body = toHtml(sampleReport()).body;
    // Screens only: printed, a table stays a table (its header repeated on each page).
    const phone = /@media screen and \(max-width:600px\)\{([\s\S]*?)\}\n@page/.exec(body)?.[1] ?? '';
    expect(phone).toMatch(/table\.failed,table\.results[^{]*\{display:block/);
    expect(phone).toMatch(/td\[data-label\]::before\{content:attr\(data-label\)/);
    expect(body).toMatch(/\.msg,td,dd,summary\{overflow-wrap:break-word/);
    const doc = load(body);
    const cells = [...getByRole(doc.body, 'region', { name: 'Failed tests' }).querySelectorAll('tbody td')];
    // Every cell but the test's own names what it is (the header row is hidden on a phone).
    expect(cells.filter((td) => !td.hasAttribute('data-label')).length).toBe(doc.querySelectorAll('table.failed tbody tr').length);
  });

  it('shows NOT ASSESSED with the reason instead of a level (no counts, no grade)', () => {
    const report = unreachableReport();
    const doc = load(toHtml(report).body);
    const overview = getByRole(doc.body, 'region', { name: 'Overview' });
    expect(overview.querySelector('.level-badge')?.textContent).toBe('not assessed');
    expect(overview.querySelector('.verdict')?.className).toBe('verdict level-not-assessed');
    expect(overview.querySelector('.verdict-line')?.textContent).toBe('Not assessed: unreachable');
    expect(overview.textContent).toContain(report.notAssessed!.message);
    expect(overview.textContent).not.toMatch(/required failure|non-conformant/);
    // Never reached, so no name: the header names the URL, not "(unknown)".
    expect(doc.querySelector('header p')?.textContent).toBe('http://127.0.0.1:9');
    const failed = getByRole(doc.body, 'region', { name: 'Failed tests' });
    expect(failed.textContent).toContain('the agent was not assessed');
    const tiles = getAllByRole(getByRole(overview, 'list', { name: 'Checks per category' }), 'listitem');
    expect(tiles.map((t) => t.textContent)).toContain('Streaming (SSE)no checks');
  });

  it('prints on light paper: no dark background, table headers repeated, rows and figures never split, a page per part, link targets printed', () => {
    const doc = load(toHtml(sampleReport()).body);
    const css = doc.querySelector('style')!.textContent!;
    const print = css.slice(css.indexOf('@media print{'));
    expect(print.length).toBeGreaterThan(100);
    // After the dark palette, so it wins even when the reader's system is dark.
    expect(css.indexOf('@media print{')).toBeGreaterThan(css.indexOf('@media (prefers-color-scheme:dark)'));
    expect(print).toMatch(/:root\{color-scheme:light;--bg:#fff;--fg:#000;[^}]*--panel:#fff;/);
    expect(print).toContain('thead{display:table-header-group}');
    expect(print).toMatch(/tr,blockquote,figure,\.tile,\.verdict[^{]*\{break-inside:avoid\}/);
    expect(print).toContain('section.pb{break-before:page}');
    expect(print).toContain('a[href]:not(.self)::after{content:" <" attr(href) ">"');
    expect(print).toContain('details::details-content{content-visibility:visible');
    const breaks = [...doc.querySelectorAll('section.pb')].map((s) => doc.getElementById(s.getAttribute('aria-labelledby')!)?.textContent);
    expect(breaks).toEqual(['Failed tests', 'Charts', 'Results by category']);
    // Links whose text is their own URL are not printed twice.
    for (const a of doc.querySelectorAll('a')) expect(a.classList.contains('self')).toBe(true);
  });
});

describe('HTML export: timing', () => {
  it('shows the time to verdict, what decided it, and each observation window with its size, use and basis', () => {
    const report = heldByWindowReport();
    expect(report.timing?.decidingWindow).toBe('push.stragglers');
    const doc = load(toHtml(report).body);
    const timing = getByRole(doc.body, 'region', { name: 'Timing' });
    const facts = [...timing.querySelectorAll('dl.facts dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(facts).toEqual([
      ['Time to verdict', `${(report.timing!.timeToVerdictMs / 1000).toFixed(2)} s`],
      ['Decided by', 'lifecycle.push-order (1803 ms), held by its observation window push.stragglers (1800 ms)'],
      ['Finished last', 'lifecycle.push-order (1803 ms, ended at 1856 ms)lifecycle.cancel (43 ms, ended at 48 ms)'],
    ]);
    const table = getByRole(timing, 'table', { name: 'Observation windows the run used' });
    const rows = [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent));
    expect(rows).toEqual([
      ['cancel.stay', '900 ms', '40 ms, closed early: the task was read back canceled twice', 'the longest test task took 300 ms, plus 3 × 200 ms'],
      ['push.stragglers', '1800 ms', '1800 ms', STRAGGLERS_BASIS],
    ]);
    // On a phone the header row is hidden: every cell but the window's name says what it is.
    for (const tr of table.querySelectorAll('tbody tr'))
      expect([...tr.querySelectorAll('td')].map((td) => td.dataset.label)).toEqual([undefined, 'Size', 'Used', 'Why this size']);
  });

  it('shows a hostile window name and basis as text, with a leaked key masked', () => {
    const { body } = toHtml(hostileReport());
    const doc = load(body);
    const timing = getByRole(doc.body, 'region', { name: 'Timing' });
    const cells = [...timing.querySelectorAll('tbody td')];
    expect(cells[0]?.textContent).toContain('<script>alert("xss")</script>'.slice(0, 20));
    expect(cells[3]?.textContent).toContain('api_key=[REDACTED]');
    expect(timing.querySelectorAll('script, img, a')).toHaveLength(0);
    expect(body).not.toContain(HOSTILE_API_KEY);
  });

  it('a report without a timing section (an older schema version) exports without an empty Timing section', () => {
    const loaded = loadReport(JSON.stringify(schemaV0Report()));
    if (!loaded.ok) throw new Error(loaded.error);
    expect(loaded.report.timing).toBeUndefined();
    const doc = load(toHtml(loaded.report).body);
    expect(getByRole(doc.body, 'region', { name: 'Summary' })).toBeTruthy();
    expect(doc.getElementById('h-timing')).toBeNull();
    expect(doc.body.textContent).not.toContain('Time to verdict');
  });
});
