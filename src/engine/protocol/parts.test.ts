import { describe, expect, it } from 'vitest';
import { answerContent, foldStreamArtifacts, frameContent, partOf, renderPart } from './parts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('parts of every generation', () => {
  it.each([
    ['legacy text', { type: 'text', text: 'hi' }, { kind: 'text', text: 'hi' }],
    ['v0.3 text', { kind: 'text', text: 'hi' }, { kind: 'text', text: 'hi' }],
    ['v1.0 text with media type', { text: 'hi', mediaType: 'text/markdown' }, { kind: 'text', text: 'hi', mediaType: 'text/markdown' }],
    ['v0.3 data', { kind: 'data', data: { data: 1 } }, { kind: 'data', data: { data: 1 } }],
    ['v0.3 proto data (wrapped once more)', { data: { data: { a: 1 } } }, { kind: 'data', data: { a: 1 } }],
    ['v1.0 data', { data: [1, 2], mediaType: 'application/json' }, { kind: 'data', data: [1, 2], mediaType: 'application/json' }],
    [
      'v0.3 file bytes',
      { kind: 'file', file: { bytes: PNG, mimeType: 'image/png', name: 'a.png' } },
      { kind: 'file', bytes: PNG, mediaType: 'image/png', name: 'a.png' },
    ],
    [
      'v0.3 proto file',
      { file: { fileWithUri: 'https://x/y.pdf', mimeType: 'application/pdf' } },
      { kind: 'file', uri: 'https://x/y.pdf', mediaType: 'application/pdf', name: undefined },
    ],
    ['v1.0 raw', { raw: PNG, mediaType: 'image/png', filename: 'p.png' }, { kind: 'file', bytes: PNG, mediaType: 'image/png', name: 'p.png' }],
    ['v1.0 url', { url: 'https://x/r.csv', mediaType: 'text/csv' }, { kind: 'file', uri: 'https://x/r.csv', mediaType: 'text/csv', name: undefined }],
  ])('%s', (_name, input, expected) => {
    expect(partOf(input)).toEqual(expected);
  });

  it('ignores what is not a part', () => {
    expect(partOf(null)).toBeUndefined();
    expect(partOf('text')).toBeUndefined();
    expect(partOf({ kind: 'text' })).toBeUndefined();
  });
});

describe('answers and stream events', () => {
  it('reads a JSON-RPC Task answer (v0.3) and a v1.0 {task} wrapper alike', () => {
    const task = {
      kind: 'task',
      id: 't1',
      status: { state: 'input-required', message: { parts: [{ kind: 'text', text: 'For how many?' }] } },
      artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] }],
    };
    const v03 = answerContent(JSON.stringify({ jsonrpc: '2.0', id: 1, result: task }));
    expect(v03?.artifacts.map((a) => a.key)).toEqual(['a']);
    expect(v03?.messageParts).toEqual([{ kind: 'text', text: 'For how many?' }]);
    const v1 = answerContent(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        result: { task: { id: 't1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [{ artifactId: 'b', parts: [{ text: 'y' }] }] } },
      }),
    );
    expect(v1?.artifacts[0]?.parts).toEqual([{ kind: 'text', text: 'y' }]);
    expect(
      answerContent(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { message: { role: 'ROLE_AGENT', parts: [{ text: 'hello' }] } } }))?.messageParts,
    ).toEqual([{ kind: 'text', text: 'hello' }]);
    expect(answerContent('<html>oops</html>')).toBeUndefined();
    expect(answerContent(JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'no' } }))).toBeUndefined();
  });

  it('reassembles streamed artifact chunks (append) and marks the last chunk', () => {
    const ev = (artifact: unknown, extra: Record<string, unknown> = {}) => ({
      data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'artifact-update', taskId: 't', artifact, ...extra } }),
    });
    const frames = [
      { data: JSON.stringify({ jsonrpc: '2.0', id: 1, result: { kind: 'task', id: 't', status: { state: 'working' }, artifacts: [] } }) },
      ev({ artifactId: 'h', parts: [{ kind: 'text', text: 'Two agents ' }] }),
      ev({ artifactId: 'h', parts: [{ kind: 'text', text: 'exchange' }] }, { append: true }),
      ev({ artifactId: 'h', parts: [{ kind: 'text', text: ' cards' }] }, { append: true, lastChunk: true }),
    ];
    expect(frameContent(frames[2]!.data).chunk?.append).toBe(true);
    const folded = foldStreamArtifacts(frames);
    expect(folded).toHaveLength(1);
    expect(folded[0]!.parts).toEqual([{ kind: 'text', text: 'Two agents exchange cards' }]);
    expect(folded[0]!.complete).toBe(true);
    // Without lastChunk the artifact is still streaming.
    expect(foldStreamArtifacts(frames.slice(0, 3))[0]!.complete).toBe(false);
  });

  it('reads legacy artifact events (append on the artifact) and v1.0 artifactUpdate wrappers', () => {
    const legacy = frameContent(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { id: 't', artifact: { index: 0, parts: [{ type: 'text', text: 'b' }], append: true } } }),
    );
    expect(legacy.chunk).toMatchObject({ append: true, artifact: { key: '#0' } });
    const v1 = frameContent(JSON.stringify({ artifactUpdate: { taskId: 't', artifact: { artifactId: 'z', parts: [{ text: 'c' }] }, lastChunk: true } }));
    expect(v1.chunk).toMatchObject({ lastChunk: true, artifact: { key: 'z', complete: true } });
    expect(frameContent('not json')).toEqual({});
  });
});

describe('one writer, one reader: every generation reads back what it writes', () => {
  const style = (generation: 'legacy' | 'v0.2' | 'v0.3' | 'v1.0', protoParts = false) => ({
    generation,
    protoStyle: protoParts,
    protoParts,
    acceptedOutputModes: [],
    uuid: () => 'u',
  });
  it.each([
    ['legacy', style('legacy')],
    ['v0.2', style('v0.2')],
    ['v0.3', style('v0.3')],
    ['v0.3 proto JSON', style('v0.3', true)],
    ['v1.0', style('v1.0')],
  ] as const)('%s', (_, s) => {
    expect(partOf(renderPart(s, { kind: 'text', text: 'hi' }))).toEqual({ kind: 'text', text: 'hi' });
    expect(partOf(renderPart(s, { kind: 'data', data: { a: 1 } }))).toMatchObject({ kind: 'data', data: { a: 1 } });
    expect(partOf(renderPart(s, { kind: 'file', mediaType: 'image/png', name: 'p.png', bytes: 'AAAA' }))).toMatchObject({
      kind: 'file',
      mediaType: 'image/png',
      bytes: 'AAAA',
    });
    expect(partOf(renderPart(s, { kind: 'file', mediaType: 'text/plain', name: 'n.txt', uri: 'https://x.test/n' }))).toMatchObject({
      kind: 'file',
      uri: 'https://x.test/n',
    });
  });
});
