import { describe, expect, it } from 'vitest';
import type { Generation } from '../model/check';
import type { InputPart } from './input';
import { sendParams, type MessageStyle } from './messages';

const style = (generation: Generation, o: Partial<MessageStyle> = {}): MessageStyle => {
  let n = 0;
  return { generation, protoStyle: false, protoParts: false, acceptedOutputModes: ['text/plain'], uuid: () => `u${++n}`, ...o };
};
const parts: InputPart[] = [
  { kind: 'text', text: 'hi' },
  { kind: 'data', data: { a: 1 } },
  { kind: 'file', bytes: 'AA==', mediaType: 'image/png', name: 'f.png' },
];

describe('request bodies per generation', () => {
  it('legacy: TaskSendParams with a client task id and session id, `type` tags', () => {
    expect(sendParams(style('legacy'), { text: 'x', parts, historyLength: 1 })).toEqual({
      id: 'u1',
      sessionId: 'u2',
      message: {
        role: 'user',
        parts: [
          { type: 'text', text: 'hi' },
          { type: 'data', data: { a: 1 } },
          { type: 'file', file: { name: 'f.png', mimeType: 'image/png', bytes: 'AA==' } },
        ],
      },
      historyLength: 1,
    });
  });

  it('v0.3 JSON-RPC: `kind` tags, blocking false for returnImmediately', () => {
    expect(sendParams(style('v0.3'), { text: 'x', taskId: 't', contextId: 'c', returnImmediately: true })).toEqual({
      message: { kind: 'message', messageId: 'u1', role: 'user', parts: [{ kind: 'text', text: 'x' }], taskId: 't', contextId: 'c' },
      configuration: { acceptedOutputModes: ['text/plain'], blocking: false },
    });
  });

  it('v0.3 HTTP+JSON in the proto style: `content`, ROLE_USER and proto parts', () => {
    expect(sendParams(style('v0.3', { protoStyle: true, protoParts: true }), { text: 'x', parts, blocking: true })).toEqual({
      message: {
        messageId: 'u1',
        role: 'ROLE_USER',
        content: [{ text: 'hi' }, { data: { data: { a: 1 } } }, { file: { fileWithBytes: 'AA==', mimeType: 'image/png' } }],
      },
      configuration: { acceptedOutputModes: ['text/plain'], blocking: true },
    });
  });

  it('v0.2 HTTP+JSON: the proto message frame around `kind`-tagged parts (as before the table)', () => {
    expect(sendParams(style('v0.2', { protoStyle: true }), { text: 'x' }).message).toEqual({
      messageId: 'u1',
      role: 'ROLE_USER',
      content: [{ kind: 'text', text: 'x' }],
    });
  });

  it('v1.0: ProtoJSON parts, returnImmediately, the tenant in every request', () => {
    expect(
      sendParams(style('v1.0', { tenant: 'acme' }), { text: 'x', parts, returnImmediately: true, acceptedOutputModes: ['application/json'], messageId: 'm1' }),
    ).toEqual({
      message: {
        messageId: 'm1',
        role: 'ROLE_USER',
        parts: [{ text: 'hi' }, { data: { a: 1 }, mediaType: 'application/json' }, { raw: 'AA==', mediaType: 'image/png', filename: 'f.png' }],
      },
      configuration: { acceptedOutputModes: ['application/json'], returnImmediately: true },
      tenant: 'acme',
    });
  });
});
