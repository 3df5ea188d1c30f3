import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../../testing/defect-agent';
import { baseUrl } from '../../../testing/defect-agent/matrix';
import type { DefectName } from '../../../testing/defect-agent/defects';
import type { PermittedName } from '../../../testing/defect-agent/permitted';
import type { CheckResult } from '../../model/check';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';
import { securityChecks } from './index';

/**
 * The security review against the project's test agent: each finding has a defect that triggers it (informational
 * advisory, level unchanged), the clean agent has none, and the permitted look-alikes (RTL text, a same-host redirect)
 * stay clean. One agent per kind, started once; each case runs the security checks only (`only`).
 */
const IDS = securityChecks.map((c) => c.id);
const SECRET = 'security-review-secret-7c2';

let plain: RunningDefectAgent;
let extended: RunningDefectAgent;
beforeAll(async () => {
  plain = await startDefectAgent({ generation: 'v1.0', binding: 'JSONRPC', stepMs: 5 });
  extended = await startDefectAgent({
    generation: 'v1.0',
    binding: 'HTTP+JSON',
    stepMs: 5,
    auth: { scheme: 'bearer', secret: SECRET },
    features: { extendedCard: true },
  });
});
afterAll(async () => {
  await Promise.all([plain?.close(), extended?.close()]);
});

async function review(a: RunningDefectAgent, defects: DefectName[] = [], permitted: PermittedName[] = []): Promise<Map<string, CheckResult>> {
  a.setDefects(defects);
  a.setPermitted(permitted);
  try {
    const auth = a === extended ? { credentials: { kind: 'bearer' as const, token: SECRET } } : {};
    const report = await runConformance(createNodeHost(), { agentUrl: baseUrl(a), timeoutMs: 5000, only: IDS, ...auth }, () => {});
    expect(report.conformanceLevel === null || report.categories.security.length > 0).toBe(true);
    return new Map(reportResults(report).map((r) => [r.id, r]));
  } finally {
    a.setDefects([]);
    a.setPermitted([]);
  }
}

const findings = (m: Map<string, CheckResult>) => [...m.values()].filter((r) => r.status === 'advisory' || r.status === 'fail').map((r) => r.id);

describe('security review against the test agent', () => {
  it('the clean agent has no finding, and every applicable security check passes', async () => {
    const m = await review(plain);
    expect(findings(m)).toEqual([]);
    for (const id of [
      'security.card.urls',
      'security.card.hidden-text',
      'security.card.llm-instructions',
      'security.card.secrets',
      'security.cors.credentials',
      'security.redirects',
    ])
      expect(m.get(id)?.status, id).toBe('pass');
    expect(m.get('security.extended-card.anonymous')?.status).toBe('skip');
  });

  it.each([
    ['card-internal-url', 'security.card.urls', /link-local/],
    ['card-hidden-text', 'security.card.hidden-text', /U\+202E/],
    ['card-llm-instructions', 'security.card.llm-instructions', /ignore earlier instructions/],
    ['card-secret', 'security.card.secrets', /AWS access key/],
    ['cors-credentials', 'security.cors.credentials', /access-control-allow-credentials: true/],
    ['redirect-off-host', 'security.redirects', /elsewhere\.a2a-interop\.example/],
  ] as const)('%s → %s, an informational finding with evidence and a fix', async (defect, id, evidence) => {
    const m = await review(plain, [defect]);
    expect(findings(m)).toEqual([id]);
    const r = m.get(id);
    expect(r).toMatchObject({ status: 'advisory', category: 'security', tier: 'advisory', level: 'MAY' });
    expect(r?.advisoryReason).toMatch(/informational/);
    expect(r?.evidence.map((e) => `${e.label} ${e.value}`).join('\n')).toMatch(evidence);
    expect(r?.recommendation?.length).toBeGreaterThan(40);
  });

  it('the secret is masked in the finding', async () => {
    const m = await review(plain, ['card-secret']);
    expect(JSON.stringify(m.get('security.card.secrets'))).not.toContain('AKIAIOSFODNN7EXAMPLE');
  });

  it('permitted look-alikes stay clean: RTL text with its marks, a description about prompts, a same-host redirect', async () => {
    const m = await review(plain, [], ['card-rtl-text', 'redirect-same-host']);
    expect(findings(m)).toEqual([]);
    expect(
      m
        .get('security.redirects')
        ?.evidence.map((e) => e.value)
        .join('\n'),
    ).toMatch(/→ 302/);
  });

  it('the extended card: refused without credentials → pass; served anonymously → a finding', async () => {
    const clean = await review(extended);
    expect(clean.get('security.extended-card.anonymous')?.status).toBe('pass');
    expect(findings(clean)).toEqual([]);
    const leaky = await review(extended, ['extended-card-anonymous']);
    expect(leaky.get('security.extended-card.anonymous')?.status).toBe('advisory');
    expect(leaky.get('security.extended-card.anonymous')?.message).toMatch(/served without credentials/);
  });
});
