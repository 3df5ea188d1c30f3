/**
 * A conversation tap's report in the formats a run's report is exported in (JSON, Markdown, JUnit, HTML, SARIF),
 * plus HAR 1.2 (har.ts). A tap's report is not a conformance report (no level; findings per side of a conversation),
 * so these render `TapReport` itself: the verdict per side, then every finding with who broke it, the sentence
 * behind it and the exchange it is about. Agent-supplied text is escaped in every format.
 */
import { create } from 'xmlbuilder2';
import type { TapFinding, TapReport, TapSide } from '../engine/tap';
import { TOOL } from '../engine/report/build';
import { truncate } from '../engine/util/json';
import { cleanText, oneLine, type ExportFile } from './common';
import { harFile } from './har';
import { mdText } from './markdown';

export type TapExportFormat = 'json' | 'markdown' | 'junit' | 'html' | 'sarif' | 'har';
export const TAP_EXPORT_FORMATS: readonly TapExportFormat[] = ['json', 'markdown', 'junit', 'html', 'sarif', 'har'];
const EXT: Record<TapExportFormat, string> = { json: 'json', markdown: 'md', junit: 'junit.xml', html: 'html', sarif: 'sarif', har: 'har' };

const SIDE_LABEL: Record<TapSide, string> = { client: 'Client', agent: 'Agent' };
const verdictWord = (v: TapReport['summary']['client']['verdict']) =>
  ({ pass: 'pass', fail: 'FAIL', advisory: 'advisories only', 'not-observed': 'no traffic' })[v];
const sideLine = (r: TapReport, s: TapSide) => {
  const x = r.summary[s];
  return `${SIDE_LABEL[s]}: ${verdictWord(x.verdict)} (${x.must} MUST, ${x.should} SHOULD, ${x.advisory} advisory)`;
};
const operationOf = (r: TapReport, f: TapFinding) => r.exchanges.find((x) => x.id === f.exchangeId)?.request.operation ?? '';

function toMarkdown(r: TapReport): string {
  const lines = [
    `# A2A conversation through the tap`,
    '',
    `Agent: ${mdText(r.agentUrl, 500)}${r.target?.agentName ? ` (${mdText(r.target.agentName, 200)})` : ''}; generation ${r.target?.generation ?? 'unknown'}; ${r.summary.exchanges} exchange(s).`,
    '',
    `- ${sideLine(r, 'client')}`,
    `- ${sideLine(r, 'agent')}`,
    '',
  ];
  for (const side of ['client', 'agent'] as const) {
    const fs = r.findings.filter((f) => f.side === side);
    lines.push(`## ${SIDE_LABEL[side]} findings (${fs.length})`, '');
    if (!fs.length) lines.push('None.', '');
    else {
      lines.push('| level | check | exchange | message | spec |', '|---|---|---|---|---|');
      for (const f of fs)
        lines.push(
          `| ${f.level} | \`${f.checkId}\` | ${mdText(`${f.exchangeId} ${operationOf(r, f)}`, 200)} | ${mdText(f.message)} | ${mdText(f.specRef ?? '', 300)} |`,
        );
      lines.push('');
    }
  }
  if (r.target?.notRelayed.length)
    lines.push(`Not relayed: ${r.target.notRelayed.map((n) => `${mdText(n.binding, 40)} ${mdText(n.url, 200)}`).join(', ')}.`, '');
  return `${lines.join('\n')}\n`;
}

function toJunit(r: TapReport): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites', { name: 'a2a-interop tap' });
  for (const side of ['client', 'agent'] as const) {
    const fs = r.findings.filter((f) => f.side === side && f.level !== 'advisory');
    const suite = doc.ele('testsuite', { name: `${side} side`, tests: Math.max(1, fs.length), failures: fs.length, errors: 0 });
    if (!fs.length) suite.ele('testcase', { classname: `tap.${side}`, name: `${side}: no MUST or SHOULD broken` });
    for (const f of fs) {
      suite
        .ele('testcase', { classname: `tap.${side}`, name: oneLine(`${f.checkId} (${f.exchangeId})`) })
        .ele('failure', { message: truncate(oneLine(f.message), 500), type: f.level })
        .txt(
          cleanText(
            [f.message, f.specRef && `Spec: ${f.specRef}`, f.quote && `"${f.quote}"`, f.recommendation && `Fix: ${f.recommendation}`]
              .filter(Boolean)
              .join('\n'),
          ),
        );
    }
  }
  return doc.end({ prettyPrint: true });
}

