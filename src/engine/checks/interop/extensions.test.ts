/**
 * errors.extension-required and interop.extensions against the test agent that declares an optional and a required
 * extension (one v1.0 JSON-RPC agent, switched between variants), and the suite's activation of required extensions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent';
import type { DefectName } from '../../../testing/defect-agent/defects';
import type { PermittedName } from '../../../testing/defect-agent/permitted';
import { EXT_OPTIONAL, EXT_REQUIRED } from '../../../testing/defect-agent/extensions';
import type { CheckResult } from '../../model/check';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';
import { requiredExtensionHeaders } from '../../protocol/extensions';
import type { NormalizedCard } from '../../card/normalize';

const IDS = ['errors.extension-required', 'interop.extensions', 'errors.unknown-method'];
let agent: RunningDefectAgent;
beforeAll(async () => {
  agent = await startDefectAgent({ generation: 'v1.0', features: { extensions: true }, stepMs: 5 });
});
afterAll(() => agent?.close());

async function run(o: { defects?: DefectName[]; permitted?: PermittedName[] } = {}): Promise<Record<string, CheckResult>> {
  agent.setDefects(o.defects ?? []);
  agent.setPermitted(o.permitted ?? []);
  agent.requests.length = 0;
  const report = await runConformance(createNodeHost(), { agentUrl: agent.cardUrl, only: IDS, timeoutMs: 5000 }, () => {});
  return Object.fromEntries(reportResults(report).map((r) => [r.id, r]));
}

describe('extensions', () => {
  it('a clean agent: the required extension is enforced, declared and unknown ones are served, the activated ones listed', async () => {
    const r = await run();
    expect(r['errors.extension-required']).toMatchObject({ status: 'pass', level: 'MUST' });
    expect(r['errors.extension-required']?.message).toMatch(/ExtensionSupportRequired \(-32008\) as expected/);
    expect(r['interop.extensions']).toMatchObject({ status: 'pass', level: 'SHOULD' });
    expect(r['interop.extensions']?.message).toMatch(new RegExp(`listed the activated extensions: ${EXT_OPTIONAL}, ${EXT_REQUIRED}`));
    // The suite's own requests activate the required extension (here errors.unknown-method's probe).
    const posts = agent.requests.filter((q) => q.method === 'POST');
    expect(posts.filter((q) => q.headers['a2a-extensions'] === undefined)).toHaveLength(1);
    expect(posts.some((q) => q.headers['a2a-extensions'] === EXT_REQUIRED && !/SendMessage/.test(q.body))).toBe(true);
  });

  it('an agent that serves a message without the required extension fails errors.extension-required', async () => {
    const r = await run({ defects: ['extension-required-not-enforced'] });
    expect(r['errors.extension-required']).toMatchObject({ status: 'fail' });
    expect(r['errors.extension-required']?.message).toMatch(/was served: the agent did not enforce the extension its card marks required/);
  });

  it('an agent that refuses an unknown extension fails interop.extensions (SHOULD ignore it)', async () => {
    const r = await run({ defects: ['extension-unknown-refused'] });
    expect(r['interop.extensions']).toMatchObject({ status: 'fail', level: 'SHOULD' });
    expect(r['interop.extensions']?.message).toMatch(
      /naming an extension the agent does not support \(https:\/\/a2a-interop\.invalid\/extensions\/unknown\/v1\) was refused \(error -32602/,
    );
  });

  it('an answer that does not list the activated extensions passes, with a note', async () => {
    const r = await run({ permitted: ['extension-activated-not-listed'] });
    expect(r['interop.extensions']?.status).toBe('pass');
    expect(r['interop.extensions']?.message).toMatch(/did not list activated extensions in a A2A-Extensions response header \(not required/);
  });

  it('the activation header per generation: A2A-Extensions (v1.0), X-A2A-Extensions (v0.2, v0.3), none in legacy', () => {
    const extensions = [
      { uri: 'urn:a', required: true },
      { uri: 'urn:b', required: false },
      { uri: 'urn:c', required: true },
      { uri: 'urn:a', required: true },
    ];
    const card = { capabilities: { extensions } } as unknown as NormalizedCard;
    expect(requiredExtensionHeaders('v1.0', card)).toEqual({ 'A2A-Extensions': 'urn:a,urn:c' });
    expect(requiredExtensionHeaders('v0.3', card)).toEqual({ 'X-A2A-Extensions': 'urn:a,urn:c' });
    expect(requiredExtensionHeaders('legacy', card)).toEqual({});
  });
});
