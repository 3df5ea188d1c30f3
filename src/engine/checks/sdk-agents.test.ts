/**
 * The full suite against the demo agents built on the official SDKs (@a2a-js/sdk 1.3.0 and 0.3.14), on
 * each interface they declare. Where an SDK deviates from its spec, the report shows the deviation as a
 * failing check; these expectations pin exactly which (an SDK upgrade that fixes or adds one shows here).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { DEMO_AGENTS } from '../../demo-agents';
import { startServer, type RunningServer } from '../../server/main';
import type { RunOptions } from '../runner/options';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';

const CORS = ['interop.cors.card', 'interop.cors.rpc', 'interop.cors.stream'];

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, quiet: true, proxy: false, slowTaskMs: 400, stepMs: 10 });
});
afterAll(async () => {
  await server?.close();
});

async function run(agent: string, prefer?: RunOptions['prefer'], credentials?: RunOptions['credentials']) {
  const report = await runConformance(
    createNodeHost(),
    { agentUrl: `${server.url.replace(/\/$/, '')}/demo/${agent}`, timeoutMs: 10_000, prefer, credentials },
    () => {},
  );
  const bad = reportResults(report).filter((r) => r.status === 'fail' || r.status === 'error');
  const failing = bad.map((r) => r.id).sort();
  const advisories = reportResults(report)
    .filter((r) => r.status === 'advisory')
    .map((r) => r.id)
    .sort();
  if (process.env.DEBUG_SDK) for (const r of bad) console.log(agent, prefer, r.id, r.message);
  const detail = bad.map((r) => `${r.id}: ${r.message}`).join('\n');
  return { report, failing, advisories, detail, byId: Object.fromEntries(reportResults(report).map((r) => [r.id, r])) };
}

describe('@a2a-js/sdk 1.3.0 (v1.0 demo agent, legacyCompat on)', () => {
  it('JSON-RPC 1.0: -32602 for a non-JSON-RPC body fails; the successful cancel of a canceled task is an advisory (v1.0 contradicts itself)', async () => {
    const { report, failing, advisories, byId, detail } = await run('v1');
    expect(report.protocol.generation).toBe('v1.0');
    expect(report.protocol.binding).toBe('JSONRPC');
    expect(failing, detail).toEqual(['errors.invalid-request']);
    expect(byId['errors.invalid-request']!.message).toMatch(/-32602/);
    // v1.0.1 §3.3.1 calls cancel idempotent, §3.1.5 lists TaskNotCancelable: an idempotent success is accepted.
    expect(byId['errors.cancel-twice']!.status).toBe('pass');
    expect(byId['errors.cancel-twice']!.requirement?.note).toMatch(/Contradiction/);
    // It answers JSON-RPC notifications (JSON-RPC 2.0 §4.1 says not to; the A2A schemas require ids): advisory.
    expect(advisories).toEqual(['errors.notification', ...CORS].sort());
    expect(byId['errors.cancel-terminal']!.status).toBe('pass');
    // Lenient on a missing A2A-Version only because it also serves 0.3 (legacyCompat): that passes.
    expect(byId['errors.version-missing']!.status).toBe('pass');
    expect(byId['interop.bindings']!.status).toBe('pass');
    // docs/conformance-procedure.md#levels: core lifecycle passes, an error-handling MUST fails: partial.
    expect(report.conformanceLevel).toBe('partial');
  });

  it('HTTP+JSON 1.0: the REST handler answers a missing A2A-Version with v1.0 semantics and unknown routes without google.rpc.Status', async () => {
    const { failing, report, detail, byId } = await run('v1', { binding: 'HTTP+JSON' });
    expect(report.protocol.binding).toBe('HTTP+JSON');
    expect(failing, detail).toEqual(['errors.shape']);
    // The card declares a 0.3 interface at the same URL, and a header-less 0.3 request is served as 0.3: as the spec says.
    expect(byId['errors.version-missing']!.status).toBe('pass');
    expect(report.conformanceLevel).toBe('partial');
  });

  it('its v0.3 compatibility interface (JSON-RPC 0.3) passes the v0.3 suite except the canceled-task cancel (a SHOULD in v0.3)', async () => {
    const { failing, report, detail, byId } = await run('v1', { protocolVersion: '0.3' });
    expect(report.targets[0]!.evidence.join(' ')).toMatch(/0\.3 interfaces, as requested/);
    expect(failing, detail).toEqual(['errors.cancel-twice']);
    expect(byId['errors.cancel-twice']!.level).toBe('SHOULD');
    expect(report.conformanceLevel).toBe('partial');
  });
});

describe('@a2a-js/sdk 0.3.14 (v0.3 demo agent)', () => {
  it('JSON-RPC: get and cancel without an id answer TaskNotFound ("Task not found: undefined"), not -32602; every other A2A check passes', async () => {
    const { failing, advisories, report, detail, byId } = await run('v03');
    expect(report.protocol.generation).toBe('v0.3');
    expect(failing, detail).toEqual(['errors.invalid-params']);
    expect(byId['errors.invalid-params']!.message).toMatch(
      /tasks\/get without the task id \(params \{\}\): expected InvalidParams \(-32602\), got error -32001 "Task not found: undefined"/,
    );
    expect(byId['errors.invalid-params']!.message).toMatch(/tasks\/cancel without the task id/);
    expect(advisories).toEqual(['errors.notification', ...CORS].sort());
    // docs/conformance-procedure.md#levels: core lifecycle passes, an error-handling MUST fails: partial.
    expect(report.conformanceLevel).toBe('partial');
  });

  it('HTTP+JSON: proto-style payloads are understood and judged as such', async () => {
    const { failing, advisories, report, detail } = await run('v03', { binding: 'HTTP+JSON' });
    expect(report.protocol.binding).toBe('HTTP+JSON');
    expect(failing, detail).toEqual([]);
    expect(advisories).toEqual(CORS);
    expect(report.conformanceLevel).toBe('full');
  });
});

describe('streaming.disconnect on the paced demo agent (issue 23)', () => {
  it('disconnects from the slow skill, chosen while it still runs or after it ended, never a quicker one', async () => {
    const report = await runConformance(
      createNodeHost(),
      { agentUrl: `${server.url.replace(/\/$/, '')}/demo/v03`, timeoutMs: 10_000, only: ['streaming.disconnect'] },
      () => {},
    );
    const r = reportResults(report).find((x) => x.id === 'streaming.disconnect');
    expect(r?.status).toBe('pass');
    const chosen = r?.evidence.find((e) => e.label === 'task disconnected from')?.value ?? '';
    expect(chosen).toMatch(/^skill slow-report, the longest test task/);
    if (/still running/.test(chosen)) expect(chosen).toMatch(/still running \d+ ms after it was sent, when every other one had ended within \d+ ms/);
  });
});

describe('the demo list tells the truth', () => {
  it.each(DEMO_AGENTS.map((a) => a.id))('%s: the expected level shown in the dashboard is the measured one', async (id) => {
    // With the credentials the dashboard fills in for that demo (the OAuth demo's client id and secret).
    const demo = DEMO_AGENTS.find((a) => a.id === id)!;
    const { report } = await run(id, undefined, demo.demoCredentials);
    expect(report.conformanceLevel).toBe(demo.expectedLevel);
  });
});

describe('the other demo agents', () => {
  it('legacy: full', async () => {
    const { failing, report, detail } = await run('legacy');
    expect(report.protocol.generation).toBe('legacy');
    expect(failing, detail).toEqual([]);
    expect(report.conformanceLevel).toBe('full');
  });

  it('flawed: non-conformant, with its four realistic defects found (each where it shows)', async () => {
    const { failing, report, detail } = await run('flawed');
    // Wrong TaskNotFound code: for get and for a message naming an unknown task. 500 on cancel: of a completed and of a canceled task.
    expect(failing, detail).toEqual([
      'card.capabilities.shape',
      'errors.cancel-terminal',
      'errors.cancel-twice',
      'errors.task-not-found',
      'errors.unknown-task-message',
      'streaming.terminal',
    ]);
    expect(report.conformanceLevel).toBe('non-conformant');
  });
});
