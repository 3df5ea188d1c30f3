import { it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent } from '../../testing/defect-agent';
import { baseUrl, pool, TARGETS, MATRIX_SECRET } from '../../testing/defect-agent/matrix';
import type { DefectName } from '../../testing/defect-agent/defects';
import type { PermittedName } from '../../testing/defect-agent/permitted';
import { reportResults } from '../report/build';
import { runConformance } from '../runner/run';
import { streamingChecks } from './streaming';
import { interopChecks } from './interop';

const ONLY = [...streamingChecks, ...interopChecks].map((c) => c.id);
type Case = { target: (typeof TARGETS)[number]; defects?: DefectName[]; permitted?: PermittedName[]; peer?: boolean; interfaces?: boolean; extended?: boolean };
const cases: Case[] = [
  ...TARGETS.map((target) => ({ target })),
  ...TARGETS.map((target) => ({ target, peer: true })),
  ...TARGETS.filter((t) => !t.startsWith('legacy') && !t.startsWith('v0.2')).map((target) => ({ target, interfaces: true })),
  ...TARGETS.map((target) => ({ target, extended: true })),
  ...(['sse-cr', 'sse-crlf', 'sse-multiline-data', 'sse-fields', 'extra-fields', 'timestamps-offset', 'gzip'] as PermittedName[]).flatMap((p) => TARGETS.map((target) => ({ target, permitted: [p] }))),
  ...(['sse-never-ends', 'sse-no-final', 'task-never-finishes', 'sse-events-after-final', 'sse-first-not-task', 'sse-bare-payload', 'sse-no-resubscribe', 'sse-wrong-content-type', 'bad-timestamps', 'no-cors', 'no-task-id', 'wrong-rpc-id', 'task-id-changes', 'bad-initial-state'] as DefectName[]).flatMap((d) =>
    TARGETS.map((target) => ({ target, defects: [d] })),
  ),
];

it('survey', async () => {
  const lines: string[] = [];
  await pool(cases, 3, async (c) => {
    const [generation, binding] = c.target.split(' ') as ['v1.0', 'JSONRPC'];
    const o = { slowTaskMs: 300, stepMs: 10 } as const;
    const started = [];
    const features: Record<string, unknown> = {};
    if (c.interfaces) {
      const other = binding === 'JSONRPC' ? 'HTTP+JSON' : 'JSONRPC';
      const second = await startDefectAgent({ generation, binding: other as 'JSONRPC', ...o });
      started.push(second);
      features.extraInterfaces = [{ url: second.url, binding: other }];
    }
    if (c.extended) features.extendedCard = true;
    const auth = c.extended ? { auth: { scheme: 'bearer' as const, secret: MATRIX_SECRET } } : {};
    const agent = await startDefectAgent({ generation, binding, defects: c.defects, permitted: c.permitted, features, ...auth, ...o });
    started.push(agent);
    let peerUrl: string | undefined;
    if (c.peer) {
      const peer = await startDefectAgent({ generation, binding, ...o });
      started.push(peer);
      peerUrl = baseUrl(peer);
    }
    const report = await runConformance(createNodeHost(), { agentUrl: baseUrl(agent), peerUrl, only: ONLY, timeoutMs: 5000, ...(c.extended ? { credentials: { kind: 'bearer', token: MATRIX_SECRET } } : {}) }, () => {});
    await Promise.all(started.map((a) => a.close()));
    const name = `${c.target}${c.peer ? ' peer' : ''}${c.interfaces ? ' interfaces' : ''}${c.extended ? ' extended' : ''}${(c.defects ?? []).map((d) => ` -${d}`).join('')}${(c.permitted ?? []).map((p) => ` +${p}`).join('')}`;
    for (const r of reportResults(report)) {
      if (r.status === 'pass' || (r.status === 'skip' && r.skipKind === 'not-applicable')) continue;
      lines.push(`${name} | ${r.id} | ${r.status}${r.skipKind ? `/${r.skipKind}` : ''} | ${r.message.slice(0, 220)}`);
    }
  });
  const { writeFileSync } = await import('node:fs');
  writeFileSync('/tmp/survey.txt', lines.sort().join('\n'));
}, 1_200_000);
