import { describe, expect, it } from 'vitest';
import { decodeBase64, downloadName, imageSrc, renderingOf, type PartView } from './parts';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('rendering by media type', () => {
  const file = (mediaType: string, bytes = PNG): PartView => ({ kind: 'file', mediaType, bytes, name: 'f' });
  it('renders raster images inline, never SVG or HTML; text stays text; JSON is a tree; URIs are links', () => {
    expect(renderingOf(file('image/png'))).toBe('image');
    expect(imageSrc(file('image/png'))).toBe(`data:image/png;base64,${PNG}`);
    expect(renderingOf(file('image/svg+xml', btoa('<svg onload="alert(1)"/>')))).toBe('download');
    expect(imageSrc(file('image/svg+xml', btoa('<svg/>')))).toBeUndefined();
    expect(renderingOf(file('text/html', btoa('<script>alert(1)</script>')))).toBe('download');
    expect(renderingOf({ kind: 'text', text: '<b>hi</b>', mediaType: 'text/html' })).toBe('text');
    expect(renderingOf({ kind: 'text', text: '{"a":1}', mediaType: 'application/json' })).toBe('json');
    expect(renderingOf({ kind: 'text', text: 'not json', mediaType: 'application/json' })).toBe('text');
    expect(renderingOf({ kind: 'data', data: { a: 1 } })).toBe('json');
    expect(renderingOf({ kind: 'file', uri: 'https://x/y.png', mediaType: 'image/png' })).toBe('link');
    // Bytes that are not base64 are not an image (and the data: URL is never built from them).
    expect(renderingOf(file('image/png', '"><script>'))).toBe('download');
  });

  it('decodes base64 (standard and URL alphabets) and refuses the rest', () => {
    expect(decodeBase64('aGk=')).toEqual(new Uint8Array([104, 105]));
    expect(decodeBase64('aGk')).toEqual(new Uint8Array([104, 105]));
    expect(decodeBase64('_-8=')).toEqual(new Uint8Array([255, 239]));
    expect(decodeBase64('<not base64>')).toBeUndefined();
  });

  it('makes download names safe', () => {
    expect(downloadName('../../etc/passwd')).toBe('passwd');
    expect(downloadName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(downloadName('\u0000\u001f')).toBe('artifact.bin');
    expect(downloadName('.hidden')).toBe('hidden');
    expect(downloadName(undefined)).toBe('artifact.bin');
  });
});
