import { describe, expect, it } from 'vitest';
import type { ConsoleCall } from './console-store';
import { SESSION_EXPORT_KIND, sessionJson, sessionMarkdown, type SessionExport } from './export';

const HOSTILE = '<script>alert(1)</script> [click](https://evil.example) @maintainers | ## heading\n# also';

const call: ConsoleCall = {
  id: 'c1',
  op: 'stream',
  title: `Send (streaming): ${JSON.stringify(HOSTILE)}`,
  input: { text: HOSTILE },
  startedAt: Date.UTC(2026, 11, 1, 5),
  status: 'done',
  frames: [],
  result: {
    operation: 'stream',
    method: 'message/stream',
    generation: 'v0.3',
    binding: 'JSONRPC',
    ok: true,
    outcome: 'stream',
    summary: `message/stream: 2 event(s); ${HOSTILE}`,
    task: {
      id: 't1',
      contextId: 'c1',
      state: 'completed',
      rawState: 'completed',
      statusText: HOSTILE,
      artifacts: [{ artifactId: 'a', text: HOSTILE, parts: 1 }],
      raw: undefined,
    },
    frames: [
      { seq: 1, ms: 3, data: '{}', kind: 'task', findings: [] },
      {
        seq: 2,
        ms: 9,
        data: '{}',
        kind: 'status',
        rawState: 'completed',
        findings: [
          { level: 'MUST', checkId: 'streaming.terminal', rule: 'end-of-stream', message: `no final: ${HOSTILE}`, frame: 2, specRef: 'A2A v0.3.0 §7.2' },
        ],
      },
    ],
    exchanges: [
      {
        exchangeId: 'x1',
        request: { method: 'POST', url: 'http://127.0.0.1:1/jsonrpc', headers: { authorization: 'Bearer [REDACTED]' }, bodySize: 1 },
        sseEvents: 2,
      },
    ],
    findings: [{ level: 'MUST', checkId: 'streaming.terminal', rule: 'end-of-stream', message: `no final: ${HOSTILE}`, frame: 2, specRef: 'A2A v0.3.0 §7.2' }],
    durationMs: 12,
  },
};
const session: SessionExport = {
  agentUrl: 'http://127.0.0.1:1/demo/flawed',
  agentName: 'Demo <agent>',
  generation: 'v0.3',
  binding: 'JSONRPC',
  startedAt: Date.UTC(2026, 11, 1, 5),
  calls: [call],
};

describe('session exports', () => {
  it('JSON keeps everything (findings per frame, exchanges), already redacted', () => {
    const f = sessionJson(session);
    expect(f.filename).toBe('a2a-console-demo-agent-20261201-050000.json');
    const doc = JSON.parse(f.body) as { kind: string; calls: { result: { frames: { findings: unknown[] }[] } }[] };
    expect(doc.kind).toBe(SESSION_EXPORT_KIND);
    expect(doc.calls[0]!.result.frames[1]!.findings).toHaveLength(1);
    expect(f.body).toContain('Bearer [REDACTED]');
  });

  it('Markdown: agent text can never become markup, a link, a heading or a mention', () => {
    const md = sessionMarkdown(session).body;
    expect(md).not.toContain('<script>');
    expect(md).toContain('&lt;script&gt;');
    expect(md).not.toMatch(/[^\\]\[click\]\(/);
    expect(md).not.toContain('@maintainers');
    expect(md).toContain('&#64;maintainers');
    // The agent's "## heading" never starts a line: only our own headings do.
    const headings = md.split('\n').filter((l) => l.startsWith('#'));
    expect(headings).toEqual([
      '# A2A console session: Demo &lt;agent&gt;',
      expect.stringMatching(/^## c1\. Send/),
      '### Findings',
      '### Task',
      '### Events',
      '### Exchanges',
    ]);
    expect(md).toContain('❌ MUST `streaming.terminal` (event 2)');
    expect(md).toContain('| 2 | 9 | status | completed | MUST streaming.terminal |');
  });
});
