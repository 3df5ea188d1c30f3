/**
 * The hostile-agent corpus: `startHostileAgent(name)` starts one misbehaving agent on 127.0.0.1:0.
 *
 * @example
 * const agent = await startHostileAgent('card-50mb');
 * const report = await runConformance(createNodeHost(), { agentUrl: agent.url, timeoutMs: 3000 }, () => {});
 * await agent.close();
 */
import { HOSTILE_BEHAVIOURS, type HostileName } from './behaviours';
import { startHostile, type RunningHostileAgent } from './server';

export { HOSTILE_CARD_TEXT, type HostileName } from './behaviours';
export { startHostile, type RunningHostileAgent } from './server';

export function startHostileAgent(name: HostileName): Promise<RunningHostileAgent> {
  return startHostile(name, HOSTILE_BEHAVIOURS[name]);
}
