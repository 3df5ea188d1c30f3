import type { Invocation, Location, Log, Notification, Region, ReportingDescriptor, Result } from 'sarif';
import { CHECK_CATALOG } from '../engine/checks';
import { GENERATIONS, isInformational, type CheckInfo, type CheckResult, type Obligation } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { agentKey } from '../engine/report/compare';
import { CHECK_SPECS, GENERATION_DOC, SPEC_DOCS, levelOf, type GenerationSpec } from '../engine/spec';
import { truncate } from '../engine/util/json';
import { CATEGORY_LABELS, cleanText, exportFilename, levelLabel, requirementLines, resultsByCategory, type ExportFile } from './common';
import { jsonLines, lineOfPath } from './json-lines';
import { mdText } from './markdown';
import { scrubForExport } from './sanitize';

export const SARIF_MIME = 'application/sarif+json';
const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Longest message text of a result; the JSON report keeps the full text. */
const MESSAGE_MAX = 4000;

/** SARIF level of a requirement: a MUST failure is an error, a SHOULD a warning, a MAY a note. */
export const SARIF_LEVEL: Record<Obligation, 'error' | 'warning' | 'note'> = { MUST: 'error', SHOULD: 'warning', MAY: 'note' };

/**
 * Plain text for a SARIF message: cleaned (cleanText) and cut, with the characters of SARIF's embedded-link
 * syntax escaped (`[text](id)`, §3.11.6), so agent text can never become a link in a viewer.
 */
