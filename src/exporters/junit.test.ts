import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { CATEGORIES, CATEGORY_KEYS } from '../engine/model/check';
import type { Report } from '../engine/model/report';
import { HOSTILE_TEXT, conformantReport, hostileReport, largeReport, sampleReport, unreachableReport } from '../testing/fixtures/reports';
import { cleanText, oneLine } from './common';
import { toJunit } from './junit';

const XSD = fileURLToPath(new URL('./__schema__/JUnit.xsd', import.meta.url));

/** Validates with libxml2's xmllint against the Ant JUnit schema; returns xmllint's complaints ('' when valid). */
function xsdErrors(xml: string): string {
  const r = spawnSync('xmllint', ['--noout', '--schema', XSD, '-'], { input: xml, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw new Error(`xmllint could not run (install libxml2-utils): ${r.error.message}`);
  return r.status === 0 ? '' : `${r.stderr}`.slice(0, 2000);
}

/** An XPath string value, computed by libxml2. */
function xpath(xml: string, expr: string): string {
  const r = spawnSync('xmllint', ['--xpath', expr, '-'], { input: xml, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`xmllint --xpath failed: ${r.stderr}`);
  return r.stdout.replace(/\n$/, ''); // xmllint ends its output with a newline
}

interface Case {
  classname: string;
  name: string;
  time: string;
  kind?: 'failure' | 'error' | 'skipped';
  message?: string;
  type?: string;
  text?: string;
}
interface Suite {
  attrs: Record<string, string>;
  properties: Record<string, string>;
  cases: Case[];
}

/** Child elements. (xmlbuilder2's DOM `children` yields all descendants, so filter `childNodes`.) */
const elements = (node: Element): Element[] => [...node.childNodes].filter((n): n is Element => n.nodeType === 1);

/** Parses the export back with xmlbuilder2's DOM (entities decoded). */
function parse(xml: string): Suite[] {
  const root = create(xml).root().node as unknown as Element;
  expect(root.nodeName).toBe('testsuites');
  expect(root.attributes.length).toBe(0);
  return elements(root).map((suite) => {
    const attrs = Object.fromEntries([...suite.attributes].map((a) => [a.name, a.value]));
    const children = elements(suite);
    // The schema's sequence: properties, testcase*, system-out, system-err.
    expect(children[0]?.nodeName).toBe('properties');
    expect(children.slice(-2).map((c) => c.nodeName)).toEqual(['system-out', 'system-err']);
    const properties = Object.fromEntries(elements(children[0]!).map((p) => [p.getAttribute('name')!, p.getAttribute('value')!]));
    const cases = children
      .filter((c) => c.nodeName === 'testcase')
      .map((c): Case => {
        const detail = elements(c)[0];
        return {
          classname: c.getAttribute('classname')!,
          name: c.getAttribute('name')!,
          time: c.getAttribute('time')!,
          kind: detail?.nodeName as Case['kind'],
          message: detail?.getAttribute('message') ?? undefined,
          type: detail?.getAttribute('type') ?? undefined,
          text: detail?.textContent ?? undefined,
        };
      });
    return { attrs, properties, cases };
  });
}

describe('JUnit export', () => {
  it('xmllint and the XSD are available (the validation tests below depend on them)', () => {
    expect(existsSync(XSD)).toBe(true);
    expect(execFileSync('xmllint', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })).toBeDefined();
    // The validator itself rejects what the schema forbids: a root <testsuites> with attributes.
    expect(xsdErrors('<?xml version="1.0"?><testsuites tests="1"/>')).toMatch(/tests/);
  });

  it('xmlbuilder2 can load in the browser bundle: the `events` polyfill it extends at load time is installed', () => {
    // Without it Vite stubs Node's `events` and the built dashboard dies on start ("Class extends value undefined").
    const fromXmlbuilder2 = createRequire(createRequire(import.meta.url).resolve('xmlbuilder2'));
    expect(fromXmlbuilder2.resolve('events/')).toMatch(/node_modules\/events\/events\.js$/);
  });

  const fixtures: [string, () => Report][] = [
    ['sample', sampleReport],
    ['hostile', hostileReport],
    ['conformant', conformantReport],
    ['not assessed (unreachable)', unreachableReport],
    ['10,000-event', () => largeReport(10_000)],
  ];
  for (const [name, make] of fixtures) {
    it(`validates against the Ant JUnit XSD: ${name} report`, () => {
      expect(xsdErrors(toJunit(make()).body)).toBe('');
    });
  }

  it('an agent that was not assessed gets one error case saying why (CI fails visibly, no grade)', () => {
    const report = unreachableReport();
    expect(report.conformanceLevel).toBeNull();
    expect(report.notAssessed?.reason).toBe('unreachable');
    const suites = parse(toJunit(report).body);
    const assessment = suites.find((s) => s.attrs.name === 'assessment')!;
    expect(assessment.attrs).toMatchObject({ tests: '1', errors: '1', failures: '0' });
    expect(assessment.cases).toHaveLength(1);
    expect(assessment.cases[0]).toMatchObject({ kind: 'error' });
    const xml = toJunit(report).body;
    expect(xpath(xml, 'string(//testsuite[@name="assessment"]/testcase/error/@type)')).toBe('not-assessed: unreachable');
    expect(xpath(xml, 'string(//testsuite[@name="agent-card"]/properties/property[@name="conformance.level"]/@value)')).toBe('not assessed (unreachable)');
    // A graded report has no such suite.
    expect(parse(toJunit(sampleReport()).body).some((s) => s.attrs.name === 'assessment')).toBe(false);
  });

  it('has one testsuite per category and one testcase per check, with counts matching the report', () => {
    const report = sampleReport();
    const suites = parse(toJunit(report).body);
    expect(suites.map((s) => [s.attrs.name, s.attrs.id, s.attrs.package])).toEqual(CATEGORIES.map((c, i) => [c, String(i), 'a2a-interop']));
    suites.forEach((suite, i) => {
      const results = report.categories[CATEGORY_KEYS[CATEGORIES[i]!]];
      expect(suite.cases.map((c) => c.name)).toEqual(results.map((r) => `${r.id} ${r.test}`));
      expect(suite.cases.every((c) => c.classname === CATEGORIES[i])).toBe(true);
      const n = (s: string) => String(results.filter((r) => r.status === s).length);
      expect(suite.attrs).toMatchObject({ tests: String(results.length), failures: n('fail'), errors: n('error'), skipped: n('skip') });
      expect(suite.attrs.timestamp).toBe('2026-11-29T19:57:36');
    });
    const all = suites.flatMap((s) => s.cases);
    expect(all.filter((c) => c.kind === 'failure')).toHaveLength(report.summary.failed);
    expect(all.filter((c) => c.kind === 'error')).toHaveLength(report.summary.errors);
    expect(all.filter((c) => c.kind === 'skipped')).toHaveLength(report.summary.skipped);
    // Advisories pass in JUnit (nothing required failed); their text is in the suite's system-out.
    expect(all.filter((c) => c.kind === undefined)).toHaveLength(report.summary.passed + report.summary.advisories);
  });

  it('puts times in seconds, the failure type and recommendation, skip reasons and the properties', () => {
    const report = sampleReport();
    const suites = parse(toJunit(report).body);
    const cases = suites.flatMap((s) => s.cases);
    const cancel = cases.find((c) => c.name.startsWith('lifecycle.cancel '))!;
    const result = report.categories.lifecycle.find((r) => r.id === 'lifecycle.cancel')!;
    expect(cancel.time).toBe((result.duration_ms / 1000).toFixed(3));
    expect(cancel).toMatchObject({ kind: 'failure', type: 'MUST requirement', message: result.message });
    expect(cancel.text).toContain(`Recommendation: ${result.recommendation}`);
    expect(cases.find((c) => c.name.startsWith('interop.cors.preflight '))).toMatchObject({ kind: 'error', type: 'upstream_reset' });
    expect(cases.find((c) => c.name.startsWith('auth.required '))?.message).toBe('The card declares no security scheme. (precondition not met)');
    expect(suites[0]!.properties).toMatchObject({
      'agent.name': 'Currency Agent',
      'protocol.generation': 'v0.3',
      'protocol.binding': 'JSONRPC',
      'conformance.level': 'minimal',
      'conformance.provisional': 'true',
      // Where the wall time went (report.timing).
      'run.time-to-verdict-ms': String(report.timing!.timeToVerdictMs),
      'run.decided-by': report.timing!.decidedBy,
    });
    // A report from before the timing section has no such properties (and still exports).
    const { timing: _, ...older } = report;
    expect(parse(toJunit(older).body)[0]!.properties).not.toHaveProperty('run.time-to-verdict-ms');
    const suiteTime = Number(suites[1]!.attrs.time);
    expect(suiteTime).toBeCloseTo(report.categories.lifecycle.reduce((s, r) => s + r.duration_ms, 0) / 1000, 3);
  });

  it('keeps hostile agent text as text: parsed back it equals the cleaned input, markup and all', () => {
    const report = hostileReport();
    const xml = toJunit(report).body;
    // eslint-disable-next-line no-control-regex -- matching C0 control characters is the point (they are unsafe in exports)
    expect(xml).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
    expect(xml).not.toContain('<script');
    expect(xml).not.toContain(']]>');
    const cases = parse(xml).flatMap((s) => s.cases);
    const card = cases.find((c) => c.classname === 'agent-card')!;
    // Markup survives as characters, not elements.
    expect(card.name).toContain('<script>alert("xss")</script>');
    expect(card.name).toBe(oneLine(`${report.categories.agentCard[0]!.id} ${report.categories.agentCard[0]!.test}`));
    const error = cases.find((c) => c.kind === 'error')!;
    expect(HOSTILE_TEXT).toContain('&amp; &lt;');
    expect(error.text).toBe(`${cleanText(HOSTILE_TEXT)}\n\nProxy error: ${cleanText('bad<type>"\u0001')}`);
    expect(error.type).toBe('bad<type>"');
  });

  it('escapes entity-shaped text too: `&foo;`, `&#1;` and `&amp;` come back exactly as written', () => {
    const report = sampleReport();
    const tricky = 'a &foo; b &#1; c &amp; d &#x41; e & f';
    report.categories.lifecycle[2]!.message = tricky;
    report.agentName = tricky;
    const xml = toJunit(report).body;
    expect(xsdErrors(xml)).toBe('');
    // Read back with libxml2: xmlbuilder2's own parser decodes `&amp;#1;` twice (to U+0001).
    expect(xpath(xml, 'string(/testsuites/testsuite[2]/testcase[3]/failure/@message)')).toBe(tricky);
    expect(xpath(xml, 'string(/testsuites/testsuite[2]/testcase[3]/failure)').startsWith(`${tricky}\n`)).toBe(true);
    expect(xpath(xml, 'string(/testsuites/testsuite[1]/properties/property[@name="agent.name"]/@value)')).toBe(tricky);
  });
});
