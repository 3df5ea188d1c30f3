import { describe, expect, it } from 'vitest';
import { buildSend, EMPTY_DRAFT, MAX_UPLOAD_BYTES, type ComposeDraft } from './compose';

const draft = (patch: Partial<ComposeDraft>): ComposeDraft => ({ ...EMPTY_DRAFT, ...patch });

describe('composer drafts', () => {
  it('a text message, blocking, new task', () => {
    const r = buildSend(draft({ text: 'hello' }));
    expect(r).toEqual({ ok: true, request: { stream: false, text: 'hello', parts: [{ kind: 'text', text: 'hello' }], blocking: true } });
  });

  it('every option: skill, streaming, history length, output modes, metadata, data and file parts, continue a task', () => {
    const r = buildSend(
      draft({
        text: 'For two',
        dataJson: '{"seats": 2}',
        fileMode: 'upload',
        file: { name: 'a.png', mediaType: 'image/png', bytes: 'aGk=', size: 2 },
        skill: 'booking',
        mode: 'streaming',
        historyLength: '3',
        outputModes: 'text/plain, application/json',
        metadataJson: '{"trace": "x"}',
        target: 'continue',
        taskId: ' t1 ',
        contextId: 'c1',
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.request).toEqual({
      stream: true,
      text: 'For two',
      parts: [
        { kind: 'text', text: 'For two' },
        { kind: 'data', data: { seats: 2 } },
        { kind: 'file', mediaType: 'image/png', name: 'a.png', bytes: 'aGk=' },
      ],
      blocking: true,
      skill: 'booking',
      historyLength: 3,
      acceptedOutputModes: ['text/plain', 'application/json'],
      metadata: { trace: 'x' },
      taskId: 't1',
      contextId: 'c1',
    });
  });

  it('non-blocking and a file by URI; a message without text is described in words', () => {
    const r = buildSend(draft({ mode: 'non-blocking', fileMode: 'uri', fileUri: 'https://example.com/r.pdf?x=1', fileUriType: 'application/pdf' }));
    expect(r.ok && r.request).toMatchObject({
      blocking: false,
      text: 'a file by URI (application/pdf)',
      parts: [{ kind: 'file', uri: 'https://example.com/r.pdf?x=1', name: 'r.pdf' }],
    });
  });

  it('says what is wrong, per field', () => {
    const r = buildSend(
      draft({
        dataJson: '[1]',
        metadataJson: '{bad',
        historyLength: '-1',
        outputModes: 'text/plain, not a type',
        target: 'continue',
        fileMode: 'uri',
        fileUri: 'javascript:alert(1)',
      }),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.errors).sort()).toEqual(['dataJson', 'fileUri', 'historyLength', 'metadataJson', 'outputModes', 'taskId']);
    expect(r.errors.dataJson).toMatch(/JSON object/);
    expect(r.errors.metadataJson).toMatch(/not valid JSON/);
    expect(buildSend(draft({})).ok ? null : 'refused').toBe('refused');
    const empty = buildSend(draft({}));
    expect(!empty.ok && empty.errors.text).toMatch(/Write a message/);
  });

  it('refuses an upload over the inline limit, streaming the card does not declare, a legacy continuation without a task id', () => {
    const big = buildSend(draft({ text: 'x', fileMode: 'upload', file: { name: 'b', mediaType: '', bytes: '', size: MAX_UPLOAD_BYTES + 1 } }));
    expect(!big.ok && big.errors.file).toMatch(/inline/);
    const noStream = buildSend(draft({ text: 'x', mode: 'streaming' }), { streaming: false });
    expect(!noStream.ok && noStream.errors.mode).toMatch(/does not declare streaming/);
    const legacy = buildSend(draft({ text: 'x', target: 'continue', contextId: 'c' }), { generation: 'legacy' });
    expect(!legacy.ok && legacy.errors.taskId).toMatch(/legacy/);
    expect(buildSend(draft({ text: 'x', target: 'continue', contextId: 'c' }), { generation: 'v0.3' }).ok).toBe(true);
  });
});
