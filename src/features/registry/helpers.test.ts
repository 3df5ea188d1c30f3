import { describe, expect, it } from 'vitest';
import { CardError } from '../../lib/engine-adapter';
import { RegistryAgent } from '../../lib/registry-db';
import { cardFilename, explainAddError, lastRunOf, parseCardText, runLink, runTargetOf } from './helpers';

const agent = (extra: Partial<RegistryAgent>) => RegistryAgent.parse({ id: 'agent:x', version: '1', name: 'x', ...extra });

describe('registry helpers', () => {
  it('names the exported file after the id slug', () => {
    expect(cardFilename('agent:robot.bay.arm.v1')).toBe('agent-robot-bay-arm-v1.agent-card.json');
    expect(cardFilename('agent:127.0.0.1.demo-agent-v0-3-sdk')).toBe('agent-127-0-0-1-demo-agent-v0-3-sdk.agent-card.json');
    expect(cardFilename('../../<script>')).toBe('script.agent-card.json');
    expect(cardFilename('::')).toBe('agent.agent-card.json');
    expect(cardFilename('a'.repeat(500)).length).toBeLessThan(100);
    expect(cardFilename('agent:robot.bay.arm.v1', 'v0.3')).toBe('agent-robot-bay-arm-v1.v0.3.agent-card.json');
  });

  it('Run now links start the run (run=1); the plain link only fills the form', () => {
    expect(runLink('https://x.example/a2a', { start: true })).toBe('/?agent=https%3A%2F%2Fx.example%2Fa2a&run=1');
    expect(runLink('https://x.example/a2a')).toBe('/?agent=https%3A%2F%2Fx.example%2Fa2a');
  });

  it("finds an agent's last run by any of its URLs (card URL, endpoints), ignoring card paths and trailing slashes", () => {
    const a = agent({
      endpoints: [{ protocol: 'a2a', url: 'https://x.example/rpc', priority: 0 }],
      source: { url: 'https://x.example/.well-known/agent-card.json' },
    });
    const runs = [
      { runId: 'r1', agentUrl: 'https://x.example', startedAt: 1 },
      { runId: 'r2', agentUrl: 'https://x.example/rpc/', startedAt: 3 },
      { runId: 'r3', agentUrl: 'https://x.example/.well-known/agent-card.json', startedAt: 2 },
      { runId: 'other', agentUrl: 'https://y.example', startedAt: 9 },
    ];
    expect(lastRunOf(a, runs)?.runId).toBe('r2');
    expect(lastRunOf(a, runs.slice(0, 1))?.runId).toBe('r1');
    expect(lastRunOf(a, runs.slice(3))).toBeUndefined();
  });

  it('runs an agent at its card URL when imported, else at its first http(s) endpoint in card order', () => {
    const eps = [
      { protocol: 'grpc' as const, url: 'https://x.example/grpc', priority: 0 },
      { protocol: 'http' as const, url: 'https://x.example/rest', priority: 0 },
      { protocol: 'a2a' as const, url: 'https://x.example/rpc', priority: 5 },
    ];
    expect(runTargetOf(agent({ endpoints: eps }))).toBe('https://x.example/rpc');
    expect(runTargetOf(agent({ endpoints: eps, source: { url: 'https://x.example/.well-known/agent-card.json' } }))).toBe(
      'https://x.example/.well-known/agent-card.json',
    );
    expect(runTargetOf(agent({ endpoints: [], source: { url: 'pasted' } }))).toBeUndefined();
    expect(runLink('http://127.0.0.1:4179/demo/v03/.well-known/agent-card.json')).toBe(
      '/?agent=http%3A%2F%2F127.0.0.1%3A4179%2Fdemo%2Fv03%2F.well-known%2Fagent-card.json',
    );
  });

  it('accepts a card only as a JSON object and says what is wrong otherwise', () => {
    expect(parseCardText('\uFEFF {"name": "a"} ')).toEqual({ ok: true, card: { name: 'a' } });
    for (const [text, why] of [
      ['', /empty/],
      ['{"name": ', /not valid JSON/],
      ['[{"name": "a"}]', /JSON object/],
      ['42', /JSON object/],
      ['x'.repeat(20), /not valid JSON/],
    ] as const) {
      const r = parseCardText(text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(why);
    }
    expect(parseCardText('{"a":1}', 3).ok).toBe(false);
  });

  it('explains why a card could not be fetched, with a next step', () => {
    expect(explainAddError(new CardError('not-found', 'No agent card found: x → 404.'), 'proxy')).toMatch(/No agent card found.*enter the card's own URL/);
    expect(explainAddError(new CardError('proxy', 'connect ECONNREFUSED'), 'proxy')).toMatch(/proxy could not reach the agent.*running/);
    expect(explainAddError(new Error('x'), 'proxy', 'HTTP 502')).toMatch(/proxy is unreachable \(HTTP 502\).*npm start/);
    expect(explainAddError(new TypeError('Failed to fetch'), 'direct')).toMatch(/CORS/);
  });
});
