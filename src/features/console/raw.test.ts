import { describe, expect, it } from 'vitest';
import { draftOf, parseHeaderLines, rawRequestOf } from './raw';

describe('the request editor', () => {
  it('loads an exchange: hop headers dropped, masked values kept as recorded, the JSON body pretty-printed', () => {
    const d = draftOf(
      {
        method: 'POST',
        url: 'http://127.0.0.1:1/jsonrpc',
        headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]', 'content-length': '42', 'x-a2a-interop': '1' },
        body: '{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"t"}}',
        bodySize: 60,
      },
      'exchange x1',
    );
    expect(d.headers).toBe('content-type: application/json\nauthorization: Bearer [REDACTED]');
    expect(d.body).toContain('\n  "method": "tasks/get"');
    expect(rawRequestOf(d)).toEqual({
      ok: true,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/jsonrpc',
        headers: { 'content-type': 'application/json', authorization: 'Bearer [REDACTED]' },
        body: d.body,
      },
    });
  });

  it('refuses what cannot be sent, naming the field', () => {
    expect(rawRequestOf({ source: 's', method: 'POST', url: 'not a url', headers: '', body: '' })).toMatchObject({ ok: false, field: 'url' });
    expect(rawRequestOf({ source: 's', method: 'POST', url: 'file:///etc/passwd', headers: '', body: '' })).toMatchObject({ ok: false, field: 'url' });
    expect(rawRequestOf({ source: 's', method: 'POST', url: 'http://a/', headers: 'no colon here', body: '' })).toMatchObject({ ok: false, field: 'headers' });
    expect(rawRequestOf({ source: 's', method: 'GET', url: 'http://a/', headers: '', body: '{}' })).toMatchObject({ ok: false, field: 'body' });
    expect(parseHeaderLines('A: 1\n\n B : two : three ')).toEqual({ ok: true, headers: { A: '1', B: 'two : three' } });
  });
});
