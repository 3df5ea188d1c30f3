/** Console sessions activate extensions: SendOptions.extensions becomes the generation's header; the card's are listed. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHost } from '../../hosts/node';
import { startDefectAgent, type RunningDefectAgent } from '../../testing/defect-agent';
import { EXT_OPTIONAL, EXT_REQUIRED } from '../../testing/defect-agent/extensions';
import { openSession, type Session } from '.';

let v1: RunningDefectAgent;
let v03: RunningDefectAgent;
beforeAll(async () => {
  [v1, v03] = await Promise.all([
    startDefectAgent({ generation: 'v1.0', features: { extensions: true }, stepMs: 5 }),
    startDefectAgent({ generation: 'v0.3', features: { extensions: true }, stepMs: 5 }),
  ]);
});
afterAll(async () => {
  await Promise.all([v1?.close(), v03?.close()]);
});

async function open(a: RunningDefectAgent): Promise<Session> {
  const o = await openSession(createNodeHost(), { agentUrl: a.cardUrl, credentials: { kind: 'none' } });
  if (!o.ok) throw new Error(o.unavailable.message);
  expect(o.target.extensions).toEqual([
    { uri: EXT_OPTIONAL, required: false, description: expect.any(String) },
    { uri: EXT_REQUIRED, required: true, description: expect.any(String) },
  ]);
  return o.session;
}

const lastRequestHeader = (a: RunningDefectAgent, name: string) => a.requests.filter((r) => r.method === 'POST').at(-1)?.headers[name];

describe('console session extensions', () => {
  it('v1.0: the required extension is activated on every message, as a run activates it; those asked for follow it', async () => {
    const s = await open(v1);
    const plain = await s.send({ text: 'Write a haiku' });
    expect(plain.ok, plain.summary).toBe(true);
    expect(lastRequestHeader(v1, 'a2a-extensions')).toBe(EXT_REQUIRED);
    const ok = await s.send({ text: 'Write a haiku', extensions: [` ${EXT_OPTIONAL} `, EXT_REQUIRED] });
    expect(ok.ok).toBe(true);
    expect(lastRequestHeader(v1, 'a2a-extensions')).toBe(`${EXT_REQUIRED},${EXT_OPTIONAL}`);
    expect(ok.exchanges.at(-1)?.response?.headers['a2a-extensions']).toBe(`${EXT_REQUIRED},${EXT_OPTIONAL}`);
    // Every other call carries it too (a get, like every request of a run).
    await s.get({ taskId: ok.task!.id! });
    expect(v1.requests.at(-1)?.headers['a2a-extensions']).toBe(EXT_REQUIRED);
  });

  it('v1.0: a request without it is still possible by hand (raw), and the agent refuses it', async () => {
    const s = await open(v1);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'r1',
      method: 'SendMessage',
      params: { message: { messageId: 'm-raw', role: 'ROLE_USER', parts: [{ text: 'Write a haiku' }] } },
    });
    const r = await s.raw({ method: 'POST', url: v1.url, headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0' }, body });
    expect(r.ok).toBe(false);
    expect(JSON.stringify(r.exchanges.at(-1)?.response?.body ?? '')).toMatch(/-32008/);
  });

  it('v0.3: the header is X-A2A-Extensions, on the streaming method too', async () => {
    const s = await open(v03);
    const r = await s.stream({ text: 'Write a haiku', extensions: [EXT_OPTIONAL] });
    expect(r.ok).toBe(true);
    expect(lastRequestHeader(v03, 'x-a2a-extensions')).toBe(`${EXT_REQUIRED},${EXT_OPTIONAL}`);
    expect(lastRequestHeader(v03, 'a2a-extensions')).toBeUndefined();
  });
});
