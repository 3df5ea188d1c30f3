import { it } from 'vitest';
import { createNodeHost } from '../../../hosts/node';
import { startDefectAgent } from '../../../testing/defect-agent';
import { reportResults } from '../../report/build';
import { runConformance } from '../../runner/run';
import { lifecycleChecks } from '../lifecycle';

const targets = (process.env.LC_TARGETS ?? 'legacy JSONRPC,v0.2 JSONRPC,v0.3 JSONRPC,v0.3 HTTP+JSON,v1.0 JSONRPC,v1.0 HTTP+JSON').split(',');
it.concurrent.each(targets)('%s', async (target) => {
  const [generation, binding] = target.split(' ') as ['v1.0', 'JSONRPC'];
  const defects = (process.env.LC_DEFECTS ?? '').split(',').filter(Boolean) as never[];
  const permitted = (process.env.LC_PERMITTED ?? '').split(',').filter(Boolean) as never[];
  const agent = await startDefectAgent({ generation, binding, defects, permitted, slowTaskMs: 300, stepMs: 10, features: { push: true } });
  const report = await runConformance(createNodeHost(), { agentUrl: agent.cardUrl.replace(/\/\.well-known\/.*$/, ''), timeoutMs: 5000, only: lifecycleChecks.map((c) => c.id) }, () => {});
  await agent.close();
  const lines = reportResults(report).map((r) => `${target} ${r.id}: ${r.status}${r.skipKind ? `/${r.skipKind}` : ''} ${r.message.slice(0, 300)}`);
  console.log(lines.join('\n'));
}, 60_000);
