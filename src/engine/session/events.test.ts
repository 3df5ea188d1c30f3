/**
 * A console session tells the states it sees as a run does: a `task-state` event per state an answer or a stream
 * event showed, on the call's lane, live (onEvent) and in the call's events, so no consumer has to read states
 * from the wire itself.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import type { RunEvent } from '../model/events';
import { openSession } from '.';

const agents: RunningDefectAgent[] = [];
afterAll(() => Promise.all(agents.map((a) => a.close())));

describe('task-state events of a session', () => {
  it.each(['v1.0', 'legacy'] as const)('%s: a blocking send, a stream and a list', async (generation) => {
    const a = await startDefectAgent({ generation, stepMs: 5, slowTaskMs: 200 });
    agents.push(a);
    const open = await openSession(createNodeHost(), { agentUrl: a.url.replace(/\/$/, '') });
    if (!open.ok) throw new Error(open.unavailable.message);
    const s = open.session;
    const states = (es: readonly RunEvent[]) => es.flatMap((e) => (e.type === 'task-state' ? [`${e.source} ${e.state}`] : []));

    const sent = await s.send({ text: 'Write a haiku about interoperability' });
    expect(states(sent.events)).toEqual(['send completed']);
    const lane = sent.events.find((e) => e.type === 'http-request');
    expect(sent.events.find((e) => e.type === 'task-state')).toMatchObject({ lane: lane?.type === 'http-request' ? lane.lane : '', taskId: sent.task?.id });

    const live: RunEvent[] = [];
    const streamed = await s.stream({ text: 'Write a haiku about interoperability', onEvent: (e) => live.push(e) });
    // One per stream event that carries a state, in arrival order, live and in the result alike.
    const fromFrames = streamed.frames.filter((f) => f.state).map((f) => `stream ${f.state}`);
    expect(fromFrames.length).toBeGreaterThan(1);
    expect(states(streamed.events)).toEqual(fromFrames);
    expect(states(live)).toEqual(fromFrames);
    expect(fromFrames.at(-1)).toBe('stream completed');

    if (generation === 'v1.0') {
      const page = await s.list();
      // A list shows states too, but as a page, not as a transition of one task: no task-state events, parsed tasks.
      expect(states(page.events)).toEqual([]);
      expect(page.tasks?.map((t) => t.state)).toContain('completed');
    }
  });
});
