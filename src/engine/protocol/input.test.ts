import { describe, expect, it } from 'vitest';
import { acceptedInputModes, buildInput } from './input';

describe('test input from the declared media types', () => {
  it("uses the skill's modes, else the card's defaults, else text", () => {
    expect(acceptedInputModes(['image/png'], ['text/plain'])).toEqual(['image/png']);
    expect(acceptedInputModes([], ['application/json'])).toEqual(['application/json']);
    expect(acceptedInputModes(undefined, [])).toEqual(['text/plain']);
  });

  it('sends text when text is accepted, else data, else a sample file; says when no declared type can be produced', () => {
    expect(buildInput('hi', ['text/*']).parts).toEqual([{ kind: 'text', text: 'hi' }]);
    expect(buildInput('hi', ['application/json']).parts).toEqual([{ kind: 'data', data: { message: 'hi' } }]);
    const png = buildInput('hi', ['image/*']);
    expect(png.mediaType).toBe('image/png');
    expect(png.parts[0]).toMatchObject({ kind: 'file', mediaType: 'image/png' });
    const video = buildInput('hi', ['video/mp4']);
    expect(video.unsupported).toMatch(/video\/mp4/);
    expect(video.parts).toEqual([{ kind: 'text', text: 'hi' }]);
  });
});
