import { describe, expect, it } from 'vitest';
import { fakeHost, json, sampleCard } from '../../testing/fake-host';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { depthProblem, jsonDepth, MAX_PORTABLE_JSON_DEPTH } from './shapes';

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

  it('a task whose metadata nests 100,000 levels passes the lifecycle but fails lifecycle.shape', async () => {
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
    expect(byId['lifecycle.shape']!.status).toBe('fail');
    expect(byId['lifecycle.shape']!.message).toMatch(/the answer nests JSON 1000\d\d levels deep/);
  });
});
