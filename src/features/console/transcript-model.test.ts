import { describe, expect, it } from 'vitest';
import type { SessionFrame } from '../../lib/console-adapter';
import type { ConsoleCall } from './console-store';
import { shortIds, turnOf } from './transcript-model';

const frame = (seq: number, rawState: string, data = '{}'): SessionFrame => ({
  seq,
  ms: seq * 10,
  data,
  kind: 'status',
  taskId: '23295084-1111-4222-8333-444455556666',
  state: rawState as SessionFrame['state'],
  rawState,
  findings: [],
});

const call = (patch: Partial<ConsoleCall>): ConsoleCall => ({
  id: 'c1',
  op: 'stream',
  title: 'Send (streaming): "hi"',
  input: { text: 'hi' },
  startedAt: 0,
  status: 'done',
  frames: [],
  ...patch,
});

describe('a call as a turn of the conversation', () => {
  it('the user says what they typed; the task states come in arrival order, repeats dropped', () => {
    const t = turnOf(call({ status: 'running', frames: [frame(1, 'submitted'), frame(2, 'working'), frame(3, 'working'), frame(4, 'completed')] }));
    expect(t.you).toBe('hi');
    expect(t.states).toEqual(['submitted', 'working', 'completed']);
    expect(t.taskId).toBe('23295084-1111-4222-8333-444455556666');
    expect(t.statusText).toBe('streaming, 4 event(s)');
  });

  it('a stream the user stopped is "stopped by you", whatever the stream did', () => {
    const t = turnOf(call({ stopped: true, frames: [frame(1, 'working')] }));
    expect(t.status).toBe('stopped');
    expect(t.statusText).toBe('stopped by you');
  });

  it('an action is said with short ids (the full id stays in accessible names)', () => {
    const t = turnOf(call({ op: 'get', title: 'Get task 23295084-1111-4222-8333-444455556666', input: { taskId: '23295084-1111-4222-8333-444455556666' } }));
    expect(t.you).toBe('Get task 23295084…');
    expect(shortIds('Cancel task 23295084-1111-4222-8333-444455556666 now')).toBe('Cancel task 23295084… now');
  });
});
