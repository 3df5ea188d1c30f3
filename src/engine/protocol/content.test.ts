import { describe, expect, it } from 'vitest';
import { callContent, frameTaskContent, type FrameLike } from './content';

const body = (result: unknown) => ({ response: { body: JSON.stringify({ jsonrpc: '2.0', id: 1, result }) } });

describe('what a call says about tasks and messages', () => {
  it('a Task answer: state and context as judged, artifacts and the status message parts from the body', () => {
    const c = callContent({
      task: { id: 't1', contextId: 'c1', state: 'input-required', rawState: 'input-required' },
      frames: [],
      exchanges: [
        body({
          kind: 'task',
          id: 't1',
          status: { state: 'input-required', message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'For how many?' }] } },
          artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'menu' }] }],
        }),
      ],
    });
    expect(c.tasks).toEqual([
      {
        id: 't1',
        contextId: 'c1',
        state: 'input-required',
        rawState: 'input-required',
        statusText: undefined,
        artifacts: [{ key: 'a', artifactId: 'a', parts: [{ kind: 'text', text: 'menu' }], complete: true }],
        statusParts: [{ kind: 'text', text: 'For how many?' }],
        artifactsCut: false,
      },
    ]);
    expect(c.message).toBeUndefined();
  });

  it('a stream: chunks reassembled, the last status message, a cut artifact event said; a frame at a time too', () => {
    const frames: FrameLike[] = [
      {
        kind: 'task',
        ms: 1,
        taskId: 't2',
        state: 'submitted',
        rawState: 'submitted',
        data: JSON.stringify({ kind: 'task', id: 't2', status: { state: 'submitted' } }),
      },
      {
        kind: 'artifact',
        ms: 2,
        taskId: 't2',
        data: JSON.stringify({ kind: 'artifact-update', taskId: 't2', artifact: { artifactId: 'x', parts: [{ kind: 'text', text: 'Two ' }] } }),
      },
      {
        kind: 'artifact',
        ms: 3,
        taskId: 't2',
        data: JSON.stringify({
          kind: 'artifact-update',
          taskId: 't2',
          append: true,
          lastChunk: true,
          artifact: { artifactId: 'x', parts: [{ kind: 'text', text: 'agents' }] },
        }),
      },
      { kind: 'artifact', ms: 4, taskId: 't2', data: '{"kind":"artifact-update","artifact":{"parts":[{"kind":"te' },
    ];
    const c = callContent({ task: { id: 't2', state: 'completed', rawState: 'completed' }, frames, exchanges: [] });
    expect(c.tasks[0]).toMatchObject({ id: 't2', state: 'completed', artifactsCut: true, statusParts: [] });
    expect(c.tasks[0]!.artifacts?.[0]).toMatchObject({ key: 'x', parts: [{ kind: 'text', text: 'Two agents' }], complete: true });
    expect(frameTaskContent(frames.slice(0, 2), frames[1]!)).toMatchObject({ id: 't2', artifacts: [{ key: 'x', complete: false }] });
    expect(frameTaskContent(frames.slice(0, 1), frames[0]!)).toEqual({ id: 't2', state: 'submitted', rawState: 'submitted', statusParts: [] });
    expect(frameTaskContent([], { kind: 'message', ms: 1, data: '{}' })).toBeUndefined();
  });

  it('a Message answer (v1.0 wrapper) and a listed page', () => {
    const c = callContent({
      message: { text: 'hi', taskId: 't9' },
      frames: [],
      exchanges: [body({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } })],
      tasks: [{ id: 't9', contextId: 'c9', state: 'working', rawState: 'TASK_STATE_WORKING' }, { contextId: 'no id' }],
    });
    expect(c.message).toEqual({ parts: [{ kind: 'text', text: 'hi' }], text: 'hi', taskId: 't9' });
    expect(c.tasks).toEqual([{ id: 't9', contextId: 'c9', state: 'working', rawState: 'TASK_STATE_WORKING' }]);
  });
});
