import type { CheckResult } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { truncate } from '../engine/util/json';
import {
  CATEGORY_LABELS,
  STATUS_LABELS,
  advisoryResults,
  levelLabel,
  noLevelTitle,
  requirementLines,
  verdictLine,
  cleanText,
  exportFilename,
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
import { comparisonMarkdown } from './comparison';
import { scrubForExport } from './sanitize';

export const MARKDOWN_MIME = 'text/markdown; charset=utf-8';

/** Longest agent text in one table cell; the JSON export keeps the full text. */
export const MD_CELL_MAX = 1000;

/**
 * Agent text as inert Markdown: one line, nothing it contains can end a table cell, start a block,
 * open a link or image, inject HTML or mention people.
 * - line breaks become `<br>` (ours: the only markup in the output), tabs spaces;
 * - `\` `` ` `` `*` `_` `~` `[` `]` `|` and line-leading block markers (`# `, `- `, `+ `, `1. `, `===`) are backslash-escaped;
 * - `&`, `<`, `>` become entities (so `<script>` shows as text, even where HTML is allowed);
 * - `@` becomes `&#64;` (no @-mentions in issue trackers).
 */
export function mdText(s: string, max = MD_CELL_MAX): string {
  // Cut first, clean after: a cut inside a surrogate pair leaves a lone half, which cleanText replaces.
  const text = cleanText(truncate(s, max))
    .replace(/[ \t]*\n[ \t]*/g, '\n')
    .trim();
  const escapeLine = (line: string) =>
    line
      .replace(/[\\`*_~[\]|]/g, (c) => `\\${c}`)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/@/g, '&#64;')
      .replace(/\t/g, ' ')
      // Block markers only matter at the start of a line; `&gt;` already defused `>`.
      .replace(/^(#{1,6}(?=\s|$)|[+-](?=\s|-|$)|=+\s*$)/, '\\$1')
      .replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
  return text.split('\n').map(escapeLine).join('<br>');
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
const table = (head: string[], align: string[], rows: string[][]) => [row(head), row(align), ...rows.map(row)].join('\n');

const STATUS_ICONS: Record<CheckResult['status'], string> = { pass: '✅', fail: '❌', advisory: 'ℹ️', skip: '⏭️', error: '⚠️' };
/** The spec sentences a result enforces, as one escaped cell. */
const specCell = (r: CheckResult) =>
  orDash(
    requirementLines(r)
      .map((l) => mdText(l, 600))
      .join('<br>'),
  );
const status = (r: CheckResult) => `${STATUS_ICONS[r.status]} ${STATUS_LABELS[r.status]}`;
/** `Title (id)`: the requirement sentence and the stable check id. */
const testCell = (r: CheckResult) => `${mdText(r.test, 300)} (${mdText(r.id, 200)})`;
const orDash = (s: string) => s || '—';

/**
 * The report as GitHub-flavoured Markdown for pull requests and issue trackers: header, summary table,
 * one table per category and the "Failed tests" table (docs/conformance-procedure.md#failed-tests-table: Test | Category | Message |
 * Recommendation). Credentials are masked first; every agent string goes through `mdText`.
 */
export function toMarkdown(input: Report): ExportFile {
  const report = scrubForExport(input);
  const { summary } = report;
  const lines: string[] = [];
  const push = (...l: string[]) => lines.push(...l);

  push(`# A2A conformance report: ${mdText(report.agentName, 200)}`, '');
  // Compared with a baseline (`--baseline`): first, so the report reads as a pull-request comment.
  if (report.comparison) push(...comparisonMarkdown(report.comparison, mdText));
  push(`- **Agent:** ${mdText(report.agentName, 200)} (version ${mdText(report.agentVersion, 200)})`, `- **URL:** ${mdText(report.agentUrl, 500)}`);
  if (report.peerUrl !== undefined) push(`- **Peer:** ${mdText(report.peerUrl, 500)}`);
  push(
    `- **Generation:** ${mdText(report.protocol.generation ?? 'unknown')}`,
    `- **Binding:** ${mdText(report.protocol.binding ?? 'unknown')}`,
    `- **Date:** ${mdText(formatDate(report.testDate))}`,
    `- **Run:** ${mdText(report.runStatus)} in ${formatMs(report.durationMs)} (${mdText(`${report.tool.name} ${report.tool.version}`)}, run ${mdText(report.runId, 100)})`,
    `- **Conformance level:** **${mdText(levelLabel(report))}**${report.provisional ? ' (provisional: the level may change when the run is repeated)' : ''}${report.conformanceLevel ? ` · ${mdText(verdictLine(report).split(' · ').slice(1).join(' · '))}` : ''}`,
    `- **Why:** ${mdText(report.levelReason, 2000)}`,
    '',
  );
  if (report.notAssessed) push(`> **${mdText(noLevelTitle(report.notAssessed))}.** ${mdText(report.notAssessed.message, 2000)}`, '');

  push('## Summary', '');
  push(
    table(
      ['Total', 'Passed', 'Failed (required)', 'Advisories', 'Skipped', 'Errors (tool)'],
      ['---:', '---:', '---:', '---:', '---:', '---:'],
      [[summary.total, summary.passed, summary.failed, summary.advisories, summary.skipped, summary.errors].map(String)],
    ),
    '',
  );

  const failed = failedResults(report);
  push('## Failed tests', '');
  if (failed.length) {
    push(
      table(
        ['Test', 'Category', 'Message', 'Recommendation', 'Requirement'],
        ['---', '---', '---', '---', '---'],
        failed.map((r) => [testCell(r), r.category, orDash(mdText(r.message)), orDash(mdText(r.recommendation ?? '')), specCell(r)]),
      ),
      '',
    );
  } else {
    push('No required check failed.', '');
  }

  const advisories = advisoryResults(report);
  if (advisories.length) {
    push('## Advisories', '');
    push(
      'Not required by the specification of the generation spoken (nothing stronger than MAY, or the spec contradicts itself); they do not affect the level.',
      '',
    );
    push(
      table(
        ['Test', 'Category', 'Message', 'Recommendation'],
        ['---', '---', '---', '---'],
        advisories.map((r) => [testCell(r), r.category, orDash(mdText(resultMessage(r))), orDash(mdText(r.recommendation ?? ''))]),
      ),
      '',
    );
  }

  const findings = securityFindings(report);
  if (findings.length) {
    push('## Security review (informational)', '', SECURITY_NOTE, '');
    push(
      table(
        ['Test', 'Finding', 'Fix'],
        ['---', '---', '---'],
        findings.map((r) => [testCell(r), orDash(mdText(r.message)), orDash(mdText(r.recommendation ?? ''))]),
      ),
      '',
    );
  }

  const errors = toolErrorResults(report);
  if (errors.length) {
    push('## Not verified (tool errors)', '');
    push('Our tool or its proxy failed on these checks; they do not count against the agent.', '');
    push(
      table(
        ['Test', 'Category', 'Message'],
        ['---', '---', '---'],
        errors.map((r) => [testCell(r), r.category, orDash(mdText(r.proxyError ? `${r.message} (proxy error: ${r.proxyError})` : r.message))]),
      ),
      '',
    );
  }

  // Where the wall time went (report.timing); a report from before the timing section has none, and no heading.
  const timing = timingLines(report);
  if (timing) {
    push('## Timing', '');
    push(`- **Time to verdict:** ${mdText(timing.timeToVerdict)}`, `- **Decided by:** ${mdText(timing.decidedBy, 1000)}`);
    if (timing.lastChecks.length) push(`- **Finished last:** ${timing.lastChecks.map((c) => mdText(c, 300)).join(', ')}`);
    push('');
    if (timing.windows.length) {
      push(
        table(
          ['Observation window', 'Size', 'Used', 'Why this size'],
          ['---', '---:', '---', '---'],
          timing.windows.map((w) => [mdText(w.name, 200), mdText(w.size), mdText(w.used, 500), orDash(mdText(w.basis, 1000))]),
        ),
        '',
      );
    } else {
      push('No observation window was used.', '');
    }
  }

  for (const { category, results } of resultsByCategory(report)) {
    push(`## ${CATEGORY_LABELS[category]}`, '');
    if (!results.length) {
      push('No checks in this category.', '');
      continue;
    }
    push(
      table(
        ['Test', 'Level', 'Status', 'Message'],
        ['---', '---', '---', '---'],
        results.map((r) => [testCell(r), r.level, status(r), orDash(mdText(resultMessage(r)))]),
      ),
      '',
    );
  }

  push(
    `<sub>Generated by ${mdText(report.tool.name)} from run ${mdText(report.runId, 100)}. Agent-supplied text is escaped; the JSON export holds the full data.</sub>`,
    '',
  );
  return { filename: exportFilename(report, 'md'), mimeType: MARKDOWN_MIME, body: lines.join('\n') };
}