export function sarifText(s: string, max = MESSAGE_MAX): string {
  return cleanText(truncate(s, max)).replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/**
 * GitHub code scanning's `security-severity` (a number 0.0-10.0 as a string: over 9.0 critical, 7.0-8.9 high,
 * 4.0-6.9 medium, 0.1-3.9 low) for the security review's rules. The review is informational for the conformance
 * level, but these are security findings and code scanning ranks them with the rest of a repository's alerts.
 */
export const SECURITY_SEVERITY: Record<string, string> = {
  'security.card.secrets': '8.6', // a credential published in a public card
  'security.cors.credentials': '8.1', // any web page can make credentialed calls and read the answers
  'security.card.llm-instructions': '7.3', // text aimed at the language models that read the card (prompt injection)
  'security.card.hidden-text': '6.1', // bidi overrides / invisible characters: what a reviewer reads is not what is there
  'security.extended-card.anonymous': '5.9', // the extended card, meant for authenticated clients, served to anyone
  'security.redirects': '5.4', // the card or endpoint redirects off the host or from HTTPS to HTTP
  'security.card.urls': '4.3', // internal addresses and plain HTTP in a public card
};
/** For a security rule not in the table. */
const DEFAULT_SECURITY_SEVERITY = '5.0';

/**
 * SARIF `precision` (GitHub: very-high, high, medium, low): how often a result is a true finding. Conformance
 * checks judge observed exchanges against quoted sentences (high); the security detectors that match text patterns
 * (instructions for models, secret-looking values) are heuristics (medium); CORS and redirects are measured (very-high).
 */
function rulePrecision(id: string, category: string): 'very-high' | 'high' | 'medium' | 'low' {
  if (category !== 'security') return 'high';
  if (id === 'security.card.llm-instructions' || id === 'security.card.secrets') return 'medium';
  if (id === 'security.cors.credentials' || id === 'security.redirects') return 'very-high';
  return 'high';
}

/** The properties GitHub reads on a rule: tags, precision and, for security rules, security-severity. */
function ruleProperties(id: string, category: string, tags: string[]): Record<string, unknown> {
  return {
    category,
    tags,
    precision: rulePrecision(id, category),
    ...(category === 'security' ? { 'security-severity': SECURITY_SEVERITY[id] ?? DEFAULT_SECURITY_SEVERITY } : {}),
  };
}

/** `errors.cancel-twice` -> `ErrorsCancelTwice`: SARIF's `name`, an identifier a viewer may show. */
const ruleName = (id: string) =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('') || 'Check';

/** The spec passages of a check, newest generation first (the newest is the rule's default). */
function generationsOf(id: string): { generation: string; release: string; spec: GenerationSpec }[] {
  const specs = CHECK_SPECS[id] ?? {};
  return [...GENERATIONS].reverse().flatMap((g) => {
    const spec = specs[g];
    return spec ? [{ generation: g, release: SPEC_DOCS[GENERATION_DOC[g]].title, spec }] : [];
  });
}

/** One rule per check of the catalogue: what it enforces, the fix, and the quoted sentences per generation. */
function catalogRule(c: CheckInfo): ReportingDescriptor {
  const gens = generationsOf(c.id);
  const text: string[] = [c.recommendation, ''];
  const md: string[] = [mdText(c.recommendation, 4000), ''];
  for (const { generation, release, spec } of gens) {
    text.push(`${generation} (${release}): ${levelOf(spec)}`);
    md.push(`**${generation}** (${release}): ${levelOf(spec)}`, '');
    for (const s of spec.sentences) {
      const doc = SPEC_DOCS[s.doc];
      text.push(`  ${doc.title} ${s.section} [${s.keyword}]: "${s.quote}"`);
      md.push(`> [${mdText(`${doc.title} ${s.section}`, 300)}](${doc.url}) (${mdText(s.keyword, 40)}): "${mdText(s.quote, 2000)}"`, '');
    }
    if (spec.note) {
      text.push(`  Note: ${spec.note}`);
      md.push(`Note: ${mdText(spec.note, 2000)}`, '');
    }
  }
  const first = gens[0]?.spec.sentences[0];
  return {
    id: c.id,
    name: ruleName(c.id),
    shortDescription: { text: c.title },
    fullDescription: { text: `${c.title} (${CATEGORY_LABELS[c.category]}; ${gens.map((g) => `${g.generation}: ${levelOf(g.spec)}`).join(', ')})` },
    help: { text: text.join('\n').trim(), markdown: md.join('\n').trim() },
    ...(first ? { helpUri: SPEC_DOCS[first.doc].url } : {}),
    // Security-review rules are informational (never part of the level): a note by default, tagged `security`.
    defaultConfiguration: { level: isInformational(c) ? 'note' : SARIF_LEVEL[c.level] },
    properties: ruleProperties(c.id, c.category, isInformational(c) ? ['a2a', 'security', 'informational'] : ['a2a', 'conformance', c.category]),
  };
}

/** A rule for a result whose id the catalogue does not know (an older or hand-edited report): built from the result. */
function resultRule(r: CheckResult): ReportingDescriptor {
  const req = requirementLines(r);
  const rec = r.recommendation ?? '';
  return {
    id: cleanText(r.id),
    name: ruleName(cleanText(r.id)),
    shortDescription: { text: sarifText(r.test, 1000) },
    help: {
      text: sarifText([rec, ...req].filter(Boolean).join('\n') || r.test, 8000),
      markdown: [mdText(rec, 4000), ...req.map((l) => `> ${mdText(l, 2000)}`)].filter(Boolean).join('\n\n') || mdText(r.test, 1000),
    },
    defaultConfiguration: { level: SARIF_LEVEL[r.level] },
    properties: ruleProperties(
      cleanText(r.id),
      r.category,
      r.category === 'security' ? ['a2a', 'security', 'informational'] : ['a2a', 'conformance', r.category],
    ),
  };
}

/** An http(s) URL, normalized (percent-encoded), else undefined. */
function httpUri(u: string | null | undefined): string | undefined {
  if (!u) return undefined;
  try {
    const url = new URL(u);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a result is, as an artifact location GitHub code scanning accepts. Code scanning rejects the whole
 * upload when an artifact URI has a scheme other than the checkout's `file` ("SARIF URI scheme "https" did not
 * match the checkout URI scheme "file"", github/codeql-action#754) or a first path segment with a colon, so
 * `uri` is the URL without its scheme, as a relative reference (`agents.example.com/a2a/.well-known/agent-card.json`,
 * a port as `_8080`, no query), and the URL itself is the location's `description`.
 */
export function sarifArtifact(url: string): { uri: string; description: { text: string } } {
  const u = new URL(url);
  const host = u.host.replace(/[[\]]/g, '').replace(/:/g, '_');
  return { uri: `${host}${u.pathname}`, description: { text: u.href } };
}

/** 32-bit FNV-1a as 8 hex digits: a stable fingerprint of a finding (same agent, same check). */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** What `toSarif` takes besides the report. */
export interface SarifOptions {
  /**
   * The code-scanning category (`runs[].automationDetails.id` is this plus `/`). Default: `sarifCategory(report)`,
   * from the agent URL. github/codeql-action's upload-sarif ignores its own `category` input when the file has
   * an id, so this is where a workflow sets it (`--sarif-category`, the action's `sarif-category`).
   */
  category?: string;
}

/** Longest category kept (GitHub sets no documented limit; a long one is unreadable in the UI). */
const CATEGORY_MAX = 200;

/**
 * A category given by the user, cleaned: controls removed, whitespace runs as `-`, trailing slashes dropped
 * (the id adds one); undefined when nothing usable is left.
 */
export function cleanCategory(s: string | undefined): string | undefined {
  if (s === undefined) return undefined;
  const c = cleanText(s).trim().replace(/\s+/g, '-').replace(/\/+$/, '').slice(0, CATEGORY_MAX);
  return c || undefined;
}

/**
 * The default category: `a2a-interop/<host>[_port]<path>` from the agent URL (the card's well-known path and a
 * trailing slash dropped, the host lower-cased, the scheme left out), never from the card's display name: renaming
 * the agent or moving it from http to https keeps its alerts, and a run that never reached the agent files its
 * results under the same category as one that did.
 */
export function sarifCategory(report: Pick<Report, 'agentUrl'>): string {
  let where: string;
  try {
    const u = new URL(report.agentUrl.trim());
    const path = u.pathname.replace(/\/\.well-known\/(agent-card|agent)\.json$/i, '').replace(/\/+$/, '');
    where = `${u.hostname.toLowerCase().replace(/[[\]]/g, '').replace(/:/g, '_')}${u.port ? `_${u.port}` : ''}${path}`;
  } catch {
    where = report.agentUrl;
  }
  const slug = where
    .replace(/[^A-Za-z0-9._~/-]+/g, '-')
    .replace(/\/{2,}/g, '/')
    .replace(/^[-/]+|[-/]+$/g, '')
    .slice(0, CATEGORY_MAX - 12);
  return `a2a-interop/${slug || 'agent'}`;
}

/** Checks whose subject is the card itself: their results point at a line of the card. */
const cardIsSubject = (r: CheckResult) => r.category === 'agent-card' || r.id.startsWith('security.card.');

/** The URI of results that have no URL at all to point at (an agent URL that is not http(s)). */
const NOWHERE = 'a2a-agent/agent-card.json';

/**
 * The report as SARIF 2.1.0 (OASIS; validated against the schema in `__schema__/` by the tests), for GitHub
 * code scanning and other SARIF viewers:
 * - `tool.driver.rules`: one per check of the catalogue (help = the fix and the quoted spec sentences per
 *   generation; default level MUST = error, SHOULD = warning, MAY = note), plus one per unknown id in the report;
 *   `properties.precision` on each, `properties.security-severity` on the security review's;
 * - `results`: one per required failure (level from the requirement of the generation spoken) and one `note`
 *   per advisory. Every result has a physical location with a region: checks of the card point at the line of
 *   the card (as received, printed with two-space indentation: a synthetic `agent-card.json` under the card's
 *   URL) that their evidence names, the others at line 1 of the endpoint URL (see `sarifArtifact` for the form
 *   code scanning accepts); the JSON path of the card is also a logical location;
 * - our tool's errors and a not-assessed run are tool execution notifications, never results against the agent;
 * - `automationDetails.id` is the category (`options.category`, default `sarifCategory`) plus `/`.
 * Credentials are masked first (scrubForExport); agent text is cleaned and its link syntax escaped (`sarifText`).
 */
export function toSarif(input: Report, options: SarifOptions = {}): ExportFile {
  const report = scrubForExport(input);
  const rules: ReportingDescriptor[] = CHECK_CATALOG.map(catalogRule);
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const all = resultsByCategory(report).flatMap(({ results }) => results);
  for (const r of all) {
    const id = cleanText(r.id);
    if (!index.has(id)) {
      index.set(id, rules.length);
      rules.push(resultRule(r));
    }
  }

  const agentTarget = report.targets.find((t) => t.role === 'agent');
  const cardUrl = httpUri(agentTarget?.cardUrl);
  const endpointUrl = httpUri(report.protocol.endpointUrl);
  const agentUrl = httpUri(report.agentUrl);
  const key = agentKey(report.agentUrl);
  let card: ReturnType<typeof jsonLines> | undefined;
  const cardDoc = () => (card ??= jsonLines(agentTarget?.rawCard ?? {}));

  const locationsOf = (r: CheckResult): Location[] => {
    const onCard = cardIsSubject(r);
    const uri = onCard ? (cardUrl ?? agentUrl) : (endpointUrl ?? cardUrl ?? agentUrl);
    const paths = [...new Set(r.evidence.flatMap((e) => (e.path ? [cleanText(e.path)] : [])))].slice(0, 10);
    const artifactLocation = uri ? sarifArtifact(uri) : { uri: NOWHERE };
    let region: Region = { startLine: 1 };
    if (onCard && agentTarget?.rawCard !== undefined) {
      const doc = cardDoc();
      const startLine = Math.min(lineOfPath(doc, paths[0]), Math.max(1, doc.lines.length));
      // The line as a snippet, unless it is only a bracket (an array element that is an object).
      const snippet = doc.lines[startLine - 1]?.trim();
      region = { startLine, ...(snippet && /[^[\]{},\s]/.test(snippet) ? { snippet: { text: cleanText(truncate(snippet, 300)) } } : {}) };
    }
    return [
      {
        physicalLocation: { artifactLocation, region },
        ...(paths.length ? { logicalLocations: paths.map((p) => ({ fullyQualifiedName: p, kind: 'property' })) } : {}),
      },
    ];
  };
  const results: Result[] = all
    .filter((r) => r.status === 'fail' || r.status === 'advisory')
    .map((r) => {
      const id = cleanText(r.id);
      const advisory = r.status === 'advisory';
      const text = advisory && r.advisoryReason ? `${r.message} (${isInformational(r) ? 'informational' : 'advisory'}: ${r.advisoryReason})` : r.message;
      return {
        ruleId: id,
        ruleIndex: index.get(id),
        level: advisory ? 'note' : SARIF_LEVEL[r.level],
        message: { text: sarifText(text || r.test) },
        locations: locationsOf(r),
        partialFingerprints: { 'a2aInteropFinding/v1': fnv1a(`${key}|${id}`) },
        properties: {
          status: r.status,
          requirementLevel: r.level,
          tier: r.tier,
          category: r.category,
          ...(r.requirement ? { release: cleanText(r.requirement.release) } : {}),
          ...(r.evidence.length
            ? { evidence: r.evidence.slice(0, 10).map((e) => ({ label: cleanText(truncate(e.label, 200)), value: cleanText(truncate(e.value, 1000)) })) }
            : {}),
        },
      } satisfies Result;
    });

  const notifications: Notification[] = all
    .filter((r) => r.status === 'error')
    .map((r) => ({
      level: 'warning',
      message: { text: sarifText(`Not verified: our tool failed on ${r.id}: ${r.proxyError ? `${r.message} (proxy error: ${r.proxyError})` : r.message}`) },
      descriptor: { id: cleanText(r.id), index: index.get(cleanText(r.id)) },
    }));
  if (report.notAssessed) {
    notifications.unshift({
      level: 'error',
      message: { text: sarifText(report.notAssessed.message) },
      descriptor: { id: `not-assessed.${report.notAssessed.reason}` },
    });
  }
  const dateOf = (s: string | undefined) => (s && Number.isFinite(Date.parse(s)) ? new Date(Date.parse(s)).toISOString() : undefined);
  const start = dateOf(report.testDate);
  const end = dateOf(report.finishedAt);
  const invocation: Invocation = {
    executionSuccessful: report.runStatus !== 'errored' && report.notAssessed?.reason !== 'tool-failure',
    ...(start ? { startTimeUtc: start } : {}),
    ...(end ? { endTimeUtc: end } : {}),
    ...(notifications.length ? { toolExecutionNotifications: notifications } : {}),
  };

  const log: Log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: cleanText(report.tool.name) || 'a2a-interop', version: cleanText(report.tool.version), rules } },
        automationDetails: { id: `${cleanCategory(options.category) ?? sarifCategory(report)}/` },
        invocations: [invocation],
        results,
        properties: {
          agentName: cleanText(report.agentName),
          agentUrl: cleanText(report.agentUrl),
          conformanceLevel: report.conformanceLevel,
          level: levelLabel(report),
          provisional: report.provisional,
          levelReason: cleanText(report.levelReason),
          generation: report.protocol.generation,
          binding: report.protocol.binding,
          summary: report.summary,
          ...(report.timing ? { timeToVerdictMs: report.timing.timeToVerdictMs, decidedBy: cleanText(report.timing.decidedBy) } : {}),
          ...(report.notAssessed ? { notAssessed: report.notAssessed.reason } : {}),
          ...(report.comparison ? { comparison: { verdict: report.comparison.verdict, summary: cleanText(report.comparison.summary) } } : {}),
        },
      },
    ],
  };
  return { filename: exportFilename(report, 'sarif'), mimeType: SARIF_MIME, body: `${JSON.stringify(log, null, 2)}\n` };
}
