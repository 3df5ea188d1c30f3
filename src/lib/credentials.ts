/** Credential drafts as typed in a form (the Run form, the console), and the Credentials they make. Kept in memory only. */
import type { Credentials } from './engine';

export type CredentialKind = Credentials['kind'];

export interface CredentialDraft {
  kind: CredentialKind;
  token: string;
  apiKey: string;
  apiKeyHeader: string;
  headerName: string;
  headerValue: string;
  /** OAuth 2.0 client credentials (the token is fetched from the endpoint the card declares). */
  oauthClientId: string;
  oauthClientSecret: string;
  oauthScope: string;
}

export const EMPTY_DRAFT: CredentialDraft = {
  kind: 'none',
  token: '',
  apiKey: '',
  apiKeyHeader: '',
  headerName: '',
  headerValue: '',
  oauthClientId: '',
  oauthClientSecret: '',
  oauthScope: '',
};

export function draftFrom(c: Credentials | undefined): CredentialDraft {
  if (!c) return EMPTY_DRAFT;
  switch (c.kind) {
    case 'none':
      return EMPTY_DRAFT;
    case 'bearer':
      return { ...EMPTY_DRAFT, kind: 'bearer', token: c.token };
    case 'api-key':
      return { ...EMPTY_DRAFT, kind: 'api-key', apiKey: c.value, apiKeyHeader: c.name ?? '' };
    case 'header':
      return { ...EMPTY_DRAFT, kind: 'header', headerName: c.name, headerValue: c.value };
    case 'oauth2':
      return { ...EMPTY_DRAFT, kind: 'oauth2', oauthClientId: c.clientId, oauthClientSecret: c.clientSecret, oauthScope: c.scope ?? '' };
  }
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The credentials of the draft, or why they are incomplete. */
export function credentialsOf(d: CredentialDraft): { ok: true; value: Credentials } | { ok: false; error: string } {
  switch (d.kind) {
    case 'none':
      return { ok: true, value: { kind: 'none' } };
    case 'bearer':
      return d.token.trim()
        ? { ok: true, value: { kind: 'bearer', token: d.token.trim() } }
        : { ok: false, error: 'Enter the bearer token, or choose "No credentials".' };
    case 'api-key':
      if (!d.apiKey.trim()) return { ok: false, error: 'Enter the API key, or choose "No credentials".' };
      if (d.apiKeyHeader && !HEADER_NAME.test(d.apiKeyHeader)) return { ok: false, error: `"${d.apiKeyHeader}" is not a valid header name.` };
      return { ok: true, value: { kind: 'api-key', value: d.apiKey.trim(), name: d.apiKeyHeader.trim() || undefined } };
    case 'header':
      if (!HEADER_NAME.test(d.headerName)) return { ok: false, error: 'Enter a valid header name (letters, digits and -).' };
      if (!d.headerValue) return { ok: false, error: 'Enter the header value.' };
      return { ok: true, value: { kind: 'header', name: d.headerName, value: d.headerValue } };
    case 'oauth2':
      if (!d.oauthClientId.trim()) return { ok: false, error: 'Enter the OAuth client id, or choose "No credentials".' };
      if (!d.oauthClientSecret) return { ok: false, error: 'Enter the OAuth client secret.' };
      return {
        ok: true,
        value: { kind: 'oauth2', clientId: d.oauthClientId.trim(), clientSecret: d.oauthClientSecret, scope: d.oauthScope.trim() || undefined },
      };
  }
}
