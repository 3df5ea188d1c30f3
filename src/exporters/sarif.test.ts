import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import type { Log, Result } from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_CATALOG } from '../engine/checks';
import type { Report } from '../engine/model/report';
import { reportResults } from '../engine/report/build';
import { runConformance } from '../engine/runner/run';
import { createNodeHost } from '../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import {
  HOSTILE_API_KEY,
  HOSTILE_BEARER_TOKEN,
  HOSTILE_PASSWORD,
  conformantReport,
  hostileReport,
  sampleReport,
  unreachableReport,
} from '../testing/fixtures/reports';
import { exportReport } from './index';
import { gzipSync } from 'node:zlib';
import { SARIF_LEVEL, SECURITY_SEVERITY, sarifArtifact, sarifCategory, sarifText, toSarif } from './sarif';
import { jsonLines, lineOfPath } from './json-lines';

/**
 * The OASIS SARIF 2.1.0 schema (JSON Schema draft-04), vendored in src/exporters/__schema__ so a clean clone validates
 * too. Formats are checked with the platform's URL parser and Date, not skipped.
 */
const schema = JSON.parse(readFileSync(join(__dirname, '__schema__', 'sarif-schema-2.1.0.json'), 'utf8')) as object;
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addFormat('uri', (s: string) => URL.canParse(s));
ajv.addFormat('uri-reference', (s: string) => URL.canParse(s, 'http://base.invalid/') && !/[\s<>"{}|\\^`]/.test(s));
ajv.addFormat('date-time', (s: string) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && Number.isFinite(Date.parse(s)));
const validate = ajv.compile(schema);

function validSarif(body: string): Log {
  const log = JSON.parse(body) as Log;
  const ok = validate(log);
  expect(ok ? [] : validate.errors?.slice(0, 5).map((e) => `${e.instancePath} ${e.message}`)).toEqual([]);
  return log;
}

const results = (log: Log): Result[] => log.runs[0]!.results ?? [];

describe('SARIF schema validation catches invalid logs (so the tests below can fail)', () => {
  it('rejects a wrong version, an unknown property and a bad URI', () => {
    const good = JSON.parse(toSarif(sampleReport()).body) as Log;
    expect(validate(good)).toBe(true);
    expect(validate({ ...good, version: '2.0.0' })).toBe(false);
    expect(validate({ ...good, extra: 1 })).toBe(false);
    const badUri = structuredClone(good);
    badUri.runs[0]!.results![0]!.locations = [{ physicalLocation: { artifactLocation: { uri: 'http://a b/<x>' } } }];
    expect(validate(badUri)).toBe(false);
  });
});

describe('SARIF export of real runs (defect test agent)', () => {
  let flawed: RunningDefectAgent;
  let clean: RunningDefectAgent;
  let flawedReport: Report;
  let cleanReport: Report;
  beforeAll(async () => {
    [flawed, clean] = await Promise.all([
      startDefectAgent({
        generation: 'v0.3',
        defects: ['card-capabilities-array', 'card-skill-no-description', 'invalid-params-wrong-code'],
        slowTaskMs: 300,
        stepMs: 10,
      }),
      startDefectAgent({ generation: 'v1.0', slowTaskMs: 300, stepMs: 10 }),
    ]);
    const run = (a: RunningDefectAgent) => runConformance(createNodeHost(), { agentUrl: a.cardUrl, timeoutMs: 10_000 }, () => undefined);
    [flawedReport, cleanReport] = await Promise.all([run(flawed), run(clean)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([flawed.close(), clean.close()]);
  });

  it('a flawed run validates, with one result per required failure and a note per advisory', () => {
    const { file, fallback } = exportReport(flawedReport, 'sarif');
    expect(fallback).toBeUndefined();
    expect(file.mimeType).toBe('application/sarif+json');
    expect(file.filename).toMatch(/\.sarif$/);
    const log = validSarif(file.body);
    const all = reportResults(flawedReport);
    const failed = all.filter((r) => r.status === 'fail');
    const advisories = all.filter((r) => r.status === 'advisory');
    expect(failed.length).toBeGreaterThan(2);
    expect(results(log)).toHaveLength(failed.length + advisories.length);
    const rules = log.runs[0]!.tool.driver.rules!;
    for (const r of failed) {
      const res = results(log).find((x) => x.ruleId === r.id && x.level !== 'note');
      expect(res, r.id).toBeDefined();
      expect(res!.level).toBe(SARIF_LEVEL[r.level]);
      expect(rules[res!.ruleIndex!]!.id).toBe(r.id);
    }
    for (const r of advisories) expect(results(log).find((x) => x.ruleId === r.id)?.level, r.id).toBe('note');
    // Card failures point at the card URL, the others at the endpoint (scheme-less uri, the URL as description).
    const cardUrl = new URL(flawedReport.targets[0]!.cardUrl!);
    const capabilities = results(log).find((x) => x.ruleId === 'card.capabilities.shape')!.locations![0]!.physicalLocation!.artifactLocation!;
    expect(capabilities.description!.text).toBe(cardUrl.href);
    expect(capabilities.uri).toBe(`127.0.0.1_${cardUrl.port}${cardUrl.pathname}`);
    const params = results(log).find((x) => x.ruleId === 'errors.invalid-params')!.locations![0]!.physicalLocation!.artifactLocation!;
    expect(params.description!.text).toBe(flawedReport.protocol.endpointUrl);
    expect(log.runs[0]!.properties).toMatchObject({
      conformanceLevel: flawedReport.conformanceLevel,
      generation: 'v0.3',
      timeToVerdictMs: flawedReport.timing!.timeToVerdictMs,
      decidedBy: flawedReport.timing!.decidedBy,
    });
  });

  it('a JSON path in the evidence becomes a logical location', () => {
    const log = validSarif(toSarif(flawedReport).body);
    const withPath = reportResults(flawedReport).filter((r) => r.status === 'fail' && r.evidence.some((e) => e.path));
    expect(withPath.length).toBeGreaterThan(0);
    for (const r of withPath) {
      const res = results(log).find((x) => x.ruleId === r.id)!;
      const names = res.locations![0]!.logicalLocations!.map((l) => l.fullyQualifiedName);
      expect(names).toContain(r.evidence.find((e) => e.path)!.path);
    }
  });

  it('a clean run validates and has no error or warning results', () => {
    expect(cleanReport.conformanceLevel).toBe('full');
    const log = validSarif(toSarif(cleanReport).body);
    expect(results(log).filter((r) => r.level !== 'note')).toEqual([]);
    expect(log.runs[0]!.invocations![0]!.executionSuccessful).toBe(true);
  });
});

describe('SARIF rules', () => {
  const log = JSON.parse(toSarif(conformantReport()).body) as Log;
  const rules = log.runs[0]!.tool.driver.rules!;

  it('has one rule per check of the catalogue, with the fix and the quoted sentences as help', () => {
    for (const c of CHECK_CATALOG) {
      const rule = rules.find((r) => r.id === c.id);
      expect(rule, c.id).toBeDefined();
      expect(rule!.shortDescription!.text).toBe(c.title);
      expect(rule!.help!.text).toContain(c.recommendation);
      expect(rule!.help!.text).toMatch(/\[(MUST|SHOULD|MAY|REQUIRED|required-field|none|[A-Z ]+)\]: "/);
      expect(rule!.help!.markdown).toMatch(/^> \[.+\]\(https:\/\//m);
      expect(rule!.defaultConfiguration!.level).toBe(SARIF_LEVEL[c.level]);
      expect(rule!.helpUri).toMatch(/^https:\/\//);
      expect(rule!.name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    }
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  });

  it('maps MUST, SHOULD and MAY to error, warning and note', () => {
    expect(SARIF_LEVEL).toEqual({ MUST: 'error', SHOULD: 'warning', MAY: 'note' });
    const may = CHECK_CATALOG.find((c) => c.level === 'MAY');
    if (may) expect(rules.find((r) => r.id === may.id)!.defaultConfiguration!.level).toBe('note');
  });
});

describe('SARIF of the fixed reports', () => {
  it.each([
    ['sample', sampleReport],
    ['conformant', conformantReport],
    ['unreachable', unreachableReport],
    ['hostile', hostileReport],
  ] as const)('%s validates against the OASIS schema', (_name, make) => {
    validSarif(toSarif(make()).body);
  });

  it('an unreachable agent has no results against it and says why in a tool notification', () => {
    const log = validSarif(toSarif(unreachableReport()).body);
    expect(results(log)).toEqual([]);
    const n = log.runs[0]!.invocations![0]!.toolExecutionNotifications!;
    expect(n[0]!.message.text).toMatch(/^Not assessed: nothing answered at http:\/\/127\.0\.0\.1:9/);
    expect(n[0]!.descriptor!.id).toBe('not-assessed.unreachable');
  });

  it('tool errors are notifications, never results against the agent', () => {
    const report = sampleReport();
    const errors = reportResults(report).filter((r) => r.status === 'error');
    expect(errors.length).toBeGreaterThan(0);
    const log = validSarif(toSarif(report).body);
    for (const e of errors) {
      expect(results(log).some((r) => r.ruleId === e.id)).toBe(false);
      expect(log.runs[0]!.invocations![0]!.toolExecutionNotifications!.some((n) => n.descriptor?.id === e.id)).toBe(true);
    }
  });

  it('hostile text: no secrets, no live link syntax, no javascript: location, no control characters', () => {
    const body = toSarif(hostileReport()).body;
    for (const s of [HOSTILE_BEARER_TOKEN, HOSTILE_API_KEY, HOSTILE_PASSWORD]) expect(body).not.toContain(s.slice(-12));
    const log = validSarif(body);
    for (const r of results(log)) {
      // Every [ and ] in a message is escaped, so `[click](javascript:...)` stays text.
      expect(r.message.text!.replace(/\\[\\[\]]/g, '')).not.toMatch(/[[\]]/);
      for (const l of r.locations ?? []) expect(l.physicalLocation?.artifactLocation?.description?.text ?? 'https://x').toMatch(/^https?:\/\//);
    }
    expect(body).not.toMatch(/\\u000[0-8bcef]|\\u001[0-9a-f]|\\u202e/i);
  });

  it('artifact URIs are relative references code scanning accepts: no scheme, no colon in the first segment', () => {
    expect(sarifArtifact('https://agents.example.com/fx/.well-known/agent-card.json?x=1')).toEqual({
      uri: 'agents.example.com/fx/.well-known/agent-card.json',
      description: { text: 'https://agents.example.com/fx/.well-known/agent-card.json?x=1' },
    });
    expect(sarifArtifact('http://127.0.0.1:41241/').uri).toBe('127.0.0.1_41241/');
    expect(sarifArtifact('http://[::1]:8080/a b').uri).toBe('__1_8080/a%20b');
    for (const make of [sampleReport, hostileReport, conformantReport]) {
      for (const r of results(JSON.parse(toSarif(make()).body) as Log)) {
        for (const l of r.locations ?? []) {
          const uri = l.physicalLocation?.artifactLocation?.uri;
          if (uri === undefined) continue;
          expect(uri).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
          expect(uri.split('/')[0]).not.toContain(':');
          expect(uri.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('sarifText escapes SARIF link syntax and cleans the text', () => {
    expect(sarifText('see [docs](javascript:alert(1)) \\ end\u0000\u202e')).toBe('see \\[docs\\](javascript:alert(1)) \\\\ end');
  });

  it('each agent gets its own automation id (separate code-scanning categories)', () => {
    const a = JSON.parse(toSarif(sampleReport()).body) as Log;
    const b = JSON.parse(toSarif(conformantReport()).body) as Log;
    expect(a.runs[0]!.automationDetails!.id).toMatch(/^a2a-interop\/[A-Za-z0-9._~/-]+\/$/);
    expect(a.runs[0]!.automationDetails!.id).not.toBe(b.runs[0]!.automationDetails!.id);
  });
});

/**
 * What GitHub code scanning documents for an upload (docs.github.com, "SARIF support for code scanning" and "SARIF
 * results exceed limits"): the category in `runs[].automationDetails.id` (github/codeql-action's upload-sarif ignores
 * its own `category` input when the file has one), `ruleId`, `message.text`, a physical location with an artifact
 * URI and `region.startLine` >= 1 on every result, `security-severity` as a string number 0.0-10.0 and `precision`
 * in very-high/high/medium/low on rules, and the hard limits: 20 runs per file, 25,000 results and 25,000 rules per
 * run, 1,000 locations per result, 20 tags per rule, 10 MB gzip-compressed per file.
 */
function githubUploadProblems(log: Log): string[] {
  const problems: string[] = [];
  if (log.runs.length > 20) problems.push(`${log.runs.length} runs`);
  const gz = gzipSync(JSON.stringify(log)).length;
  if (gz > 10 * 1024 * 1024) problems.push(`${gz} bytes gzipped`);
  for (const run of log.runs) {
    const id = run.automationDetails?.id;
    if (!id || !/\/$/.test(id) || id.length < 2) problems.push(`automationDetails.id ${JSON.stringify(id)}: a category ending with /`);
    const rules = run.tool.driver.rules ?? [];
    if (rules.length > 25_000) problems.push(`${rules.length} rules`);
    for (const rule of rules) {
      const p = rule.properties ?? {};
      const tags = (p.tags as string[] | undefined) ?? [];
      if (tags.length > 20) problems.push(`${rule.id}: ${tags.length} tags`);
      if (!['very-high', 'high', 'medium', 'low'].includes(p.precision as string)) problems.push(`${rule.id}: precision ${String(p.precision)}`);
      const sev = p['security-severity'];
      if (sev !== undefined && !(typeof sev === 'string' && /^\d{1,2}(\.\d+)?$/.test(sev) && Number(sev) >= 0 && Number(sev) <= 10))
        problems.push(`${rule.id}: security-severity ${JSON.stringify(sev)}`);
    }
    const results = run.results ?? [];
    if (results.length > 25_000) problems.push(`${results.length} results`);
    for (const r of results) {
      if (!r.ruleId) problems.push('a result without ruleId');
      if (!r.message.text) problems.push(`${r.ruleId}: no message.text`);
      if (!r.locations?.length || r.locations.length > 1000) problems.push(`${r.ruleId}: ${r.locations?.length ?? 0} locations`);
      for (const l of r.locations ?? []) {
        const uri = l.physicalLocation?.artifactLocation?.uri;
        if (!uri) problems.push(`${r.ruleId}: no artifactLocation.uri`);
        else if (/^[a-z][a-z0-9+.-]*:/i.test(uri)) problems.push(`${r.ruleId}: uri with a scheme ${uri}`);
        const line = l.physicalLocation?.region?.startLine;
        if (!(typeof line === 'number' && Number.isInteger(line) && line >= 1)) problems.push(`${r.ruleId}: region.startLine ${String(line)}`);
      }
    }
  }
  return problems;
}

describe('SARIF for GitHub code scanning: category, regions, security-severity, precision, limits', () => {
  let flawed: RunningDefectAgent;
  let report: Report;
  beforeAll(async () => {
    flawed = await startDefectAgent({
      generation: 'v1.0',
      defects: ['card-capabilities-array', 'card-skill-no-description', 'invalid-params-wrong-code'],
      slowTaskMs: 200,
      stepMs: 5,
    });
    report = await runConformance(createNodeHost(), { agentUrl: flawed.cardUrl, timeoutMs: 10_000 }, () => undefined);
  }, 60_000);
  afterAll(() => flawed.close());

  it('a flawed run passes the schema and GitHub upload requirements; every result has a region', () => {
    expect(reportResults(report).filter((r) => r.status === 'fail').length).toBeGreaterThan(2);
    const log = validSarif(toSarif(report).body);
    expect(githubUploadProblems(log)).toEqual([]);
    expect(results(log).length).toBeGreaterThan(2);
  });

  it('results about the card point at the line of the card their evidence names (synthetic agent-card.json)', () => {
    const log = validSarif(toSarif(report).body);
    const caps = results(log).find((r) => r.ruleId === 'card.capabilities.shape')!;
    const loc = caps.locations![0]!.physicalLocation!;
    expect(loc.artifactLocation!.uri).toMatch(/\/\.well-known\/agent-card\.json$/);
    const card = jsonLines(report.targets[0]!.rawCard);
    expect(loc.region!.startLine).toBeGreaterThan(1);
    expect(card.lines[loc.region!.startLine! - 1]).toMatch(/^\s*"capabilities": \[/);
    expect(loc.region!.snippet!.text).toMatch(/^"capabilities": \[/);
    // The synthetic card is the card as JSON.stringify prints it with two spaces.
    expect(card.lines.join('\n')).toBe(JSON.stringify(report.targets[0]!.rawCard, null, 2));
    // Endpoint results point at line 1 of the endpoint.
    const params = results(log).find((r) => r.ruleId === 'errors.invalid-params')!.locations![0]!.physicalLocation!;
    expect(params.region).toEqual({ startLine: 1 });
    expect(params.artifactLocation!.description!.text).toBe(report.protocol.endpointUrl);
  });

  it('the category comes from the agent URL, is stable across a rename and an unreachable run, and can be set', () => {
    const id = (r: Report, category?: string) => (JSON.parse(toSarif(r, { category }).body) as Log).runs[0]!.automationDetails!.id;
    const port = new URL(flawed.cardUrl).port;
    expect(id(report)).toBe(`a2a-interop/127.0.0.1_${port}/`);
    const renamed = { ...report, agentName: 'Billing Agent (renamed)' };
    expect(id(renamed)).toBe(id(report));
    const down = { ...unreachableReport(), agentUrl: report.agentUrl };
    expect(id(down)).toBe(id(report));
    expect(id(report, 'billing-agent')).toBe('billing-agent/');
    expect(id(report, 'team/billing/')).toBe('team/billing/');
    expect(sarifCategory({ agentUrl: 'https://Agents.Example.com:8443/billing/.well-known/agent-card.json' })).toBe(
      'a2a-interop/agents.example.com_8443/billing',
    );
    expect(sarifCategory({ agentUrl: 'http://agents.example.com:8443/billing/' })).toBe('a2a-interop/agents.example.com_8443/billing');
    expect(sarifCategory({ agentUrl: 'https://a.example/x y/<z>' })).toBe('a2a-interop/a.example/x-20y/-3Cz-3E');
  });

  it('security rules carry security-severity, every rule a precision', () => {
    const rules = (JSON.parse(toSarif(conformantReport()).body) as Log).runs[0]!.tool.driver.rules!;
    const security = CHECK_CATALOG.filter((c) => c.category === 'security');
    expect(security.length).toBeGreaterThan(0);
    for (const c of security) {
      const rule = rules.find((r) => r.id === c.id)!;
      expect(rule.properties!['security-severity'], c.id).toBe(SECURITY_SEVERITY[c.id]);
      expect(rule.properties!.tags).toContain('security');
    }
    for (const r of rules.filter((x) => !x.id.startsWith('security.'))) expect(r.properties!['security-severity'], r.id).toBeUndefined();
    expect(new Set(rules.map((r) => r.properties!.precision))).toEqual(new Set(['very-high', 'high', 'medium']));
    for (const make of [sampleReport, hostileReport, unreachableReport, conformantReport])
      expect(githubUploadProblems(JSON.parse(toSarif(make()).body) as Log)).toEqual([]);
  });

  it('the upload check can fail', () => {
    const log = JSON.parse(toSarif(report).body) as Log;
    const bad = structuredClone(log);
    bad.runs[0]!.results![0]!.locations![0]!.physicalLocation!.region = { startLine: 0 };
    delete bad.runs[0]!.automationDetails;
    bad.runs[0]!.tool.driver.rules![0]!.properties!['security-severity'] = 'high';
    expect(githubUploadProblems(bad)).toHaveLength(3);
  });

  it('lineOfPath reads dotted, $-rooted and JSON-pointer paths, falling back to the nearest ancestor', () => {
    const doc = jsonLines({ name: 'a', skills: [{ id: 's', tags: ['x'] }], 'odd key': 1 });
    expect(doc.lines.join('\n')).toBe(JSON.stringify({ name: 'a', skills: [{ id: 's', tags: ['x'] }], 'odd key': 1 }, null, 2));
    expect(lineOfPath(doc, 'skills[0].id')).toBe(5);
    expect(lineOfPath(doc, '$.skills[0].id')).toBe(5);
    expect(lineOfPath(doc, '/skills/0/id')).toBe(5);
    expect(lineOfPath(doc, 'skills.0.tags')).toBe(6);
    expect(lineOfPath(doc, 'skills[0].missing')).toBe(4);
    expect(lineOfPath(doc, 'nothing')).toBe(1);
    expect(lineOfPath(doc, 'odd key')).toBe(1);
    expect(lineOfPath(doc, '["odd key"]')).toBe(11);
  });
});
