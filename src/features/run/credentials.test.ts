import { describe, expect, it } from 'vitest';
import { credentialsOf, draftFrom, EMPTY_DRAFT } from './credentials';

describe('credential drafts', () => {
  it('builds each kind of credentials and round-trips through the draft', () => {
    expect(credentialsOf(EMPTY_DRAFT)).toEqual({ ok: true, value: { kind: 'none' } });
    const bearer = credentialsOf({ ...EMPTY_DRAFT, kind: 'bearer', token: ' t0k3n ' });
    expect(bearer).toEqual({ ok: true, value: { kind: 'bearer', token: 't0k3n' } });
    const key = credentialsOf({ ...EMPTY_DRAFT, kind: 'api-key', apiKey: 'k', apiKeyHeader: 'X-Key' });
    expect(key).toEqual({ ok: true, value: { kind: 'api-key', value: 'k', name: 'X-Key' } });
    if (key.ok) expect(credentialsOf(draftFrom(key.value))).toEqual(key);
  });
  it('says what is missing', () => {
    expect(credentialsOf({ ...EMPTY_DRAFT, kind: 'bearer' })).toMatchObject({ ok: false, error: expect.stringContaining('bearer token') });
    expect(credentialsOf({ ...EMPTY_DRAFT, kind: 'header', headerName: 'bad header', headerValue: 'v' })).toMatchObject({ ok: false });
    expect(credentialsOf({ ...EMPTY_DRAFT, kind: 'api-key', apiKey: 'k', apiKeyHeader: 'a:b' })).toMatchObject({ ok: false });
  });
});
