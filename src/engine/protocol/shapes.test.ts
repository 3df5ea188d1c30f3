import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { depthProblem, jsonDepth, MAX_PORTABLE_JSON_DEPTH, restErrorBody, v1ErrorDataProblems } from './shapes';

describe('JSON nesting depth', () => {
  it('measures nesting and ignores brackets inside strings', () => {
    expect(jsonDepth('{"a":[1,{"b":2}]}')).toBe(3);
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[["}')).toBe(1);
    expect(jsonDepth('['.repeat(100_000) + ']'.repeat(100_000))).toBe(100_000);
  });

  it('flags only answers deeper than portable parsers accept', () => {
    const ok = '['.repeat(MAX_PORTABLE_JSON_DEPTH) + ']'.repeat(MAX_PORTABLE_JSON_DEPTH);
    expect(depthProblem(ok)).toBeUndefined();
    expect(depthProblem(`[${ok}]`)).toMatch(/513 levels deep/);
  });

  it('a task whose metadata nests 100,000 levels passes the lifecycle; lifecycle.shape flags it as an advisory (no sentence limits nesting)', async () => {
    const deep = `${'{"x":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const task = (id: string) =>
      `{"jsonrpc":"2.0","id":ID,"result":{"task":{"id":"${id}","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED","timestamp":"2026-01-01T00:00:00.000Z"},"metadata":${deep}}}}`;
    const { host } = fakeHost(async (req) => {
      const path = new URL(req.url).pathname;
      if (path === '/.well-known/agent-card.json') return json({ ...sampleCard('v1.0'), capabilities: { streaming: false } });
      const body = JSON.parse(await req.text()) as { id: string; params: { id?: string } };
      return new Response(task(body.params.id ?? 't1').replace('ID', JSON.stringify(body.id)), { headers: { 'content-type': 'application/json' } });
    });
    const report = await runConformance(host, { agentUrl: 'http://agent.test', only: ['lifecycle.send', 'lifecycle.get', 'lifecycle.shape'] }, () => {});
    const byId = Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
    expect(byId['lifecycle.send']!.status).toBe('pass');
    expect(byId['lifecycle.shape']!.status).toBe('advisory');
    expect(byId['lifecycle.shape']!.message).toMatch(/the answer nests JSON 1000\d\d levels deep/);
  });
});

describe('HTTP+JSON error bodies (restErrorBody)', () => {
  const info = { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' };

  it('google.rpc.Status without the string "status" has no problem, only a note (it is not a google.rpc.Status field)', () => {
    const e = restErrorBody({ error: { code: 404, message: 'Task not found', details: [info] } }, 404, true);
    expect(e.problems).toEqual([]);
    expect(e.notes).toEqual([expect.stringMatching(/error\.status .* is absent, which is fine: google\.rpc\.Status has no such field/)]);
    expect(e.reason).toBe('TASK_NOT_FOUND');
    expect(e.structured).toBe(true);
  });

  it('keeps the MUSTs: code equal to the HTTP status, a message, @type on every detail, ErrorInfo for A2A errors', () => {
    const e = restErrorBody({ error: { code: 400, status: 'NOT_FOUND', details: [{ reason: 'X' }] } }, 404, true);
    expect(e.problems).toEqual([
      'error.code 400 should equal the HTTP status 404',
      'error.message is missing (v1.0.1 §3.3.2: every error MUST convey a message)',
      'error.details[0] MUST have an "@type"',
      'error.details has no google.rpc.ErrorInfo (MUST for A2A-specific errors, §11.6)',
    ]);
  });

  it('an application/problem+json body (the §6.4/§6.5 examples) is named as such, and is structured', () => {
    const e = restErrorBody({ type: 'https://a2a-protocol.org/errors/version-not-supported', title: 'Version not supported', status: 400, detail: 'use 1.0' }, 400, true);
    expect(e.problems[0]).toMatch(/application\/problem\+json \(as in the v1\.0\.1 §6\.4\/§6\.5 examples\), but §11\.6 requires google\.rpc\.Status/);
    expect(e.structured).toBe(true);
    expect(e.message).toBe('use 1.0');
  });

  it('a v0.3-style {"message"} body is structured JSON; a non-JSON body is neither', () => {
    const v03 = restErrorBody({ message: 'Task not found' }, 404);
    expect([v03.json, v03.structured, v03.message]).toEqual([true, true, 'Task not found']);
    const html = restErrorBody(undefined, 500);
    expect([html.json, html.structured]).toEqual([false, false]);
    expect(html.problems[0]).toMatch(/not JSON/);
  });
});

describe('v1.0 JSON-RPC error.data (v1ErrorDataProblems)', () => {
  it('splits the MUST (@type on every item) from the SHOULD (a list with an ErrorInfo)', () => {
    const data = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest' }, { note: 'untyped' }];
    expect(v1ErrorDataProblems(data, 'must')).toEqual(['error.data[1] MUST be an object with "@type" (v1.0.1 §9.5)']);
    expect(v1ErrorDataProblems(data, 'should')).toEqual(['error.data has no google.rpc.ErrorInfo']);
    expect(v1ErrorDataProblems({ method: 'x' }, 'must')).toEqual([]);
    expect(v1ErrorDataProblems({ method: 'x' }, 'should')[0]).toMatch(/should be a list of typed details/);
    expect(v1ErrorDataProblems(undefined)).toHaveLength(1);
  });
});
