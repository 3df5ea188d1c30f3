/**
 * Fifty local agents for `run-many` (src/cli/fleet.test.ts, bench/fleet.bench.ts): the four SDK demo agents,
 * 25 defect agents (three generations × eight defect sets, one behind a bearer token), 19 hostile agents
 * that hang (every call, or the stream), flood and lie, a closed port and an entry whose credential variable is not set. Written as a
 * registry export mixing every accepted entry shape, in reverse order (parsing sorts them).
 *
 * @example
 * const fleet = await startFleet();
 * await runMany({ file: fleet.writeList(dir), ... }, io);   // env: fleet.env
 * await fleet.close();
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DEMO_AGENTS, type MountedDemoAgent } from '../demo-agents';
import { startDefectAgent, type DefectName, type RunningDefectAgent } from './defect-agent';
import { startHostileAgent, type HostileName, type RunningHostileAgent } from './hostile';

export const FLEET_HOSTILE: readonly HostileName[] = [
  'card-50mb',
  'card-yaml',
  'card-html-200',
  'card-bom',
  'card-html-script',
  'card-redirect-loop',
  'rpc-invalid-json',
  'rpc-html-200',
  'rpc-never-answers',
  'rpc-wrong-id',
  'rpc-result-and-error',
  'rpc-headers-64k',
  'rpc-reset-mid-body',
  'task-id-changes',
  'bad-timestamps',
  'sse-never-ends',
  'sse-flood',
  'sse-invalid-utf8',
  'rpc-redirect-loop',
];
const DEFECT_SETS: readonly (readonly DefectName[])[] = [
  [],
  ['card-capabilities-array'],
  ['card-missing-skills'],
  ['card-wrong-content-type'],
  ['send-returns-message'],
  ['no-task-id'],
  ['card-undeclared-security'],
  ['invalid-params-wrong-code'],
];
const GENERATIONS = ['v1.0', 'v0.3', 'legacy'] as const;
export const FLEET_TOKEN = 'fleet-secret-token-5f2a9c';

export interface RunningFleet {
  /** The 50 entries of the agent list. */
  entries: unknown[];
  /** Writes the list to `<dir>/agents.json` and returns its path. */
  writeList(dir: string): string;
  /** The environment the list's header references need (FLEET_TOKEN; FLEET_MISSING_KEY is left unset on purpose). */
  env: Record<string, string>;
  /** Defect agents in start order: 0..7 v1.0, 8..15 v0.3, 16..23 legacy, 24 the secured one. */
  defectAgents: RunningDefectAgent[];
  hostile: RunningHostileAgent[];
  close(): Promise<void>;
}

const baseOf = (a: RunningDefectAgent) => a.cardUrl.replace(/\/\.well-known\/.*$/, '');

/** Fleet demo agents: the ones `npm start` serves (src/demo-agents, as src/server/main.ts mounts them) on a server of their own. */
const FLEET_DEMOS = ['v1', 'v03', 'legacy', 'flawed'];

async function serveDemoAgents(): Promise<{ url: string; close(): Promise<void> }> {
  const mounted: MountedDemoAgent[] = [];
  const server = createServer((req, res) => {
    for (const a of mounted) if (a.handle(req, res)) return;
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const info of DEMO_AGENTS.filter((d) => FLEET_DEMOS.includes(d.id)))
    mounted.push(info.create({ basePath: info.path, publicUrl: `${url}${info.path}`, slowTaskMs: 300, stepMs: 10 }));
  return {
    url,
    close: async () => {
      await Promise.all(mounted.map((a) => a.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export async function startFleet(): Promise<RunningFleet> {
  const server = await serveDemoAgents();
  const defectAgents: RunningDefectAgent[] = [];
  for (const g of GENERATIONS)
    for (const d of DEFECT_SETS) defectAgents.push(await startDefectAgent({ generation: g, defects: [...d], slowTaskMs: 300, stepMs: 10 }));
  const secured = await startDefectAgent({ generation: 'v1.0', auth: { scheme: 'bearer', secret: FLEET_TOKEN }, slowTaskMs: 300, stepMs: 10 });
  defectAgents.push(secured);
  const hostile = await Promise.all(FLEET_HOSTILE.map((n) => startHostileAgent(n)));
  const demo = FLEET_DEMOS.map((id) => `${server.url}/demo/${id}`);
  const entries: unknown[] = [
    ...demo,
    // The registry's stored form, with the card URL it was imported from.
    ...defectAgents.slice(0, 8).map((a, i) => ({
      id: `agent:defect.${i}`,
      agent: { id: `agent:defect.${i}`, version: '1', name: `Defect ${i}`, endpoints: [{ protocol: 'a2a', url: a.url }], source: { url: a.cardUrl } },
    })),
    // Bare registry agents: run at their first http(s) endpoint.
    ...defectAgents
      .slice(8, 16)
      .map((a, i) => ({ id: `agent:bare.${i}`, version: '1', name: `Bare ${i}`, endpoints: [{ protocol: 'http', url: `${baseOf(a)}/`, priority: 1 }] })),
    ...defectAgents.slice(16, 24).map(baseOf),
    { url: baseOf(secured), name: 'Secured', headers: { Authorization: 'Bearer ${FLEET_TOKEN}' } },
    { url: 'http://127.0.0.1:9/', name: 'Missing token', headers: { 'X-API-Key': '${FLEET_MISSING_KEY}' } },
    'http://127.0.0.1:1/closed',
    ...hostile.map((h) => h.url),
  ].reverse();
  return {
    entries,
    writeList(dir) {
      const file = join(dir, 'agents.json');
      writeFileSync(file, JSON.stringify({ agents: entries }, null, 2));
      return file;
    },
    env: { FLEET_TOKEN },
    defectAgents,
    hostile,
    async close() {
      await Promise.all([server.close(), ...defectAgents.map((a) => a.close()), ...hostile.map((h) => h.close())]);
    },
  };
}
