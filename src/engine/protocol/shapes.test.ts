import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import {
  depthProblem,
  jsonDepth,
  MAX_PORTABLE_JSON_DEPTH,
  messageView,
  restErrorBody,
  taskView,
  timestampFinding,
  timestampProblem,
  v1ErrorDataProblems,
} from './shapes';

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
    const e = restErrorBody(
      { type: 'https://a2a-protocol.org/errors/version-not-supported', title: 'Version not supported', status: 400, detail: 'use 1.0' },
      400,
      true,
    );
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

describe('task, message and status shapes with the strength of each finding', () => {
  const levels = (g: Parameters<typeof taskView>[0], t: unknown, b?: Parameters<typeof taskView>[1]) =>
    (taskView(g, b ?? 'JSONRPC', t).findings ?? []).map((f) => `${f.level}: ${f.problem}`);

  it('timestamps per generation (X7): v1.0 UTC "Z" only; v0.2/v0.3 any ISO 8601 (advisory otherwise); legacy RFC 3339 (advisory otherwise)', () => {
    expect(timestampFinding('v1.0', '2025-04-02T16:59:25.331844Z', 't')).toBeUndefined();
    expect(timestampFinding('v1.0', '2025-04-02T16:59:25Z', 't')).toBeUndefined();
    expect(timestampFinding('v1.0', '2025-04-02T16:59:25+00:00', 't')).toMatchObject({ level: 'MUST' });
    expect(timestampFinding('v0.3', '2025-04-02T16:59:25.331844', 't')).toBeUndefined();
    expect(timestampFinding('v0.2', '20250402T165925Z', 't')).toBeUndefined();
    expect(timestampFinding('v0.2', '2025-04-02T16:59:25,5+0000', 't')).toBeUndefined();
    expect(timestampFinding('v0.3', 'Wed Apr 02 2025', 't')).toMatchObject({ level: 'advisory' });
    expect(timestampFinding('legacy', '2025-04-02t16:59:25z', 't')).toBeUndefined();
    expect(timestampFinding('legacy', '2025-04-02T16:59:25', 't')).toMatchObject({
      level: 'advisory',
      problem: expect.stringMatching(/not an RFC 3339 date-time/),
    });
    expect(timestampFinding('legacy', 1712076000, 't')).toMatchObject({ level: 'MUST' });
    // The text stream parsing reads keeps its wording for legacy.
    expect(timestampProblem('legacy', '2025-04-02T16:59:25', 't')).toBe('t "2025-04-02T16:59:25" is not an ISO 8601 date-time');
  });

  it('v1.0: contextId is not required, "kind" and TASK_STATE_UNSPECIFIED are advisories, a misspelled state is a MUST', () => {
    expect(levels('v1.0', { id: 't1', status: { state: 'TASK_STATE_COMPLETED' } })).toEqual([]);
    expect(levels('v1.0', { id: 't1', kind: 'task', status: { state: 'TASK_STATE_UNSPECIFIED' } })).toEqual([
      'advisory: task has "kind", removed in v1.0 (Appendix A.2.1)',
      'advisory: task.status.state "TASK_STATE_UNSPECIFIED" is the proto\'s zero value (unknown or indeterminate), not a state a task reports',
    ]);
    expect(levels('v1.0', { id: 't1', status: { state: 'completed' } })).toEqual([
      expect.stringMatching(/^MUST: task\.status\.state "completed" is not spelled as/),
    ]);
    expect(levels('v1.0', { id: 't1', status: {} })).toEqual(['MUST: task.status.state undefined is not a task state']);
  });

  it("v0.2/v0.3 JSON-RPC keep the schema's required fields; v0.3 REST (proto JSON) has no required contextId", () => {
    expect(levels('v0.3', { id: 't1', status: { state: 'working' } })).toEqual([
      'MUST: task.contextId is required',
      'MUST: task.kind should be "task", got undefined',
    ]);
    expect(levels('v0.3', { id: 't1', status: { state: 'TASK_STATE_WORKING' } }, 'HTTP+JSON')).toEqual([]);
    const m = messageView('v0.2', 'JSONRPC', { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'hi' }] });
    expect(m.findings).toEqual([{ level: 'MUST', problem: 'message.messageId is required' }]);
  });

  it("problems keep every finding's text (stream parsing splits them); a status message is read", () => {
    const v = taskView('v1.0', 'JSONRPC', {
      id: 't',
      kind: 'task',
      status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { messageId: 'q1', role: 'ROLE_AGENT', parts: [{ text: 'Which day?' }] } },
    });
    expect(v.problems).toEqual(['task has "kind", removed in v1.0 (Appendix A.2.1)']);
    expect([v.statusMessageId, v.statusText]).toEqual(['q1', 'Which day?']);
  });
});
