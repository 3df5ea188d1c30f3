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
import { SARIF_LEVEL, sarifArtifact, sarifText, toSarif } from './sarif';

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
    expect(log.runs[0]!.properties).toMatchObject({ conformanceLevel: flawedReport.conformanceLevel, generation: 'v0.3' });
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
    expect(a.runs[0]!.automationDetails!.id).toMatch(/^a2a-interop\/[a-z0-9-]+\/$/);
    expect(a.runs[0]!.automationDetails!.id).not.toBe(b.runs[0]!.automationDetails!.id);
  });
});