const esc = (s: string) => cleanText(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function toHtml(r: TapReport): string {
  const rows = (side: TapSide) =>
    r.findings
      .filter((f) => f.side === side)
      .map(
        (f) =>
          `<tr><td>${esc(f.level)}</td><td><code>${esc(f.checkId)}</code></td><td>${esc(`${f.exchangeId} ${operationOf(r, f)}`)}</td><td>${esc(f.message)}</td><td>${esc(f.specRef ?? '')}</td></tr>`,
      )
      .join('');
  const table = (side: TapSide) =>
    `<h2>${SIDE_LABEL[side]} findings</h2>${rows(side) ? `<table><thead><tr><th>Level</th><th>Check</th><th>Exchange</th><th>Message</th><th>Spec</th></tr></thead><tbody>${rows(side)}</tbody></table>` : '<p>None.</p>'}`;
  const exchanges = r.exchanges
    .map(
      (x) =>
        `<tr><td>${esc(x.id)}</td><td>${esc(x.request.method)}</td><td>${esc(x.request.operation)}</td><td>${esc(String(x.response?.status ?? x.response?.error?.code ?? ''))}</td><td>${x.frames.length}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>A2A tap report</title>
<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border:1px solid #999;padding:.3rem;text-align:left;vertical-align:top;overflow-wrap:break-word}</style></head>
<body><main><h1>A2A conversation through the tap</h1><p>Agent: ${esc(r.agentUrl)}; generation ${esc(r.target?.generation ?? 'unknown')}</p>
<ul><li>${esc(sideLine(r, 'client'))}</li><li>${esc(sideLine(r, 'agent'))}</li></ul>${table('client')}${table('agent')}
<h2>Exchanges</h2><table><thead><tr><th>Id</th><th>Method</th><th>Operation</th><th>Status</th><th>SSE events</th></tr></thead><tbody>${exchanges}</tbody></table></main></body></html>
`;
}

function toSarif(r: TapReport): string {
  const ids = [...new Set(r.findings.map((f) => f.checkId))];
  const log = {
    $schema: 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: `${TOOL.name} tap`, version: TOOL.version, rules: ids.map((id) => ({ id, shortDescription: { text: id } })) } },
        automationDetails: { id: `a2a-tap/${cleanText(r.agentUrl)}/` },
        results: r.findings.map((f) => ({
          ruleId: f.checkId,
          level: f.level === 'MUST' ? 'error' : f.level === 'SHOULD' ? 'warning' : 'note',
          message: { text: cleanText(`${SIDE_LABEL[f.side]}: ${f.message}${f.specRef ? ` (${f.specRef})` : ''}`) },
          locations: [
            { physicalLocation: { artifactLocation: { uri: cleanText(r.exchanges.find((x) => x.id === f.exchangeId)?.request.upstreamUrl ?? r.agentUrl) } } },
          ],
          properties: { side: f.side, exchange: f.exchangeId },
        })),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

const MIME: Record<TapExportFormat, string> = {
  json: 'application/json',
  markdown: 'text/markdown; charset=utf-8',
  junit: 'application/xml',
  html: 'text/html; charset=utf-8',
  sarif: 'application/sarif+json',
  har: 'application/json',
};

/** The tap's report in one format. */
export function exportTapReport(r: TapReport, format: TapExportFormat): ExportFile {
  const filename = `a2a-tap.${EXT[format]}`;
  switch (format) {
    case 'har':
      return harFile(r);
    case 'json':
      return { filename, mimeType: MIME.json, body: `${JSON.stringify(r, null, 2)}\n` };
    case 'markdown':
      return { filename, mimeType: MIME.markdown, body: toMarkdown(r) };
    case 'junit':
      return { filename, mimeType: MIME.junit, body: toJunit(r) };
    case 'html':
      return { filename, mimeType: MIME.html, body: toHtml(r) };
    case 'sarif':
      return { filename, mimeType: MIME.sarif, body: toSarif(r) };
  }
}
