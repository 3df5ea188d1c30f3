import { create } from 'xmlbuilder2';
import { isInformational, type CheckResult } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { truncate } from '../engine/util/json';
import { cleanText, exportFilename, levelLabel, oneLine, requirementLines, resultMessage, resultsByCategory, SECURITY_NOTE, type ExportFile } from './common';
import { scrubForExport } from './sanitize';

export const JUNIT_MIME = 'application/xml';

/** Longest `message` attribute; the element text carries the full message. */
const ATTR_MAX = 1000;

/**
 * xmlbuilder2 escapes `<`, `>`, `"` and `&`, except an `&` that starts something shaped like an entity
 * (`&amp;`, `&foo;`, `&#1;`), which it passes through as markup. Agent text is text, so every `&` is
 * escaped here first; xmlbuilder2 then leaves our `&amp;` alone. (Otherwise `&foo;` would make the
 * document invalid and `&lt;` would come back as `<`.)
 */
const x = (s: string) => s.replace(/&/g, '&amp;');

/** Seconds with millisecond precision, as `xs:decimal` wants it (`1.234`). */
const seconds = (ms: number) => (Number.isFinite(ms) && ms > 0 ? ms / 1000 : 0).toFixed(3);

/**
 * `YYYY-MM-DDTHH:MM:SS` in UTC: the Ant schema's ISO8601_DATETIME_PATTERN allows no fraction and no zone.
 * `1970-01-01T00:00:00` when the date does not parse.
 */
function junitTimestamp(iso: string): string {
  const t = Date.parse(iso);
  return Number.isFinite(t) ? new Date(t).toISOString().slice(0, 19) : '1970-01-01T00:00:00';
}

/** Text of the failure/error element: message, recommendation, spec reference and evidence. */
function detail(r: CheckResult): string {
  const parts = [cleanText(r.message)];
  if (r.recommendation) parts.push(`Recommendation: ${cleanText(r.recommendation)}`);
  const req = requirementLines(r);
  if (req.length) parts.push(['Spec:', ...req.map((l) => `- ${cleanText(l)}`)].join('\n'));
  if (r.proxyError) parts.push(`Proxy error: ${cleanText(r.proxyError)}`);
  if (r.evidence.length) parts.push(['Evidence:', ...r.evidence.map((e) => `- ${cleanText(e.label)}: ${cleanText(e.value)}`)].join('\n'));
  return x(parts.filter(Boolean).join('\n\n'));
}

/**
 * The report as JUnit XML for CI (Jenkins, GitLab, GitHub test reporters), valid against the Ant schema
 * (`src/exporters/__schema__/JUnit.xsd`): a bare `<testsuites>` root (the schema allows it no attributes) with one
 * `<testsuite>` per category (`id`, `package`, `hostname`, `timestamp`, `<properties>`, `<system-out>`,
 * `<system-err>` as the schema requires) and one `<testcase>` per check: `classname` = category,
 * `name` = `<id> <title>`, `<failure>` for fail, `<error>` for our tool's errors, `<skipped message>` for skip.
 * Built with xmlbuilder2 (which escapes markup); agent text is first stripped of characters XML 1.0 forbids
 * and its `&` escaped (see `x`).
 */
export function toJunit(input: Report): ExportFile {
  const report = scrubForExport(input);
  const timestamp = junitTimestamp(report.testDate);
  const properties: [string, string][] = [
    ['agent.name', report.agentName],
    ['agent.version', report.agentVersion],
    ['agent.url', report.agentUrl],
    ...(report.peerUrl !== undefined ? ([['peer.url', report.peerUrl]] as [string, string][]) : []),
    ['protocol.generation', report.protocol.generation ?? 'unknown'],
    ['protocol.binding', report.protocol.binding ?? 'unknown'],
    ['protocol.endpoint', report.protocol.endpointUrl ?? ''],
    ['conformance.level', levelLabel(report)],
    ['conformance.required-failures', String(report.summary.failed)],
    ['conformance.advisories', String(report.summary.advisories)],
    ['conformance.provisional', String(report.provisional)],
    ['conformance.reason', report.levelReason],
    ['run.id', report.runId],
    ['run.status', report.runStatus],
    ['run.date', report.testDate],
    // Where the wall time went (report.timing; older reports have none).
    ...(report.timing
      ? ([
          ['run.time-to-verdict-ms', String(report.timing.timeToVerdictMs)],
          ['run.decided-by', report.timing.decidedBy],
        ] as [string, string][])
      : []),
    ['tool', `${report.tool.name} ${report.tool.version}`],
  ];

  const root = create({ version: '1.0', encoding: 'UTF-8' }).ele('testsuites');
  resultsByCategory(report).forEach(({ category, results }, id) => {
    const count = (s: CheckResult['status']) => results.filter((r) => r.status === s).length;
    const suite = root.ele('testsuite', {
      name: category,
      package: 'a2a-interop',
      id: String(id),
      timestamp,
      hostname: 'localhost',
      tests: String(results.length),
      failures: String(count('fail')),
      errors: String(count('error')),
      skipped: String(count('skip')),
      time: seconds(results.reduce((sum, r) => sum + r.duration_ms, 0)),
    });
    const props = suite.ele('properties');
    for (const [name, value] of properties) props.ele('property', { name, value: x(oneLine(value)) });

    for (const r of results) {
      const testcase = suite.ele('testcase', {
        classname: category,
        name: x(oneLine(`${r.id} ${r.test}`)) || 'check',
        time: seconds(r.duration_ms),
      });
      const message = x(oneLine(truncate(resultMessage(r), ATTR_MAX)));
      if (r.status === 'fail') testcase.ele('failure', { message, type: `${r.level} requirement` }).txt(detail(r));
      else if (r.status === 'error') testcase.ele('error', { message, type: x(oneLine(r.proxyError ?? '')) || 'tool error' }).txt(detail(r));
      else if (r.status === 'skip') testcase.ele('skipped', { message });
      // An advisory passes: nothing the generation requires failed. Its text goes to the suite's system-out.
    }
    const advisories = results.filter((r) => r.status === 'advisory');
    suite
      .ele('system-out')
      .txt(
        advisories.length
          ? x(
              [
                isInformational({ category }) ? `Security review findings (${SECURITY_NOTE})` : 'Advisories (they do not affect the level):',
                ...advisories.map((r) => `- ${cleanText(r.id)}: ${cleanText(resultMessage(r))}`),
              ].join('\n'),
            )
          : '',
      );
    suite.ele('system-err');
  });
  if (report.notAssessed) {
    // One error case, so CI fails visibly: the agent was never assessed (unreachable, no card, credentials ...).
    const suite = root.ele('testsuite', {
      name: 'assessment',
      package: 'a2a-interop',
      id: String(resultsByCategory(report).length),
      timestamp,
      hostname: 'localhost',
      tests: '1',
      failures: '0',
      errors: '1',
      skipped: '0',
      time: '0.000',
    });
    const props = suite.ele('properties');
    for (const [name, value] of properties) props.ele('property', { name, value: x(oneLine(value)) });
    suite
      .ele('testcase', { classname: 'assessment', name: 'not-assessed The agent could be assessed', time: '0.000' })
      .ele('error', { message: x(oneLine(truncate(report.notAssessed.message, ATTR_MAX))), type: `not-assessed: ${report.notAssessed.reason}` })
      .txt(x(cleanText(report.notAssessed.message)));
    suite.ele('system-out');
    suite.ele('system-err');
  }
  return { filename: exportFilename(report, 'xml'), mimeType: JUNIT_MIME, body: `${root.end({ prettyPrint: true })}\n` };
}
